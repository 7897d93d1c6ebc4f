//! Tic-tac-toe (noughts and crosses).
//!
//! # Rules
//! Two seats alternate placing their mark on an empty cell of a 3x3 grid; X (player 1) moves
//! first. Three of one mark in a row, column or diagonal wins at once; a full grid without
//! a line is a draw. At most 9 plies.
//!
//! # Choices made, and why
//! * Cells are numbered 0..8 row by row inside ply; people type either `row col` (0-based,
//!   as HackerEarth's grid formats do) or a cell number 1..9 as drawn on the empty cells of
//!   the board diagram, so the diagram itself shows what to type.
//! * The one-line text form is three rows of `x`, `o` or `.` separated by `/`
//!   (`x.o/.x./..o`). The side to move is not written: X moves when both have as many marks.
//!   Parsing rejects positions no game reaches (too many of one mark, both in line, a line
//!   of the side that did not move last, play after a win).
//! * The HackerEarth-style bot format (see [`hackerearth`]) is three lines of three numbers,
//!   0 empty, 1 and 2 the players' marks, then the id of the player to move; the answer is
//!   `row col`. Player 1 is X and moves first.
//! * The seed's minimax scores a win `100 - depth`; ply's searches use the same idea in
//!   [`ply_core::Score`] (win sooner, lose later).

mod board;
mod eval;
pub mod hackerearth;
mod moves;
mod rules;
#[cfg(test)]
mod tests;

pub use board::{Mark, TicTacToe};
pub use eval::Lines;
pub use moves::Cell;

impl crate::Heuristics for TicTacToe {
    type Searched = Self;
    type Eval = Lines;
    type Ordering = ply_core::NoOrdering;
}
