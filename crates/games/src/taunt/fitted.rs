//! The weights of [`super::eval::Fitted`], written by the `taunt_fit` example:
//! `taunt_fit fit --games 1500 --depth 4 --seed 34 --lambda 10 --player classic`
//! (137769 positions, rms 1.846 pieces).

/// Hundredths of a piece per unit of each feature ([`super::eval::features`]).
#[rustfmt::skip]
pub const WEIGHTS: [i32; super::eval::FEATURES] = [
    116, 131, 117, 6, -3, -4, -8, -2, -2, -10, 1, 10, -6,
    -119, -133, -116, -7, 5, 10, 50, 2, 2, 5, -1, -4, 5,
    6, 14,
];
