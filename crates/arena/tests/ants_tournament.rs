//! Ants tournaments through the arena's API (issue 15): a rotation of maps of two and three
//! players, several games at once giving the very games one at a time gives, and a pool of
//! workers playing a queued Ants tournament to the standings of a local run.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use ply_ants::mapgen::{MapGenParams, generate};
use ply_arena::{
    AntsEntrant, AntsTournamentPlan, PoolOptions, Programs, RotationMap, enqueue_ants_tournament,
    run_ants_tournament, run_pool,
};
use ply_referee::Sandbox;
use ply_referee::persistent::PersistentLimits;
use ply_referee::process::MemoryGuard;
use ply_store::{GameRecord, SqliteStore, Standing, Store, StoreError};

fn map(players: usize, seed: u64) -> RotationMap {
    let p = MapGenParams {
        players,
        rows: 18,
        cols: 36,
        ..MapGenParams::default()
    };
    RotationMap {
        name: format!("{players}p-{seed}.map"),
        text: generate(&p, seed).unwrap().to_text(),
    }
}

fn plan(maps: Vec<RotationMap>, rounds: u32, concurrency: usize) -> AntsTournamentPlan {
    let bot = |name: &str, spec: &str| AntsEntrant {
        name: name.into(),
        spec_text: spec.into(),
        spec: spec.parse().unwrap(),
    };
    AntsTournamentPlan {
        maps,
        bots: vec![
            bot("hunter", "builtin:hunter"),
            bot("random", "builtin:random"),
            bot("hold", "builtin:hold"),
            bot("hunter2", "builtin:hunter"),
        ],
        rounds,
        turns: 30,
        seed: 9,
        limits: PersistentLimits {
            turn: Duration::from_millis(500),
            ..PersistentLimits::default()
        },
        concurrency,
        new: false,
    }
}

fn sandbox() -> Arc<Sandbox> {
    Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit))
}

/// Plays `plan` in a fresh SQLite file and returns its games and standings.
fn play(
    dir: &std::path::Path,
    name: &str,
    plan: &AntsTournamentPlan,
) -> (Vec<GameRecord>, Vec<Standing>) {
    let mut store = SqliteStore::open(&dir.join(name)).unwrap();
    let run = run_ants_tournament(&mut store, plan, &sandbox(), |_| {}).unwrap();
    assert!(run.tournament.finished);
    (store.games(run.tournament.id).unwrap(), run.standings)
}

/// The rows of the map a stored replay was played on.
fn replay_rows(g: &GameRecord) -> u64 {
    let v: serde_json::Value = serde_json::from_str(&g.replay).unwrap();
    v["replaydata"]["map"]["rows"].as_u64().unwrap()
}

#[test]
fn a_rotation_of_two_and_three_player_maps_seats_each_round_on_its_map() {
    let dir = tempfile::tempdir().unwrap();
    let mut three = map(3, 4);
    // Another size, so that each replay tells which map it was played on.
    three.text = generate(
        &MapGenParams {
            players: 3,
            rows: 24,
            cols: 36,
            ..MapGenParams::default()
        },
        4,
    )
    .unwrap()
    .to_text();
    let plan = plan(vec![map(2, 3), three], 3, 2);
    let (games, standings) = play(dir.path(), "a.sqlite3", &plan);
    // Rounds 1 and 3 on the 2-player map (4 bots: 6 pairs x 2 seatings), round 2 on the
    // 3-player one (4 trios x 3 rotations).
    let per_round: Vec<usize> = (1..=3)
        .map(|r| games.iter().filter(|g| g.round == r).count())
        .collect();
    assert_eq!(per_round, [12, 12, 12]);
    for g in &games {
        let (players, rows) = if g.round == 2 { (3, 24) } else { (2, 18) };
        assert_eq!(g.seats.len(), players, "game {}:{}", g.round, g.slot);
        assert_eq!(replay_rows(g), rows, "game {}:{}", g.round, g.slot);
        if g.round == 2 {
            assert!(g.result.ends_with("map 2 of 2)"), "{}", g.result);
        }
    }
    // Every bot met every other, and sat in every seat of the 3-player map.
    for a in 0..4 {
        for b in 0..4 {
            let met = games.iter().any(|g| {
                g.seats.iter().any(|s| s.entry == a) && g.seats.iter().any(|s| s.entry == b)
            });
            assert!(met, "{a} never met {b}");
        }
        for seat in 0..3 {
            let n = games
                .iter()
                .filter(|g| g.round == 2 && g.seats[seat].entry == a)
                .count();
            assert_eq!(n, 3, "bot {a} in seat {seat}");
        }
    }
    assert_eq!(standings.len(), 4);
    // The same maps in another order are another tournament; the same plan is found again.
    let mut store = SqliteStore::open(&dir.path().join("a.sqlite3")).unwrap();
    let again = run_ants_tournament(&mut store, &plan, &sandbox(), |_| {}).unwrap();
    assert!(again.already_complete);
    let mut swapped = plan.clone();
    swapped.maps.reverse();
    swapped.rounds = 1;
    let other = run_ants_tournament(&mut store, &swapped, &sandbox(), |_| {}).unwrap();
    assert!(!other.already_complete);
    assert_ne!(other.tournament.id, again.tournament.id);
    assert!(
        store
            .games(other.tournament.id)
            .unwrap()
            .iter()
            .all(|g| g.seats.len() == 3)
    );
}

