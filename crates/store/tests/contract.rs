//! The store contract: one suite of tests, run against both backends (a SQLite file and a
//! database of a throwaway PostgreSQL cluster, `ply_testkit::postgres`). Whatever the arena
//! relies on from a [`Store`] is checked here, so that a third backend is a third line of
//! `contract!`.

use std::sync::Arc;

use ply_rating::Rating;
use ply_store::{
    AntsSetup, BotEntry, Completion, GameRecord, PostgresStore, QueueCounts, QueuedGame,
    SeatResult, SqliteStore, Store, TournamentConfig, WorkerStatus,
};

/// A fresh, empty database of one backend: `open` connects to it again (another
/// connection, as another process would).
struct Db {
    open: Arc<dyn Fn() -> Box<dyn Store + Send> + Send + Sync>,
    _dir: Option<tempfile::TempDir>,
}

impl Db {
    fn store(&self) -> Box<dyn Store + Send> {
        (self.open)()
    }
}

fn sqlite(_label: &str) -> Option<Db> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("arena.sqlite3");
    Some(Db {
        open: Arc::new(move || Box::new(SqliteStore::open(&path).unwrap())),
        _dir: Some(dir),
    })
}

fn postgres(label: &str) -> Option<Db> {
    let url = ply_testkit::postgres::Cluster::shared()?.database(label);
    Some(Db {
        open: Arc::new(move || Box::new(PostgresStore::open(&url).unwrap())),
        _dir: None,
    })
}

/// One `#[test]` per contract function, in a module per backend.
macro_rules! contract {
    ($backend:ident: $($test:ident),* $(,)?) => {
        mod $backend {
            $(
                #[test]
                fn $test() {
                    if let Some(db) = super::$backend(stringify!($test)) {
                        super::$test(&db);
                    }
                }
            )*
        }
    };
}

macro_rules! both {
    ($($test:ident),* $(,)?) => {
        contract!(sqlite: $($test),*);
        contract!(postgres: $($test),*);
    };
}

both!(
    a_tournament_is_found_again_by_its_configuration_finished_or_not,
    a_game_is_stored_once,
    standings_count_results_and_take_the_last_round_s_rating,
    enqueueing_again_adds_only_what_is_missing,
    claims_go_in_round_and_slot_order_and_a_finished_tournament_has_none,
    four_claimers_on_their_own_connections_never_get_the_same_game,
    an_expired_lease_is_claimed_again_and_its_late_result_refused,
    a_lease_past_its_deadline_is_claimed_again_without_a_sweep,
    a_result_posted_twice_is_recorded_once,
    a_round_is_rated_once_when_its_last_game_is_stored,
    a_round_finished_early_waits_for_the_rounds_before_it,
    a_heartbeat_extends_a_live_lease_only_and_a_release_requeues,
    a_worker_skipping_a_bot_never_claims_its_games,
    the_queue_is_counted_and_open_tournaments_listed,
    workers_are_listed_with_their_last_heartbeat,
    a_bot_hash_is_part_of_the_configuration,
    a_program_is_kept_once_under_its_hash,
    a_game_of_many_keeps_its_seats_through_the_queue_and_the_standings,
);

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

