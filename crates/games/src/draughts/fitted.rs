//! The weights of [`super::eval::Fitted`], written by the `draughts_fit` example:
//! `draughts_fit fit --games 2000 --depth 4 --seed 33 --lambda 10`
//! (124370 positions, rms 2.440 men).

/// Hundredths of a man per feature ([`super::eval::features`]).
#[rustfmt::skip]
pub const WEIGHTS: [i16; super::eval::FEATURES] = [
    160, 186, 173, 156, 144, 159, 174, 149,
    147, 177, 163, 145, 148, 154, 170, 135,
    130, 143, 138, 159, 130, 120, 117, 108,
    103, 103, 106, 100, 89, 86, 85, 91,
    -95, -88, -88, -93, -102, -106, -104, -105,
    -107, -119, -126, -131, -163, -143, -145, -124,
    -132, -173, -159, -150, -145, -165, -180, -146,
    -147, -174, -156, -144, -156, -173, -190, -160,
    96, -33,
];
