//! The arena's database, and the only crate with SQL in it.
//!
//! [`Store`] is what the rest of ply sees: tournaments with their bots, the games played
//! (each with its replay), and the rating history. [`SqliteStore`] implements it on one
//! SQLite file in WAL mode; [`PostgresStore`], for many machines sharing one tournament,
//! implements the same trait with the same schema and migrations, and neither the referee
//! nor the command line changes. [`open`] picks the backend from a `--db` value.
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

mod postgres;
mod sqlite;

use serde::{Deserialize, Serialize};

use ply_rating::Rating;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

/// Opens the store a `--db` value names: a `postgres://` or `postgresql://` URL opens
/// [`PostgresStore`], anything else is the path of a [`SqliteStore`] file.
///
/// # Errors
/// [`StoreError`] when the database cannot be opened or is from a newer ply.
pub fn open(db: &str) -> Result<Box<dyn Store + Send>, StoreError> {
    if is_postgres_url(db) {
        Ok(Box::new(PostgresStore::open(db)?))
    } else {
        Ok(Box::new(SqliteStore::open(std::path::Path::new(db))?))
    }
}

/// Whether a `--db` value names a PostgreSQL database rather than a file.
///
/// ```
/// assert!(ply_store::is_postgres_url("postgres://ply@db.example/arena"));
/// assert!(!ply_store::is_postgres_url("arena.sqlite3"));
/// ```
pub fn is_postgres_url(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

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
    /// The path names something SQLite cannot use as a database (another kind of file, a
    /// folder): the user's mistake, not the store's failure, so callers report it as bad
    /// input.
    #[error("{0}; name an arena database, or a path where there is none yet to create one")]
    NotADatabase(String),
}

impl StoreError {
    /// Whether the error is in what the user named rather than in the work (see
    /// [`StoreError::NotADatabase`]).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, StoreError::NotADatabase(_))
    }
}

impl From<::postgres::Error> for StoreError {
    fn from(e: ::postgres::Error) -> Self {
        // The server's own message ("db error: ERROR: ..."), with its cause when there is one.
        let mut text = e.to_string();
        if let Some(db) = e.as_db_error() {
            text = format!("{}: {}", db.severity(), db.message());
        }
        StoreError::Database(text)
    }
}

impl From<r2d2_postgres::r2d2::Error> for StoreError {
    fn from(e: r2d2_postgres::r2d2::Error) -> Self {
        StoreError::Database(format!("no connection to PostgreSQL: {e}"))
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        use rusqlite::ErrorCode::{CannotOpen, NotADatabase};
        match e.sqlite_error_code() {
            Some(NotADatabase | CannotOpen) => StoreError::NotADatabase(e.to_string()),
            _ => StoreError::Database(e.to_string()),
        }
    }
}

/// The output limit of tournaments stored before it was part of the configuration: the
/// command line's default then, 64 KiB.
fn default_output() -> usize {
    64 << 10
}

fn one_cpu() -> u32 {
    1
}

fn is_one_cpu(cpus: &u32) -> bool {
    *cpus == 1
}

/// A bot entered in a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    /// Its name on the leaderboard (unique in the tournament).
    pub name: String,
    /// How to run it (`builtin:mcts:ms=100`, `python3 bot.py`).
    pub spec: String,
    /// The SHA-256 of its program (file or folder), `sha256:` and 64 hex digits, when it runs
    /// a program of its own: every worker checks that its copy has this hash before it plays
    /// the bot, so that the same version plays every game. `None` for built-ins (and for
    /// tournaments stored before hashes, whose configuration stays what it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
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
    /// CPUs each bot's processes may use at once (absent from the stored configuration when
    /// 1, as before it could be set, so earlier tournaments resume as they were).
    #[serde(default = "one_cpu", skip_serializing_if = "is_one_cpu")]
    pub cpus: u32,
    /// Seed from which every game's seed is derived.
    pub seed: u64,
    /// An Ants tournament's game: the map and the turn limit. `None` for every other game
    /// (and absent from their stored configuration, which stays what it was).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ants: Option<AntsSetup>,
}

