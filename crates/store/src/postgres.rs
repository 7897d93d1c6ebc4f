//! [`Store`] on PostgreSQL: one server that any number of worker machines share.
//!
//! The schema is SQLite's, table for table and column for column, in PostgreSQL's types; its
//! migrations are numbered the same and applied forward only, under an advisory lock so that
//! workers starting together cannot apply one twice. Claims take the next waiting game with
//! `FOR UPDATE SKIP LOCKED`: claimers never wait on each other and never get the same game.
//! Results of one tournament are posted while holding its row's lock, so that exactly one
//! transaction sees a round's last game and rates the round.

use r2d2_postgres::postgres::{GenericClient, NoTls, Transaction};
use r2d2_postgres::{PostgresConnectionManager, r2d2};

use ply_rating::Rating;

use crate::{
    Completion, GameRecord, Lease, QueueCounts, QueuedGame, RateRound, Recorded, Standing, Store,
    StoreError, Tournament, TournamentConfig, WorkerStatus, tally,
};

/// The schema, one migration per entry, the same steps as SQLite's; the table
/// `ply_schema` holds how many were applied.
const MIGRATIONS: &[&str] = &[
    // 1: the arena.
    "CREATE TABLE bots (
        id BIGSERIAL PRIMARY KEY,
        name TEXT NOT NULL,
        spec TEXT NOT NULL,
        UNIQUE (name, spec)
    );
    CREATE TABLE tournaments (
        id BIGSERIAL PRIMARY KEY,
        game TEXT NOT NULL,
        config TEXT NOT NULL,
        finished BOOLEAN NOT NULL DEFAULT FALSE,
        created TEXT NOT NULL
            DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
    );
    CREATE TABLE tournament_bots (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        entry BIGINT NOT NULL,
        bot_id BIGINT NOT NULL REFERENCES bots(id),
        PRIMARY KEY (tournament_id, entry)
    );
    CREATE TABLE games (
        id BIGSERIAL PRIMARY KEY,
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        round BIGINT NOT NULL,
        slot BIGINT NOT NULL,
        first_entry BIGINT NOT NULL,
        second_entry BIGINT NOT NULL,
        first_score DOUBLE PRECISION NOT NULL,
        result TEXT NOT NULL,
        replay TEXT NOT NULL,
        finished TEXT NOT NULL
            DEFAULT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'),
        UNIQUE (tournament_id, round, slot)
    );
    CREATE TABLE ratings (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        round BIGINT NOT NULL,
        entry BIGINT NOT NULL,
        rating DOUBLE PRECISION NOT NULL,
        deviation DOUBLE PRECISION NOT NULL,
        volatility DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (tournament_id, round, entry)
    );",
    // 2: the queue of games to play, with leases (as SQLite's).
    "CREATE TABLE queue (
        tournament_id BIGINT NOT NULL REFERENCES tournaments(id),
        round BIGINT NOT NULL,
        slot BIGINT NOT NULL,
        first_entry BIGINT NOT NULL,
        second_entry BIGINT NOT NULL,
        state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'leased', 'done')),
        attempt BIGINT NOT NULL DEFAULT 0,
        worker TEXT,
        lease_until BIGINT,
        PRIMARY KEY (tournament_id, round, slot)
    );
    CREATE INDEX queue_waiting ON queue (state, tournament_id, round, slot);",
    // 3: the workers that claim games, with their heartbeats.
    "CREATE TABLE workers (
        name TEXT PRIMARY KEY,
        started_ms BIGINT NOT NULL,
        heartbeat_ms BIGINT NOT NULL,
        games BIGINT NOT NULL DEFAULT 0,
        state TEXT NOT NULL
    );",
    // 4: bot programs kept in the database for workers that lack them, by content hash.
    "CREATE TABLE programs (
        hash TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        content BYTEA NOT NULL
    );",
    // 5: games of more than two players (Ants): every seat's entry, rank and score as JSON
    // (`[{"entry":2,"rank":0,"score":14.0},...]`, seat order); NULL for two-player games.
    "ALTER TABLE games ADD COLUMN seats TEXT;",
];

/// Any number under which ply's migrations lock the database (`pg_advisory_xact_lock`).
const MIGRATION_LOCK: i64 = 0x0070_6c79_5f6d_6967; // "ply_mig"

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

