//! [`Store`] on SQLite.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior, params};

use ply_rating::Rating;

use crate::{
    Completion, GameRecord, Lease, QueuedGame, Standing, Store, StoreError, Tournament,
    TournamentConfig,
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
        Self::setup(Connection::open(path)?)
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
            Err(StoreError::Database(_)) if path.exists() => Self::read_only(path, true)?,
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
        Self::setup(Connection::open_in_memory()?)
    }

    fn setup(conn: Connection) -> Result<SqliteStore, StoreError> {
        // Another process (a second `ply`, a test) may be opening the same file right now.
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        // WAL: readers (`ply leaderboard`) never block the tournament writing; NORMAL sync is
        // durable against a killed process, which is the crash that matters here.
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        let mut store = SqliteStore { conn };
        store.migrate()?;
        Ok(store)
    }

    /// Applies the missing migrations in one write transaction, taken before the version is
    /// read, so that two processes opening a new file cannot both apply them.
    fn migrate(&mut self) -> Result<(), StoreError> {
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
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version as usize) {
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
        let mut stmt = self.conn.prepare(
            "SELECT round, slot, first_entry, second_entry, first_score, result, replay
             FROM games WHERE tournament_id = ?1 ORDER BY round, slot",
        )?;
        let rows = stmt.query_map([tournament], |r| {
            Ok(GameRecord {
                round: r.get(0)?,
                slot: r.get(1)?,
                first: r.get::<_, i64>(2)? as usize,
                second: r.get::<_, i64>(3)? as usize,
                first_score: r.get(4)?,
                result: r.get(5)?,
                replay: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn record_game(&mut self, tournament: i64, game: &GameRecord) -> Result<bool, StoreError> {
        let inserted = self.conn.execute(
            "INSERT OR IGNORE INTO games
             (tournament_id, round, slot, first_entry, second_entry, first_score, result, replay)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                tournament,
                game.round,
                game.slot,
                game.first as i64,
                game.second as i64,
                game.first_score,
                game.result,
                game.replay
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
        let mut table: Vec<Standing> = t
            .config
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
        for row in rows {
            let (entry, rating) = row?;
            if let Some(s) = table.get_mut(entry) {
                s.rating = rating;
            }
        }
        for g in self.games(tournament)? {
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
        table.sort_by(|x, y| y.rating.rating.total_cmp(&x.rating.rating));
        Ok(table)
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
        self.claim_game(tournament, worker, now_ms, lease_ms)
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
                 ORDER BY q.tournament_id, q.round, q.slot LIMIT 1",
                params![tournament, now],
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
             (tournament_id, round, slot, first_entry, second_entry, first_score, result, replay)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![
                lease.tournament,
                lease.game.round,
                lease.game.slot,
                lease.game.first as i64,
                lease.game.second as i64,
                game.first_score,
                game.result,
                game.replay
            ],
        )?;
        tx.execute(
            "UPDATE queue SET state = 'done', lease_until = NULL
             WHERE tournament_id = ?1 AND round = ?2 AND slot = ?3",
            params![lease.tournament, lease.game.round, lease.game.slot],
        )?;
        tx.commit()?;
        Ok(if inserted == 1 {
            Completion::Stored
        } else {
            Completion::AlreadyStored
        })
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
                },
                BotEntry {
                    name: "b".into(),
                    spec: "builtin:greedy".into(),
                },
            ],
            rounds: 2,
            time_ms: 1000,
            memory: 256 << 20,
            output: 64 << 10,
            seed: 1,
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
        }
    }

    #[test]
    fn a_tournament_is_found_again_by_its_configuration_finished_or_not() {
        let mut s = SqliteStore::in_memory().unwrap();
        assert_eq!(s.find_tournament(&config()).unwrap(), None);
        let t = s.create_tournament(&config()).unwrap();
        assert_eq!(s.find_tournament(&config()).unwrap().unwrap().id, t.id);
        let mut other = config();
        other.rounds = 3;
        assert_eq!(s.find_tournament(&other).unwrap(), None);
        let mut other = config();
        other.output = 128 << 10;
        assert_eq!(s.find_tournament(&other).unwrap(), None);
        s.finish(t.id).unwrap();
        let found = s.find_tournament(&config()).unwrap().unwrap();
        assert_eq!((found.id, found.finished), (t.id, true));
        let newer = s.create_tournament(&config()).unwrap();
        assert_eq!(s.find_tournament(&config()).unwrap().unwrap().id, newer.id);
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
    fn a_game_is_stored_once() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        assert!(s.record_game(t.id, &game(1, 0, 1.0)).unwrap());
        assert!(!s.record_game(t.id, &game(1, 0, 0.0)).unwrap());
        assert!(s.record_game(t.id, &game(1, 1, 0.5)).unwrap());
        let games = s.games(t.id).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].first_score, 1.0);
    }

    #[test]
    fn standings_count_results_and_take_the_last_round_s_rating() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        s.record_game(t.id, &game(1, 0, 1.0)).unwrap(); // a beats b
        s.record_game(t.id, &game(1, 1, 0.5)).unwrap(); // b draws a
        let r = |rating| Rating {
            rating,
            deviation: 300.0,
            volatility: 0.06,
        };
        s.record_ratings(t.id, 1, &[r(1400.0), r(1600.0)]).unwrap();
        s.record_ratings(t.id, 2, &[r(1700.0), r(1300.0)]).unwrap();
        let table = s.standings(t.id).unwrap();
        assert_eq!(table[0].bot, "a");
        assert_eq!(table[0].rating.rating, 1700.0);
        assert_eq!((table[0].wins, table[0].draws, table[0].losses), (1, 1, 0));
        assert_eq!((table[1].wins, table[1].draws, table[1].losses), (0, 1, 1));
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
    fn enqueueing_again_adds_only_what_is_missing() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        s.record_game(t.id, &game(1, 0, 1.0)).unwrap();
        // (1, 0) is stored already: it is queued as done, and never claimed.
        assert_eq!(s.enqueue(t.id, &[queued(1, 0), queued(1, 1)]).unwrap(), 2);
        assert_eq!(s.enqueue(t.id, &[queued(1, 0), queued(1, 1)]).unwrap(), 0);
        let lease = s.claim(Some(t.id), "w", 0, 1000).unwrap().unwrap();
        assert_eq!(lease.game, queued(1, 1));
        assert_eq!(s.claim(Some(t.id), "w", 0, 1000).unwrap(), None);
    }

    #[test]
    fn claims_go_in_round_and_slot_order_and_a_finished_tournament_has_none() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        s.enqueue(t.id, &[queued(2, 0), queued(1, 1), queued(1, 0)])
            .unwrap();
        let order: Vec<(u32, u32)> = (0..3)
            .map(|_| {
                let l = s.claim(None, "w", 0, 1000).unwrap().unwrap();
                (l.game.round, l.game.slot)
            })
            .collect();
        assert_eq!(order, [(1, 0), (1, 1), (2, 0)]);
        let other = s.create_tournament(&config()).unwrap();
        s.enqueue(other.id, &[queued(1, 0)]).unwrap();
        s.finish(other.id).unwrap();
        assert_eq!(
            s.claim(None, "w", 5000, 1000)
                .unwrap()
                .map(|l| l.tournament),
            Some(t.id)
        );
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
    fn an_expired_lease_is_claimed_again_and_its_late_result_refused() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        s.enqueue(t.id, &[queued(1, 0)]).unwrap();
        let first = s.claim(Some(t.id), "slow", 1_000, 500).unwrap().unwrap();
        assert_eq!((first.attempt, first.until_ms), (1, 1_500));
        // Held until 1500: nobody else gets it.
        assert_eq!(s.claim(Some(t.id), "fast", 1_500, 500).unwrap(), None);
        // Past the deadline, the sweep puts it back, once.
        assert_eq!(s.expire_leases(Some(t.id), 1_400).unwrap(), 0);
        assert_eq!(s.expire_leases(Some(t.id), 1_501).unwrap(), 1);
        let second = s.claim(Some(t.id), "fast", 1_600, 500).unwrap().unwrap();
        assert_eq!((second.game, second.attempt), (first.game, 2));
        // The slow worker's late result is dropped; the second worker's is stored.
        assert_eq!(
            s.complete(&first, &game(1, 0, 1.0), 1_700).unwrap(),
            Completion::LeaseLost
        );
        assert_eq!(
            s.complete(&second, &game(1, 0, 0.0), 1_700).unwrap(),
            Completion::Stored
        );
        let games = s.games(t.id).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].first_score, 0.0);
    }

    #[test]
    fn a_lease_past_its_deadline_is_claimed_again_without_a_sweep() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        s.enqueue(t.id, &[queued(1, 0)]).unwrap();
        let first = s.claim(Some(t.id), "a", 0, 100).unwrap().unwrap();
        // Not yet taken over, but late all the same: refused.
        assert_eq!(
            s.complete(&first, &game(1, 0, 1.0), 101).unwrap(),
            Completion::LeaseLost
        );
        let second = s.claim(Some(t.id), "b", 101, 100).unwrap().unwrap();
        assert_eq!(second.attempt, 2);
    }

    #[test]
    fn a_result_posted_twice_is_recorded_once() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.create_tournament(&config()).unwrap();
        s.enqueue(t.id, &[queued(1, 0)]).unwrap();
        let lease = s.claim(Some(t.id), "w", 0, 1000).unwrap().unwrap();
        assert_eq!(
            s.complete(&lease, &game(1, 0, 1.0), 10).unwrap(),
            Completion::Stored
        );
        assert_eq!(
            s.complete(&lease, &game(1, 0, 0.5), 20).unwrap(),
            Completion::AlreadyStored
        );
        let games = s.games(t.id).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].first_score, 1.0);
        assert_eq!(s.claim(Some(t.id), "w", 30, 1000).unwrap(), None);
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
        assert_eq!(e.to_string(), "database error: file is not a database");
        assert!(std::error::Error::source(&e).is_none());
    }
}
