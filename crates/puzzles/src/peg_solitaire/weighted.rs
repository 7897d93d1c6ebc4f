//! The contest's weighted objective: minimise the weights left plus one lifting penalty
//! (the moving peg's weight) per move. Pegs carry their weights, so a state is the pegs and
//! the weight on each.
//!
//! Two searches, and why both:
//!
//! * [`weighted_search`], a beam search over moves (whole runs of jumps by one peg): each
//!   layer keeps the `width` states with the smallest "score if we stopped now", merging
//!   states with the same pegs and weights (the future does not depend on how a state was
//!   reached, so the cheaper one suffices). Stopping is allowed anywhere, so every state is
//!   a candidate answer. When no layer ever held more than `width` states nothing was
//!   dropped: the search was exhaustive and the result is proven optimal. Fast (under a
//!   second at width 3000), but on the weighted English board it stops at 377, which is
//!   not optimal.
//! * [`prove_optimum`], an exact depth-first branch and bound, started from the beam's
//!   answer. It proved the weighted English board's optimum, **342** (17 moves, 5 pegs
//!   left), in 149 million nodes (164 s of CPU, 3 GB of table; docs/benchmarks.md).
//!
//! Decisions in the proof, and why:
//!
//! * Depth-first, not A*: the frontier of an A* would hold hundreds of millions of
//!   states; depth-first needs only the path, and the table bounds the memory.
//! * The lower bound ([`lower_bound`]) counts what each peg must pay: a peg pays its weight
//!   once per move it makes and once more if it stays, so it escapes only by being jumped
//!   over where it stands without moving. Pegs on holes that no possible future jump
//!   passes over (a fixpoint over which holes may be full or empty later; on the English
//!   board at least the eight corners) must pay; if any move is made, its last maker pays
//!   once more; and by parity classes (a peg keeps its row and column parity for ever)
//!   removing pegs of a class needs a mover of a class that can jump over it, who pays
//!   unless it pays anyway. The root bound on the English board is only 202 against 342:
//!   the proof's size comes from that gap, closed by the penalties paid along each path.
//!   Every part is checked against plain enumeration on random small boards.
//! * The transposition table is keyed exactly (the pegs, and the weight class of each peg
//!   packed into 256 bits), never by a hash alone, so a collision cannot cut a state
//!   wrongly; it is fixed-size, and a full bucket gives way to the state with more pegs
//!   (a larger subtree). A state is cut when reached again at no smaller penalty.
//! * A move by the peg that made the previous move is never tried: it is the continuation
//!   of that move's chain, which is enumerated with one penalty less.
//! * No symmetry: the weights of `magic(7)` have none.
//! * Children are searched cheapest "score if we stopped there" first, so better answers
//!   than the incumbent turn up early and tighten the cuts (on the English board: 349,
//!   then 342, in the first 134 million nodes).

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::board::{Board, Jump, Setup, bits_of};
use super::fewest::for_each_chain;

/// The weighted answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weighted {
    /// The jumps, ready for the scorer.
    pub jumps: Vec<Jump>,
    /// Their contest score.
    pub score: u64,
    /// Whether no state was dropped, so that no better score exists.
    pub optimal: bool,
    /// States expanded.
    pub nodes: u64,
}

#[derive(Clone)]
struct Node {
    pegs: u64,
    weights: Vec<u32>,
    penalty: u64,
    left: u64,
    parent: usize,
    chain: Vec<Jump>,
}

