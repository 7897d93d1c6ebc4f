//! The 8x8 move generator, flipper and perft of [`super`] with AVX2, chosen at run time.
//!
//! `cargo install` builds for the generic x86-64 target (no AVX2, not even `popcnt`), so
//! these functions are compiled for AVX2 with `#[target_feature]` and called only after
//! `is_x86_feature_detected!` found every feature they were compiled for; elsewhere the
//! portable code of [`super`] runs. The bodies are safe code (the `std::arch` intrinsics
//! that take no pointer are safe inside a function compiled for their feature). The only
//! `unsafe` is the call from code compiled without AVX2 into code compiled with it, in three
//! places ([`try_perft`], [`try_legal`], [`try_flips`]): that call is sound exactly when the
//! CPU has the features, which [`available`] checks just before it.
//! Setting `PLY_NO_SIMD` in the environment forces the portable code.
//!
//! Perft runs whole inside AVX2 code ([`try_perft`]), so that the generator and flipper are
//! inlined into its loop; the game and the endgame solver call [`try_legal`] and
//! [`try_flips`] once per node, a call that cannot be inlined into portable code but still
//! took perft 1..11 from 0.90 s to 0.51 s of CPU when measured that way (whole: 0.42 s;
//! docs/benchmarks.md).
//!
//! Bits are `row * 8 + col`. Each 256-bit vector holds the four line directions in its four
//! 64-bit lanes, shifted by 1 (horizontal), 7 (anti-diagonal), 8 (vertical) and 9
//! (diagonal): towards higher bits with a left shift, towards lower bits with a right one.

use ply_core::simd::SimdChoice;
use std::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64, _mm256_add_epi64,
    _mm256_and_si256, _mm256_andnot_si256, _mm256_castsi256_si128, _mm256_cmpeq_epi64,
    _mm256_extract_epi64, _mm256_extracti128_si256, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_set_epi64x, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi32,
    _mm256_sllv_epi64, _mm256_srlv_epi64, _mm256_sub_epi64, _mm256_xor_si256,
};

use super::RAYS;

/// The CPU test for every feature the functions below are compiled for.
pub(crate) fn detected() -> bool {
    is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("bmi1")
        && is_x86_feature_detected!("lzcnt")
        && is_x86_feature_detected!("popcnt")
}

static CHOICE: SimdChoice = SimdChoice::new(detected);

/// Whether this CPU has every feature the functions below are compiled for, and
/// `PLY_NO_SIMD` is not set ([`ply_core::simd`]); looked up once, then one relaxed load (the
/// game calls [`legal`] and [`flips`] through here at every node).
#[inline]
pub(super) fn available() -> bool {
    CHOICE.available()
}

/// Perft as [`super::perft`]; `None` when [`available`] says no.
pub(super) fn try_perft(own: u64, opp: u64, depth: u32) -> Option<u64> {
    if !available() {
        return None;
    }
    #[allow(unsafe_code)]
    // SAFETY: `perft_avx2` is compiled for avx2, bmi1, lzcnt and popcnt, and `available()`
    // has just found all four on this CPU; it has no other precondition.
    Some(unsafe { perft_avx2(own, opp, depth) })
}

/// [`legal`]; `None` when [`available`] says no.
#[inline]
pub(super) fn try_legal(own: u64, opp: u64) -> Option<u64> {
    #[allow(unsafe_code)]
    // SAFETY: as in `try_perft`: called only when `available()` found the features.
    available().then(|| unsafe { legal(own, opp) })
}

/// [`flips`]; `None` when [`available`] says no.
#[inline]
pub(super) fn try_flips(own: u64, opp: u64, sq: usize) -> Option<u64> {
    #[allow(unsafe_code)]
    // SAFETY: as in `try_perft`: called only when `available()` found the features.
    available().then(|| unsafe { flips(own, opp, sq) })
}

/// The four shift amounts, one per lane.
#[inline]
#[target_feature(enable = "avx2")]
fn shifts(k: i64) -> __m256i {
    _mm256_set_epi64x(9 * k, 8 * k, 7 * k, k)
}

/// The OR of the four lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn or_lanes(v: __m256i) -> u64 {
    let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
    _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
}

/// The OR of the four lanes, in every lane.
#[inline]
#[target_feature(enable = "avx2")]
fn or_all_lanes(v: __m256i) -> __m256i {
    let v = _mm256_or_si256(v, _mm256_permute4x64_epi64::<0b0100_1110>(v));
    _mm256_or_si256(v, _mm256_shuffle_epi32::<0b0100_1110>(v))
}

