//! The arena's database, and the only crate with SQL in it.
//!
//! [`Store`] is what the rest of ply sees: tournaments with their bots, the games played
//! (each with its replay), and the rating history. [`SqliteStore`] implements it on one
//! SQLite file in WAL mode; a PostgreSQL store, for many machines sharing one tournament,
//! implements the same trait, and neither the referee nor the command line changes.
//!
//! Crash safety: each game is written in its own transaction the moment it ends, keyed by
//! (tournament, round, slot) so that it can never be stored twice; a tournament killed at any
//! moment (`kill -9` included) is found again by [`Store::find_tournament`] from the same
//! configuration and plays only the games missing.
//!
//! The queue: games to play are [enqueued](Store::enqueue); a worker
//! [claims](Store::claim) one with a lease (a deadline), plays it and
//! [completes](Store::complete) it with the lease, which stores the result exactly once and
//! refuses a result whose lease has expired (the game may be played by another worker by
//! then); [`Store::expire_leases`] puts the games of workers that vanished back in the queue.
//! Times are milliseconds given by the caller (the arena passes the Unix time), so that the
//! store holds no clock of its own and tests need no sleeping.

mod sqlite;

use serde::{Deserialize, Serialize};

use ply_rating::Rating;

pub use sqlite::SqliteStore;

/// A failed database operation.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database refused or failed: SQLite's message, once (its own source, the bare
    /// error code, would repeat it).
    #[error("database error: {0}")]
    Database(String),
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

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Database(e.to_string())
    }
}

/// The output limit of tournaments stored before it was part of the configuration: the
/// command line's default then, 64 KiB.
fn default_output() -> usize {
    64 << 10
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
    /// Output limit per move, in bytes (a game played under another limit is another game).
    #[serde(default = "default_output")]
    pub output: usize,
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

/// A game to be played: its place in the tournament and who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct QueuedGame {
    /// 1-based round.
    pub round: u32,
    /// Position in the round's schedule, from 0.
    pub slot: u32,
    /// Index of the bot that moves first.
    pub first: usize,
    /// Index of the bot that moves second.
    pub second: usize,
}

/// A claimed game: the right to play it and post its result until `until_ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The tournament's id.
    pub tournament: i64,
    /// The game.
    pub game: QueuedGame,
    /// Which claim of this game this is (1 for the first); a result posted with an older
    /// claim is refused.
    pub attempt: u32,
    /// The worker that holds it.
    pub worker: String,
    /// When the lease runs out, in the caller's milliseconds.
    pub until_ms: u64,
}

/// What became of a posted result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Stored: this is the game's result.
    Stored,
    /// The same lease already stored a result (a retry after a lost answer): nothing changed.
    AlreadyStored,
    /// The lease expired or the game was claimed again since: the result is dropped.
    LeaseLost,
}

/// The arena's storage. Implementations: [`SqliteStore`] (one file, one machine).
pub trait Store {
    /// The newest tournament with exactly this configuration, finished or not.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn find_tournament(&self, config: &TournamentConfig) -> Result<Option<Tournament>, StoreError>;

    /// A new tournament with this configuration.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn create_tournament(&mut self, config: &TournamentConfig) -> Result<Tournament, StoreError>;

    /// A tournament by id; the newest one when `id` is `None`.
    ///
    /// # Errors
    /// [`StoreError::NoTournament`] when there is no such tournament.
    fn tournament(&self, id: Option<i64>) -> Result<Tournament, StoreError>;

    /// Every tournament, newest first, at most `limit` of them. Provided through
    /// [`Store::tournament`], so every store has it; a store may answer it in one query.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn tournaments(&self, limit: usize) -> Result<Vec<Tournament>, StoreError> {
        let newest = match self.tournament(None) {
            Ok(t) => t.id,
            Err(StoreError::NoTournament(_)) => return Ok(Vec::new()),
            Err(e) => return Err(e),
        };
        let mut out = Vec::new();
        for id in (1..=newest).rev() {
            if out.len() >= limit {
                break;
            }
            match self.tournament(Some(id)) {
                Ok(t) => out.push(t),
                Err(StoreError::NoTournament(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }

    /// The games of a tournament already played, in (round, slot) order.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn games(&self, tournament: i64) -> Result<Vec<GameRecord>, StoreError>;

    /// Stores a finished game at once (its own transaction), outside the queue. Returns
    /// `false`, storing nothing, when that (round, slot) is already stored.
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

    /// Puts games in the queue of `tournament`. A game already queued, claimed or stored is
    /// left as it is, so enqueueing a whole round again after a restart only adds what is
    /// missing. Returns how many games were added.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn enqueue(&mut self, tournament: i64, games: &[QueuedGame]) -> Result<usize, StoreError>;

    /// Claims the first waiting game (lowest round, then slot) of `tournament`, or of any
    /// unfinished tournament when `None`, for `worker` until `now_ms + lease_ms`. A game whose
    /// lease ran out before `now_ms` is waiting again. Two claimers never get the same game.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn claim(
        &mut self,
        tournament: Option<i64>,
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError>;

    /// Posts the result of a claimed game: stored once, in the same transaction that closes
    /// the lease; refused when the lease ran out before `now_ms` or the game was claimed again.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn complete(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
    ) -> Result<Completion, StoreError>;

    /// Puts every claimed game of `tournament` (of every tournament when `None`) whose lease ran
    /// out before `now_ms` back in the queue; returns how many.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn expire_leases(&mut self, tournament: Option<i64>, now_ms: u64) -> Result<usize, StoreError>;
}
