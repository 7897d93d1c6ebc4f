//! A pattern evaluation for 8x8 Othello in the style of Logistello and Edax: the board is
//! read as 46 *pattern instances* (edges, corners, lines, diagonals), each a small group of
//! cells whose contents (empty, side to move, other side) form a base-3 index into a weight
//! table; the value of a position is the sum of the weights, plus a mobility term and a
//! constant, from one table set per game phase (by number of discs). The weights are fitted
//! by regression on positions of ply's own self-play (the `othello_fit` example, see
//! `crates/games/data/othello-patterns.md`); this module only reads them and evaluates.
//!
//! ```text
//! corner 3x3   corner 2x5     edge+2X        rows 2-4       diagonals 8, 7, 6, 5, 4
//! a b c . .    a b c d e .    a b c d e f g h
//! d e f . .    f g h i j .    . i . . . . j .  (second, third and fourth rows alone)
//! g h i . .
//! ```
//!
//! # Symmetry
//! Each pattern is written once, in a canonical place (the top left corner, the top edge,
//! the top rows, the diagonals below the main one), and its instances are that place read on
//! the eight symmetric images of the board. A pattern that is its own mirror image (every one
//! but corner 2x5) folds its index with the mirrored one, so both share one weight: the
//! evaluation of a position equals that of each of its eight images exactly.
//!
//! # Speed
//! In a search the indices are updated move by move ([`Indices`], which the searched
//! Othello state [`super::IndexedOthello`] carries, see [`super::Tracked`]): a placement adds, in every instance that reads a changed
//! cell, that cell's power of 3 times the change of its digit, a few vector additions over a
//! per-cell table; the indices of both sides' points of view are kept, so that the change of
//! the side to move costs nothing. Recomputed from scratch ([`indices`], for the fitting
//! tool and to check the update), the eight images cost a few shifts and masks each (byte
//! swap, bit reversal, transpose by delta swaps); a row of an image is a byte, a diagonal
//! becomes a byte by one multiplication, and a byte of own discs and one of the other side's
//! turn into a base-3 index through a 256-entry table (`own + 2 * other`). The update made a
//! search about a fifth faster (docs/benchmarks.md).
//!
//! Units: 1/100 of a disc, for the side to move.

use std::sync::LazyLock;

/// Game phases: positions are binned by discs on the board, [`DISCS_PER_PHASE`] a phase.
pub const PHASES: usize = 12;
/// Discs per phase: phase `p` holds `4 + 5p ..= 8 + 5p` discs (the last also 64).
pub const DISCS_PER_PHASE: u32 = 5;
/// Evaluation units per disc.
pub const UNITS_PER_DISC: i32 = 100;

/// The phase of a position with `discs` discs on the board.
#[inline]
pub fn phase(discs: u32) -> usize {
    phase_of(discs, DISCS_PER_PHASE, PHASES)
}

/// The phase of `discs` discs when phases of `per_phase` discs start at the 4 discs of the
/// start, the last one taking the rest (both boards).
#[inline(always)]
pub(crate) fn phase_of(discs: u32, per_phase: u32, phases: usize) -> usize {
    ((discs.saturating_sub(4) / per_phase) as usize).min(phases - 1)
}

/// One pattern: its cells in the canonical place (row, column), the first cell the lowest
/// base-3 digit, and the digit permutation of its own mirror image (`None`: it has none).
pub struct Pattern {
    /// Short name, for the weights file's documentation and test messages.
    pub name: &'static str,
    /// The cells read, as (row, column) on an image of the board.
    pub cells: &'static [(u8, u8)],
    /// `fold[k]` is the digit that digit `k` becomes on the mirrored pattern.
    pub fold: Option<&'static [u8]>,
    /// The images of the board the pattern is read on, one per instance.
    pub images: &'static [Image],
}

/// The eight symmetric images of the board. Reading cell (r, c) of an image reads the board
/// cell named in each variant's comment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Image {
    /// (r, c).
    Id,
    /// (r, 7 - c): mirrored left-right.
    M,
    /// (7 - r, c): flipped top-bottom.
    V,
    /// (7 - r, 7 - c): turned half a turn.
    R,
    /// (c, r): transposed.
    T,
    /// (c, 7 - r).
    TM,
    /// (7 - c, r).
    TV,
    /// (7 - c, 7 - r).
    TR,
}

impl Image {
    /// Every image.
    pub const ALL: [Image; 8] = [
        Image::Id,
        Image::M,
        Image::V,
        Image::R,
        Image::T,
        Image::TM,
        Image::TV,
        Image::TR,
    ];

    /// The board cell read at (`r`, `c`) of this image.
    pub const fn source(self, r: u8, c: u8) -> (u8, u8) {
        self.source_on(8, r, c)
    }

    /// The cell read at (`r`, `c`) of this image of an `n` x `n` board (the variants'
    /// comments with `n - 1` for 7): the 10x10 patterns ([`super::pattern10`]) use the same
    /// eight images.
    pub const fn source_on(self, n: u8, r: u8, c: u8) -> (u8, u8) {
        let l = n - 1;
        match self {
            Image::Id => (r, c),
            Image::M => (r, l - c),
            Image::V => (l - r, c),
            Image::R => (l - r, l - c),
            Image::T => (c, r),
            Image::TM => (c, l - r),
            Image::TV => (l - c, r),
            Image::TR => (l - c, l - r),
        }
    }

    /// This image of the bitboard `x` (bit `row * 8 + col`).
    #[inline(always)]
    pub fn apply(self, x: u64) -> u64 {
        match self {
            Image::Id => x,
            Image::M => mirror(x),
            Image::V => x.swap_bytes(),
            Image::R => x.reverse_bits(),
            Image::T => transpose(x),
            Image::TM => transpose(mirror(x)),
            Image::TV => transpose(x.swap_bytes()),
            Image::TR => transpose(x.reverse_bits()),
        }
    }
}

