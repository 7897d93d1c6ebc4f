//! The solver for any shape (boxes of `r x c` cells, sides up to 32).
//!
//! The state is kept from both sides of the exact cover: each cell's candidates are bits of
//! a `u32`, and so are the places left for each value in each unit (row, column, box), by
//! position inside the unit. Removing a candidate updates both at once, so a cell with one
//! candidate (naked single), a value with one place in a unit (hidden single) and a value
//! with no place in a unit (a contradiction, found at once) all show up on the removal that
//! causes them and go on a queue. When the queue is empty, locked candidates are cleared (a
//! value whose places in a box lie on one line leaves the rest of that line, and a value
//! whose places in a line lie in one box leaves the rest of that box), and the queue runs
//! again.
//!
//! When propagation stalls, the solver looks ahead before it guesses, as lookahead SAT
//! solvers do: it tries both sides of every two-way choice (a cell with two candidates, a
//! value with two places in a unit), propagating singles. A probe works in the state
//! itself, logging what it changes, and undoes the log: no copy of the state (10.7 KB for
//! 25x25) per probe. A side that fails is removed for good (a failed literal), and a
//! candidate that both sides remove is removed too (whichever side holds, it goes). Each
//! placement is probed once per pass, and placements that propagate alike (the other
//! sides of two choices that share a side) share one probe: after such a removal the
//! pass goes on with the results already found, which stay true in the stronger state
//! (propagation is monotone), only less complete. The solver then
//! branches on the choice whose two sides remove the most candidates (the product of the
//! two), trying first the side that removes fewer, since more room is likelier to hold a
//! solution; if a removal settled that choice, the search propagates and looks again. With no two-way choice it branches on the smallest one, as dancing
//! links does over the exact-cover columns: the open cell with the fewest candidates (ties:
//! the most open cells in its units) or the value with the fewest places in a unit. A
//! branch tries one placement in a copy of the state, then removes it from the original and
//! propagates that refutation before choosing again (binary branching), so the last
//! alternative of a choice is forced, not guessed; probes are not counted as guesses.
//!
//! Lookahead costs many propagations per branch but pays on big boards: a 25x25 puzzle
//! with 300 clues took 86,469 guesses (7.5 s) with singles, locked candidates and
//! fewest-candidates guessing alone, and 113 guesses with it. On the minimal 25x25 fixture
//! (274 clues), removing what both sides remove and probing each placement once per pass
//! took the uniqueness proof from 16,397 guesses (8.2 s) to 9,451 (3.3 s). Slower than
//! [`super::classic`] on 9x9 boards, this solver is the reference the tests compare it with.

use rand::Rng;

use super::grid::{Grid, Shape};

/// The fixed facts of a shape: its units and each cell's peers.
#[derive(Debug)]
pub(crate) struct Geometry {
    pub(crate) shape: Shape,
    pub(crate) side: usize,
    /// Rows, then columns, then boxes; each lists its cells (a box row by row).
    pub(crate) units: Vec<Vec<u16>>,
    /// Every other cell sharing a unit, once each.
    pub(crate) peers: Vec<Vec<u16>>,
    /// Every meeting of a box with a row or column through it.
    pub(crate) intersections: Vec<Intersection>,
    /// Each cell's row, column and box, as unit numbers.
    cell_units: Vec<[u16; 3]>,
    /// What removing a candidate from a cell touches, in one place (see [`CellLinks`]).
    links: Vec<CellLinks>,
    /// Positions inside a box of each of its rows; also the positions inside a row of each
    /// box it crosses (both are runs of `box_cols` bits).
    row_runs: Vec<u32>,
    /// Positions inside a box of each of its columns.
    box_cols: Vec<u32>,
    /// Positions inside a column of each box it crosses (runs of `box_rows` bits).
    col_runs: Vec<u32>,
}

