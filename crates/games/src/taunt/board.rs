//! Pieces, the state and its one-line text form.

use std::fmt;
use std::str::FromStr;

use ply_core::{ParseStateError, Seat};

/// Rows of the grid.
pub const ROWS: usize = 10;
/// Columns of the grid.
pub const COLS: usize = 4;
/// Cells of the grid.
pub const CELLS: usize = ROWS * COLS;
/// The game ends when the move counter reaches this.
pub const MOVE_LIMIT: u32 = 100;

/// Which way a piece of type 2 or 3 goes forward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    /// Towards row 0 (digit 0).
    Up,
    /// Towards row 9 (digit 1).
    Down,
}

impl Direction {
    /// The row step forward: -1 or +1.
    pub fn step(self) -> i32 {
        match self {
            Direction::Up => -1,
            Direction::Down => 1,
        }
    }

    /// The row on which a piece going this way turns round.
    pub fn far_row(self) -> usize {
        match self {
            Direction::Up => 0,
            Direction::Down => ROWS - 1,
        }
    }

    /// The other way.
    pub fn flipped(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }
}

/// One piece: its owner, its type (1, 2 or 3) and its direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    /// The owner.
    pub seat: Seat,
    /// 1: one step orthogonally; 2: one step sideways or two rows forward; 3: two rows
    /// forward and two columns sideways.
    pub kind: u8,
    /// Forward for types 2 and 3; carried but unused by type 1.
    pub dir: Direction,
}

impl Piece {
    /// The contest's three-digit code: player, type, direction (`131`).
    pub fn code(self) -> [u8; 3] {
        [
            b'0' + self.seat.number() as u8,
            b'0' + self.kind,
            match self.dir {
                Direction::Up => b'0',
                Direction::Down => b'1',
            },
        ]
    }

    /// Reads a three-digit code; `Ok(None)` for `000`.
    ///
    /// # Errors
    /// Says which digit is wrong and what it may be.
    pub fn from_code(code: &str) -> Result<Option<Piece>, String> {
        let b = code.as_bytes();
        if b.len() != 3 || !b.iter().all(u8::is_ascii_digit) {
            return Err(format!(
                "{code:?} is not a cell: a cell is three digits, player (1 or 2), type (1, 2 or 3) and direction (0 up, 1 down), or 000 for empty"
            ));
        }
        if code == "000" {
            return Ok(None);
        }
        let seat = match b[0] {
            b'1' => Seat::FIRST,
            b'2' => Seat::SECOND,
            _ => {
                return Err(format!(
                    "{code:?}: the first digit is the player, 1 or 2 (000 is an empty cell)"
                ));
            }
        };
        let kind = b[1] - b'0';
        if !(1..=3).contains(&kind) {
            return Err(format!("{code:?}: the second digit is the type, 1, 2 or 3"));
        }
        let dir = match b[2] {
            b'0' => Direction::Up,
            b'1' => Direction::Down,
            _ => {
                return Err(format!(
                    "{code:?}: the third digit is the direction, 0 (up) or 1 (down)"
                ));
            }
        };
        Ok(Some(Piece { seat, kind, dir }))
    }
}

/// What the game does when a player has no move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// The game ends when the player to move has no move (the judge asks only that player).
    #[default]
    MoverStuck,
    /// The game ends as soon as either player has no move (a literal reading of the
    /// statement's "when any of the players don't have any move left").
    EitherStuck,
}

/// A Taunt position: the grid, the number of moves played (player 1 moves when it is even)
/// and the end rule.
///
/// ```text
/// start, one-line text (rows separated by `/`, then the move counter):
/// 131,131,131,121/121,121,111,111/111,000,000,000/000,000,000,000/.../000,000,000,210/210,210,220,220/220,230,230,230 0
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Taunt {
    pub(crate) cells: [Option<Piece>; CELLS],
    pub(crate) moves: u32,
    pub(crate) rule: EndRule,
}

impl Taunt {
    /// The statement's starting state.
    pub fn initial() -> Taunt {
        const START: &str = "131,131,131,121/121,121,111,111/111,000,000,000/000,000,000,000/000,000,000,000/000,000,000,000/000,000,000,000/000,000,000,210/210,210,220,220/220,230,230,230 0";
        START.parse().expect("the start position parses")
    }

