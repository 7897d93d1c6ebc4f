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

use super::board::{Jump, Setup, bits_of};
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
