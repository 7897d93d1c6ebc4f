//! Three pegs: the classic solution (recursive, binary, and its k-th move alone), exact
//! distances and every shortest path between any two positions (Hinz 1992), and the longest
//! non-self-crossing solution.
//!
//! Everything here needs exactly 3 pegs; the callers check it.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::plan::Step;
use super::{Move, Peg, Position};

/// The classic optimal solution, move by move, by the binary rule: move `m` (from 1) moves
/// the disc of the lowest set bit of `m`, and each disc cycles over the three pegs always in
/// the same direction (the smallest disc towards the goal when `n` is odd).
///
/// Constant work per move and memory linear in `n`. For `n > 127` the move counter would
/// overflow after 2^128 - 1 moves, which no machine reaches.
#[derive(Clone, Debug)]
pub struct BinaryMoves {
    /// The peg of every disc (only the 128 smallest can move within 2^128 - 1 moves).
    peg: [u8; 128],
    /// `succ[c][p]`: the next peg after `p` for a disc of class `c` (`d & 1`).
    succ: [[u8; 64]; 2],
    /// Moves done, low and high words.
    lo: u64,
    hi: u64,
    /// Moves in all, low and high words.
    total_lo: u64,
    total_hi: u64,
    /// The pegs `from`, `to`, `via` given to [`BinaryMoves::new`].
    labels: [u8; 3],
    /// For [`BinaryMoves::fill`], made on first use: the transfer of the [`BLOCK_DISCS`]
    /// smallest discs between each ordered pair of the three pegs, `BLOCK - 1` moves each.
    templates: Option<Box<[Move]>>,
}

/// Discs whose transfer [`BinaryMoves::fill`] copies whole from a template.
pub const BLOCK_DISCS: usize = 10;
/// Moves per block of [`BinaryMoves::fill`]: a template and one move of a larger disc.
const BLOCK: u64 = 1 << BLOCK_DISCS;

impl BinaryMoves {
    /// The optimal transfer of `n` discs from `from` to `to` over `via`.
    ///
    /// # Panics
    /// If a peg is 64 or more.
    pub fn new(n: usize, from: Peg, to: Peg, via: Peg) -> BinaryMoves {
        let (f, t, v) = (from.index(), to.index(), via.index());
        assert!(f < 64 && t < 64 && v < 64);
        // Disc d cycles from -> to -> via when n - d is odd, from -> via -> to otherwise.
        let mut forward = [0u8; 64];
        let mut backward = [0u8; 64];
        forward[f] = to.0;
        forward[t] = via.0;
        forward[v] = from.0;
        backward[f] = via.0;
        backward[v] = to.0;
        backward[t] = from.0;
        let succ = if n % 2 == 1 {
            [forward, backward]
        } else {
            [backward, forward]
        };
        let total: u128 = if n >= 128 {
            u128::MAX
        } else {
            (1u128 << n) - 1
        };
        BinaryMoves {
            peg: [from.0; 128],
            succ,
            lo: 0,
            hi: 0,
            total_lo: total as u64,
            total_hi: (total >> 64) as u64,
            labels: [from.0, to.0, via.0],
            templates: None,
        }
    }

