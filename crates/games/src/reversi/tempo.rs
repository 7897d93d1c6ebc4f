//! A tempo term for 8x8 Othello's fitted pattern evaluation: a per-phase number of discs
//! added to the evaluation for the side to move ([`OthelloEval::Tempo`](super::OthelloEval)),
//! so that searches stopping at odd and at even plies give the same value on average.
//!
//! Without it the values of this evaluation's searches swing with the parity of the depth:
//! a search whose last ply is the root's own move comes out several discs above one a ply
//! shallower or deeper (docs/strength.md, session 37). If the evaluation underrates the side
//! to move at the leaves by `t`, a search of even depth (the root's side to move at its
//! leaves) is `t` too low and one of odd depth `t` too high: `value(d + 1) - value(d)` is
//! `+2t` from an even `d` and `-2t` from an odd one. So `t` is estimated, per phase of the
//! leaves, as half of `(-1)^d (value(d + 1) - value(d))` over many positions, and added.
//!
//! How [`TEMPO`] was made (untimed, 746 s of two threads at nice 19 on the loaded machine):
//!
//! ```text
//! cargo run --release -p ply-games --example othello_parity -- --games 1000 --seed 1 \
//!     --max-depth 12 --threads 2 --derive-from 4
//! ```
//!
//! 4,000 positions with 14 to 58 empties from 1,000 seeded games (4 a game), each searched to
//! depths 1 to 12 with ProbCut as the bot searches; the tempo of a phase is the mean of
//! `(-1)^d (value(d + 1) - value(d)) / 2` over depths 4 to 11, attributed to the phase of the
//! shallower search's leaves (the root's discs plus d); phase 0 (4-8 discs, no leaf there)
//! takes phase 1's. Its output, and the swing by depth, are in docs/strength.md (session 37).

use super::pattern::{PHASES, phase};

/// The tempo of each phase of the evaluation ([`super::pattern::phase`], by discs on the
/// board), 1/100 discs, for the side to move.
pub const TEMPO: [i32; PHASES] = [210, 210, 235, 231, 254, 251, 245, 238, 223, 174, 106, 50];

/// The tempo of a position with `discs` on the board.
pub fn tempo(discs: u32) -> i32 {
    TEMPO[phase(discs)]
}