/// For each of a cell's three units: where its places start in `State::places` (`unit *
/// side`), the unit, and the mask that clears the cell's position. Removing a candidate
/// reads these together (one lookup instead of two, no multiplication).
#[derive(Clone, Copy, Debug)]
struct CellLinks {
    base: [u32; 3],
    unit: [u16; 3],
    clear: [u32; 3],
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
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let mut units = vec![Vec::with_capacity(side); 3 * side];
        let mut cell_units = Vec::with_capacity(side * side);
        let mut cell_pos = Vec::with_capacity(side * side);
        for r in 0..side {
            for c in 0..side {
                let cell = (r * side + c) as u16;
                let b = shape.box_of(r, c);
                units[r].push(cell);
                units[side + c].push(cell);
                units[2 * side + b].push(cell);
                cell_units.push([r as u16, (side + c) as u16, (2 * side + b) as u16]);
                cell_pos.push([c as u8, r as u8, ((r % br) * bc + c % bc) as u8]);
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
        let row_runs = (0..br).map(|k| ((1u32 << bc) - 1) << (k * bc)).collect();
        let box_cols = (0..bc)
            .map(|k| (0..br).fold(0u32, |m, i| m | 1 << (i * bc + k)))
            .collect();
        let col_runs = (0..bc).map(|k| ((1u32 << br) - 1) << (k * br)).collect();
        let links = cell_units
            .iter()
            .zip(&cell_pos)
            .map(|(us, ps): (&[u16; 3], &[u8; 3])| CellLinks {
                base: us.map(|u| u32::from(u) * side as u32),
                unit: *us,
                clear: ps.map(|p| !(1u32 << p)),
            })
            .collect();
        Geometry {
            shape,
            links,
            side,
            units,
            peers,
            intersections,
            cell_units,
            row_runs,
            box_cols,
            col_runs,
        }
    }

    fn full(&self) -> u32 {
        if self.side == 32 {
            u32::MAX
        } else {
            (1u32 << self.side) - 1
        }
    }
}

/// A contradiction: some cell has no candidate, or some value no place in a unit.
struct Dead;

/// One side of the exact cover, kept in step with the other.
#[cfg_attr(test, derive(Debug, PartialEq))]
struct State {
    /// Candidates of each cell (bit `v - 1` for value `v`); a placed cell keeps its value's.
    cand: Vec<u32>,
    /// Placed values, 0 when open.
    value: Vec<u8>,
    /// `places[u * side + d]`: positions inside unit `u` where value `d + 1` may still go.
    places: Vec<u32>,
    /// Values placed in each unit.
    done: Vec<u32>,
    /// Open cells.
    open: usize,
    /// Candidates left over all cells, placed ones included: how far propagation went.
    left: u32,
}

impl Clone for State {
    fn clone(&self) -> State {
        State {
            cand: self.cand.clone(),
            value: self.value.clone(),
            places: self.places.clone(),
            done: self.done.clone(),
            open: self.open,
            left: self.left,
        }
    }

