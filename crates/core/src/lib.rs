//! ply's vocabulary: the words every other crate speaks.
//!
//! * [`Seat`], [`Outcome`], [`GameInfo`]: who plays, how a game ended, the static facts of a game.
//! * [`Game`]: a sequential, perfect-information game with any number of seats. The state type
//!   *is* the game (as in shakmaty): it knows whose turn it is, its legal moves (in sorted order)
//!   and how to play one.
//! * [`SimultaneousGame`]: every seat orders at once and sees only part of the state (Ants).
//! * [`Puzzle`]: a single-agent puzzle (Hanoi, peg solitaire, Sudoku).
//! * [`Player`]: anything that picks a move: a search AI, a random player, an external bot.
//! * [`Evaluator`]: a heuristic that scores a position for the side to move.
//! * [`seed`]: SplitMix64 seed derivation, shared by the arena and the tests.
//! * [`simd`]: the cached run-time choice of a SIMD copy of a hot loop (`PLY_NO_SIMD`).
//!
//! This crate has no I/O (beyond [`simd`] reading one environment variable) and no knowledge of any particular game or algorithm.

mod game;
mod outcome;
mod player;
mod puzzle;
mod score;
mod seat;
pub mod seed;
pub mod simd;
mod simultaneous;

pub use game::{Game, GameInfo, IllegalMoveError, ParseMoveError, ParseStateError};
pub use outcome::Outcome;
pub use player::{
    Budget, Evaluator, Fault, MoveOrdering, Neutral, NoOrdering, Player, ProbCut, TurnOutcome,
};
pub use puzzle::Puzzle;
pub use score::Score;
pub use seat::Seat;
pub use simultaneous::SimultaneousGame;
