//! The board: its shape (boxes of `r x c` cells), its cells, the symbols that write them, and
//! the check that the clues do not already clash.

use std::fmt;

use thiserror::Error;

/// The largest side ply handles: candidates are kept as bits of a `u32`.
pub const MAX_SIDE: usize = 32;

/// The shape of a board: boxes of `box_rows x box_cols` cells; the side is their product.
///
/// ```
/// use ply_puzzles::sudoku::Shape;
/// let s = Shape::for_side(6).unwrap();
/// assert_eq!((s.box_rows(), s.box_cols(), s.side()), (2, 3, 6));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// A shape that ply cannot use.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct ShapeError {
    /// Why, and what would work.
    pub reason: String,
}

impl Shape {
    /// The classic 9x9 board with 3x3 boxes.
    pub const CLASSIC: Shape = Shape {
        box_rows: 3,
        box_cols: 3,
    };

    /// Boxes of `box_rows` rows by `box_cols` columns.
    ///
    /// # Errors
    /// When a box side is below 2 or the board side exceeds [`MAX_SIDE`].
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Shape, ShapeError> {
        if box_rows < 2 || box_cols < 2 {
            return Err(ShapeError {
                reason: format!(
                    "boxes of {box_rows}x{box_cols} cells: each box side must be at least 2"
                ),
            });
        }
        match box_rows.checked_mul(box_cols) {
            Some(side) if side <= MAX_SIDE => {}
            side => {
                let side = side.map_or_else(|| "beyond any".to_owned(), |s| s.to_string());
                return Err(ShapeError {
                    reason: format!(
                        "boxes of {box_rows}x{box_cols} make a side of {side}, above the maximum of {MAX_SIDE} (sides go from 4 to {MAX_SIDE})"
                    ),
                });
            }
        }
        Ok(Shape {
            box_rows: box_rows as u8,
            box_cols: box_cols as u8,
        })
    }

    /// The usual shape for a side: the most square boxes, with no more rows than columns
    /// (6 -> 2x3, 12 -> 3x4, 16 -> 4x4).
    ///
    /// # Errors
    /// When the side is prime, 1, or above [`MAX_SIDE`]: no boxes fit.
    pub fn for_side(side: usize) -> Result<Shape, ShapeError> {
        if side > MAX_SIDE {
            // Checked first: the search for boxes below would run for ages on a huge side.
            return Err(ShapeError {
                reason: format!(
                    "a side of {side} is above the maximum of {MAX_SIDE} (sides go from 4 to {MAX_SIDE})"
                ),
            });
        }
        let rows = (2..=side)
            .take_while(|r| r * r <= side)
            .filter(|r| side.is_multiple_of(*r))
            .last();
        match rows {
            Some(r) => Shape::new(r, side / r),
            None => Err(ShapeError {
                reason: format!(
                    "a side of {side} has no boxes of at least 2x2 (sides such as 4, 6, 8, 9, 12, 16, 25 do)"
                ),
            }),
        }
    }

    /// Rows per box.
    pub fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// Columns per box.
    pub fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// Cells per row, column and box; also the number of symbols.
    pub fn side(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// Cells on the board.
    pub fn cells(self) -> usize {
        self.side() * self.side()
    }

    /// The box of the cell at `row`, `col`, numbered row by row.
    pub fn box_of(self, row: usize, col: usize) -> usize {
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }

    /// Whether this is the classic 9x9 shape, which has its own faster solver.
    pub fn is_classic(self) -> bool {
        self == Shape::CLASSIC
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

/// The character that writes `value` (1-based): `1`-`9`, then `A`-`W` for 10 to 32.
pub fn symbol(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value a character writes, if it is a symbol (`1`-`9`, `A`-`Z` in either case);
/// `.` and `0` are empty and give `Some(0)`.
pub fn value_of(c: char) -> Option<u8> {
    match c {
        '.' | '0' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        'A'..='Z' => Some(c as u8 - b'A' + 10),
        'a'..='z' => Some(c as u8 - b'a' + 10),
        _ => None,
    }
}

/// A board: cells row by row, 0 for empty, else a value 1..=side. Clues may clash until
/// [`Grid::check`] says they do not; the solvers treat clashing clues as "no solution".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

/// A value outside the board's symbols, or a wrong number of cells.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct GridError {
    /// What was wrong.
    pub reason: String,
}

/// Two clues that share a row, column or box and hold the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clash {
    /// The repeated value.
    pub value: u8,
    /// The first cell, as 0-based row and column.
    pub first: (usize, usize),
    /// The second cell, later in reading order.
    pub second: (usize, usize),
    /// Which kind of unit they share.
    pub unit: UnitKind,
}

/// Rows, columns and boxes: the three kinds of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum UnitKind {
    /// A row.
    Row,
    /// A column.
    Column,
    /// A box.
    Box,
}

impl fmt::Display for UnitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UnitKind::Row => "row",
            UnitKind::Column => "column",
            UnitKind::Box => "box",
        })
    }
}