/// What every game of an Ants tournament plays.
///
/// The maps are kept as their text, not as paths or hashes: the same maps resume the same
/// tournament wherever their files are, and a worker on another machine plays a queued game
/// from the database alone, with no shared folder of maps.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AntsSetup {
    /// The first map of the rotation (the only one of a one-map tournament), as its text.
    pub map: String,
    /// The turn limit of every game.
    pub turns: u32,
    /// The rotation's further maps, in order (round `r` plays map `(r - 1) % maps`; see
    /// [`AntsSetup::maps`]). Empty for one map, so that a one-map tournament's stored
    /// configuration is what it was before rotations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_maps: Vec<String>,
}

impl AntsSetup {
    /// Every map of the rotation, in order: [`AntsSetup::map`], then
    /// [`AntsSetup::more_maps`].
    pub fn maps(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.map.as_str()).chain(self.more_maps.iter().map(String::as_str))
    }
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
    /// A game of more than two players (Ants): every seat, in seat order, with its entry,
    /// rank and score; `first` and `second` are then the entries of seats 0 and 1 and
    /// `first_score` is 1 when seat 0 ranked first (alone or tied), else 0. Empty for a
    /// two-player game.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeatResult>,
}

/// One seat of a game of more than two players.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    /// The bot's entry in the tournament.
    pub entry: usize,
    /// Its place, 0 first; tied seats share a rank.
    pub rank: u32,
    /// Its score in the game.
    pub score: f64,
}

/// The `seats` column: `NULL` for a two-player game, else the seats as JSON.
pub(crate) fn seats_json(seats: &[SeatResult]) -> Result<Option<String>, StoreError> {
    if seats.is_empty() {
        Ok(None)
    } else {
        Ok(Some(serde_json::to_string(seats)?))
    }
}

/// The seats a `seats` column holds.
pub(crate) fn read_seats(text: Option<&str>) -> Result<Vec<SeatResult>, StoreError> {
    match text {
        None => Ok(Vec::new()),
        Some(t) => Ok(serde_json::from_str(t)?),
    }
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

/// How a round is rated: every bot's rating after `round`, from all the games stored so far
/// (the arena's Glicko-2; the store only decides when, and stores the result).
pub type RateRound<'a> = &'a dyn Fn(&[GameRecord], u32) -> Vec<Rating>;

/// What posting a result with [`Store::complete_rated`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// What became of the result.
    pub completion: Completion,
    /// Rounds rated in the same transaction: those whose last game this was (and any later
    /// round already complete but waiting for this one).
    pub rounds_rated: Vec<u32>,
    /// This was the tournament's last game: it is now finished.
    pub finished: bool,
}

/// How many games of the queue are in each state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct QueueCounts {
    /// Waiting to be claimed (a lease past its deadline counts here).
    pub queued: u64,
    /// Claimed under a live lease.
    pub leased: u64,
    /// Stored.
    pub done: u64,
}

/// A worker as the store last saw it ([`Store::worker_seen`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WorkerStatus {
    /// Its name (unique among workers).
    pub name: String,
    /// When it started, in the caller's milliseconds.
    pub started_ms: u64,
    /// Its last heartbeat, in the caller's milliseconds.
    pub heartbeat_ms: u64,
    /// Games it played whose results were stored.
    pub games: u64,
    /// What it was doing: `working`, `idle`, `stopped`.
    pub state: String,
}

