//! Boards: which cells are holes, the jumps between them as bit masks, and the board's
//! symmetries. A position is a `u64` of pegs over the board's bits.

use std::fmt;

use thiserror::Error;

use super::matrix::{Entry, ParseMatrixError, parse_matrix};

/// A cell of the board matrix, 0-based inside ply (the contest and the classic notation
/// write them 1-based; [`fmt::Display`] does too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Hole {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub col: u8,
}

impl Hole {
    /// The hole at 0-based `row`, `col`.
    pub const fn new(row: u8, col: u8) -> Hole {
        Hole { row, col }
    }
}

impl fmt::Display for Hole {
    /// Classic notation: 1-based row then column, `44` for the English centre; a comma
    /// between them when either is above 9.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.row < 9 && self.col < 9 {
            write!(f, "{}{}", self.row + 1, self.col + 1)
        } else {
            write!(f, "{},{}", self.row + 1, self.col + 1)
        }
    }
}

/// Which lines pegs jump along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Horizontal and vertical jumps (the English, French and other square-grid boards).
    Square,
    /// Also along the diagonal `(+1, +1)` / `(-1, -1)` of the matrix: a triangular board
    /// drawn left-aligned, row `r` holding `r + 1` holes.
    Triangular,
}

impl Geometry {
    /// The jump directions `(d_row, d_col)` of one step.
    pub fn directions(self) -> &'static [(i8, i8)] {
        match self {
            Geometry::Square => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
            Geometry::Triangular => &[(-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)],
        }
    }
}

/// One jump: the peg at `from` jumps over `over` into the empty `to`. Fields are bit
/// indices of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// Bit of the jumping peg.
    pub from: u8,
    /// Bit of the peg jumped over (removed).
    pub over: u8,
    /// Bit of the hole landed in.
    pub to: u8,
}

impl Jump {
    /// The pegs this jump needs (`from` and `over`).
    #[inline]
    pub fn needs(self) -> u64 {
        (1u64 << self.from) | (1u64 << self.over)
    }

    /// Whether the jump is legal with `pegs` on the board.
    #[inline]
    pub fn legal(self, pegs: u64) -> bool {
        pegs & self.needs() == self.needs() && pegs & (1u64 << self.to) == 0
    }

    /// The pegs after the jump.
    #[inline]
    pub fn apply(self, pegs: u64) -> u64 {
        pegs ^ self.needs() ^ (1u64 << self.to)
    }

    /// The inverse step: whether `pegs` can come from a position by this jump.
    #[inline]
    pub fn unapplicable(self, pegs: u64) -> bool {
        pegs & ((1u64 << self.to) | self.needs()) == 1u64 << self.to
    }
}

/// How a board computes the canonical form of a position under its symmetries.
#[derive(Clone, Debug)]
enum Symmetry {
    /// An `n` x `n` board on the 8x8 grid layout with all 8 symmetries: bit tricks.
    Square8 { n: u32 },
    /// Any other group: for every non-identity symmetry, 8 byte-indexed lookup tables.
    Tables(Vec<Box<[[u64; 256]; 8]>>),
}

/// A peg solitaire board: its holes, jumps and symmetries.
///
/// Boards up to 8x8 use bit `8 * row + col` (so the square symmetries are a few shifts);
/// larger ones number their holes row by row. Either way a board has at most 64 holes.
#[derive(Clone, Debug)]
pub struct Board {
    name: String,
    rows: u8,
    cols: u8,
    geometry: Geometry,
    bit_of_cell: Vec<Option<u8>>,
    hole_of_bit: Vec<Hole>,
    holes: u64,
    jumps: Vec<Jump>,
    jumps_from: Vec<Vec<Jump>>,
    symmetry: Symmetry,
    symmetry_count: usize,
}

/// Why a set of cells cannot be a board.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    /// More than 64 holes.
    #[error("the board has {0} holes; ply handles at most 64")]
    TooManyHoles(usize),
    /// No hole at all.
    #[error("the board has no hole")]
    NoHoles,
    /// Larger than 255 rows or columns.
    #[error("the board is {rows}x{cols}; ply handles at most 255x255")]
    TooLarge { rows: usize, cols: usize },
}

/// Whether a cell `(row, col)` is a hole.
type HoleTest = Box<dyn Fn(i32, i32) -> bool>;

