//! Monte Carlo tree search with UCT, for any number of seats.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::{Budget, Fault, Game, Player, Score, Seat};

use crate::report::SearchReport;

/// Tuning of [`Mcts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// The exploration constant of UCB1 (sqrt 2 in the textbook).
    pub exploration: f64,
    /// Iterations when the budget sets neither nodes nor a deadline.
    pub default_iterations: u64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            default_iterations: 10_000,
        }
    }
}

struct Node<G: Game> {
    state: G,
    /// The move that led here from the parent.
    mv: Option<G::Move>,
    parent: Option<usize>,
    children: Vec<usize>,
    untried: Vec<G::Move>,
    visits: u64,
    /// Sum of payoffs for the seat that moved into this node.
    reward: f64,
}

/// UCT search: random playouts from a seeded generator, payoffs in `[0, 1]` per seat, so that
/// it plays games of any number of seats.
pub struct Mcts {
    config: MctsConfig,
    rng: ChaCha8Rng,
}

impl Mcts {
    /// A search seeded with `seed`.
    pub fn new(config: MctsConfig, seed: u64) -> Self {
        Mcts {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// Runs UCT from `state` within `budget` (nodes are iterations).
    pub fn search<G: Game>(&mut self, state: &G, budget: Budget) -> SearchReport<G::Move> {
        let start = Instant::now();
        let seats = G::info().seats;
        let mut untried = Vec::new();
        state.legal_moves(&mut untried);
        let mut tree = vec![Node {
            state: state.clone(),
            mv: None,
            parent: None,
            children: Vec::new(),
            untried,
            visits: 0,
            reward: 0.0,
        }];
        let limit = match (budget.max_nodes, budget.deadline) {
            (Some(n), _) => n,
            (None, Some(_)) => u64::MAX,
            (None, None) => self.config.default_iterations,
        };
        let mut iterations = 0;
        let mut max_depth = 0;
        let mut buf = Vec::new();
        // A finished root has neither untried moves nor children: nothing to search.
        while !(tree[0].untried.is_empty() && tree[0].children.is_empty()) {
            if iterations >= limit || (iterations > 0 && iterations & 63 == 0 && budget.expired()) {
                break;
            }
            iterations += 1;
            // Selection.
            let mut idx = 0;
            let mut depth = 0;
            while tree[idx].untried.is_empty() && !tree[idx].children.is_empty() {
                idx = self.select(&tree, idx);
                depth += 1;
            }
            // Expansion.
            if !tree[idx].untried.is_empty() {
                let k = self.rng.random_range(0..tree[idx].untried.len());
                let mv = tree[idx].untried.swap_remove(k);
                let mut child = tree[idx].state.clone();
                child.play_unchecked(mv);
                let mut untried = Vec::new();
                child.legal_moves(&mut untried);
                tree.push(Node {
                    state: child,
                    mv: Some(mv),
                    parent: Some(idx),
                    children: Vec::new(),
                    untried,
                    visits: 0,
                    reward: 0.0,
                });
                let new = tree.len() - 1;
                tree[idx].children.push(new);
                idx = new;
                depth += 1;
            }
            max_depth = max_depth.max(depth);
            // Playout.
            let mut sim = tree[idx].state.clone();
            let outcome = loop {
                if let Some(o) = sim.outcome() {
                    break o;
                }
                sim.legal_moves(&mut buf);
                let mv = buf[self.rng.random_range(0..buf.len())];
                sim.play_unchecked(mv);
            };
            // Backpropagation: each node is credited with the payoff of the seat that moved
            // into it, which is the seat to move at its parent.
            let mut cur = Some(idx);
            while let Some(i) = cur {
                tree[i].visits += 1;
                if let Some(p) = tree[i].parent {
                    let mover: Seat = tree[p].state.to_move();
                    tree[i].reward += outcome.payoff(mover, seats);
                }
                cur = tree[i].parent;
            }
        }
        let mut pv = Vec::new();
        let mut idx = 0;
        while let Some(&best) = tree[idx].children.iter().max_by_key(|&&c| tree[c].visits) {
            pv.push(tree[best].mv.expect("child has a move"));
            idx = best;
        }
        let score = pv
            .first()
            .and_then(|_| tree[0].children.iter().max_by_key(|&&c| tree[c].visits))
            .map(|&c| {
                let rate = tree[c].reward / tree[c].visits.max(1) as f64;
                Score(((rate - 0.5) * 2000.0) as i32)
            })
            .unwrap_or_default();
        SearchReport {
            best: pv.first().copied(),
            score,
            depth: max_depth,
            nodes: iterations,
            pv,
            elapsed: start.elapsed(),
            exact: false,
        }
    }

    fn select<G: Game>(&self, tree: &[Node<G>], idx: usize) -> usize {
        let ln = (tree[idx].visits.max(1) as f64).ln();
        let c = self.config.exploration;
        *tree[idx]
            .children
            .iter()
            .max_by(|&&a, &&b| {
                let ucb = |i: usize| {
                    let n = tree[i].visits.max(1) as f64;
                    tree[i].reward / n + c * (ln / n).sqrt()
                };
                ucb(a).total_cmp(&ucb(b))
            })
            .expect("selection only descends into nodes with children")
    }
}

/// [`Mcts`] as a [`Player`].
pub struct MctsPlayer {
    mcts: Mcts,
    iterations: Option<u64>,
    per_move: Option<std::time::Duration>,
}

impl MctsPlayer {
    /// A player running `iterations` playouts or `per_move` time per move (whichever ends
    /// first; neither: the configured default iterations).
    pub fn new(
        config: MctsConfig,
        seed: u64,
        iterations: Option<u64>,
        per_move: Option<std::time::Duration>,
    ) -> Self {
        MctsPlayer {
            mcts: Mcts::new(config, seed),
            iterations,
            per_move,
        }
    }
}

impl<G: Game> Player<G> for MctsPlayer {
    fn name(&self) -> String {
        "mcts".into()
    }

    fn choose(&mut self, state: &G, budget: Budget) -> Result<G::Move, Fault> {
        let deadline = match (budget.deadline, self.per_move) {
            (Some(d), Some(p)) => Some(d.min(Instant::now() + p)),
            (d, p) => d.or_else(|| p.map(|p| Instant::now() + p)),
        };
        let b = Budget {
            deadline,
            max_nodes: self.iterations.or(budget.max_nodes),
            max_depth: None,
        };
        self.mcts.search(state, b).best.ok_or(Fault::NoOutput)
    }
}
