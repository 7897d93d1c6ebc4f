//! Reading puzzles from text: one puzzle per line, or grids of one row per line with optional
//! separators, in files with `#` comments. Errors name the line and column.

use thiserror::Error;

use super::grid::{Grid, Shape, symbol, value_of};

/// How a puzzle was written; answers are written the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Layout {
    /// All cells on one line, row by row.
    Line,
    /// One row per line, with optional `|`, `-`, `+` and spaces between cells.
    Block,
}

/// What the reader may assume.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// The box shape; by default the most square boxes for the side the text shows.
    pub shape: Option<Shape>,
    /// The layout; by default each puzzle's own (see [`read_puzzles`]).
    pub layout: Option<Layout>,
}

/// One puzzle read from a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The puzzle.
    pub grid: Grid,
    /// The 1-based line where it starts.
    pub line: usize,
    /// How it was written.
    pub layout: Layout,
}

/// A text that is not a list of puzzles.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}, column {column}: {reason}")]
pub struct ReadPuzzlesError {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What was wrong and what was expected.
    pub reason: String,
}

fn err(line: usize, column: usize, reason: impl Into<String>) -> ReadPuzzlesError {
    ReadPuzzlesError {
        line,
        column,
        reason: reason.into(),
    }
}

/// The cells of one line: (value, 1-based column); whether cells were apart; the column
/// just past the content.
struct Cells {
    cells: Vec<(u8, usize)>,
    spaced: bool,
    separator_only: bool,
    end: usize,
}

fn scan(text: &str, line: usize) -> Result<Cells, ReadPuzzlesError> {
    let mut cells = Vec::new();
    let mut spaced = false;
    let mut separators = false;
    let mut end = 1;
    for (i, ch) in text.chars().enumerate() {
        let col = i + 1;
        if ch == '#' {
            break;
        }
        end = col + 1;
        match ch {
            ' ' | '\t' | '\r' | '|' | '+' | '-' | '_' => {
                separators |= !ch.is_whitespace();
                if !cells.is_empty() {
                    spaced = true;
                }
            }
            _ => match value_of(ch) {
                Some(v) => cells.push((v, col)),
                None => {
                    return Err(err(
                        line,
                        col,
                        format!(
                            "unexpected {ch:?}: expected a value (1-9, then A-W for larger boards), \
                             `.` or `0` for an empty cell, a separator (`|`, `-`, `+`, space) or `#` \
                             for a comment"
                        ),
                    ));
                }
            },
        }
    }
    Ok(Cells {
        separator_only: cells.is_empty() && separators,
        cells,
        spaced,
        end,
    })
}

/// Checks every value against the side; gives the cells.
fn values(cells: &Cells, side: usize, line: usize) -> Result<Vec<u8>, ReadPuzzlesError> {
    cells
        .cells
        .iter()
        .map(|&(v, col)| {
            if v as usize > side {
                Err(err(
                    line,
                    col,
                    format!(
                        "value {:?} is above the side {side}: a {side}x{side} board uses 1 to {:?}",
                        symbol(v),
                        symbol(side as u8)
                    ),
                ))
            } else {
                Ok(v)
            }
        })
        .collect()
}

fn shape_for(side: usize, forced: Option<Shape>) -> Option<Shape> {
    match forced {
        Some(s) => (s.side() == side).then_some(s),
        None => Shape::for_side(side).ok(),
    }
}

fn isqrt(n: usize) -> Option<usize> {
    let r = (n as f64).sqrt().round() as usize;
    (r * r == n).then_some(r)
}

/// A grid being read.
struct Open {
    shape: Shape,
    line: usize,
    cells: Vec<u8>,
}

