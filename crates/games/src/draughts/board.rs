//! The state: one bit mask of men per player, the side to move, and the one-line text form.

use std::fmt;
use std::str::FromStr;

use ply_core::{ParseStateError, Seat};

/// Cells per side.
pub const SIZE: usize = 8;

/// A Draughts position (HackerEarth's variant: men only).
///
/// ```text
/// start, one-line text:  .x.x.x.x/x.x.x.x./......../......../......../......../.o.o.o.o/o.o.o.o. x
///
///    0 1 2 3 4 5 6 7
/// 0  . x . x . x . x     player 1 (x) moves down
/// 1  x . x . x . x .
/// 6  . o . o . o . o     player 2 (o) moves up
/// 7  o . o . o . o .
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Draughts {
    /// Men of player 1 and player 2, bit `row * 8 + col`.
    pub(crate) men: [u64; 2],
    pub(crate) turn: Seat,
}

impl Draughts {
    /// The statement's starting state: player 1 on rows 0 and 1, player 2 on rows 6 and 7,
    /// on the cells whose row and column add up to an odd number; player 1 to move.
    pub fn initial() -> Draughts {
        let mut men = [0u64; 2];
        for r in 0..SIZE {
            for c in 0..SIZE {
                if (r + c) % 2 == 1 {
                    if r < 2 {
                        men[0] |= 1 << (r * SIZE + c);
                    } else if r >= SIZE - 2 {
                        men[1] |= 1 << (r * SIZE + c);
                    }
                }
            }
        }
        Draughts {
            men,
            turn: Seat::FIRST,
        }
    }

    /// A position from the men of each player and the seat to move.
    ///
    /// # Panics
    /// If a cell holds men of both players.
    pub fn from_men(first: u64, second: u64, turn: Seat) -> Draughts {
        assert_eq!(first & second, 0, "a cell holds men of both players");
        Draughts {
            men: [first, second],
            turn,
        }
    }

    /// The men of `seat`.
    pub fn men(&self, seat: Seat) -> u64 {
        self.men[seat.index()]
    }

    /// Whose man stands on (`row`, `col`), if any.
    pub fn at(&self, row: usize, col: usize) -> Option<Seat> {
        let b = 1u64 << (row * SIZE + col);
        if self.men[0] & b != 0 {
            Some(Seat::FIRST)
        } else if self.men[1] & b != 0 {
            Some(Seat::SECOND)
        } else {
            None
        }
    }

    /// A picture for people, with coordinates.
    pub fn picture(&self) -> String {
        let mut s = String::from("  ");
        for c in 0..SIZE {
            s.push_str(&format!(" {c}"));
        }
        s.push('\n');
        for r in 0..SIZE {
            s.push_str(&format!("{r:>2}"));
            for c in 0..SIZE {
                s.push(' ');
                s.push(match self.at(r, c) {
                    Some(Seat::FIRST) => 'X',
                    Some(_) => 'O',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "X (player 1, moving down) {}, O (player 2, moving up) {}; {} to move\n",
            self.men[0].count_ones(),
            self.men[1].count_ones(),
            self.turn
        ));
        s
    }
}

impl fmt::Display for Draughts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..SIZE {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..SIZE {
                f.write_str(match self.at(r, c) {
                    Some(Seat::FIRST) => "x",
                    Some(_) => "o",
                    None => ".",
                })?;
            }
        }
        f.write_str(if self.turn == Seat::FIRST { " x" } else { " o" })
    }
}

/// The parsers' message for a man on a light square, where no move can bring one: the
/// men start on the dark squares and move diagonally (and the endgame tables index the
/// dark squares only).
pub(crate) fn light_square(row: usize, col: usize) -> String {
    format!(
        "a man on a light square (row {row}, column {col}): men stand only on dark squares, \
         where row + column is odd"
    )
}

impl FromStr for Draughts {
    type Err = ParseStateError;

    /// Reads the one-line form: 8 rows of 8 cells (`x` player 1, `o` player 2, `.`)
    /// separated by `/`, a space, and the side to move (`x` or `o`).
    fn from_str(text: &str) -> Result<Self, ParseStateError> {
        let err = |col: usize, reason: String| ParseStateError::new(1, col, reason);
        let text = text.trim_end();
        let Some((grid, side)) = text.rsplit_once(' ') else {
            return Err(err(
                text.len() + 1,
                "expected 8 rows of 8 cells, a space and the side to move (x or o)".into(),
            ));
        };
        let turn = match side {
            "x" | "X" => Seat::FIRST,
            "o" | "O" => Seat::SECOND,
            _ => {
                return Err(err(
                    grid.len() + 2,
                    format!("unexpected {side:?}: the side to move is `x` or `o`"),
                ));
            }
        };
        let rows: Vec<&str> = grid.split('/').collect();
        if rows.len() != SIZE {
            return Err(err(
                1,
                format!(
                    "found {} rows; the board has 8, separated by `/`",
                    rows.len()
                ),
            ));
        }
        let mut men = [0u64; 2];
        let mut column = 1;
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != SIZE {
                return Err(err(
                    column,
                    format!("row {r} has {} cells; each row has 8", row.chars().count()),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                let b = 1u64 << (r * SIZE + c);
                if matches!(ch, 'x' | 'X' | 'o' | 'O') && (r + c) % 2 == 0 {
                    return Err(err(column + c, light_square(r, c)));
                }
                match ch {
                    'x' | 'X' => men[0] |= b,
                    'o' | 'O' => men[1] |= b,
                    '.' | '-' => {}
                    _ => {
                        return Err(err(
                            column + c,
                            format!("unexpected {ch:?}: a cell is `x`, `o` or `.`"),
                        ));
                    }
                }
            }
            column += SIZE + 1;
        }
        Ok(Draughts { men, turn })
    }
}