    /// Writes the next moves into `out`, as many as fit or remain; gives how many (0: the
    /// solution is over). The same moves as [`Iterator::next`], much faster: between two
    /// moves of a disc larger than the [`BLOCK_DISCS`] smallest, those smallest discs make
    /// the classic transfer of a tower between two pegs, always the same moves up to the
    /// names of the pegs, so whole blocks are copied from one of six templates (made on the
    /// first call, 12 KiB).
    pub fn fill(&mut self, out: &mut [Move]) -> usize {
        let mut i = 0;
        let small = BLOCK as usize - 1;
        while i < out.len() {
            // At a multiple of BLOCK moves the smallest discs are a tower, on the peg of the
            // largest of them, and the next BLOCK - 1 moves all belong to them (the total,
            // 2^n - 1, is past them while n > BLOCK_DISCS).
            if self.lo.is_multiple_of(BLOCK) && out.len() - i >= small && self.a_block_remains() {
                let f = self.peg[BLOCK_DISCS - 1];
                let t = self.succ[(BLOCK_DISCS - 1) & 1][f as usize & 63];
                let k = self.template_index(f, t);
                let [a, b, c] = self.labels;
                let templates = self.templates.get_or_insert_with(|| {
                    let mut all = Vec::with_capacity(6 * small);
                    for (f, t, v) in [
                        (a, b, c),
                        (a, c, b),
                        (b, a, c),
                        (b, c, a),
                        (c, a, b),
                        (c, b, a),
                    ] {
                        all.extend(RecursiveMoves::new(BLOCK_DISCS, Peg(f), Peg(t), Peg(v)));
                    }
                    all.into_boxed_slice()
                });
                out[i..i + small].copy_from_slice(&templates[k * small..(k + 1) * small]);
                self.peg[..BLOCK_DISCS].fill(t);
                self.lo += BLOCK - 1;
                i += small;
                continue;
            }
            match self.next() {
                Some(mv) => out[i] = mv,
                None => break,
            }
            i += 1;
        }
        i
    }

    /// Whether every move is made.
    pub(crate) fn is_over(&self) -> bool {
        self.lo == self.total_lo && self.hi == self.total_hi
    }

    /// Moves before the next multiple of 2^`discs` moves done (1 to 2^`discs`), where the
    /// `discs` smallest discs are a tower again.
    pub(crate) fn moves_to_tower(&self, discs: usize) -> u64 {
        let size = 1u64 << discs;
        size - (self.lo & (size - 1))
    }

    /// Whether [`BinaryMoves::take_tower`] would give a transfer.
    pub(crate) fn tower_next(&self, discs: usize) -> bool {
        debug_assert!((1..64).contains(&discs));
        let size = 1u64 << discs;
        let done = (u128::from(self.hi) << 64) | u128::from(self.lo);
        let total = (u128::from(self.total_hi) << 64) | u128::from(self.total_lo);
        self.lo & (size - 1) == 0 && total - done >= u128::from(size - 1)
    }

    /// When the next 2^`discs` - 1 moves are the classic transfer of the `discs` smallest
    /// discs (`1 <= discs < 64`; a tower of them, at a multiple of 2^`discs` moves, with a
    /// whole transfer left), skips those moves and gives the transfer's `(from, to, via)`:
    /// the caller writes them from a template of its own.
    pub(crate) fn take_tower(&mut self, discs: usize) -> Option<(u8, u8, u8)> {
        if !self.tower_next(discs) {
            return None;
        }
        let size = 1u64 << discs;
        // As in `fill`: the tower sits on the peg of its largest disc and goes where that
        // disc goes next.
        let f = self.peg[discs - 1];
        let t = self.succ[(discs - 1) & 1][f as usize & 63];
        let v = self.labels.into_iter().find(|&l| l != f && l != t)?;
        self.peg[..discs].fill(t);
        self.lo += size - 1;
        Some((f, t, v))
    }

    /// Whether the `BLOCK - 1` moves of a template remain.
    fn a_block_remains(&self) -> bool {
        let done = (u128::from(self.hi) << 64) | u128::from(self.lo);
        let total = (u128::from(self.total_hi) << 64) | u128::from(self.total_lo);
        total - done >= BLOCK as u128 - 1
    }

    /// The template of a transfer from `f` to `t`, in the order [`BinaryMoves::fill`] makes
    /// them.
    fn template_index(&self, f: u8, t: u8) -> usize {
        let idx = |p: u8| {
            self.labels
                .iter()
                .position(|&l| l == p)
                .expect("a peg of the task")
        };
        let (f, t) = (idx(f), idx(t));
        // (0,1) (0,2) (1,0) (1,2) (2,0) (2,1)
        2 * f + t - usize::from(t > f)
    }
}