/// Reads every puzzle of `text`, in order.
///
/// A line holding `n * n` cells (81 for 9x9, 256 for 16x16) is one puzzle; a line holding
/// `n` cells starts a grid of `n` such lines, where lines of only separators (`-`, `+`,
/// `|`) are skipped. `.` and `0` are empty cells; values are `1`-`9` then `A`-`W`. `#`
/// starts a comment; blank lines are skipped. A line of 16 cells is one 4x4 puzzle unless
/// its cells are apart (spaces or `|`), which makes it a row of a 16x16 grid; the
/// `layout` option settles any doubt.
///
/// # Errors
/// At the first problem: an unexpected character, a value above the side, a line whose
/// cell count is neither a puzzle nor a grid row, a grid row of the wrong length, a grid cut
/// short.
///
/// ```
/// use ply_puzzles::sudoku::{read_puzzles, Layout, ReadOptions};
/// let text = "# two 4x4 puzzles\n1.3...1..4...2.3\n12|34\n34|12\n--+--\n21|43\n43|2.\n";
/// let entries = read_puzzles(text, ReadOptions::default()).unwrap();
/// assert_eq!(entries.len(), 2);
/// assert_eq!((entries[1].line, entries[1].layout), (3, Layout::Block));
/// let bad = read_puzzles("1.3...1..4..x2.3", ReadOptions::default()).unwrap_err();
/// assert_eq!((bad.line, bad.column), (1, 13));
/// ```
pub fn read_puzzles(text: &str, opts: ReadOptions) -> Result<Vec<Entry>, ReadPuzzlesError> {
    let mut out = Vec::new();
    let mut open: Option<Open> = None;
    let mut last_line = 0;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        last_line = line;
        let cells = scan(raw, line)?;
        if cells.cells.is_empty() {
            if cells.separator_only {
                continue;
            }
            if let Some(o) = &open {
                return Err(cut_short(o, line));
            }
            continue;
        }
        let n = cells.cells.len();
        if let Some(o) = &mut open {
            let side = o.shape.side();
            if n != side {
                let col = if n > side {
                    cells.cells[side].1
                } else {
                    cells.end
                };
                return Err(err(
                    line,
                    col,
                    format!(
                        "a row of {n} cells in the grid that starts on line {}: expected {side}",
                        o.line
                    ),
                ));
            }
            o.cells.extend(values(&cells, side, line)?);
            if o.cells.len() == side * side {
                let o = open.take().expect("open grid");
                out.push(Entry {
                    grid: Grid::from_cells(o.shape, o.cells).expect("checked values"),
                    line: o.line,
                    layout: Layout::Block,
                });
            }
            continue;
        }
        let as_line = isqrt(n).and_then(|s| shape_for(s, opts.shape));
        let as_row = shape_for(n, opts.shape);
        let layout = match (opts.layout, as_line, as_row) {
            (Some(Layout::Line), Some(_), _) | (None, Some(_), None) => Layout::Line,
            (Some(Layout::Block), _, Some(_)) | (None, None, Some(_)) => Layout::Block,
            (None, Some(_), Some(_)) => {
                if cells.spaced {
                    Layout::Block
                } else {
                    Layout::Line
                }
            }
            _ => {
                let expected = match (opts.shape, opts.layout) {
                    (Some(s), Some(Layout::Line)) => format!("{} cells", s.cells()),
                    (Some(s), Some(Layout::Block)) => format!("{} cells", s.side()),
                    (Some(s), None) => format!(
                        "{} cells for a one-line puzzle or {} for a grid row",
                        s.cells(),
                        s.side()
                    ),
                    (None, Some(Layout::Line)) => {
                        "a square number of cells (16, 36, 81, 144, 256, 625...)".to_string()
                    }
                    (None, Some(Layout::Block)) => {
                        "as many cells as the side (4, 6, 8, 9, 12, 16, 25...)".to_string()
                    }
                    (None, None) => "81 cells for a one-line 9x9 puzzle (n*n for other sides), \
                                     or n cells for a row of a grid"
                        .to_string(),
                };
                return Err(err(
                    line,
                    cells.end,
                    format!("a line of {n} cells: expected {expected}"),
                ));
            }
        };
        match layout {
            Layout::Line => {
                let shape = as_line.expect("line shape");
                let v = values(&cells, shape.side(), line)?;
                out.push(Entry {
                    grid: Grid::from_cells(shape, v).expect("checked values"),
                    line,
                    layout,
                });
            }
            Layout::Block => {
                let shape = as_row.expect("row shape");
                let v = values(&cells, shape.side(), line)?;
                open = Some(Open {
                    shape,
                    line,
                    cells: v,
                });
            }
        }
    }
    if let Some(o) = &open {
        return Err(cut_short(o, last_line + 1));
    }
    Ok(out)
}

fn cut_short(o: &Open, line: usize) -> ReadPuzzlesError {
    let side = o.shape.side();
    err(
        line,
        1,
        format!(
            "the grid that starts on line {} ends after {} rows: expected {side} rows of {side} cells",
            o.line,
            o.cells.len() / side
        ),
    )
}
