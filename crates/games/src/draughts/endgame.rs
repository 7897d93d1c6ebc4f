//! An exact solver for Draughts positions near the end: perfect play by alpha-beta to the
//! end of the game, the [endgame tables](super::tables) at the leaves they cover.
//!
//! # Scoring
//! As in the tables: the final man difference for the side to move. Its sign is ply's
//! win, draw or loss; [`SolveMode::WinLossDraw`] proves only the sign, searching the null
//! window around 0, much faster than [`SolveMode::Exact`].
//!
//! # When it is tried
//! Every move takes a man a row forward or more, so the rows the men have left to go,
//! summed over both sides ([`rows_left`]), bound the plies left, and the solve's size
//! grows with them. [`Timed`] (the bot's [`crate::Endgame`]) tries a position the
//! tables answer quickly ([`tables::PROBE_MEN`]), or one whose rows left are at most [`ROWS_LEFT`], within half the time
//! left, and gives up at that deadline, leaving the other half to the search.

use std::time::Instant;

use ply_core::{Game, Seat};

use super::board::Draughts;
use super::moves::Move;
use super::tables::{self, Tables};

/// Positions with at most this many rows left ([`rows_left`]) are tried by the bot's solver
/// ([`crate::Heuristics::endgame`], when turned on).
pub const ROWS_LEFT: u32 = 40;

const TABLE_BITS: u32 = 18;

/// What the solver proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveMode {
    /// Only whether the side to move wins, draws or loses (score -1, 0 or +1).
    WinLossDraw,
    /// The exact final man difference.
    Exact,
}

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move.
    pub best: Move,
    /// For the side to move: the final man difference ([`SolveMode::Exact`]), or its sign
    /// ([`SolveMode::WinLossDraw`]).
    pub score: i32,
    /// What was proved.
    pub mode: SolveMode,
    /// Positions visited.
    pub nodes: u64,
}

/// The rows the men of both sides have left to go to their last rows: more than the plies
/// the game can last.
pub fn rows_left(state: &Draughts) -> u32 {
    let mut rows = 0;
    for seat in [Seat::FIRST, Seat::SECOND] {
        let mut m = state.men(seat);
        while m != 0 {
            let row = m.trailing_zeros() / 8;
            m &= m - 1;
            rows += if seat == Seat::FIRST { 7 - row } else { row };
        }
    }
    rows
}

#[derive(Clone, Copy, Default)]
struct Slot {
    men: [u64; 2],
    turn: u8,
    lower: i8,
    upper: i8,
    /// Index of the best move in the generated (sorted) list, `u8::MAX` for none.
    best: u8,
}

/// The solver and its transposition table (6 MiB; keep one for many solves).
///
/// ```
/// use ply_games::draughts::{Draughts, EndgameSolver, SolveMode};
///
/// // x (player 1) to move, 2 men each; x can jump (4,3) over (5,4) to (6,5) at once, and
/// // with perfect play takes the other man too: the game ends 2 against 0.
/// let state: Draughts = "......../......../......../..x...../...x..../....o.../.o....../........ x"
///     .parse()
///     .unwrap();
/// let s = EndgameSolver::new().solve(&state, SolveMode::Exact, None).unwrap();
/// assert_eq!(s.score, 2);
/// let wld = EndgameSolver::new().solve(&state, SolveMode::WinLossDraw, None).unwrap();
/// assert_eq!(wld.score, 1);
/// ```
pub struct EndgameSolver {
    table: Vec<Slot>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
    stack: Vec<Vec<Move>>,
}

impl Default for EndgameSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl EndgameSolver {
    /// A solver with an empty table.
    pub fn new() -> EndgameSolver {
        EndgameSolver {
            table: vec![Slot::default(); 1 << TABLE_BITS],
            nodes: 0,
            deadline: None,
            stopped: false,
            stack: Vec::new(),
        }
    }

    /// Positions visited by the last solve, also when it ran out of budget.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `state` (which must have a move) in `mode`, or answers nothing if `deadline`
    /// comes first. The table is cleared first: the same position gives the same answer.
    pub fn solve(
        &mut self,
        state: &Draughts,
        mode: SolveMode,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        self.table.fill(Slot::default());
        self.solve_continuing(state, mode, deadline)
    }