    /// Copies into the buffers already there (the derived one would allocate anew): the
    /// lookahead copies a state for every probe.
    fn clone_from(&mut self, source: &State) {
        self.cand.clone_from(&source.cand);
        self.value.clone_from(&source.value);
        self.places.clone_from(&source.places);
        self.done.clone_from(&source.done);
        self.open = source.open;
        self.left = source.left;
    }
}

/// Whether `m` has exactly two bits set (without `count_ones`, which the portable build
/// does with a dozen instructions).
fn two_bits(m: u32) -> bool {
    let rest = m & m.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Work found by a removal: a cell left with one candidate, or a unit and value left with
/// one place (encoded as `cells + (unit << 5 | value)`: no division to decode it).
type Job = u32;

/// The propagation engine: the geometry and the queue of pending singles.
struct Engine<'g> {
    g: &'g Geometry,
    queue: Vec<Job>,
    /// With `LOG`: each candidate removed, as `cell << 5 | d`, so that a probe can be undone
    /// without a copy of the state. The lookahead keeps a pass's probes here, one run each:
    /// what a probe removed, read back where it was logged.
    trail: Vec<u32>,
    /// With `LOG`: each cell given a value.
    assigned: Vec<u16>,
}

impl<'g> Engine<'g> {
    fn new(g: &'g Geometry) -> Engine<'g> {
        Engine {
            g,
            queue: Vec::new(),
            trail: Vec::new(),
            assigned: Vec::new(),
        }
    }

    /// Puts back the removals logged in `trail` from `from` on (they stay logged) and the
    /// placements in `assigned` (emptied): `st` is again as it was when `trail` was `from`
    /// long and `assigned` empty. Only bits are set back, so the order
    /// does not matter, nor does a removal cut short by a contradiction (its places bits
    /// were still set, and a candidate's places bits are set exactly when it is).
    fn undo(&mut self, st: &mut State, from: usize) {
        for &e in &self.trail[from..] {
            let (cell, d) = ((e >> 5) as usize, (e & 31) as usize);
            st.cand[cell] |= 1 << d;
            let link = &self.g.links[cell];
            for k in 0..3 {
                st.places[link.base[k] as usize + d] |= !link.clear[k];
            }
        }
        st.left += (self.trail.len() - from) as u32;
        for &cell in &self.assigned {
            let cell = usize::from(cell);
            let bit = 1u32 << (st.value[cell] - 1);
            for &u in &self.g.cell_units[cell] {
                st.done[u as usize] &= !bit;
            }
            st.value[cell] = 0;
        }
        st.open += self.assigned.len();
        self.assigned.clear();
    }

    fn new_state(&self) -> State {
        let n = self.g.side;
        let all_places = self.g.full();
        State {
            cand: vec![self.g.full(); n * n],
            value: vec![0; n * n],
            places: vec![all_places; 3 * n * n],
            done: vec![0; 3 * n],
            open: n * n,
            left: (n * n * n) as u32,
        }
    }

    /// Removes value `d + 1` from `cell`. Inlined everywhere: it is most of the work (40%
    /// of a 25x25 generation's instructions), and a call's prologue was a sixth of it.
    #[inline(always)]
    fn eliminate<const LOG: bool>(
        &mut self,
        st: &mut State,
        cell: usize,
        d: usize,
    ) -> Result<(), Dead> {
        let bit = 1u32 << d;
        let m = st.cand[cell];
        if m & bit == 0 {
            return Ok(());
        }
        let m = m ^ bit;
        st.cand[cell] = m;
        st.left -= 1;
        if LOG {
            self.trail.push((cell << 5 | d) as u32);
        }
        if m == 0 {
            return Err(Dead);
        }
        if m & (m - 1) == 0 {
            self.queue.push(cell as Job);
        }
        let cells = st.cand.len();
        let link = &self.g.links[cell];
        for k in 0..3 {
            let i = link.base[k] as usize + d;
            let p = st.places[i] & link.clear[k];
            st.places[i] = p;
            if st.done[link.unit[k] as usize] & bit == 0 {
                if p == 0 {
                    return Err(Dead);
                }
                if p & (p - 1) == 0 {
                    self.queue
                        .push((cells + (usize::from(link.unit[k]) << 5 | d)) as Job);
                }
            }
        }
        Ok(())
    }

    /// Places value `d + 1` in `cell`, removing it from the peers.
    fn assign<const LOG: bool>(
        &mut self,
        st: &mut State,
        cell: usize,
        d: usize,
    ) -> Result<(), Dead> {
        let bit = 1u32 << d;
        if st.cand[cell] & bit == 0 {
            return Err(Dead);
        }
        if st.value[cell] != 0 {
            return Ok(());
        }
        st.value[cell] = d as u8 + 1;
        st.open -= 1;
        if LOG {
            self.assigned.push(cell as u16);
        }
        for &u in &self.g.cell_units[cell] {
            st.done[u as usize] |= bit;
        }
        let mut others = st.cand[cell] & !bit;
        while others != 0 {
            let e = others.trailing_zeros() as usize;
            others &= others - 1;
            self.eliminate::<LOG>(st, cell, e)?;
        }
        // The peers that still have the value are the other places of it in the 3 units.
        let link = self.g.links[cell];
        for k in 0..3 {
            let rest = st.places[link.base[k] as usize + d] & link.clear[k];
            self.clear_places::<LOG>(st, link.unit[k] as usize, d, rest)?;
        }
        Ok(())
    }

    /// Places every pending single.
    fn drain<const LOG: bool>(&mut self, st: &mut State) -> Result<(), Dead> {
        let cells = st.cand.len();
        let n = self.g.side;
        while let Some(job) = self.queue.pop() {
            let job = job as usize;
            if job < cells {
                if st.value[job] == 0 {
                    let d = st.cand[job].trailing_zeros() as usize;
                    self.assign::<LOG>(st, job, d)?;
                }
            } else {
                let (u, d) = ((job - cells) >> 5, (job - cells) & 31);
                let i = u * n + d;
                if st.done[u] & (1 << d) == 0 {
                    let p = st.places[i];
                    if p == 0 {
                        return Err(Dead);
                    }
                    let cell = self.g.units[u][p.trailing_zeros() as usize] as usize;
                    self.assign::<LOG>(st, cell, d)?;
                }
            }
        }
        Ok(())
    }

    /// Clears `d + 1` from the cells of unit `u` at the positions `rest`.
    fn clear_places<const LOG: bool>(
        &mut self,
        st: &mut State,
        u: usize,
        d: usize,
        rest: u32,
    ) -> Result<(), Dead> {
        let mut rest = rest;
        while rest != 0 {
            let pos = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let cell = self.g.units[u][pos] as usize;
            self.eliminate::<LOG>(st, cell, d)?;
        }
        Ok(())
    }

    /// Locked candidates between boxes and lines; whether any candidate was cleared.
    fn locked(&mut self, st: &mut State) -> Result<bool, Dead> {
        let g = self.g;
        let n = g.side;
        let (br, bc) = (g.shape.box_rows(), g.shape.box_cols());
        let full = g.full();
        let mut any = false;
        // Pointing: a value's places in a box on one row (or column) of the box.
        for b in 0..n {
            let u = 2 * n + b;
            let (bi, bj) = (b / br, b % br);
            let mut todo = !st.done[u] & full;
            while todo != 0 {
                let d = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let p = st.places[u * n + d];
                if p & p.wrapping_sub(1) == 0 {
                    continue;
                }
                if let Some(k) = g.row_runs.iter().position(|&m| p & !m == 0) {
                    let r = bi * br + k;
                    let rest = st.places[r * n + d] & !g.row_runs[bj];
                    if rest != 0 {
                        any = true;
                        self.clear_places::<false>(st, r, d, rest)?;
                    }
                } else if let Some(k) = g.box_cols.iter().position(|&m| p & !m == 0) {
                    let c = n + bj * bc + k;
                    let rest = st.places[c * n + d] & !g.col_runs[bi];
                    if rest != 0 {
                        any = true;
                        self.clear_places::<false>(st, c, d, rest)?;
                    }
                }
            }
        }
        // Claiming: a value's places in a line inside one box.
        for line in 0..2 * n {
            let is_row = line < n;
            let runs = if is_row { &g.row_runs } else { &g.col_runs };
            let mut todo = !st.done[line] & full;
            while todo != 0 {
                let d = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let p = st.places[line * n + d];
                if p & p.wrapping_sub(1) == 0 {
                    continue;
                }
                let Some(j) = runs.iter().position(|&m| p & !m == 0) else {
                    continue;
                };
                let (b, keep) = if is_row {
                    (line / br * br + j, g.row_runs[line % br])
                } else {
                    let c = line - n;
                    (j * br + c / bc, g.box_cols[c % bc])
                };
                let u = 2 * n + b;
                let rest = st.places[u * n + d] & !keep;
                if rest != 0 {
                    any = true;
                    self.clear_places::<false>(st, u, d, rest)?;
                }
            }
        }
        Ok(any)
    }

    fn propagate(&mut self, st: &mut State) -> Result<(), Dead> {
        loop {
            if let Err(dead) = self.drain::<false>(st) {
                self.queue.clear();
                return Err(dead);
            }
            if st.open == 0 {
                return Ok(());
            }
            match self.locked(st) {
                Ok(true) => {}
                Ok(false) => return Ok(()),
                Err(dead) => {
                    self.queue.clear();
                    return Err(dead);
                }
            }
        }
    }

    /// The placement to try next, as (cell, value index): from the open cell with the
    /// fewest candidates, or the unit and value with the fewest places, whichever is
    /// smaller. With `rng`, a random one of that choice's alternatives.
    fn choose<R: Rng>(&self, st: &State, rng: Option<&mut R>) -> (usize, usize) {
        let n = self.g.side;
        let mut best = (u32::MAX, 0usize, false);
        let mut best_degree = 0;
        let open_in = |u: u16| n as u32 - st.done[u as usize].count_ones();
        for (cell, &m) in st.cand.iter().enumerate() {
            if st.value[cell] == 0 {
                let k = m.count_ones();
                if k <= best.0 {
                    let [a, b, c] = self.g.cell_units[cell];
                    let degree = open_in(a) + open_in(b) + open_in(c);
                    if k < best.0 || degree > best_degree {
                        best = (k, cell, false);
                        best_degree = degree;
                    }
                }
            }
        }
        if best.0 > 2 {
            let full = self.g.full();
            'units: for u in 0..3 * n {
                let mut todo = !st.done[u] & full;
                while todo != 0 {
                    let d = todo.trailing_zeros() as usize;
                    todo &= todo - 1;
                    let k = st.places[u * n + d].count_ones();
                    if k < best.0 {
                        best = (k, u * n + d, true);
                        if k == 2 {
                            break 'units;
                        }
                    }
                }
            }
        }
        let (k, at, by_unit) = best;
        let pick = |m: u32, rng: Option<&mut R>| {
            let skip = rng.map_or(0, |r| r.random_range(0..k));
            let mut m = m;
            for _ in 0..skip {
                m &= m - 1;
            }
            m.trailing_zeros() as usize
        };
        if by_unit {
            let (u, d) = (at / n, at % n);
            let pos = pick(st.places[at], rng);
            (self.g.units[u][pos] as usize, d)
        } else {
            (at, pick(st.cand[at], rng))
        }
    }
}

struct Search<'a, 'g, R> {
    engine: Engine<'g>,
    limit: u64,
    count: u64,
    guesses: u64,
    first: Option<&'a mut Vec<u8>>,
    rng: Option<&'a mut R>,
    /// A known solution whose placements are tried first at every branch.
    guide: Option<&'a [u8]>,
    /// Give up once this many guesses have been made (0: never); `aborted` then says so.
    budget: u64,
    aborted: bool,
    /// States of finished branches, kept to reuse their memory.
    spare: Vec<State>,
    /// Two-way choices found by [`Search::lookahead`] (kept to reuse their memory).
    pairs: Vec<[(usize, usize); 2]>,
    /// Candidates removed by probing each placement (`cell * side + value`).
    probed: Vec<u32>,
    /// Where each probed placement's removals start in `engine.trail`.
    outcome_at: Vec<u32>,
    /// The slots of `probed` set in the current pass.
    probed_slots: Vec<u32>,
    /// How probes are undone.
    probing: Probing,
    /// `stamps[cell << 5 | d] == stamp`: removed by the first side of the pair at hand.
    /// (Bytes: 20 KB for 25x25, cleared every 255 pairs.)
    stamps: Vec<u8>,
    stamp: u8,
    /// What both sides of the pair at hand remove (kept to reuse its memory).
    common: Vec<u32>,
    /// Placements that propagate alike (with [`Probing::Trail`] only).
    classes: Classes,
}

impl<'a, 'g, R: Rng> Search<'a, 'g, R> {
    /// A search for one solution, with no guide, no randomness and nothing kept.
    fn new(engine: Engine<'g>, probing: Probing) -> Search<'a, 'g, R> {
        Search {
            engine,
            limit: 1,
            count: 0,
            guesses: 0,
            first: None,
            rng: None,
            guide: None,
            budget: 0,
            aborted: false,
            spare: Vec::new(),
            pairs: Vec::new(),
            probed: Vec::new(),
            outcome_at: Vec::new(),
            probed_slots: Vec::new(),
            probing,
            stamps: Vec::new(),
            stamp: 0,
            common: Vec::new(),
            classes: Classes::default(),
        }
    }

