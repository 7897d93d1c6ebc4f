//! Alpha-beta with a transposition table and iterative deepening.

use std::time::Instant;

use ply_core::{Budget, Evaluator, Fault, Game, MoveOrdering, NoOrdering, Player, Score};

use crate::negamax::terminal_score;
use crate::report::SearchReport;
use crate::tt::{Bound, Entry, TranspositionTable};

/// How deep a stored score must be before the search trusts it instead of searching again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum TtProbe {
    /// Trust entries searched at least as deep (stronger play: a deeper result is better
    /// information, so the value can differ from a plain fixed-depth search).
    #[default]
    AtLeastDepth,
    /// Trust only entries of exactly the requested depth, or entries whose subtree reached
    /// every end within that depth: the result then equals plain negamax to the letter.
    SameDepth,
}

/// Whether to search depth 1, 2, 3, ... until the budget ends, or one depth only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Deepening {
    /// Deepen until the budget runs out or the game is solved; the move of the last finished
    /// depth is played.
    #[default]
    Iterative,
    /// Search exactly `budget.max_depth` (or to the end without one).
    Fixed,
}

/// Tuning of an [`AlphaBeta`] search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Size of the transposition table in bytes; 0 turns it off.
    pub tt_bytes: usize,
    /// When to trust the table.
    pub probe: TtProbe,
    /// Iterative deepening or one fixed depth.
    pub deepening: Deepening,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            tt_bytes: 16 << 20,
            probe: TtProbe::AtLeastDepth,
            deepening: Deepening::Iterative,
        }
    }
}

/// Alpha-beta search (fail-soft negamax form) for two-seat games, generic over the game, the
/// evaluator and the move ordering.
///
/// ```
/// use ply_core::{Budget, Game, Neutral};
/// use ply_games::tictactoe::TicTacToe;
/// use ply_search::AlphaBeta;
///
/// let mut search = AlphaBeta::new(Neutral);
/// let report = search.search(&TicTacToe::start(), Budget::UNLIMITED);
/// assert_eq!(report.score, ply_core::Score::DRAW); // tic-tac-toe is a draw
/// assert!(report.exact);
/// ```
pub struct AlphaBeta<G: Game, E, O = NoOrdering> {
    eval: E,
    ordering: O,
    config: Config,
    tt: Option<TranspositionTable<G::Move>>,
    nodes: u64,
    budget: Budget,
    stopped: bool,
    move_stack: Vec<Vec<G::Move>>,
}

/// What one node's search found.
#[derive(Clone, Copy)]
struct NodeResult {
    score: Score,
    /// The subtree reached every end: no heuristic leaf.
    exact: bool,
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E, NoOrdering> {
    /// A search with the default configuration and no move ordering.
    pub fn new(eval: E) -> Self {
        Self::with(eval, NoOrdering, Config::default())
    }
}

impl<G: Game, E: Evaluator<G>, O: MoveOrdering<G>> AlphaBeta<G, E, O> {
    /// A search with the given pieces.
    pub fn with(eval: E, ordering: O, config: Config) -> Self {
        AlphaBeta {
            eval,
            ordering,
            config,
            tt: (config.tt_bytes > 0).then(|| TranspositionTable::with_bytes(config.tt_bytes)),
            nodes: 0,
            budget: Budget::UNLIMITED,
            stopped: false,
            move_stack: Vec::new(),
        }
    }

    /// Forgets the transposition table (between games).
    pub fn clear(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
    }

