//! The grid: two bit masks, and its text forms.

use std::fmt;
use std::str::FromStr;

use ply_core::{ParseStateError, Seat};

use super::moves::Cell;

/// The eight lines, as masks over cells 0..8.
pub(crate) const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// A player's mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// Player 1's mark; moves first.
    X,
    /// Player 2's mark.
    O,
}

impl Mark {
    /// The seat that plays this mark.
    pub fn seat(self) -> Seat {
        match self {
            Mark::X => Seat::FIRST,
            Mark::O => Seat::SECOND,
        }
    }

    /// The mark `seat` plays.
    pub fn of(seat: Seat) -> Mark {
        if seat == Seat::FIRST {
            Mark::X
        } else {
            Mark::O
        }
    }
}

/// A tic-tac-toe position: which cells hold X and which hold O.
///
/// ```text
///  X | 2 | O        one-line text: x.o/.x./..o
/// ---+---+---
///  4 | X | 6
/// ---+---+---
///  7 | 8 | O
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    pub(crate) x: u16,
    pub(crate) o: u16,
}

impl TicTacToe {
    /// The empty grid.
    pub const EMPTY: TicTacToe = TicTacToe { x: 0, o: 0 };

    /// The mark on `cell`, if any.
    pub fn mark(&self, cell: Cell) -> Option<Mark> {
        if self.x & cell.bit() != 0 {
            Some(Mark::X)
        } else if self.o & cell.bit() != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The mark to play next (X when both have as many marks).
    pub fn mark_to_move(&self) -> Mark {
        if self.x.count_ones() == self.o.count_ones() {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// Whether `mark` has three in a line.
    pub fn has_line(&self, mark: Mark) -> bool {
        let m = self.mask(mark);
        LINES.iter().any(|line| m & line == *line)
    }

    pub(crate) fn mask(&self, mark: Mark) -> u16 {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }

    pub(crate) fn empty_mask(&self) -> u16 {
        FULL & !(self.x | self.o)
    }

    /// The eight images of this position under the grid's rotations and reflections, the
    /// identity first.
    pub fn symmetries(&self) -> [TicTacToe; 8] {
        // Each symmetry maps cell (r, c) to the cell given by these index tables.
        const MAPS: [[u8; 9]; 8] = [
            [0, 1, 2, 3, 4, 5, 6, 7, 8],
            [6, 3, 0, 7, 4, 1, 8, 5, 2],
            [8, 7, 6, 5, 4, 3, 2, 1, 0],
            [2, 5, 8, 1, 4, 7, 0, 3, 6],
            [2, 1, 0, 5, 4, 3, 8, 7, 6],
            [6, 7, 8, 3, 4, 5, 0, 1, 2],
            [0, 3, 6, 1, 4, 7, 2, 5, 8],
            [8, 5, 2, 7, 4, 1, 6, 3, 0],
        ];
        let apply =
            |m: u16, map: &[u8; 9]| (0..9).fold(0u16, |acc, i| acc | (((m >> map[i]) & 1) << i));
        MAPS.map(|map| TicTacToe {
            x: apply(self.x, &map),
            o: apply(self.o, &map),
        })
    }

    /// The least of the eight symmetric images, as a number: equal for positions that are
    /// the same up to symmetry.
    pub fn canonical(&self) -> u32 {
        self.symmetries()
            .iter()
            .map(|p| (u32::from(p.x) << 9) | u32::from(p.o))
            .min()
            .unwrap_or(0)
    }

    /// A picture for people: marks as `X` and `O`, empty cells showing the number to type.
    pub fn picture(&self) -> String {
        let mut s = String::new();
        for r in 0..3 {
            if r > 0 {
                s.push_str("---+---+---\n");
            }
            let row: Vec<String> = (0..3)
                .map(|c| {
                    let cell = Cell::at(r, c).expect("on the grid");
                    match self.mark(cell) {
                        Some(Mark::X) => " X ".to_string(),
                        Some(Mark::O) => " O ".to_string(),
                        None => format!(" {} ", cell.index() + 1),
                    }
                })
                .collect();
            s.push_str(&row.join("|"));
            s.push('\n');
        }
        s
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..3 {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..3 {
                let ch = match self.mark(Cell::at(r, c).expect("on the grid")) {
                    Some(Mark::X) => 'x',
                    Some(Mark::O) => 'o',
                    None => '.',
                };
                write!(f, "{ch}")?;
            }
        }
        Ok(())
    }
}

impl FromStr for TicTacToe {
    type Err = ParseStateError;

    /// Reads the one-line form `x.o/.x./..o` (case-insensitive; `-` or `_` also mean empty).
    fn from_str(text: &str) -> Result<Self, ParseStateError> {
        let err = |col: usize, reason: String| ParseStateError::new(1, col, reason);
        let mut board = TicTacToe::EMPTY;
        let mut row = 0;
        let mut col = 0;
        for (i, ch) in text.trim_end().chars().enumerate() {
            let column = i + 1;
            if ch == '/' {
                if col != 3 {
                    return Err(err(
                        column,
                        format!("row {} has {col} cells; each row has 3", row + 1),
                    ));
                }
                row += 1;
                col = 0;
                if row > 2 {
                    return Err(err(
                        column,
                        "more than 3 rows; write 3 rows of 3 cells separated by `/`".into(),
                    ));
                }
                continue;
            }
            if col == 3 {
                return Err(err(
                    column,
                    format!(
                        "row {} has more than 3 cells; separate rows with `/`",
                        row + 1
                    ),
                ));
            }
            let cell = Cell::at(row, col).expect("row and column checked").bit();
            match ch.to_ascii_lowercase() {
                'x' => board.x |= cell,
                'o' => board.o |= cell,
                '.' | '-' | '_' => {}
                _ => {
                    return Err(err(
                        column,
                        format!("unexpected {ch:?}; a cell is `x`, `o` or `.`"),
                    ));
                }
            }
            col += 1;
        }
        if row != 2 || col != 3 {
            return Err(err(
                text.trim_end().chars().count() + 1,
                "expected 3 rows of 3 cells, such as `x.o/.x./..o`".into(),
            ));
        }
        board.validate().map_err(|reason| err(1, reason))?;
        Ok(board)
    }
}

impl TicTacToe {
    /// Checks that a game can reach this grid; says why not.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let (nx, no) = (self.x.count_ones(), self.o.count_ones());
        if nx != no && nx != no + 1 {
            return Err(format!(
                "{nx} X and {no} O cannot happen: X moves first, so X has as many marks as O or one more"
            ));
        }
        let (lx, lo) = (self.has_line(Mark::X), self.has_line(Mark::O));
        if lx && lo {
            return Err("both X and O have a line; the game stops at the first line".into());
        }
        if lx && nx != no + 1 {
            return Err(
                "X has a line but O moved after it; the game stops at the first line".into(),
            );
        }
        if lo && nx != no {
            return Err(
                "O has a line but X moved after it; the game stops at the first line".into(),
            );
        }
        Ok(())
    }
}
