//! Cells, the move type, and their notation.

use std::fmt;

use ply_core::ParseMoveError;

/// A cell of the grid, numbered 0..8 row by row; also the move that marks it.
///
/// Shown as `row col`, 0-based, as the HackerEarth formats write coordinates.
///
/// ```
/// use ply_games::tictactoe::Cell;
/// let c = Cell::at(1, 2).unwrap();
/// assert_eq!(c.index(), 5);
/// assert_eq!(c.to_string(), "1 2");
/// assert_eq!("1 2".parse::<Cell>().unwrap(), c);
/// assert_eq!("6".parse::<Cell>().unwrap(), c); // cell numbers 1..9 as drawn
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell(u8);

impl Cell {
    /// The cell at `row`, `col` (0-based); `None` off the grid.
    pub fn at(row: usize, col: usize) -> Option<Cell> {
        (row < 3 && col < 3).then(|| Cell((row * 3 + col) as u8))
    }

    /// The cell with index `i` in 0..9.
    pub fn from_index(i: usize) -> Option<Cell> {
        (i < 9).then_some(Cell(i as u8))
    }

    /// Index 0..8, row by row.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Row, 0-based.
    pub fn row(self) -> usize {
        self.index() / 3
    }

    /// Column, 0-based.
    pub fn col(self) -> usize {
        self.index() % 3
    }

    /// The bit of this cell in a board mask.
    pub(crate) fn bit(self) -> u16 {
        1 << self.0
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.row(), self.col())
    }
}

impl std::str::FromStr for Cell {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Cell, ParseMoveError> {
        let err = |reason: &str| ParseMoveError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let parts: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
            .collect();
        let num = |p: &str| {
            p.parse::<usize>()
                .map_err(|_| err("expected numbers: `row col` (each 0, 1 or 2) or a cell 1..9"))
        };
        match parts.as_slice() {
            [one] => {
                let n = num(one)?;
                if (1..=9).contains(&n) {
                    Ok(Cell((n - 1) as u8))
                } else {
                    Err(err(
                        "a cell number is 1..9, counted row by row from the top left",
                    ))
                }
            }
            [r, c] => {
                let (r, c) = (num(r)?, num(c)?);
                Cell::at(r, c).ok_or_else(|| err("row and column are 0, 1 or 2 (0-based)"))
            }
            [] => Err(err("empty: type `row col` (0-based) or a cell number 1..9")),
            _ => Err(err(
                "too many numbers: type `row col` (0-based) or a cell number 1..9",
            )),
        }
    }
}
