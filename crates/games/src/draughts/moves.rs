//! The move type, its notation, and the move generator (bit masks and precomputed jump
//! tables).

use std::fmt;
use std::str::FromStr;

use ply_core::{ParseMoveError, Seat};

use super::board::{Draughts, SIZE};

/// The most jumps one move can make: each jump goes two rows forward, so at most three on
/// eight rows.
pub const MAX_JUMPS: usize = 3;

const NONE: u8 = u8::MAX;

/// A move: the man's cell, then the cells it lands on (one for a step; one per jump for a
/// capture). Cells are numbered `row * 8 + col`.
///
/// Shown as `(2,5)->(4,3)->(6,1)`; any text with the row and column numbers in that order
/// parses (`2 5 4 3 6 1`).
///
/// ```
/// use ply_games::draughts::Move;
/// let m: Move = "2 5 4 3 6 1".parse().unwrap();
/// assert_eq!(m.to_string(), "(2,5)->(4,3)->(6,1)");
/// assert_eq!(m.landings().len(), 2);
/// assert!(m.is_capture());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// The start cell, then up to [`MAX_JUMPS`] landings, padded with `NONE`.
    cells: [u8; MAX_JUMPS + 1],
}

impl Move {
    /// A move from `from` through `landings` (cell numbers `row * 8 + col`).
    ///
    /// # Panics
    /// With no landing or more than [`MAX_JUMPS`], or a cell off the board.
    pub fn new(from: usize, landings: &[usize]) -> Move {
        assert!((1..=MAX_JUMPS).contains(&landings.len()), "1 to 3 landings");
        let mut cells = [NONE; MAX_JUMPS + 1];
        for (slot, &c) in cells.iter_mut().zip(std::iter::once(&from).chain(landings)) {
            assert!(c < SIZE * SIZE, "cell off the board");
            *slot = c as u8;
        }
        Move { cells }
    }

    /// The cell the man starts on.
    pub fn from(self) -> usize {
        self.cells[0] as usize
    }

    /// The landing cells, in order.
    pub fn landings(&self) -> &[u8] {
        let n = self.cells[1..].iter().take_while(|&&c| c != NONE).count();
        &self.cells[1..=n]
    }

    /// Whether the move captures (its first landing is two rows away).
    pub fn is_capture(self) -> bool {
        (self.cells[0] / 8).abs_diff(self.cells[1] / 8) == 2
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = |c: u8| format!("({},{})", c / 8, c % 8);
        f.write_str(&cell(self.cells[0]))?;
        for &c in self.landings() {
            write!(f, "->{}", cell(c))?;
        }
        Ok(())
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads the row and column numbers of the start and each landing, in order, with any
    /// separators (`(2,5)->(3,6)`, `2 5 3 6`).
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let err = |reason: &str| ParseMoveError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let nums = crate::text::numbers(text).map_err(|_| err("a number is too large"))?;
        if nums.len() % 2 != 0 || nums.len() < 4 {
            return Err(err(
                "expected the start cell and 1 to 3 landing cells, each as `row col`",
            ));
        }
        if nums.len() > 2 * (MAX_JUMPS + 1) {
            return Err(err("no move makes more than 3 jumps on 8 rows"));
        }
        if nums.iter().any(|&n| n >= SIZE) {
            return Err(err("rows and columns are 0..7"));
        }
        let cells: Vec<usize> = nums.chunks(2).map(|p| p[0] * SIZE + p[1]).collect();
        Ok(Move::new(cells[0], &cells[1..]))
    }
}

/// `STEP[seat][cell]`: the cells one diagonal step forward (`NONE` off the board).
/// `JUMP[seat][cell]`: per forward diagonal, the cell jumped over and the landing.
struct Tables {
    step: [[[u8; 2]; 64]; 2],
    jump: [[[(u8, u8); 2]; 64]; 2],
}

const fn on(r: i32, c: i32) -> bool {
    r >= 0 && r < 8 && c >= 0 && c < 8
}

