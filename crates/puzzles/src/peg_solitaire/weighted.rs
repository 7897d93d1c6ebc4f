//! The contest's weighted objective: minimise the weights left plus one lifting penalty
//! (the moving peg's weight) per move. Pegs carry their weights, so a state is the pegs and
//! the weight on each.
//!
//! The search is a beam search over moves (whole runs of jumps by one peg): each layer
//! keeps the `width` states with the smallest "score if we stopped now", merging states
//! with the same pegs and weights (the future does not depend on how a state was reached,
//! so the cheaper one suffices). Stopping is allowed anywhere, so every state is a
//! candidate answer. When no layer ever held more than `width` states nothing was dropped:
//! the search was exhaustive and the result is proven optimal.

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
    /// Entries of the transposition table (rounded up to a power of two; about 48 bytes
    /// each).
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
        weight_of: distinct,
        id_bits,
        table: Table::new(options.table_entries),
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
    let left: u64 = bits_of(pegs).map(|b| u64::from(weight(b))).sum();
    let sure = pegs & !removable;
    let paid: u64 = bits_of(sure).map(|b| u64::from(weight(b))).sum();
    let extra = bits_of(pegs & movable)
        .map(|b| u64::from(weight(b)) * if sure >> b & 1 == 1 { 1 } else { 2 })
        .min();
    match extra {
        Some(e) => left.min(paid + e),
        None => left,
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
    fn new(entries: usize) -> Table {
        let n = entries.max(16).next_power_of_two();
        Table {
            slots: vec![Slot::default(); n],
            mask: n - 1,
            filled: 0,
        }
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

struct Prover<'a, P> {
    board: &'a Board,
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
    scratch: Vec<(Vec<(u64, u64, u64, u64, u32, u32)>, Vec<Jump>)>,
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
        let bound = lower_bound(self.board, pegs, |b| weight_of[ids[b as usize] as usize]);
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
