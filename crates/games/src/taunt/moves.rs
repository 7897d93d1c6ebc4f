//! The move type, its notation, the precomputed move tables and the generator.

use std::fmt;
use std::str::FromStr;

use ply_core::{ParseMoveError, Seat};

use super::board::{CELLS, COLS, Direction, Piece, ROWS, Taunt};

/// A move: the piece's cell and its destination (possibly the same cell), each numbered
/// `row * 4 + col`.
///
/// Shown as `(8,2)->(8,0)`; any text with the four numbers in that order parses
/// (`8 2 8 0`).
///
/// ```
/// use ply_games::taunt::Move;
/// let m: Move = "8 2 8 0".parse().unwrap();
/// assert_eq!(m.to_string(), "(8,2)->(8,0)");
/// assert_eq!((m.from(), m.to()), ((8, 2), (8, 0)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    from: u8,
    to: u8,
}

impl Move {
    /// The move from (`r1`, `c1`) to (`r2`, `c2`).
    ///
    /// # Panics
    /// If a cell is off the grid.
    pub fn new((r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> Move {
        assert!(
            r1 < ROWS && r2 < ROWS && c1 < COLS && c2 < COLS,
            "off the grid"
        );
        Move {
            from: (r1 * COLS + c1) as u8,
            to: (r2 * COLS + c2) as u8,
        }
    }

    /// Row and column of the piece.
    pub fn from(self) -> (usize, usize) {
        (self.from as usize / COLS, self.from as usize % COLS)
    }

    /// Row and column of the destination.
    pub fn to(self) -> (usize, usize) {
        (self.to as usize / COLS, self.to as usize % COLS)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((a, b), (c, d)) = (self.from(), self.to());
        write!(f, "({a},{b})->({c},{d})")
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Reads four numbers, row and column of the piece then of the destination, with any
    /// separators.
    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let err = |reason: &str| ParseMoveError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let nums = crate::text::numbers(text).map_err(|_| err("a number is too large"))?;
        let [r1, c1, r2, c2] = nums[..] else {
            return Err(err(
                "expected four numbers: row and column of the piece, then of its destination",
            ));
        };
        if r1 >= ROWS || r2 >= ROWS || c1 >= COLS || c2 >= COLS {
            return Err(err("rows are 0..9 and columns 0..3"));
        }
        Ok(Move::new((r1, c1), (r2, c2)))
    }
}

pub(crate) const NONE: u8 = u8::MAX;

/// Reflects a coordinate that went one or two cells past an edge back onto the board
/// (10 -> 8, -1 -> 1 for rows; 4 -> 2, -1 -> 1 for columns).
pub(crate) const fn reflect(x: i32, len: i32) -> i32 {
    if x < 0 {
        -x
    } else if x >= len {
        2 * (len - 1) - x
    } else {
        x
    }
}

/// `TARGETS[kind - 1][dir][cell]`: up to four (middle, destination) pairs sorted by
/// destination, `NONE` padded; the middle is `NONE` for one-step moves. Sorted so that the
/// generator's per-piece output is in order without sorting at run time.
type Targets = [[[[(u8, u8); 4]; CELLS]; 2]; 3];

/// Sorts one table entry by destination (`NONE`, 255, sorts last).
const fn sorted(mut e: [(u8, u8); 4]) -> [(u8, u8); 4] {
    let mut i = 1;
    while i < 4 {
        let mut j = i;
        while j > 0 && e[j - 1].1 > e[j].1 {
            let t = e[j - 1];
            e[j - 1] = e[j];
            e[j] = t;
            j -= 1;
        }
        i += 1;
    }
    e
}

const fn targets() -> Targets {
    let mut t = [[[[(NONE, NONE); 4]; CELLS]; 2]; 3];
    let (rows, cols) = (ROWS as i32, COLS as i32);
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = ((cell / COLS) as i32, (cell % COLS) as i32);
        let mut dir = 0;
        while dir < 2 {
            let f: i32 = if dir == 0 { -1 } else { 1 };
            // Type 1: the four orthogonal neighbours.
            let steps = [(-1, 0), (0, -1), (0, 1), (1, 0)];
            let mut k = 0;
            let mut n = 0;
            while k < 4 {
                let (rr, cc) = (r + steps[k].0, c + steps[k].1);
                if rr >= 0 && rr < rows && cc >= 0 && cc < cols {
                    t[0][dir][cell][n] = (NONE, (rr * cols + cc) as u8);
                    n += 1;
                }
                k += 1;
            }
            // Type 2: sideways, or two rows forward over the middle cell.
            n = 0;
            if c > 0 {
                t[1][dir][cell][n] = (NONE, (r * cols + c - 1) as u8);
                n += 1;
            }
            if c < cols - 1 {
                t[1][dir][cell][n] = (NONE, (r * cols + c + 1) as u8);
                n += 1;
            }
            if r + f >= 0 && r + f < rows {
                let dr = reflect(r + 2 * f, rows);
                t[1][dir][cell][n] = (((r + f) * cols + c) as u8, (dr * cols + c) as u8);
            }
            // Type 3: two rows forward and two columns sideways, over the diagonal middle.
            n = 0;
            let mut side = 0;
            while side < 2 {
                let s: i32 = if side == 0 { -1 } else { 1 };
                let (mr, mc) = (r + f, c + s);
                if mr >= 0 && mr < rows && mc >= 0 && mc < cols {
                    let (dr, dc) = (reflect(r + 2 * f, rows), reflect(c + 2 * s, cols));
                    t[2][dir][cell][n] = ((mr * cols + mc) as u8, (dr * cols + dc) as u8);
                    n += 1;
                }
                side += 1;
            }
            let mut kind = 0;
            while kind < 3 {
                t[kind][dir][cell] = sorted(t[kind][dir][cell]);
                kind += 1;
            }
            dir += 1;
        }
        cell += 1;
    }
    t
}

static TARGETS: Targets = targets();

fn dir_index(d: Direction) -> usize {
    match d {
        Direction::Up => 0,
        Direction::Down => 1,
    }
}

impl Taunt {
    /// The cells of each side's pieces, by seat index, in one pass over the grid.
    pub(crate) fn occupancy(&self) -> [u64; 2] {
        // Two locals rather than an indexed array: `occ[seat] |= ..` made a chain of stores
        // and loads through memory that halved the generator's speed.
        let (mut first, mut second) = (0u64, 0u64);
        for (i, p) in self.cells.iter().enumerate() {
            match p {
                Some(p) if p.seat == Seat::FIRST => first |= 1 << i,
                Some(_) => second |= 1 << i,
                None => {}
            }
        }
        [first, second]
    }