impl Iterator for BinaryMoves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.lo == self.total_lo && self.hi == self.total_hi {
            return None;
        }
        self.lo = self.lo.wrapping_add(1);
        let d = if self.lo != 0 {
            self.lo.trailing_zeros()
        } else {
            self.hi += 1;
            64 + self.hi.trailing_zeros()
        } as usize
            & 127;
        let from = self.peg[d];
        let to = self.succ[d & 1][from as usize & 63];
        self.peg[d] = to;
        Some(Move::new(from, to))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let done = (u128::from(self.hi) << 64) | u128::from(self.lo);
        let total = (u128::from(self.total_hi) << 64) | u128::from(self.total_lo);
        let left = total - done;
        (
            usize::try_from(left).unwrap_or(usize::MAX),
            usize::try_from(left).ok(),
        )
    }
}

/// The classic optimal solution by the textbook recursion (move `n - 1` discs out of the way,
/// the largest disc, then the `n - 1` discs back on top), run on an explicit stack so that it
/// is lazy too.
#[derive(Clone, Debug)]
pub struct RecursiveMoves {
    /// `(discs, from, to, via)`; `discs == 0` stands for the single move `from -> to`.
    stack: Vec<(u32, u8, u8, u8)>,
}

impl RecursiveMoves {
    /// The optimal transfer of `n` discs from `from` to `to` over `via`.
    pub fn new(n: usize, from: Peg, to: Peg, via: Peg) -> RecursiveMoves {
        let mut stack = Vec::with_capacity(2 * n + 1);
        if n > 0 {
            stack.push((n as u32, from.0, to.0, via.0));
        }
        RecursiveMoves { stack }
    }
}

impl Iterator for RecursiveMoves {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        loop {
            let (n, from, to, via) = self.stack.pop()?;
            if n <= 1 {
                return Some(Move::new(from, to));
            }
            self.stack.push((n - 1, via, to, from));
            self.stack.push((0, from, to, via));
            self.stack.push((n - 1, from, via, to));
        }
    }
}

/// Move `m` (from 1) of the classic `n`-disc solution from peg 0 by the seed's bit formula:
/// from peg `(m & (m - 1)) % 3` to peg `((m | (m - 1)) + 1) % 3`; the tower ends on peg 2
/// when `n` is odd and on peg 1 when `n` is even.
pub fn seed_formula_move(m: u64) -> Move {
    Move::new(((m & (m - 1)) % 3) as u8, (((m | (m - 1)) + 1) % 3) as u8)
}

/// Move `k` (from 1) of the optimal transfer of `n` discs from `from` to `to` over `via`,
/// computed directly in O(n) word operations without the moves before it; gives the disc
/// moved (0 the smallest) and the move. `None` when `k` is 0 or beyond 2^n - 1.
///
/// ```
/// use num_bigint::BigUint;
/// use ply_puzzles::hanoi::{Move, Peg, three_peg::kth_move};
/// // The last move of 64 discs is the smallest disc onto the goal.
/// let k = (BigUint::from(1u32) << 64u32) - 1u32;
/// assert_eq!(kth_move(64, Peg(0), Peg(2), Peg(1), &k), Some((0, Move::new(1, 2))));
/// ```
pub fn kth_move(n: usize, from: Peg, to: Peg, via: Peg, k: &BigUint) -> Option<(usize, Move)> {
    if k.is_zero() || k.bits() > n as u64 {
        return None;
    }
    let d = k.trailing_zeros()? as usize;
    // Disc d moves at moves 2^d, 3 * 2^d, 5 * 2^d, ...: it has moved k >> (d + 1) times before.
    let before = ((k >> (d + 1)) % 3u32).to_u8()?;
    let step = if (n - d) % 2 == 1 { 1 } else { 2 };
    let local_from = (before * step) % 3;
    let local_to = (local_from + step) % 3;
    let real = [from.0, to.0, via.0];
    Some((
        d,
        Move::new(real[local_from as usize], real[local_to as usize]),
    ))
}

/// Moves from the discs `0..m` of `on` to a perfect tower on `peg`, as a sum of powers of two.
fn tower_distance_u128(on: &[u8], m: usize, mut peg: u8) -> u128 {
    let mut dist = 0;
    for i in (0..m).rev() {
        if on[i] != peg {
            dist += 1u128 << i;
            peg = 3 - on[i] - peg;
        }
    }
    dist
}