/// Beam search for the lowest contest score from `setup`, keeping `width` states a layer.
pub fn weighted_search(setup: &Setup, width: usize) -> Weighted {
    let board = &setup.board;
    let root = Node {
        pegs: setup.pegs,
        weights: setup.weights.clone(),
        penalty: 0,
        left: setup.total_weight(),
        parent: usize::MAX,
        chain: Vec::new(),
    };
    let mut layers: Vec<Vec<Node>> = vec![vec![root]];
    let mut best = (setup.total_weight(), 0usize, 0usize);
    let mut optimal = true;
    let mut nodes = 0u64;
    let mut path = Vec::new();
    loop {
        let k = layers.len() - 1;
        let mut next: Vec<Node> = Vec::new();
        let mut index: HashMap<(u64, Vec<u32>), usize> = HashMap::new();
        for (i, n) in layers[k].iter().enumerate() {
            nodes += 1;
            for peg in bits_of(n.pegs) {
                let lift = u64::from(n.weights[peg as usize]);
                for_each_chain(board, n.pegs, peg, &mut path, &mut |chain, after| {
                    let mut w = n.weights.clone();
                    for j in chain {
                        w[j.to as usize] = w[j.from as usize];
                        w[j.from as usize] = 0;
                        w[j.over as usize] = 0;
                    }
                    let left: u64 = n.left - chain_removed(&n.weights, chain);
                    let key_weights: Vec<u32> = bits_of(after).map(|b| w[b as usize]).collect();
                    let penalty = n.penalty + lift;
                    let child = Node {
                        pegs: after,
                        weights: w,
                        penalty,
                        left,
                        parent: i,
                        chain: chain.to_vec(),
                    };
                    match index.entry((after, key_weights)) {
                        Entry::Occupied(o) => {
                            if next[*o.get()].penalty > penalty {
                                next[*o.get()] = child;
                            }
                        }
                        Entry::Vacant(v) => {
                            v.insert(next.len());
                            next.push(child);
                        }
                    }
                    true
                });
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_by_key(|n| (n.penalty + n.left, n.pegs));
        if next.len() > width {
            optimal = false;
            next.truncate(width);
        }
        if let Some(n) = next.first()
            && n.penalty + n.left < best.0
        {
            best = (n.penalty + n.left, k + 1, 0);
        }
        layers.push(next);
    }
    let mut jumps = Vec::new();
    let (score, mut layer, mut i) = best;
    while layer > 0 {
        let n = &layers[layer][i];
        jumps.splice(0..0, n.chain.iter().copied());
        i = n.parent;
        layer -= 1;
    }
    Weighted {
        jumps,
        score,
        optimal,
        nodes,
    }
}

/// The weight removed by a chain that starts from weights `w` (the moving peg never jumps
/// itself, so the pegs jumped over keep their starting weights).
fn chain_removed(w: &[u32], chain: &[Jump]) -> u64 {
    chain.iter().map(|j| u64::from(w[j.over as usize])).sum()
}

/// How [`prove_optimum`] may run.
#[derive(Clone, Debug)]
pub struct ProveOptions {
    /// A known answer (its jumps; it is replayed and scored): the search looks only for
    /// strictly better ones, so a good one prunes far more. `None`: start from stopping at
    /// once (the total weight).
    pub incumbent: Option<Vec<Jump>>,
    /// Stop (unproven) after this many nodes.
    pub max_nodes: u64,
    /// Entries of the transposition table (rounded down to a power of two, at least 16;
    /// 48 bytes each).
    pub table_entries: usize,
}

impl Default for ProveOptions {
    fn default() -> ProveOptions {
        ProveOptions {
            incumbent: None,
            max_nodes: u64::MAX,
            table_entries: 1 << 20,
        }
    }
}

/// A snapshot of a running proof, for progress displays.
#[derive(Clone, Copy, Debug)]
pub struct ProveProgress {
    /// Nodes (states) visited so far.
    pub nodes: u64,
    /// The best score known so far.
    pub best: u64,
    /// Filled entries of the transposition table.
    pub table: usize,
    /// A rough estimate of the share of the tree done, from the position of the search
    /// among its siblings at the top levels (as if sibling subtrees were equal).
    pub done: f64,
}

/// The result of [`prove_optimum`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The best answer found (the incumbent if nothing beat it).
    pub jumps: Vec<Jump>,
    /// Its score.
    pub score: u64,
    /// Whether the search finished: then no answer scores less than `score`.
    pub proven: bool,
    /// Whether the search found a better answer than the incumbent.
    pub improved: bool,
    /// States visited (each counted every time it is reached and not cut by the table).
    pub nodes: u64,
    /// Lower-bound cuts (states whose cost so far plus the bound reached the best score).
    pub cuts: u64,
    /// Transposition cuts (states reached before at no greater cost).
    pub transpositions: u64,
    /// The admissible lower bound on the score at the start.
    pub root_bound: u64,
}

/// Why [`prove_optimum`] cannot run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProveError {
    /// The exact state key does not fit.
    #[error(
        "{pegs} pegs with {distinct} distinct weights do not fit the exact 256-bit state key (pegs x bits per weight <= 256)"
    )]
    TooLarge {
        /// Pegs at the start.
        pegs: u32,
        /// Distinct weights.
        distinct: usize,
    },
    /// The incumbent is not a legal jump list.
    #[error("the incumbent answer is illegal: {0}")]
    Incumbent(String),
    /// The transposition table could not be allocated.
    #[error("a table of {mb} MB could not be allocated; ask for a smaller one")]
    Memory {
        /// The table's size in MB (after rounding down to a power of two entries).
        mb: u64,
    },
}