/// Column c to 7 - c.
#[inline(always)]
fn mirror(x: u64) -> u64 {
    x.reverse_bits().swap_bytes()
}

/// (r, c) to (c, r), by three delta swaps.
#[inline(always)]
fn transpose(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

use Image::{Id, M, R, T, TM, TR, TV, V};

const CORNER_IMAGES: &[Image] = &[Id, M, V, R];
const ALL_IMAGES: &[Image] = &[Id, M, V, R, T, TM, TV, TR];
/// Top, bottom, left, right.
const EDGE_IMAGES: &[Image] = &[Id, V, T, TM];
/// Below the main diagonal, above it, and the two parallel to the other diagonal.
const DIAGONAL_IMAGES: &[Image] = &[Id, T, M, V];
/// `REVERSE[10 - len..]` counts down from `len - 1`: the fold of a line of `len` cells read
/// from its other end.
const REVERSE: [u8; 10] = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0];

/// The top left 3x3 square, folded along the diagonal (on both boards).
pub(crate) const CORNER_3X3: Pattern = Pattern {
    name: "corner3x3",
    cells: &[
        (0, 0),
        (0, 1),
        (0, 2),
        (1, 0),
        (1, 1),
        (1, 2),
        (2, 0),
        (2, 1),
        (2, 2),
    ],
    fold: Some(&[0, 3, 6, 1, 4, 7, 2, 5, 8]),
    images: CORNER_IMAGES,
};

/// The top left 2x5 rectangle, on all eight images (on both boards).
pub(crate) const CORNER_2X5: Pattern = Pattern {
    name: "corner2x5",
    cells: &[
        (0, 0),
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 0),
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
    ],
    fold: None,
    images: ALL_IMAGES,
};

/// The patterns, in the order of the weight tables.
pub static PATTERNS: [Pattern; 11] = [
    CORNER_3X3,
    CORNER_2X5,
    Pattern {
        name: "edge+2x",
        cells: &[
            (0, 0),
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (0, 5),
            (0, 6),
            (0, 7),
            (1, 1),
            (1, 6),
        ],
        fold: Some(&[7, 6, 5, 4, 3, 2, 1, 0, 9, 8]),
        images: EDGE_IMAGES,
    },
    row_pattern("row2", 8, 1),
    row_pattern("row3", 8, 2),
    row_pattern("row4", 8, 3),
    diagonal_pattern("diag8", 8, 8),
    diagonal_pattern("diag7", 8, 7),
    diagonal_pattern("diag6", 8, 6),
    diagonal_pattern("diag5", 8, 5),
    diagonal_pattern("diag4", 8, 4),
];

/// Row `row` (0 to 3) of an `n` x `n` board (`n` up to 10), on the four edges.
pub(crate) const fn row_pattern(name: &'static str, n: usize, row: u8) -> Pattern {
    const ROWS: [[(u8, u8); 10]; 4] = {
        let mut t = [[(0u8, 0u8); 10]; 4];
        let mut r = 0;
        while r < 4 {
            let mut c = 0;
            while c < 10 {
                t[r][c] = (r as u8, c as u8);
                c += 1;
            }
            r += 1;
        }
        t
    };
    Pattern {
        name,
        cells: ROWS[row as usize].split_at(n).0,
        fold: Some(REVERSE.split_at(10 - n).1),
        images: EDGE_IMAGES,
    }
}

/// The diagonal of `len` cells (n - len + i, i), i = 0..len, of an `n` x `n` board (8 or
/// 10), on its four images; the main one (`len == n`) on its two.
pub(crate) const fn diagonal_pattern(name: &'static str, n: usize, len: usize) -> Pattern {
    /// By board (8, 10) and length.
    const DIAGS: [[[(u8, u8); 10]; 11]; 2] = {
        let mut t = [[[(0u8, 0u8); 10]; 11]; 2];
        let mut b = 0;
        while b < 2 {
            let n = 8 + 2 * b;
            let mut len = 1;
            while len <= n {
                let mut i = 0;
                while i < len {
                    t[b][len][i] = ((n - len + i) as u8, i as u8);
                    i += 1;
                }
                len += 1;
            }
            b += 1;
        }
        t
    };
    Pattern {
        name,
        cells: DIAGS[(n - 8) / 2][len].split_at(len).0,
        fold: Some(REVERSE.split_at(10 - len).1),
        images: if len == n { &[Id, M] } else { DIAGONAL_IMAGES },
    }
}

/// Pattern instances on the board: 4 + 8 + 4 + 3 * 4 + 2 + 4 * 4.
pub const INSTANCES: usize = 46;

/// Scalar features after the patterns, per phase: a constant and the mobility difference.
pub const SCALARS: usize = 2;

/// `TERNARY[b]`: the bits of `b` as base-3 digits 0 or 1.
static TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut i) = (0u16, 1u16, 0);
        while i < 8 {
            if b & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

#[inline(always)]
fn t(own: u64, opp: u64) -> u32 {
    u32::from(TERNARY[(own & 0xFF) as usize]) + 2 * u32::from(TERNARY[(opp & 0xFF) as usize])
}

/// The digit of cell `bit`: 0 empty, 1 own, 2 other side.
#[inline(always)]
fn digit(own: u64, opp: u64, bit: u32) -> u32 {
    ((own >> bit) & 1) as u32 + 2 * ((opp >> bit) & 1) as u32
}

/// The cells (8 - len + i, i) of the diagonal of `len` cells.
const fn diag_mask(len: usize) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < len {
        m |= 1 << ((8 - len + i) * 8 + i);
        i += 1;
    }
    m
}

