//! Reading number matrices, as the contest wrote boards and move lists: rows of numbers
//! separated by white space (one row a line), or MATLAB's `[1 2 3; 4 5 6]` (commas allowed,
//! rows ended by `;` or a new line). `NaN` is read as a wildcard cell.

use thiserror::Error;

/// One entry of a matrix, with where it was written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    /// The value; `None` for `NaN`.
    pub value: Option<i64>,
    /// 1-based line of the text.
    pub line: usize,
    /// 1-based column of the text.
    pub column: usize,
}

/// Why a text is not a matrix of numbers.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseMatrixError {
    /// A token that is not an integer or `NaN`.
    #[error(
        "line {line}, column {column}: {token:?} is not a whole number (use -1, 0, a weight, or NaN)"
    )]
    BadNumber {
        line: usize,
        column: usize,
        token: String,
    },
    /// A row whose length differs from the first row.
    #[error(
        "line {line}: row {row} has {found} entries but row 1 has {expected}; every row needs the same length"
    )]
    Ragged {
        line: usize,
        row: usize,
        found: usize,
        expected: usize,
    },
    /// Unbalanced brackets or text after the closing bracket.
    #[error("line {line}, column {column}: {what}")]
    Brackets {
        line: usize,
        column: usize,
        what: &'static str,
    },
    /// No numbers at all.
    #[error("the matrix is empty; write rows of numbers")]
    Empty,
}

/// Parses `text` into rows of entries, checking every row has the same length.
///
/// # Errors
/// [`ParseMatrixError`] naming the line and column of the first problem.
///
/// ```
/// use ply_puzzles::peg_solitaire::parse_matrix;
/// let m = parse_matrix("[1 0 -1; 2,3,NaN]").unwrap();
/// assert_eq!(m.len(), 2);
/// assert_eq!(m[1][2].value, None);
/// ```
pub fn parse_matrix(text: &str) -> Result<Vec<Vec<Entry>>, ParseMatrixError> {
    let rows = parse_rows(text)?;
    let expected = rows[0].len();
    for (i, r) in rows.iter().enumerate() {
        if r.len() != expected {
            return Err(ParseMatrixError::Ragged {
                line: r[0].line,
                row: i + 1,
                found: r.len(),
                expected,
            });
        }
    }
    Ok(rows)
}

/// Parses `text` into rows of entries (at least one, none empty), rows of any length.
///
/// # Errors
/// [`ParseMatrixError`] naming the line and column of the first problem.
pub fn parse_rows(text: &str) -> Result<Vec<Vec<Entry>>, ParseMatrixError> {
    let mut rows: Vec<(usize, Vec<Entry>)> = Vec::new();
    let mut row: Vec<Entry> = Vec::new();
    let mut row_line = 1;
    let mut depth = 0usize;
    let mut closed = false;
    let flush = |row: &mut Vec<Entry>, rows: &mut Vec<(usize, Vec<Entry>)>, line: usize| {
        if !row.is_empty() {
            rows.push((line, std::mem::take(row)));
        }
    };
    for (li, line) in text.lines().enumerate() {
        let ln = li + 1;
        // `%` starts a MATLAB comment, `#` a shell-style one.
        let line = line.split(['%', '#']).next().unwrap_or("");
        let mut chars = line.char_indices().peekable();
        while let Some(&(i, ch)) = chars.peek() {
            let col = line[..i].chars().count() + 1;
            match ch {
                '[' => {
                    if depth > 0 || closed || !rows.is_empty() || !row.is_empty() {
                        return Err(ParseMatrixError::Brackets {
                            line: ln,
                            column: col,
                            what: "unexpected `[`; write one matrix",
                        });
                    }
                    depth = 1;
                    chars.next();
                }
                ']' => {
                    if depth == 0 {
                        return Err(ParseMatrixError::Brackets {
                            line: ln,
                            column: col,
                            what: "`]` without a matching `[`",
                        });
                    }
                    depth = 0;
                    closed = true;
                    flush(&mut row, &mut rows, row_line);
                    chars.next();
                }
                ';' => {
                    flush(&mut row, &mut rows, row_line);
                    chars.next();
                }
                ',' => {
                    chars.next();
                }
                c if c.is_whitespace() => {
                    chars.next();
                }
                _ => {
                    if closed {
                        return Err(ParseMatrixError::Brackets {
                            line: ln,
                            column: col,
                            what: "text after the closing `]`",
                        });
                    }
                    let start = i;
                    let mut end = line.len();
                    while let Some(&(j, c)) = chars.peek() {
                        if c.is_whitespace() || matches!(c, ',' | ';' | '[' | ']') {
                            end = j;
                            break;
                        }
                        chars.next();
                    }
                    let token = &line[start..end];
                    if row.is_empty() {
                        row_line = ln;
                    }
                    let value = if token.eq_ignore_ascii_case("nan") {
                        None
                    } else {
                        Some(
                            token
                                .parse::<i64>()
                                .map_err(|_| ParseMatrixError::BadNumber {
                                    line: ln,
                                    column: col,
                                    token: token.to_string(),
                                })?,
                        )
                    };
                    row.push(Entry {
                        value,
                        line: ln,
                        column: col,
                    });
                }
            }
        }
        if depth == 0 || !closed {
            // Outside brackets, or inside them, a new line ends a row as in MATLAB.
            flush(&mut row, &mut rows, row_line);
        }
    }
    if depth > 0 {
        return Err(ParseMatrixError::Brackets {
            line: text.lines().count().max(1),
            column: 1,
            what: "`[` is never closed; end the matrix with `]`",
        });
    }
    flush(&mut row, &mut rows, row_line);
    if rows.is_empty() {
        return Err(ParseMatrixError::Empty);
    }
    Ok(rows.into_iter().map(|r| r.1).collect())
}