/// Proves the lowest contest score from `setup` by depth-first branch and bound over moves.
///
/// A state is the pegs and the weight on each. The search keeps the best answer so far
/// (the incumbent, or stopping at once) and cuts a state when its penalties so far plus an
/// admissible lower bound on the rest ([`lower_bound`]) reach the best score; a
/// transposition table keyed exactly on (pegs, weight on each peg) cuts a state reached
/// again at no smaller penalty. A move by the peg that made the previous move is never
/// tried: the longer chain it would continue costs one penalty less and is enumerated.
/// `progress` is called about every million nodes and may return `false` to stop (the
/// result is then not proven).
///
/// # Errors
/// [`ProveError`] if the state key does not fit (boards with more than 32 pegs and more
/// than 256 distinct weights, roughly) or the incumbent is illegal.
pub fn prove_optimum(
    setup: &Setup,
    options: &ProveOptions,
    mut progress: impl FnMut(&ProveProgress) -> bool,
) -> Result<Proof, ProveError> {
    let mut distinct: Vec<u32> = bits_of(setup.pegs)
        .map(|b| setup.weights[b as usize])
        .collect();
    distinct.sort_unstable();
    distinct.dedup();
    let id_bits = (usize::BITS - distinct.len().max(2).saturating_sub(1).leading_zeros()).max(1);
    let pegs0 = setup.pegs.count_ones();
    if pegs0 * id_bits > 256 || distinct.len() > 255 {
        return Err(ProveError::TooLarge {
            pegs: pegs0,
            distinct: distinct.len(),
        });
    }
    let mut ids = [0u8; 64];
    for b in bits_of(setup.pegs) {
        let w = setup.weights[b as usize];
        ids[b as usize] = distinct.binary_search(&w).expect("a peg's weight") as u8;
    }
    let (best, best_path) = match &options.incumbent {
        Some(jumps) => {
            let r = super::score::replay_jumps(setup, jumps)
                .map_err(|e| ProveError::Incumbent(e.to_string()))?;
            (r.score, jumps.clone())
        }
        None => (setup.total_weight(), Vec::new()),
    };
    let mut search = Prover {
        board: &setup.board,
        bounder: Bounder::new(&setup.board),
        weight_of: distinct,
        id_bits,
        table: Table::new(options.table_entries)?,
        best,
        best_path,
        improved: false,
        path: Vec::new(),
        nodes: 0,
        cuts: 0,
        transpositions: 0,
        max_nodes: options.max_nodes,
        stopped: false,
        progress: &mut progress,
        scratch: Vec::new(),
        siblings: Vec::new(),
    };
    let root_bound = lower_bound(&setup.board, setup.pegs, |b| setup.weights[b as usize]);
    let left = setup.total_weight();
    search.dfs(setup.pegs, &ids, 0, left, None);
    Ok(Proof {
        jumps: search.best_path,
        score: search.best,
        proven: !search.stopped,
        improved: search.improved,
        nodes: search.nodes,
        cuts: search.cuts,
        transpositions: search.transpositions,
        root_bound,
    })
}

