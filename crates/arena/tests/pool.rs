//! The worker pool on a SQLite file (its PostgreSQL runs are the cli's issue19 tests): a
//! queued tournament played to the end by a pool, and a failing thread stopping the others.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ply_arena::{
    Entrant, Format, PoolOptions, Programs, TournamentPlan, enqueue_tournament, run_pool,
};
use ply_referee::process::MemoryGuard;
use ply_referee::{Limits, Sandbox};
use ply_store::{SqliteStore, Store, StoreError};

fn plan() -> TournamentPlan {
    let bot = |name: &str, spec: &str| Entrant {
        name: name.into(),
        spec: spec.parse().unwrap(),
    };
    TournamentPlan {
        game: "tictactoe".into(),
        bots: vec![
            bot("rand", "builtin:random"),
            bot("greedy", "builtin:greedy"),
        ],
        rounds: 2,
        format: Format::RoundRobin,
        seed: 5,
        limits: Limits {
            time: Duration::from_secs(1),
            memory: 256 << 20,
            output: 64 << 10,
            cpus: 1,
        },
        concurrency: 1,
        new: false,
    }
}

#[test]
fn a_pool_plays_a_queued_tournament_to_the_end_and_rates_every_round_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arena.sqlite3");
    let mut store = SqliteStore::open(&path).unwrap();
    let (t, added) = enqueue_tournament(&mut store, &plan(), Programs::OnWorkers).unwrap();
    assert_eq!(added, 4);
    let options = PoolOptions {
        name: "local".into(),
        concurrency: 2,
        exit_when_idle: true,
        ..PoolOptions::default()
    };
    let open =
        || -> Result<Box<dyn Store + Send>, StoreError> { Ok(Box::new(SqliteStore::open(&path)?)) };
    let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
    let stop = AtomicBool::new(false);
    let rated = AtomicUsize::new(0);
    let summary = run_pool(open, &options, &sandbox, &stop, |e| {
        if let ply_arena::PoolEvent::Posted { recorded, .. } = e {
            rated.fetch_add(recorded.rounds_rated.len(), Ordering::Relaxed);
        }
    })
    .unwrap();
    assert_eq!((summary.stored, summary.lost), (4, 0));
    assert_eq!(rated.load(Ordering::Relaxed), 2);
    assert!(store.tournament(Some(t.id)).unwrap().finished);
    let workers = store.workers().unwrap();
    assert_eq!(
        (workers[0].games, workers[0].state.as_str()),
        (4, "stopped")
    );
}

#[test]
fn a_thread_that_fails_stops_the_whole_pool() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arena.sqlite3");
    SqliteStore::open(&path).unwrap();
    let calls = AtomicUsize::new(0);
    // The heartbeat's store and the first thread's open; the second thread's fails.
    let open = || -> Result<Box<dyn Store + Send>, StoreError> {
        if calls.fetch_add(1, Ordering::Relaxed) >= 2 {
            return Err(StoreError::Database("injected: no connection".into()));
        }
        Ok(Box::new(SqliteStore::open(&path)?))
    };
    let options = PoolOptions {
        concurrency: 2,
        // Without it only `stop` ends the pool: the failure must set it.
        exit_when_idle: false,
        poll: Duration::from_millis(50),
        ..PoolOptions::default()
    };
    let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let e = run_pool(open, &options, &sandbox, &stop, |_| {}).unwrap_err();
    assert!(e.to_string().contains("injected"), "{e}");
    assert!(start.elapsed() < Duration::from_secs(20));
}
