//! Maps `ply play --ai` choices onto the referee's built-in players.

use std::time::Duration;

use anyhow::Result;

use ply_core::{Game, Player};
use ply_games::Heuristics;
use ply_referee::spec::{BuiltinKind, BuiltinOptions, builtin_player, strongest_builtin};

use crate::args::AiKind;
use crate::bad_input;

/// A player of `kind` for game `G`.
///
/// # Errors
/// `perfect` on a game too large to search to the end.
pub fn ai<G: Heuristics>(
    kind: Option<AiKind>,
    seed: u64,
    think: Duration,
) -> Result<Box<dyn Player<G>>> {
    let builtin = match kind {
        None => strongest_builtin::<G>(),
        Some(AiKind::Perfect) => BuiltinKind::Perfect,
        Some(AiKind::Alphabeta) => BuiltinKind::Alphabeta,
        Some(AiKind::Mcts) => BuiltinKind::Mcts,
        Some(AiKind::Random) => BuiltinKind::Random,
    };
    let options = BuiltinOptions {
        ms: Some(think.as_millis() as u64),
        ..BuiltinOptions::default()
    };
    builtin_player::<G>(builtin, options, seed).map_err(|e| {
        bad_input!(
            "--ai perfect searches to the end of the game, which {} is too long for; use --ai alphabeta (its default) or --ai mcts",
            e.game
        )
    })
}

/// A game's name and its one-line summary, for messages.
pub fn describe<G: Game>() -> String {
    let info = G::info();
    // The contest games' summaries already name the contest and the game.
    if info.summary.starts_with("HackerEarth") {
        info.summary.to_string()
    } else {
        format!("{}: {}", info.title, info.summary)
    }
}
