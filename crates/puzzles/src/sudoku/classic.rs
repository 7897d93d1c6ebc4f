//! The 9x9 solver, specialised for speed.
//!
//! # Representation
//! The board is cut into its three bands (three rows of boxes). For each digit and band one
//! 27-bit word holds where that digit may still go (bit `9 * row_in_band + column`): 27
//! words in all, 108 bytes, copied whole at each guess. A word is revisited only when it
//! changed (a 27-bit dirty mask), which is most of the speed.
//!
//! # Propagation
//! * **Band rule** (locked candidates along rows, both ways, at once): inside a band a digit
//!   fills one *minirow* (three cells of a row inside a box) per row and per box, so the
//!   minirows it uses form one of the 6 permutations of 3. A table maps the 9-bit set of
//!   minirows that still hold the digit to the union of the permutations that fit in it;
//!   cells outside are cleared. This also finds hidden singles in boxes.
//! * **Row singles**: a row of a band where a digit has one cell left gets it; the other
//!   digits leave that cell.
//! * **Columns**: a box whose candidates for a digit lie in one column clears that column in
//!   the other bands (pointing; this is also how a placed digit leaves its column), and a
//!   column whose candidates lie in one band keeps the digit out of the other columns of
//!   that box (claiming; with the band rule this finds hidden singles in columns). Claims
//!   run when the word queue is empty, over the digits that changed.
//! * **Naked singles**: bit-sliced counts over the 9 digits of a band find cells with zero
//!   (contradiction), one (placed) or two candidates (the preferred guesses).
//!
//! # Search
//! When propagation stalls, the solver guesses on a cell with two candidates, the one with the
//! most open cells among its peers (then the most peers with two candidates), else on a cell
//! with the fewest candidates, trying the digits in increasing order. Against the first
//! bivalue cell of the band with the most open cells, this cut guesses per puzzle from 225 to
//! 148 on forum hardest and from 15.8 to 9.9 on top1465 (docs/benchmarks.md). The same ideas
//! appear in JCZSolve and tdoku (bands, minirows, bivalue guesses); this code is written from
//! those ideas, not from theirs.
//!
//! # Compiled twice
//! The default target is generic x86-64, without `popcnt` or `tzcnt`. The search is also
//! compiled for CPUs with AVX2, BMI1/2, LZCNT and POPCNT (`search_native`) and chosen at run
//! time when the CPU has them, unless `PLY_NO_SIMD` is set; the one `unsafe` is that call.

use ply_core::simd::SimdChoice;

/// Cells of row `r` of a band.
const ROW: [u32; 3] = [0x1FF, 0x1FF << 9, 0x1FF << 18];
/// Cells of box `k` of a band.
const BOX: [u32; 3] = [0x1C0E07, 0x1C0E07 << 3, 0x1C0E07 << 6];
/// Cells of column `c` of a band.
const COL: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = (1 << c) | (1 << (9 + c)) | (1 << (18 + c));
        c += 1;
    }
    t
};
/// Cells of column `c` in two bands side by side (the second one shifted by 27).
const COL54: [u64; 9] = {
    let mut t = [0u64; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = COL[c] as u64 | (COL[c] as u64) << 27;
        c += 1;
    }
    t
};
/// Every cell of a band.
const ALL: u32 = (1 << 27) - 1;

/// For the 9 cells of a row: which of its three minirows are non-empty (3 bits).
const MINIROWS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut x = 0;
    while x < 512 {
        let mut m = 0u8;
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                m |= 1 << k;
            }
            k += 1;
        }
        t[x] = m;
        x += 1;
    }
    t
};

/// From the 9-bit set of live minirows (bit `3 * row + box`), the cells of the band that
/// lie in a permutation of live minirows (0 when none fits: a contradiction).
const BAND_RULE: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut keep = 0u32;
        let mut p = 0;
        while p < 6 {
            let perm = PERMS[p];
            let mut bits = 0u32;
            let mut r = 0;
            while r < 3 {
                bits |= 1 << (3 * r + perm[r]);
                r += 1;
            }
            if m as u32 & bits == bits {
                keep |= bits;
            }
            p += 1;
        }
        let mut cells = 0u32;
        let mut b = 0;
        while b < 9 {
            if keep & (1 << b) != 0 {
                cells |= 7 << (9 * (b / 3) + 3 * (b % 3));
            }
            b += 1;
        }
        t[m] = cells;
        m += 1;
    }
    t
};