/// The arena in a PostgreSQL database, through a small connection pool.
#[derive(Clone, Debug)]
pub struct PostgresStore {
    pool: Pool,
}

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/database`) and
    /// brings its schema up to date.
    ///
    /// # Errors
    /// [`StoreError`] when the URL does not parse, the server cannot be reached, or the
    /// database is from a newer ply.
    pub fn open(url: &str) -> Result<PostgresStore, StoreError> {
        Self::open_at(url, MIGRATIONS.len())
    }

    /// Connects and applies the first `version` migrations only: a database as an older ply
    /// left it, for the migration tests.
    #[doc(hidden)]
    pub fn open_at(url: &str, version: usize) -> Result<PostgresStore, StoreError> {
        let config: r2d2_postgres::postgres::Config = url
            .parse()
            .map_err(|e| StoreError::Database(format!("{url:?} is no PostgreSQL URL: {e}")))?;
        let pool = r2d2::Pool::builder()
            .max_size(4)
            .min_idle(Some(0))
            .connection_timeout(std::time::Duration::from_secs(15))
            .build(PostgresConnectionManager::new(config, NoTls))?;
        let store = PostgresStore { pool };
        store.migrate(version.min(MIGRATIONS.len()))?;
        Ok(store)
    }

    fn conn(&self) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        Ok(self.pool.get()?)
    }

    fn migrate(&self, target: usize) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        let mut tx = conn.transaction()?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS ply_schema (version BIGINT NOT NULL)")?;
        let version: i64 = match tx.query_opt("SELECT version FROM ply_schema", &[])? {
            Some(row) => row.get(0),
            None => {
                tx.execute("INSERT INTO ply_schema (version) VALUES (0)", &[])?;
                0
            }
        };
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
            tx.batch_execute(sql)?;
            tx.execute("UPDATE ply_schema SET version = $1", &[&(i as i64 + 1)])?;
        }
        tx.commit()?;
        Ok(())
    }

    /// The schema version in force.
    ///
    /// # Errors
    /// [`StoreError`] when the database fails.
    pub fn schema_version(&self) -> Result<i64, StoreError> {
        Ok(self
            .conn()?
            .query_one("SELECT version FROM ply_schema", &[])?
            .get(0))
    }
}

/// A tournament read through any client (a connection or a transaction).
fn read_tournament(c: &mut impl GenericClient, id: i64) -> Result<Tournament, StoreError> {
    let row = c
        .query_opt(
            "SELECT config, finished, created FROM tournaments WHERE id = $1",
            &[&id],
        )?
        .ok_or(StoreError::NoTournament(id))?;
    Ok(Tournament {
        id,
        config: serde_json::from_str(row.get(0))?,
        finished: row.get(1),
        created: row.get(2),
    })
}

fn games_in(c: &mut impl GenericClient, tournament: i64) -> Result<Vec<GameRecord>, StoreError> {
    let rows = c.query(
        "SELECT round, slot, first_entry, second_entry, first_score, result, replay, seats
         FROM games WHERE tournament_id = $1 ORDER BY round, slot",
        &[&tournament],
    )?;
    rows.iter()
        .map(|r| {
            Ok(GameRecord {
                round: r.get::<_, i64>(0) as u32,
                slot: r.get::<_, i64>(1) as u32,
                first: r.get::<_, i64>(2) as usize,
                second: r.get::<_, i64>(3) as usize,
                first_score: r.get(4),
                result: r.get(5),
                replay: r.get(6),
                seats: crate::read_seats(r.get::<_, Option<String>>(7).as_deref())?,
            })
        })
        .collect()
}

/// Milliseconds as a BIGINT (clamped: no caller lives past `i64::MAX`).
fn millis(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

fn entries(skip: &[usize]) -> Vec<i64> {
    skip.iter().map(|&e| e as i64).collect()
}

impl Store for PostgresStore {
    fn find_tournament(&self, config: &TournamentConfig) -> Result<Option<Tournament>, StoreError> {
        let mut c = self.conn()?;
        let rows = c.query(
            "SELECT id, config FROM tournaments WHERE game = $1 ORDER BY id DESC",
            &[&config.game],
        )?;
        for row in rows {
            let text: &str = row.get(1);
            if serde_json::from_str::<TournamentConfig>(text).ok().as_ref() == Some(config) {
                return read_tournament(&mut *c, row.get(0)).map(Some);
            }
        }
        Ok(None)
    }

    fn create_tournament(&mut self, config: &TournamentConfig) -> Result<Tournament, StoreError> {
        let text = serde_json::to_string(config)?;
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let id: i64 = tx
            .query_one(
                "INSERT INTO tournaments (game, config) VALUES ($1, $2) RETURNING id",
                &[&config.game, &text],
            )?
            .get(0);
        for (entry, bot) in config.bots.iter().enumerate() {
            tx.execute(
                "INSERT INTO bots (name, spec) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&bot.name, &bot.spec],
            )?;
            let bot_id: i64 = tx
                .query_one(
                    "SELECT id FROM bots WHERE name = $1 AND spec = $2",
                    &[&bot.name, &bot.spec],
                )?
                .get(0);
            tx.execute(
                "INSERT INTO tournament_bots (tournament_id, entry, bot_id) VALUES ($1, $2, $3)",
                &[&id, &(entry as i64), &bot_id],
            )?;
        }
        let t = read_tournament(&mut tx, id)?;
        tx.commit()?;
        Ok(t)
    }

    fn tournament(&self, id: Option<i64>) -> Result<Tournament, StoreError> {
        let mut c = self.conn()?;
        let id = match id {
            Some(id) => id,
            None => c
                .query_one("SELECT max(id) FROM tournaments", &[])?
                .get::<_, Option<i64>>(0)
                .ok_or(StoreError::NoTournament(0))?,
        };
        read_tournament(&mut *c, id)
    }

    fn games(&self, tournament: i64) -> Result<Vec<GameRecord>, StoreError> {
        games_in(&mut *self.conn()?, tournament)
    }

    fn record_game(&mut self, tournament: i64, game: &GameRecord) -> Result<bool, StoreError> {
        let inserted = self.conn()?.execute(
            "INSERT INTO games
             (tournament_id, round, slot, first_entry, second_entry, first_score, result, replay,
              seats)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
            &[
                &tournament,
                &i64::from(game.round),
                &i64::from(game.slot),
                &(game.first as i64),
                &(game.second as i64),
                &game.first_score,
                &game.result,
                &game.replay,
                &crate::seats_json(&game.seats)?,
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
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        store_ratings(&mut tx, tournament, round, ratings)?;
        tx.commit()?;
        Ok(())
    }

    fn finish(&mut self, tournament: i64) -> Result<(), StoreError> {
        self.conn()?.execute(
            "UPDATE tournaments SET finished = TRUE WHERE id = $1",
            &[&tournament],
        )?;
        Ok(())
    }

    fn standings(&self, tournament: i64) -> Result<Vec<Standing>, StoreError> {
        let mut c = self.conn()?;
        // One snapshot for the three reads: a game stored meanwhile is in all or none.
        let mut tx = c
            .build_transaction()
            .isolation_level(r2d2_postgres::postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let t = read_tournament(&mut tx, tournament)?;
        let ratings: Vec<(usize, Rating)> = tx
            .query(
                "SELECT entry, rating, deviation, volatility FROM ratings
                 WHERE tournament_id = $1
                   AND round = (SELECT max(round) FROM ratings WHERE tournament_id = $1)",
                &[&tournament],
            )?
            .iter()
            .map(|r| {
                (
                    r.get::<_, i64>(0) as usize,
                    Rating {
                        rating: r.get(1),
                        deviation: r.get(2),
                        volatility: r.get(3),
                    },
                )
            })
            .collect();
        let games = games_in(&mut tx, tournament)?;
        tx.commit()?;
        Ok(tally(&t.config, &ratings, &games))
    }

    fn enqueue(&mut self, tournament: i64, games: &[QueuedGame]) -> Result<usize, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let mut added = 0;
        for g in games {
            added += tx.execute(
                "INSERT INTO queue (tournament_id, round, slot, first_entry, second_entry, state)
                 VALUES ($1, $2, $3, $4, $5,
                   CASE WHEN EXISTS (SELECT 1 FROM games
                          WHERE tournament_id = $1 AND round = $2 AND slot = $3)
                        THEN 'done' ELSE 'queued' END)
                 ON CONFLICT DO NOTHING",
                &[
                    &tournament,
                    &i64::from(g.round),
                    &i64::from(g.slot),
                    &(g.first as i64),
                    &(g.second as i64),
                ],
            )? as usize;
        }
        tx.commit()?;
        Ok(added)
    }

    fn claim(
        &mut self,
        tournament: Option<i64>,
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        self.claim_where(tournament, &[], worker, now_ms, lease_ms)
    }

    fn complete(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
    ) -> Result<Completion, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        let completion = complete_in(&mut tx, lease, game, now_ms)?;
        tx.commit()?;
        Ok(completion)
    }

    fn expire_leases(&mut self, tournament: Option<i64>, now_ms: u64) -> Result<usize, StoreError> {
        Ok(self.conn()?.execute(
            "UPDATE queue SET state = 'queued', worker = NULL, lease_until = NULL
             WHERE state = 'leased' AND lease_until < $2
               AND ($1::BIGINT IS NULL OR tournament_id = $1)",
            &[&tournament, &millis(now_ms)],
        )? as usize)
    }

    fn claim_skipping(
        &mut self,
        tournament: i64,
        skip: &[usize],
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        self.claim_where(Some(tournament), skip, worker, now_ms, lease_ms)
    }

    fn complete_rated(
        &mut self,
        lease: &Lease,
        game: &GameRecord,
        now_ms: u64,
        rate: RateRound<'_>,
    ) -> Result<Recorded, StoreError> {
        let mut c = self.conn()?;
        let mut tx = c.transaction()?;
        // The tournament's row first (every rated completion takes it, in this order): the
        // completions of one tournament follow one another, so exactly one sees a round's
        // last game.
        let config: String = tx
            .query_opt(
                "SELECT config FROM tournaments WHERE id = $1 FOR UPDATE",
                &[&lease.tournament],
            )?
            .ok_or(StoreError::NoTournament(lease.tournament))?
            .get(0);
        let config: TournamentConfig = serde_json::from_str(&config)?;
        let completion = complete_in(&mut tx, lease, game, now_ms)?;
        let (rounds_rated, finished) = if completion == Completion::Stored {
            rate_complete_rounds(&mut tx, lease.tournament, &config, rate)?
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
        let changed = self.conn()?.execute(
            "UPDATE queue SET lease_until = $5
             WHERE tournament_id = $1 AND round = $2 AND slot = $3 AND attempt = $4
               AND state = 'leased' AND lease_until >= $6",
            &[
                &lease.tournament,
                &i64::from(lease.game.round),
                &i64::from(lease.game.slot),
                &i64::from(lease.attempt),
                &until,
                &millis(now_ms),
            ],
        )?;
        Ok((changed == 1).then(|| Lease {
            until_ms: u64::try_from(until).unwrap_or(0),
            ..lease.clone()
        }))
    }

    fn release(&mut self, lease: &Lease) -> Result<bool, StoreError> {
        let changed = self.conn()?.execute(
            "UPDATE queue SET state = 'queued', worker = NULL, lease_until = NULL
             WHERE tournament_id = $1 AND round = $2 AND slot = $3 AND attempt = $4
               AND state = 'leased'",
            &[
                &lease.tournament,
                &i64::from(lease.game.round),
                &i64::from(lease.game.slot),
                &i64::from(lease.attempt),
            ],
        )?;
        Ok(changed == 1)
    }

    fn queue_counts(
        &self,
        tournament: Option<i64>,
        now_ms: u64,
    ) -> Result<QueueCounts, StoreError> {
        let row = self.conn()?.query_one(
            "SELECT
               count(*) FILTER (WHERE q.state = 'queued'
                                   OR (q.state = 'leased' AND q.lease_until < $2)),
               count(*) FILTER (WHERE q.state = 'leased' AND q.lease_until >= $2),
               count(*) FILTER (WHERE q.state = 'done')
             FROM queue q JOIN tournaments t ON t.id = q.tournament_id
             WHERE ($1::BIGINT IS NULL AND NOT t.finished) OR q.tournament_id = $1",
            &[&tournament, &millis(now_ms)],
        )?;
        Ok(QueueCounts {
            queued: row.get::<_, i64>(0) as u64,
            leased: row.get::<_, i64>(1) as u64,
            done: row.get::<_, i64>(2) as u64,
        })
    }

    fn open_tournaments(&self) -> Result<Vec<Tournament>, StoreError> {
        let mut c = self.conn()?;
        let ids: Vec<i64> = c
            .query(
                "SELECT id FROM tournaments t WHERE NOT finished
                   AND EXISTS (SELECT 1 FROM queue q
                               WHERE q.tournament_id = t.id AND q.state != 'done')
                 ORDER BY id",
                &[],
            )?
            .iter()
            .map(|r| r.get(0))
            .collect();
        ids.into_iter()
            .map(|id| read_tournament(&mut *c, id))
            .collect()
    }

    fn worker_seen(&mut self, w: &WorkerStatus) -> Result<(), StoreError> {
        self.conn()?.execute(
            "INSERT INTO workers (name, started_ms, heartbeat_ms, games, state)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (name) DO UPDATE SET started_ms = $2, heartbeat_ms = $3, games = $4,
               state = $5",
            &[
                &w.name,
                &millis(w.started_ms),
                &millis(w.heartbeat_ms),
                &millis(w.games),
                &w.state,
            ],
        )?;
        Ok(())
    }

    fn put_program(&mut self, hash: &str, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.conn()?.execute(
            "INSERT INTO programs (hash, name, content) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            &[&hash, &name, &bytes],
        )?;
        Ok(())
    }

    fn program(&self, hash: &str) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        Ok(self
            .conn()?
            .query_opt(
                "SELECT name, content FROM programs WHERE hash = $1",
                &[&hash],
            )?
            .map(|r| (r.get(0), r.get(1))))
    }

    fn workers(&self) -> Result<Vec<WorkerStatus>, StoreError> {
        Ok(self
            .conn()?
            .query(
                "SELECT name, started_ms, heartbeat_ms, games, state FROM workers
                 ORDER BY heartbeat_ms DESC, name",
                &[],
            )?
            .iter()
            .map(|r| WorkerStatus {
                name: r.get(0),
                started_ms: r.get::<_, i64>(1) as u64,
                heartbeat_ms: r.get::<_, i64>(2) as u64,
                games: r.get::<_, i64>(3) as u64,
                state: r.get(4),
            })
            .collect())
    }
}

impl PostgresStore {
    /// Claims the first waiting game in one statement: the row is chosen and locked with
    /// `FOR UPDATE SKIP LOCKED` (a row another claimer holds is passed over, not waited for)
    /// and leased by the same `UPDATE`.
    fn claim_where(
        &mut self,
        tournament: Option<i64>,
        skip: &[usize],
        worker: &str,
        now_ms: u64,
        lease_ms: u64,
    ) -> Result<Option<Lease>, StoreError> {
        let now = millis(now_ms);
        let until = now.saturating_add(millis(lease_ms));
        let row = self.conn()?.query_opt(
            "WITH next AS (
               SELECT q.tournament_id, q.round, q.slot
               FROM queue q JOIN tournaments t ON t.id = q.tournament_id
               WHERE NOT t.finished AND ($1::BIGINT IS NULL OR q.tournament_id = $1)
                 AND (q.state = 'queued' OR (q.state = 'leased' AND q.lease_until < $2))
                 AND NOT (q.first_entry = ANY($3) OR q.second_entry = ANY($3))
               ORDER BY q.tournament_id, q.round, q.slot
               LIMIT 1
               FOR UPDATE OF q SKIP LOCKED
             )
             UPDATE queue q SET state = 'leased', attempt = q.attempt + 1, worker = $4,
               lease_until = $5
             FROM next
             WHERE q.tournament_id = next.tournament_id AND q.round = next.round
               AND q.slot = next.slot
             RETURNING q.tournament_id, q.round, q.slot, q.first_entry, q.second_entry,
               q.attempt",
            &[&tournament, &now, &entries(skip), &worker, &until],
        )?;
        Ok(row.map(|r| Lease {
            tournament: r.get(0),
            game: QueuedGame {
                round: r.get::<_, i64>(1) as u32,
                slot: r.get::<_, i64>(2) as u32,
                first: r.get::<_, i64>(3) as usize,
                second: r.get::<_, i64>(4) as usize,
            },
            attempt: r.get::<_, i64>(5) as u32,
            worker: worker.to_string(),
            until_ms: u64::try_from(until).unwrap_or(0),
        }))
    }
}

/// Stores a leased game's result in `tx` unless the lease is lost or it is stored already;
/// the queue's row is locked first, so a sweep or a second claim cannot slip in between.
fn complete_in(
    tx: &mut Transaction<'_>,
    lease: &Lease,
    game: &GameRecord,
    now_ms: u64,
) -> Result<Completion, StoreError> {
    let key = (
        lease.tournament,
        i64::from(lease.game.round),
        i64::from(lease.game.slot),
    );
    let Some(row) = tx.query_opt(
        "SELECT state, attempt, lease_until FROM queue
         WHERE tournament_id = $1 AND round = $2 AND slot = $3 FOR UPDATE",
        &[&key.0, &key.1, &key.2],
    )?
    else {
        return Ok(Completion::LeaseLost);
    };
    let state: &str = row.get(0);
    let attempt: i64 = row.get(1);
    let until: Option<i64> = row.get(2);
    if attempt != i64::from(lease.attempt) {
        return Ok(Completion::LeaseLost);
    }
    if state == "done" {
        return Ok(Completion::AlreadyStored);
    }
    if state != "leased" || until.is_none_or(|u| u < millis(now_ms)) {
        return Ok(Completion::LeaseLost);
    }
    let inserted = tx.execute(
        "INSERT INTO games
         (tournament_id, round, slot, first_entry, second_entry, first_score, result, replay,
          seats)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
        &[
            &key.0,
            &key.1,
            &key.2,
            &(lease.game.first as i64),
            &(lease.game.second as i64),
            &game.first_score,
            &game.result,
            &game.replay,
            &crate::seats_json(&game.seats)?,
        ],
    )?;
    tx.execute(
        "UPDATE queue SET state = 'done', lease_until = NULL
         WHERE tournament_id = $1 AND round = $2 AND slot = $3",
        &[&key.0, &key.1, &key.2],
    )?;
    Ok(if inserted == 1 {
        Completion::Stored
    } else {
        Completion::AlreadyStored
    })
}

fn store_ratings(
    tx: &mut Transaction<'_>,
    tournament: i64,
    round: u32,
    ratings: &[Rating],
) -> Result<(), StoreError> {
    for (entry, r) in ratings.iter().enumerate() {
        tx.execute(
            "INSERT INTO ratings (tournament_id, round, entry, rating, deviation, volatility)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (tournament_id, round, entry)
             DO UPDATE SET rating = $4, deviation = $5, volatility = $6",
            &[
                &tournament,
                &i64::from(round),
                &(entry as i64),
                &r.rating,
                &r.deviation,
                &r.volatility,
            ],
        )?;
    }
    Ok(())
}

/// Rates, in `tx`, every round after the last rated one whose games (and those of every round
/// before it) are all stored; finishes the tournament once its last round is rated.
fn rate_complete_rounds(
    tx: &mut Transaction<'_>,
    tournament: i64,
    config: &TournamentConfig,
    rate: RateRound<'_>,
) -> Result<(Vec<u32>, bool), StoreError> {
    let rated: i64 = tx
        .query_one(
            "SELECT coalesce(max(round), 0) FROM ratings WHERE tournament_id = $1",
            &[&tournament],
        )?
        .get(0);
    let mut rounds = Vec::new();
    let mut games = None;
    for round in (rated as u32 + 1)..=config.rounds {
        let row = tx.query_one(
            "SELECT count(*), count(*) FILTER (WHERE state = 'done') FROM queue
             WHERE tournament_id = $1 AND round = $2",
            &[&tournament, &i64::from(round)],
        )?;
        let (total, done): (i64, i64) = (row.get(0), row.get(1));
        if total == 0 || done < total {
            break;
        }
        if games.is_none() {
            games = Some(games_in(tx, tournament)?);
        }
        let ratings = rate(games.as_deref().unwrap_or_default(), round);
        store_ratings(tx, tournament, round, &ratings)?;
        rounds.push(round);
    }
    let finished = rounds.last() == Some(&config.rounds);
    if finished {
        tx.execute(
            "UPDATE tournaments SET finished = TRUE WHERE id = $1",
            &[&tournament],
        )?;
    }
    Ok((rounds, finished))
}
