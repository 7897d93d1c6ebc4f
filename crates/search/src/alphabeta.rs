//! Alpha-beta with a transposition table and iterative deepening.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ply_core::{Budget, Evaluator, Fault, Game, MoveOrdering, NoOrdering, Player, Score};

use crate::negamax::terminal_score;
use crate::report::SearchReport;
use crate::tt::{Bound, Entry, TranspositionTable, TtLayout};

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

/// How the threads of a parallel search ([`AlphaBeta::search_parallel`]) divide the work.
/// Either way they share the transposition table and their finished iterations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SmpScheme {
    /// Odd helpers search one depth ahead of the caller's thread (session 38), so that two
    /// depths are searched at once rather than one tree twice in step.
    #[default]
    Ahead,
    /// Every thread searches the same depth, and at a node of remaining depth
    /// [`DEFER_DEPTH`] or more a thread leaves for last any move (after the first) whose
    /// position another thread is searching at that moment: the idea of ABDADA (Weill,
    /// 1996), with a small shared table of the positions under search, so that two threads
    /// work on different subtrees of one iteration.
    Defer,
}

/// The least remaining depth at which [`SmpScheme::Defer`] looks for moves another thread is
/// searching: below it a subtree is too small for the look-up to pay.
pub const DEFER_DEPTH: u32 = 3;

/// Slots of the table of positions under search in [`SmpScheme::Defer`] (a power of two):
/// two threads have at most a few dozen nodes under search at once.
const BUSY_SLOTS: usize = 1 << 12;

/// Tuning of an [`AlphaBeta`] search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Size of the transposition table in bytes; 0 turns it off.
    pub tt_bytes: usize,
    /// How the table's slots are grouped: buckets of a cache line (the default) or the
    /// earlier direct-mapped table.
    pub tt_layout: TtLayout,
    /// When to trust the table.
    pub probe: TtProbe,
    /// Iterative deepening or one fixed depth.
    pub deepening: Deepening,
    /// Threads searching at once (lazy SMP, [`AlphaBeta::search_parallel`]); 1 searches on
    /// the caller's thread alone, deterministically.
    pub threads: usize,
    /// How the threads of a parallel search divide the work (nothing changes on one thread).
    pub smp: SmpScheme,
    /// Cut null-window nodes early by ProbCut where the evaluator offers it
    /// ([`Evaluator::probcut`]): a selective search, no longer equal to plain alpha-beta.
    /// Off by default; with it off, or with an evaluator that offers none, the search is
    /// exactly the plain one.
    pub probcut: bool,
    /// Try a null move at null-window nodes where the ordering offers one
    /// ([`MoveOrdering::null_move`]): the side to move passes, and if a search two plies
    /// shallower than the moves' (three from depth 7) still fails high, the node is cut.
    /// Off by default; with it off, or with an ordering that offers none, the search is
    /// exactly the plain one.
    pub null_move: bool,
    /// Search late quiet moves one ply shallower first ([`MoveOrdering::reducible`]), and
    /// again at the full depth only when they beat alpha. Off by default; with it off, or
    /// with an ordering that reduces nothing, the search is exactly the plain one.
    pub late_moves: bool,
}

/// How many plies shallower than the node's remaining depth minus one a null move is
/// searched (one more from depth 7 on, as most chess programs do).
const NULL_MOVE_R: u32 = 2;

/// The index in the ordered moves from which a reducible move is reduced: the table's move
/// and the first ones of the ordering (captures first in Taunt) keep the full depth.
const LATE_MOVE_FROM: usize = 3;

/// The least remaining depth at which late moves are reduced.
const LATE_MOVE_DEPTH: u32 = 3;

