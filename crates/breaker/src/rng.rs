//! The simulation's only source of chance: SplitMix64, a few lines that a JavaScript or
//! WebAssembly port reproduces bit for bit (no floats, no platform code).

/// A seeded SplitMix64 generator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rng {
    state: u64,
}

impl Rng {
    /// A generator whose whole future is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (multiply-shift on the high 32 bits; `n` must be at least 1).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n.max(1))) >> 32) as u32
    }

    /// The generator's state, for digests.
    pub fn state(&self) -> u64 {
        self.state
    }
}

/// A level's own seed from a run's seed and the level number, so that every level of a run
/// differs and any one of them replays alone.
pub fn level_seed(seed: u64, level: usize) -> u64 {
    let mut r = Rng::new(seed ^ (level as u64).wrapping_mul(0xd6e8_feb8_6659_fd93));
    r.next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // SplitMix64 from seed 1234567, as printed by the reference C code (Vigna).
        let mut r = Rng::new(1_234_567);
        assert_eq!(r.next_u64(), 6_457_827_717_110_365_317);
        assert_eq!(r.next_u64(), 3_203_168_211_198_807_973);
        assert_eq!(r.next_u64(), 9_817_491_932_198_370_423);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = Rng::new(9);
        for n in 1..50 {
            assert!(r.below(n) < n);
        }
    }
}
