//! HackerEarth Battle of Bots #5 (Reversi) format, for both board sizes.
//!
//! Input, on stdin: `N` lines of `N` numbers separated by single spaces (0 empty, 1 player
//! 1's disc, 2 player 2's disc, 3 an empty cell where the player to move may place), then a
//! line with the id (1 or 2) of the player to move:
//!
//! ```text
//! 0 0 0 0 0 0 0 0 0 0
//! 0 0 0 0 0 0 0 0 0 0
//! 0 0 0 0 0 0 0 0 0 0
//! 0 0 0 0 3 0 0 0 0 0
//! 0 0 0 3 2 1 0 0 0 0
//! 0 0 0 0 1 2 3 0 0 0
//! 0 0 0 0 0 3 0 0 0 0
//! 0 0 0 0 0 0 0 0 0 0
//! 0 0 0 0 0 0 0 0 0 0
//! 0 0 0 0 0 0 0 0 0 0
//! 1
//! ```
//!
//! Output, on stdout: `row col` of the chosen cell, 0-based (`4 3`).
//!
//! A player with no placement is skipped: [`crate::HackerEarth::write_input`] of a position
//! where the side to move must pass writes the position after the pass, with the other
//! player's id, because that is what the contest feeds next.

use ply_core::{Game, ParseMoveError, ParseStateError};

use super::board::{Bits, Disc, Reversi, Size};
use super::moves::Place;
use crate::text::InputLines;

/// Reads a position in the contest's input format.
///
/// # Errors
/// A [`ParseStateError`] naming the line and column of the first problem: a missing row, a
/// row with other than `N` numbers, a token other than 0..3, a player id other than 1 or 2,
/// or `3` marks that are not exactly the cells where the player to move may place.
pub fn parse_input<S: Size>(text: &str) -> Result<Reversi<S>, ParseStateError> {
    let n = S::N;
    let mut input = InputLines::new(text);
    let (mut black, mut white, mut marked) = (S::Bits::ZERO, S::Bits::ZERO, S::Bits::ZERO);
    let mut where_marked = Vec::new();
    for row in 0..n {
        let (ln, tokens) = input.row(
            n,
            "numbers 0, 1, 2 or 3",
            &format!("row {row} of the board"),
        )?;
        for (col, (column, tok)) in tokens.into_iter().enumerate() {
            let b = S::Bits::cell(row * n + col);
            match tok {
                "0" => {}
                "1" => black |= b,
                "2" => white |= b,
                "3" => {
                    marked |= b;
                    where_marked.push((row, col, ln, column));
                }
                _ => {
                    return Err(ParseStateError::new(
                        ln,
                        column,
                        format!(
                            "unexpected {tok:?}: a cell is 0 (empty), 1, 2 (discs) or 3 (a legal cell)"
                        ),
                    ));
                }
            }
        }
    }
    let (turn, _, _) = input.player_id("the board")?;
    let state = Reversi::<S>::from_discs(black, white, turn);
    let legal = state.placements();
    if legal != marked {
        // Name the first cell, in reading order, where marks and legality disagree.
        for i in 0..n * n {
            let b = S::Bits::cell(i);
            let (is_legal, is_marked) = (!(legal & b).is_empty(), !(marked & b).is_empty());
            if is_legal != is_marked {
                let (r, c) = (i / n, i % n);
                let (line_no, col_no) = where_marked
                    .iter()
                    .find(|w| w.0 == r && w.1 == c)
                    .map_or((r + 1, 2 * c + 1), |w| (w.2, w.3));
                let reason = if is_marked {
                    format!(
                        "cell {r} {c} is marked 3, but player {} cannot place there",
                        turn.number()
                    )
                } else {
                    format!(
                        "cell {r} {c} is a legal cell for player {} but is not marked 3",
                        turn.number()
                    )
                };
                return Err(ParseStateError::new(line_no, col_no, reason));
            }
        }
    }
    Ok(state)
}

/// Writes the input the player to move receives (after skipping a forced pass), `3` marks
/// included.
pub fn format_input<S: Size>(state: &Reversi<S>) -> String {
    let mut state = *state;
    if state.must_pass() {
        state.play_unchecked(Place::PASS);
    }
    let legal = state.placements();
    let mut s = String::with_capacity(2 * S::N * S::N + 2);
    for r in 0..S::N {
        for c in 0..S::N {
            if c > 0 {
                s.push(' ');
            }
            s.push(match state.at(r, c) {
                Some(Disc::Black) => '1',
                Some(Disc::White) => '2',
                None if !(legal & S::Bits::cell(r * S::N + c)).is_empty() => '3',
                None => '0',
            });
        }
        s.push('\n');
    }
    s.push_str(&format!("{}\n", state.to_move().number()));
    s
}

impl<S: Size> crate::HackerEarth for Reversi<S> {
    fn read_input(text: &str) -> Result<Self, ParseStateError> {
        parse_input(text)
    }

    fn write_input(&self) -> String {
        format_input(self)
    }

    /// `row col` and a newline; a pass (which the contest never asks for) as `pass`.
    fn write_move(&self, mv: Place) -> String {
        format!("{mv}\n")
    }

    fn read_move(&self, output: &str) -> Result<Place, ParseMoveError> {
        let tokens: Vec<&str> = output.split_whitespace().take(2).collect();
        let text = tokens.join(" ");
        if tokens.len() < 2 {
            return Err(ParseMoveError {
                text,
                reason: "expected `row col`".into(),
            });
        }
        self.parse_move(&text)
    }

    /// A pass, when the mover has no placement: the judge skips that player.
    fn forced_move(&self) -> Option<Place> {
        self.must_pass().then_some(Place::PASS)
    }
}