/// A map of cells `(row, col)`, a candidate symmetry.
type CellMap = Box<dyn Fn(i32, i32) -> (i32, i32)>;

/// The classic boards ply knows by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standard {
    /// English, 33 holes: a cross of 3-wide arms on a 7x7 grid.
    English,
    /// French (European), 37 holes: English plus one hole in each inner corner.
    French,
    /// Wiegleb, 45 holes: a cross of 3-wide arms on a 9x9 grid.
    Wiegleb,
    /// Diamond, 41 holes: `|r - 5| + |c - 5| <= 4` on a 9x9 grid.
    Diamond,
    /// Triangular, 15 holes in 5 rows, with diagonal jumps.
    Triangle,
}

impl Standard {
    /// Every standard board.
    pub const ALL: [Standard; 5] = [
        Standard::English,
        Standard::French,
        Standard::Wiegleb,
        Standard::Diamond,
        Standard::Triangle,
    ];

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Standard::English => "english",
            Standard::French => "french",
            Standard::Wiegleb => "wiegleb",
            Standard::Diamond => "diamond",
            Standard::Triangle => "triangle",
        }
    }

    /// The board.
    pub fn board(self) -> Board {
        let cross = |n: i32, arm: i32| {
            move |r: i32, c: i32| {
                let lo = (n - arm) / 2;
                let inside = |x: i32| (lo..lo + arm).contains(&x);
                inside(r) || inside(c)
            }
        };
        let (rows, cols, geometry, is_hole): (usize, usize, Geometry, HoleTest) = match self {
            Standard::English => (7, 7, Geometry::Square, Box::new(cross(7, 3))),
            Standard::French => {
                let english = cross(7, 3);
                (
                    7,
                    7,
                    Geometry::Square,
                    Box::new(move |r, c| {
                        english(r, c) || (matches!(r, 1 | 5) && matches!(c, 1 | 5))
                    }),
                )
            }
            Standard::Wiegleb => (9, 9, Geometry::Square, Box::new(cross(9, 3))),
            Standard::Diamond => (
                9,
                9,
                Geometry::Square,
                Box::new(|r, c| (r - 4).abs() + (c - 4).abs() <= 4),
            ),
            Standard::Triangle => (5, 5, Geometry::Triangular, Box::new(|r, c| c <= r)),
        };
        let mask: Vec<bool> = (0..rows * cols)
            .map(|i| is_hole((i / cols) as i32, (i % cols) as i32))
            .collect();
        Board::new(self.name(), rows, cols, geometry, &mask).expect("standard boards are valid")
    }

    /// The hole left empty at the start of the usual game: the centre, or the top of the
    /// triangle.
    pub fn default_start(self) -> Hole {
        match self {
            Standard::English | Standard::French => Hole::new(3, 3),
            Standard::Wiegleb | Standard::Diamond => Hole::new(4, 4),
            Standard::Triangle => Hole::new(0, 0),
        }
    }
}

impl std::str::FromStr for Standard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Standard::ALL
            .into_iter()
            .find(|b| b.name() == s.to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "unknown board {s:?}; choose one of english, french, wiegleb, diamond, triangle or give a matrix file"
                )
            })
    }
}

