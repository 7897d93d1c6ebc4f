//! Levels as text files a player can write: a header of `key: value` lines, then the brick
//! grid, one character a brick. Parsing reports every problem with its line and column.
//!
//! ```text
//! # comments start with '#'
//! name: First Light
//! speed: 100      # ball speed in percent of the standard speed, 50-200 (default 100)
//! drops: 15       # percent chance that a broken brick drops a power-up, 0-100 (default 15)
//! bricks:
//! .............   # exactly 13 cells a row, at most 12 rows
//! 1111*11111111   # 1-9 hit points, X indestructible, * one hit and always drops, . empty
//! ```

use std::fmt;

use thiserror::Error;

use crate::field::{GRID_COLS, GRID_MAX_ROWS};

/// One cell of a level's grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    /// No brick.
    Empty,
    /// A brick that breaks after `hp` hits; a `bonus` brick always drops a power-up.
    Brick {
        /// Hits left.
        hp: u8,
        /// Hits it started with (the score for breaking it grows with them).
        max: u8,
        /// Always drops a power-up when broken.
        bonus: bool,
    },
    /// A brick that never breaks.
    Solid,
}

impl Cell {
    /// Whether the level is not cleared while this cell stands.
    pub fn is_breakable(self) -> bool {
        matches!(self, Cell::Brick { .. })
    }

    /// Whether a ball bounces off this cell.
    pub fn is_present(self) -> bool {
        !matches!(self, Cell::Empty)
    }

    fn symbol(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Solid => 'X',
            Cell::Brick { bonus: true, .. } => '*',
            Cell::Brick { max, .. } => char::from(b'0' + max),
        }
    }
}

/// A parsed, valid level.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level's title.
    pub name: String,
    /// Ball speed in percent of the standard speed (50..=200).
    pub speed: u32,
    /// Percent chance that an ordinary broken brick drops a power-up (0..=100).
    pub drops: u32,
    /// Rows of exactly [`GRID_COLS`] cells, at most [`GRID_MAX_ROWS`] rows, top first.
    pub rows: Vec<[Cell; GRID_COLS]>,
}

/// One problem in a level file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelProblem {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// What is wrong and how to fix it.
    pub message: String,
}

/// Every problem found in a level file.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct ParseLevelError {
    /// The problems, in the order of the file.
    pub problems: Vec<LevelProblem>,
}

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "line {}, column {}: {}", p.line, p.column, p.message)?;
        }
        Ok(())
    }
}