fn three_bots() -> TournamentConfig {
    let mut c = config();
    c.bots.push(BotEntry {
        name: "c".into(),
        spec: "python3 c.py".into(),
        hash: Some(format!("sha256:{}", "0".repeat(64))),
    });
    c
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

/// A three-bot Ants tournament's configuration and a game of it: seats 2, 0, 1 (bot 2 first,
/// bots 0 and 1 tied second).
fn ants_game(round: u32, slot: u32) -> (TournamentConfig, GameRecord) {
    let mut c = three_bots();
    c.game = "ants".into();
    c.ants = Some(AntsSetup {
        map: "rows 1\ncols 3\nplayers 3\nm abc\n".into(),
        turns: 60,
        more_maps: Vec::new(),
    });
    let seat = |entry, rank, score| SeatResult { entry, rank, score };
    let g = GameRecord {
        round,
        slot,
        first: 2,
        second: 0,
        first_score: 1.0,
        result: "bot c first".into(),
        replay: "{}".into(),
        seats: vec![seat(2, 0, 3.0), seat(0, 1, 1.0), seat(1, 1, 1.0)],
    };
    (c, g)
}

fn a_game_of_many_keeps_its_seats_through_the_queue_and_the_standings(db: &Db) {
    let mut s = db.store();
    let (c, g) = ants_game(1, 0);
    let t = s.create_tournament(&c).unwrap();
    assert_eq!(s.find_tournament(&c).unwrap().map(|f| f.id), Some(t.id));
    let mut other = c.clone();
    other.ants.as_mut().unwrap().turns = 61;
    assert_eq!(s.find_tournament(&other).unwrap(), None);
    // A rotation with one more map is another tournament.
    let mut rotation = c.clone();
    rotation.ants.as_mut().unwrap().more_maps = vec!["rows 1\ncols 2\nplayers 2\nm ab\n".into()];
    assert_eq!(s.find_tournament(&rotation).unwrap(), None);
    let q = QueuedGame {
        round: 1,
        slot: 0,
        first: 2,
        second: 0,
    };
    assert_eq!(s.enqueue(t.id, &[q]).unwrap(), 1);
    let lease = s.claim(Some(t.id), "w", 0, 1000).unwrap().unwrap();
    assert_eq!(s.complete(&lease, &g, 1).unwrap(), Completion::Stored);
    assert_eq!(
        s.complete(&lease, &g, 2).unwrap(),
        Completion::AlreadyStored
    );
    // Outside the queue too.
    let (_, g2) = ants_game(1, 1);
    assert!(s.record_game(t.id, &g2).unwrap());
    let games = db.store().games(t.id).unwrap();
    assert_eq!(games, [g.clone(), g2]);
    // mu in `rating`, sigma in `deviation`: sorted by mu - 3 sigma.
    let r = |mu, sigma| Rating {
        rating: mu,
        deviation: sigma,
        volatility: 0.0,
    };
    s.record_ratings(t.id, 1, &[r(30.0, 8.0), r(20.0, 1.0), r(25.0, 2.0)])
        .unwrap();
    let standings = s.standings(t.id).unwrap();
    let order: Vec<(&str, u32, u32)> = standings
        .iter()
        .map(|x| (x.bot.as_str(), x.wins, x.losses))
        .collect();
    assert_eq!(order, [("c", 2, 0), ("b", 0, 2), ("a", 0, 2)]);
}

fn queued(round: u32, slot: u32) -> QueuedGame {
    QueuedGame {
        round,
        slot,
        first: slot as usize % 2,
        second: 1 - slot as usize % 2,
    }
}

/// A stand-in for the arena's rating: every bot's rating is the round times 100 plus the
/// number of games stored, so the test sees which games each rating saw.
fn rate(games: &[GameRecord], round: u32) -> Vec<Rating> {
    let seen = games.iter().filter(|g| g.round <= round).count();
    vec![
        Rating {
            rating: f64::from(round) * 100.0 + seen as f64,
            deviation: 1.0,
            volatility: 0.06,
        };
        2
    ]
}

fn a_tournament_is_found_again_by_its_configuration_finished_or_not(db: &Db) {
    let mut s = db.store();
    assert_eq!(s.find_tournament(&config()).unwrap(), None);
    let t = s.create_tournament(&config()).unwrap();
    assert_eq!(s.find_tournament(&config()).unwrap().unwrap().id, t.id);
    assert_eq!(
        t.created.len(),
        "2026-01-01 00:00:00".len(),
        "{}",
        t.created
    );
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
    assert_eq!(s.tournament(None).unwrap().id, newer.id);
    assert!(matches!(
        s.tournament(Some(newer.id + 100)),
        Err(ply_store::StoreError::NoTournament(_))
    ));
}

fn a_game_is_stored_once(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&config()).unwrap();
    assert!(s.record_game(t.id, &game(1, 0, 1.0)).unwrap());
    assert!(!s.record_game(t.id, &game(1, 0, 0.0)).unwrap());
    assert!(s.record_game(t.id, &game(1, 1, 0.5)).unwrap());
    let games = s.games(t.id).unwrap();
    assert_eq!(games, [game(1, 0, 1.0), game(1, 1, 0.5)]);
}

fn standings_count_results_and_take_the_last_round_s_rating(db: &Db) {
    let mut s = db.store();
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

fn enqueueing_again_adds_only_what_is_missing(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&config()).unwrap();
    s.record_game(t.id, &game(1, 0, 1.0)).unwrap();
    // (1, 0) is stored already: it is queued as done, and never claimed.
    assert_eq!(s.enqueue(t.id, &[queued(1, 0), queued(1, 1)]).unwrap(), 2);
    assert_eq!(s.enqueue(t.id, &[queued(1, 0), queued(1, 1)]).unwrap(), 0);
    let lease = s.claim(Some(t.id), "w", 0, 1000).unwrap().unwrap();
    assert_eq!(lease.game, queued(1, 1));
    assert_eq!(s.claim(Some(t.id), "w", 0, 1000).unwrap(), None);
}

