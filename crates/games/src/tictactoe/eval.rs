//! Heuristics for depth-limited search. A full search needs none (tic-tac-toe is tiny); this
//! one makes depth-limited play sensible and gives the generic search tests a non-trivial
//! evaluator.

use ply_core::{Evaluator, Game, Score};

use super::board::{LINES, Mark, TicTacToe};

/// Counts lines still open to each side, weighting those with more own marks:
/// 1, 10 and 100 for one, two or three own marks in a line free of the other mark.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lines;

impl Evaluator<TicTacToe> for Lines {
    fn evaluate(&self, state: &TicTacToe) -> Score {
        let me = Mark::of(state.to_move());
        let them = if me == Mark::X { Mark::O } else { Mark::X };
        let side = |m: Mark, other: Mark| -> i32 {
            LINES
                .iter()
                .filter(|&&l| state.mask(other) & l == 0)
                .map(|&l| match (state.mask(m) & l).count_ones() {
                    0 => 0,
                    1 => 1,
                    2 => 10,
                    _ => 100,
                })
                .sum()
        };
        Score(side(me, them) - side(them, me))
    }
}