fn tower_distance_big(on: &[u8], m: usize, mut peg: u8) -> BigUint {
    let mut dist = BigUint::zero();
    for i in (0..m).rev() {
        if on[i] != peg {
            dist.set_bit(i as u64, true);
            peg = 3 - on[i] - peg;
        }
    }
    dist
}

/// The largest disc that differs between `a` and `b`.
fn largest_difference(a: &Position, b: &Position) -> Option<usize> {
    (0..a.discs())
        .rev()
        .find(|&d| a.as_slice()[d] != b.as_slice()[d])
}

/// The exact number of moves between two 3-peg positions with at most 126 discs, in O(n).
///
/// For the largest disc that must change peg, from `a` to `b` with `c` the third peg, the
/// two candidates are moving it once (the smaller discs gather on `c`) and twice through `c`
/// (they gather on `b`, go back to `a` as a tower, and spread to the goal).
///
/// # Panics
/// If the positions differ in discs or pegs, or have more than 126 discs.
pub fn distance_u128(start: &Position, goal: &Position) -> u128 {
    assert!(start.discs() <= 126 && same_shape(start, goal));
    let Some(m) = largest_difference(start, goal) else {
        return 0;
    };
    let (s, g) = (start.as_slice(), goal.as_slice());
    let (a, b) = (s[m], g[m]);
    let c = 3 - a - b;
    let once = tower_distance_u128(s, m, c) + 1 + tower_distance_u128(g, m, c);
    let twice = tower_distance_u128(s, m, b) + tower_distance_u128(g, m, a) + (1u128 << m) + 1;
    once.min(twice)
}

/// The exact number of moves between two 3-peg positions, any number of discs, in O(n)
/// big-integer operations.
///
/// # Panics
/// If the positions differ in discs or pegs, or do not have 3 pegs.
pub fn distance(start: &Position, goal: &Position) -> BigUint {
    assert!(same_shape(start, goal));
    let (once, twice) = candidates(start, goal);
    once.min(twice)
}

fn same_shape(a: &Position, b: &Position) -> bool {
    a.pegs() == 3 && b.pegs() == 3 && a.discs() == b.discs()
}

/// The lengths of moving the largest differing disc once and twice (both 0 if none differs).
fn candidates(start: &Position, goal: &Position) -> (BigUint, BigUint) {
    let Some(m) = largest_difference(start, goal) else {
        return (BigUint::zero(), BigUint::zero());
    };
    let (s, g) = (start.as_slice(), goal.as_slice());
    let (a, b) = (s[m], g[m]);
    let c = 3 - a - b;
    let once = tower_distance_big(s, m, c) + 1u32 + tower_distance_big(g, m, c);
    let twice =
        tower_distance_big(s, m, b) + tower_distance_big(g, m, a) + (BigUint::one() << m) + 1u32;
    (once, twice)
}

/// The plan gathering discs `0..m` of `on` into a perfect tower on `peg` (the unique shortest
/// way; the seed's `buildTower`).
pub(crate) fn gather_plan(on: &[u8], m: usize, mut peg: u8) -> Vec<Step> {
    let mut tails = Vec::new();
    for i in (0..m).rev() {
        if on[i] != peg {
            let third = 3 - on[i] - peg;
            // Disc i goes last-but-one: after the smaller discs gathered on `third`.
            tails.push([
                Step::One(Move::new(on[i], peg)),
                Step::Classic {
                    discs: i as u32,
                    from: third,
                    to: peg,
                    via: on[i],
                },
            ]);
            peg = third;
        }
    }
    tails.into_iter().rev().flatten().collect()
}