/// From the 9-bit set of columns of a band holding a digit: the columns that are the only
/// one of their box to hold it, repeated over the band's three rows (27 bits). The digit's
/// place in that box is in that column, so the other bands lose the column (pointing along
/// columns).
const LOCKED_COLUMNS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cols = 0u32;
        let mut k = 0;
        while k < 3 {
            let c = (m >> (3 * k)) & 7;
            if c == 1 || c == 2 || c == 4 {
                cols |= (c as u32) << (3 * k);
            }
            k += 1;
        }
        t[m] = cols | cols << 9 | cols << 18;
        m += 1;
    }
    t
};

/// From the 9-bit set of columns where a digit lies in one band only: the other columns of
/// the same boxes, repeated over three rows (27 bits). The band's box holds the digit in that
/// column, so its other columns lose it (claiming along columns; this also finds hidden
/// singles in columns, through the band rule).
const CLAIMED_COLUMNS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cols = 0u32;
        let mut k = 0;
        while k < 3 {
            let c = (m >> (3 * k)) & 7;
            if c != 0 {
                cols |= ((7 & !c) as u32) << (3 * k);
            }
            k += 1;
        }
        t[m] = cols | cols << 9 | cols << 18;
        m += 1;
    }
    t
};

/// The 9-bit set of columns where a band word has cells.
#[inline]
fn columns(w: u32) -> usize {
    ((w | w >> 9 | w >> 18) & 0x1FF) as usize
}

/// How many cells of `set` (one word per band) lie in the row, box or column of cell `pos`
/// of `band`, the cell itself included (at most 21).
#[inline(always)]
fn in_peers(set: &[u32; 3], band: usize, pos: u32) -> u32 {
    let (row, col) = ((pos / 9) as usize, (pos % 9) as usize);
    let [o1, o2] = OTHER[band];
    (set[band] & (ROW[row] | BOX[col / 3])).count_ones()
        + ((set[o1] as u64 | (set[o2] as u64) << 27) & COL54[col]).count_ones()
}

/// The other two bands of each band.
const OTHER: [[usize; 2]; 3] = [[1, 2], [0, 2], [0, 1]];

/// A contradiction: this branch has no solution.
struct Dead;

#[derive(Clone, Copy)]
struct Board {
    /// `cand[3 * digit + band]`: where the digit may go in the band.
    cand: [u32; 27],
    /// Words changed since their last visit.
    dirty: u32,
    /// Digits visited since the last pass of the column claims.
    touched: u32,
    /// Cells not yet placed, per band.
    open: [u32; 3],
    /// Open cells with two candidates, per band, as of the last pass of naked singles.
    pairs: [u32; 3],
}

/// What a search found.
struct Search<'a> {
    limit: u64,
    count: u64,
    guesses: u64,
    first: Option<&'a mut [u8; 81]>,
}

impl Board {
    fn new() -> Board {
        Board {
            cand: [ALL; 27],
            dirty: (1 << 27) - 1,
            touched: (1 << 9) - 1,
            open: [ALL; 3],
            pairs: [0; 3],
        }
    }

    /// Places `digit` at cell `pos` of `band`: the digit leaves the cell's row, box and
    /// column in the band, and the other digits leave the cell. The other bands lose the
    /// column when the word is next visited (its box then has one column).
    #[inline(always)]
    fn place(&mut self, digit: usize, band: usize, pos: u32) {
        let bit = 1u32 << pos;
        let col = (pos % 9) as usize;
        let row = (pos / 9) as usize;
        self.open[band] &= !bit;
        for d in 0..9 {
            let j = 3 * d + band;
            let old = self.cand[j];
            self.cand[j] = old & !bit;
            self.dirty |= ((old & bit != 0) as u32) << j;
        }
        let i = 3 * digit + band;
        self.cand[i] = (self.cand[i] & !(ROW[row] | BOX[col / 3] | COL[col])) | bit;
        self.dirty |= 1 << i;
    }

    /// One visit of a word: the band rule, pointing along columns, row singles.
    #[inline(always)]
    fn visit(&mut self, i: usize) -> Result<(), Dead> {
        let band = i % 3;
        let w = self.cand[i];
        let live = MINIROWS[(w & 0x1FF) as usize] as usize
            | (MINIROWS[((w >> 9) & 0x1FF) as usize] as usize) << 3
            | (MINIROWS[(w >> 18) as usize] as usize) << 6;
        let n = w & BAND_RULE[live];
        if n == 0 {
            return Err(Dead);
        }
        self.cand[i] = n;
        let locked = LOCKED_COLUMNS[columns(n)];
        let base = i - band;
        for o in OTHER[band] {
            let j = base + o;
            let old = self.cand[j];
            self.cand[j] = old & !locked;
            self.dirty |= ((old & locked != 0) as u32) << j;
        }
        let single = |r: u32| if r & r.wrapping_sub(1) == 0 { r } else { 0 };
        let singles =
            (single(n & ROW[0]) | single(n & ROW[1]) | single(n & ROW[2])) & self.open[band];
        if singles != 0 {
            self.open[band] &= !singles;
            let mut changed = 0u32;
            for d in 0..9 {
                let j = band + 3 * d;
                let old = self.cand[j];
                self.cand[j] = old & !singles;
                changed |= ((old & singles != 0) as u32) << j;
            }
            self.cand[i] = n;
            self.dirty |= changed & !(1 << i);
        }
        Ok(())
    }