    /// The cells of `seat`'s pieces.
    pub(crate) fn mask(&self, seat: Seat) -> u64 {
        let mut own = 0u64;
        for (i, p) in self.cells.iter().enumerate() {
            if p.is_some_and(|p| p.seat == seat) {
                own |= 1 << i;
            }
        }
        own
    }

    /// The (middle, destination) table entry of the piece `p` on `from`.
    #[inline]
    pub(crate) fn targets_of(p: Piece, from: usize) -> &'static [(u8, u8); 4] {
        &TARGETS[p.kind as usize - 1][dir_index(p.dir)][from]
    }

    /// Calls `f` on each legal move of `seat` (whoever is to move) in sorted order, until
    /// it returns true; returns whether it did. The one walk over the move tables that
    /// [`Taunt::generate`] and [`Taunt::has_move`] share.
    #[inline]
    fn each_move(&self, seat: Seat, mut f: impl FnMut(Move) -> bool) -> bool {
        let own = self.mask(seat);
        let mut men = own;
        while men != 0 {
            let from = men.trailing_zeros() as usize;
            men &= men - 1;
            let Some(p) = self.cells[from] else {
                continue;
            };
            // The table entry is sorted by destination, so the moves come sorted.
            for &(_, to) in Taunt::targets_of(p, from) {
                if to == NONE {
                    break;
                }
                if (own & (1 << to) == 0 || to as usize == from)
                    && f(Move {
                        from: from as u8,
                        to,
                    })
                {
                    return true;
                }
            }
        }
        false
    }

    /// Appends the legal moves of `seat` (whoever is to move), sorted.
    pub(crate) fn generate(&self, seat: Seat, out: &mut Vec<Move>) {
        out.clear();
        self.each_move(seat, |m| {
            out.push(m);
            false
        });
    }

    /// Whether `seat` has any move, without building a list.
    pub(crate) fn has_move(&self, seat: Seat) -> bool {
        self.each_move(seat, |_| true)
    }