fn claims_go_in_round_and_slot_order_and_a_finished_tournament_has_none(db: &Db) {
    let mut s = db.store();
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

fn four_claimers_on_their_own_connections_never_get_the_same_game(db: &Db) {
    let id = {
        let mut s = db.store();
        let t = s.create_tournament(&config()).unwrap();
        let games: Vec<QueuedGame> = (0..40).map(|slot| queued(1, slot)).collect();
        s.enqueue(t.id, &games).unwrap();
        t.id
    };
    let claimed: Vec<Vec<u32>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|w| {
                let mut s = db.store();
                scope.spawn(move || {
                    let mut mine = Vec::new();
                    while let Some(l) = s.claim(Some(id), &format!("w{w}"), 0, 60_000).unwrap() {
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

fn an_expired_lease_is_claimed_again_and_its_late_result_refused(db: &Db) {
    let mut s = db.store();
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

fn a_lease_past_its_deadline_is_claimed_again_without_a_sweep(db: &Db) {
    let mut s = db.store();
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

fn a_result_posted_twice_is_recorded_once(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&config()).unwrap();
    s.enqueue(t.id, &[queued(1, 0)]).unwrap();
    let lease = s.claim(Some(t.id), "w", 0, 1000).unwrap().unwrap();
    assert_eq!(
        s.complete(&lease, &game(1, 0, 1.0), 10).unwrap(),
        Completion::Stored
    );
    // The same post again, through the other entry point and another connection.
    let mut again = db.store();
    assert_eq!(
        again
            .complete_rated(&lease, &game(1, 0, 0.5), 20, &rate)
            .unwrap()
            .completion,
        Completion::AlreadyStored
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

fn a_round_is_rated_once_when_its_last_game_is_stored(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&config()).unwrap();
    s.enqueue(
        t.id,
        &[queued(1, 0), queued(1, 1), queued(2, 0), queued(2, 1)],
    )
    .unwrap();
    let leases: Vec<_> = (0..4)
        .map(|_| s.claim(Some(t.id), "w", 0, 1000).unwrap().unwrap())
        .collect();
    let post = |s: &mut Box<dyn Store + Send>, i: usize| {
        let l = &leases[i];
        s.complete_rated(l, &game(l.game.round, l.game.slot, 1.0), 5, &rate)
            .unwrap()
    };
    let r = post(&mut s, 0);
    assert_eq!(
        (r.completion, r.rounds_rated, r.finished),
        (Completion::Stored, vec![], false)
    );
    let r = post(&mut s, 1);
    assert_eq!((r.rounds_rated, r.finished), (vec![1], false));
    // Round 1's rating saw round 1's two games.
    assert_eq!(s.standings(t.id).unwrap()[0].rating.rating, 102.0);
    // A repeated post changes nothing and rates nothing.
    let r = post(&mut s, 1);
    assert_eq!(
        (r.completion, r.rounds_rated),
        (Completion::AlreadyStored, vec![])
    );
    post(&mut s, 2);
    let r = post(&mut s, 3);
    assert_eq!((r.rounds_rated, r.finished), (vec![2], true));
    assert!(s.tournament(Some(t.id)).unwrap().finished);
    assert_eq!(s.standings(t.id).unwrap()[0].rating.rating, 204.0);
}

fn a_round_finished_early_waits_for_the_rounds_before_it(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&config()).unwrap();
    s.enqueue(t.id, &[queued(1, 0), queued(2, 0)]).unwrap();
    let first = s.claim(Some(t.id), "slow", 0, 1000).unwrap().unwrap();
    let second = s.claim(Some(t.id), "fast", 0, 1000).unwrap().unwrap();
    assert_eq!((first.game.round, second.game.round), (1, 2));
    let r = s
        .complete_rated(&second, &game(2, 0, 1.0), 5, &rate)
        .unwrap();
    assert_eq!((r.rounds_rated, r.finished), (vec![], false));
    let r = s
        .complete_rated(&first, &game(1, 0, 1.0), 6, &rate)
        .unwrap();
    assert_eq!((r.rounds_rated, r.finished), (vec![1, 2], true));
}

fn a_heartbeat_extends_a_live_lease_only_and_a_release_requeues(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&config()).unwrap();
    s.enqueue(t.id, &[queued(1, 0)]).unwrap();
    let lease = s.claim(Some(t.id), "w", 0, 100).unwrap().unwrap();
    let renewed = s.renew(&lease, 90, 100).unwrap().unwrap();
    assert_eq!(renewed.until_ms, 190);
    // Held past the first deadline thanks to the heartbeat.
    assert_eq!(s.claim(Some(t.id), "other", 150, 100).unwrap(), None);
    // Too late for a heartbeat: the lease is lost.
    assert_eq!(s.renew(&renewed, 191, 100).unwrap(), None);
    let taken = s.claim(Some(t.id), "other", 200, 100).unwrap().unwrap();
    assert_eq!(s.renew(&renewed, 201, 100).unwrap(), None);
    assert!(
        !s.release(&renewed).unwrap(),
        "an old lease released a new one"
    );
    assert!(s.release(&taken).unwrap());
    assert_eq!(
        s.queue_counts(Some(t.id), 210).unwrap(),
        QueueCounts {
            queued: 1,
            leased: 0,
            done: 0
        }
    );
    let again = s.claim(Some(t.id), "third", 210, 100).unwrap().unwrap();
    assert_eq!(again.attempt, 3);
}

fn a_worker_skipping_a_bot_never_claims_its_games(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&three_bots()).unwrap();
    let games = [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]
        .iter()
        .enumerate()
        .map(|(slot, &(first, second))| QueuedGame {
            round: 1,
            slot: slot as u32,
            first,
            second,
        })
        .collect::<Vec<_>>();
    s.enqueue(t.id, &games).unwrap();
    let mut mine = Vec::new();
    while let Some(l) = s.claim_skipping(t.id, &[2], "w", 0, 1000).unwrap() {
        mine.push((l.game.first, l.game.second));
    }
    assert_eq!(mine, [(0, 1), (1, 0)]);
    let l = s.claim_skipping(t.id, &[], "w", 0, 1000).unwrap().unwrap();
    assert_eq!((l.game.first, l.game.second), (0, 2));
}

fn the_queue_is_counted_and_open_tournaments_listed(db: &Db) {
    let mut s = db.store();
    assert_eq!(s.open_tournaments().unwrap(), []);
    let t = s.create_tournament(&config()).unwrap();
    let idle = s.create_tournament(&three_bots()).unwrap();
    s.enqueue(t.id, &[queued(1, 0), queued(1, 1), queued(1, 2)])
        .unwrap();
    let a = s.claim(Some(t.id), "w", 0, 100).unwrap().unwrap();
    s.claim(Some(t.id), "w", 0, 100).unwrap().unwrap();
    s.complete(&a, &game(1, 0, 1.0), 10).unwrap();
    assert_eq!(
        s.queue_counts(Some(t.id), 50).unwrap(),
        QueueCounts {
            queued: 1,
            leased: 1,
            done: 1
        }
    );
    // After the deadline the leased game counts as waiting.
    assert_eq!(s.queue_counts(None, 500).unwrap().queued, 2);
    let open: Vec<i64> = s.open_tournaments().unwrap().iter().map(|t| t.id).collect();
    assert_eq!(open, [t.id]);
    assert_ne!(idle.id, t.id);
    s.finish(t.id).unwrap();
    assert_eq!(s.open_tournaments().unwrap(), []);
    assert_eq!(s.queue_counts(None, 500).unwrap(), QueueCounts::default());
}

fn workers_are_listed_with_their_last_heartbeat(db: &Db) {
    let mut s = db.store();
    let w = |name: &str, heartbeat_ms, games| WorkerStatus {
        name: name.into(),
        started_ms: 1,
        heartbeat_ms,
        games,
        state: "working".into(),
    };
    s.worker_seen(&w("a", 10, 0)).unwrap();
    s.worker_seen(&w("b", 20, 3)).unwrap();
    s.worker_seen(&w("a", 30, 5)).unwrap();
    assert_eq!(s.workers().unwrap(), [w("a", 30, 5), w("b", 20, 3)]);
}

fn a_bot_hash_is_part_of_the_configuration(db: &Db) {
    let mut s = db.store();
    let t = s.create_tournament(&three_bots()).unwrap();
    assert_eq!(s.tournament(Some(t.id)).unwrap().config, three_bots());
    let mut changed = three_bots();
    changed.bots[2].hash = Some(format!("sha256:{}", "1".repeat(64)));
    assert_eq!(s.find_tournament(&changed).unwrap(), None);
}

fn a_program_is_kept_once_under_its_hash(db: &Db) {
    let mut s = db.store();
    assert_eq!(s.program("sha256:00").unwrap(), None);
    let bytes: Vec<u8> = (0..=255).collect();
    s.put_program("sha256:00", "bot.py", &bytes).unwrap();
    s.put_program("sha256:00", "other.py", b"ignored").unwrap();
    assert_eq!(
        db.store().program("sha256:00").unwrap(),
        Some(("bot.py".to_string(), bytes))
    );
}

/// A database left by the previous schema version (workers, no stored programs, no seats) is brought
/// forward with its data; an empty one gets every migration.
#[test]
fn sqlite_a_previous_version_database_is_migrated_forward() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.sqlite3");
    let id = {
        let mut old = SqliteStore::open_at(&path, 3).unwrap();
        assert_eq!(old.schema_version().unwrap(), 3);
        assert!(
            old.program("sha256:00").is_err(),
            "version 3 has no programs table"
        );
        let t = old.create_tournament(&config()).unwrap();
        old.enqueue(t.id, &[queued(1, 0)]).unwrap();
        t.id
    };
    let mut s = SqliteStore::open(&path).unwrap();
    assert_eq!(s.schema_version().unwrap(), 5);
    // A two-player game reads back without seats.
    assert!(s.record_game(id, &game(1, 1, 1.0)).unwrap());
    assert_eq!(s.games(id).unwrap(), [game(1, 1, 1.0)]);
    assert_eq!(
        s.claim(Some(id), "w", 0, 10).unwrap().unwrap().game,
        queued(1, 0)
    );
    s.worker_seen(&WorkerStatus {
        name: "w".into(),
        started_ms: 0,
        heartbeat_ms: 0,
        games: 0,
        state: "idle".into(),
    })
    .unwrap();
    let empty = SqliteStore::open(&dir.path().join("new.sqlite3")).unwrap();
    assert_eq!(empty.schema_version().unwrap(), 5);
}

#[test]
fn postgres_a_previous_version_database_is_migrated_forward() {
    let Some(cluster) = ply_testkit::postgres::Cluster::shared() else {
        return;
    };
    let url = cluster.database("migrations");
    let id = {
        let mut old = PostgresStore::open_at(&url, 3).unwrap();
        assert_eq!(old.schema_version().unwrap(), 3);
        assert!(
            old.program("sha256:00").is_err(),
            "version 3 has no programs table"
        );
        let t = old.create_tournament(&config()).unwrap();
        old.enqueue(t.id, &[queued(1, 0)]).unwrap();
        t.id
    };
    let mut s = PostgresStore::open(&url).unwrap();
    assert_eq!(s.schema_version().unwrap(), 5);
    // A two-player game reads back without seats.
    assert!(s.record_game(id, &game(1, 1, 1.0)).unwrap());
    assert_eq!(s.games(id).unwrap(), [game(1, 1, 1.0)]);
    assert_eq!(
        s.claim(Some(id), "w", 0, 10).unwrap().unwrap().game,
        queued(1, 0)
    );
    assert_eq!(s.program("sha256:00").unwrap(), None);
    // Opening again applies nothing twice.
    assert_eq!(
        PostgresStore::open(&url).unwrap().schema_version().unwrap(),
        5
    );
    let empty = PostgresStore::open(&cluster.database("empty")).unwrap();
    assert_eq!(empty.schema_version().unwrap(), 5);
}

#[test]
fn postgres_workers_opening_a_new_database_together_migrate_it_once() {
    let Some(cluster) = ply_testkit::postgres::Cluster::shared() else {
        return;
    };
    let url = cluster.database("together");
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| PostgresStore::open(&url).unwrap());
        }
    });
    assert_eq!(
        PostgresStore::open(&url).unwrap().schema_version().unwrap(),
        5
    );
}

#[test]
fn a_newer_schema_is_refused_by_both_backends() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("newer.sqlite3");
    SqliteStore::open(&path).unwrap();
    rusqlite_bump(&path);
    let e = SqliteStore::open(&path).unwrap_err();
    assert!(e.to_string().contains("newer than this ply's 5"), "{e}");
    let Some(cluster) = ply_testkit::postgres::Cluster::shared() else {
        return;
    };
    let url = cluster.database("newer");
    PostgresStore::open(&url).unwrap();
    let mut client = postgres_client(&url);
    client
        .execute("UPDATE ply_schema SET version = 99", &[])
        .unwrap();
    let e = PostgresStore::open(&url).unwrap_err();
    assert!(e.to_string().contains("schema version 99"), "{e}");
}

fn rusqlite_bump(path: &std::path::Path) {
    // Through the sqlite3 library the store links: a version no ply knows.
    let status = std::process::Command::new("python3")
        .args([
            "-c",
            "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); \
             c.execute('PRAGMA user_version = 99'); c.commit()",
        ])
        .arg(path)
        .status()
        .unwrap();
    assert!(status.success());
}

fn postgres_client(url: &str) -> ::postgres::Client {
    ::postgres::Client::connect(url, ::postgres::NoTls).unwrap()
}