    #[inline(always)]
    fn propagate(&mut self) -> Result<(), Dead> {
        loop {
            while self.dirty != 0 {
                // Sweep the words changed so far; changes made meanwhile wait for the next
                // sweep, so that a word changed several times is visited once.
                let mut sweep = self.dirty;
                self.dirty = 0;
                while sweep != 0 {
                    let i = sweep.trailing_zeros() as usize;
                    sweep &= sweep - 1;
                    self.dirty &= !(1 << i);
                    self.touched |= 1 << (i / 3);
                    self.visit(i)?;
                }
            }
            let mut claimed = false;
            while self.touched != 0 {
                let d = self.touched.trailing_zeros() as usize;
                self.touched &= self.touched - 1;
                let i = 3 * d;
                let c = [
                    columns(self.cand[i]),
                    columns(self.cand[i + 1]),
                    columns(self.cand[i + 2]),
                ];
                for b in 0..3 {
                    let [o1, o2] = OTHER[b];
                    let lost = CLAIMED_COLUMNS[c[b] & !(c[o1] | c[o2])];
                    let w = self.cand[i + b];
                    if w & lost != 0 {
                        self.cand[i + b] = w & !lost;
                        self.dirty |= 1 << (i + b);
                        claimed = true;
                    }
                }
            }
            if claimed {
                continue;
            }
            let mut any = false;
            for band in 0..3 {
                let open = self.open[band];
                if open == 0 {
                    self.pairs[band] = 0;
                    continue;
                }
                let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
                for d in 0..9 {
                    let w = self.cand[3 * d + band];
                    three |= two & w;
                    two |= one & w;
                    one |= w;
                }
                if open & !one != 0 {
                    return Err(Dead);
                }
                self.pairs[band] = open & two & !three;
                let mut singles = open & !two;
                while singles != 0 {
                    let pos = singles.trailing_zeros();
                    singles &= singles - 1;
                    let bit = 1 << pos;
                    let digit = (0..9)
                        .find(|&d| self.cand[3 * d + band] & bit != 0)
                        .ok_or(Dead)?;
                    self.place(digit, band, pos);
                    any = true;
                }
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// The cell to guess on, as (band, pos): the cell with two candidates that has the most
    /// open cells among its peers (then the most peers with two candidates, then the first);
    /// when no cell has two candidates, a cell with the fewest, then the most open peers.
    #[inline(always)]
    fn pick(&self) -> (usize, u32) {
        let mut best = (3, 0, 0);
        for band in 0..3 {
            let mut cells = self.pairs[band];
            while cells != 0 {
                let pos = cells.trailing_zeros();
                cells &= cells - 1;
                let score = in_peers(&self.open, band, pos) << 5 | in_peers(&self.pairs, band, pos);
                if score > best.2 {
                    best = (band, pos, score);
                }
            }
        }
        if best.0 < 3 {
            return (best.0, best.1);
        }
        let mut best = (0, 0, u32::MAX);
        for band in 0..3 {
            let mut cells = self.open[band];
            while cells != 0 {
                let pos = cells.trailing_zeros();
                cells &= cells - 1;
                let n = (0..9)
                    .filter(|&d| self.cand[3 * d + band] & (1 << pos) != 0)
                    .count() as u32;
                let key = n << 5 | (31 - in_peers(&self.open, band, pos));
                if key < best.2 {
                    best = (band, pos, key);
                }
            }
        }
        (best.0, best.1)
    }

    fn write(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for band in 0..3 {
                let mut w = self.cand[3 * d + band];
                while w != 0 {
                    let pos = w.trailing_zeros() as usize;
                    w &= w - 1;
                    out[27 * band + pos] = d as u8 + 1;
                }
            }
        }
    }

    /// The search from this board; `recurse` searches a child board (the same function,
    /// compiled for the same CPU features: see [`search_portable`] and [`search_native`]).
    #[inline(always)]
    fn search(mut self, s: &mut Search<'_>, recurse: impl Fn(Board, &mut Search<'_>)) {
        loop {
            if self.propagate().is_err() {
                return;
            }
            if self.open == [0; 3] {
                s.count += 1;
                if s.count == 1
                    && let Some(out) = s.first.as_deref_mut()
                {
                    self.write(out);
                }
                return;
            }
            let (band, pos) = self.pick();
            let bit = 1 << pos;
            let mut digits = 0u32;
            for d in 0..9 {
                if self.cand[3 * d + band] & bit != 0 {
                    digits |= 1 << d;
                }
            }
            let last = 31 - digits.leading_zeros() as usize;
            digits &= !(1 << last);
            while digits != 0 {
                let d = digits.trailing_zeros() as usize;
                digits &= digits - 1;
                s.guesses += 1;
                let mut child = self;
                child.place(d, band, pos);
                recurse(child, s);
                if s.count >= s.limit {
                    return;
                }
                self.cand[3 * d + band] &= !bit;
                self.dirty |= 1 << (3 * d + band);
            }
            self.place(last, band, pos);
        }
    }
}

/// Solves a 9x9 board given as 81 cells (0 empty, else 1-9), stopping after `limit`
/// solutions (1: any solution; 2: prove uniqueness; more: count). Returns the number of
/// solutions found (at most `limit`) and the number of guesses made (tentative placements
/// at branch points; the last candidate of a cell is not counted, being forced). When `first`
/// is given and a solution exists, the first one found is written there.
///
/// Clashing clues give 0 solutions. Values above 9 are treated as empty.
///
/// ```
/// let mut cells = [0u8; 81];
/// let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
/// for (c, ch) in cells.iter_mut().zip(line.chars()) {
///     *c = ch.to_digit(10).unwrap_or(0) as u8;
/// }
/// let mut out = [0u8; 81];
/// let (count, _guesses) = ply_puzzles::sudoku::classic::solve(&cells, 2, Some(&mut out));
/// assert_eq!(count, 1);
/// assert!(out.starts_with(&[4, 1, 7, 3, 6, 9, 8, 2, 5]));
/// ```
pub fn solve(cells: &[u8; 81], limit: u64, first: Option<&mut [u8; 81]>) -> (u64, u64) {
    let code = if native_available() {
        Code::Native
    } else {
        Code::Portable
    };
    solve_with(cells, limit, first, code)
}

/// Which compiled copy of the search runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    /// Compiled for the build's target (generic x86-64 by default).
    Portable,
    /// Compiled for x86-64 with AVX2, BMI1/2, LZCNT and POPCNT; only where
    /// [`native_available`] says so.
    Native,
}