/// Clues that clash: every clash found, in reading order of the second cell.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{}", describe_clashes(.clashes))]
pub struct CheckGridError {
    /// Every clash.
    pub clashes: Vec<Clash>,
}

fn describe_clashes(clashes: &[Clash]) -> String {
    let parts: Vec<String> = clashes
        .iter()
        .map(|c| {
            format!(
                "{} at r{}c{} repeats the {} of r{}c{}",
                symbol(c.value),
                c.second.0 + 1,
                c.second.1 + 1,
                c.unit,
                c.first.0 + 1,
                c.first.1 + 1
            )
        })
        .collect();
    format!("clues clash: {}", parts.join("; "))
}

impl Grid {
    /// An empty board.
    pub fn empty(shape: Shape) -> Grid {
        Grid {
            shape,
            cells: vec![0; shape.cells()],
        }
    }

    /// A board from its cells, row by row, 0 for empty.
    ///
    /// # Errors
    /// When there are not `side * side` cells or a value exceeds the side.
    pub fn from_cells(shape: Shape, cells: Vec<u8>) -> Result<Grid, GridError> {
        if cells.len() != shape.cells() {
            return Err(GridError {
                reason: format!(
                    "{} cells, expected {} for boxes of {shape}",
                    cells.len(),
                    shape.cells()
                ),
            });
        }
        if let Some(i) = cells.iter().position(|&v| v as usize > shape.side()) {
            return Err(GridError {
                reason: format!(
                    "value {} at r{}c{} exceeds the side {}",
                    cells[i],
                    i / shape.side() + 1,
                    i % shape.side() + 1,
                    shape.side()
                ),
            });
        }
        Ok(Grid { shape, cells })
    }

    /// The shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The cells row by row, 0 for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `row`, `col` (0 when empty).
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.shape.side() + col]
    }

    /// Sets the value at `row`, `col` (0 to empty it).
    ///
    /// # Panics
    /// If the cell is off the board or the value exceeds the side.
    pub fn set(&mut self, row: usize, col: usize, value: u8) {
        assert!(value as usize <= self.shape.side(), "value above the side");
        let side = self.shape.side();
        self.cells[row * side + col] = value;
    }

    /// How many cells are filled.
    pub fn clues(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_full(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// Checks that no row, column or box holds a value twice.
    ///
    /// # Errors
    /// Lists every clash.
    pub fn check(&self) -> Result<(), CheckGridError> {
        let side = self.shape.side();
        let mut seen = vec![[None::<(usize, usize)>; 3]; side * (side + 1)];
        let mut clashes = Vec::new();
        for r in 0..side {
            for c in 0..side {
                let v = self.get(r, c);
                if v == 0 {
                    continue;
                }
                let units = [r, c, self.shape.box_of(r, c)];
                let kinds = [UnitKind::Row, UnitKind::Column, UnitKind::Box];
                for k in 0..3 {
                    let slot = &mut seen[units[k] * (side + 1) + v as usize][k];
                    match slot {
                        Some(first) => clashes.push(Clash {
                            value: v,
                            first: *first,
                            second: (r, c),
                            unit: kinds[k],
                        }),
                        None => *slot = Some((r, c)),
                    }
                }
            }
        }
        if clashes.is_empty() {
            Ok(())
        } else {
            Err(CheckGridError { clashes })
        }
    }

    /// Whether this full board is a solution of `puzzle`: every cell filled, no clash, and
    /// every clue of `puzzle` kept.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.shape == puzzle.shape
            && self.is_full()
            && self.check().is_ok()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&p, &s)| p == 0 || p == s)
    }

    /// The one-line form: every cell row by row, `.` for empty.
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| symbol(v)).collect()
    }

    /// The grid form: one line per row, boxes apart by `|` and lines of `-` and `+`.
    ///
    /// ```text
    /// 5 3 . | . 7 . | . . .
    /// ------+-------+------
    /// ```
    pub fn to_block(&self) -> String {
        let (side, br, bc) = (
            self.shape.side(),
            self.shape.box_rows(),
            self.shape.box_cols(),
        );
        let mut out = String::new();
        let rule: Vec<String> = (0..side / bc).map(|_| "-".repeat(bc * 2 - 1)).collect();
        let rule = rule.join("-+-");
        for r in 0..side {
            if r > 0 && r % br == 0 {
                out.push_str(&rule);
                out.push('\n');
            }
            for c in 0..side {
                if c > 0 {
                    out.push_str(if c % bc == 0 { " | " } else { " " });
                }
                out.push(symbol(self.get(r, c)));
            }
            out.push('\n');
        }
        out
    }
}

impl fmt::Display for Grid {
    /// The one-line form.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_line())
    }
}