/// An admissible lower bound on the rest of the score (weights left at the end plus the
/// penalties of the moves still to come) from `pegs`, the weight of the peg on bit `b`
/// being `weight(b)`.
///
/// Write the rest of the score peg by peg: a peg pays its weight once per move it makes
/// and once more if it stays, so it pays nothing only if it is jumped over where it stands
/// without ever moving. First an over-approximation of the future: `full` holds every hole
/// that may hold a peg later, `empty` every hole that may be empty later; a jump whose
/// start and middle may be full and whose landing may be empty may happen, and then fills
/// its landing and empties its start and middle, until nothing changes. A peg whose hole is
/// the middle of no jump that may happen pays at least its weight (the English board's
/// eight corners, for instance, are the middle of no jump at all). If any move is made,
/// its maker pays at least once more than that (for its last move and its staying, or
/// twice if it could have been removed in place). So the rest costs at least the smaller
/// of stopping now (every weight) and the sure payments plus the cheapest such extra.
pub fn lower_bound(board: &Board, pegs: u64, weight: impl Fn(u8) -> u32) -> u64 {
    Bounder::new(board).bound(pegs, weight)
}

/// [`lower_bound`] with the board's parity classes precomputed.
///
/// A peg keeps its parity class (row and column mod 2) for ever, since every jump moves
/// it two holes; and a peg of class `X` can be jumped over only by a peg of a class that
/// some jump leads from to `X` (on square boards the classes of the other colour of a
/// chessboard). So if some pegs of class `X` are to be removed in place, a peg of such a
/// class must move: it pays nothing more if it pays anyway (it cannot be removed in place,
/// or its class has no peg removed in place), else its weight. The bound tries every set
/// of classes that lose pegs in place: the pegs of the other classes pay their weights,
/// and the cheapest set of movers that can remove the rest pays too.
pub struct Bounder<'a> {
    board: &'a Board,
    /// The holes of each parity class.
    class: [u64; 4],
    /// For each set of mover classes, the classes their pegs can jump over (bit sets).
    covers: [u8; 16],
}

impl<'a> Bounder<'a> {
    /// Precomputes the classes of `board`.
    pub fn new(board: &'a Board) -> Bounder<'a> {
        let class_of = |b: u8| {
            let h = board.hole(b);
            usize::from(h.row % 2) * 2 + usize::from(h.col % 2)
        };
        let mut class = [0u64; 4];
        for b in board.bits() {
            class[class_of(b)] |= 1u64 << b;
        }
        let mut covers = [0u8; 16];
        for j in board.jumps() {
            let (mover, over) = (class_of(j.from), class_of(j.over));
            for (t, c) in covers.iter_mut().enumerate() {
                if t >> mover & 1 == 1 {
                    *c |= 1 << over;
                }
            }
        }
        Bounder {
            board,
            class,
            covers,
        }
    }

    /// The bound of [`lower_bound`].
    pub fn bound(&self, pegs: u64, weight: impl Fn(u8) -> u32) -> u64 {
        self.bound_to(pegs, weight, u64::MAX)
    }

    /// The bound, except that once the plain part (without the classes) reaches `enough`
    /// it is returned at once: a search that cuts at `enough` needs no more.
    pub fn bound_to(&self, pegs: u64, weight: impl Fn(u8) -> u32, enough: u64) -> u64 {
        let board = self.board;
        let holes = board.holes();
        let mut full = pegs;
        let mut empty = holes & !pegs;
        loop {
            let (f0, e0) = (full, empty);
            for j in board.jumps() {
                if full & j.needs() == j.needs() && empty >> j.to & 1 == 1 {
                    full |= 1u64 << j.to;
                    empty |= j.needs();
                }
            }
            if (full, empty) == (f0, e0) {
                break;
            }
        }
        let mut removable = 0u64;
        let mut movable = 0u64;
        for j in board.jumps() {
            if full & j.needs() == j.needs() && empty >> j.to & 1 == 1 {
                removable |= 1u64 << j.over;
                movable |= 1u64 << j.from;
            }
        }
        let w = |b: u8| u64::from(weight(b));
        let left: u64 = bits_of(pegs).map(w).sum();
        let sure = pegs & !removable;
        let paid: u64 = bits_of(sure).map(w).sum();
        let Some(last) = bits_of(pegs & movable)
            .map(|b| w(b) * if sure >> b & 1 == 1 { 1 } else { 2 })
            .min()
        else {
            return left;
        };
        if left.min(paid + last) >= enough {
            return left.min(paid + last);
        }
        const NONE: u64 = u64::MAX / 4;
        let mut in_place = [0u64; 4];
        let mut free_mover = [false; 4];
        let mut any_mover = [false; 4];
        let mut cheapest = [NONE; 4];
        let mut classes = 0u8;
        for k in 0..4 {
            let r = pegs & removable & self.class[k];
            in_place[k] = bits_of(r).map(w).sum();
            if r != 0 {
                classes |= 1 << k;
            }
            free_mover[k] = sure & movable & self.class[k] != 0;
            any_mover[k] = pegs & movable & self.class[k] != 0;
            cheapest[k] = bits_of(r & movable).map(w).min().unwrap_or(NONE);
        }
        let mut extra = NONE;
        // `s`: the classes that lose a peg in place (not empty: that case is stopping now,
        // or paying every weight, at least `left`).
        for s in 1..16u8 {
            if s & !classes != 0 {
                continue;
            }
            let stay: u64 = (0..4)
                .filter(|k| s >> k & 1 == 0)
                .map(|k| in_place[k])
                .sum();
            let mut cost = [NONE; 4];
            for (k, c) in cost.iter_mut().enumerate() {
                if free_mover[k] || (s >> k & 1 == 0 && any_mover[k]) {
                    *c = 0;
                } else if s >> k & 1 == 1 {
                    *c = cheapest[k];
                }
            }
            let mut movers = NONE;
            for (t, &covered) in self.covers.iter().enumerate().skip(1) {
                if s & !covered == 0 {
                    let c: u64 = (0..4).filter(|k| t >> k & 1 == 1).map(|k| cost[k]).sum();
                    movers = movers.min(c);
                }
            }
            extra = extra.min((stay + movers).max(last));
        }
        left.min(paid + extra)
    }
}

/// The transposition table: exact keys (pegs and the weight class of each peg, packed),
/// the least penalty a state was searched with. Collisions replace the entry with fewer
/// pegs (a smaller subtree).
struct Table {
    slots: Vec<Slot>,
    mask: usize,
    filled: usize,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    pegs: u64,
    ids: [u64; 4],
    penalty: u64,
}

impl Table {
    /// A table of `entries` slots rounded down to a power of two (so that a memory budget
    /// divided by the entry size is kept); an error, not an abort, when the allocator
    /// refuses it.
    fn new(entries: usize) -> Result<Table, ProveError> {
        let n = 1usize << (usize::BITS - 1 - entries.max(16).leading_zeros());
        let mut slots = Vec::new();
        slots.try_reserve_exact(n).map_err(|_| ProveError::Memory {
            mb: ((n as u128 * std::mem::size_of::<Slot>() as u128) >> 20) as u64,
        })?;
        slots.resize(n, Slot::default());
        Ok(Table {
            slots,
            mask: n - 1,
            filled: 0,
        })
    }