/// A diagonal's cells gathered into a byte, the cell of column c in bit c (one cell per
/// column, so the multiplication adds without carries).
#[inline(always)]
fn diag_byte(x: u64, mask: u64) -> u64 {
    ((x & mask).wrapping_mul(0x0101_0101_0101_0101)) >> 56
}

/// The base-3 index of every pattern instance of the position (`own` to move), in the order
/// of [`PATTERNS`] and, within a pattern, of its images: the fast path the evaluation uses.
#[inline]
pub fn indices(own: u64, opp: u64) -> [u32; INSTANCES] {
    let mut out = [0u32; INSTANCES];
    let img = |i: Image| (i.apply(own), i.apply(opp));
    let images = [
        (own, opp),
        img(Image::M),
        img(Image::V),
        img(Image::R),
        img(Image::T),
        img(Image::TM),
        img(Image::TV),
        img(Image::TR),
    ];
    let corner3 = |(o, p): (u64, u64)| {
        t(o & 7, p & 7) + 27 * t((o >> 8) & 7, (p >> 8) & 7) + 729 * t((o >> 16) & 7, (p >> 16) & 7)
    };
    let corner5 = |(o, p): (u64, u64)| t(o & 31, p & 31) + 243 * t((o >> 8) & 31, (p >> 8) & 31);
    let edge = |(o, p): (u64, u64)| t(o, p) + 6561 * digit(o, p, 9) + 19683 * digit(o, p, 14);
    let row = |(o, p): (u64, u64), r: u32| t(o >> (8 * r), p >> (8 * r));
    let diag = |(o, p): (u64, u64), mask: u64| t(diag_byte(o, mask), diag_byte(p, mask));
    // Image positions in `images` for each pattern's image list.
    const CORNERS: [usize; 4] = [0, 1, 2, 3];
    const EDGES: [usize; 4] = [0, 2, 4, 5];
    const DIAGONALS: [usize; 4] = [0, 4, 1, 2];
    let mut k = 0;
    for &i in &CORNERS {
        out[k] = corner3(images[i]);
        k += 1;
    }
    for &image in &images {
        out[k] = corner5(image);
        k += 1;
    }
    for &i in &EDGES {
        out[k] = edge(images[i]);
        k += 1;
    }
    for r in 1..4 {
        for &i in &EDGES {
            out[k] = row(images[i], r);
            k += 1;
        }
    }
    for i in [0, 1] {
        out[k] = diag(images[i], diag_mask(8));
        k += 1;
    }
    for len in [7, 6, 5, 4] {
        let mask = diag_mask(len);
        for &i in &DIAGONALS {
            out[k] = diag(images[i], mask);
            k += 1;
        }
    }
    out
}

/// The same indices as [`indices`], computed cell by cell from the pattern definitions: the
/// reference the fast path is tested against.
pub fn indices_plain(own: u64, opp: u64) -> Vec<u32> {
    let mut out = Vec::with_capacity(INSTANCES);
    for p in &PATTERNS {
        for &image in p.images {
            let mut index = 0;
            for &(r, c) in p.cells.iter().rev() {
                let (br, bc) = image.source(r, c);
                index = index * 3 + digit(own, opp, u32::from(br) * 8 + u32::from(bc));
            }
            out.push(index);
        }
    }
    out
}

/// Lanes of an [`Indices`] view: the [`INSTANCES`], padded to whole 16-byte vectors.
pub const LANES: usize = 48;

/// `CELL_POWERS[cell][k]`: the power of 3 of board cell `cell` (bit `row * 8 + col`) in
/// instance `k` (in the order of [`indices`]), 0 where the instance does not read the cell.
static CELL_POWERS: [[u16; LANES]; 64] = {
    let wide: [[u32; LANES]; 64] = cell_powers(&PATTERNS, 8);
    let mut t = [[0u16; LANES]; 64];
    let mut cell = 0;
    while cell < 64 {
        let mut k = 0;
        while k < LANES {
            // Below 3^10.
            t[cell][k] = wide[cell][k] as u16;
            k += 1;
        }
        cell += 1;
    }
    t
};

/// The powers of 3 of each cell of an `n` x `n` board (bit `row * n + col`) in each
/// instance of `patterns` (pattern by pattern, image by image), 0 where the instance does
/// not read the cell: the table the indices are summed and updated from, on both boards.
pub(crate) const fn cell_powers<const CELLS: usize, const L: usize>(
    patterns: &[Pattern],
    n: u8,
) -> [[u32; L]; CELLS] {
    let mut t = [[0u32; L]; CELLS];
    let mut k = 0;
    let mut p = 0;
    while p < patterns.len() {
        let pattern = &patterns[p];
        let mut i = 0;
        while i < pattern.images.len() {
            let mut j = 0;
            let mut power = 1u32;
            while j < pattern.cells.len() {
                let (r, c) = pattern.cells[j];
                let (br, bc) = pattern.images[i].source_on(n, r, c);
                t[br as usize * n as usize + bc as usize][k] = power;
                power *= 3;
                j += 1;
            }
            k += 1;
            i += 1;
        }
        p += 1;
    }
    t
}

/// The pattern indices of an 8x8 position from both sides' points of view, updated by each
/// placement instead of recomputed ([`super::Tracked`]): `view(seat)` equals
/// [`indices`]`(seat's discs, the other's)`, as the tests check along random games.
///
/// A placement changes the digit of the placed cell (empty to own: +1 in the mover's view,
/// +2 in the other's) and of each turned disc (other to own: -1 in the mover's view, +1 in
/// the other's), and an instance's index by that change times the cell's power of 3. The
/// indices stay below 3^10 and the arithmetic wraps, so the order of the additions does not
/// matter.
pub type Indices = SeatIndices<u16, LANES>;