/// The cells where the owner of `own` may place a disc: [`super::legal`]'s parallel prefix,
/// the four directions at once.
#[inline]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn legal(own: u64, opp: u64) -> u64 {
    let pp = _mm256_set1_epi64x(own as i64);
    let oo = _mm256_set1_epi64x(opp as i64);
    reach(pp, oo) & !(own | opp)
}

/// [`legal`] on `own` and `opp` broadcast to every lane, before the empty cells are taken.
#[inline]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn reach(pp: __m256i, oo: __m256i) -> u64 {
    // The horizontal and both diagonals cannot run through the edge columns.
    let inner = 0x7E7E_7E7E_7E7E_7E7E_u64 as i64;
    let lane_mask = _mm256_set_epi64x(inner, -1, inner, inner);
    let oo = _mm256_and_si256(oo, lane_mask);
    let s1 = shifts(1);
    let s2 = shifts(2);
    let mut up = _mm256_and_si256(oo, _mm256_sllv_epi64(pp, s1));
    let mut down = _mm256_and_si256(oo, _mm256_srlv_epi64(pp, s1));
    up = _mm256_or_si256(up, _mm256_and_si256(oo, _mm256_sllv_epi64(up, s1)));
    down = _mm256_or_si256(down, _mm256_and_si256(oo, _mm256_srlv_epi64(down, s1)));
    let oo_up = _mm256_and_si256(oo, _mm256_sllv_epi64(oo, s1));
    let oo_down = _mm256_srlv_epi64(oo_up, s1);
    up = _mm256_or_si256(up, _mm256_and_si256(oo_up, _mm256_sllv_epi64(up, s2)));
    down = _mm256_or_si256(down, _mm256_and_si256(oo_down, _mm256_srlv_epi64(down, s2)));
    up = _mm256_or_si256(up, _mm256_and_si256(oo_up, _mm256_sllv_epi64(up, s2)));
    down = _mm256_or_si256(down, _mm256_and_si256(oo_down, _mm256_srlv_epi64(down, s2)));
    let reach = _mm256_or_si256(_mm256_sllv_epi64(up, s1), _mm256_srlv_epi64(down, s1));
    or_lanes(reach)
}

/// The discs of `opp` turned over by a disc placed on cell `sq` by the owner of `own`,
/// as [`super::flips`] (the same ray masks, four directions at once).
#[inline]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn flips(own: u64, opp: u64, sq: usize) -> u64 {
    let f = flips_vec(
        _mm256_set1_epi64x(own as i64),
        _mm256_set1_epi64x(opp as i64),
        sq,
    );
    // Perft uses every lane: the tests check them all through here.
    debug_assert!(
        _mm256_extract_epi64::<1>(f) == _mm256_extract_epi64::<0>(f)
            && _mm256_extract_epi64::<2>(f) == _mm256_extract_epi64::<0>(f)
            && _mm256_extract_epi64::<3>(f) == _mm256_extract_epi64::<0>(f)
    );
    _mm_cvtsi128_si64(_mm256_castsi256_si128(f)) as u64
}

/// [`flips`] on `own` and `opp` broadcast to every lane; the flips in every lane.
#[inline]
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn flips_vec(pp: __m256i, oo: __m256i, sq: usize) -> __m256i {
    let r = &RAYS[sq];
    let zero = _mm256_setzero_si256();
    // Towards higher bits: the nearest cell that is not the opponent's is the lowest bit.
    let up = _mm256_set_epi64x(r[3] as i64, r[2] as i64, r[1] as i64, r[0] as i64);
    let stop = _mm256_andnot_si256(oo, up);
    let hit = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), pp);
    // All ones when there is no outflanking disc, else the bits from it up: what is not
    // flipped.
    let keep = _mm256_sub_epi64(_mm256_cmpeq_epi64(hit, zero), hit);
    let f_up = _mm256_andnot_si256(keep, up);
    // Towards lower bits: the nearest is the highest bit, found by clearing every ray cell
    // below a non-opponent cell (the "shadow", filled by doubling steps).
    let down = _mm256_set_epi64x(r[7] as i64, r[6] as i64, r[5] as i64, r[4] as i64);
    let mut stop = _mm256_andnot_si256(oo, down);
    stop = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, shifts(1)));
    stop = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, shifts(2)));
    stop = _mm256_or_si256(stop, _mm256_srlv_epi64(stop, shifts(4)));
    let shadow = _mm256_srlv_epi64(stop, shifts(1));
    let hit = _mm256_andnot_si256(shadow, _mm256_and_si256(pp, down));
    // Above the outflanking disc, on the ray (nothing when there is none).
    let f_down = _mm256_and_si256(down, _mm256_sub_epi64(zero, _mm256_add_epi64(hit, hit)));
    or_all_lanes(_mm256_or_si256(f_up, f_down))
}

