//! [`Store`] on SQLite.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use ply_rating::Rating;

use crate::{
    Completion, GameRecord, Lease, QueueCounts, QueuedGame, RateRound, Recorded, Standing, Store,
    StoreError, Tournament, TournamentConfig, WorkerStatus, tally,
};

/// The schema, one migration per entry; `PRAGMA user_version` counts those applied.
const MIGRATIONS: &[&str] = &[
    // 1: the arena.
    "CREATE TABLE bots (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,
        UNIQUE (name, spec)
    );
    CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        config TEXT NOT NULL,
        finished INTEGER NOT NULL DEFAULT 0,
        created TEXT NOT NULL DEFAULT (datetime('now'))
    );
    CREATE TABLE tournament_bots (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        entry INTEGER NOT NULL,
        bot_id INTEGER NOT NULL REFERENCES bots(id),
        PRIMARY KEY (tournament_id, entry)
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        slot INTEGER NOT NULL,
        first_entry INTEGER NOT NULL,
        second_entry INTEGER NOT NULL,
        first_score REAL NOT NULL,
        result TEXT NOT NULL,
        replay TEXT NOT NULL,
        finished TEXT NOT NULL DEFAULT (datetime('now')),
        UNIQUE (tournament_id, round, slot)
    );
    CREATE TABLE ratings (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        entry INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        PRIMARY KEY (tournament_id, round, entry)
    );",
    // 2: the queue of games to play, with leases. `state` is 'queued', 'leased' or 'done';
    // `attempt` counts the claims, so that a result from an older claim is recognised.
    "CREATE TABLE queue (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        round INTEGER NOT NULL,
        slot INTEGER NOT NULL,
        first_entry INTEGER NOT NULL,
        second_entry INTEGER NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'leased', 'done')),
        attempt INTEGER NOT NULL DEFAULT 0,
        worker TEXT,
        lease_until INTEGER,
        PRIMARY KEY (tournament_id, round, slot)
    );
    CREATE INDEX queue_waiting ON queue (state, tournament_id, round, slot);",
    // 3: the workers that claim games, with their heartbeats (`ply workers`).
    "CREATE TABLE workers (
        name TEXT PRIMARY KEY,
        started_ms INTEGER NOT NULL,
        heartbeat_ms INTEGER NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL
    );",
    // 4: bot programs kept in the database for workers that lack them, by content hash.
    "CREATE TABLE programs (
        hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        content BLOB NOT NULL
    );",
    // 5: games of more than two players (Ants): every seat's entry, rank and score as JSON
    // (`[{"entry":2,"rank":0,"score":14.0},...]`, seat order); NULL for two-player games.
    "ALTER TABLE games ADD COLUMN seats TEXT;",
];

/// The arena in one SQLite file.
#[derive(Debug)]
pub struct SqliteStore {
    conn: Connection,
}