/// Both sides' views of a position's pattern indices, `L` lanes of `T` each: 8x8's
/// [`Indices`] and 10x10's [`super::pattern10::Indices`].
#[derive(Clone, Copy)]
pub struct SeatIndices<T, const L: usize> {
    /// By seat number (black 0): the indices with that seat's discs as "own".
    by_seat: [[T; L]; 2],
}

impl<T: Lane, const L: usize> SeatIndices<T, L> {
    /// The indices with `seat`'s discs as "own" (the instances' lanes first; the rest 0).
    #[inline]
    pub fn view(&self, seat: ply_core::Seat) -> &[T; L] {
        &self.by_seat[seat.index()]
    }

    /// Black's view and white's.
    pub(crate) fn from_views(black: [T; L], white: [T; L]) -> Self {
        SeatIndices {
            by_seat: [black, white],
        }
    }

    /// `mover` placed a disc on the cell whose powers are `placed` and turned discs whose
    /// powers sum to `turned` ([`place_lanes`]).
    #[inline(always)]
    pub(crate) fn place(&mut self, mover: ply_core::Seat, placed: &[T; L], turned: &[T; L]) {
        place_lanes(&mut self.by_seat, mover, placed, turned);
    }
}

/// An index lane: `u16` on 8x8 (indices below 3^10), `u32` on 10x10 ([`super::pattern10`]).
pub trait Lane: Copy {
    /// Wrapping addition.
    fn add(self, other: Self) -> Self;
    /// Wrapping subtraction.
    fn sub(self, other: Self) -> Self;
}

macro_rules! lane {
    ($t:ty) => {
        impl Lane for $t {
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn sub(self, other: Self) -> Self {
                self.wrapping_sub(other)
            }
        }
    };
}
lane!(u16);
lane!(u32);

/// `a[k] += b[k]` for every lane, wrapping.
#[inline(always)]
pub(crate) fn add<T: Lane, const L: usize>(a: &mut [T; L], b: &[T; L]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x = x.add(*y);
    }
}

/// The update of both sides' indices ([`Indices`], [`super::pattern10::Indices`]) for a
/// placement: `placed` holds the placed cell's powers, `turned` the sum of the turned
/// discs'. The placed cell goes from empty to own (+1 in the mover's view, +2 in the
/// other's), each turned disc from other to own (-1 in the mover's view, +1 in the other's).
#[inline(always)]
pub(crate) fn place_lanes<T: Lane, const L: usize>(
    by_seat: &mut [[T; L]; 2],
    mover: ply_core::Seat,
    placed: &[T; L],
    turned: &[T; L],
) {
    let [first, second] = by_seat;
    let (own, other) = if mover.index() == 0 {
        (first, second)
    } else {
        (second, first)
    };
    for k in 0..L {
        own[k] = own[k].add(placed[k]).sub(turned[k]);
        other[k] = other[k].add(placed[k]).add(placed[k]).add(turned[k]);
    }
}

impl super::Tracked<u64> for Indices {
    fn new(black: u64, white: u64, _: u64, _: u64) -> Indices {
        let lanes = |own, opp| {
            let mut out = [0u16; LANES];
            for (o, i) in out.iter_mut().zip(indices(own, opp)) {
                *o = i as u16;
            }
            out
        };
        Indices::from_views(lanes(black, white), lanes(white, black))
    }

    #[inline]
    fn place(&mut self, mover: ply_core::Seat, cell: usize, flipped: u64) {
        #[cfg(target_arch = "x86_64")]
        if super::eight::simd_in_use() {
            #[allow(unsafe_code)]
            // SAFETY: `place_avx2` is compiled for AVX2 alone, which `simd_in_use()` has just
            // found on this CPU (with the other features of the 8x8 AVX2 code); it has no
            // other precondition.
            unsafe {
                place_avx2(self, mover, cell, flipped);
            }
            return;
        }
        place_indices(self, mover, cell, flipped);
    }
}

/// [`Indices`]' update for a placement ([`super::Tracked::place`]): the turned discs' powers
/// summed, then both views updated, 48 lanes of `u16` each.
#[inline(always)]
fn place_indices(indices: &mut Indices, mover: ply_core::Seat, cell: usize, flipped: u64) {
    let mut turned = [0u16; LANES];
    let mut f = flipped;
    while f != 0 {
        add(&mut turned, &CELL_POWERS[f.trailing_zeros() as usize]);
        f &= f - 1;
    }
    indices.place(mover, &CELL_POWERS[cell], &turned);
}

/// [`place_indices`] compiled for AVX2: the same code, whose lanes the compiler adds 16 at a
/// time instead of the generic target's 8 (the update was most of a move's time, session
/// 38).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn place_avx2(indices: &mut Indices, mover: ply_core::Seat, cell: usize, flipped: u64) {
    place_indices(indices, mover, cell, flipped);
}

/// The pattern of each instance, in the order of [`indices`].
pub fn instance_patterns() -> [usize; INSTANCES] {
    patterns_of_instances(&PATTERNS)
}

/// The pattern of each of the `K` instances of `patterns`, pattern by pattern.
pub(crate) fn patterns_of_instances<const K: usize>(patterns: &[Pattern]) -> [usize; K] {
    let mut out = [0; K];
    let mut k = 0;
    for (i, p) in patterns.iter().enumerate() {
        for _ in p.images {
            out[k] = i;
            k += 1;
        }
    }
    out
}

/// How a pattern's base-3 indices map onto its weights: mirrored indices share one.
pub struct Layout {
    /// Per pattern, for each index, the weight number within the phase.
    pub param: Vec<Vec<u32>>,
    /// Weights per phase (patterns, then the [`SCALARS`]).
    pub params_per_phase: usize,
}