    /// [`solve`](Self::solve) with the table as the solves since the last `solve` left it:
    /// its bounds are true whatever window proved them (a position is its men and the side
    /// to move, nothing of the path to it), so the score is a fresh solve's, with fewer
    /// nodes where the positions are shared (a line of best play: `ply solve --line`).
    pub fn solve_continuing(
        &mut self,
        state: &Draughts,
        mode: SolveMode,
        deadline: Option<Instant>,
    ) -> Option<Solution> {
        self.nodes = 0;
        self.deadline = deadline;
        self.stopped = false;
        let (alpha, beta) = match mode {
            SolveMode::WinLossDraw => (-1, 1),
            SolveMode::Exact => (-13, 13),
        };
        let mut moves = Vec::new();
        state.generate(&mut moves);
        order(&mut moves, None);
        let mut best: Option<(Move, i32)> = None;
        let mut a = alpha;
        for &mv in &moves {
            let mut child = *state;
            child.apply(mv);
            let v = -self.search(&child, -beta, -a);
            if self.stopped {
                return None;
            }
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((mv, v));
            }
            a = a.max(v);
            if a >= beta {
                break;
            }
        }
        let (best, score) = best?;
        Some(Solution {
            best,
            score: match mode {
                SolveMode::WinLossDraw => score.signum(),
                SolveMode::Exact => score,
            },
            mode,
            nodes: self.nodes,
        })
    }

    /// Fail-soft negamax: the value of `state` for the side to move if inside
    /// (`alpha`, `beta`), otherwise a bound on the side it falls.
    fn search(&mut self, state: &Draughts, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & 1023 == 0
            && let Some(d) = self.deadline
            && Instant::now() >= d
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(v) = tables::probe(state) {
            return v;
        }
        let me = state.turn;
        let own = state.men(me).count_ones() as i32;
        let opp = state.men(me.next(2)).count_ones() as i32;
        let mut moves = self.stack.pop().unwrap_or_default();
        state.generate(&mut moves);
        if moves.is_empty() {
            self.stack.push(moves);
            return own - opp;
        }
        // The mover ends with at most its men, the other side with none at best.
        if own <= alpha {
            self.stack.push(moves);
            return own;
        }
        let key = state.key();
        let at = (key >> (64 - TABLE_BITS)) as usize;
        let slot = self.table[at];
        let mut hint = None;
        if slot.men == state.men && slot.turn == me.index() as u8 {
            let (lower, upper) = (i32::from(slot.lower), i32::from(slot.upper));
            if lower >= beta {
                self.stack.push(moves);
                return lower;
            }
            if upper <= alpha {
                self.stack.push(moves);
                return upper;
            }
            if lower == upper {
                self.stack.push(moves);
                return lower;
            }
            hint = moves.get(usize::from(slot.best)).copied();
        }
        let alpha_orig = alpha;
        order(&mut moves, hint);
        let mut best = i32::MIN;
        let mut best_move = None;
        for &mv in &moves {
            let mut child = *state;
            child.apply(mv);
            let v = -self.search(&child, -beta, -alpha);
            if self.stopped {
                self.stack.push(moves);
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(mv);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let (lower, upper) = if best >= beta {
            (best, 12)
        } else if best <= alpha_orig {
            (-12, best)
        } else {
            (best, best)
        };
        // The list was reordered; the table keeps the index in the generated order.
        state.generate(&mut moves);
        let index = best_move
            .and_then(|b| moves.iter().position(|&m| m == b))
            .map_or(u8::MAX, |i| i as u8);
        self.table[at] = Slot {
            men: state.men,
            turn: me.index() as u8,
            lower: lower as i8,
            upper: upper as i8,
            best: index,
        };
        self.stack.push(moves);
        best
    }
}

/// The hinted move first, then captures, longest first; steps keep the legal order.
fn order(moves: &mut [Move], hint: Option<Move>) {
    moves.sort_by_key(|m| {
        if Some(*m) == hint {
            -10
        } else if m.is_capture() {
            -(m.landings().len() as i32)
        } else {
            0
        }
    });
}

/// The best move by the tables alone, for a position with at most [`tables::PROBE_MEN`]
/// men a side (and a move).
fn by_tables(state: &Draughts) -> Option<Move> {
    let mut moves = Vec::new();
    state.generate(&mut moves);
    let tables = Tables::shared();
    moves.into_iter().max_by_key(|&mv| {
        let mut child = *state;
        child.apply(mv);
        -tables.value(&child).expect("captures only remove men")
    })
}

/// The [`crate::Endgame`] of [`Draughts`]: the tables' move where they are probed
/// ([`tables::PROBE_MEN`]),
/// otherwise, with at most [`ROWS_LEFT`] rows left, a solve within half the time left (a
/// proved win or draw by its win/loss/draw move, a proved loss left to the search).
#[derive(Default)]
pub struct Timed {
    solver: Option<EndgameSolver>,
}

impl crate::Endgame<Draughts> for Timed {
    fn solve(&mut self, state: &Draughts, deadline: Instant) -> Option<Move> {
        if state.men[0].count_ones().max(state.men[1].count_ones()) <= tables::PROBE_MEN {
            return by_tables(state);
        }
        if rows_left(state) > ROWS_LEFT || state.outcome().is_some() {
            return None;
        }
        let now = Instant::now();
        let half = now + deadline.saturating_duration_since(now) / 2;
        let solver = self.solver.get_or_insert_with(EndgameSolver::new);
        let wld = solver.solve(state, SolveMode::WinLossDraw, Some(half))?;
        (wld.score >= 0).then_some(wld.best)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::tables::tests::plain;
    use super::*;

    /// A position reached by seeded random play with at most `rows` rows left and a move
    /// to make, if the game lasts that long.
    fn random_position(seed: u64, rows: u32) -> Option<Draughts> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = Draughts::start();
        let mut moves = Vec::new();
        while rows_left(&state) > rows {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                return None;
            }
            state.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        state.outcome().is_none().then_some(state)
    }

    #[test]
    fn solver_agrees_with_plain_minimax_near_the_end() {
        let mut solver = EndgameSolver::new();
        let mut kept = EndgameSolver::new();
        let mut memo = HashMap::new();
        let mut tried = 0;
        for seed in 0..300 {
            let Some(p) = random_position(seed, 22) else {
                continue;
            };
            tried += 1;
            let truth = plain(&p, &mut memo);
            let exact = solver
                .solve(&p, SolveMode::Exact, None)
                .expect("no deadline");
            assert_eq!(exact.score, truth, "{p}");
            let wld = solver
                .solve(&p, SolveMode::WinLossDraw, None)
                .expect("no deadline");
            assert_eq!(wld.score, truth.signum(), "{p}");
            // A solver that never clears its table (every earlier position's bounds, of both
            // modes, in it) answers the same.
            let kept_wld = kept
                .solve_continuing(&p, SolveMode::WinLossDraw, None)
                .unwrap();
            let kept_exact = kept.solve_continuing(&p, SolveMode::Exact, None).unwrap();
            assert_eq!(
                (kept_wld.score, kept_exact.score),
                (wld.score, truth),
                "{p}"
            );
            // The moves given reach what they claim.
            for (s, mode) in [(exact, SolveMode::Exact), (wld, SolveMode::WinLossDraw)] {
                let mut child = p;
                child.play(s.best).expect("legal");
                let v = -plain(&child, &mut memo);
                match mode {
                    SolveMode::Exact => assert_eq!(v, truth, "{p}"),
                    SolveMode::WinLossDraw => assert_eq!(v.signum(), truth.signum(), "{p}"),
                }
            }
        }
        assert!(tried > 250, "{tried}");
    }

    #[test]
    fn the_timed_solver_plays_a_winning_move_or_leaves_it_to_the_search() {
        use crate::Endgame;
        let mut memo = HashMap::new();
        let mut timed = Timed::default();
        let far = Instant::now() + std::time::Duration::from_secs(3600);
        for seed in 0..100 {
            let Some(p) = random_position(seed, 22) else {
                continue;
            };
            let truth = plain(&p, &mut memo);
            match timed.solve(&p, far) {
                Some(mv) => {
                    let mut child = p;
                    child.play(mv).expect("legal");
                    assert_eq!((-plain(&child, &mut memo)).signum(), truth.signum(), "{p}");
                }
                None => assert!(truth < 0, "{p}"),
            }
        }
        assert_eq!(Timed::default().solve(&Draughts::start(), far), None);
    }
}
