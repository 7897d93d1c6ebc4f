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

/// Why a player produced no legal move. In-process AIs never fault; external bots do, and a
/// fault loses the game (HackerEarth's rule, and the AI Challenge's).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Fault {
    /// Ran past its time limit.
    #[error("time limit exceeded")]
    TimeLimit,
    /// Ran past its memory limit.
    #[error("memory limit exceeded")]
    MemoryLimit,
    /// Exited with a non-zero code or was killed by a signal.
    #[error("runtime error: {detail}")]
    RuntimeError {
        /// Exit code or signal, in words.
        detail: String,
    },
    /// Answered with something that is not a legal move.
    #[error("invalid move: {reason}")]
    InvalidMove {
        /// What it printed and why that is not legal.
        reason: String,
    },
    /// Printed more than the output limit.
    #[error("output limit exceeded")]
    OutputLimit,
    /// Exited without printing a move.
    #[error("no output")]
    NoOutput,
}

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
}

/// Keeps the legal (sorted) order.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOrdering;

impl<G: Game> MoveOrdering<G> for NoOrdering {
    fn order(&self, _: &G, _: &mut [G::Move]) {}
}
