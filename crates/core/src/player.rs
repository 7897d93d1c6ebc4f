//! Players and evaluators.

use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::{Game, Score};

/// How much a player may spend on one move. Every limit is optional; a search stops at the
/// first one it reaches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Wall-clock instant by which the move must be chosen.
    pub deadline: Option<Instant>,
    /// Deepest search, in plies.
    pub max_depth: Option<u32>,
    /// Most nodes (or MCTS iterations).
    pub max_nodes: Option<u64>,
}

impl Budget {
    /// No limit at all: search to the end (only sensible for small games).
    pub const UNLIMITED: Budget = Budget {
        deadline: None,
        max_depth: None,
        max_nodes: None,
    };

    /// A budget of `time` from now.
    pub fn time(time: Duration) -> Budget {
        Budget {
            deadline: Some(Instant::now() + time),
            ..Budget::UNLIMITED
        }
    }

    /// A fixed depth, no time limit.
    pub fn depth(depth: u32) -> Budget {
        Budget {
            max_depth: Some(depth),
            ..Budget::UNLIMITED
        }
    }

    /// A fixed node count, no time limit.
    pub fn nodes(nodes: u64) -> Budget {
        Budget {
            max_nodes: Some(nodes),
            ..Budget::UNLIMITED
        }
    }

    /// Whether the deadline has passed.
    pub fn expired(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// How a turn failed: the one vocabulary of faults, from the process layer (a bot program
/// crashed, ran out of time, memory or output) through the judge of its answer (unreadable,
/// illegal) to the replay and the store, for per-move and persistent bots alike. A turn is
/// an answer or a fault ([`TurnOutcome`]); a fault loses the game (HackerEarth's rule, and
/// the AI Challenge's). In-process AIs never fault but for [`Fault::NoOutput`] when they
/// have no move.
///
/// The serialised names (`{"verdict": "time_limit"}`) are the replay format's.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Fault {
    /// Timeout: still running at the time limit (a persistent bot: no `go` in time).
    #[error("time limit exceeded")]
    TimeLimit,
    /// Memory: ran past its memory limit.
    #[error("memory limit exceeded")]
    MemoryLimit,
    /// Crash: exited with a non-zero code, was killed by a signal, or could not start.
    #[error("runtime error ({detail})")]
    RuntimeError {
        /// Exit code or signal, in words.
        detail: String,
    },
    /// Output limit: printed more than allowed in one turn.
    #[error("output limit exceeded")]
    OutputLimit,
    /// Unreadable, and empty: ended its turn without printing a move.
    #[error("no output")]
    NoOutput,
    /// Unreadable: printed something that is not a move in the game's notation.
    #[error("unreadable answer ({reason})")]
    Unreadable {
        /// What it printed and what the format expects.
        reason: String,
    },
    /// Illegal: a well-formed move that the rules refuse here.
    #[error("invalid move ({reason})")]
    InvalidMove {
        /// The move and why it is not legal.
        reason: String,
    },
}

impl Fault {
    /// A short fixed name for tables and summaries (`time_limit`): the serialised name.
    pub fn code(&self) -> &'static str {
        match self {
            Fault::TimeLimit => "time_limit",
            Fault::MemoryLimit => "memory_limit",
            Fault::RuntimeError { .. } => "runtime_error",
            Fault::OutputLimit => "output_limit",
            Fault::NoOutput => "no_output",
            Fault::Unreadable { .. } => "unreadable",
            Fault::InvalidMove { .. } => "invalid_move",
        }
    }
}

/// How one turn went: the answer (a move, a persistent bot's order lines), or the fault.
pub type TurnOutcome<A> = Result<A, Fault>;

/// Anything that chooses moves in a game: a search AI, a random player, an external bot.
pub trait Player<G: Game>: Send {
    /// A short name for tables and replays (`alphabeta`, `./mybot`).
    fn name(&self) -> String;

    /// Chooses a move for the side to move in `state`, which is not over.
    ///
    /// # Errors
    /// A [`Fault`] when the player could not produce a legal move (external bots only).
    fn choose(&mut self, state: &G, budget: Budget) -> Result<G::Move, Fault>;

    /// Called when a new game starts, so that a player can clear what it learnt.
    fn new_game(&mut self) {}
}

/// A heuristic value of a position for the side to move (positive is good for it). Rules know
/// nothing of evaluators; each game's `eval.rs` provides some, and searches take any.
pub trait Evaluator<G: Game>: Send + Sync {
    /// The value of `state` for `state.to_move()`. Never called on finished games.
    fn evaluate(&self, state: &G) -> Score;

