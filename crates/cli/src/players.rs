//! Maps `ply play --ai` choices onto the referee's built-in players.

use std::time::Duration;

use anyhow::Result;

use ply_core::{Game, Player};
use ply_games::Heuristics;
use ply_referee::spec::{BuiltinKind, BuiltinOptions, builtin_player};

use crate::args::AiKind;
use crate::bad_input;

/// A player of `kind` for game `G`.
///
/// # Errors
/// `perfect` on a game too large to search to the end.
pub fn ai<G: Heuristics>(kind: AiKind, seed: u64, think: Duration) -> Result<Box<dyn Player<G>>> {
    let builtin = match kind {
        AiKind::Perfect => BuiltinKind::Perfect,
        AiKind::Alphabeta => BuiltinKind::Alphabeta,
        AiKind::Mcts => BuiltinKind::Mcts,
        AiKind::Random => BuiltinKind::Random,
    };
    let options = BuiltinOptions {
        ms: Some(think.as_millis() as u64),
        ..BuiltinOptions::default()
    };
    builtin_player::<G>(builtin, options, seed).map_err(|e| bad_input!("--ai {e}"))
}

/// A game's name and its one-line summary, for messages.
pub fn describe<G: Game>() -> String {
    format!("{} ({})", G::info().title, G::info().summary)
}
