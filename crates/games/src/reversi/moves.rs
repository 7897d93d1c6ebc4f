//! The move type and its notation; the bitboard move generator and flipper; a bulk-counting
//! perft.

use std::fmt;
use std::str::FromStr;

use ply_core::ParseMoveError;

use super::board::{Bits, Size};

/// A move: a disc placed on (`row`, `col`), 0-based, or a pass (only when the side to move
/// has no placement and the other side has one).
///
/// Shown as `row col` (HackerEarth's output) or `pass`; passes sort after every placement.
///
/// ```
/// use ply_games::reversi::Place;
/// assert_eq!(Place::at(4, 3).to_string(), "4 3");
/// assert_eq!("4 3".parse::<Place>().unwrap(), Place::at(4, 3));
/// assert_eq!("pass".parse::<Place>().unwrap(), Place::PASS);
/// assert!(Place::at(9, 9) < Place::PASS);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Place {
    row: u8,
    col: u8,
}

impl Place {
    /// The pass.
    pub const PASS: Place = Place {
        row: u8::MAX,
        col: u8::MAX,
    };

    /// A placement on (`row`, `col`).
    ///
    /// # Panics
    /// If `row` or `col` is 255 or more (no board is that large).
    pub fn at(row: usize, col: usize) -> Place {
        assert!(row < 255 && col < 255, "no board is that large");
        Place {
            row: row as u8,
            col: col as u8,
        }
    }

    /// Whether this is the pass.
    pub fn is_pass(self) -> bool {
        self == Place::PASS
    }

    /// Row and column of a placement; `None` for the pass.
    pub fn cell(self) -> Option<(usize, usize)> {
        (!self.is_pass()).then_some((self.row as usize, self.col as usize))
    }

    #[inline]
    pub(crate) fn index(self, n: usize) -> usize {
        self.row as usize * n + self.col as usize
    }

    /// Inlined so that the division by the board's side, a constant where it is called,
    /// compiles to a shift on 8x8 (it was 2% of an Othello search as a call).
    ///
    /// Built field by field: [`Place::at`]'s check cannot fail for a cell of a board (both
    /// below 128), and with it the call was not inlined (2.5% of an Othello search, session
    /// 38).
    #[inline(always)]
    pub(crate) fn from_index(i: usize, n: usize) -> Place {
        debug_assert!(i < 128 && n <= 128);
        Place {
            row: (i / n) as u8,
            col: (i % n) as u8,
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.cell() {
            Some((r, c)) => write!(f, "{r} {c}"),
            None => f.write_str("pass"),
        }
    }
}

impl FromStr for Place {
    type Err = ParseMoveError;

    /// Reads `row col` (spaces or a comma between) or `pass`.
    fn from_str(text: &str) -> Result<Place, ParseMoveError> {
        let err = |reason: &str| ParseMoveError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(Place::PASS);
        }
        let parts: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|p| !p.is_empty())
            .collect();
        let [r, c] = parts[..] else {
            return Err(err("expected `row col` (0-based) or `pass`"));
        };
        let num = |p: &str| {
            p.parse::<usize>()
                .ok()
                .filter(|&v| v < 255)
                .ok_or_else(|| err("row and column are numbers from 0"))
        };
        Ok(Place::at(num(r)?, num(c)?))
    }
}

/// Shifts every cell one step in direction `D` (0 east, 1 west, 2 south, 3 north, 4
/// south-east, 5 south-west, 6 north-east, 7 north-west), dropping what leaves the board.
#[inline(always)]
pub(crate) fn shift<S: Size, const D: usize>(b: S::Bits) -> S::Bits {
    let n = S::N as u32;
    let full = S::Bits::from_u128(S::FULL);
    let not_first = S::Bits::from_u128(S::NOT_FIRST_COL);
    let not_last = S::Bits::from_u128(S::NOT_LAST_COL);
    match D {
        0 => (b << 1) & not_first,
        1 => (b >> 1) & not_last,
        2 => (b << n) & full,
        3 => b >> n,
        4 => (b << (n + 1)) & not_first,
        5 => (b << (n - 1)) & not_last,
        6 => (b >> (n - 1)) & not_first,
        _ => (b >> (n + 1)) & not_last,
    }
}

