//! Game-agnostic search, generic over the traits of `ply_core`; nothing here knows a game.
//!
//! * [`negamax`]: plain fixed-depth minimax, the reference every clever search is tested
//!   against; [`negamax_quiescent`] the same with a game's quiescence at the horizon.
//! * [`AlphaBeta`]: alpha-beta with a transposition table, iterative deepening under a
//!   [`Budget`](ply_core::Budget), mate-distance scoring, a move-ordering hook and, where
//!   the ordering asks for it, quiescence over its noisy moves.
//! * [`Mcts`]: UCT Monte Carlo tree search with a seeded RNG, for any number of seats.
//! * [`RandomPlayer`], [`GreedyPlayer`]: baselines.
//! * [`perft`]: counts leaf nodes, to check move generators against published figures.
//! * [`puzzle`]: breadth-first search and IDA* for single-agent puzzles.

mod alphabeta;
mod baseline;
mod mcts;
pub mod modelled;
mod negamax;
mod perft;
pub mod puzzle;
mod report;
mod tt;

pub use alphabeta::{
    AlphaBeta, AlphaBetaPlayer, Config, DEFER_DEPTH, Deepening, SmpScheme, TtProbe,
};
pub use baseline::{GreedyPlayer, RandomPlayer};
pub use mcts::{Mcts, MctsConfig, MctsPlayer};
pub use negamax::{negamax, negamax_quiescent, quiescence, terminal_score};
pub use perft::{perft, perft_divide, perft_divide_with};
pub use report::SearchReport;
pub use tt::{Bound, TranspositionTable, TtLayout};