impl SqliteStore {
    /// Opens (creating if needed) the database at `path`, in WAL mode, and brings its schema
    /// up to date. The parent directory must exist.
    ///
    /// # Errors
    /// [`StoreError`] when the file cannot be opened or is from a newer ply.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        Self::setup(Connection::open(path)?, MIGRATIONS.len())
    }

    /// Opens `path` applying the first `version` migrations only: a database as an older ply
    /// left it, for the migration tests.
    #[doc(hidden)]
    pub fn open_at(path: &Path, version: usize) -> Result<SqliteStore, StoreError> {
        Self::setup(Connection::open(path)?, version.min(MIGRATIONS.len()))
    }

    /// Opens the existing database at `path` for reading only: nothing is created, migrated or
    /// written, so it works on a file in a read-only directory (`ply leaderboard`, `ply
    /// replay`). Writing through this store fails.
    ///
    /// # Errors
    /// [`StoreError`] when the file is missing, is no database, or is from a newer ply.
    pub fn open_read_only(path: &Path) -> Result<SqliteStore, StoreError> {
        let store = match Self::read_only(path, false) {
            Ok(store) => store,
            // A WAL database needs its `-shm` file to be read, and a read-only directory
            // cannot hold a new one. No writer can be at work there either (it would need
            // the `-wal` file), so the file is read as immutable: without the shared memory.
            Err(StoreError::Database(_) | StoreError::NotADatabase(_)) if path.exists() => {
                Self::read_only(path, true)?
            }
            Err(e) => return Err(e),
        };
        let version = store.schema_version()?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::NewerSchema {
                found: version,
                known,
            });
        }
        Ok(store)
    }

    /// A read-only connection whose first read succeeded.
    fn read_only(path: &Path, immutable: bool) -> Result<SqliteStore, StoreError> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = if immutable {
            Connection::open_with_flags(
                format!("file:{}?immutable=1", uri_path(path)),
                flags | OpenFlags::SQLITE_OPEN_URI,
            )?
        } else {
            Connection::open_with_flags(path, flags)?
        };
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let store = SqliteStore { conn };
        store.schema_version()?;
        Ok(store)
    }

    /// A database in memory, for tests.
    ///
    /// # Errors
    /// [`StoreError`] when SQLite fails.
    pub fn in_memory() -> Result<SqliteStore, StoreError> {
        Self::setup(Connection::open_in_memory()?, MIGRATIONS.len())
    }

    fn setup(conn: Connection, target: usize) -> Result<SqliteStore, StoreError> {
        // Another process (a second `ply`, a test) may be opening the same file right now.
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // WAL: readers (`ply leaderboard`) never block the tournament writing; NORMAL sync is
        // durable against a killed process, which is the crash that matters here.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        let mut store = SqliteStore { conn };
        store.migrate(target)?;
        Ok(store)
    }

    /// Applies the missing migrations in one write transaction, taken before the version is
    /// read, so that two processes opening a new file cannot both apply them.
    fn migrate(&mut self, target: usize) -> Result<(), StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.pragma_query_value(None, "user_version", |r| r.get(0))?;
        let known = MIGRATIONS.len() as i64;
        if version > known {
            return Err(StoreError::NewerSchema {
                found: version,
                known,
            });
        }
        for (i, sql) in MIGRATIONS
            .iter()
            .enumerate()
            .take(target)
            .skip(version as usize)
        {
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", i as i64 + 1)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The schema version in force.
    ///
    /// # Errors
    /// [`StoreError`] when SQLite fails.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    fn read_tournament(&self, id: i64) -> Result<Tournament, StoreError> {
        let row = self
            .conn
            .query_row(
                "SELECT config, finished, created FROM tournaments WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, bool>(1)?,
                        r.get::<_, String>(2)?,
                    ))
                },
            )
            .optional()?;
        let (config, finished, created) = row.ok_or(StoreError::NoTournament(id))?;
        Ok(Tournament {
            id,
            config: serde_json::from_str(&config)?,
            finished,
            created,
        })
    }
}

impl Store for SqliteStore {
    fn find_tournament(&self, config: &TournamentConfig) -> Result<Option<Tournament>, StoreError> {
        // Compared as values, not as text: a configuration stored before a field existed
        // reads back with that field's default.
        let mut stmt = self
            .conn
            .prepare("SELECT id, config FROM tournaments WHERE game = ?1 ORDER BY id DESC")?;
        let rows = stmt.query_map([&config.game], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        for row in rows {
            let (id, text) = row?;
            if serde_json::from_str::<TournamentConfig>(&text)
                .ok()
                .as_ref()
                == Some(config)
            {
                return self.read_tournament(id).map(Some);
            }
        }
        Ok(None)
    }

    fn create_tournament(&mut self, config: &TournamentConfig) -> Result<Tournament, StoreError> {
        let text = serde_json::to_string(config)?;
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO tournaments (game, config) VALUES (?1, ?2)",
            params![config.game, text],
        )?;
        let id = tx.last_insert_rowid();
        for (entry, bot) in config.bots.iter().enumerate() {
            tx.execute(
                "INSERT OR IGNORE INTO bots (name, spec) VALUES (?1, ?2)",
                params![bot.name, bot.spec],
            )?;
            let bot_id: i64 = tx.query_row(
                "SELECT id FROM bots WHERE name = ?1 AND spec = ?2",
                params![bot.name, bot.spec],
                |r| r.get(0),
            )?;
            tx.execute(
                "INSERT INTO tournament_bots (tournament_id, entry, bot_id) VALUES (?1, ?2, ?3)",
                params![id, entry as i64, bot_id],
            )?;
        }
        tx.commit()?;
        self.read_tournament(id)
    }