const fn tables() -> Tables {
    let mut t = Tables {
        step: [[[NONE; 2]; 64]; 2],
        jump: [[[(NONE, NONE); 2]; 64]; 2],
    };
    let mut seat = 0;
    while seat < 2 {
        let dr: i32 = if seat == 0 { 1 } else { -1 };
        let mut cell = 0;
        while cell < 64 {
            let (r, c) = ((cell / 8) as i32, (cell % 8) as i32);
            let mut k = 0;
            while k < 2 {
                let dc: i32 = if k == 0 { -1 } else { 1 };
                if on(r + dr, c + dc) {
                    t.step[seat][cell][k] = ((r + dr) * 8 + c + dc) as u8;
                }
                if on(r + 2 * dr, c + 2 * dc) {
                    t.jump[seat][cell][k] = (
                        ((r + dr) * 8 + c + dc) as u8,
                        ((r + 2 * dr) * 8 + c + 2 * dc) as u8,
                    );
                }
                k += 1;
            }
            cell += 1;
        }
        seat += 1;
    }
    t
}

static TABLES: Tables = tables();

/// Continues a capture from `at`: appends every maximal chain to `out`.
fn jumps(
    seat: usize,
    at: usize,
    opp: u64,
    empty: u64,
    path: &mut [usize; MAX_JUMPS + 1],
    len: usize,
    out: &mut Vec<Move>,
) {
    let mut extended = false;
    for &(over, land) in &TABLES.jump[seat][at] {
        if land == NONE {
            continue;
        }
        let (over, land) = (over as usize, land as usize);
        if opp & (1 << over) != 0 && empty & (1 << land) != 0 {
            extended = true;
            path[len] = land;
            jumps(
                seat,
                land,
                opp & !(1 << over),
                (empty | (1 << over)) & !(1 << land),
                path,
                len + 1,
                out,
            );
        }
    }
    if !extended && len > 1 {
        out.push(Move::new(path[0], &path[1..len]));
    }
}

impl Draughts {
    /// Appends the legal moves of the side to move, sorted.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        let seat = self.turn.index();
        let own = self.men[seat];
        let opp = self.men[1 - seat];
        let empty = !(own | opp);
        let mut men = own;
        let mut path = [0usize; MAX_JUMPS + 1];
        while men != 0 {
            let from = men.trailing_zeros() as usize;
            men &= men - 1;
            for &to in &TABLES.step[seat][from] {
                if to != NONE && empty & (1 << to) != 0 {
                    out.push(Move::new(from, &[to as usize]));
                }
            }
            path[0] = from;
            // The man leaves its cell, which a chain never comes back to (forward only).
            jumps(seat, from, opp, empty | (1 << from), &mut path, 1, out);
        }
        out.sort_unstable();
    }

    /// Plays a move known to be legal: moves the man, removes every man jumped over.
    pub(crate) fn apply(&mut self, mv: Move) {
        let seat = self.turn.index();
        let mut at = mv.from();
        self.men[seat] &= !(1 << at);
        for &land in mv.landings() {
            let land = land as usize;
            if (at / 8).abs_diff(land / 8) == 2 {
                let over = (at + land) / 2;
                self.men[1 - seat] &= !(1 << over);
            }
            at = land;
        }
        self.men[seat] |= 1 << at;
        self.turn = self.turn.next(2);
    }

    /// Whether `seat` has any move, cheaply (steps and single jumps by masks).
    pub fn has_move(&self, seat: Seat) -> bool {
        let own = self.men[seat.index()];
        let opp = self.men[1 - seat.index()];
        let empty = !(own | opp);
        const NOT_A: u64 = 0xfefe_fefe_fefe_fefe; // without column 0
        const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f; // without column 7
        let (left, right) = if seat == Seat::FIRST {
            ((own << 7) & NOT_H, (own << 9) & NOT_A)
        } else {
            ((own >> 9) & NOT_H, (own >> 7) & NOT_A)
        };
        if (left | right) & empty != 0 {
            return true;
        }
        let (jl, jr) = if seat == Seat::FIRST {
            (((left & opp) << 7) & NOT_H, ((right & opp) << 9) & NOT_A)
        } else {
            (((left & opp) >> 9) & NOT_H, ((right & opp) >> 7) & NOT_A)
        };
        (jl | jr) & empty != 0
    }
}