    fn search(&mut self, st: &mut State) {
        loop {
            if self.engine.propagate(st).is_err() {
                return;
            }
            if st.open == 0 {
                self.count += 1;
                if self.count == 1
                    && let Some(out) = self.first.as_deref_mut()
                {
                    out.clone_from(&st.value);
                }
                return;
            }
            let (cell, d) = match self.lookahead(st) {
                Err(Dead) => {
                    self.engine.queue.clear();
                    return;
                }
                Ok(None) => continue,
                Ok(Some(lit)) => lit,
            };
            if self.guesses == self.budget && self.budget != 0 {
                self.aborted = true;
                return;
            }
            self.guesses += 1;
            let mut child = self.spare.pop().unwrap_or_else(|| st.clone());
            child.clone_from(st);
            if self.engine.assign::<false>(&mut child, cell, d).is_ok() {
                self.search(&mut child);
            } else {
                self.engine.queue.clear();
            }
            self.spare.push(child);
            if self.count >= self.limit || self.aborted {
                return;
            }
            if self.engine.eliminate::<false>(st, cell, d).is_err() {
                self.engine.queue.clear();
                return;
            }
        }
    }
}

const UNPROBED: u32 = u32::MAX;

/// The placements of a lookahead pass that propagate to the same state, so that one
/// probe serves them all. Each two-way choice is a yes-or-no variable (its first side, or
/// its second); a placement that sides two choices (a cell's value that is also one of
/// two places of that value in a unit) ties them: the other side of one holds exactly
/// when the other side of the other does, each following from the other by one single.
/// So the choices fall into classes, each choice's sides in one or the other of its
/// class's two halves, and every placement in a half gives the same propagation.
#[derive(Debug, Default)]
struct Classes {
    /// Union-find over the choices: parent, and whether a choice's first side is in the
    /// other half from its parent's first side.
    parent: Vec<u32>,
    flip: Vec<bool>,
    /// `seen[cell << 5 | d]`: the choice and side where a placement first turned up, as
    /// `choice << 1 | side`, or [`UNPROBED`].
    seen: Vec<u32>,
    seen_slots: Vec<u32>,
    /// For each half (`root << 1 | half`): the placement probed for it and the epoch of
    /// the pass it was probed in.
    probed: Vec<(u32, u32)>,
}

impl Classes {
    /// Links the choices of a pass on a board of `cells` cells.
    fn link(&mut self, pairs: &[[(usize, usize); 2]], cells: usize) {
        let slots = cells << 5;
        let n = pairs.len();
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.flip.clear();
        self.flip.resize(n, false);
        self.probed.clear();
        self.probed.resize(2 * n, (UNPROBED, 0));
        if self.seen.len() != slots {
            self.seen.clear();
            self.seen.resize(slots, UNPROBED);
            self.seen_slots.clear();
        }
        for slot in self.seen_slots.drain(..) {
            self.seen[slot as usize] = UNPROBED;
        }
        for (k, pair) in pairs.iter().enumerate() {
            for (i, &(cell, d)) in pair.iter().enumerate() {
                let slot = cell << 5 | d;
                let first = self.seen[slot];
                if first == UNPROBED {
                    self.seen[slot] = (k as u32) << 1 | i as u32;
                    self.seen_slots.push(slot as u32);
                } else {
                    let (k2, i2) = ((first >> 1) as usize, (first & 1) as usize);
                    self.union(k, k2, (i ^ i2) == 1);
                }
            }
        }
    }