impl Board {
    /// A board with holes where `mask` (row-major, `rows * cols`) is true.
    ///
    /// # Errors
    /// If there are no holes or more than 64, or the matrix exceeds 255x255.
    pub fn new(
        name: &str,
        rows: usize,
        cols: usize,
        geometry: Geometry,
        mask: &[bool],
    ) -> Result<Board, BoardError> {
        assert_eq!(mask.len(), rows * cols, "mask must be rows * cols long");
        if rows > 255 || cols > 255 {
            return Err(BoardError::TooLarge { rows, cols });
        }
        let count = mask.iter().filter(|&&h| h).count();
        if count > 64 {
            return Err(BoardError::TooManyHoles(count));
        }
        if count == 0 {
            return Err(BoardError::NoHoles);
        }
        let grid = rows <= 8 && cols <= 8;
        let mut bit_of_cell = vec![None; rows * cols];
        let mut hole_of_bit = vec![Hole::new(u8::MAX, u8::MAX); 64];
        let mut holes = 0u64;
        let mut next = 0u8;
        for r in 0..rows {
            for c in 0..cols {
                if mask[r * cols + c] {
                    let bit = if grid { (r * 8 + c) as u8 } else { next };
                    next += 1;
                    bit_of_cell[r * cols + c] = Some(bit);
                    hole_of_bit[bit as usize] = Hole::new(r as u8, c as u8);
                    holes |= 1u64 << bit;
                }
            }
        }
        let mut board = Board {
            name: name.to_string(),
            rows: rows as u8,
            cols: cols as u8,
            geometry,
            bit_of_cell,
            hole_of_bit,
            holes,
            jumps: Vec::new(),
            jumps_from: vec![Vec::new(); 64],
            symmetry: Symmetry::Tables(Vec::new()),
            symmetry_count: 1,
        };
        let mut jumps = Vec::new();
        for r in 0..rows as i32 {
            for c in 0..cols as i32 {
                let Some(from) = board.bit_at(r, c) else {
                    continue;
                };
                for &(dr, dc) in geometry.directions() {
                    let (dr, dc) = (dr as i32, dc as i32);
                    if let (Some(over), Some(to)) = (
                        board.bit_at(r + dr, c + dc),
                        board.bit_at(r + 2 * dr, c + 2 * dc),
                    ) {
                        jumps.push(Jump { from, over, to });
                    }
                }
            }
        }
        jumps.sort_by_key(|j| (board.hole(j.from), board.hole(j.to)));
        for &j in &jumps {
            board.jumps_from[j.from as usize].push(j);
        }
        board.jumps = jumps;
        board.symmetry_setup();
        Ok(board)
    }