/// [`solve`] with the given copy of the search.
///
/// # Panics
/// When `code` is [`Code::Native`] and the CPU lacks its features ([`native_detected`]).
pub(crate) fn solve_with(
    cells: &[u8; 81],
    limit: u64,
    first: Option<&mut [u8; 81]>,
    code: Code,
) -> (u64, u64) {
    let mut s = Search {
        limit: limit.max(1),
        count: 0,
        guesses: 0,
        first,
    };
    let mut board = Board::new();
    for (i, &v) in cells.iter().enumerate() {
        if v == 0 || v > 9 {
            continue;
        }
        let (d, band, pos) = (v as usize - 1, i / 27, (i % 27) as u32);
        if board.cand[3 * d + band] & (1 << pos) == 0 {
            return (0, 0);
        }
        board.place(d, band, pos);
    }
    match code {
        Code::Portable => search_portable(board, &mut s),
        Code::Native => {
            assert!(
                native_detected(),
                "the CPU lacks the native code's features"
            );
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            // SAFETY: `search_native` is compiled for avx2, bmi1, bmi2, lzcnt and popcnt, and
            // `native_detected()` has just found all five on this CPU (it is false on other
            // architectures); the function has no other precondition.
            unsafe {
                search_native(board, &mut s)
            };
        }
    }
    (s.count, s.guesses)
}

fn search_portable(board: Board, s: &mut Search<'_>) {
    board.search(s, search_portable);
}

/// The same search compiled for newer x86-64 CPUs: `count_ones` and `trailing_zeros` become
/// single instructions (the default target has no `popcnt`), which made the hard sets about
/// 8% faster; the code is the same.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn search_native(board: Board, s: &mut Search<'_>) {
    board.search(s, |b, s| search_native(b, s));
}

static NATIVE: SimdChoice = SimdChoice::new(native_detected);

/// Whether this CPU can run [`search_native`] and `PLY_NO_SIMD` is not set in the
/// environment ([`ply_core::simd`]); looked up once.
pub(crate) fn native_available() -> bool {
    NATIVE.available()
}

// The CPU test for the native copies' features (shared with every copy built with them).
pub(crate) use ply_core::simd::avx2_bmi_detected as native_detected;
