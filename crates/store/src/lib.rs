//! The arena's database, and the only crate with SQL in it.
//!
//! [`Store`] is what the rest of ply sees: tournaments with their bots, the games played
//! (each with its replay), and the rating history. [`SqliteStore`] implements it on one
//! SQLite file in WAL mode; a PostgreSQL store, for many machines sharing one tournament,
//! implements the same trait, and neither the referee nor the command line changes.
//!
//! Crash safety: each game is written in its own transaction the moment it ends, keyed by
//! (tournament, round, slot) so that it can never be stored twice; a tournament killed at any
//! moment (`kill -9` included) is reopened by [`Store::open_tournament`] with the same
//! configuration and plays only the games missing.

mod sqlite;

use serde::{Deserialize, Serialize};

use ply_rating::Rating;

pub use sqlite::SqliteStore;

/// A failed database operation.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed.
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    /// The file's schema is newer than this ply knows.
    #[error("the database has schema version {found}, newer than this ply's {known}; upgrade ply")]
    NewerSchema {
        /// The file's version.
        found: i64,
        /// The newest this ply knows.
        known: i64,
    },
    /// Stored JSON that does not read back.
    #[error("corrupt stored data: {0}")]
    Corrupt(#[from] serde_json::Error),
    /// No tournament with this id.
    #[error("no tournament #{0} in the database")]
    NoTournament(i64),
}

/// A bot entered in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    /// Its name on the leaderboard (unique in the tournament).
    pub name: String,
    /// How to run it (`builtin:mcts:ms=100`, `python3 bot.py`).
    pub spec: String,
}

/// Everything that fixes a tournament: the same configuration resumes the same tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentConfig {
    /// The game's name.
    pub game: String,
    /// The bots, in entry order (indices in [`GameRecord`] refer to it).
    pub bots: Vec<BotEntry>,
    /// Rounds to play.
    pub rounds: u32,
    /// Time limit per move, in milliseconds.
    pub time_ms: u64,
    /// Memory limit, in bytes.
    pub memory: u64,
    /// Seed from which every game's seed is derived.
    pub seed: u64,
}

/// A stored tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tournament {
    /// Its id in the database.
    pub id: i64,
    /// Its configuration.
    pub config: TournamentConfig,
    /// Whether every game has been played.
    pub finished: bool,
    /// When it was created (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub created: String,
}

/// One finished game of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 1-based round.
    pub round: u32,
    /// Position in the round's schedule, from 0.
    pub slot: u32,
    /// Index of the bot that moved first.
    pub first: usize,
    /// Index of the bot that moved second.
    pub second: usize,
    /// The first bot's score: 1 win, 0.5 draw, 0 loss.
    pub first_score: f64,
    /// The outcome in words.
    pub result: String,
    /// The replay, as JSON.
    pub replay: String,
}

/// One bot's line on the leaderboard.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    /// The bot's name.
    pub bot: String,
    /// Its spec.
    pub spec: String,
    /// Its rating after the last rated round.
    pub rating: Rating,
    /// Games won, drawn and lost.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// The arena's storage. Implementations: [`SqliteStore`] (one file, one machine).
pub trait Store {
    /// The unfinished tournament with exactly this configuration (to resume it), or a new one.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn open_tournament(&mut self, config: &TournamentConfig) -> Result<Tournament, StoreError>;

    /// A tournament by id; the newest one when `id` is `None`.
    ///
    /// # Errors
    /// [`StoreError::NoTournament`] when there is no such tournament.
    fn tournament(&self, id: Option<i64>) -> Result<Tournament, StoreError>;

    /// The games of a tournament already played, in (round, slot) order.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn games(&self, tournament: i64) -> Result<Vec<GameRecord>, StoreError>;

    /// Stores a finished game at once (its own transaction). Returns `false`, storing nothing,
    /// when that (round, slot) is already stored.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn record_game(&mut self, tournament: i64, game: &GameRecord) -> Result<bool, StoreError>;

    /// Stores every bot's rating after `round` (replacing what was stored for that round).
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn record_ratings(
        &mut self,
        tournament: i64,
        round: u32,
        ratings: &[Rating],
    ) -> Result<(), StoreError>;

    /// Marks a tournament as complete.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn finish(&mut self, tournament: i64) -> Result<(), StoreError>;

    /// The standings: every bot with its latest rating and its record, best rating first.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn standings(&self, tournament: i64) -> Result<Vec<Standing>, StoreError>;
}