    /// The root of choice `k`, and whether `k`'s first side is in the root's other half.
    fn find(&mut self, k: usize) -> (usize, bool) {
        let mut flip = false;
        let mut r = k;
        while self.parent[r] as usize != r {
            flip ^= self.flip[r];
            r = self.parent[r] as usize;
        }
        // Point `k` straight at the root (paths are short; one step is enough).
        self.parent[k] = r as u32;
        self.flip[k] = flip;
        (r, flip)
    }

    /// Records that the first side of `a` is in the other half from `b`'s exactly when
    /// `flip`.
    fn union(&mut self, a: usize, b: usize, flip: bool) {
        let (ra, fa) = self.find(a);
        let (rb, fb) = self.find(b);
        if ra != rb {
            self.parent[ra] = rb as u32;
            self.flip[ra] = fa ^ fb ^ flip;
        }
    }

    /// The half of side `i` of choice `k`.
    fn class(&mut self, k: usize, i: usize) -> usize {
        let (r, flip) = self.find(k);
        r << 1 | (usize::from(flip) ^ i)
    }
}

/// How a lookahead probe leaves the state as it found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Probing {
    /// In a scratch copy of the whole state (10.7 KB for 25x25, copied for every probe,
    /// and what it removed found by comparing all the candidates): the plain way, kept as
    /// the reference the tests compare [`Probing::Trail`] with.
    #[cfg_attr(not(test), allow(dead_code))]
    Copy,
    /// In the state itself, logging each change and undoing the log: a probe costs what
    /// it removes, not the size of the board. One probe serves every placement of its
    /// [`Classes`] half while the state is unchanged (the plain way probes each).
    Trail,
}

impl<R: Rng> Search<'_, '_, R> {
    /// Propagates the placement of `d + 1` in `cell` (singles only) and appends every
    /// candidate it removes, as `cell << 5 | d`, to `engine.trail`; `false` when it fails
    /// (what was appended is then meaningless). `st` is left as it was; `scratch` is a
    /// spare state for [`Probing::Copy`].
    fn probe(&mut self, st: &mut State, scratch: &mut State, cell: usize, d: usize) -> bool {
        match self.probing {
            Probing::Trail => {
                let from = self.engine.trail.len();
                let ok = self.engine.assign::<true>(st, cell, d).is_ok()
                    && self.engine.drain::<true>(st).is_ok();
                self.engine.undo(st, from);
                if !ok {
                    self.engine.queue.clear();
                    self.engine.trail.truncate(from);
                }
                ok
            }
            Probing::Copy => {
                scratch.clone_from(st);
                let ok = self.engine.assign::<false>(scratch, cell, d).is_ok()
                    && self.engine.drain::<false>(scratch).is_ok();
                if !ok {
                    self.engine.queue.clear();
                    return false;
                }
                for (c, (&was, &now)) in st.cand.iter().zip(&scratch.cand).enumerate() {
                    let mut gone = was & !now;
                    while gone != 0 {
                        self.engine
                            .trail
                            .push((c << 5) as u32 | gone.trailing_zeros());
                        gone &= gone - 1;
                    }
                }
                true
            }
        }
    }
}