/// The layout, built once.
pub static LAYOUT: LazyLock<Layout> = LazyLock::new(|| Layout::fold(&PATTERNS, SCALARS));

impl Layout {
    /// The layout of `patterns` followed by `scalars` scalar weights: each pattern's index
    /// and its mirror's share a weight number (the lower index's), numbered in order.
    pub fn fold(patterns: &[Pattern], scalars: usize) -> Layout {
        let mut next = 0u32;
        let mut param = Vec::new();
        for p in patterns {
            let n = p.cells.len();
            let size = 3usize.pow(n as u32);
            let mut map = vec![u32::MAX; size];
            for index in 0..size {
                let mirrored = match p.fold {
                    None => index,
                    Some(fold) => {
                        let mut digits = [0usize; 16];
                        let mut x = index;
                        for d in digits.iter_mut().take(n) {
                            *d = x % 3;
                            x /= 3;
                        }
                        let mut m = 0;
                        for k in (0..n).rev() {
                            // Digit k of the mirrored index is the digit that moves to k.
                            let from = fold.iter().position(|&f| usize::from(f) == k).unwrap_or(k);
                            m = m * 3 + digits[from];
                        }
                        m
                    }
                };
                let canonical = index.min(mirrored);
                if canonical == index {
                    map[index] = next;
                    next += 1;
                } else {
                    map[index] = map[canonical];
                }
            }
            param.push(map);
        }
        Layout {
            param,
            params_per_phase: next as usize + scalars,
        }
    }
}

/// The number of a scalar feature's weight within a phase.
pub fn scalar_param(s: usize) -> usize {
    LAYOUT.params_per_phase - SCALARS + s
}

/// The scalar features of a position: a constant 1 and the mobility difference.
#[inline]
pub fn scalars(own: u64, opp: u64) -> [i32; SCALARS] {
    scalars_with(own, opp, super::eight::legal(own, opp))
}

/// [`scalars`] with the side to move's placements `own_moves` already known.
#[inline(always)]
fn scalars_with(own: u64, opp: u64, own_moves: u64) -> [i32; SCALARS] {
    let mob = own_moves.count_ones() as i32 - super::eight::legal(opp, own).count_ones() as i32;
    [1, mob]
}

/// The weight numbers (within the phase) a position's features touch, with their values:
/// the [`INSTANCES`] pattern weights (value 1 each), then the [`SCALARS`].
pub fn features(own: u64, opp: u64) -> ([u32; INSTANCES], [i32; SCALARS]) {
    let idx = indices(own, opp);
    let pats = instance_patterns();
    let mut out = [0u32; INSTANCES];
    for k in 0..INSTANCES {
        out[k] = LAYOUT.param[pats[k]][idx[k] as usize];
    }
    (out, scalars(own, opp))
}

/// A weights file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadWeightsError {
    /// The file does not start with [`MAGIC`].
    #[error("not a ply pattern weights file (bad magic)")]
    Magic,
    /// The file ends before every weight is read, or a number is malformed.
    #[error("the weights end early: {read} of {expected} read")]
    Truncated {
        /// Weights read.
        read: usize,
        /// Weights expected.
        expected: usize,
    },
    /// Bytes are left after the last weight.
    #[error("{0} bytes after the last weight")]
    Trailing(usize),
}

/// The first bytes of a weights file (the version is in it).
pub const MAGIC: &[u8; 8] = b"PLYPAT01";

/// Weights of every phase, as the evaluation reads them: each pattern's table spread over
/// all its indices (mirrored indices repeat the weight) so an instance costs one load.
pub struct PatternWeights {
    /// Per phase, the concatenated index tables of the patterns.
    tables: Vec<i16>,
    /// Per phase, the scalar weights.
    scalars: Vec<[i32; SCALARS]>,
    /// Per instance, where its pattern's table starts within a phase.
    offsets: [u32; INSTANCES],
    /// Entries per phase in `tables`.
    stride: usize,
}

impl PatternWeights {
    /// Weights from their numbers: `PHASES * params_per_phase` values, phase by phase.
    ///
    /// # Panics
    /// If `params` has another length.
    pub fn from_params(params: &[i16]) -> PatternWeights {
        let layout = &*LAYOUT;
        let per = layout.params_per_phase;
        assert_eq!(params.len(), PHASES * per, "one weight per parameter");
        let pats = instance_patterns();
        let mut starts = Vec::new();
        let mut stride = 0usize;
        for map in &layout.param {
            starts.push(stride as u32);
            stride += map.len();
        }
        let mut offsets = [0u32; INSTANCES];
        for k in 0..INSTANCES {
            offsets[k] = starts[pats[k]];
        }
        let mut tables = Vec::with_capacity(PHASES * stride);
        let mut scalars = Vec::with_capacity(PHASES);
        for phase in params.chunks(per) {
            for map in &layout.param {
                tables.extend(map.iter().map(|&p| phase[p as usize]));
            }
            let mut s = [0i32; SCALARS];
            for (i, v) in s.iter_mut().enumerate() {
                *v = i32::from(phase[per - SCALARS + i]);
            }
            scalars.push(s);
        }
        PatternWeights {
            tables,
            scalars,
            offsets,
            stride,
        }
    }

    /// Reads the compact file [`write_params`] writes.
    ///
    /// # Errors
    /// A bad magic, a short file or trailing bytes.
    pub fn read(bytes: &[u8]) -> Result<PatternWeights, ReadWeightsError> {
        Ok(PatternWeights::from_params(&read_params(bytes)?))
    }

    /// The value of the position for `own`, the side to move, in 1/100 discs.
    #[inline]
    pub fn evaluate(&self, own: u64, opp: u64) -> i32 {
        let idx = indices(own, opp);
        self.evaluate_indexed(own, opp, |k| idx[k])
    }