/// Standings from a configuration, the latest ratings (by entry) and the games: the same
/// arithmetic for every backend.
pub(crate) fn tally(
    config: &TournamentConfig,
    ratings: &[(usize, Rating)],
    games: &[GameRecord],
) -> Vec<Standing> {
    let mut table: Vec<Standing> = config
        .bots
        .iter()
        .map(|b| Standing {
            bot: b.name.clone(),
            spec: b.spec.clone(),
            rating: Rating::default(),
            wins: 0,
            draws: 0,
            losses: 0,
        })
        .collect();
    for &(entry, rating) in ratings {
        if let Some(s) = table.get_mut(entry) {
            s.rating = rating;
        }
    }
    for g in games.iter().filter(|g| !g.seats.is_empty()) {
        // A game of many: a win for every seat ranked first, a loss for every other.
        for seat in &g.seats {
            if let Some(s) = table.get_mut(seat.entry) {
                if seat.rank == 0 {
                    s.wins += 1;
                } else {
                    s.losses += 1;
                }
            }
        }
    }
    for g in games.iter().filter(|g| g.seats.is_empty()) {
        let (a, b) = (g.first, g.second);
        if a >= table.len() || b >= table.len() {
            continue;
        }
        if g.first_score > 0.75 {
            table[a].wins += 1;
            table[b].losses += 1;
        } else if g.first_score < 0.25 {
            table[a].losses += 1;
            table[b].wins += 1;
        } else {
            table[a].draws += 1;
            table[b].draws += 1;
        }
    }
    if config.ants.is_some() {
        // TrueSkill (mu in `rating`, sigma in `deviation`): by mu - 3 sigma.
        let skill = |r: &Rating| r.rating - 3.0 * r.deviation;
        table.sort_by(|x, y| skill(&y.rating).total_cmp(&skill(&x.rating)));
    } else {
        table.sort_by(|x, y| y.rating.rating.total_cmp(&x.rating.rating));
    }
    table
}

/// The arena's storage. Implementations: [`SqliteStore`] (one file, one machine) and
/// [`PostgresStore`] (one server, any number of worker machines).
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

    /// Claims the first waiting game of `tournament` in which neither bot is one of the
    /// entries in `skip` (the bots this worker lacks), as [`Store::claim`] does.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn claim_skipping(
        &mut self,
        tournament: i64,
        skip: &[usize],
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError>;

    /// Posts a result as [`Store::complete`] does and, in the same transaction, rates every
    /// round that this result completes with `rate` (a round is complete when every game of
    /// it and of the rounds before it is stored) and marks the tournament finished after its
    /// last round. Completions of one tournament are serialised, so each round is rated once,
    /// by whichever process stores its last game.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn complete_rated(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
        rate: RateRound<'_>,
    ) -> Result<Recorded, StoreError>;

    /// Extends a live lease to `now_ms + lease_ms` (the worker's heartbeat). `None` when the
    /// lease was lost (expired, or the game claimed again): stop playing that game.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn renew(
        &mut self,
        lease: &Lease,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError>;

    /// Gives a claimed game back to the queue at once (a worker stopping before it ends).
    /// Returns `false` when the lease was no longer held.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn release(&mut self, lease: &Lease) -> Result<bool, StoreError>;

    /// Counts the queue of `tournament` (of every unfinished tournament when `None`) at
    /// `now_ms`: a lease past its deadline counts as queued.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn queue_counts(&self, tournament: Option<i64>, now_ms: u64)
    -> Result<QueueCounts, StoreError>;

    /// The unfinished tournaments with games in the queue, oldest first.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn open_tournaments(&self) -> Result<Vec<Tournament>, StoreError>;

    /// Records a worker's heartbeat (inserting or replacing its line).
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn worker_seen(&mut self, status: &WorkerStatus) -> Result<(), StoreError>;

    /// Every worker that ever reported, latest heartbeat first.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn workers(&self) -> Result<Vec<WorkerStatus>, StoreError>;

    /// Keeps a bot's program (one file: its name and bytes) under its hash, for workers that
    /// lack it; storing the same hash again changes nothing. The caller limits the size.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn put_program(&mut self, hash: &str, name: &str, bytes: &[u8]) -> Result<(), StoreError>;

    /// The program stored under `hash`: its file name and bytes.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    fn program(&self, hash: &str) -> Result<Option<(String, Vec<u8>)>, StoreError>;
}
