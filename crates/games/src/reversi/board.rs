//! Bitboards, the two board sizes, the state and its one-line text form.

use std::fmt::{self, Debug};
use std::hash::Hash;
use std::marker::PhantomData;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Shl, Shr};
use std::str::FromStr;

use ply_core::{ParseStateError, Seat};

/// An unsigned integer used as a set of cells, bit `row * N + col`.
pub trait Bits:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set of cell `i` alone.
    fn cell(i: usize) -> Self;
    /// How many cells.
    fn count(self) -> u32;
    /// The lowest cell; meaningless on the empty set.
    fn lowest(self) -> u32;
    /// Truncates a 128-bit mask (masks are computed once, as `u128`).
    fn from_u128(x: u128) -> Self;
    /// Widens to 128 bits.
    fn to_u128(self) -> u128;
    /// Whether the set is empty.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn cell(i: usize) -> Self {
                1 << i
            }
            #[inline(always)]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn lowest(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
        }
    };
}
impl_bits!(u64);
impl_bits!(u128);

/// A board size: `N` x `N` cells in a `Bits` integer.
pub trait Size: Copy + Eq + Hash + Debug + Default + Send + Sync + 'static {
    /// The integer holding one colour's discs.
    type Bits: Bits;
    /// Cells per side.
    const N: usize;
    /// Every cell of the board.
    const FULL: u128 = if Self::N * Self::N == 128 {
        u128::MAX
    } else {
        (1u128 << (Self::N * Self::N)) - 1
    };
    /// Every cell except column 0 (where a shift east must not wrap to).
    const NOT_FIRST_COL: u128 = Self::FULL & !col_mask(Self::N, 0);
    /// Every cell except the last column (where a shift west must not wrap to).
    const NOT_LAST_COL: u128 = Self::FULL & !col_mask(Self::N, Self::N - 1);
    /// What every move keeps up to date for the evaluation (see [`Tracked`]).
    type Tracked: Tracked<Self::Bits>;
    /// The static facts of the game on this board.
    fn info() -> &'static ply_core::GameInfo;
}

/// Data derived from the discs that an evaluation reads at every node of a search, and that
/// a move updates for much less than a position costs to recompute it: the pattern indices
/// of 8x8 Othello ([`super::pattern::Indices`]) on [`EightIndexed`] and of 10x10 Reversi
/// ([`super::pattern10::Indices`]) on [`TenIndexed`], nothing (`()`) on the plain boards.
///
/// Why the rules carry it: the search is generic and copies the state into each child,
/// and its evaluator sees a position, never the move that led there; so the move is the
/// only place to update it, and the state the only place to keep it. The rules only call
/// [`Tracked::place`] on every placement; what it means is the evaluation's business. It
/// takes no part in equality, hashing or the text forms: it is a function of the discs.
///
/// Why only on a board of its own: the indices make the 8x8 state 216 bytes instead of 24
/// and every move update them, a cost that whatever never evaluates (perft, MCTS playouts,
/// the endgame solver's game) paid for nothing: MCTS was 1.38x and perft 1.28x slower with
/// them (docs/benchmarks.md). So [`Othello`] carries nothing, and only the alpha-beta
/// search, which evaluates at every leaf, plays on [`IndexedOthello`] (and on 10x10, for
/// the same reason, [`IndexedReversi10`]; `Heuristics::Searched`).
pub trait Tracked<B>: Copy + Send + Sync + 'static {
    /// The data of a board with these discs, `own`'s side to move (`own` is `black` or
    /// `white`, `opp` the other).
    fn new(black: B, white: B, own: B, opp: B) -> Self;
    /// `mover` placed a disc on cell `cell` and turned the discs `flipped` over.
    fn place(&mut self, mover: Seat, cell: usize, flipped: B);
    /// The move (a placement or a pass) is over and the side owning `own` is to move: for
    /// data that depends on whose turn it is. Nothing by default.
    #[inline(always)]
    fn turned(&mut self, own: B, opp: B) {
        let _ = (own, opp);
    }
    /// The cells the side to move may take, where they are kept ([`EightKept`]); `None`
    /// (the default) and the rules compute them from the discs.
    #[inline(always)]
    fn placements(&self) -> Option<B> {
        None
    }
}