    /// [`evaluate`](PatternWeights::evaluate) with the position's indices given (the
    /// `k`-th instance's by `index(k)`), as a search keeps them ([`Indices`]).
    #[inline]
    pub fn evaluate_indexed(&self, own: u64, opp: u64, index: impl Fn(usize) -> u32) -> i32 {
        self.evaluate_kept(own, opp, super::eight::legal(own, opp), index)
    }

    /// [`evaluate_indexed`](PatternWeights::evaluate_indexed) with the side to move's
    /// placements `own_moves` given too, as [`super::IndexedOthello`] keeps them.
    #[inline]
    pub fn evaluate_kept(
        &self,
        own: u64,
        opp: u64,
        own_moves: u64,
        index: impl Fn(usize) -> u32,
    ) -> i32 {
        let ph = phase((own | opp).count_ones());
        let table = &self.tables[ph * self.stride..(ph + 1) * self.stride];
        let mut sum = 0i32;
        for k in 0..INSTANCES {
            sum += i32::from(table[(self.offsets[k] + index(k)) as usize]);
        }
        let s = &self.scalars[ph];
        let f = scalars_with(own, opp, own_moves);
        for i in 0..SCALARS {
            sum += s[i] * f[i];
        }
        sum
    }
}

/// The committed weights file, `crates/games/data/othello-patterns.bin` (its bytes are part
/// of the opening book's [`evaluation_fingerprint`](super::book::evaluation_fingerprint)).
pub const WEIGHTS_FILE: &[u8] = include_bytes!("../../data/othello-patterns.bin");

/// The weights ply plays with, from [`WEIGHTS_FILE`].
pub static WEIGHTS: LazyLock<PatternWeights> = LazyLock::new(|| {
    PatternWeights::read(WEIGHTS_FILE).expect("the committed weights file is checked by the tests")
});

/// Writes weights compactly: [`MAGIC`], then the values phase by phase in the layout's
/// order, each nonzero value as a zigzag varint and each run of zeros as a 0 and the run's
/// length as a varint (most table entries are never seen in training and stay 0).
pub fn write_params(params: &[i16]) -> Vec<u8> {
    write_tagged(MAGIC, params)
}