    fn tournament(&self, id: Option<i64>) -> Result<Tournament, StoreError> {
        if self.schema_version()? == 0 {
            // An empty file (opened read-only, so never migrated) holds no tournament.
            return Err(StoreError::NoTournament(id.unwrap_or(0)));
        }
        let id = match id {
            Some(id) => id,
            None => self
                .conn
                .query_row("SELECT max(id) FROM tournaments", [], |r| {
                    r.get::<_, Option<i64>>(0)
                })?
                .ok_or(StoreError::NoTournament(0))?,
        };
        self.read_tournament(id)
    }

    fn games(&self, tournament: i64) -> Result<Vec<GameRecord>, StoreError> {
        games_in(&self.conn, tournament)
    }

    fn record_game(&mut self, tournament: i64, game: &GameRecord) -> Result<bool, StoreError> {
        let inserted = self.conn.execute(
            "INSERT OR IGNORE INTO games
             (tournament_id, round, slot, first_entry, second_entry, first_score, result, replay,
              seats)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                tournament,
                game.round,
                game.slot,
                game.first as i64,
                game.second as i64,
                game.first_score,
                game.result,
                game.replay,
                crate::seats_json(&game.seats)?
            ],
        )?;
        Ok(inserted == 1)
    }

    fn record_ratings(
        &mut self,
        tournament: i64,
        round: u32,
        ratings: &[Rating],
    ) -> Result<(), StoreError> {
        let tx = self.conn.transaction()?;
        for (entry, r) in ratings.iter().enumerate() {
            tx.execute(
                "INSERT OR REPLACE INTO ratings
                 (tournament_id, round, entry, rating, deviation, volatility)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    tournament,
                    round,
                    entry as i64,
                    r.rating,
                    r.deviation,
                    r.volatility
                ],
            )?;
        }
        tx.commit()?;
        Ok(())
    }

    fn finish(&mut self, tournament: i64) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE tournaments SET finished = 1 WHERE id = ?1",
            [tournament],
        )?;
        Ok(())
    }

    fn standings(&self, tournament: i64) -> Result<Vec<Standing>, StoreError> {
        let t = self.read_tournament(tournament)?;
        let mut stmt = self.conn.prepare(
            "SELECT entry, rating, deviation, volatility FROM ratings r
             WHERE tournament_id = ?1
               AND round = (SELECT max(round) FROM ratings WHERE tournament_id = ?1)",
        )?;
        let rows = stmt.query_map([tournament], |r| {
            Ok((
                r.get::<_, i64>(0)? as usize,
                Rating {
                    rating: r.get(1)?,
                    deviation: r.get(2)?,
                    volatility: r.get(3)?,
                },
            ))
        })?;
        let ratings = rows.collect::<Result<Vec<_>, _>>()?;
        Ok(tally(&t.config, &ratings, &self.games(tournament)?))
    }

    fn enqueue(&mut self, tournament: i64, games: &[QueuedGame]) -> Result<usize, StoreError> {
        self.enqueue_games(tournament, games)
    }

    fn claim(
        &mut self,
        tournament: Option<i64>,
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        self.claim_game(tournament, &[], worker, now_ms, lease_ms)
    }

    fn complete(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
    ) -> Result<Completion, StoreError> {
        self.complete_game(lease, game, now_ms)
    }

    fn expire_leases(&mut self, tournament: Option<i64>, now_ms: u64) -> Result<usize, StoreError> {
        self.expire(tournament, now_ms)
    }

    fn claim_skipping(
        &mut self,
        tournament: i64,
        skip: &[usize],
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        self.claim_game(Some(tournament), skip, worker, now_ms, lease_ms)
    }

    fn complete_rated(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
        rate: RateRound<'_>,
    ) -> Result<Recorded, StoreError> {
        // IMMEDIATE: one writer at a time, so the round's last result is seen by exactly one
        // transaction, which rates it.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let completion = complete_in(&tx, lease, game, now_ms)?;
        let (rounds_rated, finished) = if completion == Completion::Stored {
            rate_complete_rounds(&tx, lease.tournament, rate)?
        } else {
            (Vec::new(), false)
        };
        tx.commit()?;
        Ok(Recorded {
            completion,
            rounds_rated,
            finished,
        })
    }

    fn renew(
        &mut self,
        lease: &Lease,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        let until = millis(now_ms).saturating_add(millis(lease_ms));
        let changed = self.conn.execute(
            "UPDATE queue SET lease_until = ?5
             WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3 AND attempt = ?4
               AND state = 'leased' AND lease_until >= ?6",
            params![
                lease.tournament,
                lease.game.round,
                lease.game.slot,
                lease.attempt,
                until,
                millis(now_ms)
            ],
        )?;
        Ok((changed == 1).then(|| Lease {
            until_ms: u64::try_from(until).unwrap_or(0),
            ..lease.clone()
        }))
    }

    fn release(&mut self, lease: &Lease) -> Result<bool, StoreError> {
        let changed = self.conn.execute(
            "UPDATE queue SET state = 'queued', worker = NULL, lease_until = NULL
             WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3 AND attempt = ?4
               AND state = 'leased'",
            params![
                lease.tournament,
                lease.game.round,
                lease.game.slot,
                lease.attempt
            ],
        )?;
        Ok(changed == 1)
    }

    fn queue_counts(
        &self,
        tournament: Option<i64>,
        now_ms: u64,
    ) -> Result<QueueCounts, StoreError> {
        Ok(self.conn.query_row(
            "SELECT
               coalesce(sum(q.state = 'queued' OR (q.state = 'leased' AND q.lease_until < ?2)), 0),
               coalesce(sum(q.state = 'leased' AND q.lease_until >= ?2), 0),
               coalesce(sum(q.state = 'done'), 0)
             FROM queue q JOIN tournaments t ON t.id = q.tournament_id
             WHERE (?1 IS NULL AND t.finished = 0) OR q.tournament_id = ?1",
            params![tournament, millis(now_ms)],
            |r| {
                Ok(QueueCounts {
                    queued: r.get::<_, i64>(0)? as u64,
                    leased: r.get::<_, i64>(1)? as u64,
                    done: r.get::<_, i64>(2)? as u64,
                })
            },
        )?)
    }

    fn open_tournaments(&self) -> Result<Vec<Tournament>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM tournaments t WHERE finished = 0
               AND EXISTS (SELECT 1 FROM queue q WHERE q.tournament_id = t.id AND q.state != 'done')
             ORDER BY id",
        )?;
        let ids = stmt
            .query_map([], |r| r.get::<_, i64>(0))?
            .collect::<Result<Vec<_>, _>>()?;
        ids.into_iter().map(|id| self.read_tournament(id)).collect()
    }

    fn worker_seen(&mut self, w: &WorkerStatus) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT OR REPLACE INTO workers (name, started_ms, heartbeat_ms, games, state)
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                w.name,
                millis(w.started_ms),
                millis(w.heartbeat_ms),
                millis(w.games),
                w.state
            ],
        )?;
        Ok(())
    }

    fn put_program(&mut self, hash: &str, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT OR IGNORE INTO programs (hash, name, content) VALUES (?1, ?2, ?3)",
            params![hash, name, bytes],
        )?;
        Ok(())
    }

    fn program(&self, hash: &str) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT name, content FROM programs WHERE hash = ?1",
                [hash],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    fn workers(&self) -> Result<Vec<WorkerStatus>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT name, started_ms, heartbeat_ms, games, state FROM workers
             ORDER BY heartbeat_ms DESC, name",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(WorkerStatus {
                name: r.get(0)?,
                started_ms: r.get::<_, i64>(1)? as u64,
                heartbeat_ms: r.get::<_, i64>(2)? as u64,
                games: r.get::<_, i64>(3)? as u64,
                state: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