impl<B> Tracked<B> for () {
    fn new(_: B, _: B, _: B, _: B) -> Self {}
    fn place(&mut self, _: Seat, _: usize, _: B) {}
}

/// What [`EightIndexed`] keeps: the pattern indices ([`super::pattern::Indices`]) and the
/// cells the side to move may take, computed once by each move.
///
/// Why the moves: a node of the search asked for them up to three times, all by the same
/// bitboard fill (whether the game is over, the move list, the evaluation's mobility), so
/// every leaf computed the mover's moves twice and every inner node twice; each is now
/// computed once, by the move that made the position, and read by all three (the search
/// reaches every position it plays, so none is computed for nothing). The tests check the
/// kept moves against a fresh computation along random games.
#[derive(Clone, Copy)]
pub struct EightKept {
    pub(crate) indices: super::pattern::Indices,
    moves: u64,
}

impl Tracked<u64> for EightKept {
    fn new(black: u64, white: u64, own: u64, opp: u64) -> Self {
        EightKept {
            indices: Tracked::new(black, white, own, opp),
            moves: super::eight::legal(own, opp),
        }
    }

    #[inline(always)]
    fn place(&mut self, mover: Seat, cell: usize, flipped: u64) {
        Tracked::place(&mut self.indices, mover, cell, flipped);
    }

    #[inline(always)]
    fn turned(&mut self, own: u64, opp: u64) {
        self.moves = super::eight::legal(own, opp);
    }

    #[inline(always)]
    fn placements(&self) -> Option<u64> {
        Some(self.moves)
    }
}

/// The four boards differ only in these four facts; one macro writes their `Size`.
macro_rules! size {
    ($board:ty, $bits:ty, $n:expr, $tracked:ty, $info:ident) => {
        impl Size for $board {
            type Bits = $bits;
            const N: usize = $n;
            type Tracked = $tracked;
            fn info() -> &'static ply_core::GameInfo {
                &super::rules::$info
            }
        }
    };
}

const fn col_mask(n: usize, col: usize) -> u128 {
    let mut m = 0u128;
    let mut r = 0;
    while r < n {
        m |= 1u128 << (r * n + col);
        r += 1;
    }
    m
}

/// 8x8, in a `u64`: standard Othello.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Eight;

size!(Eight, u64, 8, (), OTHELLO_INFO);

/// 8x8 as [`Eight`], the same game, with the pattern indices of 8x8 Othello's evaluation
/// and the side to move's placements kept up to date by every move ([`EightKept`]): the board the alpha-beta
/// search plays on ([`IndexedOthello`]; see [`Tracked`] for why it is a board of its own).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct EightIndexed;

size!(EightIndexed, u64, 8, EightKept, OTHELLO_INFO);

/// 10x10, in a `u128`: HackerEarth's Reversi.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ten;

size!(Ten, u128, 10, (), REVERSI_INFO);

/// 10x10 as [`Ten`], the same game, with the pattern indices of the 10x10 evaluation kept up
/// to date by every move ([`super::pattern10::Indices`]): the board the alpha-beta search
/// plays on ([`IndexedReversi10`]), for the reasons of [`EightIndexed`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TenIndexed;

size!(
    TenIndexed,
    u128,
    10,
    super::pattern10::Indices,
    REVERSI_INFO
);

/// A colour: player 1 is black (`x`, `1`), player 2 white (`o`, `2`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Disc {
    /// Player 1's colour, moves first.
    Black,
    /// Player 2's colour.
    White,
}

impl Disc {
    /// The colour `seat` plays.
    pub fn of(seat: Seat) -> Disc {
        if seat == Seat::FIRST {
            Disc::Black
        } else {
            Disc::White
        }
    }
}

/// A Reversi position on an `S::N` x `S::N` board: the discs of the side to move, those of
/// the other side, and which seat moves.
///
/// ```text
/// one-line text, 8x8 start:  ......../......../......../...ox.../...xo.../......../......../........ x
/// ```
/// Rows top to bottom separated by `/`, `x` black (player 1), `o` white, `.` empty, then the
/// side to move (`x` or `o`).
#[derive(Clone, Copy)]
pub struct Reversi<S: Size> {
    pub(crate) own: S::Bits,
    pub(crate) opp: S::Bits,
    pub(crate) turn: Seat,
    /// Kept up to date by every placement; a function of the discs (see [`Tracked`]).
    pub(crate) tracked: S::Tracked,
    pub(crate) size: PhantomData<S>,
}

