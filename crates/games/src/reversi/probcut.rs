//! ProbCut for 8x8 Othello's pattern evaluation (Buro 1995; the depth pairs as in Edax): at
//! a node of depth `d` at least [`MIN_DEPTH`], a search of depth [`shallow_depth`]`(d)`
//! predicts the deep score as `a * shallow + b` with standard deviation `sigma`, fitted per
//! depth and per bucket of empties ([`BUCKET_EMPTIES`]) on positions of ply's self-play.
//!
//! How the table was made: `cargo run --release -p ply-games --example othello_probcut --
//! --games 160 --seed 1 --threads 2 --max-depth 9` (see the example's header; 9 min wall on
//! the loaded 2-core machine), its output pasted below as [`FITTED`]. The threshold [`T`] is
//! Buro's usual 1.5, not tuned.

use ply_core::ProbCut;

/// The shallowest node depth ProbCut is tried at.
pub const MIN_DEPTH: u32 = 3;

/// How many sigmas a cut needs.
pub const T: f32 = 1.5;

/// Buckets of empties with their own regressions.
pub const BUCKETS: usize = 4;

/// The empties of each bucket; positions with fewer than 14 empties are left to the exact
/// solver and the plain search.
pub const BUCKET_EMPTIES: [std::ops::RangeInclusive<u32>; BUCKETS] =
    [14..=23, 24..=33, 34..=43, 44..=60];

/// The bucket of a position with `empties` empty squares, if ProbCut applies.
pub fn bucket(empties: u32) -> Option<usize> {
    BUCKET_EMPTIES.iter().position(|r| r.contains(&empties))
}

/// The depth of the shallow search for a node of depth `depth` (Edax's pairs: a quarter of
/// the depth, doubled, with the depth's parity).
pub fn shallow_depth(depth: u32) -> u32 {
    2 * (depth / 4) + (depth & 1)
}

/// One regression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fit {
    /// Slope.
    pub a: f32,
    /// Intercept, 1/100 discs.
    pub b: f32,
    /// Residuals' standard deviation, 1/100 discs.
    pub sigma: f32,
}

impl Fit {
    /// No regression (depths below [`MIN_DEPTH`]).
    pub const NONE: Fit = Fit {
        a: 1.0,
        b: 0.0,
        sigma: f32::INFINITY,
    };
}

/// ProbCut's parameters for a node of `depth` with `empties` empty squares.
pub fn params(empties: u32, depth: u32) -> Option<ProbCut> {
    if depth < MIN_DEPTH {
        return None;
    }
    let table = &FITTED[bucket(empties)?];
    let max = table.len() as u32 - 1;
    // Deeper than fitted: the deepest fit of the same parity.
    let fitted = if depth <= max {
        depth
    } else {
        max - ((max ^ depth) & 1)
    };
    let fit = table[fitted as usize];
    fit.sigma.is_finite().then_some(ProbCut {
        shallow: shallow_depth(depth),
        a: fit.a,
        b: fit.b,
        sigma: fit.sigma,
        t: T,
    })
}

// othello_probcut --games 160 --seed 1 --max-depth 9: 639 positions
/// The regressions, `[bucket][depth]`, as printed by the example.
#[rustfmt::skip]
pub const FITTED: [[Fit; 10]; BUCKETS] = [
    // empties 14..=23
    [
        Fit::NONE,
        Fit::NONE,
        Fit::NONE,
        Fit { a: 1.029, b: 213.2, sigma: 452.5 }, // d 3 from 1, 159 positions
        Fit { a: 1.017, b: -38.8, sigma: 399.4 }, // d 4 from 2, 159 positions
        Fit { a: 0.989, b: 0.2, sigma: 398.7 }, // d 5 from 3, 159 positions
        Fit { a: 1.031, b: -10.3, sigma: 553.8 }, // d 6 from 2, 159 positions
        Fit { a: 0.991, b: -35.5, sigma: 517.7 }, // d 7 from 3, 159 positions
        Fit { a: 1.031, b: 69.6, sigma: 469.3 }, // d 8 from 4, 159 positions
        Fit { a: 1.027, b: -54.6, sigma: 419.9 }, // d 9 from 5, 159 positions
    ],
    // empties 24..=33
    [
        Fit::NONE,
        Fit::NONE,
        Fit::NONE,
        Fit { a: 1.029, b: 212.2, sigma: 535.0 }, // d 3 from 1, 160 positions
        Fit { a: 0.984, b: -11.5, sigma: 433.4 }, // d 4 from 2, 160 positions
        Fit { a: 0.977, b: 3.7, sigma: 394.0 }, // d 5 from 3, 160 positions
        Fit { a: 1.000, b: -34.5, sigma: 525.7 }, // d 6 from 2, 160 positions
        Fit { a: 0.980, b: 8.8, sigma: 471.2 }, // d 7 from 3, 160 positions
        Fit { a: 1.020, b: 15.6, sigma: 419.7 }, // d 8 from 4, 160 positions
        Fit { a: 1.006, b: 26.9, sigma: 322.0 }, // d 9 from 5, 160 positions
    ],
    // empties 34..=43
    [
        Fit::NONE,
        Fit::NONE,
        Fit::NONE,
        Fit { a: 0.997, b: 127.0, sigma: 394.0 }, // d 3 from 1, 160 positions
        Fit { a: 0.995, b: -53.7, sigma: 334.1 }, // d 4 from 2, 160 positions
        Fit { a: 1.043, b: 31.4, sigma: 334.5 }, // d 5 from 3, 160 positions
        Fit { a: 1.039, b: 7.3, sigma: 444.4 }, // d 6 from 2, 160 positions
        Fit { a: 1.053, b: 57.0, sigma: 418.7 }, // d 7 from 3, 160 positions
        Fit { a: 1.044, b: 76.6, sigma: 357.7 }, // d 8 from 4, 160 positions
        Fit { a: 1.016, b: 31.6, sigma: 319.3 }, // d 9 from 5, 160 positions
    ],
    // empties 44..=60
    [
        Fit::NONE,
        Fit::NONE,
        Fit::NONE,
        Fit { a: 0.928, b: 114.4, sigma: 283.8 }, // d 3 from 1, 160 positions
        Fit { a: 0.952, b: 1.2, sigma: 283.7 }, // d 4 from 2, 160 positions
        Fit { a: 1.026, b: 22.2, sigma: 245.8 }, // d 5 from 3, 160 positions
        Fit { a: 0.963, b: -1.5, sigma: 329.8 }, // d 6 from 2, 160 positions
        Fit { a: 1.037, b: 34.8, sigma: 288.8 }, // d 7 from 3, 160 positions
        Fit { a: 1.009, b: 5.4, sigma: 236.9 }, // d 8 from 4, 160 positions
        Fit { a: 0.989, b: 43.2, sigma: 242.5 }, // d 9 from 5, 160 positions
    ],
];