/// Every shortest plan from `start` to `goal` (one or two; Hinz 1992), shortest first in
/// the order "largest disc moved once", "largest disc moved twice".
pub(crate) fn shortest_plans(start: &Position, goal: &Position) -> Vec<Vec<Step>> {
    let Some(m) = largest_difference(start, goal) else {
        return vec![Vec::new()];
    };
    let (once_len, twice_len) = candidates(start, goal);
    let (s, g) = (start.as_slice(), goal.as_slice());
    let (a, b) = (s[m], g[m]);
    let c = 3 - a - b;
    let mut plans = Vec::new();
    if once_len <= twice_len {
        let mut plan = gather_plan(s, m, c);
        plan.push(Step::One(Move::new(a, b)));
        plan.extend(super::plan::reverse_plan(&gather_plan(g, m, c)));
        plans.push(plan);
    }
    if twice_len <= once_len {
        let mut plan = gather_plan(s, m, b);
        plan.push(Step::One(Move::new(a, c)));
        plan.push(Step::Classic {
            discs: m as u32,
            from: b,
            to: a,
            via: c,
        });
        plan.push(Step::One(Move::new(c, b)));
        plan.extend(super::plan::reverse_plan(&gather_plan(g, m, a)));
        plans.push(plan);
    }
    plans
}

/// The longest non-self-crossing transfer of `n` discs from `from` to `to` over `via`:
/// 3^n - 1 moves through every one of the 3^n positions once (the seed's "maximum moves").
pub(crate) fn longest_plan(n: usize, from: Peg, to: Peg, via: Peg) -> Vec<Step> {
    vec![Step::Longest {
        discs: n as u32,
        from: from.0,
        to: to.0,
        via: via.0,
    }]
}

/// The largest number of discs [`distance_sum`] takes: 3^8 = 6561 positions, 43 million
/// ordered pairs.
pub const MAX_EXACT_AVERAGE_DISCS: usize = 8;

/// The sum of the distances over all ordered pairs of positions of `n` discs on 3 pegs,
/// and the number of pairs (`9^n`), by measuring every pair (Hinz's exact distance).
/// `None` above [`MAX_EXACT_AVERAGE_DISCS`].
///
/// ```
/// use ply_puzzles::hanoi::three_peg::distance_sum;
/// assert_eq!(distance_sum(3), Some((2838, 729)));
/// ```
pub fn distance_sum(n: usize) -> Option<(u128, u128)> {
    if n > MAX_EXACT_AVERAGE_DISCS {
        return None;
    }
    let count = 3usize.pow(n as u32);
    let all: Vec<Position> = (0..count)
        .map(|mut i| {
            let pegs = (0..n)
                .map(|_| {
                    let q = (i % 3) as u8;
                    i /= 3;
                    q
                })
                .collect();
            Position::from_pegs(3, pegs)
        })
        .collect();
    let total = all
        .iter()
        .flat_map(|a| all.iter().map(move |b| distance_u128(a, b)))
        .sum();
    Some((total, (count * count) as u128))
}

/// Hinz's closed form for the average distance between two random positions of `n` discs
/// on 3 pegs (seed 000 prints the constant 12/59 as 12/29, a typo):
/// `466/885 2^n - 1/3 - 3/5 3^-n + (12/59 + 18/1003 sqrt 17) ((5 + sqrt 17)/18)^n
/// + (12/59 - 18/1003 sqrt 17) ((5 - sqrt 17)/18)^n`. Infinite past `n = 1023`; see
/// [`average_distance_log10`].
pub fn average_distance(n: usize) -> f64 {
    let r17 = 17f64.sqrt();
    let n = n.min(i32::MAX as usize) as i32;
    466.0 / 885.0 * 2f64.powi(n) - 1.0 / 3.0 - 3.0 / 5.0 * (1.0 / 3.0f64).powi(n)
        + (12.0 / 59.0 + 18.0 / 1003.0 * r17) * ((5.0 + r17) / 18.0).powi(n)
        + (12.0 / 59.0 - 18.0 / 1003.0 * r17) * ((5.0 - r17) / 18.0).powi(n)
}

/// The base-10 logarithm of the asymptotic average `466/885 2^n`, for any `n` (the other
/// terms vanish beside it).
pub fn average_distance_log10(n: usize) -> f64 {
    (466.0f64 / 885.0).log10() + n as f64 * 2f64.log10()
}