#[test]
fn bad_rotations_are_refused_before_anything_is_stored() {
    let mut p = plan(vec![map(2, 3)], 1, 1);
    p.maps.push(RotationMap {
        name: "broken.map".into(),
        text: "rows 2\ncols 2\nm ..\n".into(),
    });
    let e = p.check().unwrap_err().to_string();
    assert!(e.starts_with("broken.map: "), "{e}");
    let mut p = plan(vec![map(2, 3)], 1, 1);
    p.bots.truncate(2);
    p.maps.push(map(3, 4));
    let e = p.check().unwrap_err().to_string();
    assert!(
        e.contains("3p-4.map is for 3 players") && e.contains("(2 given)"),
        "{e}"
    );
    let mut p = plan(Vec::new(), 1, 1);
    assert!(p.check().is_err());
    p.maps.push(map(2, 3));
    assert!(p.check().is_ok());
}

#[test]
fn three_games_at_once_give_the_games_and_standings_of_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let maps = vec![map(2, 3), map(3, 4)];
    let (one, s1) = play(dir.path(), "one.sqlite3", &plan(maps.clone(), 2, 1));
    let (three, s3) = play(dir.path(), "three.sqlite3", &plan(maps, 2, 3));
    assert_eq!(one.len(), 24);
    assert_eq!(one, three, "the same games, replays included");
    assert_eq!(s1, s3);
}

#[test]
fn a_pool_of_workers_plays_a_queued_ants_tournament_as_a_local_run_does() {
    let dir = tempfile::tempdir().unwrap();
    let maps = vec![map(3, 4), map(2, 3)];
    let plan = plan(maps, 2, 1);
    let (local, standings) = play(dir.path(), "local.sqlite3", &plan);

    let path = dir.path().join("pool.sqlite3");
    let mut store = SqliteStore::open(&path).unwrap();
    let (t, added) = enqueue_ants_tournament(&mut store, &plan, Programs::OnWorkers).unwrap();
    assert_eq!(added, 24);
    // Queued again: nothing added.
    assert_eq!(
        enqueue_ants_tournament(&mut store, &plan, Programs::OnWorkers)
            .unwrap()
            .1,
        0
    );
    let open =
        || -> Result<Box<dyn Store + Send>, StoreError> { Ok(Box::new(SqliteStore::open(&path)?)) };
    let options = PoolOptions {
        name: "w".into(),
        concurrency: 2,
        exit_when_idle: true,
        ..PoolOptions::default()
    };
    let summary = run_pool(open, &options, &sandbox(), &AtomicBool::new(false), |_| {}).unwrap();
    assert_eq!((summary.stored, summary.lost), (24, 0));
    assert!(store.tournament(Some(t.id)).unwrap().finished);
    assert_eq!(store.games(t.id).unwrap(), local);
    assert_eq!(store.standings(t.id).unwrap(), standings);
}