/// Stores a leased game's result in `tx` unless the lease is lost or it is stored already.
fn complete_in(
    tx: &rusqlite::Transaction<'_>,
    lease: &Lease,
    game: &GameRecord,
    now_ms: u64,
) -> Result<Completion, StoreError> {
    let row = tx
        .query_row(
            "SELECT state, attempt, lease_until FROM queue
             WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3",
            params![lease.tournament, lease.game.round, lease.game.slot],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, u32>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                ))
            },
        )
        .optional()?;
    let Some((state, attempt, until)) = row else {
        return Ok(Completion::LeaseLost);
    };
    if attempt != lease.attempt {
        return Ok(Completion::LeaseLost);
    }
    if state == "done" {
        return Ok(Completion::AlreadyStored);
    }
    if state != "leased" || until.is_none_or(|u| u < millis(now_ms)) {
        return Ok(Completion::LeaseLost);
    }
    let inserted = tx.execute(
        "INSERT OR IGNORE INTO games
         (tournament_id, round, slot, first_entry, second_entry, first_score, result, replay,
          seats)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            lease.tournament,
            lease.game.round,
            lease.game.slot,
            lease.game.first as i64,
            lease.game.second as i64,
            game.first_score,
            game.result,
            game.replay,
            crate::seats_json(&game.seats)?
        ],
    )?;
    tx.execute(
        "UPDATE queue SET state = 'done', lease_until = NULL
         WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3",
        params![lease.tournament, lease.game.round, lease.game.slot],
    )?;
    Ok(if inserted == 1 {
        Completion::Stored
    } else {
        Completion::AlreadyStored
    })
}

