//! The weights of [`super::eval::Fitted`], written by the `draughts_fit` example:
//! `draughts_fit fit --games 300 --depth 4 --seed 33 --lambda 10`
//! (18476 positions, rms 2.411 men).

/// Hundredths of a man per feature ([`super::eval::features`]).
#[rustfmt::skip]
pub const WEIGHTS: [i16; super::eval::FEATURES] = [
    119, 172, 163, 183, 134, 154, 160, 146,
    140, 169, 154, 138, 139, 142, 162, 116,
    128, 115, 137, 152, 144, 88, 111, 109,
    95, 103, 101, 107, 91, 82, 79, 82,
    -86, -82, -84, -93, -107, -103, -101, -100,
    -113, -114, -92, -146, -157, -141, -115, -124,
    -113, -165, -145, -142, -140, -154, -173, -139,
    -144, -160, -150, -134, -183, -164, -175, -119,
    97, -30,
];
