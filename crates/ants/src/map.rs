//! The original map format: `rows`, `cols`, `players`, then `m` lines (see the module docs).

use std::fmt::Write as _;

/// A square, `(row, col)`, both counted from 0 at the top left.
pub type Loc = (usize, usize);

/// A parsed map file, with every object in the order the original engine meets it.
///
/// The order matters: the original keeps hills and ants in Python dictionaries keyed by owner
/// in order of first appearance (row-major), and its replay lists them in that order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AntsMap {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Number of players, 2 to 10.
    pub players: usize,
    /// Water squares, row-major.
    pub water: Vec<Loc>,
    /// Food squares (`*`), row-major.
    pub food: Vec<Loc>,
    /// Ants (`a`-`j`, `A`-`J`) per owner, owners in order of first appearance.
    pub ants: Vec<(u8, Vec<Loc>)>,
    /// Hills (`0`-`9`, `A`-`J`) per owner, owners in order of first appearance.
    pub hills: Vec<(u8, Vec<Loc>)>,
}

/// Why a map file was refused, with the line and column (both from 1) of the problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {message}")]
pub struct ParseMapError {
    /// Line of the map text, from 1 (0 when the problem is the file as a whole).
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

fn err(line: usize, column: usize, message: impl Into<String>) -> ParseMapError {
    ParseMapError {
        line,
        column,
        message: message.into(),
    }
}

fn push_owned(list: &mut Vec<(u8, Vec<Loc>)>, owner: u8, loc: Loc) {
    match list.iter_mut().find(|(o, _)| *o == owner) {
        Some((_, locs)) => locs.push(loc),
        None => list.push((owner, vec![loc])),
    }
}

impl AntsMap {
    /// Parses a map file as the original `Ants.parse_map` does.
    ///
    /// # Errors
    /// A [`ParseMapError`] naming the line and column of the first problem: a line that is
    /// not `key value`, a number that does not parse, `players` outside 2..=10 or after the
    /// first `m` line, an `m` line of the wrong width, a character that is not a map
    /// character for this many players (`?` and `!` included), or the wrong number of rows.
    pub fn parse(text: &str) -> Result<AntsMap, ParseMapError> {
        let mut rows = None;
        let mut cols = None;
        let mut players: Option<usize> = None;
        let mut map = AntsMap {
            rows: 0,
            cols: 0,
            players: 0,
            water: Vec::new(),
            food: Vec::new(),
            ants: Vec::new(),
            hills: Vec::new(),
        };
        let mut row = 0;
        for (i, raw) in text.split('\n').enumerate() {
            let line_no = i + 1;
            let indent = raw.len() - raw.trim_start().len();
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, value)) = line.split_once(' ') else {
                return Err(err(
                    line_no,
                    indent + 1,
                    format!("expected `key value`, got {line:?}"),
                ));
            };
            let vcol = indent + key.len() + 2;
            let number = |what: &str| -> Result<usize, ParseMapError> {
                value.trim().parse::<usize>().map_err(|_| {
                    err(
                        line_no,
                        vcol,
                        format!("{what} must be a whole number, got {:?}", value.trim()),
                    )
                })
            };
            match key.to_ascii_lowercase().as_str() {
                "rows" => rows = Some(number("rows")?),
                "cols" => cols = Some(number("cols")?),
                "players" => {
                    let n = number("players")?;
                    if !(2..=10).contains(&n) {
                        return Err(err(
                            line_no,
                            vcol,
                            format!("player count must be between 2 and 10, got {n}"),
                        ));
                    }
                    if row > 0 {
                        return Err(err(
                            line_no,
                            indent + 1,
                            "players must come before the first `m` line",
                        ));
                    }
                    players = Some(n);
                }
                "m" => {
                    let Some(n) = players else {
                        return Err(err(
                            line_no,
                            indent + 1,
                            "players count expected before map lines",
                        ));
                    };
                    let Some(width) = cols else {
                        return Err(err(line_no, indent + 1, "cols expected before map lines"));
                    };
                    let chars: Vec<char> = value.chars().collect();
                    if chars.len() != width {
                        return Err(err(
                            line_no,
                            vcol,
                            format!(
                                "incorrect number of cols in row {row}: got {}, expected {width}",
                                chars.len()
                            ),
                        ));
                    }
                    for (col, &c) in chars.iter().enumerate() {
                        let loc = (row, col);
                        let owner = |base: u8| (c as u32).wrapping_sub(u32::from(base));
                        if c.is_ascii_lowercase() && (owner(b'a') as usize) < n {
                            push_owned(&mut map.ants, owner(b'a') as u8, loc);
                        } else if c.is_ascii_digit() && (owner(b'0') as usize) < n {
                            push_owned(&mut map.hills, owner(b'0') as u8, loc);
                        } else if c.is_ascii_uppercase() && (owner(b'A') as usize) < n {
                            push_owned(&mut map.ants, owner(b'A') as u8, loc);
                            push_owned(&mut map.hills, owner(b'A') as u8, loc);
                        } else if c == '*' {
                            map.food.push(loc);
                        } else if c == '%' {
                            map.water.push(loc);
                        } else if c != '.' {
                            return Err(err(
                                line_no,
                                vcol + col,
                                format!(
                                    "invalid character {c:?} in map; use . land, % water, * food, \
                                     a-{} ants, 0-{} hills, A-{} an ant on its hill",
                                    (b'a' + n as u8 - 1) as char,
                                    n - 1,
                                    (b'A' + n as u8 - 1) as char
                                ),
                            ));
                        }
                    }
                    row += 1;
                }
                _ => {} // unknown keys (score, hive, ...) are ignored, as the original does
            }
        }
        let Some(players) = players else {
            return Err(err(0, 0, "no `players` line"));
        };
        let (Some(height), Some(width)) = (rows, cols) else {
            return Err(err(0, 0, "`rows` and `cols` lines are required"));
        };
        if height != row {
            return Err(err(
                0,
                0,
                format!("incorrect number of rows: expected {height}, got {row}"),
            ));
        }
        if height == 0 || width == 0 {
            return Err(err(
                0,
                0,
                "the map must have at least one row and one column",
            ));
        }
        map.rows = height;
        map.cols = width;
        map.players = players;
        Ok(map)
    }

    /// Writes the map in the original format (`rows`, `cols`, `players`, `m` lines).
    pub fn to_text(&self) -> String {
        let mut grid = vec![vec!['.'; self.cols]; self.rows];
        for &(r, c) in &self.water {
            grid[r][c] = '%';
        }
        for &(r, c) in &self.food {
            grid[r][c] = '*';
        }
        for (o, locs) in &self.hills {
            for &(r, c) in locs {
                grid[r][c] = (b'0' + o) as char;
            }
        }
        for (o, locs) in &self.ants {
            for &(r, c) in locs {
                grid[r][c] = if grid[r][c].is_ascii_digit() {
                    (b'A' + o) as char
                } else {
                    (b'a' + o) as char
                };
            }
        }
        let mut out = format!(
            "rows {}\ncols {}\nplayers {}\n",
            self.rows, self.cols, self.players
        );
        for line in grid {
            let _ = writeln!(out, "m {}", line.into_iter().collect::<String>());
        }
        out
    }
}