/// Rates, in `tx`, every round after the last rated one whose games (and those of every round
/// before it) are all stored; finishes the tournament once its last round is rated.
fn rate_complete_rounds(
    tx: &rusqlite::Transaction<'_>,
    tournament: i64,
    rate: RateRound<'_>,
) -> Result<(Vec<u32>, bool), StoreError> {
    let config: String = tx.query_row(
        "SELECT config FROM tournaments WHERE id = ?1",
        [tournament],
        |r| r.get(0),
    )?;
    let config: TournamentConfig = serde_json::from_str(&config)?;
    let rated: u32 = tx.query_row(
        "SELECT coalesce(max(round), 0) FROM ratings WHERE tournament_id = ?1",
        [tournament],
        |r| r.get(0),
    )?;
    let mut rounds = Vec::new();
    let mut games = None;
    for round in rated + 1..=config.rounds {
        let (total, done): (i64, i64) = tx.query_row(
            "SELECT count(*), coalesce(sum(state = 'done'), 0) FROM queue
             WHERE tournament_id = ?1 AND round = ?2",
            params![tournament, round],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if total == 0 || done < total {
            break;
        }
        if games.is_none() {
            games = Some(games_in(tx, tournament)?);
        }
        let ratings = rate(games.as_deref().unwrap_or_default(), round);
        for (entry, r) in ratings.iter().enumerate() {
            tx.execute(
                "INSERT OR REPLACE INTO ratings
                 (tournament_id, round, entry, rating, deviation, volatility)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    tournament,
                    round,
                    entry as i64,
                    r.rating,
                    r.deviation,
                    r.volatility
                ],
            )?;
        }
        rounds.push(round);
    }
    let finished = rounds.last() == Some(&config.rounds);
    if finished {
        tx.execute(
            "UPDATE tournaments SET finished = 1 WHERE id = ?1",
            [tournament],
        )?;
    }
    Ok((rounds, finished))
}

/// A tournament's stored games, in (round, slot) order.
fn games_in(conn: &Connection, tournament: i64) -> Result<Vec<GameRecord>, StoreError> {
    let mut stmt = conn.prepare(
        "SELECT round, slot, first_entry, second_entry, first_score, result, replay, seats
         FROM games WHERE tournament_id = ?1 ORDER BY round, slot",
    )?;
    let rows = stmt.query_map([tournament], |r| {
        Ok((
            GameRecord {
                round: r.get(0)?,
                slot: r.get(1)?,
                first: r.get::<_, i64>(2)? as usize,
                second: r.get::<_, i64>(3)? as usize,
                first_score: r.get(4)?,
                result: r.get(5)?,
                replay: r.get(6)?,
                seats: Vec::new(),
            },
            r.get::<_, Option<String>>(7)?,
        ))
    })?;
    let mut games = Vec::new();
    for row in rows {
        let (mut game, seats) = row?;
        game.seats = crate::read_seats(seats.as_deref())?;
        games.push(game);
    }
    Ok(games)
}