    /// The middle cell a move jumps over, if it is a two-step move.
    pub(crate) fn middle(&self, mv: Move) -> Option<usize> {
        let p = self.cells[mv.from as usize]?;
        TARGETS[p.kind as usize - 1][dir_index(p.dir)][mv.from as usize]
            .iter()
            .find(|&&(_, to)| to == mv.to)
            .and_then(|&(mid, _)| (mid != NONE).then_some(mid as usize))
    }

    /// How many enemy pieces a legal move takes (0, 1 or 2).
    pub fn captures(&self, mv: Move) -> u32 {
        let Some(me) = self.cells[mv.from as usize].map(|p| p.seat) else {
            return 0;
        };
        let enemy = |i: usize| self.cells[i].is_some_and(|p| p.seat != me);
        u32::from(self.middle(mv).is_some_and(enemy)) + u32::from(enemy(mv.to as usize))
    }

    /// Puts the moves taking two pieces first, then one, then the rest, each group in its
    /// given order (the same order as a stable sort by captures, descending), without
    /// allocating.
    pub(crate) fn order_captures_first(&self, moves: &mut [Move]) {
        const CAP: usize = 64;
        if moves.len() > CAP {
            moves.sort_by_cached_key(|&m| std::cmp::Reverse(self.captures(m)));
            return;
        }
        let occ = self.occupancy();
        let mut keys = [0u8; CAP];
        let mut any = false;
        for (k, &mv) in keys.iter_mut().zip(moves.iter()) {
            let Some(p) = self.cells[mv.from as usize] else {
                continue;
            };
            let enemy = occ[p.seat.index() ^ 1];
            let mut n = (enemy >> mv.to) as u8 & 1;
            for &(mid, to) in Taunt::targets_of(p, mv.from as usize) {
                if to == mv.to {
                    if mid != NONE {
                        n += (enemy >> mid) as u8 & 1;
                    }
                    break;
                }
            }
            *k = n;
            any |= n != 0;
        }
        if !any {
            return;
        }
        let mut buf = [Move { from: 0, to: 0 }; CAP];
        let mut w = 0;
        for want in [2u8, 1, 0] {
            for (&k, &mv) in keys.iter().zip(moves.iter()) {
                if k == want {
                    buf[w] = mv;
                    w += 1;
                }
            }
        }
        moves.copy_from_slice(&buf[..moves.len()]);
    }

    /// The legal moves of `seat` that capture, those taking two pieces first, then those
    /// taking one, each group sorted: the order [`Taunt::order_captures_first`] gives them.
    pub(crate) fn generate_captures(&self, seat: Seat, out: &mut Vec<Move>) {
        out.clear();
        let occ = self.occupancy();
        let (own, enemy) = (occ[seat.index()], occ[seat.index() ^ 1]);
        let mut doubles = 0;
        let mut men = own;
        while men != 0 {
            let from = men.trailing_zeros() as usize;
            men &= men - 1;
            let Some(p) = self.cells[from] else {
                continue;
            };
            for &(mid, to) in Taunt::targets_of(p, from) {
                if to == NONE {
                    break;
                }
                if own & (1 << to) != 0 && to as usize != from {
                    continue;
                }
                let mut n = (enemy >> to) & 1;
                if mid != NONE {
                    n += (enemy >> mid) & 1;
                }
                let mv = Move {
                    from: from as u8,
                    to,
                };
                match n {
                    2 => {
                        out.insert(doubles, mv);
                        doubles += 1;
                    }
                    1 => out.push(mv),
                    _ => {}
                }
            }
        }
    }

    /// Plays a move known to be legal.
    pub(crate) fn apply(&mut self, mv: Move) {
        let (from, to) = (mv.from as usize, mv.to as usize);
        let mut p = self.cells[from].expect("a piece to move");
        let middle = self.middle(mv);
        if let Some(m) = middle
            && self.cells[m].is_some_and(|q| q.seat != p.seat)
        {
            self.cells[m] = None;
        }
        if p.kind != 1 {
            let far = p.dir.far_row();
            if to / COLS == far || middle.is_some_and(|m| m / COLS == far) {
                p.dir = p.dir.flipped();
            }
        }
        self.cells[from] = None;
        self.cells[to] = Some(p);
        self.moves += 1;
    }
}
