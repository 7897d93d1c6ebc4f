//! Draughts as HackerEarth's Battle of Bots 6 plays it: men only, forward only.
//!
//! # Rules
//! An 8x8 board; player 1 (red, `1`, `x`) has men on rows 0 and 1 and moves down, player 2
//! (white, `2`, `o`) on rows 6 and 7 and moves up, on the cells whose row and column add up
//! to an odd number; player 1 moves first. A move is either a **step**, one cell diagonally
//! forward onto an empty cell, or a **capture**: a jump diagonally forward over an enemy man
//! onto the empty cell beyond, which removes that man, followed by further jumps by the
//! same man for as long as one is possible. The game ends when the player to move has no
//! move; the player with more men wins, equal numbers draw.
//!
//! # Choices made, and why
//! * **No promotion, no backward moves**: the statement's rules only ever say "in the
//!   forward direction" and never mention kings. A man on its last row can no longer move,
//!   nor be taken.
//! * **A capture chain must be maximal** (the statement: "If a player made a jump, then its
//!   mandatory to keep on jumping as long as the jump is possible"; its invalid Case 1 stops
//!   after one jump when a second is possible). Where a chain branches, any maximal branch
//!   is legal, not only the longest: the statement asks for nothing more.
//! * **No step after a jump** (its invalid Case 2).
//! * **Capturing is not compulsory at the start of a move**, although the statement's
//!   introduction says "mandatory captures": its own "other valid move" for the sample is
//!   the plain step `2 5 -> 3 6` while the jump `2 5 -> 4 3` exists. The worked examples
//!   are what the judge enforces (issue 6 reports two independent top-ranked public bots
//!   playing so too).
//! * **The end**: when the player to move has no move (the statement: "when any of the
//!   players don't have any move left"; ply checks the player to move, as the judge asks
//!   only that player). Majority of men wins, equal is a draw. Every move takes a man one
//!   row forward or more, so a game has at most 168 plies.
//! * Cells in text are `row col`, 0-based, row first, as the sample output prints them
//!   (the statement's prose names the axes the other way round, but its sample `2 5`
//!   is row 2, column 5).
//! * **The statement's sample has a typo**: its published next state shows a man of
//!   player 2 on row 6, column 5, where the sample input has an empty cell that no move of
//!   player 1 can fill. Every other cell matches what ply produces; with that one cell
//!   mended in the input, ply produces the published state byte for byte (both facts are
//!   tests).
//! * The one-line text form is 8 rows of `x`, `o`, `.` separated by `/`, a space and the
//!   side to move; moves are written `(2,5)->(4,3)->(6,1)`.
//! * **Men only on dark squares** (row + column odd): the men start there and move
//!   diagonally, so no game puts one on a light square; both text forms reject one with
//!   its row and column (the endgame tables index the dark squares alone).

mod board;
mod endgame;
mod eval;
mod fitted;
pub mod hackerearth;
mod moves;
mod rules;
pub mod tables;
#[cfg(test)]
mod tests;

pub use board::Draughts;
pub use endgame::{EndgameSolver, ROWS_LEFT, Solution, SolveMode, rows_left};
pub use eval::{CapturesFirst, DraughtsEval, FEATURES, Fitted, Material, features};
pub use moves::{MAX_JUMPS, Move};
pub use tables::Tables;

/// Draughts searches with the fitted evaluation and the endgame tables' exact values at
/// the leaves they cover ([`DraughtsEval`], `eval=classic` for [`Material`] alone) and has the exact solver near
/// the end, off by default (`endgame=1` turns it on).
impl crate::Heuristics for Draughts {
    type Searched = Self;
    type Eval = DraughtsEval;
    type Ordering = CapturesFirst;

    fn endgame() -> Option<Box<dyn crate::Endgame<Self>>> {
        Some(Box::new(endgame::Timed::default()))
    }

    /// Off unless asked for (`endgame=1`): at 100 ms a move it measured -16 Elo
    /// [-62, +30] (docs/strength.md), the search already seeing most of the last plies.
    fn endgame_by_default() -> bool {
        false
    }

    fn evaluator(choice: crate::EvalChoice) -> DraughtsEval {
        match choice {
            crate::EvalChoice::Best | crate::EvalChoice::Tempo | crate::EvalChoice::Standoff => {
                DraughtsEval::Fitted
            }
            crate::EvalChoice::Classic => DraughtsEval::Classic,
        }
    }
}
