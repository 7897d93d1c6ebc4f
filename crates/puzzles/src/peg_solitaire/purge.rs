//! Package and purge (seed 001): "pre-compute a set of potential multi-peg blocks with their
//! clearing moves. Then it is possible to reduce the search from the peg-move space to the
//! block space. [...] The final solution is given by joining the best solution of several
//! packages."
//!
//! # How ply does it
//! * **Blocks** are the board seen through a window of 3x3, 3x4 or 4x3 cells, at every place
//!   where at least four of its cells are holes (cells off the board stay off).
//! * **Packages** of a block: for the pegs the window shows, every pattern the block can be
//!   brought to by jumps that stay inside the window and that removes at least two pegs,
//!   each with its clearing moves (a sequence with the fewest moves, runs of jumps by one
//!   peg, found by a 0-1 breadth-first search over pattern and last landing cell). They are
//!   computed once per block shape, off-board cells and pattern, and kept ([`PackageTable`]):
//!   the search meets the same patterns again and again.
//! * **The search in block space** is a beam search whose steps are whole packages (and the
//!   board's single jumps, so that it can always go on): each layer keeps the `width` states
//!   with the lowest contest score if one stopped there (weights left plus lifting
//!   penalties, a jump continuing the previous one's landing cell costing nothing). Every
//!   state is a possible answer; the best is rebuilt by joining its packages' jumps.
//!
//! Its answers are replayed through the contest scorer ([`super::replay_jumps`]) in the
//! tests and by `ply peg solve --packages`.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use super::board::{Geometry, Hole, Jump, Setup};

/// The block shapes searched: (rows, columns).
pub const SHAPES: [(u8, u8); 3] = [(3, 3), (3, 4), (4, 3)];

/// A package: a block pattern, the pattern it is cleared to and the clearing jumps, all in
/// window cells (`row * columns + column` inside the window).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    /// Pegs of the block before.
    pub start: u16,
    /// Pegs of the block after.
    pub end: u16,
    /// The jumps `[from, over, to]`.
    pub jumps: Vec<[u8; 3]>,
    /// Moves (runs of jumps by one peg) among them.
    pub moves: u8,
}

/// The packages of every block met so far, computed on first use.
#[derive(Debug, Default)]
pub struct PackageTable {
    memo: HashMap<((u8, u8), u16, u16), Vec<Package>>,
}

impl PackageTable {
    /// An empty table.
    pub fn new() -> PackageTable {
        PackageTable::default()
    }

    /// The packages of a `shape` block whose holes are `holes` and pegs `pegs` (window
    /// cells as bits), removing at least two pegs.
    pub fn packages(&mut self, shape: (u8, u8), holes: u16, pegs: u16) -> &[Package] {
        self.memo
            .entry((shape, holes, pegs))
            .or_insert_with(|| compute_packages(shape, holes, pegs))
    }

    /// How many (block, pattern) entries have been computed.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// Whether nothing has been computed yet.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }
}

/// The jumps inside a `shape` window whose three cells are all holes.
fn window_jumps(shape: (u8, u8), holes: u16) -> Vec<[u8; 3]> {
    let (h, w) = (shape.0 as i8, shape.1 as i8);
    let mut out = Vec::new();
    for r in 0..h {
        for c in 0..w {
            for (dr, dc) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
                let (r2, c2) = (r + 2 * dr, c + 2 * dc);
                if !(0..h).contains(&r2) || !(0..w).contains(&c2) {
                    continue;
                }
                let cell = |r: i8, c: i8| (r * w + c) as u8;
                let j = [cell(r, c), cell(r + dr, c + dc), cell(r2, c2)];
                if j.iter().all(|&b| holes >> b & 1 == 1) {
                    out.push(j);
                }
            }
        }
    }
    out
}

