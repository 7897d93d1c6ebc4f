//! Seeded input arrays: the shapes a sort is usually judged on.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Random values are drawn uniformly from `0..RANDOM_BOUND`, non-negative as the seed's were.
pub const RANDOM_BOUND: i64 = 1_000_000_000;

/// Few-unique arrays draw from this many distinct values.
pub const FEW_UNIQUE: i64 = 16;

/// The shape of an input array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum InputKind {
    /// Uniform in `0..RANDOM_BOUND` (the seed's benchmark).
    Random,
    /// The random array, ascending (stack sort's worst case: one stack per value).
    Sorted,
    /// The random array, descending (stack sort's best case: one stack).
    Reversed,
    /// Uniform over [`FEW_UNIQUE`] values.
    FewUnique,
    /// Ascending teeth of `⌈√n⌉` values each: `0, 1, .., t-1, 0, 1, ..`.
    Sawtooth,
}

impl InputKind {
    /// Every kind, in display order.
    pub const ALL: [InputKind; 5] = [
        InputKind::Random,
        InputKind::Sorted,
        InputKind::Reversed,
        InputKind::FewUnique,
        InputKind::Sawtooth,
    ];

    /// The kebab-case name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            InputKind::Random => "random",
            InputKind::Sorted => "sorted",
            InputKind::Reversed => "reversed",
            InputKind::FewUnique => "few-unique",
            InputKind::Sawtooth => "sawtooth",
        }
    }

    /// An array of `n` values of this shape; the same `seed` gives the same array.
    ///
    /// ```
    /// use ply_lab::inputs::InputKind;
    /// let a = InputKind::Sawtooth.generate(10, 1);
    /// assert_eq!(a, [0, 1, 2, 3, 0, 1, 2, 3, 0, 1]);
    /// assert_eq!(InputKind::Random.generate(5, 7), InputKind::Random.generate(5, 7));
    /// ```
    pub fn generate(self, n: usize, seed: u64) -> Vec<i64> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut random =
            |bound: i64| -> Vec<i64> { (0..n).map(|_| rng.random_range(0..bound)).collect() };
        match self {
            InputKind::Random => random(RANDOM_BOUND),
            InputKind::Sorted => {
                let mut a = random(RANDOM_BOUND);
                a.sort_unstable();
                a
            }
            InputKind::Reversed => {
                let mut a = random(RANDOM_BOUND);
                a.sort_unstable_by(|x, y| y.cmp(x));
                a
            }
            InputKind::FewUnique => random(FEW_UNIQUE),
            InputKind::Sawtooth => {
                let tooth = n.isqrt() + usize::from(n.isqrt().pow(2) < n);
                (0..n).map(|i| (i % tooth.max(1)) as i64).collect()
            }
        }
    }
}

impl std::fmt::Display for InputKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an input kind.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown input kind {name:?}; the kinds are random, sorted, reversed, few-unique, sawtooth"
)]
pub struct ParseInputKindError {
    /// The name given.
    pub name: String,
}

impl std::str::FromStr for InputKind {
    type Err = ParseInputKindError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        InputKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| ParseInputKindError { name: s.to_owned() })
    }
}

/// The seed of one case, mixed from the run's seed so that cases are independent.
pub fn case_seed(seed: u64, kind: InputKind, n: usize, run: u32) -> u64 {
    let mut x = seed
        ^ (kind as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (n as u64).rotate_left(20)
        ^ u64::from(run).rotate_left(48);
    // splitmix64's finaliser
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}
