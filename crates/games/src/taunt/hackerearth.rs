//! HackerEarth Battle of Bots 9 (Taunt) format.
//!
//! Input, on stdin: 10 lines of 4 three-digit cells separated by spaces (player, type,
//! direction; `000` empty), a line with the number of moves played so far, and a line with
//! the id (1 or 2) of the player to move:
//!
//! ```text
//! 131 131 131 121
//! 121 121 111 111
//! 111 000 000 000
//! 000 000 000 000
//! 000 000 000 000
//! 000 000 000 000
//! 000 000 000 000
//! 000 000 000 210
//! 210 210 220 220
//! 220 230 230 230
//! 0
//! 1
//! ```
//!
//! Output, on stdout: `row col` of the piece, then `row col` of its destination, on two
//! lines.

use ply_core::{Game, ParseMoveError, ParseStateError};

use super::board::{CELLS, COLS, EndRule, MOVE_LIMIT, Piece, ROWS, Taunt};
use super::moves::Move;
use crate::text::InputLines;

/// Reads a position in the contest's input format.
///
/// # Errors
/// A [`ParseStateError`] naming the line and column of the first problem: a missing line, a
/// row with other than 4 cells, a cell that is not a valid three-digit code (`141`), a move
/// counter that is not 0..100, a player id other than 1 or 2, or a player id that does not
/// match the counter (player 1 moves when it is even).
pub fn parse_input(text: &str) -> Result<Taunt, ParseStateError> {
    let mut input = InputLines::new(text);
    let mut cells = [None; CELLS];
    for row in 0..ROWS {
        let (ln, tokens) = input.row(
            COLS,
            "cells such as 131 or 000",
            &format!("row {row} of the grid"),
        )?;
        for (col, (column, tok)) in tokens.into_iter().enumerate() {
            cells[row * COLS + col] =
                Piece::from_code(tok).map_err(|e| ParseStateError::new(ln, column, e))?;
        }
    }
    let mut number = |what: &str, max: u32| -> Result<(u32, usize, usize), ParseStateError> {
        let (ln, line) = input.next_line(what)?;
        let column = line.len() - line.trim_start().len() + 1;
        line.trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= max)
            .map(|n| (n, ln, column))
            .ok_or_else(|| {
                ParseStateError::new(
                    ln,
                    column,
                    format!("unexpected {:?}: expected {what}", line.trim()),
                )
            })
    };
    let (moves, _, _) = number("the number of moves played (0 to 100)", MOVE_LIMIT)?;
    let (id, ln, column) = number("the player id, 1 or 2", 2)?;
    if id == 0 {
        return Err(ParseStateError::new(
            ln,
            column,
            "unexpected \"0\": the player id is 1 or 2",
        ));
    }
    let state = Taunt {
        cells,
        moves,
        rule: EndRule::MoverStuck,
    };
    if state.to_move().number() != id {
        return Err(ParseStateError::new(
            ln,
            column,
            format!(
                "player {id} is given, but after {moves} moves player {} moves (player 1 when the count is even)",
                state.to_move().number()
            ),
        ));
    }
    Ok(state)
}

/// Writes the input the player to move receives.
pub fn format_input(state: &Taunt) -> String {
    let mut s = String::with_capacity(CELLS * 4 + 8);
    for r in 0..ROWS {
        for c in 0..COLS {
            if c > 0 {
                s.push(' ');
            }
            let code = state.at(r, c).map_or(*b"000", Piece::code);
            s.push_str(std::str::from_utf8(&code).expect("digits"));
        }
        s.push('\n');
    }
    s.push_str(&format!(
        "{}\n{}\n",
        state.moves_played(),
        state.to_move().number()
    ));
    s
}

impl crate::HackerEarth for Taunt {
    fn read_input(text: &str) -> Result<Self, ParseStateError> {
        parse_input(text)
    }

    fn write_input(&self) -> String {
        format_input(self)
    }

    fn write_move(&self, mv: Move) -> String {
        let ((a, b), (c, d)) = (mv.from(), mv.to());
        format!("{a} {b}\n{c} {d}\n")
    }

    fn read_move(&self, output: &str) -> Result<Move, ParseMoveError> {
        let tokens: Vec<&str> = output.split_whitespace().take(4).collect();
        let text = tokens.join(" ");
        if tokens.len() < 4 || !tokens.iter().all(|t| t.bytes().all(|b| b.is_ascii_digit())) {
            return Err(ParseMoveError {
                text,
                reason: "expected `row col` of the piece, then `row col` of its destination".into(),
            });
        }
        text.parse()
    }
}
