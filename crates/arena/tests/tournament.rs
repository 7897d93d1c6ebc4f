//! A whole tournament through the arena's API, without the `ply` binary: played, stored,
//! rated; interrupted by a store that fails after some games, resumed, and compared with the
//! same tournament played without a break. Then a worker plays queued games the way a remote
//! one would, from the stored configuration alone.

use std::sync::Arc;
use std::time::Duration;

use ply_arena::{Entrant, Format, Progress, TournamentPlan, Worker, run_tournament};
use ply_rating::Rating;
use ply_referee::process::MemoryGuard;
use ply_referee::{Limits, Sandbox};
use ply_store::{
    Completion, GameRecord, Lease, QueueCounts, QueuedGame, RateRound, Recorded, SqliteStore,
    Standing, Store, StoreError, Tournament, TournamentConfig, WorkerStatus,
};

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
            bot("ab", "builtin:alphabeta:depth=3"),
            bot("mcts", "builtin:mcts:iterations=30"),
        ],
        rounds: 3,
        format: Format::RoundRobin,
        seed: 11,
        limits: Limits {
            time: Duration::from_secs(1),
            memory: 256 << 20,
            output: 64 << 10,
            cpus: 1,
        },
        concurrency: 3,
        new: false,
    }
}

fn sandbox() -> Arc<Sandbox> {
    Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit))
}

/// A store that fails every write once it has stored `budget` games: a crash in the middle.
struct Failing {
    inner: SqliteStore,
    budget: usize,
}

impl Failing {
    fn spend(&mut self) -> Result<(), StoreError> {
        if self.budget == 0 {
            return Err(StoreError::Database("injected failure: disk gone".into()));
        }
        self.budget -= 1;
        Ok(())
    }
}

impl Store for Failing {
    fn find_tournament(&self, c: &TournamentConfig) -> Result<Option<Tournament>, StoreError> {
        self.inner.find_tournament(c)
    }
    fn create_tournament(&mut self, c: &TournamentConfig) -> Result<Tournament, StoreError> {
        self.inner.create_tournament(c)
    }
    fn tournament(&self, id: Option<i64>) -> Result<Tournament, StoreError> {
        self.inner.tournament(id)
    }
    fn games(&self, t: i64) -> Result<Vec<GameRecord>, StoreError> {
        self.inner.games(t)
    }
    fn record_game(&mut self, t: i64, g: &GameRecord) -> Result<bool, StoreError> {
        self.spend()?;
        self.inner.record_game(t, g)
    }
    fn record_ratings(&mut self, t: i64, round: u32, r: &[Rating]) -> Result<(), StoreError> {
        self.inner.record_ratings(t, round, r)
    }
    fn finish(&mut self, t: i64) -> Result<(), StoreError> {
        self.inner.finish(t)
    }
    fn standings(&self, t: i64) -> Result<Vec<Standing>, StoreError> {
        self.inner.standings(t)
    }
    fn enqueue(&mut self, t: i64, games: &[QueuedGame]) -> Result<usize, StoreError> {
        self.inner.enqueue(t, games)
    }
    fn claim(
        &mut self,
        t: Option<i64>,
        worker: &str,
        now: u64,
        lease: u64,
    ) -> Result<Option<Lease>, StoreError> {
        self.inner.claim(t, worker, now, lease)
    }
    fn complete(&mut self, l: &Lease, g: &GameRecord, now: u64) -> Result<Completion, StoreError> {
        self.spend()?;
        self.inner.complete(l, g, now)
    }
    fn expire_leases(&mut self, t: Option<i64>, now: u64) -> Result<usize, StoreError> {
        self.inner.expire_leases(t, now)
    }
    fn claim_skipping(
        &mut self,
        t: i64,
        skip: &[usize],
        worker: &str,
        now: u64,
        lease: u64,
    ) -> Result<Option<Lease>, StoreError> {
        self.inner.claim_skipping(t, skip, worker, now, lease)
    }
    fn complete_rated(
        &mut self,
        l: &Lease,
        g: &GameRecord,
        now: u64,
        rate: RateRound<'_>,
    ) -> Result<Recorded, StoreError> {
        self.spend()?;
        self.inner.complete_rated(l, g, now, rate)
    }
    fn renew(&mut self, l: &Lease, now: u64, lease: u64) -> Result<Option<Lease>, StoreError> {
        self.inner.renew(l, now, lease)
    }
    fn release(&mut self, l: &Lease) -> Result<bool, StoreError> {
        self.inner.release(l)
    }
    fn queue_counts(&self, t: Option<i64>, now: u64) -> Result<QueueCounts, StoreError> {
        self.inner.queue_counts(t, now)
    }
    fn open_tournaments(&self) -> Result<Vec<Tournament>, StoreError> {
        self.inner.open_tournaments()
    }
    fn worker_seen(&mut self, w: &WorkerStatus) -> Result<(), StoreError> {
        self.inner.worker_seen(w)
    }
    fn workers(&self) -> Result<Vec<WorkerStatus>, StoreError> {
        self.inner.workers()
    }
    fn put_program(&mut self, hash: &str, name: &str, bytes: &[u8]) -> Result<(), StoreError> {
        self.inner.put_program(hash, name, bytes)
    }
    fn program(&self, hash: &str) -> Result<Option<(String, Vec<u8>)>, StoreError> {
        self.inner.program(hash)
    }
}

/// A replay without the bots' timings (the one thing two plays of a game do not share).
fn untimed(replay: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(replay).unwrap();
    for m in v["moves"].as_array_mut().unwrap() {
        m.as_object_mut().unwrap().remove("micros");
    }
    v
}