/// `path` for a `file:` URI: the characters a URI gives a meaning to, percent-encoded.
fn uri_path(path: &Path) -> String {
    let mut out = String::new();
    for c in path.to_string_lossy().chars() {
        match c {
            '%' | '?' | '#' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// A lease's columns as SQLite integers (milliseconds past `i64::MAX` are clamped: no caller
/// lives that long).
fn millis(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

impl SqliteStore {
    fn enqueue_games(
        &mut self,
        tournament: i64,
        games: &[QueuedGame],
    ) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        let mut added = 0;
        for g in games {
            // A game stored before it was ever queued (or outside the queue) is done already.
            added += tx.execute(
                "INSERT OR IGNORE INTO queue
                 (tournament_id, round, slot, first_entry, second_entry, state)
                 VALUES (?1, ?2, ?3, ?4, ?5,
                   CASE WHEN EXISTS (SELECT 1 FROM games
                          WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3)
                        THEN 'done' ELSE 'queued' END)",
                params![tournament, g.round, g.slot, g.first as i64, g.second as i64],
            )?;
        }
        tx.commit()?;
        Ok(added)
    }

    fn claim_game(
        &mut self,
        tournament: Option<i64>,
        skip: &[usize],
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        // IMMEDIATE: the write lock is taken before the choice is read, so a second claimer
        // (another connection, another process) waits and then sees this claim.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now = millis(now_ms);
        let row = tx
            .query_row(
                "SELECT q.tournament_id, q.round, q.slot, q.first_entry, q.second_entry, q.attempt
                 FROM queue q JOIN tournaments t ON t.id = q.tournament_id
                 WHERE t.finished = 0 AND (?1 IS NULL OR q.tournament_id = ?1)
                   AND (q.state = 'queued' OR (q.state = 'leased' AND q.lease_until < ?2))
                   AND q.first_entry NOT IN (SELECT value FROM json_each(?3))
                   AND q.second_entry NOT IN (SELECT value FROM json_each(?3))
                 ORDER BY q.tournament_id, q.round, q.slot LIMIT 1",
                params![tournament, now, serde_json::to_string(skip)?],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        QueuedGame {
                            round: r.get(1)?,
                            slot: r.get(2)?,
                            first: r.get::<_, i64>(3)? as usize,
                            second: r.get::<_, i64>(4)? as usize,
                        },
                        r.get::<_, u32>(5)?,
                    ))
                },
            )
            .optional()?;
        let Some((tournament, game, attempt)) = row else {
            return Ok(None);
        };
        let until = now.saturating_add(millis(lease_ms));
        tx.execute(
            "UPDATE queue SET state = 'leased', attempt = ?4, worker = ?5, lease_until = ?6
             WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3",
            params![
                tournament,
                game.round,
                game.slot,
                attempt + 1,
                worker,
                until
            ],
        )?;
        tx.commit()?;
        Ok(Some(Lease {
            tournament,
            game,
            attempt: attempt + 1,
            worker: worker.to_string(),
            until_ms: u64::try_from(until).unwrap_or(0),
        }))
    }

    fn complete_game(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
    ) -> Result<Completion, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let completion = complete_in(&tx, lease, game, now_ms)?;
        tx.commit()?;
        Ok(completion)
    }

    fn expire(&mut self, tournament: Option<i64>, now_ms: u64) -> Result<usize, StoreError> {
        Ok(self.conn.execute(
            "UPDATE queue SET state = 'queued', worker = NULL, lease_until = NULL
             WHERE state = 'leased' AND lease_until < ?2
               AND (?1 IS NULL OR tournament_id = ?1)",
            params![tournament, millis(now_ms)],
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BotEntry;

    fn config() -> TournamentConfig {
        TournamentConfig {
            game: "tictactoe".into(),
            bots: vec![
                BotEntry {
                    name: "a".into(),
                    spec: "builtin:random".into(),
                    hash: None,
                },
                BotEntry {
                    name: "b".into(),
                    spec: "builtin:greedy".into(),
                    hash: None,
                },
            ],
            rounds: 2,
            time_ms: 1000,
            memory: 256 << 20,
            output: 64 << 10,
            cpus: 1,
            seed: 1,
            ants: None,
        }
    }

    fn game(round: u32, slot: u32, first_score: f64) -> GameRecord {
        GameRecord {
            round,
            slot,
            first: slot as usize % 2,
            second: 1 - slot as usize % 2,
            first_score,
            result: "x".into(),
            replay: "{}".into(),
            seats: Vec::new(),
        }
    }

    #[test]
    fn a_configuration_stored_without_an_output_limit_reads_as_64_kib() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        let mut old: serde_json::Value = serde_json::to_value(config()).unwrap();
        old.as_object_mut().unwrap().remove("output");
        s.conn
            .execute(
                "UPDATE tournaments SET config = ?1 WHERE id = ?2",
                params![old.to_string(), t.id],
            )
            .unwrap();
        assert_eq!(s.find_tournament(&config()).unwrap().unwrap().id, t.id);
    }

    #[test]
    fn one_cpu_is_stored_as_before_it_could_be_set_and_two_make_another_tournament() {
        let stored = serde_json::to_value(config()).unwrap();
        assert!(stored.get("cpus").is_none(), "{stored}");
        let two = TournamentConfig {
            cpus: 2,
            ..config()
        };
        assert_eq!(serde_json::to_value(&two).unwrap()["cpus"], 2);
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&two).unwrap();
        assert_eq!(s.find_tournament(&two).unwrap().unwrap().id, t.id);
        assert!(s.find_tournament(&config()).unwrap().is_none());
    }

    #[test]
    fn a_file_database_is_migrated_once_and_reopens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arena.sqlite3");
        let id = {
            let mut s = SqliteStore::open(&path).unwrap();
            let t = s.create_tournament(&config()).unwrap();
            s.record_game(t.id, &game(1, 0, 1.0)).unwrap();
            t.id
        };
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        assert_eq!(s.games(id).unwrap().len(), 1);
        assert_eq!(s.tournament(None).unwrap().id, id);
    }

    fn queued(round: u32, slot: u32) -> QueuedGame {
        QueuedGame {
            round,
            slot,
            first: slot as usize % 2,
            second: 1 - slot as usize % 2,
        }
    }

    #[test]
    fn two_claimers_never_get_the_same_game() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("queue.sqlite3");
        let id = {
            let mut s = SqliteStore::open(&path).unwrap();
            let t = s.create_tournament(&config()).unwrap();
            let games: Vec<QueuedGame> = (0..40).map(|slot| queued(1, slot)).collect();
            s.enqueue(t.id, &games).unwrap();
            t.id
        };
        // Four workers, each with its own connection, claim until the queue is empty.
        let claimed: Vec<Vec<u32>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|w| {
                    let path = &path;
                    scope.spawn(move || {
                        let mut s = SqliteStore::open(path).unwrap();
                        let mut mine = Vec::new();
                        while let Some(l) = s.claim(Some(id), &format!("w{w}"), 0, 60_000).unwrap()
                        {
                            mine.push(l.game.slot);
                        }
                        mine
                    })
                })
                .collect();
            workers.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let mut all: Vec<u32> = claimed.concat();
        all.sort_unstable();
        assert_eq!(all, (0..40).collect::<Vec<u32>>(), "{claimed:?}");
    }

    #[test]
    fn a_read_only_store_reads_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("arena.sqlite3");
        assert!(SqliteStore::open_read_only(&path).is_err());
        assert!(!path.exists(), "opening read-only created the file");
        let id = {
            let mut s = SqliteStore::open(&path).unwrap();
            let t = s.create_tournament(&config()).unwrap();
            s.record_game(t.id, &game(1, 0, 1.0)).unwrap();
            t.id
        };
        let mut s = SqliteStore::open_read_only(&path).unwrap();
        assert_eq!(s.tournament(None).unwrap().id, id);
        assert_eq!(s.games(id).unwrap().len(), 1);
        assert!(s.record_game(id, &game(1, 1, 1.0)).is_err());
    }

    #[test]
    fn an_unreadable_file_says_so_once() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("garbage");
        std::fs::write(&path, "not a database at all, just text\n".repeat(100)).unwrap();
        let e = SqliteStore::open(&path).unwrap_err();
        assert_eq!(
            e.to_string(),
            "file is not a database; name an arena database, or a path where there is none yet \
             to create one"
        );
        assert!(e.is_bad_input());
        assert!(std::error::Error::source(&e).is_none());
    }
}