impl<S: Size> PartialEq for Reversi<S> {
    fn eq(&self, other: &Self) -> bool {
        (self.own, self.opp, self.turn) == (other.own, other.opp, other.turn)
    }
}

impl<S: Size> Eq for Reversi<S> {}

impl<S: Size> Hash for Reversi<S> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.own, self.opp, self.turn).hash(state);
    }
}

impl<S: Size> Debug for Reversi<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reversi")
            .field("own", &self.own)
            .field("opp", &self.opp)
            .field("turn", &self.turn)
            .finish_non_exhaustive()
    }
}

/// Standard 8x8 Othello.
pub type Othello = Reversi<Eight>;
/// Standard 8x8 Othello carrying its evaluation's pattern indices: what the alpha-beta
/// search plays on (`From` converts either way).
pub type IndexedOthello = Reversi<EightIndexed>;
/// 10x10 Reversi as its alpha-beta search plays it (see [`TenIndexed`]).
pub type IndexedReversi10 = Reversi<TenIndexed>;
/// HackerEarth's 10x10 Reversi.
pub type Reversi10 = Reversi<Ten>;

impl<S: Size> Reversi<S> {
    /// The start: the four centre cells, white on the main diagonal, black to move.
    pub fn initial() -> Self {
        let m = S::N / 2;
        let at = |r: usize, c: usize| S::Bits::cell(r * S::N + c);
        let white = at(m - 1, m - 1) | at(m, m);
        let black = at(m - 1, m) | at(m, m - 1);
        Reversi {
            own: black,
            opp: white,
            turn: Seat::FIRST,
            tracked: S::Tracked::new(black, white, black, white),
            size: PhantomData,
        }
    }

    /// A position from the two colours' discs and the seat to move.
    ///
    /// # Panics
    /// If a cell holds both colours or a disc lies off the board.
    pub fn from_discs(black: S::Bits, white: S::Bits, turn: Seat) -> Self {
        assert!((black & white).is_empty(), "a cell holds both colours");
        assert!(
            ((black | white) & !S::Bits::from_u128(S::FULL)).is_empty(),
            "a disc lies off the board"
        );
        let (own, opp) = if turn == Seat::FIRST {
            (black, white)
        } else {
            (white, black)
        };
        Reversi {
            own,
            opp,
            turn,
            tracked: S::Tracked::new(black, white, own, opp),
            size: PhantomData,
        }
    }

    /// The discs of `disc`'s colour.
    pub fn discs(&self, disc: Disc) -> S::Bits {
        if Disc::of(self.turn) == disc {
            self.own
        } else {
            self.opp
        }
    }

    /// What lies on cell (`row`, `col`).
    pub fn at(&self, row: usize, col: usize) -> Option<Disc> {
        let b = S::Bits::cell(row * S::N + col);
        if !(self.discs(Disc::Black) & b).is_empty() {
            Some(Disc::Black)
        } else if !(self.discs(Disc::White) & b).is_empty() {
            Some(Disc::White)
        } else {
            None
        }
    }

    /// How many discs each colour has: (black, white).
    pub fn counts(&self) -> (u32, u32) {
        (
            self.discs(Disc::Black).count(),
            self.discs(Disc::White).count(),
        )
    }

    /// The discs of the side to move and of the other side.
    pub fn sides(&self) -> (S::Bits, S::Bits) {
        (self.own, self.opp)
    }

    /// A picture for people: `X` black, `O` white, `*` the cells the side to move may take.
    pub fn picture(&self) -> String {
        let legal = super::moves::legal::<S>(self.own, self.opp);
        let mut s = String::from("  ");
        for c in 0..S::N {
            s.push_str(&format!(" {c}"));
        }
        s.push('\n');
        for r in 0..S::N {
            s.push_str(&format!("{r:>2}"));
            for c in 0..S::N {
                let ch = match self.at(r, c) {
                    Some(Disc::Black) => 'X',
                    Some(Disc::White) => 'O',
                    None if !(legal & S::Bits::cell(r * S::N + c)).is_empty() => '*',
                    None => '.',
                };
                s.push(' ');
                s.push(ch);
            }
            s.push('\n');
        }
        let (b, w) = self.counts();
        s.push_str(&format!("X {b}, O {w}; {} to move\n", self.turn));
        s
    }
}