    /// Whether the state was searched before with at most `penalty`; otherwise records it.
    fn seen(&mut self, pegs: u64, ids: [u64; 4], penalty: u64) -> bool {
        let mut h = pegs.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for &x in &ids {
            h = (h.rotate_left(23) ^ x).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        }
        h ^= h >> 31;
        let start = h as usize & self.mask;
        let mut victim = start;
        for k in 0..4 {
            let i = (start + k) & self.mask;
            let s = &mut self.slots[i];
            if s.pegs == 0 {
                *s = Slot { pegs, ids, penalty };
                self.filled += 1;
                return false;
            }
            if s.pegs == pegs && s.ids == ids {
                if s.penalty <= penalty {
                    return true;
                }
                s.penalty = penalty;
                return false;
            }
            if s.pegs.count_ones() < self.slots[victim].pegs.count_ones() {
                victim = i;
            }
        }
        if self.slots[victim].pegs.count_ones() <= pegs.count_ones() {
            self.slots[victim] = Slot { pegs, ids, penalty };
        }
        false
    }
}

/// A child of a searched state: sort key, pegs, penalty, weight left, and where its chain
/// starts in the chain buffer and how long it is.
type Child = (u64, u64, u64, u64, u32, u32);

struct Prover<'a, P> {
    board: &'a Board,
    bounder: Bounder<'a>,
    weight_of: Vec<u32>,
    id_bits: u32,
    table: Table,
    best: u64,
    best_path: Vec<Jump>,
    improved: bool,
    path: Vec<Jump>,
    nodes: u64,
    cuts: u64,
    transpositions: u64,
    max_nodes: u64,
    stopped: bool,
    progress: &'a mut P,
    /// Per jump depth (the path's length when a state is searched; strictly increasing
    /// down the recursion): the children (sort key, pegs, penalty, weight left, chain start, length)
    /// and their chains.
    scratch: Vec<(Vec<Child>, Vec<Jump>)>,
    /// Per move depth: the child being searched and the number of children.
    siblings: Vec<(u32, u32)>,
}

