//! The HackerEarth-style bot format for tic-tac-toe.
//!
//! Input, on stdin: three lines of three numbers separated by spaces (0 empty, 1 player 1's
//! mark X, 2 player 2's mark O), then a line with the id (1 or 2) of the player to move:
//!
//! ```text
//! 1 0 0
//! 0 2 0
//! 0 0 0
//! 1
//! ```
//!
//! Output, on stdout: `row col` of the chosen cell, 0-based (`0 2`).

use ply_core::{Game, ParseStateError, Seat};

use super::board::{Mark, TicTacToe};
use super::moves::Cell;
use crate::text::InputLines;

/// Reads a position and the id of the player to move.
///
/// # Errors
/// A [`ParseStateError`] naming the line and column of the first problem: a missing row,
/// a number other than 0, 1 or 2, a player id other than 1 or 2, a position no game reaches,
/// or a player id that is not the side to move.
///
/// ```
/// use ply_games::tictactoe::hackerearth::parse_input;
/// let (board, me) = parse_input("1 0 0\n0 2 0\n0 0 0\n1\n").unwrap();
/// assert_eq!(board.to_string(), "x../.o./...");
/// assert_eq!(me.number(), 1);
/// ```
pub fn parse_input(text: &str) -> Result<(TicTacToe, Seat), ParseStateError> {
    let mut input = InputLines::new(text);
    let mut board = TicTacToe::EMPTY;
    for row in 0..3 {
        let (line, tokens) =
            input.row(3, "numbers 0, 1 or 2", &format!("row {row} of the grid"))?;
        for (col, (column, tok)) in tokens.into_iter().enumerate() {
            let cell = Cell::at(row, col).expect("3x3").bit();
            match tok {
                "0" => {}
                "1" => board.x |= cell,
                "2" => board.o |= cell,
                _ => {
                    return Err(ParseStateError::new(
                        line,
                        column,
                        format!("unexpected {tok:?}: a cell is 0 (empty), 1 or 2"),
                    ));
                }
            }
        }
    }
    let (me, ln, column) = input.player_id("the grid")?;
    board
        .validate()
        .map_err(|reason| ParseStateError::new(1, 1, reason))?;
    if board.to_move() != me {
        return Err(ParseStateError::new(
            ln,
            column,
            format!(
                "player {} is given, but the grid has {} marks of player 1 and {} of player 2, so player {} moves",
                me.number(),
                board.x.count_ones(),
                board.o.count_ones(),
                board.to_move().number()
            ),
        ));
    }
    Ok((board, me))
}

/// Writes the input a bot receives: the grid and the id of the player to move.
pub fn format_input(board: &TicTacToe) -> String {
    let mut s = String::new();
    for r in 0..3 {
        let row: Vec<&str> = (0..3)
            .map(|c| match board.mark(Cell::at(r, c).expect("3x3")) {
                None => "0",
                Some(Mark::X) => "1",
                Some(Mark::O) => "2",
            })
            .collect();
        s.push_str(&row.join(" "));
        s.push('\n');
    }
    s.push_str(&format!("{}\n", board.to_move().number()));
    s
}

/// Writes a bot's answer: `row col` and a newline.
pub fn format_move(mv: Cell) -> String {
    format!("{} {}\n", mv.row(), mv.col())
}

impl crate::HackerEarth for TicTacToe {
    fn read_input(text: &str) -> Result<Self, ParseStateError> {
        parse_input(text).map(|(board, _)| board)
    }

    fn write_input(&self) -> String {
        format_input(self)
    }

    fn write_move(&self, mv: Cell) -> String {
        format_move(mv)
    }

    fn read_move(&self, output: &str) -> Result<Cell, ply_core::ParseMoveError> {
        let first = output.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        let tokens: Vec<&str> = first.split_whitespace().take(2).collect();
        let text = tokens.join(" ");
        let cell: Cell = text.parse()?;
        if tokens.len() != 2 {
            return Err(ply_core::ParseMoveError {
                text,
                reason: "expected `row col` on the first line".into(),
            });
        }
        Ok(cell)
    }
}