/// [`write_params`] with another magic (the 10x10 weights have their own).
pub(crate) fn write_tagged(magic: &[u8; 8], params: &[i16]) -> Vec<u8> {
    let mut out = magic.to_vec();
    let varint = |out: &mut Vec<u8>, mut v: u32| {
        while v >= 0x80 {
            out.push((v as u8) | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    };
    let mut i = 0;
    while i < params.len() {
        if params[i] == 0 {
            let start = i;
            while i < params.len() && params[i] == 0 {
                i += 1;
            }
            varint(&mut out, 0);
            varint(&mut out, (i - start) as u32);
        } else {
            let v = i32::from(params[i]);
            varint(&mut out, ((v << 1) ^ (v >> 31)) as u32);
            i += 1;
        }
    }
    out
}

/// Reads what [`write_params`] wrote: `PHASES * params_per_phase` values.
///
/// # Errors
/// A bad magic, a short file or trailing bytes.
pub fn read_params(bytes: &[u8]) -> Result<Vec<i16>, ReadWeightsError> {
    read_tagged(bytes, MAGIC, PHASES * LAYOUT.params_per_phase)
}

/// [`read_params`] of a file with `magic` and `expected` values.
pub(crate) fn read_tagged(
    bytes: &[u8],
    magic: &[u8; 8],
    expected: usize,
) -> Result<Vec<i16>, ReadWeightsError> {
    let body = bytes.strip_prefix(magic).ok_or(ReadWeightsError::Magic)?;
    let mut out = Vec::with_capacity(expected);
    let mut pos = 0;
    let truncated = |read| ReadWeightsError::Truncated { read, expected };
    let varint = |pos: &mut usize, read: usize| -> Result<u32, ReadWeightsError> {
        let mut v = 0u32;
        for shift in (0..35).step_by(7) {
            let b = *body.get(*pos).ok_or(truncated(read))?;
            *pos += 1;
            v |= u32::from(b & 0x7F) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(truncated(read))
    };
    while out.len() < expected {
        let token = varint(&mut pos, out.len())?;
        if token == 0 {
            let run = varint(&mut pos, out.len())? as usize;
            if run == 0 || out.len() + run > expected {
                return Err(truncated(out.len()));
            }
            out.resize(out.len() + run, 0);
        } else {
            let v = ((token >> 1) as i32) ^ -((token & 1) as i32);
            out.push(i16::try_from(v).map_err(|_| truncated(out.len()))?);
        }
    }
    if pos != body.len() {
        return Err(ReadWeightsError::Trailing(body.len() - pos));
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use ply_core::{Evaluator, Game};
    use rand::seq::IndexedRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::reversi::{Eight, EightIndexed, IndexedOthello, Othello, OthelloEval, Place};

    /// Positions of random games, every ply of them (on either board).
    pub(crate) fn random_positions<S: crate::reversi::Size>(
        seed: u64,
        games: usize,
    ) -> Vec<crate::reversi::Reversi<S>> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        let mut moves: Vec<Place> = Vec::new();
        for _ in 0..games {
            let mut s = crate::reversi::Reversi::<S>::start();
            loop {
                out.push(s);
                s.legal_moves(&mut moves);
                let Some(&mv) = moves.choose(&mut rng) else {
                    break;
                };
                s.play_unchecked(mv);
            }
        }
        out
    }

    /// Random weights for every parameter, so that a wrong fold or table shows.
    fn random_weights(seed: u64) -> PatternWeights {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let params: Vec<i16> = (0..PHASES * LAYOUT.params_per_phase)
            .map(|_| rng.random_range(-300..=300))
            .collect();
        PatternWeights::from_params(&params)
    }

    #[test]
    fn pattern_instances_add_up_and_image_transforms_match_their_cells() {
        assert_eq!(
            PATTERNS.iter().map(|p| p.images.len()).sum::<usize>(),
            INSTANCES
        );
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..200 {
            let x: u64 = rng.random();
            for image in Image::ALL {
                let y = image.apply(x);
                for r in 0..8u8 {
                    for c in 0..8u8 {
                        let (sr, sc) = image.source(r, c);
                        assert_eq!(
                            (y >> (r * 8 + c)) & 1,
                            (x >> (sr * 8 + sc)) & 1,
                            "{image:?} at ({r}, {c})"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn fast_pattern_indices_equal_a_plain_recomputation_on_random_positions() {
        for s in random_positions::<Eight>(1, 300) {
            let (own, opp) = s.sides();
            assert_eq!(indices(own, opp).to_vec(), indices_plain(own, opp), "{s}");
        }
    }

    /// Plays `games` seeded random games, passes included (a pass changes the side to move
    /// and no disc), and checks after every move both sides' kept indices (`view`, all
    /// lanes) against the cell-by-cell definition (`plain`, the `instances` first lanes;
    /// the padding stays 0). Gives the positions and passes seen.
    pub(crate) fn kept_indices_agree_along_random_games<S: crate::reversi::Size>(
        seed: u64,
        games: usize,
        instances: usize,
        view: impl Fn(&crate::reversi::Reversi<S>, ply_core::Seat) -> Vec<u32>,
        plain: impl Fn(S::Bits, S::Bits) -> Vec<u32>,
    ) -> (usize, usize) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut moves: Vec<Place> = Vec::new();
        let (mut positions, mut passes) = (0, 0);
        for _ in 0..games {
            let mut s = crate::reversi::Reversi::<S>::start();
            loop {
                let (own, opp) = s.sides();
                let (mine, theirs) = (view(&s, s.turn), view(&s, s.turn.next(2)));
                assert_eq!(mine[..instances], plain(own, opp), "{s}");
                assert_eq!(theirs[..instances], plain(opp, own), "{s}");
                assert!(mine[instances..].iter().all(|&i| i == 0), "{s}");
                positions += 1;
                s.legal_moves(&mut moves);
                let Some(&mv) = moves.choose(&mut rng) else {
                    break;
                };
                passes += usize::from(mv.is_pass());
                s.play_unchecked(mv);
            }
        }
        (positions, passes)
    }

    #[test]
    fn incremental_indices_equal_a_plain_recomputation_along_random_games_with_passes() {
        let (positions, passes) = kept_indices_agree_along_random_games::<EightIndexed>(
            11,
            400,
            INSTANCES,
            |s, seat| s.tracked.indices.view(seat).map(u32::from).to_vec(),
            indices_plain,
        );
        assert!(
            positions > 20_000 && passes > 20,
            "{positions} positions, {passes} passes"
        );
    }

    /// The update the game runs (the AVX2 copy where the CPU has it) and the portable one
    /// give the same indices after every move of random games, whichever path the other
    /// tests happened to take on this machine.
    #[test]
    fn the_dispatched_and_the_portable_index_updates_agree() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        let mut moves: Vec<Place> = Vec::new();
        let mut placements = 0;
        for _ in 0..100 {
            let mut s = crate::reversi::Reversi::<EightIndexed>::start();
            let mut portable = s.tracked.indices;
            loop {
                s.legal_moves(&mut moves);
                let Some(&mv) = moves.choose(&mut rng) else {
                    break;
                };
                if let Some((r, c)) = mv.cell() {
                    let cell = r * 8 + c;
                    let (own, opp) = s.sides();
                    let flipped = crate::reversi::eight::flips_portable(own, opp, cell);
                    place_indices(&mut portable, s.turn, cell, flipped);
                    placements += 1;
                }
                s.play_unchecked(mv);
                for seat in [ply_core::Seat::FIRST, ply_core::Seat::SECOND] {
                    assert_eq!(s.tracked.indices.view(seat), portable.view(seat), "{s}");
                }
            }
        }
        assert!(placements > 5_000, "{placements}");
    }

    /// Each instance reads its cells' digits with the powers 1, 3, 9, ... in the order of its
    /// pattern's cells: the table holds each power once per instance, and nothing in the
    /// padding lanes.
    pub(crate) fn assert_cell_powers_name_each_instance_cell_once<const L: usize>(
        table: &[[u32; L]],
        patterns: &[Pattern],
    ) {
        let mut k = 0;
        for p in patterns {
            for _ in p.images {
                let mut powers: Vec<u32> = table.iter().map(|c| c[k]).filter(|&x| x > 0).collect();
                powers.sort();
                let want: Vec<u32> = (0..p.cells.len() as u32).map(|j| 3u32.pow(j)).collect();
                assert_eq!(powers, want, "instance {k} ({})", p.name);
                k += 1;
            }
        }
        assert!(table.iter().all(|c| c[k..].iter().all(|&x| x == 0)));
    }

    /// Two instances of one pattern reading the same cells would count them twice.
    pub(crate) fn assert_instances_cover_distinct_cells(patterns: &[Pattern], n: u8) {
        for p in patterns {
            let mut sets: Vec<Vec<(u8, u8)>> = p
                .images
                .iter()
                .map(|&i| {
                    let mut v: Vec<_> =
                        p.cells.iter().map(|&(r, c)| i.source_on(n, r, c)).collect();
                    v.sort();
                    v
                })
                .collect();
            sets.sort();
            sets.dedup();
            assert_eq!(sets.len(), p.images.len(), "{}", p.name);
        }
    }

    #[test]
    fn cell_powers_name_each_instance_cell_once_with_its_power() {
        assert_cell_powers_name_each_instance_cell_once(
            &CELL_POWERS.map(|c| c.map(u32::from)),
            &PATTERNS,
        );
    }

    #[test]
    fn every_pattern_instance_covers_distinct_cells() {
        assert_instances_cover_distinct_cells(&PATTERNS, 8);
    }

    #[test]
    fn pattern_evaluation_is_the_same_on_all_eight_images_of_a_position() {
        let weights = random_weights(7);
        for s in random_positions::<Eight>(2, 100) {
            let (own, opp) = s.sides();
            let v = weights.evaluate(own, opp);
            let shipped = WEIGHTS.evaluate(own, opp);
            for image in Image::ALL {
                let (o, p) = (image.apply(own), image.apply(opp));
                assert_eq!(weights.evaluate(o, p), v, "{image:?} of {s}");
                assert_eq!(WEIGHTS.evaluate(o, p), shipped, "{image:?} of {s}");
            }
        }
    }

    #[test]
    fn features_and_weights_give_the_evaluation() {
        // The fitting tool's view of a position (weight numbers and values) and the
        // evaluator's (expanded tables) agree.
        let mut rng = ChaCha8Rng::seed_from_u64(8);
        let params: Vec<i16> = (0..PHASES * LAYOUT.params_per_phase)
            .map(|_| rng.random_range(-300..=300))
            .collect();
        let weights = PatternWeights::from_params(&params);
        for s in random_positions::<Eight>(3, 50) {
            let (own, opp) = s.sides();
            let ph = phase((own | opp).count_ones());
            let base = ph * LAYOUT.params_per_phase;
            let (pats, scal) = features(own, opp);
            let mut sum: i32 = pats
                .iter()
                .map(|&p| i32::from(params[base + p as usize]))
                .sum();
            for (i, v) in scal.iter().enumerate() {
                sum += v * i32::from(params[base + scalar_param(i)]);
            }
            assert_eq!(weights.evaluate(own, opp), sum, "{s}");
        }
    }

    /// `n` weights, 70% of them 0 (runs of zeros, as in a fitted file), the rest anything.
    pub(crate) fn sparse_random_params(seed: u64, n: usize) -> Vec<i16> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                if rng.random_bool(0.7) {
                    0
                } else {
                    rng.random_range(i16::MIN..=i16::MAX)
                }
            })
            .collect()
    }

    #[test]
    fn weights_file_round_trips_and_the_committed_one_has_every_weight() {
        let params = sparse_random_params(9, PHASES * LAYOUT.params_per_phase);
        let bytes = write_params(&params);
        assert_eq!(read_params(&bytes).unwrap(), params);
        assert!(matches!(
            read_params(&bytes[..bytes.len() - 1]),
            Err(ReadWeightsError::Truncated { .. })
        ));
        let mut extra = bytes.clone();
        extra.push(1);
        assert_eq!(read_params(&extra), Err(ReadWeightsError::Trailing(1)));
        assert_eq!(read_params(b"PLYPAT00"), Err(ReadWeightsError::Magic));

        // 113,877 pattern weights and 2 scalars per phase, 12 phases.
        assert_eq!(LAYOUT.params_per_phase, 113_879);
        let shipped = read_params(include_bytes!("../../data/othello-patterns.bin")).unwrap();
        assert_eq!(shipped.len(), PHASES * 113_879);
        // Fitted, not a placeholder: weights are set in every phase (the first phase, up to
        // 10 discs, has few distinct pattern contents: 590 in the committed fit).
        for (ph, chunk) in shipped.chunks(LAYOUT.params_per_phase).enumerate() {
            let set = chunk.iter().filter(|&&w| w != 0).count();
            assert!(set > 300, "phase {ph} has {set} weights set");
        }
        let set = shipped.iter().filter(|&&w| w != 0).count();
        assert!(set > 300_000, "{set} weights set");
    }

    #[test]
    fn pattern_evaluation_is_for_the_side_to_move() {
        // The evaluator reads the discs of the side to move as "own", whichever colour, on
        // the plain state and on the searched one (its indices kept by `from_discs`).
        use crate::reversi::Disc;
        for s in random_positions::<Eight>(4, 30) {
            let (black, white) = (s.discs(Disc::Black), s.discs(Disc::White));
            for turn in [ply_core::Seat::FIRST, ply_core::Seat::SECOND] {
                let t = Othello::from_discs(black, white, turn);
                let indexed = IndexedOthello::from_discs(black, white, turn);
                let (own, opp) = if turn == ply_core::Seat::FIRST {
                    (black, white)
                } else {
                    (white, black)
                };
                assert_eq!(
                    OthelloEval::Pattern.evaluate(&t).0,
                    WEIGHTS.evaluate(own, opp)
                );
                assert_eq!(
                    OthelloEval::Pattern.evaluate(&indexed).0,
                    WEIGHTS.evaluate(own, opp)
                );
            }
        }
        // The shipped weights: a board the side to move dominates (corners, edges, most
        // discs) is good for it and bad for the other side.
        let strong: Othello =
            "xxxxxxxx/xxxxxxxo/xxxxxxo./xxxxxo../xxxxo.../xxxo..../xxo...../xo...... x"
                .parse()
                .unwrap();
        let eval = OthelloEval::Pattern;
        assert!(
            eval.evaluate(&strong).0 > 10 * UNITS_PER_DISC,
            "{:?}",
            eval.evaluate(&strong)
        );
        let other_to_move: Othello =
            "xxxxxxxx/xxxxxxxo/xxxxxxo./xxxxxo../xxxxo.../xxxo..../xxo...../xo...... o"
                .parse()
                .unwrap();
        assert!(eval.evaluate(&other_to_move).0 < -10 * UNITS_PER_DISC);
    }
}