    /// How a search of `state` to `depth` may be cut short by ProbCut (Buro 1995): a
    /// shallower search predicts the deep score. `None` (the default, every game but 8x8
    /// Othello) searches fully; searches use it only when told to.
    fn probcut(&self, state: &G, depth: u32) -> Option<ProbCut> {
        let _ = (state, depth);
        None
    }
}

/// ProbCut's prediction of a deep search from a shallow one: the score at `depth` is
/// about `a * shallow_score + b` with standard deviation `sigma`, a linear regression fitted
/// on the game's positions; a node is cut when the shallow score lies more than `t` sigmas
/// outside the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ProbCut {
    /// Depth of the shallow search, below the node's depth.
    pub shallow: u32,
    /// The regression's slope.
    pub a: f32,
    /// The regression's intercept, in the evaluator's units.
    pub b: f32,
    /// The residuals' standard deviation, in the evaluator's units.
    pub sigma: f32,
    /// How many sigmas of confidence a cut needs.
    pub t: f32,
}

/// The evaluator that knows nothing: every unfinished position is even. Enough for games that
/// are searched to the end, such as tic-tac-toe.
#[derive(Clone, Copy, Debug, Default)]
pub struct Neutral;

impl<G: Game> Evaluator<G> for Neutral {
    fn evaluate(&self, _: &G) -> Score {
        Score::DRAW
    }
}

/// A hook that sorts moves best-first before a search tries them (after the transposition
/// table's move). Like evaluators, orderings are heuristics: games provide them, searches
/// take any.
pub trait MoveOrdering<G: Game>: Send + Sync {
    /// Reorders `moves` of `state`, most promising first.
    fn order(&self, state: &G, moves: &mut [G::Move]);

    /// The legal moves of `state` in this ordering's order, into `moves` (cleared first):
    /// what a search asks at every inner node. The default lists them
    /// ([`Game::legal_moves`]) and [`order`](MoveOrdering::order)s them; an ordering may
    /// write them in order at once, but must give exactly that list.
    fn ordered_moves(&self, state: &G, moves: &mut Vec<G::Move>) {
        state.legal_moves(moves);
        self.order(state, moves);
    }

    /// Whether a search should play out [`noisy`](MoveOrdering::noisy) moves past its
    /// horizon (a quiescence search) instead of trusting the evaluation there. `false`, the
    /// default: the horizon is the evaluation alone, as for every game without the hook.
    fn quiescence(&self) -> bool {
        false
    }

    /// The moves of `state` that change its value too much for the evaluation to stand in
    /// for them (captures), most promising first, into `moves` (cleared first). A
    /// quiescence search lets the side to move either stand on the evaluation or play one of
    /// these, so they must be ones it may choose not to play; the default has none. Asked
    /// of unfinished states only.
    fn noisy(&self, state: &G, moves: &mut Vec<G::Move>) {
        let _ = state;
        moves.clear();
    }

    /// `state` with the move passed to the other side, for a null-move search at `depth`
    /// (the side to move gives up a move: if the other side still cannot reach beta, the
    /// node is cut), or `None` where passing would mislead the search: where a game can
    /// have zugzwang, where its end is within reach of the search and must stay exact, or
    /// where the game cannot pass at all. `None`, the default: no null move is ever tried.
    /// The state returned must have the other side to move. Asked of unfinished states only.
    fn null_move(&self, state: &G, depth: u32) -> Option<G> {
        let _ = (state, depth);
        None
    }

    /// Whether `mv` of `state` may be searched one ply shallower when it comes late in the
    /// ordering (a late-move reduction): quiet moves, not the captures and threats an
    /// ordering puts first. `false`, the default: every move is searched to the full depth.
    fn reducible(&self, state: &G, mv: G::Move) -> bool {
        let _ = (state, mv);
        false
    }
}

/// Keeps the legal (sorted) order.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOrdering;

impl<G: Game> MoveOrdering<G> for NoOrdering {
    fn order(&self, _: &G, _: &mut [G::Move]) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fault_s_code_is_its_serialised_name() {
        for f in [
            Fault::TimeLimit,
            Fault::MemoryLimit,
            Fault::RuntimeError {
                detail: "exit code 3".into(),
            },
            Fault::OutputLimit,
            Fault::NoOutput,
            Fault::Unreadable { reason: "x".into() },
            Fault::InvalidMove { reason: "x".into() },
        ] {
            let json = serde_json::to_value(&f).unwrap();
            assert_eq!(json["verdict"], f.code());
            assert_eq!(serde_json::from_value::<Fault>(json).unwrap(), f);
        }
    }
}
