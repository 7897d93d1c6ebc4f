//! Jumps and moves as people write them: the contest's `[r1 c1 r2 c2]` rows (one jump a row,
//! 1-based), and the classic notation (`46-44`, a multi-jump move `75-73-53`).

use std::fmt::Write as _;

use thiserror::Error;

use super::board::{Board, Hole, Jump, ParseBoardError, parse_hole};
use super::matrix::{ParseMatrixError, parse_rows};

/// One jump as written in a move list: from a hole to a hole, and the 1-based row of the
/// list it was on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenJump {
    /// Where the peg starts.
    pub from: Hole,
    /// Where it lands.
    pub to: Hole,
    /// The 1-based row of the move list (the jump's number).
    pub row: usize,
    /// The 1-based line of the text.
    pub line: usize,
}

/// Why a move list could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseMovesError {
    /// Not a matrix of numbers.
    #[error(transparent)]
    Matrix(#[from] ParseMatrixError),
    /// A row without exactly 4 numbers.
    #[error(
        "line {line}: jump row {row} has {found} numbers; write 4: from_row from_col to_row to_col"
    )]
    RowLength {
        line: usize,
        row: usize,
        found: usize,
    },
    /// A number that is not a row or column (below 1, above 255, or NaN).
    #[error("line {line}, column {column}: {what} is not a row or column number (they start at 1)")]
    Coordinate {
        line: usize,
        column: usize,
        what: String,
    },
    /// A classic-notation move that does not read.
    #[error("move {index} ({text:?}): {source}")]
    Classic {
        index: usize,
        text: String,
        source: ParseBoardError,
    },
    /// A classic-notation move with a single hole.
    #[error("move {index} ({text:?}) names one hole; write at least `from-to`")]
    ClassicShort { index: usize, text: String },
}

/// Parses the contest's jump rows: `[r1 c1 r2 c2; ...]` or one row of four numbers a line.
///
/// # Errors
/// [`ParseMovesError`] with the line (and column) of the first bad row.
///
/// ```
/// use ply_puzzles::peg_solitaire::parse_contest_moves;
/// let jumps = parse_contest_moves("[2 4 4 4;3 6 3 4]").unwrap();
/// assert_eq!(jumps[1].from.to_string(), "36");
/// ```
pub fn parse_contest_moves(text: &str) -> Result<Vec<WrittenJump>, ParseMovesError> {
    if text.trim().is_empty() || text.trim() == "[]" {
        return Ok(Vec::new());
    }
    let rows = parse_rows(text)?;
    let mut out = Vec::with_capacity(rows.len());
    for (i, r) in rows.iter().enumerate() {
        if r.len() != 4 {
            return Err(ParseMovesError::RowLength {
                line: r[0].line,
                row: i + 1,
                found: r.len(),
            });
        }
        let mut v = [0u8; 4];
        for (k, e) in r.iter().enumerate() {
            v[k] = match e.value {
                Some(x @ 1..=256) => (x - 1) as u8,
                other => {
                    return Err(ParseMovesError::Coordinate {
                        line: e.line,
                        column: e.column,
                        what: other.map_or("NaN".to_string(), |x| x.to_string()),
                    });
                }
            };
        }
        out.push(WrittenJump {
            from: Hole::new(v[0], v[1]),
            to: Hole::new(v[2], v[3]),
            row: i + 1,
            line: r[0].line,
        });
    }
    Ok(out)
}

/// Parses classic notation: moves separated by commas or white space, each a chain of holes
/// joined by `-` (`46-44, 75-73-53`). Each move's jumps become consecutive rows.
///
/// # Errors
/// [`ParseMovesError`] naming the move.
pub fn parse_classic_moves(text: &str) -> Result<Vec<WrittenJump>, ParseMovesError> {
    let mut out = Vec::new();
    let tokens = text
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty());
    for (i, token) in tokens.enumerate() {
        let holes = token
            .split('-')
            .map(parse_hole)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|source| ParseMovesError::Classic {
                index: i + 1,
                text: token.to_string(),
                source,
            })?;
        if holes.len() < 2 {
            return Err(ParseMovesError::ClassicShort {
                index: i + 1,
                text: token.to_string(),
            });
        }
        for w in holes.windows(2) {
            out.push(WrittenJump {
                from: w[0],
                to: w[1],
                row: out.len() + 1,
                line: 1,
            });
        }
    }
    Ok(out)
}

/// Groups jumps into moves: a jump starting where the previous one landed continues its
/// move.
pub fn group_moves(jumps: &[(Hole, Hole)]) -> Vec<Vec<Hole>> {
    let mut moves: Vec<Vec<Hole>> = Vec::new();
    for &(from, to) in jumps {
        match moves.last_mut() {
            Some(m) if m.last() == Some(&from) => m.push(to),
            _ => moves.push(vec![from, to]),
        }
    }
    moves
}

/// The holes of bit-level jumps.
pub fn jump_holes(board: &Board, jumps: &[Jump]) -> Vec<(Hole, Hole)> {
    jumps
        .iter()
        .map(|j| (board.hole(j.from), board.hole(j.to)))
        .collect()
}

/// Classic notation of a jump list: `46-44, 65-45, 75-73-53`.
pub fn format_classic(jumps: &[(Hole, Hole)]) -> String {
    group_moves(jumps)
        .iter()
        .map(|m| m.iter().map(Hole::to_string).collect::<Vec<_>>().join("-"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The contest's rows, one jump a line: `2 4 4 4`.
pub fn format_contest(jumps: &[(Hole, Hole)]) -> String {
    let mut s = String::new();
    for (f, t) in jumps {
        let _ = writeln!(s, "{} {} {} {}", f.row + 1, f.col + 1, t.row + 1, t.col + 1);
    }
    s
}