impl<R: Rng> Search<'_, '_, R> {
    /// Probes both sides of every two-way choice (a cell with two candidates, or a value
    /// with two places in a unit): a side whose propagation fails is removed, and so is
    /// every candidate that both sides remove. Returns a placement of the choice
    /// whose two sides remove the most candidates (the product of the two, as lookahead SAT
    /// solvers score), or of the smallest choice when none has two sides; `Ok(None)` when
    /// removals settled that choice (or the board), so the caller propagates again.
    fn lookahead(&mut self, st: &mut State) -> Result<Option<(usize, usize)>, Dead> {
        let g = self.engine.g;
        let n = g.side;
        let cells = n * n;
        let mut pairs = std::mem::take(&mut self.pairs);
        pairs.clear();
        for cell in 0..cells {
            let m = st.cand[cell];
            if st.value[cell] == 0 && two_bits(m) {
                let a = m.trailing_zeros() as usize;
                let b = (m & (m - 1)).trailing_zeros() as usize;
                pairs.push([(cell, a), (cell, b)]);
            }
        }
        let full = g.full();
        for u in 0..3 * n {
            let mut todo = !st.done[u] & full;
            while todo != 0 {
                let d = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let p = st.places[u * n + d];
                if two_bits(p) {
                    let a = g.units[u][p.trailing_zeros() as usize] as usize;
                    let b = g.units[u][(p & (p - 1)).trailing_zeros() as usize] as usize;
                    pairs.push([(a, d), (b, d)]);
                }
            }
        }
        if pairs.is_empty() {
            self.pairs = pairs;
            let (cell, d) = self.engine.choose(st, self.rng.as_deref_mut());
            if let Some(gd) = self.guide {
                let v = usize::from(gd[cell]);
                if v != 0 && st.cand[cell] & (1 << (v - 1)) != 0 {
                    return Ok(Some((cell, v - 1)));
                }
            }
            return Ok(Some((cell, d)));
        }
        // Forget the last pass's probes: only the slots it set, not the whole table (whose
        // clearing was 8% of a 25x25 generation).
        if self.probed.len() == cells * n {
            for slot in self.probed_slots.drain(..) {
                self.probed[slot as usize] = UNPROBED;
            }
        } else {
            self.probed.clear();
            self.probed.resize(cells * n, UNPROBED);
            self.outcome_at.resize(cells * n, UNPROBED);
            self.probed_slots.clear();
            self.stamps.clear();
            self.stamps.resize(cells << 5, 0);
        }
        self.engine.trail.clear();
        if self.probing == Probing::Trail {
            self.classes.link(&pairs, cells);
        }
        // Bumped at every removal of the pass: a probe's result stands for its class only
        // in the state it was made in.
        let mut epoch = 0u32;
        let mut scratch = self.spare.pop().unwrap_or_else(|| st.clone());
        let mut best = (0u64, pairs[0][0], pairs[0][1]);
        let mut changed = false;
        let mut dead = false;
        'pairs: for (k, &[x, y]) in pairs.iter().enumerate() {
            let mut gains = [0u32; 2];
            for (i, (cell, d)) in [x, y].into_iter().enumerate() {
                if st.value[cell] != 0 || st.cand[cell] & (1 << d) == 0 {
                    // Settled by an earlier removal of this pass.
                    continue 'pairs;
                }
                let slot = cell * n + d;
                if self.probed[slot] == UNPROBED && self.probing == Probing::Trail {
                    let class = self.classes.class(k, i);
                    let (same, at) = self.classes.probed[class];
                    if at == epoch && same != UNPROBED {
                        // An equivalent placement was probed in this very state: the same
                        // propagation, so the same removals.
                        self.probed[slot] = self.probed[same as usize];
                        self.outcome_at[slot] = self.outcome_at[same as usize];
                        self.probed_slots.push(slot as u32);
                    } else {
                        self.classes.probed[class] = (slot as u32, epoch);
                    }
                }
                if self.probed[slot] == UNPROBED {
                    let at = self.engine.trail.len();
                    if !self.probe(st, &mut scratch, cell, d) {
                        epoch += 1;
                        changed = true;
                        if self.engine.eliminate::<false>(st, cell, d).is_err()
                            || self.engine.drain::<false>(st).is_err()
                        {
                            dead = true;
                            break 'pairs;
                        }
                        if st.open == 0 {
                            break 'pairs;
                        }
                        continue 'pairs;
                    }
                    self.probed[slot] = (self.engine.trail.len() - at) as u32;
                    self.probed_slots.push(slot as u32);
                    self.outcome_at[slot] = at as u32;
                }
                gains[i] = self.probed[slot];
            }
            // What both sides remove is removed whichever holds: the removals of `x` are
            // stamped, then those of `y` looked up (both lists are short; a candidate
            // removed from `st` since is skipped).
            let removed = |slot: usize| {
                let at = self.outcome_at[slot] as usize;
                at..at + self.probed[slot] as usize
            };
            let (rx, ry) = (removed(x.0 * n + x.1), removed(y.0 * n + y.1));
            self.stamp = self.stamp.wrapping_add(1);
            if self.stamp == 0 {
                self.stamps.fill(0);
                self.stamp = 1;
            }
            for &e in &self.engine.trail[rx] {
                self.stamps[e as usize] = self.stamp;
            }
            let mut common = std::mem::take(&mut self.common);
            common.clear();
            common.extend(self.engine.trail[ry].iter().copied().filter(|&e| {
                self.stamps[e as usize] == self.stamp
                    && st.cand[(e >> 5) as usize] & (1 << (e & 31)) != 0
            }));
            if !common.is_empty() {
                epoch += 1;
                changed = true;
                let ok = common.iter().all(|&e| {
                    let (cell, d) = ((e >> 5) as usize, (e & 31) as usize);
                    self.engine.eliminate::<false>(st, cell, d).is_ok()
                });
                self.common = common;
                if !ok || self.engine.drain::<false>(st).is_err() {
                    dead = true;
                    break 'pairs;
                }
                if st.open == 0 {
                    break 'pairs;
                }
                continue 'pairs;
            }
            self.common = common;
            let score =
                u64::from(gains[0]) * u64::from(gains[1]) * 1024 + u64::from(gains[0] + gains[1]);
            if score > best.0 {
                // The side that removes less first: more room, so more likely a solution.
                best = if gains[0] <= gains[1] {
                    (score, x, y)
                } else {
                    (score, y, x)
                };
            }
        }
        self.spare.push(scratch);
        self.pairs = pairs;
        if dead {
            self.engine.queue.clear();
            return Err(Dead);
        }
        let (_, x, y) = best;
        if changed
            && (st.open == 0
                || best.0 == 0
                || st.value[x.0] != 0
                || st.cand[x.0] & (1 << x.1) == 0
                || st.cand[y.0] & (1 << y.1) == 0)
        {
            return Ok(None);
        }
        if let Some(gd) = self.guide {
            let agrees = |(cell, d): (usize, usize)| usize::from(gd[cell]) == d + 1;
            return Ok(Some(if agrees(y) && !agrees(x) { y } else { x }));
        }
        let flip = self.rng.as_deref_mut().is_some_and(|r| r.random_bool(0.5));
        Ok(Some(if flip { y } else { x }))
    }
}