impl Level {
    /// Parses a level file.
    ///
    /// # Errors
    /// Every problem found (unknown key or brick, a value out of range, a row of the wrong
    /// length, too many rows, no breakable brick), each with its line and column.
    ///
    /// ```
    /// let level = ply_breaker::Level::parse("name: Tiny\nbricks:\n......1......\n").unwrap();
    /// assert_eq!(level.breakable(), 1);
    /// let err = ply_breaker::Level::parse("bricks:\n..q...1......\n").unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "line 2, column 3: unknown brick 'q' (use . 1-9 X *)");
    /// ```
    pub fn parse(text: &str) -> Result<Level, ParseLevelError> {
        let mut problems = Vec::new();
        let mut p = |line: usize, column: usize, message: String| {
            problems.push(LevelProblem {
                line,
                column,
                message,
            })
        };
        let mut name = None;
        let mut speed = 100;
        let mut drops = 15;
        let mut rows = Vec::new();
        let mut in_bricks = false;
        let mut bricks_line = None;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim_end();
            if content.trim().is_empty() {
                continue;
            }
            if in_bricks {
                if content.starts_with(char::is_whitespace) {
                    let col = content.len() - content.trim_start().len() + 1;
                    p(line, col, "a row starts in column 1".into());
                    continue;
                }
                let mut row = [Cell::Empty; GRID_COLS];
                let mut count = 0;
                for (c, ch) in content.chars().enumerate() {
                    let cell = match ch {
                        '.' => Cell::Empty,
                        'X' => Cell::Solid,
                        '*' => Cell::Brick {
                            hp: 1,
                            max: 1,
                            bonus: true,
                        },
                        '1'..='9' => {
                            let hp = ch as u8 - b'0';
                            Cell::Brick {
                                hp,
                                max: hp,
                                bonus: false,
                            }
                        }
                        ' ' | '\t' => {
                            p(
                                line,
                                c + 1,
                                "a row has no spaces (use . for an empty cell)".into(),
                            );
                            Cell::Empty
                        }
                        other => {
                            p(
                                line,
                                c + 1,
                                format!("unknown brick {other:?} (use . 1-9 X *)"),
                            );
                            Cell::Empty
                        }
                    };
                    if c < GRID_COLS {
                        row[c] = cell;
                    }
                    count = c + 1;
                }
                if count != GRID_COLS {
                    let col = if count > GRID_COLS {
                        GRID_COLS + 1
                    } else {
                        count + 1
                    };
                    p(
                        line,
                        col,
                        format!(
                            "a row has {count} cells; it needs exactly {GRID_COLS} (use . for an empty cell)"
                        ),
                    );
                }
                if rows.len() == GRID_MAX_ROWS {
                    p(line, 1, format!("more than {GRID_MAX_ROWS} rows of bricks"));
                } else {
                    rows.push(row);
                }
                continue;
            }
            let Some((key, value)) = content.split_once(':') else {
                p(
                    line,
                    1,
                    "expected `key: value` (name, speed, drops) or `bricks:`".into(),
                );
                continue;
            };
            let value_col = key.len() + 2 + (value.len() - value.trim_start().len());
            let value = value.trim();
            match key.trim() {
                "name" => {
                    if value.is_empty() {
                        p(line, value_col, "the name is empty".into());
                    }
                    name = Some(value.to_string());
                }
                "speed" => match value.parse::<u32>() {
                    Ok(v) if (50..=200).contains(&v) => speed = v,
                    _ => p(
                        line,
                        value_col,
                        format!("speed {value:?} is not a whole number from 50 to 200 (percent)"),
                    ),
                },
                "drops" => match value.parse::<u32>() {
                    Ok(v) if v <= 100 => drops = v,
                    _ => p(
                        line,
                        value_col,
                        format!("drops {value:?} is not a whole number from 0 to 100 (percent)"),
                    ),
                },
                "bricks" => {
                    if !value.is_empty() {
                        p(line, value_col, "nothing follows `bricks:` on its line; the rows start on the next line".into());
                    }
                    in_bricks = true;
                    bricks_line = Some(line);
                }
                other => p(
                    line,
                    1,
                    format!("unknown key {other:?} (name, speed, drops, bricks)"),
                ),
            }
        }
        let last = text.lines().count().max(1);
        match bricks_line {
            None => p(
                last,
                1,
                "no `bricks:` line; the grid of bricks follows one".into(),
            ),
            Some(at) => {
                if !rows.iter().flatten().any(|c| c.is_breakable()) {
                    p(at, 1, "the level has no breakable brick (1-9 or *)".into());
                }
            }
        }
        if problems.is_empty() {
            Ok(Level {
                name: name.unwrap_or_else(|| "Untitled".into()),
                speed,
                drops,
                rows,
            })
        } else {
            Err(ParseLevelError { problems })
        }
    }

    /// How many bricks must break to clear the level.
    pub fn breakable(&self) -> usize {
        self.rows
            .iter()
            .flatten()
            .filter(|c| c.is_breakable())
            .count()
    }

    /// The level as text again (what [`Level::parse`] reads back to the same level).
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "name: {}\nspeed: {}\ndrops: {}\nbricks:\n",
            self.name, self.speed, self.drops
        );
        for row in &self.rows {
            s.extend(row.iter().map(|c| c.symbol()));
            s.push('\n');
        }
        s
    }
}

/// The six levels that come with the game, in order.
pub const BUILTIN: [(&str, &str); 6] = [
    (
        "01_first_light.txt",
        include_str!("../levels/01_first_light.txt"),
    ),
    ("02_pyramid.txt", include_str!("../levels/02_pyramid.txt")),
    ("03_checkers.txt", include_str!("../levels/03_checkers.txt")),
    ("04_fortress.txt", include_str!("../levels/04_fortress.txt")),
    ("05_diamond.txt", include_str!("../levels/05_diamond.txt")),
    ("06_gauntlet.txt", include_str!("../levels/06_gauntlet.txt")),
];

/// The built-in levels, parsed.
///
/// # Panics
/// Never in a released build: the level files are checked by the tests.
pub fn builtin_levels() -> Vec<Level> {
    BUILTIN
        .iter()
        .map(|(file, text)| Level::parse(text).unwrap_or_else(|e| panic!("{file}: {e}")))
        .collect()
}
