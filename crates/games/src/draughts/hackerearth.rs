//! HackerEarth Battle of Bots 6 (Draughts) format.
//!
//! Input, on stdin: 8 lines of 8 numbers separated by spaces (0 empty, 1 a man of player 1,
//! 2 a man of player 2), then a line with the id (1 or 2) of the player to move.
//!
//! Output, on stdout: the man's cell `row col`; then `N`, the number of steps or jumps;
//! then the `N` landing cells, one `row col` per line:
//!
//! ```text
//! 2 5
//! 2
//! 4 3
//! 6 1
//! ```

use ply_core::{Game, ParseMoveError, ParseStateError, Seat};

use super::board::{Draughts, SIZE, light_square};
use super::moves::{MAX_JUMPS, Move};
use crate::text::InputLines;

/// Reads a position in the contest's input format.
///
/// # Errors
/// A [`ParseStateError`] naming the line and column of the first problem: a missing row, a
/// row with other than 8 numbers, a number other than 0, 1 or 2, a man on a light square,
/// or a player id other than 1 or 2.
pub fn parse_input(text: &str) -> Result<Draughts, ParseStateError> {
    let mut input = InputLines::new(text);
    let mut men = [0u64; 2];
    for row in 0..SIZE {
        let (line, tokens) = input.row(
            SIZE,
            "numbers 0, 1 or 2",
            &format!("row {row} of the board"),
        )?;
        for (col, (column, tok)) in tokens.into_iter().enumerate() {
            let b = 1u64 << (row * SIZE + col);
            if tok != "0" && (row + col) % 2 == 0 {
                return Err(ParseStateError::new(line, column, light_square(row, col)));
            }
            match tok {
                "0" => {}
                "1" => men[0] |= b,
                "2" => men[1] |= b,
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
    let (turn, _, _) = input.player_id("the board")?;
    Ok(Draughts::from_men(men[0], men[1], turn))
}

/// Writes the input the player to move receives.
pub fn format_input(state: &Draughts) -> String {
    let mut s = String::with_capacity(2 * SIZE * SIZE + 2);
    for r in 0..SIZE {
        for c in 0..SIZE {
            if c > 0 {
                s.push(' ');
            }
            s.push(match state.at(r, c) {
                Some(Seat::FIRST) => '1',
                Some(_) => '2',
                None => '0',
            });
        }
        s.push('\n');
    }
    s.push_str(&format!("{}\n", state.to_move().number()));
    s
}

/// Writes a bot's answer: the start cell, the number of landings, each landing.
pub fn format_move(mv: Move) -> String {
    let from = mv.from();
    let mut s = format!("{} {}\n{}\n", from / SIZE, from % SIZE, mv.landings().len());
    for &c in mv.landings() {
        s.push_str(&format!("{} {}\n", c as usize / SIZE, c as usize % SIZE));
    }
    s
}

/// Reads a bot's answer from its whitespace-separated tokens: `row col N` and `N` pairs.
///
/// # Errors
/// A [`ParseMoveError`] when a token is missing or not a number, `N` is not 1 to 3, or a
/// coordinate is off the board.
pub fn parse_move(output: &str) -> Result<Move, ParseMoveError> {
    let mut tokens = output.split_whitespace();
    let mut taken = Vec::new();
    let mut next = |what: &str, taken: &mut Vec<String>| -> Result<usize, ParseMoveError> {
        let tok = tokens.next().ok_or_else(|| ParseMoveError {
            text: taken.join(" "),
            reason: format!("the answer ends before {what}"),
        })?;
        taken.push(tok.to_string());
        tok.parse().map_err(|_| ParseMoveError {
            text: taken.join(" "),
            reason: format!("{tok:?} is not a number ({what})"),
        })
    };
    let r = next("the start row", &mut taken)?;
    let c = next("the start column", &mut taken)?;
    let n = next("the number of steps N", &mut taken)?;
    if !(1..=MAX_JUMPS).contains(&n) {
        return Err(ParseMoveError {
            text: taken.join(" "),
            reason: format!("N = {n}, but a move makes 1 step or 1 to 3 jumps"),
        });
    }
    let mut cells = vec![(r, c)];
    for k in 0..n {
        let r = next(&format!("landing {}", k + 1), &mut taken)?;
        let c = next(&format!("landing {}", k + 1), &mut taken)?;
        cells.push((r, c));
    }
    if cells.iter().any(|&(r, c)| r >= SIZE || c >= SIZE) {
        return Err(ParseMoveError {
            text: taken.join(" "),
            reason: "rows and columns are 0..7".into(),
        });
    }
    let idx: Vec<usize> = cells.iter().map(|&(r, c)| r * SIZE + c).collect();
    Ok(Move::new(idx[0], &idx[1..]))
}

impl crate::HackerEarth for Draughts {
    fn read_input(text: &str) -> Result<Self, ParseStateError> {
        parse_input(text)
    }

    fn write_input(&self) -> String {
        format_input(self)
    }

    fn write_move(&self, mv: Move) -> String {
        format_move(mv)
    }

    fn read_move(&self, output: &str) -> Result<Move, ParseMoveError> {
        parse_move(output)
    }
}