impl Default for Config {
    fn default() -> Self {
        Config {
            tt_bytes: 16 << 20,
            tt_layout: TtLayout::default(),
            probe: TtProbe::AtLeastDepth,
            deepening: Deepening::Iterative,
            threads: 1,
            smp: SmpScheme::default(),
            probcut: false,
            null_move: false,
            late_moves: false,
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
    tt: Option<Arc<TranspositionTable>>,
    nodes: u64,
    budget: Budget,
    stopped: bool,
    /// Raised by the main thread of a parallel search when it is done: helpers stop.
    halt: Option<Arc<AtomicBool>>,
    move_stack: Vec<Vec<G::Move>>,
    /// A root move that the iteration stopped by the budget had already shown to be better
    /// than the previous iteration's best (see [`AlphaBeta::deepen`]).
    root_partial: Option<G::Move>,
    /// The threads of a parallel search share their finished iterations here (`None` on one
    /// thread).
    smp: Option<Arc<Smp<G::Move>>>,
    /// This thread's place in a parallel search: 0 the caller's, 1.. the helpers'.
    thread: usize,
    /// The iteration under way.
    iteration: u32,
    /// Another thread finished the iteration under way: drop it and go deeper.
    superseded: bool,
}

/// What the threads of one parallel search share besides the table: the deepest iteration
/// any of them finished, and when to stop.
struct Smp<M> {
    /// The search is over (the caller returned, or a thread finished the last depth or an
    /// exact value): every thread stops.
    done: AtomicBool,
    /// The depth of `best`, read without the lock by the threads deciding what to search.
    finished: AtomicU32,
    /// The deepest finished iteration of any thread (an exact one before any other).
    best: Mutex<Option<SearchReport<M>>>,
    /// The keys of positions some thread is searching, by a multiply's high bits
    /// ([`SmpScheme::Defer`]; empty otherwise). A slot holds the last key stored there; a
    /// collision only makes a thread defer a move it need not, or not defer one it could.
    busy: Box<[AtomicU64]>,
}

impl<M: Clone> Smp<M> {
    fn new(scheme: SmpScheme) -> Self {
        let slots = match scheme {
            SmpScheme::Ahead => 0,
            SmpScheme::Defer => BUSY_SLOTS,
        };
        Smp {
            done: AtomicBool::new(false),
            finished: AtomicU32::new(0),
            best: Mutex::new(None),
            busy: (0..slots).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    fn busy_slot(&self, key: u64) -> Option<&AtomicU64> {
        // Fibonacci hashing: the key's high bits after a multiply, so that keys that are
        // not hashes (tic-tac-toe's are the two marks' bits) still spread over the slots.
        let n = self.busy.len();
        let spread = key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BUSY_SLOTS.ilog2());
        (n > 0).then(|| &self.busy[spread as usize & (n - 1)])
    }

    /// Whether another thread is searching the position of `key`.
    fn is_busy(&self, key: u64) -> bool {
        self.busy_slot(key)
            .is_some_and(|s| s.load(Ordering::Relaxed) == key)
    }

    /// Marks the position of `key` as under search.
    fn enter(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            s.store(key, Ordering::Relaxed);
        }
    }

    /// Clears the mark of `key`, unless another position took its slot since.
    fn leave(&self, key: u64) {
        if let Some(s) = self.busy_slot(key) {
            let _ = s.compare_exchange(key, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    /// Offers a finished iteration; kept when it is deeper than the one held (or exact where
    /// that is not).
    fn offer(&self, report: &SearchReport<M>, last: bool) {
        let mut best = self
            .best
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let better = best.as_ref().is_none_or(|b| {
            (report.exact && !b.exact) || (report.exact == b.exact && report.depth > b.depth)
        });
        if better {
            self.finished.store(report.depth, Ordering::Relaxed);
            *best = Some(report.clone());
        }
        if last || report.exact {
            self.done.store(true, Ordering::Relaxed);
        }
    }

    /// The deepest finished iteration's best move.
    fn best_move(&self) -> Option<M> {
        let best = self
            .best
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        best.as_ref().and_then(|b| b.best.clone())
    }
}

/// Whether (alpha, beta) is a null window between two estimates, not proven ends: where the
/// selective cuts (ProbCut, the null move) may apply.
fn estimated_null_window(alpha: Score, beta: Score) -> bool {
    beta.0 == alpha.0.saturating_add(1) && !alpha.is_proven() && !beta.is_proven()
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
            tt: (config.tt_bytes > 0).then(|| {
                Arc::new(TranspositionTable::with_layout(
                    config.tt_bytes,
                    config.tt_layout,
                ))
            }),
            nodes: 0,
            budget: Budget::UNLIMITED,
            stopped: false,
            halt: None,
            move_stack: Vec::new(),
            root_partial: None,
            smp: None,
            thread: 0,
            iteration: 0,
            superseded: false,
        }
    }

    /// Stops the search, as its budget would, once `flag` is raised from any thread: for a
    /// caller watching what a budget cannot say (`ply bot` ends its search earlier when its
    /// process is starved of the CPU). The flag is read at every node.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.halt = Some(flag);
    }

    /// Forgets the transposition table (between games).
    pub fn clear(&mut self) {
        if let Some(tt) = &self.tt {
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
        if let Some(tt) = &self.tt {
            // Ages the entries of earlier searches (of a table kept between moves). The
            // helpers of a parallel search never call this: one bump a search.
            tt.new_search();
        }
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
        self.deepen(state, 1, &mut report);
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

    /// Iterative deepening (or the fixed depth) from `first`, the report updated after every
    /// finished depth.
    ///
    /// When the budget stops a depth part-way, its work is not all lost: the root searches the
    /// last depth's best move first, so any later move that already scored above it (or failed
    /// high over it in the null window) is better at the deeper depth, and is played instead
    /// (the report's depth and score stay those of the last finished depth, its line is the
    /// one move). A contest bot with a fixed time a move stops mid-depth at every move, often
    /// after most of the root's moves.
    ///
    /// In a parallel search ([`AlphaBeta::search_parallel`]) every thread offers each depth
    /// it finishes to the others, and goes on at the depth after the deepest any thread
    /// finished (odd helpers one further), dropping an iteration that another thread
    /// finished first.
    fn deepen(&mut self, state: &G, first: u32, report: &mut SearchReport<G::Move>) {
        let limit = self.budget.max_depth.unwrap_or(u32::MAX).max(1);
        let mut depth = match self.config.deepening {
            Deepening::Iterative => first.min(limit),
            Deepening::Fixed => limit,
        };
        let mut previous_best = None;
        while depth <= limit {
            let mut pv = Vec::new();
            let alpha = -Score::INFINITY;
            let beta = Score::INFINITY;
            self.root_partial = None;
            self.iteration = depth;
            self.superseded = false;
            let Some(r) = self.node(state, depth, 0, alpha, beta, &mut pv, previous_best, true)
            else {
                if self.superseded && !self.stopped && depth < limit {
                    previous_best = self.smp.as_ref().and_then(|s| s.best_move());
                    depth = self.next_depth(depth).min(limit);
                    continue;
                }
                if let Some(mv) = self.root_partial.take() {
                    report.best = Some(mv);
                    report.pv = vec![mv];
                }
                break;
            };
            previous_best = pv.first().copied();
            report.best = previous_best;
            report.score = r.score;
            report.depth = depth;
            report.pv = pv;
            report.exact = r.exact;
            if let Some(smp) = &self.smp {
                smp.offer(report, depth == limit);
            }
            if r.exact || depth >= limit {
                break;
            }
            // A thread whose next depth would pass the last one helps with the last one.
            depth = self.next_depth(depth).min(limit);
        }
    }

    /// The iteration after `depth`: the next one on a single thread; in a parallel search
    /// the one after the deepest that any thread finished, one further for odd helpers (the
    /// caller's thread and a helper then search two depths at once, the helper's answer
    /// ready when it finishes first).
    fn next_depth(&self, depth: u32) -> u32 {
        match (&self.smp, self.config.deepening) {
            (Some(smp), Deepening::Iterative) => {
                let finished = smp.finished.load(Ordering::Relaxed);
                depth.max(finished) + 1 + self.ahead()
            }
            _ => depth + 1,
        }
    }

    /// How many depths ahead of the caller's thread this thread searches.
    fn ahead(&self) -> u32 {
        match self.config.smp {
            SmpScheme::Ahead => (self.thread % 2) as u32,
            SmpScheme::Defer => 0,
        }
    }

    fn should_stop(&mut self) -> bool {
        if self.stopped || self.superseded {
            return true;
        }
        if self
            .halt
            .as_ref()
            .is_some_and(|h| h.load(Ordering::Relaxed))
        {
            self.stopped = true;
            return true;
        }
        if let Some(smp) = &self.smp
            && smp.done.load(Ordering::Relaxed)
        {
            self.stopped = true;
            return true;
        }
        if self.nodes & 1023 == 0 {
            let over_nodes = self.budget.max_nodes.is_some_and(|n| self.nodes >= n);
            if over_nodes || self.budget.expired() {
                self.stopped = true;
            }
            if let Some(smp) = &self.smp {
                self.superseded = smp.finished.load(Ordering::Relaxed) >= self.iteration;
            }
        }
        self.stopped || self.superseded
    }

    fn usable(&self, e: &Entry, depth: u32) -> bool {
        match self.config.probe {
            TtProbe::AtLeastDepth => e.depth >= depth || e.exact,
            TtProbe::SameDepth => e.depth == depth || (e.exact && e.depth <= depth),
        }
    }

    /// ProbCut at a null-window node: `Some(Some(bound))` when a shallow search predicts
    /// with the evaluator's confidence that the deep one fails high (the bound is `beta`) or
    /// low (`alpha`), `Some(None)` when the search was stopped, `None` when the node must be
    /// searched fully.
    fn probcut(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        pv: &mut Vec<G::Move>,
    ) -> Option<Option<NodeResult>> {
        if !estimated_null_window(alpha, beta) {
            return None;
        }
        let p = self.eval.probcut(state, depth)?;
        if p.shallow >= depth || p.a <= 0.0 {
            return None;
        }
        let margin = p.t * p.sigma;
        let bound = |v: f32| -> Option<i32> {
            let x = ((v - p.b) / p.a).round();
            (x.abs() < Score::PROVEN.0 as f32).then_some(x as i32)
        };
        let cut = |score| {
            Some(Some(NodeResult {
                score,
                exact: false,
            }))
        };
        // Fails high: the shallow search reaches the score whose prediction is beta plus the
        // margin.
        if let Some(hi) = bound(beta.0 as f32 + margin) {
            let Some(r) = self.node(
                state,
                p.shallow,
                ply,
                Score(hi - 1),
                Score(hi),
                pv,
                None,
                true,
            ) else {
                return Some(None);
            };
            if r.score >= Score(hi) {
                pv.clear();
                return cut(beta);
            }
        }
        if let Some(lo) = bound(alpha.0 as f32 - margin) {
            let Some(r) = self.node(
                state,
                p.shallow,
                ply,
                Score(lo),
                Score(lo + 1),
                pv,
                None,
                true,
            ) else {
                return Some(None);
            };
            if r.score <= Score(lo) {
                pv.clear();
                return cut(alpha);
            }
        }
        pv.clear();
        None
    }

    /// The null move at a null-window node: `Some(Some(cut))` when the side to move, passing
    /// the move to the other side ([`MoveOrdering::null_move`]), still reaches beta in a
    /// search [`NULL_MOVE_R`] plies shallower (the cut is beta, not exact), `Some(None)`
    /// when the search was stopped, `None` when the node must be searched fully. Tried only
    /// when the evaluation already reaches beta, never at a proven bound, and never for the
    /// node right after a null move (`node`'s `null_ok`).
    fn null_move(
        &mut self,
        state: &G,
        depth: u32,
        ply: u32,
        alpha: Score,
        beta: Score,
        pv: &mut Vec<G::Move>,
    ) -> Option<Option<NodeResult>> {
        if depth < 2 || !estimated_null_window(alpha, beta) {
            return None;
        }
        let passed = self.ordering.null_move(state, depth)?;
        if passed.to_move() == state.to_move() || self.eval.evaluate(state) < beta {
            return None;
        }
        let r = NULL_MOVE_R + u32::from(depth >= 7);
        let shallow = depth.saturating_sub(1 + r);
        let found = self.node(&passed, shallow, ply + 1, -beta, -alpha, pv, None, false);
        pv.clear();
        let Some(found) = found else {
            return Some(None);
        };
        (-found.score >= beta).then_some(Some(NodeResult {
            score: beta,
            exact: false,
        }))
    }

    /// The horizon of an unfinished `state`: the evaluation, or where the ordering asks for
    /// quiescence ([`MoveOrdering::quiescence`]), the fail-soft alpha-beta form of
    /// [`quiescence`](crate::quiescence): the side to move stands on the evaluation or plays a
    /// noisy move, whichever is worth more. Nothing here goes in the table, whose entries
    /// are values at a depth: a quiescence value is part of the depth-1 value above it.
    /// `None` when the search was stopped.
    fn quiesce(
        &mut self,
        state: &G,
        ply: u32,
        mut alpha: Score,
        beta: Score,
    ) -> Option<NodeResult> {
        let mut best = self.eval.evaluate(state);
        let leaf = NodeResult {
            score: best,
            exact: false,
        };
        if !self.ordering.quiescence() || best >= beta {
            return Some(leaf);
        }
        alpha = alpha.max(best);
        let me = state.to_move();
        let mut moves = self.move_stack.pop().unwrap_or_default();
        self.ordering.noisy(state, &mut moves);
        let mut aborted = false;
        for &mv in &moves {
            self.nodes += 1;
            if self.should_stop() {
                aborted = true;
                break;
            }
            let mut child = state.clone();
            child.play_unchecked(mv);
            let v = if let Some(outcome) = child.outcome() {
                terminal_score(&outcome, me, G::info().seats, ply + 1)
            } else if child.to_move() == me {
                let Some(r) = self.quiesce(&child, ply + 1, alpha, beta) else {
                    aborted = true;
                    break;
                };
                r.score
            } else {
                let Some(r) = self.quiesce(&child, ply + 1, -beta, -alpha) else {
                    aborted = true;
                    break;
                };
                -r.score
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.move_stack.push(moves);
        (!aborted).then_some(NodeResult {
            score: best,
            exact: false,
        })
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
        null_ok: bool,
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
            return self.quiesce(state, ply, alpha, beta);
        }

        let key = state.key();
        let entry = self.tt.as_ref().and_then(|tt| tt.probe(key));
        let mut moves = self.move_stack.pop().unwrap_or_default();
        if let Some(e) = entry
            && ply > 0
            && self.usable(&e, depth)
        {
            let score = e.score.from_node(ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cut {
                // The principal variation goes on with the stored move (the ordered list's
                // i-th) just below the root; deeper, a table cut ends the line shown, since
                // generating the moves at every cut would cost more than the line is worth.
                if ply == 1
                    && let Some(i) = e.best
                {
                    self.ordering.ordered_moves(state, &mut moves);
                    pv.extend(moves.get(usize::from(i)));
                }
                self.move_stack.push(moves);
                return Some(NodeResult {
                    score,
                    exact: e.exact,
                });
            }
        }

        if self.config.probcut
            && ply > 0
            && let Some(cut) = self.probcut(state, depth, ply, alpha, beta, pv)
        {
            self.move_stack.push(moves);
            return cut;
        }

        if self.config.null_move && null_ok && ply > 0 {
            match self.null_move(state, depth, ply, alpha, beta, pv) {
                None => {}
                Some(None) => {
                    self.move_stack.push(moves);
                    return None;
                }
                Some(Some(cut)) => {
                    self.move_stack.push(moves);
                    return Some(cut);
                }
            }
        }

        self.ordering.ordered_moves(state, &mut moves);
        // The table keeps moves as indices in this ordered list; the hint (the root's move
        // from the last depth, or the table's) is tried first, and `hinted` remembers where
        // it came from to give the stored index in the list before the rotation.
        let hint = root_hint.or_else(|| {
            entry
                .and_then(|e| e.best)
                .and_then(|i| moves.get(usize::from(i)).copied())
        });
        let mut hinted = 0;
        if let Some(h) = hint
            && let Some(i) = moves.iter().position(|&m| m == h)
        {
            moves[..=i].rotate_right(1);
            hinted = i;
        }
        let ordered_index = |p: usize| -> usize {
            match p {
                0 => hinted,
                p if p <= hinted => p - 1,
                p => p,
            }
        };

        let alpha_orig = alpha;
        let mut best = -Score::INFINITY;
        let mut best_index = None;
        let mut exact = true;
        let mut child_pv = Vec::new();
        let mut aborted = false;
        // Lazy SMP with deferral: moves (after the first) that another thread is searching
        // go last, in `deferred`; `busy` is the child's key while this thread searches it.
        // (The shared state is borrowed where it is used, never cloned: an `Arc` clone per
        // node would make the threads fight over its count's cache line.)
        let defer = depth >= DEFER_DEPTH && self.smp.as_ref().is_some_and(|s| !s.busy.is_empty());
        let mut deferred: Vec<usize> = Vec::new();
        let mut k: usize = 0;
        loop {
            let p = match k.checked_sub(moves.len()) {
                None => k,
                Some(j) => match deferred.get(j) {
                    Some(&p) => p,
                    None => break,
                },
            };
            let first_pass = k < moves.len();
            k += 1;
            let mv = moves[p];
            let mut child = state.clone();
            child.play_unchecked(mv);
            let busy = defer.then(|| child.key());
            if let (Some(key), Some(s)) = (busy, &self.smp) {
                if first_pass && p > 0 && s.is_busy(key) {
                    deferred.push(p);
                    continue;
                }
                s.enter(key);
            }
            let same_side = child.to_move() == me;
            // The child's value for the mover, searched `d` plies deep in the window (lo, hi)
            // seen from here.
            let search = |this: &mut Self, d: u32, lo: Score, hi: Score, pv: &mut Vec<G::Move>| {
                let (a, b) = if same_side { (lo, hi) } else { (-hi, -lo) };
                let r = this.node(&child, d, ply + 1, a, b, pv, None, true)?;
                Some(NodeResult {
                    score: if same_side { r.score } else { -r.score },
                    exact: r.exact,
                })
            };
            // Principal variation search: after the first move, prove with a null window
            // that a move is no better than the best so far, and search it again in the full
            // window only if it is (then it is the new best, rarely with good ordering).
            // A late quiet move is first searched a ply shallower in the null window, and
            // only if it beats alpha there searched as any other move.
            let narrow = Score(alpha.0.saturating_add(1));
            let null_window = p > 0 && narrow < beta;
            let reduced = self.config.late_moves
                && null_window
                && ply > 0
                && depth >= LATE_MOVE_DEPTH
                && p >= LATE_MOVE_FROM
                && self.ordering.reducible(state, mv);
            let mut found = None;
            let mut full_depth = true;
            if reduced {
                found = search(self, depth - 2, alpha, narrow, &mut child_pv);
                full_depth = found.is_some_and(|r| r.score > alpha);
            }
            if full_depth {
                found = if null_window {
                    search(self, depth - 1, alpha, narrow, &mut child_pv)
                } else {
                    search(self, depth - 1, alpha, beta, &mut child_pv)
                };
            }
            let failed_high = null_window && found.is_some_and(|r| r.score > alpha);
            if failed_high && found.is_some_and(|r| r.score < beta) {
                found = search(self, depth - 1, alpha, beta, &mut child_pv);
            }
            if let (Some(key), Some(s)) = (busy, &self.smp) {
                s.leave(key);
            }
            let Some(r) = found else {
                if ply == 0 {
                    // Stopped at the root: a move that beat the first one (the last depth's
                    // best), fully or in the null window, is the better move at this depth.
                    self.root_partial = if failed_high {
                        Some(mv)
                    } else {
                        pv.first().copied().filter(|&m| m != moves[0])
                    };
                }
                aborted = true;
                break;
            };
            let v = r.score;
            exact &= r.exact;
            if v > best {
                best = v;
                best_index = u16::try_from(ordered_index(p)).ok();
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

        if let Some(tt) = &self.tt {
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
                best: best_index,
                exact,
            });
        }
        Some(NodeResult { score: best, exact })
    }
}

impl<G: Game, E: Evaluator<G> + Clone, O: MoveOrdering<G> + Clone> AlphaBeta<G, E, O> {
    /// [`search`](AlphaBeta::search) on [`Config::threads`] threads at once (lazy SMP, as
    /// Stockfish and most engines since 2013): every helper runs its own iterative deepening
    /// of the same position, all sharing the transposition table, so that what one finds
    /// (bounds, best moves) cuts the others' trees. The threads also share their finished
    /// iterations: each goes on at the depth after the deepest any thread finished (odd
    /// helpers one further, so that two depths are searched at once rather than one tree
    /// twice in step), drops an iteration another thread finished first, and the answer is
    /// the deepest iteration any thread finished (an exact value first), or the caller's own
    /// where it is as deep (with its move of a stopped deeper iteration, as
    /// [`search`](AlphaBeta::search) gives). The search ends when the caller's budget does,
    /// or when any thread finished the last depth or an exact value. The result depends on
    /// timing: use one thread for a reproducible game.
    ///
    /// Without a table, or with one thread, this is [`search`](AlphaBeta::search).
    pub fn search_parallel(&mut self, state: &G, budget: Budget) -> SearchReport<G::Move> {
        let threads = self.config.threads.max(1);
        if threads == 1 || self.tt.is_none() || state.outcome().is_some() {
            return self.search(state, budget);
        }
        let smp = Arc::new(Smp::new(self.config.smp));
        let helper_nodes = std::sync::atomic::AtomicU64::new(0);
        self.smp = Some(Arc::clone(&smp));
        let mut report = std::thread::scope(|scope| {
            for t in 1..threads {
                let mut helper = AlphaBeta {
                    eval: self.eval.clone(),
                    ordering: self.ordering.clone(),
                    config: self.config,
                    tt: self.tt.clone(),
                    nodes: 0,
                    budget,
                    stopped: false,
                    halt: None,
                    move_stack: Vec::new(),
                    root_partial: None,
                    smp: Some(Arc::clone(&smp)),
                    thread: t,
                    iteration: 0,
                    superseded: false,
                };
                let helper_nodes = &helper_nodes;
                scope.spawn(move || {
                    let mut ignored = SearchReport {
                        best: None,
                        score: Score::DRAW,
                        depth: 0,
                        nodes: 0,
                        pv: Vec::new(),
                        elapsed: std::time::Duration::ZERO,
                        exact: false,
                    };
                    let first = 1 + helper.ahead();
                    helper.deepen(state, first, &mut ignored);
                    helper_nodes.fetch_add(helper.nodes, Ordering::Relaxed);
                });
            }
            let report = self.search(state, budget);
            smp.done.store(true, Ordering::Relaxed);
            report
        });
        self.smp = None;
        let shared = smp
            .best
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        if let Some(b) = shared
            && ((b.exact && !report.exact) || (b.exact == report.exact && b.depth > report.depth))
        {
            report.best = b.best;
            report.score = b.score;
            report.depth = b.depth;
            report.pv = b.pv;
            report.exact = b.exact;
        }
        report.nodes += helper_nodes.load(Ordering::Relaxed);
        report
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

impl<G: Game, E: Evaluator<G> + Clone, O: MoveOrdering<G> + Clone> Player<G>
    for AlphaBetaPlayer<G, E, O>
{
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
        let report = self.search.search_parallel(state, b);
        let best = report.best;
        self.last = Some(report);
        best.ok_or(Fault::NoOutput)
    }

    fn new_game(&mut self) {
        self.search.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finished(depth: u32, exact: bool, best: u8) -> SearchReport<u8> {
        SearchReport {
            best: Some(best),
            score: Score(i32::from(best)),
            depth,
            nodes: 0,
            pv: vec![best],
            elapsed: std::time::Duration::ZERO,
            exact,
        }
    }

    #[test]
    fn the_busy_table_marks_a_position_until_its_search_leaves_it() {
        let smp = Smp::<u8>::new(SmpScheme::Defer);
        assert!(!smp.is_busy(42));
        smp.enter(42);
        assert!(smp.is_busy(42));
        // Another key of the same slot is not taken for it, nor does it clear the mark.
        let other = (0..)
            .find(|&k| {
                k != 42 && std::ptr::eq(smp.busy_slot(k).unwrap(), smp.busy_slot(42).unwrap())
            })
            .unwrap();
        assert!(!smp.is_busy(other));
        smp.leave(other);
        assert!(smp.is_busy(42));
        smp.leave(42);
        assert!(!smp.is_busy(42));
        // With odd helpers ahead there is no table: nothing is ever busy.
        let ahead = Smp::<u8>::new(SmpScheme::Ahead);
        ahead.enter(42);
        assert!(!ahead.is_busy(42));
    }

    #[test]
    fn a_move_another_thread_is_searching_is_searched_last_not_dropped() {
        use ply_games::tictactoe::{Cell, TicTacToe};
        // X on 6 and 7, O on 3 and 4, X to move: only 8 wins (any other move lets O win on
        // 5), and 8 is the last legal move. Marked as under search by another thread, it is
        // left for last at the root (depth 5 >= DEFER_DEPTH; one fixed depth, so that no
        // earlier iteration's best move is tried first) and still found.
        let mut s = TicTacToe::start();
        for i in [6, 3, 7, 4] {
            s.play_unchecked(Cell::from_index(i).unwrap());
        }
        let win = Cell::from_index(8).unwrap();
        let mut child = s;
        child.play_unchecked(win);
        for busy in [child.key(), s.key() ^ 1] {
            let config = Config {
                deepening: Deepening::Fixed,
                ..Config::default()
            };
            let mut search = AlphaBeta::with(ply_core::Neutral, NoOrdering, config);
            let smp = Arc::new(Smp::new(SmpScheme::Defer));
            smp.enter(busy);
            search.smp = Some(smp);
            let r = search.search(&s, Budget::depth(5));
            assert_eq!(r.best, Some(win));
            assert!(
                r.score.is_proven() && r.score > Score::DRAW,
                "{:?}",
                r.score
            );
        }
    }

    #[test]
    fn the_shared_answer_is_the_deepest_finished_iteration_and_an_exact_one_first() {
        let smp = Smp::new(SmpScheme::Ahead);
        smp.offer(&finished(4, false, 1), false);
        smp.offer(&finished(6, false, 2), false);
        // A shallower iteration finishing later (the caller's, behind a helper) is not kept.
        smp.offer(&finished(5, false, 3), false);
        assert_eq!(smp.best_move(), Some(2));
        assert_eq!(smp.finished.load(Ordering::Relaxed), 6);
        assert!(!smp.done.load(Ordering::Relaxed));
        // An exact value beats any depth, and ends the search.
        smp.offer(&finished(3, true, 4), false);
        assert_eq!(smp.best_move(), Some(4));
        assert!(smp.done.load(Ordering::Relaxed));
        smp.offer(&finished(9, false, 5), false);
        assert_eq!(smp.best_move(), Some(4));
        // The last depth ends the search too.
        let last = Smp::new(SmpScheme::Ahead);
        last.offer(&finished(7, false, 6), true);
        assert!(last.done.load(Ordering::Relaxed));
        assert_eq!(last.best_move(), Some(6));
    }
}