/// [`super::perft`], compiled for AVX2.
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn perft_avx2(own: u64, opp: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_with(own, opp, legal(own, opp), depth)
}

/// [`super::perft_with`], compiled for AVX2: each child is built from its flips in the
/// vector, and its moves are taken there.
#[target_feature(enable = "avx2,bmi1,lzcnt,popcnt")]
fn perft_with(own: u64, opp: u64, moves: u64, depth: u32) -> u64 {
    if moves == 0 {
        let theirs = legal(opp, own);
        return if theirs == 0 {
            0
        } else if depth == 1 {
            1
        } else {
            perft_with(opp, own, theirs, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count_ones());
    }
    let (pp, oo) = (
        _mm256_set1_epi64x(own as i64),
        _mm256_set1_epi64x(opp as i64),
    );
    let empty = !(own | opp);
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        let fv = flips_vec(pp, oo, sq);
        let next_own_v = _mm256_xor_si256(oo, fv);
        let next_opp_v = _mm256_or_si256(_mm256_set1_epi64x((own | bit) as i64), fv);
        // A move fills one empty cell and flips only discs.
        let next = reach(next_own_v, next_opp_v) & (empty ^ bit);
        total += if depth > 2 {
            let f = _mm_cvtsi128_si64(_mm256_castsi256_si128(fv)) as u64;
            perft_with(opp ^ f, own | f | bit, next, depth - 1)
        } else if next != 0 {
            u64::from(next.count_ones())
        } else {
            u64::from(reach(next_opp_v, next_own_v) & (empty ^ bit) != 0)
        };
    }
    total
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::{available, try_flips, try_legal};

    /// Checks the AVX2 moves and flips against the portable ones on one position; false when
    /// the CPU has no AVX2 (nothing is checked then).
    fn same_as_portable(own: u64, opp: u64) -> bool {
        let Some(legal) = try_legal(own, opp) else {
            return false;
        };
        assert_eq!(
            legal,
            super::super::legal_portable(own, opp),
            "{own:#x} {opp:#x}"
        );
        for sq in 0..64 {
            if (own | opp) & (1 << sq) == 0 {
                assert_eq!(
                    try_flips(own, opp, sq),
                    Some(super::super::flips_portable(own, opp, sq)),
                    "{own:#x} {opp:#x} at {sq}"
                );
            }
        }
        true
    }

    /// Any two disjoint sets of every density, not only reachable positions.
    #[test]
    fn avx2_moves_and_flips_match_portable_on_random_boards() {
        if !available() {
            eprintln!(
                "AVX2 code not in use (no AVX2 on this CPU, or PLY_NO_SIMD set): nothing compared"
            );
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(20);
        for round in 0..50_000 {
            let density = round % 7;
            let (mut own, mut opp) = (0u64, 0u64);
            for _ in 0..density {
                own |= rng.random::<u64>();
                opp |= rng.random::<u64>();
            }
            for (a, b) in [(own & !opp, opp), (own, opp & !own), (own & !opp, !own)] {
                assert!(same_as_portable(a, b));
                assert!(same_as_portable(b, a));
            }
        }
    }

    /// Positions of random games, every ply, both sides to move.
    #[test]
    fn avx2_moves_and_flips_match_portable_along_random_games() {
        if !available() {
            eprintln!(
                "AVX2 code not in use (no AVX2 on this CPU, or PLY_NO_SIMD set): nothing compared"
            );
            return;
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(21);
        for _ in 0..2_000 {
            let (mut own, mut opp) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
            loop {
                assert!(same_as_portable(own, opp));
                assert!(same_as_portable(opp, own));
                let moves = super::super::legal_portable(own, opp);
                if moves == 0 {
                    if super::super::legal_portable(opp, own) == 0 {
                        break;
                    }
                    (own, opp) = (opp, own);
                    continue;
                }
                let pick = rng.random_range(0..moves.count_ones());
                let mut rest = moves;
                for _ in 0..pick {
                    rest &= rest - 1;
                }
                let sq = rest.trailing_zeros() as usize;
                let f = super::super::flips_portable(own, opp, sq);
                (own, opp) = (opp ^ f, own | f | (1 << sq));
            }
        }
    }
}