fn compute_packages(shape: (u8, u8), holes: u16, pegs: u16) -> Vec<Package> {
    const NONE: u8 = u8::MAX;
    let jumps = window_jumps(shape, holes);
    // 0-1 BFS over (pattern, last landing cell): a jump from the last landing cell
    // continues a move and costs nothing.
    type State = (u16, u8);
    type Reached = (u8, Option<(State, [u8; 3])>);
    let mut best: HashMap<State, Reached> = HashMap::new();
    let mut deque = std::collections::VecDeque::new();
    best.insert((pegs, NONE), (0, None));
    deque.push_back((pegs, NONE));
    while let Some(state) = deque.pop_front() {
        let (p, last) = state;
        let cost = best[&state].0;
        for &j in &jumps {
            let [f, o, t] = j;
            if p >> f & 1 == 0 || p >> o & 1 == 0 || p >> t & 1 == 1 {
                continue;
            }
            let q = p ^ (1 << f) ^ (1 << o) ^ (1 << t);
            let step = u8::from(f != last);
            let next = (q, t);
            let c = cost + step;
            if best.get(&next).is_none_or(|&(old, _)| c < old) {
                best.insert(next, (c, Some((state, j))));
                if step == 0 {
                    deque.push_front(next);
                } else {
                    deque.push_back(next);
                }
            }
        }
    }
    // The cheapest way to each end pattern.
    let mut ends: HashMap<u16, State> = HashMap::new();
    for (&state, &(c, _)) in &best {
        if state.0.count_ones() + 2 > pegs.count_ones() {
            continue;
        }
        match ends.entry(state.0) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(state);
            }
            std::collections::hash_map::Entry::Occupied(mut e) => {
                if c < best[e.get()].0 || (c == best[e.get()].0 && state < *e.get()) {
                    e.insert(state);
                }
            }
        }
    }
    let mut out: Vec<Package> = ends
        .into_iter()
        .map(|(end, mut state)| {
            let moves = best[&state].0;
            let mut jumps = Vec::new();
            while let (_, Some((prev, j))) = best[&state] {
                jumps.push(j);
                state = prev;
            }
            jumps.reverse();
            Package {
                start: pegs,
                end,
                jumps,
                moves,
            }
        })
        .collect();
    out.sort_by_key(|p| (p.end.count_ones(), p.moves, p.end));
    out
}

/// A place of a block on the board: the board bit of each window cell.
#[derive(Clone, Debug)]
struct Placement {
    shape: (u8, u8),
    bits: Vec<Option<u8>>,
    holes: u16,
}

fn placements(setup: &Setup) -> Vec<Placement> {
    let board = &setup.board;
    let mut out = Vec::new();
    for shape in SHAPES {
        let (h, w) = (shape.0 as usize, shape.1 as usize);
        if h > board.rows() || w > board.cols() {
            continue;
        }
        for r0 in 0..=board.rows() - h {
            for c0 in 0..=board.cols() - w {
                let bits: Vec<Option<u8>> = (0..h * w)
                    .map(|i| board.bit(Hole::new((r0 + i / w) as u8, (c0 + i % w) as u8)))
                    .collect();
                let holes = bits
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.is_some())
                    .fold(0u16, |m, (i, _)| m | 1 << i);
                if holes.count_ones() >= 4 {
                    out.push(Placement { shape, bits, holes });
                }
            }
        }
    }
    out
}

/// The answer of [`purge_search`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Purged {
    /// The jumps, ready for the scorer.
    pub jumps: Vec<Jump>,
    /// Their contest score.
    pub score: u64,
    /// Packages (steps clearing two or more pegs at once) in the answer.
    pub packages: usize,
    /// Single jumps in the answer.
    pub singles: usize,
    /// States expanded.
    pub nodes: u64,
    /// Distinct (block, pattern) entries of the package table computed.
    pub table: usize,
}

#[derive(Clone)]
struct Node {
    pegs: u64,
    weights: Vec<u32>,
    penalty: u64,
    left: u64,
    last_to: u8,
    parent: usize,
    step: Vec<Jump>,
}

impl Node {
    fn score(&self) -> u64 {
        self.left + self.penalty
    }