    /// The same position under another end rule.
    pub fn with_end_rule(mut self, rule: EndRule) -> Taunt {
        self.rule = rule;
        self
    }

    /// The end rule in force.
    pub fn end_rule(&self) -> EndRule {
        self.rule
    }

    /// Moves played so far.
    pub fn moves_played(&self) -> u32 {
        self.moves
    }

    /// The piece on (`row`, `col`).
    pub fn at(&self, row: usize, col: usize) -> Option<Piece> {
        self.cells[row * COLS + col]
    }

    /// How many pieces `seat` has.
    pub fn count(&self, seat: Seat) -> u32 {
        self.mask(seat).count_ones()
    }

    /// A picture for people: `1`/`2` the owner, then the type, then `v`/`^` the direction.
    pub fn picture(&self) -> String {
        let mut s = String::from("    0   1   2   3\n");
        for r in 0..ROWS {
            s.push_str(&format!("{r}"));
            for c in 0..COLS {
                match self.at(r, c) {
                    None => s.push_str("  . "),
                    Some(p) => s.push_str(&format!(
                        " {}{}{}",
                        p.seat.number(),
                        p.kind,
                        if p.dir == Direction::Down { 'v' } else { '^' }
                    )),
                }
            }
            s.push('\n');
        }
        s.push_str(&format!(
            "player 1: {} pieces, player 2: {}; move {} of {MOVE_LIMIT}, {} to move\n",
            self.count(Seat::FIRST),
            self.count(Seat::SECOND),
            self.moves,
            ply_core::Game::to_move(self)
        ));
        s
    }
}

impl fmt::Display for Taunt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..ROWS {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..COLS {
                if c > 0 {
                    f.write_str(",")?;
                }
                let code = self.at(r, c).map_or(*b"000", Piece::code);
                f.write_str(std::str::from_utf8(&code).expect("digits"))?;
            }
        }
        write!(f, " {}", self.moves)?;
        if self.rule == EndRule::EitherStuck {
            f.write_str(" either")?;
        }
        Ok(())
    }
}

impl FromStr for Taunt {
    type Err = ParseStateError;

    /// Reads the one-line form: 10 rows of 4 three-digit cells separated by `,`, rows by
    /// `/`, a space and the move counter, optionally ` either` for [`EndRule::EitherStuck`].
    fn from_str(text: &str) -> Result<Self, ParseStateError> {
        let err = |col: usize, reason: String| ParseStateError::new(1, col, reason);
        let parts: Vec<&str> = text.split_whitespace().collect();
        let (grid, counter, rule) = match parts[..] {
            [g, n] => (g, n, EndRule::MoverStuck),
            [g, n, "either"] => (g, n, EndRule::EitherStuck),
            _ => {
                return Err(err(
                    1,
                    "expected 10 rows of 4 cells separated by `/`, a space and the move counter (then optionally `either`)".into(),
                ));
            }
        };
        let counter_col = text.find(counter).map_or(1, |i| i + 1);
        let moves: u32 = counter
            .parse()
            .ok()
            .filter(|&n| n <= MOVE_LIMIT)
            .ok_or_else(|| {
                err(
                    counter_col,
                    format!("{counter:?}: the move counter is a number from 0 to {MOVE_LIMIT}"),
                )
            })?;
        let rows: Vec<&str> = grid.split('/').collect();
        if rows.len() != ROWS {
            return Err(err(
                1,
                format!(
                    "found {} rows; the grid has 10, separated by `/`",
                    rows.len()
                ),
            ));
        }
        let mut cells = [None; CELLS];
        let mut column = 1;
        for (r, row) in rows.iter().enumerate() {
            let codes: Vec<&str> = row.split(',').collect();
            if codes.len() != COLS {
                return Err(err(
                    column,
                    format!(
                        "row {r} has {} cells; each row has 4, separated by `,`",
                        codes.len()
                    ),
                ));
            }
            for (c, code) in codes.iter().enumerate() {
                cells[r * COLS + c] = Piece::from_code(code).map_err(|e| err(column, e))?;
                column += code.len() + 1;
            }
        }
        Ok(Taunt { cells, moves, rule })
    }
}
