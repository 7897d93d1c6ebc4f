//! Run-time choice between a SIMD build of a hot loop and its portable twin.
//!
//! `cargo install` builds for the generic x86-64 target, so a crate that wants AVX2 compiles
//! a second copy of its hot loop with `#[target_feature]` and asks, once, whether this CPU
//! runs it. The answer is cached in one atomic, so that the question costs a relaxed load
//! at every node. Setting the environment variable [`NO_SIMD_VAR`] forces the portable copy
//! everywhere, to measure it or to test it on a CPU that has the features.

use std::sync::atomic::{AtomicU8, Ordering};

/// The environment variable that turns every SIMD path off when set (to anything).
pub const NO_SIMD_VAR: &str = "PLY_NO_SIMD";

/// Whether [`NO_SIMD_VAR`] is set in the environment.
pub fn simd_forced_off() -> bool {
    std::env::var_os(NO_SIMD_VAR).is_some()
}

/// Whether this CPU has avx2, bmi1, bmi2, lzcnt and popcnt, the features of the copies
/// compiled with `#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]` (the Sudoku
/// solver's and the peg count's), whatever the environment says; false off x86-64.
pub fn avx2_bmi_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// One cached answer to "may the SIMD copy run here?": a `static` per SIMD copy, each with
/// the CPU test for the features its copy is compiled for.
#[derive(Debug)]
pub struct SimdChoice {
    /// 0 not looked yet, 1 no, 2 yes.
    found: AtomicU8,
    detect: fn() -> bool,
}

impl SimdChoice {
    /// A choice that will ask `detect` (the CPU feature test, e.g. `is_x86_feature_detected!`
    /// for every feature of the copy's `#[target_feature]`) the first time it is read.
    pub const fn new(detect: fn() -> bool) -> Self {
        SimdChoice {
            found: AtomicU8::new(0),
            detect,
        }
    }

    /// Whether the CPU has the features and [`NO_SIMD_VAR`] is not set; looked up once.
    #[inline]
    pub fn available(&self) -> bool {
        match self.found.load(Ordering::Relaxed) {
            2 => true,
            1 => false,
            _ => {
                let found = !simd_forced_off() && (self.detect)();
                self.found
                    .store(if found { 2 } else { 1 }, Ordering::Relaxed);
                found
            }
        }
    }

    /// Whether the CPU has the features, whatever the environment says.
    pub fn detected(&self) -> bool {
        (self.detect)()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;

    static CALLS: AtomicU32 = AtomicU32::new(0);

    fn counted_yes() -> bool {
        CALLS.fetch_add(1, Ordering::Relaxed);
        true
    }

    #[test]
    fn the_cpu_is_asked_once_and_a_no_stays_no() {
        static YES: SimdChoice = SimdChoice::new(counted_yes);
        let first = YES.available();
        // The environment decides the answer; whatever it is, it is asked once.
        assert_eq!(first, !simd_forced_off());
        for _ in 0..10 {
            assert_eq!(YES.available(), first);
        }
        assert!(CALLS.load(Ordering::Relaxed) <= 1);
        assert!(YES.detected());
        static NO: SimdChoice = SimdChoice::new(|| false);
        assert!(!NO.available() && !NO.available() && !NO.detected());
    }
}
