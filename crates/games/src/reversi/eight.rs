//! The 8x8 board in a `u64`, written for that size alone: a parallel-prefix move generator,
//! ray-mask flips and a bulk-counting perft. [`super::moves::legal`], [`super::moves::flips`]
//! and [`super::moves::perft_bits`] hand the 8x8 board here; 10x10 keeps the generic fills.
//!
//! On x86-64 CPUs with AVX2, [`avx2`] does the same work four directions at a time, chosen at
//! run time (the default build targets generic x86-64); the portable code here runs
//! elsewhere, or when `PLY_NO_SIMD` is set.
//!
//! Bits are `row * 8 + col`, as everywhere in Reversi.

#[cfg(target_arch = "x86_64")]
mod avx2;

/// Every column but the first and the last: where an opponent's disc can be flipped by a
/// horizontal or diagonal line, so a shift by 1, 7 or 9 through it cannot wrap a row.
const INNER: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// The cells reached from `own` through runs of `mask` along direction `dir` (both ways),
/// one step past the run: the fill of "Kogge-Stone" with the run doubled after two steps.
#[inline(always)]
fn some_moves(own: u64, mask: u64, dir: u32) -> u64 {
    let mut up = mask & (own << dir);
    let mut down = mask & (own >> dir);
    up |= mask & (up << dir);
    down |= mask & (down >> dir);
    let mask_up = mask & (mask << dir);
    let mask_down = mask_up >> dir;
    let dir2 = dir + dir;
    up |= mask_up & (up << dir2);
    down |= mask_down & (down >> dir2);
    up |= mask_up & (up << dir2);
    down |= mask_down & (down >> dir2);
    (up << dir) | (down >> dir)
}

/// Whether the 8x8 move generator runs its AVX2 copy on this machine (the CPU has the
/// features and `PLY_NO_SIMD` is not set): what a benchmark reports beside its figure.
#[inline]
pub fn simd_in_use() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        avx2::available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The cells where the owner of `own` may place a disc.
#[inline(always)]
pub(crate) fn legal(own: u64, opp: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(moves) = avx2::try_legal(own, opp) {
        return moves;
    }
    legal_portable(own, opp)
}

/// [`legal`] in portable code.
#[inline(always)]
pub(crate) fn legal_portable(own: u64, opp: u64) -> u64 {
    let inner = opp & INNER;
    (some_moves(own, inner, 1)
        | some_moves(own, opp, 8)
        | some_moves(own, inner, 7)
        | some_moves(own, inner, 9))
        & !(own | opp)
}

/// For each cell, the cells beyond it along each direction, nearest first: four directions
/// towards higher bits (east, south-west, south, south-east), then four towards lower bits.
static RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    // (row step, column step) per direction; the first four raise the bit index.
    const DIRS: [(i32, i32); 8] = [
        (0, 1),
        (1, -1),
        (1, 0),
        (1, 1),
        (0, -1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
    ];
    let mut t = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRS[d];
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                t[sq][d] |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    t
}

/// The discs of `opp` turned over by a disc placed on cell `sq` by the owner of `own`.
#[inline(always)]
pub(crate) fn flips(own: u64, opp: u64, sq: usize) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(f) = avx2::try_flips(own, opp, sq) {
        return f;
    }
    flips_portable(own, opp, sq)
}

/// [`flips`] in portable code.
#[inline(always)]
pub(crate) fn flips_portable(own: u64, opp: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let mut f = 0;
    // Towards higher bits: the nearest cell that is not the opponent's is the lowest bit.
    for &ray in &rays[..4] {
        let stop = !opp & ray;
        let hit = stop & stop.wrapping_neg() & own;
        // Below the outflanking disc, on the ray: the run (nothing when there is none).
        f |= hit.saturating_sub(1) & ray;
    }
    // Towards lower bits: the nearest is the highest bit (`| 1` keeps the shift in range; an
    // empty `stop` then names cell 0, which `& ray` drops unless it is an opponent's disc).
    for &ray in &rays[4..] {
        let stop = !opp & ray;
        let hit = ((1u64 << 63) >> (stop | 1).leading_zeros()) & own & ray;
        // Above the outflanking disc, on the ray (`0.wrapping_neg()` is 0: no outflank).
        f |= (hit << 1).wrapping_neg() & ray;
    }
    f
}

/// Perft from the side owning `own` (same convention as [`super::moves::perft_bits`]).
pub(crate) fn perft(own: u64, opp: u64, depth: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if let Some(n) = avx2::try_perft(own, opp, depth) {
        return n;
    }
    perft_portable(own, opp, depth)
}

/// [`perft`] in portable code.
pub(crate) fn perft_portable(own: u64, opp: u64, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    perft_with(own, opp, legal_portable(own, opp), depth)
}

/// Perft with the mover's legal cells `moves` already known; `depth >= 1`.
fn perft_with(own: u64, opp: u64, moves: u64, depth: u32) -> u64 {
    if moves == 0 {
        let theirs = legal_portable(opp, own);
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
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        let f = flips_portable(own, opp, sq);
        let (next_own, next_opp) = (opp ^ f, own | f | bit);
        let next = legal_portable(next_own, next_opp);
        total += if depth > 2 {
            perft_with(next_own, next_opp, next, depth - 1)
        } else if next != 0 {
            u64::from(next.count_ones())
        } else {
            u64::from(legal_portable(next_opp, next_own) != 0)
        };
    }
    total
}

#[cfg(test)]
mod tests {
    /// The published 8x8 perft figures, depths 1..8 (a pass is a ply).
    const PERFT: [u64; 8] = [4, 12, 56, 244, 1396, 8200, 55092, 390_216];

    /// The portable perft is checked here whatever the CPU, since [`super::perft`] takes the
    /// AVX2 path where there is one.
    #[test]
    fn portable_and_dispatched_perft_give_the_published_figures() {
        let (own, opp) = (0x0000_0008_1000_0000_u64, 0x0000_0010_0800_0000_u64);
        for (d, &n) in PERFT.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(
                super::perft_portable(own, opp, depth),
                n,
                "portable, depth {depth}"
            );
            assert_eq!(
                super::perft(own, opp, depth),
                n,
                "dispatched, depth {depth}"
            );
        }
    }
}