fn games_of(path: &std::path::Path) -> Vec<(u32, u32, f64, serde_json::Value)> {
    let s = SqliteStore::open(path).unwrap();
    let t = s.tournament(None).unwrap();
    s.games(t.id)
        .unwrap()
        .into_iter()
        .map(|g| (g.round, g.slot, g.first_score, untimed(&g.replay)))
        .collect()
}

#[test]
fn a_tournament_interrupted_by_a_failure_resumes_and_ends_as_an_unbroken_one() {
    let dir = tempfile::tempdir().unwrap();
    let sandbox = sandbox();
    let plan = plan();

    // Unbroken, with every progress report.
    let unbroken_path = dir.path().join("unbroken.sqlite3");
    let mut store = SqliteStore::open(&unbroken_path).unwrap();
    let mut events = Vec::new();
    let unbroken = run_tournament(&mut store, &plan, &sandbox, |p| events.push(p)).unwrap();
    assert!(!unbroken.already_complete);
    assert!(unbroken.tournament.finished);
    let per_round = 4 * 3;
    assert!(matches!(
        &events[0],
        Progress::Started {
            played: 0,
            total: 36,
            ..
        }
    ));
    let stored = events
        .iter()
        .filter(|e| matches!(e, Progress::GameStored(_)))
        .count();
    assert_eq!(stored, 3 * per_round);
    let rated: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Progress::RoundRated { round } => Some(*round),
            _ => None,
        })
        .collect();
    assert_eq!(rated, [1, 2, 3]);
    for s in &unbroken.standings {
        assert_eq!(s.wins + s.draws + s.losses, 3 * 6, "{s:?}");
    }
    // Depth-3 alpha-beta never loses tic-tac-toe to these.
    let ab = unbroken.standings.iter().find(|s| s.bot == "ab").unwrap();
    assert_eq!(ab.losses, 0, "{ab:?}");

    // Interrupted: the store fails after 17 games (in round 2), the run stops with the error.
    let broken_path = dir.path().join("broken.sqlite3");
    let mut failing = Failing {
        inner: SqliteStore::open(&broken_path).unwrap(),
        budget: 17,
    };
    let err = run_tournament(&mut failing, &plan, &sandbox, |_| {}).unwrap_err();
    assert!(err.to_string().contains("injected failure"), "{err}");
    let before = games_of(&broken_path);
    assert_eq!(before.len(), 17);
    drop(failing);

    // Resumed on a sound store: only the missing games are played.
    let mut store = SqliteStore::open(&broken_path).unwrap();
    let mut played_before = None;
    let mut newly = 0;
    let resumed = run_tournament(&mut store, &plan, &sandbox, |p| match p {
        Progress::Started { played, .. } => played_before = Some(played),
        Progress::GameStored(_) => newly += 1,
        Progress::RoundRated { .. } => {}
    })
    .unwrap();
    assert_eq!(played_before, Some(17));
    assert_eq!(newly, 36 - 17);
    let after = games_of(&broken_path);
    for g in &before {
        assert!(after.contains(g), "game {}:{} changed", g.0, g.1);
    }
    // Same games, same ratings, same standings as the unbroken run.
    assert_eq!(after, games_of(&unbroken_path));
    assert_eq!(resumed.standings, unbroken.standings);

    // Run again: complete, nothing played; with `new`, a second tournament.
    let again =
        run_tournament(&mut store, &plan, &sandbox, |_| panic!("nothing to report")).unwrap();
    assert!(again.already_complete);
    assert_eq!(again.tournament.id, resumed.tournament.id);
    assert_eq!(again.standings, unbroken.standings);
    let mut fresh = plan.clone();
    fresh.new = true;
    fresh.rounds = 1;
    let another = run_tournament(&mut store, &fresh, &sandbox, |_| {}).unwrap();
    assert_ne!(another.tournament.id, resumed.tournament.id);
}

#[test]
fn a_worker_plays_queued_games_from_the_stored_configuration_alone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("queue.sqlite3");
    let plan = plan();
    // A server queues round 1 of a tournament...
    let mut server = SqliteStore::open(&path).unwrap();
    let t = server.create_tournament(&plan.config().unwrap()).unwrap();
    let games = plan.format.round(1, plan.bots.len(), &[]);
    assert_eq!(server.enqueue(t.id, &games).unwrap(), 12);
    // ...and a worker with its own connection plays them, knowing nothing but the store.
    let mut own = SqliteStore::open(&path).unwrap();
    let worker = Worker::new("remote-1", sandbox());
    let mut played = Vec::new();
    while let Some(p) = worker.work_one(&mut own, None, None).unwrap() {
        assert_eq!(p.completion, Completion::Stored);
        assert_eq!(p.lease.worker, "remote-1");
        played.push((p.record.round, p.record.slot));
    }
    assert_eq!(played, (0..12).map(|s| (1, s)).collect::<Vec<_>>());
    // The games are the ones the local runner plays: the same seeds, the same results.
    let mut local = SqliteStore::open(&dir.path().join("local.sqlite3")).unwrap();
    let mut one_round = plan.clone();
    one_round.rounds = 1;
    // Same seed and bots; only the round count differs, which does not change round 1's games.
    run_tournament(&mut local, &one_round, &sandbox(), |_| {}).unwrap();
    let local_games: Vec<(u32, f64, serde_json::Value)> = local
        .games(local.tournament(None).unwrap().id)
        .unwrap()
        .into_iter()
        .map(|g| (g.slot, g.first_score, untimed(&g.replay)))
        .collect();
    let remote_games: Vec<(u32, f64, serde_json::Value)> = server
        .games(t.id)
        .unwrap()
        .into_iter()
        .map(|g| (g.slot, g.first_score, untimed(&g.replay)))
        .collect();
    assert_eq!(remote_games, local_games);
}
