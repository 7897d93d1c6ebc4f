//! [`Store`] on SQLite.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use ply_rating::Rating;

use crate::{GameRecord, Standing, Store, StoreError, Tournament, TournamentConfig};

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
    fn open_tournament(&mut self, config: &TournamentConfig) -> Result<Tournament, StoreError> {
        let text = serde_json::to_string(config)?;
        let existing: Option<i64> = self
            .conn
            .query_row(
                "SELECT id FROM tournaments WHERE config = ?1 AND finished = 0
                 ORDER BY id DESC LIMIT 1",
                [&text],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(id) = existing {
            return self.read_tournament(id);
        }
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
    fn the_same_configuration_resumes_the_unfinished_tournament() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.open_tournament(&config()).unwrap();
        assert_eq!(s.open_tournament(&config()).unwrap().id, t.id);
        let mut other = config();
        other.rounds = 3;
        assert_ne!(s.open_tournament(&other).unwrap().id, t.id);
        s.finish(t.id).unwrap();
        assert_ne!(s.open_tournament(&config()).unwrap().id, t.id);
    }

    #[test]
    fn a_game_is_stored_once() {
        let mut s = SqliteStore::in_memory().unwrap();
        let t = s.open_tournament(&config()).unwrap();
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
        let t = s.open_tournament(&config()).unwrap();
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
            let t = s.open_tournament(&config()).unwrap();
            s.record_game(t.id, &game(1, 0, 1.0)).unwrap();
            t.id
        };
        let s = SqliteStore::open(&path).unwrap();
        assert_eq!(s.schema_version().unwrap(), MIGRATIONS.len() as i64);
        assert_eq!(s.games(id).unwrap().len(), 1);
        assert_eq!(s.tournament(None).unwrap().id, id);
    }
}
