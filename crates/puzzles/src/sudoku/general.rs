//! The solver for any shape (boxes of `r x c` cells, sides up to 32).
//!
//! Each cell keeps its candidates as bits of a `u32`. Propagation places naked singles
//! (through a stack of cells left with one candidate) and hidden singles (bit-sliced counts
//! over each row, column and box), and clears locked candidates (a value confined to one
//! line inside a box, or to one box inside a line). When it stalls, the solver guesses on an
//! open cell with the fewest candidates, breaking ties by the most open peers (the guess
//! that constrains most); when every cell has three or more candidates, a value with two
//! places left in some unit is tried in each place instead. Slower than [`super::classic`] on 9x9 boards, it is
//! the reference the tests compare it with.

use rand::Rng;
use rand::seq::SliceRandom;

use super::grid::{Grid, Shape};

/// The fixed facts of a shape: its units and each cell's peers.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) shape: Shape,
    pub(crate) side: usize,
    /// Rows, then columns, then boxes; each lists its cells.
    pub(crate) units: Vec<Vec<u16>>,
    /// Every other cell sharing a unit, once each.
    pub(crate) peers: Vec<Vec<u16>>,
    /// Every meeting of a box with a row or column through it.
    pub(crate) intersections: Vec<Intersection>,
}

/// Where a box meets a line: the shared cells, the rest of the box, the rest of the line.
#[derive(Debug)]
pub(crate) struct Intersection {
    pub(crate) inside: Vec<u16>,
    pub(crate) box_rest: Vec<u16>,
    pub(crate) line_rest: Vec<u16>,
}

impl Geometry {
    pub(crate) fn new(shape: Shape) -> Geometry {
        let side = shape.side();
        let mut units = vec![Vec::with_capacity(side); 3 * side];
        for r in 0..side {
            for c in 0..side {
                let cell = (r * side + c) as u16;
                units[r].push(cell);
                units[side + c].push(cell);
                units[2 * side + shape.box_of(r, c)].push(cell);
            }
        }
        let mut peers = vec![Vec::new(); side * side];
        for unit in &units {
            for &a in unit {
                for &b in unit {
                    if a != b {
                        peers[a as usize].push(b);
                    }
                }
            }
        }
        for p in &mut peers {
            p.sort_unstable();
            p.dedup();
        }
        let mut intersections = Vec::new();
        for b in 0..side {
            let bx = &units[2 * side + b];
            for ln in &units[..2 * side] {
                let inside: Vec<u16> = bx.iter().copied().filter(|c| ln.contains(c)).collect();
                if inside.is_empty() {
                    continue;
                }
                intersections.push(Intersection {
                    box_rest: bx.iter().copied().filter(|c| !inside.contains(c)).collect(),
                    line_rest: ln.iter().copied().filter(|c| !inside.contains(c)).collect(),
                    inside,
                });
            }
        }
        Geometry {
            shape,
            side,
            units,
            peers,
            intersections,
        }
    }
}

struct Dead;

#[derive(Clone)]
struct State {
    cand: Vec<u32>,
    value: Vec<u8>,
    open: usize,
    queue: Vec<u16>,
}

struct Search<'a, R> {
    limit: u64,
    count: u64,
    guesses: u64,
    first: Option<&'a mut Vec<u8>>,
    rng: Option<&'a mut R>,
}

impl State {
    fn assign(&mut self, g: &Geometry, cell: usize, value: u8) -> Result<(), Dead> {
        let bit = 1u32 << (value - 1);
        if self.cand[cell] & bit == 0 || self.value[cell] != 0 {
            return Err(Dead);
        }
        self.value[cell] = value;
        self.cand[cell] = bit;
        self.open -= 1;
        for &p in &g.peers[cell] {
            let p = p as usize;
            let c = self.cand[p];
            if c & bit != 0 {
                if self.value[p] != 0 {
                    return Err(Dead);
                }
                let c = c & !bit;
                self.cand[p] = c;
                if c == 0 {
                    return Err(Dead);
                }
                if c & (c - 1) == 0 {
                    self.queue.push(p as u16);
                }
            }
        }
        Ok(())
    }