/// Conversions between a plain board and the same board keeping its pattern indices.
macro_rules! indexed_conversions {
    ($plain:ty, $indexed:ty) => {
        /// The same position, its indices computed once; then every move keeps them up to date.
        impl From<$plain> for $indexed {
            fn from(s: $plain) -> $indexed {
                Reversi {
                    own: s.own,
                    opp: s.opp,
                    turn: s.turn,
                    tracked: Tracked::new(s.discs(Disc::Black), s.discs(Disc::White), s.own, s.opp),
                    size: PhantomData,
                }
            }
        }

        /// The same position, the indices dropped.
        impl From<$indexed> for $plain {
            fn from(s: $indexed) -> $plain {
                Reversi {
                    own: s.own,
                    opp: s.opp,
                    turn: s.turn,
                    tracked: (),
                    size: PhantomData,
                }
            }
        }
    };
}

indexed_conversions!(Othello, IndexedOthello);
indexed_conversions!(Reversi10, IndexedReversi10);

impl IndexedOthello {
    /// The pattern indices with the side to move's discs as "own" (the lanes of
    /// [`super::pattern::Indices::view`]): what any pattern evaluation reads, the shipped
    /// weights or others (`othello_fit duel` plays weights files against each other).
    #[inline]
    pub fn indices(&self) -> &[u16; super::pattern::LANES] {
        self.tracked.indices.view(self.turn)
    }
}

impl IndexedReversi10 {
    /// The pattern indices with the side to move's discs as "own" (the lanes of
    /// [`super::pattern10::Indices::view`]).
    #[inline]
    pub fn indices(&self) -> &[u32; super::pattern10::LANES] {
        self.tracked.view(self.turn)
    }
}

impl<S: Size> fmt::Display for Reversi<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for r in 0..S::N {
            if r > 0 {
                f.write_str("/")?;
            }
            for c in 0..S::N {
                f.write_str(match self.at(r, c) {
                    Some(Disc::Black) => "x",
                    Some(Disc::White) => "o",
                    None => ".",
                })?;
            }
        }
        f.write_str(if self.turn == Seat::FIRST { " x" } else { " o" })
    }
}

impl<S: Size> FromStr for Reversi<S> {
    type Err = ParseStateError;

    /// Reads the one-line form: `N` rows of `N` cells (`x`, `o`, `.`) separated by `/`, a
    /// space, and the side to move (`x` or `o`).
    fn from_str(text: &str) -> Result<Self, ParseStateError> {
        let n = S::N;
        let err = |col: usize, reason: String| ParseStateError::new(1, col, reason);
        let text = text.trim_end();
        let Some((grid, side)) = text.rsplit_once(' ') else {
            return Err(err(
                text.len() + 1,
                format!("expected {n} rows of {n} cells, a space and the side to move (x or o)"),
            ));
        };
        let turn = match side {
            "x" | "X" => Seat::FIRST,
            "o" | "O" => Seat::SECOND,
            _ => {
                return Err(err(
                    grid.len() + 2,
                    format!("unexpected {side:?}: the side to move is `x` or `o`"),
                ));
            }
        };
        let (mut black, mut white) = (S::Bits::ZERO, S::Bits::ZERO);
        let rows: Vec<&str> = grid.split('/').collect();
        if rows.len() != n {
            return Err(err(
                1,
                format!(
                    "found {} rows; the board has {n}, separated by `/`",
                    rows.len()
                ),
            ));
        }
        let mut column = 1;
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != n {
                return Err(err(
                    column,
                    format!(
                        "row {r} has {} cells; each row has {n}",
                        row.chars().count()
                    ),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                let b = S::Bits::cell(r * n + c);
                match ch {
                    'x' | 'X' => black |= b,
                    'o' | 'O' => white |= b,
                    '.' | '-' => {}
                    _ => {
                        return Err(err(
                            column + c,
                            format!("unexpected {ch:?}: a cell is `x`, `o` or `.`"),
                        ));
                    }
                }
            }
            column += n + 1;
        }
        Ok(Reversi::<S>::from_discs(black, white, turn))
    }
}
