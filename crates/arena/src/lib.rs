//! ply's arena: a tournament from its configuration to its standings, and matches between two
//! players. The command line (`ply tournament`, `ply match`, `ply leaderboard`) parses its
//! arguments, calls this crate and prints; a web server or a pool of workers calls the same
//! functions.
//!
//! * [`schedule`]: who plays whom in each round ([`Format::RoundRobin`] now; Swiss and gauntlet
//!   pairings are further [`Format`]s, given the games played so far);
//! * [`tournament`]: [`run_tournament`] opens (or finds again) a tournament in a
//!   [`Store`](ply_store::Store), queues each round, plays it with a concurrency limit, rates it
//!   (Glicko-2, one period per round) and reports [`Progress`] through a callback;
//! * [`worker`]: the worker's side of the queue: claim a game, play it, post its result
//!   ([`Worker::work_one`]); [`run_tournament`]'s threads are such workers;
//! * [`pool`]: tournaments across machines: [`enqueue_tournament`] queues every game in a
//!   shared store, [`run_pool`] is `ply worker` (threads that claim, play and post, with a
//!   heartbeat), and each bot's program hash keeps every machine on the same version;
//! * [`mod@matches`]: [`run_match`], several games between two players, with their tallies;
//! * [`ladder`]: [`run_ladder`], a challenger against each of several bots in pairs of games
//!   from seeded openings, as an Elo difference with its interval, stopped by an SPRT;
//! * [`ants_match`]: [`run_ants_match`], several Ants games between as many bots as the map
//!   has players, seats rotated, TrueSkill standings;
//! * [`ants_tournament`]: [`run_ants_tournament`], rated Ants tournaments in the same store
//!   and queue (a rotation of maps, one a round; every combination of bots in every rotation
//!   of seats each round, each game's full ranking kept, TrueSkill per round from the stored
//!   games), played by local threads through the same driver as [`run_tournament`], or by
//!   `ply worker`s ([`enqueue_ants_tournament`]);
//! * [`game_seed`]: every game's seed from the run's seed and the game's place.
//!
//! Nothing here prints, exits or reads the environment; the referee runs the bots, the store
//! keeps the results, `ply-rating` does the maths.

pub mod ants_match;
pub mod ants_tournament;
pub mod ladder;
pub mod matches;
pub mod pool;
pub mod schedule;
pub mod tournament;
pub mod worker;

pub use ants_match::{AntsEntrant, AntsMatchGame, AntsMatchPlan, AntsStanding, run_ants_match};
pub use ants_tournament::{AntsLineup, AntsTournamentPlan, RotationMap, run_ants_tournament};
pub use ladder::{LadderPlan, LadderRow, MoveTimes, run_ladder};
pub use matches::{MatchGame, MatchPlan, Tally, random_opening, run_match};
pub use pool::{
    PoolEvent, PoolOptions, PoolSummary, Programs, enqueue_ants_tournament, enqueue_tournament,
    run_pool,
};
pub use schedule::Format;
pub use tournament::{
    Entrant, Progress, TournamentPlan, TournamentRun, head_to_head, rating_history, run_tournament,
};
pub use worker::{Lineup, PairLineup, Worker};

use ply_referee::spec::BuildPlayerError;
use ply_store::StoreError;

/// What went wrong running a tournament or a match.
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// The configuration cannot be played as given (fewer than two bots, no rounds, a game
    /// without a bot format...).
    #[error("{0}")]
    Invalid(String),
    /// A bot that cannot play this game (`builtin:perfect` on a long game).
    #[error("{bot}: {source}")]
    Bot {
        /// The bot's name.
        bot: String,
        /// Why.
        source: BuildPlayerError,
    },
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A replay that does not serialise (never expected).
    #[error("cannot write a replay: {0}")]
    Replay(#[from] serde_json::Error),
    /// A caller's callback asked to stop, with its reason.
    #[error("{0}")]
    Stopped(String),
}

/// A game's seed from a match or tournament seed and the game's place in it (SplitMix64 of
/// the two, [`ply_core::seed::derive`]), so that every game differs yet replays exactly.
///
/// ```
/// assert_ne!(ply_arena::game_seed(1, 1, 0), ply_arena::game_seed(1, 1, 1));
/// ```
pub fn game_seed(seed: u64, round: u32, slot: u32) -> u64 {
    ply_core::seed::derive(seed, u64::from(round) << 32 | u64::from(slot))
}

/// The game named `name`, if it has a bot format.
pub(crate) fn bot_game(name: &str) -> Result<ply_games::GameKind, ArenaError> {
    let kind: ply_games::GameKind = name
        .parse()
        .map_err(|e| ArenaError::Invalid(format!("{e}")))?;
    if !kind.has_hackerearth_format() {
        return Err(ArenaError::Invalid(format!("{kind} has no bot format yet")));
    }
    Ok(kind)
}