    fn bit_at(&self, r: i32, c: i32) -> Option<u8> {
        if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
            return None;
        }
        self.bit_of_cell[r as usize * self.cols as usize + c as usize]
    }

    /// The candidate symmetries as maps of cells, kept when they map holes onto holes.
    fn symmetry_setup(&mut self) {
        let (rows, cols) = (self.rows as i32, self.cols as i32);
        let mut maps: Vec<CellMap> = Vec::new();
        match self.geometry {
            Geometry::Square => {
                maps.push(Box::new(move |r, c| (rows - 1 - r, c)));
                maps.push(Box::new(move |r, c| (r, cols - 1 - c)));
                maps.push(Box::new(move |r, c| (rows - 1 - r, cols - 1 - c)));
                if rows == cols {
                    maps.push(Box::new(move |r, c| (c, r)));
                    maps.push(Box::new(move |r, c| (cols - 1 - c, r)));
                    maps.push(Box::new(move |r, c| (c, rows - 1 - r)));
                    maps.push(Box::new(move |r, c| (cols - 1 - c, rows - 1 - r)));
                }
            }
            Geometry::Triangular if rows == cols => {
                // Barycentric (a, b, d) = (c, r - c, n - 1 - r); permute them.
                let n = rows;
                let to = move |a: i32, _b: i32, d: i32| (n - 1 - d, a);
                maps.push(Box::new(move |r, c| to(r - c, c, n - 1 - r)));
                maps.push(Box::new(move |r, c| to(c, n - 1 - r, r - c)));
                maps.push(Box::new(move |r, c| to(r - c, n - 1 - r, c)));
                maps.push(Box::new(move |r, c| to(n - 1 - r, r - c, c)));
                maps.push(Box::new(move |r, c| to(n - 1 - r, c, r - c)));
            }
            Geometry::Triangular => {}
        }
        let mut perms: Vec<[u8; 64]> = Vec::new();
        'maps: for map in &maps {
            let mut perm = [u8::MAX; 64];
            for bit in self.bits() {
                let h = self.hole(bit);
                let (r, c) = map(h.row as i32, h.col as i32);
                match self.bit_at(r, c) {
                    Some(b) => perm[bit as usize] = b,
                    None => continue 'maps,
                }
            }
            // A symmetry must also carry jumps to jumps.
            for j in &self.jumps {
                let image = Jump {
                    from: perm[j.from as usize],
                    over: perm[j.over as usize],
                    to: perm[j.to as usize],
                };
                if !self.jumps.contains(&image) {
                    continue 'maps;
                }
            }
            perms.push(perm);
        }
        self.symmetry_count = perms.len() + 1;
        let grid = self.rows <= 8 && self.cols <= 8;
        if grid && self.geometry == Geometry::Square && self.rows == self.cols && perms.len() == 7 {
            self.symmetry = Symmetry::Square8 {
                n: self.rows as u32,
            };
        } else {
            self.symmetry = Symmetry::Tables(perms.iter().map(perm_tables).collect());
        }
    }

    /// The board's name (`english`, or the file it came from).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Rows of the matrix.
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Columns of the matrix.
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// The jump lines.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The mask of all holes.
    pub fn holes(&self) -> u64 {
        self.holes
    }

    /// How many holes.
    pub fn hole_count(&self) -> u32 {
        self.holes.count_ones()
    }

    /// Every jump, sorted by start then landing hole.
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The jumps that start at `bit`.
    pub fn jumps_from(&self, bit: u8) -> &[Jump] {
        &self.jumps_from[bit as usize]
    }

    /// The bit of a hole, if it is a hole of this board.
    pub fn bit(&self, hole: Hole) -> Option<u8> {
        self.bit_at(hole.row as i32, hole.col as i32)
    }

    /// The hole of a bit.
    ///
    /// # Panics
    /// If `bit` is not a hole of this board.
    pub fn hole(&self, bit: u8) -> Hole {
        let h = self.hole_of_bit[bit as usize];
        assert!(h.row != u8::MAX, "bit {bit} is not a hole");
        h
    }

    /// The bits of all holes, ascending.
    pub fn bits(&self) -> impl Iterator<Item = u8> + '_ {
        bits_of(self.holes)
    }

    /// How many symmetries the board has (1 if none but the identity).
    pub fn symmetry_count(&self) -> usize {
        self.symmetry_count
    }

    /// The images of `pegs` under every symmetry of the board, the identity first.
    pub fn images(&self, pegs: u64) -> Vec<u64> {
        match &self.symmetry {
            Symmetry::Square8 { n } => square8_images(pegs, *n).to_vec(),
            Symmetry::Tables(t) => std::iter::once(pegs)
                .chain(t.iter().map(|t| apply_tables(t, pegs)))
                .collect(),
        }
    }

    /// The images of `pegs` under every symmetry of the board, the identity first, padded
    /// to eight with `pegs` itself (no board has more than eight symmetries). Without
    /// allocating: the enumeration calls it for every position.
    #[inline]
    pub(crate) fn images8(&self, pegs: u64) -> [u64; 8] {
        match &self.symmetry {
            Symmetry::Square8 { n } => square8_images(pegs, *n),
            Symmetry::Tables(t) => {
                debug_assert!(t.len() < 8, "at most eight symmetries");
                let mut out = [pegs; 8];
                for (o, t) in out[1..].iter_mut().zip(t) {
                    *o = apply_tables(t, pegs);
                }
                out
            }
        }
    }

    /// How many distinct images `pegs` has under the board's symmetries.
    pub fn orbit_size(&self, pegs: u64) -> u64 {
        match &self.symmetry {
            Symmetry::Square8 { n } => {
                // The eight images are the eight elements of the group applied once each,
                // so the orbit is 8 over the number of them that fix `pegs`.
                let fixed = square8_images(pegs, *n)
                    .iter()
                    .filter(|&&i| i == pegs)
                    .count() as u64;
                8 / fixed
            }
            Symmetry::Tables(_) => {
                let mut im = self.images(pegs);
                im.sort_unstable();
                im.dedup();
                im.len() as u64
            }
        }
    }

    /// The smallest image of `pegs` under the board's symmetries: equal for symmetric
    /// positions.
    #[inline]
    pub fn canonical(&self, pegs: u64) -> u64 {
        match &self.symmetry {
            Symmetry::Square8 { n } => {
                let im = square8_images(pegs, *n);
                im.into_iter().min().unwrap_or(pegs)
            }
            Symmetry::Tables(t) => t.iter().map(|t| apply_tables(t, pegs)).fold(pegs, u64::min),
        }
    }

    /// The legal jumps with `pegs` on the board, in sorted order.
    pub fn legal_jumps(&self, pegs: u64, out: &mut Vec<Jump>) {
        out.clear();
        out.extend(self.jumps.iter().copied().filter(|j| j.legal(pegs)));
    }

    /// Whether any jump is legal.
    #[inline]
    pub fn has_jump(&self, pegs: u64) -> bool {
        self.jumps.iter().any(|j| j.legal(pegs))
    }

    /// The position with every hole full but `empty`.
    pub fn full_but(&self, empty: u64) -> u64 {
        self.holes & !empty
    }

    /// The position class (Conway, Beasley): for every linear form `a r + b c (mod 3)` that
    /// takes three different values on every three holes in a jump line, the parities of the
    /// pegs on its three residue lines, reduced to two bits (their sums mod 2 in pairs). Each
    /// jump flips all three parities, so the class never changes: two positions of different
    /// classes cannot reach each other.
    pub fn position_class(&self, pegs: u64) -> u8 {
        let mut class = 0u8;
        let mut shift = 0;
        for (a, b) in [(1i32, 0i32), (0, 1), (1, 1), (1, 2)] {
            let ok = self
                .geometry
                .directions()
                .iter()
                .all(|&(dr, dc)| (a * dr as i32 + b * dc as i32).rem_euclid(3) != 0);
            if !ok {
                continue;
            }
            let mut parity = [0u8; 3];
            for bit in bits_of(pegs) {
                let h = self.hole(bit);
                let k = (a * h.row as i32 + b * h.col as i32).rem_euclid(3) as usize;
                parity[k] ^= 1;
            }
            class |= ((parity[0] ^ parity[1]) | ((parity[1] ^ parity[2]) << 1)) << shift;
            shift += 2;
        }
        class
    }
}