/// Runs search `s` on `grid`, optionally without `exclude`'s value in its cell: the
/// solutions found (up to `s.limit`) and the guesses made.
fn run<R: Rng>(grid: &Grid, mut s: Search<'_, '_, R>, exclude: Option<(usize, u8)>) -> (u64, u64) {
    let mut state = s.engine.new_state();
    for (cell, &v) in grid.cells().iter().enumerate() {
        if v != 0
            && s.engine
                .assign::<false>(&mut state, cell, v as usize - 1)
                .is_err()
        {
            return (0, 0);
        }
    }
    if let Some((cell, v)) = exclude
        && s.engine
            .eliminate::<false>(&mut state, cell, v as usize - 1)
            .is_err()
    {
        return (0, 0);
    }
    s.search(&mut state);
    (s.count, s.guesses)
}

/// Solves a board of any shape, stopping after `limit` solutions; returns the number found
/// (at most `limit`), the guesses made, and the first solution found.
pub(crate) fn solve(grid: &Grid, limit: u64) -> (u64, u64, Option<Grid>) {
    let g = Geometry::new(grid.shape());
    let mut out = Vec::new();
    let mut s = Search::<rand_chacha::ChaCha8Rng>::new(Engine::new(&g), Probing::Trail);
    s.limit = limit.max(1);
    s.first = Some(&mut out);
    let (count, guesses) = run(grid, s, None);
    let first = (count > 0).then(|| Grid::from_cells(grid.shape(), out).expect("a full board"));
    (count, guesses, first)
}

/// A solution picked at random among those of `grid` (trying a random alternative at each
/// guess), or `None` when there is none.
pub(crate) fn solve_random<R: Rng>(grid: &Grid, rng: &mut R) -> Option<Grid> {
    let g = Geometry::new(grid.shape());
    let mut out = Vec::new();
    let mut s = Search::new(Engine::new(&g), Probing::Trail);
    s.first = Some(&mut out);
    s.rng = Some(rng);
    let (count, _) = run(grid, s, None);
    (count > 0).then(|| Grid::from_cells(grid.shape(), out).expect("a full board"))
}

/// Whether `grid` has a solution without `value` in `cell` (an open cell): with `value`
/// there, the grid's one solution `known` is known, so a puzzle stays unique without that
/// clue exactly when this is false.
///
/// The search tries the known solution's placement first at every branch: the other
/// solutions keep most of its values (on a 25x25 generation, seed 1, this found the other
/// solutions with 15,040 guesses instead of 24,373; trying them last took 41,532).
pub(crate) fn solvable_without(
    g: &Geometry,
    grid: &Grid,
    cell: usize,
    value: u8,
    known: &Grid,
) -> bool {
    solvable_without_within(g, grid, cell, value, known, 0).0 == Some(true)
}