    fn drain(&mut self, g: &Geometry) -> Result<(), Dead> {
        while let Some(cell) = self.queue.pop() {
            let cell = cell as usize;
            if self.value[cell] == 0 {
                let c = self.cand[cell];
                if c == 0 {
                    return Err(Dead);
                }
                self.assign(g, cell, c.trailing_zeros() as u8 + 1)?;
            }
        }
        Ok(())
    }

    /// Hidden singles in every unit; whether anything was placed.
    fn hidden_singles(&mut self, g: &Geometry) -> Result<bool, Dead> {
        let full = if g.side == 32 {
            u32::MAX
        } else {
            (1u32 << g.side) - 1
        };
        let mut any = false;
        for unit in &g.units {
            let (mut once, mut twice, mut placed) = (0u32, 0u32, 0u32);
            for &cell in unit {
                let c = self.cand[cell as usize];
                if self.value[cell as usize] != 0 {
                    placed |= c;
                } else {
                    twice |= once & c;
                    once |= c;
                }
            }
            if (once | placed) != full {
                return Err(Dead);
            }
            let mut hidden = once & !twice & !placed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                let value = bit.trailing_zeros() as u8 + 1;
                let mut open_place = None;
                for &c in unit {
                    let c = c as usize;
                    if self.value[c] == value {
                        // Placed meanwhile, as a naked single of an earlier placement.
                        open_place = None;
                        break;
                    }
                    if self.value[c] == 0 && self.cand[c] & bit != 0 {
                        open_place = Some(c);
                    }
                }
                let Some(cell) = open_place else {
                    if unit.iter().any(|&c| self.value[c as usize] == value) {
                        continue;
                    }
                    return Err(Dead);
                };
                self.assign(g, cell, value)?;
                self.drain(g)?;
                any = true;
            }
        }
        Ok(any)
    }

    /// Locked candidates between boxes and lines; whether any candidate was cleared.
    fn locked_candidates(&mut self, g: &Geometry) -> bool {
        let mut any = false;
        for x in &g.intersections {
            let union = |cells: &[u16], st: &State| {
                cells
                    .iter()
                    .filter(|&&c| st.value[c as usize] == 0)
                    .fold(0u32, |m, &c| m | st.cand[c as usize])
            };
            let inside = union(&x.inside, self);
            if inside == 0 {
                continue;
            }
            let box_rest = union(&x.box_rest, self);
            let line_rest = union(&x.line_rest, self);
            // Pointing: confined to this line within the box, so off the rest of the line.
            let pointing = inside & !box_rest & line_rest;
            // Claiming: confined to this box within the line, so off the rest of the box.
            let claiming = inside & !line_rest & box_rest;
            for (bits, cells) in [(pointing, &x.line_rest), (claiming, &x.box_rest)] {
                if bits != 0 {
                    any = true;
                    for &c in cells {
                        if self.value[c as usize] == 0 {
                            self.clear(c as usize, bits);
                        }
                    }
                }
            }
        }
        any
    }

    fn clear(&mut self, cell: usize, bits: u32) {
        let c = self.cand[cell];
        if c & bits != 0 {
            let c = c & !bits;
            self.cand[cell] = c;
            if c.count_ones() <= 1 {
                self.queue.push(cell as u16);
            }
        }
    }

    fn propagate(&mut self, g: &Geometry) -> Result<(), Dead> {
        loop {
            self.drain(g)?;
            if self.open == 0 {
                return Ok(());
            }
            if self.hidden_singles(g)? {
                continue;
            }
            if !self.locked_candidates(g) {
                return Ok(());
            }
        }
    }

    fn search<R: Rng>(mut self, g: &Geometry, s: &mut Search<'_, R>) {
        loop {
            if self.propagate(g).is_err() {
                return;
            }
            if self.open == 0 {
                s.count += 1;
                if s.count == 1
                    && let Some(out) = s.first.as_deref_mut()
                {
                    out.clone_from(&self.value);
                }
                return;
            }
            let mut options = self.branch(g);
            if let Some(rng) = s.rng.as_deref_mut() {
                options.shuffle(rng);
            }
            let (&(last_cell, last_value), rest) =
                options.split_last().expect("an open cell has candidates");
            for &(cell, v) in rest {
                s.guesses += 1;
                let mut child = self.clone();
                if child.assign(g, cell, v).is_ok() {
                    child.search(g, s);
                }
                if s.count >= s.limit {
                    return;
                }
                self.clear(cell, 1 << (v - 1));
            }
            if self.assign(g, last_cell, last_value).is_err() {
                return;
            }
        }
    }

    /// The alternatives to guess among, as (cell, value): the candidates of an open cell with
    /// the fewest, unless some value has fewer places left in a unit (then its places).
    fn branch(&self, g: &Geometry) -> Vec<(usize, u8)> {
        // Fewest candidates; among those, the most open peers (the guess that constrains most).
        let fewest = (0..self.cand.len())
            .filter(|&c| self.value[c] == 0)
            .map(|c| self.cand[c].count_ones())
            .min()
            .expect("an open cell");
        let cell = (0..self.cand.len())
            .filter(|&c| self.value[c] == 0 && self.cand[c].count_ones() == fewest)
            .max_by_key(|&c| {
                g.peers[c]
                    .iter()
                    .filter(|&&p| self.value[p as usize] == 0)
                    .count()
            })
            .expect("an open cell");
        let by_cell = || {
            (0..32u8)
                .filter(|&d| self.cand[cell] & (1 << d) != 0)
                .map(|d| (cell, d + 1))
                .collect()
        };
        if fewest <= 2 {
            return by_cell();
        }
        for unit in &g.units {
            let (mut once, mut twice, mut thrice, mut placed) = (0u32, 0u32, 0u32, 0u32);
            for &c in unit {
                let c = c as usize;
                let m = self.cand[c];
                if self.value[c] != 0 {
                    placed |= m;
                } else {
                    thrice |= twice & m;
                    twice |= once & m;
                    once |= m;
                }
            }
            let pairs = twice & !thrice & !placed;
            if pairs != 0 {
                let bit = pairs & pairs.wrapping_neg();
                let v = bit.trailing_zeros() as u8 + 1;
                return unit
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| self.value[c] == 0 && self.cand[c] & bit != 0)
                    .map(|c| (c, v))
                    .collect();
            }
        }
        by_cell()
    }
}