impl<P: FnMut(&ProveProgress) -> bool> Prover<'_, P> {
    fn done(&self) -> f64 {
        let (mut done, mut share) = (0.0, 1.0);
        for &(i, n) in &self.siblings {
            share /= f64::from(n);
            done += f64::from(i) * share;
        }
        done
    }

    fn key(&self, pegs: u64, ids: &[u8; 64]) -> [u64; 4] {
        let mut key = [0u64; 4];
        let mut at = 0u32;
        for b in bits_of(pegs) {
            let id = u64::from(ids[b as usize]);
            let (word, shift) = ((at / 64) as usize, at % 64);
            key[word] |= id << shift;
            if shift + self.id_bits > 64 {
                key[word + 1] |= id >> (64 - shift);
            }
            at += self.id_bits;
        }
        key
    }

    /// Searches from `pegs` (weight classes `ids`) after paying `penalty`, with `left` the
    /// weight on the board; `last` is where the peg that moved last stands.
    fn dfs(&mut self, pegs: u64, ids: &[u8; 64], penalty: u64, left: u64, last: Option<u8>) {
        if self.stopped {
            return;
        }
        self.nodes += 1;
        if self.nodes & 0xF_FFFF == 0 {
            let snapshot = ProveProgress {
                nodes: self.nodes,
                best: self.best,
                table: self.table.filled,
                done: self.done(),
            };
            if !(self.progress)(&snapshot) {
                self.stopped = true;
                return;
            }
        }
        if self.nodes >= self.max_nodes {
            self.stopped = true;
            return;
        }
        if penalty + left < self.best {
            self.best = penalty + left;
            self.best_path = self.path.clone();
            self.improved = true;
        }
        let weight_of = &self.weight_of;
        let enough = self.best.saturating_sub(penalty);
        let bound = self
            .bounder
            .bound_to(pegs, |b| weight_of[ids[b as usize] as usize], enough);
        if penalty + bound >= self.best {
            self.cuts += 1;
            return;
        }
        let key = self.key(pegs, ids);
        if self.table.seen(pegs, key, penalty) {
            self.transpositions += 1;
            return;
        }
        let depth = self.path.len();
        if self.scratch.len() <= depth {
            self.scratch.resize_with(depth + 1, Default::default);
        }
        let (mut children, mut chains) = std::mem::take(&mut self.scratch[depth]);
        children.clear();
        chains.clear();
        let mut run = Vec::new();
        for peg in bits_of(pegs) {
            if Some(peg) == last {
                continue;
            }
            let lift = u64::from(self.weight_of[ids[peg as usize] as usize]);
            for_each_chain(self.board, pegs, peg, &mut run, &mut |chain, after| {
                let removed: u64 = chain
                    .iter()
                    .map(|j| u64::from(weight_of[ids[j.over as usize] as usize]))
                    .sum();
                let (p, l) = (penalty + lift, left - removed);
                children.push((p + l, after, p, l, chains.len() as u32, chain.len() as u32));
                chains.extend_from_slice(chain);
                true
            });
        }
        children.sort_unstable_by_key(|c| (c.0, c.1));
        self.siblings.push((0, children.len() as u32));
        for (i, &(_, after, p, l, start, len)) in children.iter().enumerate() {
            self.siblings.last_mut().expect("pushed").0 = i as u32;
            let chain = &chains[start as usize..(start + len) as usize];
            let mut next = *ids;
            for j in chain {
                next[j.to as usize] = next[j.from as usize];
                next[j.from as usize] = 0;
                next[j.over as usize] = 0;
            }
            let at = chain.last().expect("a chain has a jump").to;
            self.path.extend_from_slice(chain);
            self.dfs(after, &next, p, l, Some(at));
            self.path.truncate(depth);
            if self.stopped {
                break;
            }
        }
        self.siblings.pop();
        self.scratch[depth] = (children, chains);
    }
}
