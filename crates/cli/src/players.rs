//! Builds in-process AI players from command-line choices.
//!
//! The arena issue moves this into the referee as `builtin:NAME[:opt=val,...]` specs.

use std::time::Duration;

use anyhow::Result;

use ply_core::{Game, Player};
use ply_games::Heuristics;
use ply_search::{AlphaBeta, AlphaBetaPlayer, Config, MctsConfig, MctsPlayer, RandomPlayer};

use crate::args::AiKind;
use crate::bad_input;

/// Games with at most this many plies are small enough for `perfect`.
const PERFECT_MAX_PLIES: u32 = 16;

/// A player of `kind` for game `G`.
///
/// # Errors
/// `perfect` on a game too large to search to the end.
pub fn ai<G: Heuristics>(kind: AiKind, seed: u64, think: Duration) -> Result<Box<dyn Player<G>>> {
    Ok(match kind {
        AiKind::Perfect => {
            if G::info().max_plies > PERFECT_MAX_PLIES {
                return Err(bad_input!(
                    "--ai perfect searches to the end of the game, which {} is too long for; use --ai alphabeta",
                    G::info().name
                ));
            }
            let search = AlphaBeta::with(
                G::Eval::default(),
                G::Ordering::default(),
                Config::default(),
            );
            Box::new(AlphaBetaPlayer::new(search, None, None).named("perfect"))
        }
        AiKind::Alphabeta => {
            let search = AlphaBeta::with(
                G::Eval::default(),
                G::Ordering::default(),
                Config::default(),
            );
            Box::new(AlphaBetaPlayer::new(search, None, Some(think)))
        }
        AiKind::Mcts => Box::new(MctsPlayer::new(
            MctsConfig::default(),
            seed,
            None,
            Some(think),
        )),
        AiKind::Random => Box::new(RandomPlayer::new(seed)),
    })
}

/// A game's name and its one-line summary, for messages.
pub fn describe<G: Game>() -> String {
    format!("{} ({})", G::info().title, G::info().summary)
}