/// [`solvable_without`] making at most `budget` guesses (0: no limit): the answer, or
/// `None` when the budget ran out first, and the guesses made.
pub(crate) fn solvable_without_within(
    g: &Geometry,
    grid: &Grid,
    cell: usize,
    value: u8,
    known: &Grid,
    budget: u64,
) -> (Option<bool>, u64) {
    let mut s = Search::<rand_chacha::ChaCha8Rng>::new(Engine::new(g), Probing::Trail);
    s.guide = Some(known.cells());
    s.budget = budget;
    let mut state = s.engine.new_state();
    for (c, &v) in grid.cells().iter().enumerate() {
        if v != 0
            && s.engine
                .assign::<false>(&mut state, c, v as usize - 1)
                .is_err()
        {
            return (Some(false), 0);
        }
    }
    if s.engine
        .eliminate::<false>(&mut state, cell, value as usize - 1)
        .is_err()
    {
        return (Some(false), 0);
    }
    s.search(&mut state);
    let answer = if s.count > 0 {
        Some(true)
    } else {
        (!s.aborted).then_some(false)
    };
    (answer, s.guesses)
}

/// The number of solutions of `grid` (at most `limit`) and the guesses made, with probes
/// made the `probing` way, optionally without `exclude`'s value in its cell and guided by
/// a known solution: for the tests that compare the two ways.
#[cfg(test)]
pub(crate) fn count_with(
    grid: &Grid,
    limit: u64,
    exclude: Option<(usize, u8)>,
    guide: Option<&[u8]>,
    probing: Probing,
) -> (u64, u64) {
    let g = Geometry::new(grid.shape());
    let mut s = Search::<rand_chacha::ChaCha8Rng>::new(Engine::new(&g), probing);
    s.limit = limit.max(1);
    s.guide = guide;
    run(grid, s, exclude)
}

#[cfg(test)]
mod tests {
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// A random solution of `shape` with `blanks` cells emptied, propagated as the search
    /// would before its first lookahead; `None` when that fails.
    fn propagated<'g>(
        g: &'g Geometry,
        blanks: usize,
        rng: &mut ChaCha8Rng,
    ) -> Option<(Engine<'g>, State)> {
        let full = solve_random(&Grid::empty(g.shape), rng).unwrap();
        let mut cells: Vec<usize> = (0..g.shape.cells()).collect();
        cells.shuffle(rng);
        let mut engine = Engine::new(g);
        let mut st = engine.new_state();
        for &c in &cells[blanks..] {
            engine
                .assign::<false>(&mut st, c, usize::from(full.cells()[c]) - 1)
                .ok()?;
        }
        // A wrong value in some open cells, so that some boards have no solution.
        for &c in cells[..blanks].iter().take(rng.random_range(0..3)) {
            let m = st.cand[c];
            if st.value[c] == 0 && m.count_ones() > 1 {
                let d = m.trailing_zeros() as usize;
                engine.assign::<false>(&mut st, c, d).ok()?;
            }
        }
        engine.propagate(&mut st).ok()?;
        Some((engine, st))
    }

    /// Every placement still open, probed both ways: the same failures, the same removals,
    /// and the trail leaves the state exactly as it found it.
    #[test]
    fn trail_probes_remove_what_copied_probes_remove_and_undo_exactly() {
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let (mut probes, mut failed) = (0, 0);
        for (shape, blanks) in [
            (Shape::CLASSIC, 50..65),
            (Shape::for_side(16).unwrap(), 130..200),
            (Shape::for_side(25).unwrap(), 330..450),
        ] {
            let g = Geometry::new(shape);
            for _ in 0..6 {
                let Some((engine, mut st)) =
                    propagated(&g, rng.random_range(blanks.clone()), &mut rng)
                else {
                    continue;
                };
                let mut s = Search::<ChaCha8Rng>::new(engine, Probing::Trail);
                let mut scratch = st.clone();
                let before = st.clone();
                for cell in 0..shape.cells() {
                    let mut m = if st.value[cell] == 0 {
                        st.cand[cell]
                    } else {
                        0
                    };
                    while m != 0 {
                        let d = m.trailing_zeros() as usize;
                        m &= m - 1;
                        let mut lists = [Vec::new(), Vec::new()];
                        let mut oks = [false; 2];
                        for (i, probing) in [Probing::Trail, Probing::Copy].into_iter().enumerate()
                        {
                            s.probing = probing;
                            s.engine.trail.clear();
                            oks[i] = s.probe(&mut st, &mut scratch, cell, d);
                            lists[i] = std::mem::take(&mut s.engine.trail);
                            lists[i].sort_unstable();
                            assert_eq!(st, before, "state after a {probing:?} probe");
                        }
                        assert_eq!(oks[0], oks[1]);
                        if oks[0] {
                            assert_eq!(lists[0], lists[1]);
                        } else {
                            failed += 1;
                        }
                        probes += 1;
                    }
                }
            }
        }
        assert!(probes > 5_000, "{probes} probes");
        assert!(
            failed > 100 && failed < probes / 2,
            "{failed} of {probes} failed"
        );
    }
}