fn run<R: Rng>(
    g: &Geometry,
    grid: &Grid,
    limit: u64,
    first: Option<&mut Vec<u8>>,
    rng: Option<&mut R>,
) -> (u64, u64) {
    let side = g.side;
    let full = if side == 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    };
    let mut state = State {
        cand: vec![full; side * side],
        value: vec![0; side * side],
        open: side * side,
        queue: Vec::new(),
    };
    for (cell, &v) in grid.cells().iter().enumerate() {
        if v != 0 && state.assign(g, cell, v).is_err() {
            return (0, 0);
        }
    }
    let mut s = Search {
        limit: limit.max(1),
        count: 0,
        guesses: 0,
        first,
        rng,
    };
    state.search(g, &mut s);
    (s.count, s.guesses)
}

/// Solves a board of any shape, stopping after `limit` solutions; returns the number found
/// (at most `limit`), the guesses made, and the first solution found.
pub(crate) fn solve(grid: &Grid, limit: u64) -> (u64, u64, Option<Grid>) {
    let g = Geometry::new(grid.shape());
    let mut out = Vec::new();
    let (count, guesses) = run::<rand_chacha::ChaCha8Rng>(&g, grid, limit, Some(&mut out), None);
    let first = (count > 0).then(|| Grid::from_cells(grid.shape(), out).expect("a full board"));
    (count, guesses, first)
}

/// A solution picked at random among those of `grid` (trying values in a random order at
/// each guess), or `None` when there is none.
pub(crate) fn solve_random<R: Rng>(grid: &Grid, rng: &mut R) -> Option<Grid> {
    let g = Geometry::new(grid.shape());
    let mut out = Vec::new();
    let (count, _) = run(&g, grid, 1, Some(&mut out), Some(rng));
    (count > 0).then(|| Grid::from_cells(grid.shape(), out).expect("a full board"))
}

/// Counts solutions up to `limit` with a geometry built once (for the generator's many
/// calls).
pub(crate) fn count_with(g: &Geometry, grid: &Grid, limit: u64) -> u64 {
    run::<rand_chacha::ChaCha8Rng>(g, grid, limit, None, None).0
}