#[inline(always)]
fn legal_dir<S: Size, const D: usize>(own: S::Bits, opp: S::Bits, empty: S::Bits) -> S::Bits {
    let mut x = shift::<S, D>(own) & opp;
    for _ in 0..S::N - 3 {
        x |= shift::<S, D>(x) & opp;
    }
    shift::<S, D>(x) & empty
}

/// The cells where the side owning `own` may place a disc (a fill along each of the eight
/// directions through runs of `opp`).
#[inline]
pub fn legal<S: Size>(own: S::Bits, opp: S::Bits) -> S::Bits {
    if S::N == 8 {
        let bits = super::eight::legal(own.to_u128() as u64, opp.to_u128() as u64);
        return S::Bits::from_u128(u128::from(bits));
    }
    legal_fill::<S>(own, opp)
}

/// [`legal`] by the generic fill, whatever the size (the 8x8 board has its own).
#[inline]
pub fn legal_fill<S: Size>(own: S::Bits, opp: S::Bits) -> S::Bits {
    let empty = !(own | opp) & S::Bits::from_u128(S::FULL);
    legal_dir::<S, 0>(own, opp, empty)
        | legal_dir::<S, 1>(own, opp, empty)
        | legal_dir::<S, 2>(own, opp, empty)
        | legal_dir::<S, 3>(own, opp, empty)
        | legal_dir::<S, 4>(own, opp, empty)
        | legal_dir::<S, 5>(own, opp, empty)
        | legal_dir::<S, 6>(own, opp, empty)
        | legal_dir::<S, 7>(own, opp, empty)
}

#[inline(always)]
fn flips_dir<S: Size, const D: usize>(own: S::Bits, opp: S::Bits, from: S::Bits) -> S::Bits {
    let mut run = S::Bits::ZERO;
    let mut x = shift::<S, D>(from);
    while !(x & opp).is_empty() {
        run |= x;
        x = shift::<S, D>(x);
    }
    if (x & own).is_empty() {
        S::Bits::ZERO
    } else {
        run
    }
}

/// The discs of `opp` that a disc placed on cell `i` by the owner of `own` turns over.
#[inline]
pub fn flips<S: Size>(own: S::Bits, opp: S::Bits, i: usize) -> S::Bits {
    if S::N == 8 {
        let bits = super::eight::flips(own.to_u128() as u64, opp.to_u128() as u64, i);
        return S::Bits::from_u128(u128::from(bits));
    }
    flips_ray::<S>(own, opp, i)
}

/// [`flips`] by stepping along each direction, whatever the size (the 8x8 board has its own).
#[inline]
pub fn flips_ray<S: Size>(own: S::Bits, opp: S::Bits, i: usize) -> S::Bits {
    let from = S::Bits::cell(i);
    flips_dir::<S, 0>(own, opp, from)
        | flips_dir::<S, 1>(own, opp, from)
        | flips_dir::<S, 2>(own, opp, from)
        | flips_dir::<S, 3>(own, opp, from)
        | flips_dir::<S, 4>(own, opp, from)
        | flips_dir::<S, 5>(own, opp, from)
        | flips_dir::<S, 6>(own, opp, from)
        | flips_dir::<S, 7>(own, opp, from)
}

/// Perft straight on the bitboards, counting the last ply by population count: the same
/// figures as the generic `ply_search::perft` (a pass is a ply; a finished game has no
/// moves), several times faster. For benchmarks and the `othello` perft tests.
///
/// The 8x8 board goes to its own generator (parallel-prefix moves, ray-mask flips, the
/// child's moves computed once and passed down).
pub fn perft_bits<S: Size>(own: S::Bits, opp: S::Bits, depth: u32) -> u64 {
    if S::N == 8 {
        return super::eight::perft(own.to_u128() as u64, opp.to_u128() as u64, depth);
    }
    if depth == 0 {
        return 1;
    }
    let mut moves = legal::<S>(own, opp);
    if moves.is_empty() {
        return if legal::<S>(opp, own).is_empty() {
            0
        } else {
            perft_bits::<S>(opp, own, depth - 1)
        };
    }
    if depth == 1 {
        return u64::from(moves.count());
    }
    let mut total = 0;
    while !moves.is_empty() {
        let i = moves.lowest() as usize;
        let bit = S::Bits::cell(i);
        moves &= !bit;
        let f = flips::<S>(own, opp, i);
        total += perft_bits::<S>(opp & !f, own | f | bit, depth - 1);
    }
    total
}