/// The set bits of `mask`, ascending.
pub fn bits_of(mut mask: u64) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if mask == 0 {
            None
        } else {
            let b = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            Some(b)
        }
    })
}

fn perm_tables(perm: &[u8; 64]) -> Box<[[u64; 256]; 8]> {
    let mut t = Box::new([[0u64; 256]; 8]);
    for (k, table) in t.iter_mut().enumerate() {
        for (byte, out) in table.iter_mut().enumerate() {
            for i in 0..8 {
                let bit = k * 8 + i;
                if byte & (1 << i) != 0 && perm[bit] != u8::MAX {
                    *out |= 1u64 << perm[bit];
                }
            }
        }
    }
    t
}

#[inline]
fn apply_tables(t: &[[u64; 256]; 8], pegs: u64) -> u64 {
    let mut out = 0;
    let mut k = 0;
    let mut p = pegs;
    while p != 0 {
        out |= t[k][(p & 0xff) as usize];
        p >>= 8;
        k += 1;
    }
    out
}

/// Transposes an 8x8 bit matrix (bit `8r + c` to `8c + r`).
#[inline]
fn transpose8(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

#[inline]
fn square8_images(pegs: u64, n: u32) -> [u64; 8] {
    let flip_rows = |x: u64| x.swap_bytes() >> (8 * (8 - n));
    let flip_cols = |x: u64| x.reverse_bits().swap_bytes() >> (8 - n);
    // One transpose suffices: transposing after a flip of rows is flipping columns after
    // the transpose, and so on.
    let t = transpose8(pegs);
    let (v, h, tv, th) = (flip_rows(pegs), flip_cols(pegs), flip_rows(t), flip_cols(t));
    [pegs, v, h, flip_cols(v), t, tv, th, flip_cols(tv)]
}

/// What a board file holds: the board, the pegs, and their weights.
#[derive(Clone, Debug)]
pub struct Setup {
    /// The board.
    pub board: Board,
    /// The pegs at the start.
    pub pegs: u64,
    /// The weight of the peg on each bit at the start (0 where empty or off the board).
    pub weights: Vec<u32>,
}

impl Setup {
    /// A standard board with every hole full but `empty`, all weights 1.
    ///
    /// # Errors
    /// If `empty` is not a hole of the board.
    pub fn standard(board: Standard, empty: Hole) -> Result<Setup, ParseBoardError> {
        Setup::with_empty(board.board(), empty)
    }

    /// `board` with every hole full but `empty`, all weights 1.
    ///
    /// # Errors
    /// If `empty` is not a hole of the board.
    pub fn with_empty(board: Board, empty: Hole) -> Result<Setup, ParseBoardError> {
        let bit = board.bit(empty).ok_or(ParseBoardError::StartOffBoard {
            row: empty.row as usize + 1,
            col: empty.col as usize + 1,
        })?;
        let pegs = board.full_but(1u64 << bit);
        let weights = (0..64)
            .map(|b| u32::from(pegs >> b & 1 == 1))
            .collect::<Vec<_>>();
        Ok(Setup {
            board,
            pegs,
            weights,
        })
    }

    /// Parses a contest matrix: `-1` off the board, `0` an empty hole, a positive number a
    /// peg of that weight. White-space rows or MATLAB `[..; ..]`.
    ///
    /// # Errors
    /// [`ParseBoardError`] with the line and column of the first problem.
    ///
    /// ```
    /// use ply_puzzles::peg_solitaire::Setup;
    /// let s = Setup::parse("t", "[-1 1 1; 1 0 2]").unwrap();
    /// assert_eq!(s.pegs.count_ones(), 4);
    /// ```
    pub fn parse(name: &str, text: &str) -> Result<Setup, ParseBoardError> {
        let m = parse_matrix(text)?;
        let (rows, cols) = (m.len(), m[0].len());
        let mut mask = Vec::with_capacity(rows * cols);
        for e in m.iter().flatten() {
            mask.push(cell_value(e)? != -1);
        }
        let board = Board::new(name, rows, cols, Geometry::Square, &mask)?;
        let mut pegs = 0u64;
        let mut weights = vec![0u32; 64];
        for (r, row) in m.iter().enumerate() {
            for (c, e) in row.iter().enumerate() {
                let v = cell_value(e)?;
                if v > 0 {
                    let bit = board
                        .bit(Hole::new(r as u8, c as u8))
                        .expect("a positive cell is a hole");
                    pegs |= 1u64 << bit;
                    weights[bit as usize] = v as u32;
                }
            }
        }
        Ok(Setup {
            board,
            pegs,
            weights,
        })
    }

    /// The total weight of the pegs.
    pub fn total_weight(&self) -> u64 {
        bits_of(self.pegs)
            .map(|b| u64::from(self.weights[b as usize]))
            .sum()
    }
}

fn cell_value(e: &Entry) -> Result<i64, ParseBoardError> {
    match e.value {
        None => Err(ParseBoardError::Cell {
            line: e.line,
            column: e.column,
            what: "NaN (a wildcard) is only for package blocks".to_string(),
        }),
        Some(v) if v < -1 || v > u32::MAX as i64 => Err(ParseBoardError::Cell {
            line: e.line,
            column: e.column,
            what: format!("{v} is not -1 (off the board), 0 (empty) or a positive weight"),
        }),
        Some(v) => Ok(v),
    }
}

/// Why a board file or start hole was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseBoardError {
    /// The text is not a matrix.
    #[error(transparent)]
    Matrix(#[from] ParseMatrixError),
    /// A cell value that means nothing.
    #[error("line {line}, column {column}: {what}")]
    Cell {
        line: usize,
        column: usize,
        what: String,
    },
    /// The holes do not make a board ply handles.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The start hole is off the board.
    #[error("the start hole at row {row}, column {col} is not a hole of the board")]
    StartOffBoard { row: usize, col: usize },
    /// The hole text is not `RC` or `R,C`.
    #[error("{0:?} is not a hole; write row and column from 1, as `44` or `4,4`")]
    HoleSyntax(String),
}

/// Parses a hole as `RC` (one digit each) or `R,C`, 1-based.
///
/// # Errors
/// [`ParseBoardError::HoleSyntax`] if it is neither.
pub fn parse_hole(text: &str) -> Result<Hole, ParseBoardError> {
    let bad = || ParseBoardError::HoleSyntax(text.to_string());
    let t = text.trim();
    let (r, c) = if let Some((r, c)) = t.split_once(',') {
        (r.trim().parse::<u16>(), c.trim().parse::<u16>())
    } else if t.len() == 2 && t.bytes().all(|b| b.is_ascii_digit()) {
        (t[..1].parse::<u16>(), t[1..].parse::<u16>())
    } else {
        return Err(bad());
    };
    match (r, c) {
        (Ok(r @ 1..=256), Ok(c @ 1..=256)) => Ok(Hole::new((r - 1) as u8, (c - 1) as u8)),
        _ => Err(bad()),
    }
}