    /// Searches `state` within `budget` and reports the best move found.
    ///
    /// Two-seat games only.
    ///
    /// # Panics
    /// If the game has more than two seats.
    pub fn search(&mut self, state: &G, budget: Budget) -> SearchReport<G::Move> {
        assert!(G::info().seats <= 2, "alpha-beta needs a two-seat game");
        let start = Instant::now();
        self.nodes = 0;
        self.budget = budget;
        self.stopped = false;
        let mut report = SearchReport {
            best: None,
            score: Score::DRAW,
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
            elapsed: start.elapsed(),
            exact: false,
        };
        if let Some(outcome) = state.outcome() {
            report.score = terminal_score(&outcome, state.to_move(), G::info().seats, 0);
            report.exact = true;
            return report;
        }
        let limit = budget.max_depth.unwrap_or(u32::MAX);
        let depths: Box<dyn Iterator<Item = u32>> = match self.config.deepening {
            Deepening::Iterative => Box::new(1..=limit.max(1)),
            Deepening::Fixed => Box::new(std::iter::once(limit.max(1))),
        };
        let mut previous_best = None;
        for depth in depths {
            let mut pv = Vec::new();
            let alpha = -Score::INFINITY;
            let beta = Score::INFINITY;
            let Some(r) = self.node(state, depth, 0, alpha, beta, &mut pv, previous_best) else {
                break;
            };
            previous_best = pv.first().copied();
            report.best = previous_best;
            report.score = r.score;
            report.depth = depth;
            report.pv = pv;
            report.exact = r.exact;
            if r.exact {
                break;
            }
        }
        if report.best.is_none() {
            // Stopped before depth 1 finished: any legal move beats none.
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            report.best = moves.first().copied();
            report.pv = report.best.into_iter().collect();
        }
        report.nodes = self.nodes;
        report.elapsed = start.elapsed();
        report
    }

    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 1023 == 0 {
            let over_nodes = self.budget.max_nodes.is_some_and(|n| self.nodes >= n);
            if over_nodes || self.budget.expired() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    fn usable(&self, e: &Entry<G::Move>, depth: u32) -> bool {
        match self.config.probe {
            TtProbe::AtLeastDepth => e.depth >= depth || e.exact,
            TtProbe::SameDepth => e.depth == depth || (e.exact && e.depth <= depth),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        beta: Score,
        pv: &mut Vec<G::Move>,
        root_hint: Option<G::Move>,
    ) -> Option<NodeResult> {
        self.nodes += 1;
        // Depth 1 must always finish so that there is a move to play.
        if ply > 0 && self.should_stop() {
            return None;
        }
        pv.clear();
        let me = state.to_move();
        if let Some(outcome) = state.outcome() {
            let score = terminal_score(&outcome, me, G::info().seats, ply);
            return Some(NodeResult { score, exact: true });
        }
        if depth == 0 {
            let score = self.eval.evaluate(state);
            return Some(NodeResult {
                score,
                exact: false,
            });
        }

        let key = state.key();
        let mut hint = root_hint;
        if let Some(e) = self.tt.as_ref().and_then(|tt| tt.probe(key)) {
            hint = hint.or(e.best);
            if ply > 0 && self.usable(&e, depth) {
                let score = e.score.from_node(ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    pv.extend(e.best);
                    return Some(NodeResult {
                        score,
                        exact: e.exact,
                    });
                }
            }
        }

        let mut moves = self.move_stack.pop().unwrap_or_default();
        state.legal_moves(&mut moves);
        self.ordering.order(state, &mut moves);
        if let Some(h) = hint
            && let Some(i) = moves.iter().position(|&m| m == h)
        {
            moves[..=i].rotate_right(1);
        }

        let alpha_orig = alpha;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let mut exact = true;
        let mut child_pv = Vec::new();
        let mut aborted = false;
        for &mv in &moves {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let same_side = child.to_move() == me;
            let (a, b) = if same_side {
                (alpha, beta)
            } else {
                (-beta, -alpha)
            };
            let Some(r) = self.node(&child, depth - 1, ply + 1, a, b, &mut child_pv, None) else {
                aborted = true;
                break;
            };
            let v = if same_side { r.score } else { -r.score };
            exact &= r.exact;
            if v > best {
                best = v;
                best_move = Some(mv);
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&child_pv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.move_stack.push(moves);
        if aborted {
            return None;
        }

        if let Some(tt) = &mut self.tt {
            let bound = if best <= alpha_orig {
                Bound::Upper
            } else if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            tt.store(Entry {
                key,
                depth,
                score: best.to_node(ply),
                bound,
                best: best_move,
                exact,
            });
        }
        Some(NodeResult { score: best, exact })
    }
}

/// An [`AlphaBeta`] search playing as a [`Player`] with a fixed budget per move.
pub struct AlphaBetaPlayer<G: Game, E, O = NoOrdering> {
    search: AlphaBeta<G, E, O>,
    budget: Budget,
    per_move: Option<std::time::Duration>,
    name: String,
    last: Option<SearchReport<G::Move>>,
}

impl<G: Game, E: Evaluator<G>, O: MoveOrdering<G>> AlphaBetaPlayer<G, E, O> {
    /// A player that searches every move with `search`, limited by `depth` plies and/or
    /// `per_move` time (none of either: to the end of the game).
    pub fn new(
        search: AlphaBeta<G, E, O>,
        depth: Option<u32>,
        per_move: Option<std::time::Duration>,
    ) -> Self {
        AlphaBetaPlayer {
            search,
            budget: Budget {
                max_depth: depth,
                ..Budget::UNLIMITED
            },
            per_move,
            name: "alphabeta".into(),
            last: None,
        }
    }

    /// Sets the name shown in tables.
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The report of the last search.
    pub fn last_report(&self) -> Option<&SearchReport<G::Move>> {
        self.last.as_ref()
    }
}

impl<G: Game, E: Evaluator<G>, O: MoveOrdering<G>> Player<G> for AlphaBetaPlayer<G, E, O> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose(&mut self, state: &G, budget: Budget) -> Result<G::Move, Fault> {
        let deadline = match (budget.deadline, self.per_move) {
            (Some(d), Some(p)) => Some(d.min(Instant::now() + p)),
            (d, p) => d.or_else(|| p.map(|p| Instant::now() + p)),
        };
        let b = Budget {
            deadline,
            max_depth: self.budget.max_depth.or(budget.max_depth),
            max_nodes: budget.max_nodes,
        };
        let report = self.search.search(state, b);
        let best = report.best;
        self.last = Some(report);
        best.ok_or(Fault::NoOutput)
    }

    fn new_game(&mut self) {
        self.search.clear();
    }
}