    fn play(&self, jumps: &[Jump], parent: usize) -> Node {
        let mut n = Node {
            pegs: self.pegs,
            weights: self.weights.clone(),
            penalty: self.penalty,
            left: self.left,
            last_to: self.last_to,
            parent,
            step: jumps.to_vec(),
        };
        for j in jumps {
            let w = n.weights[j.from as usize];
            if j.from != n.last_to {
                n.penalty += u64::from(w);
            }
            n.left -= u64::from(n.weights[j.over as usize]);
            n.weights[j.to as usize] = w;
            n.weights[j.from as usize] = 0;
            n.weights[j.over as usize] = 0;
            n.pegs = j.apply(n.pegs);
            n.last_to = j.to;
        }
        n
    }
}

/// Package-and-purge search for the lowest contest score from `setup`, keeping `width`
/// states a layer, with `table` holding the packages (shared between calls).
///
/// # Panics
/// If the board is not a square-grid board (the triangle's diagonal jumps leave blocks).
pub fn purge_search(setup: &Setup, width: usize, table: &mut PackageTable) -> Purged {
    assert_eq!(
        setup.board.geometry(),
        Geometry::Square,
        "blocks are square-grid windows"
    );
    let places = placements(setup);
    let root = Node {
        pegs: setup.pegs,
        weights: setup.weights.clone(),
        penalty: 0,
        left: setup.total_weight(),
        last_to: u8::MAX,
        parent: usize::MAX,
        step: Vec::new(),
    };
    let mut best = (root.score(), 0usize, 0usize);
    let mut layers: Vec<Vec<Node>> = vec![vec![root]];
    let mut nodes = 0u64;
    let mut singles = Vec::new();
    loop {
        let k = layers.len() - 1;
        let mut next: Vec<Node> = Vec::new();
        let mut index: HashMap<(u64, Vec<u32>), usize> = HashMap::new();
        for (i, node) in layers[k].iter().enumerate() {
            nodes += 1;
            let mut push = |child: Node| match index.entry((child.pegs, child.weights.clone())) {
                Entry::Vacant(e) => {
                    e.insert(next.len());
                    next.push(child);
                }
                Entry::Occupied(e) => {
                    if child.penalty < next[*e.get()].penalty {
                        next[*e.get()] = child;
                    }
                }
            };
            for place in &places {
                let pattern = place
                    .bits
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| b.is_some_and(|b| node.pegs >> b & 1 == 1))
                    .fold(0u16, |m, (c, _)| m | 1 << c);
                for package in table.packages(place.shape, place.holes, pattern) {
                    let jumps: Vec<Jump> = package
                        .jumps
                        .iter()
                        .map(|&[f, o, t]| {
                            let bit = |c: u8| place.bits[c as usize].expect("a hole");
                            Jump {
                                from: bit(f),
                                over: bit(o),
                                to: bit(t),
                            }
                        })
                        .collect();
                    push(node.play(&jumps, i));
                }
            }
            singles.clear();
            setup.board.legal_jumps(node.pegs, &mut singles);
            for &j in &singles {
                push(node.play(&[j], i));
            }
        }
        if next.is_empty() {
            break;
        }
        if next.len() > width {
            next.select_nth_unstable_by_key(width, |n| (n.score(), n.pegs));
            next.truncate(width);
        }
        for (i, n) in next.iter().enumerate() {
            if n.score() < best.0 {
                best = (n.score(), k + 1, i);
            }
        }
        layers.push(next);
    }
    // Join the packages of the best state.
    let mut steps: Vec<&[Jump]> = Vec::new();
    let (mut layer, mut i) = (best.1, best.2);
    while layer > 0 {
        let n = &layers[layer][i];
        steps.push(&n.step);
        i = n.parent;
        layer -= 1;
    }
    steps.reverse();
    let packages = steps.iter().filter(|s| s.len() >= 2).count();
    let singles = steps.len() - packages;
    Purged {
        jumps: steps.concat(),
        score: best.0,
        packages,
        singles,
        nodes,
        table: table.len(),
    }
}
