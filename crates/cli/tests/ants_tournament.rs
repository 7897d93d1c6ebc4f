//! Ants tournaments through the `ply` binary (issue 15): built-ins and a Python bot (jailed,
//! as `nobody`) in the same store as every other tournament, each game's full ranking stored,
//! TrueSkill on the leaderboard, a tournament killed with SIGKILL that resumes with no game
//! lost or played twice (on one map, and on a rotation of maps played two games at a time),
//! and bad rotations refused with exit code 2 before anything is stored.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ply_store::{SqliteStore, Store};
use ply_testkit::procs::{Look, marked};

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "ply failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// A small two-player map and a Python bot that waits `delay` seconds a turn and orders
/// nothing, both world-readable (the jailed bot runs as nobody).
fn setup(dir: &Path, delay: &str) -> (PathBuf, String) {
    let map = dir.join("small.map");
    let out = ply()
        .args(["ants", "mapgen", "--players", "2", "--rows", "18"])
        .args(["--cols", "36", "--seed", "3", "-o"])
        .arg(&map)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let bot = dir.join("bot.py");
    std::fs::write(
        &bot,
        format!(
            "import sys, time\n\
             for line in sys.stdin:\n    \
             line = line.strip()\n    \
             if line in ('ready', 'go'):\n        \
             time.sleep({delay})\n        \
             print('go', flush=True)\n    \
             elif line == 'end':\n        \
             break\n"
        ),
    )
    .unwrap();
    for p in [dir, bot.as_path(), map.as_path()] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    (map, format!("/usr/bin/python3 {}", bot.display()))
}

/// The pids whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    marked(marker, Look::CommandLine)
        .into_iter()
        .map(|p| p.pid)
        .collect()
}

fn has_python() -> bool {
    let ok = Path::new("/usr/bin/python3").exists();
    if !ok {
        eprintln!("skipping: /usr/bin/python3 is absent");
    }
    ok
}

fn args(map: &Path, db: &Path, bots: &[String], rounds: u32) -> Vec<String> {
    let mut v: Vec<String> = vec!["tournament".into(), "ants".into(), "--map".into()];
    v.push(map.display().to_string());
    for b in bots {
        v.push(format!("--bot={b}"));
    }
    v.extend(
        [
            format!("--rounds={rounds}"),
            "--turns=40".into(),
            "--seed=5".into(),
            "--json".into(),
            "--db".into(),
            db.display().to_string(),
        ]
        .iter()
        .cloned(),
    );
    v
}

/// (round, slot, seats as entries, replay) of every stored game of the newest tournament.
fn stored(db: &Path) -> Vec<(u32, u32, Vec<usize>, String)> {
    let Ok(store) = SqliteStore::open(db) else {
        return Vec::new();
    };
    let Ok(t) = store.tournament(None) else {
        return Vec::new();
    };
    store
        .games(t.id)
        .unwrap()
        .into_iter()
        .map(|g| {
            let seats = g.seats.iter().map(|s| s.entry).collect();
            (g.round, g.slot, seats, g.replay)
        })
        .collect()
}

#[test]
fn builtins_and_a_python_bot_play_a_rated_ants_tournament() {
    if !has_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (map, py) = setup(dir.path(), "0");
    let db = dir.path().join("arena.sqlite3");
    let bots = [
        "hunter=builtin:hunter".to_string(),
        "random=builtin:random".into(),
        "hold=builtin:hold".into(),
        format!("py={py}"),
    ];
    let v = json(&ply().args(args(&map, &db, &bots, 1)).output().unwrap());
    assert_eq!(v["game"], "ants");
    assert_eq!(v["rating"], "trueskill");
    assert_eq!(v["finished"], true);
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    for r in rows {
        let (mu, sigma, skill) = (
            r["mu"].as_f64().unwrap(),
            r["sigma"].as_f64().unwrap(),
            r["skill"].as_f64().unwrap(),
        );
        assert!((skill - (mu - 3.0 * sigma)).abs() < 1e-9, "{r}");
        assert!(sigma < 25.0 / 3.0, "every bot played: {r}");
        // 2 players, 4 bots: each bot is in 3 combinations, each in 2 rotations.
        assert_eq!(
            r["wins"].as_u64().unwrap() + r["losses"].as_u64().unwrap(),
            6
        );
    }
    let skills: Vec<f64> = rows.iter().map(|r| r["skill"].as_f64().unwrap()).collect();
    assert!(skills.windows(2).all(|w| w[0] >= w[1]), "{skills:?}");
    // Every game stored with both seats and its replay (the original's stored-game JSON).
    let games = stored(&db);
    assert_eq!(games.len(), 12);
    for (round, slot, seats, replay) in &games {
        assert_eq!(*round, 1);
        assert_eq!(seats.len(), 2, "game {slot}");
        let replay: serde_json::Value = serde_json::from_str(replay).unwrap();
        assert!(replay.get("replaydata").is_some(), "game {slot}: {replay}");
        // The Python bot ran (in the jail) and answered every turn.
        if let Some(py) = seats.iter().position(|&e| e == 3) {
            let status = replay["status"][py].as_str().unwrap();
            assert!(
                status == "survived" || status == "eliminated",
                "game {slot}: the Python bot {status}"
            );
        }
    }
    let ordered: Vec<Vec<usize>> = games.iter().map(|g| g.2.clone()).collect();
    for a in 0..4 {
        for b in 0..4 {
            let n = ordered.iter().filter(|s| s[..] == [a, b]).count();
            assert_eq!(n, usize::from(a != b), "seats {a} {b}");
        }
    }

    // The leaderboard shows TrueSkill's columns.
    let out = ply()
        .args(["leaderboard", "--db"])
        .arg(&db)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().nth(1).unwrap();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["rank", "bot", "mu", "sigma", "mu-3sigma", "W", "L"]
    );
    assert_eq!(text.lines().count(), 7, "{text}");
}

#[test]
fn an_ants_tournament_killed_with_sigkill_resumes_without_losing_or_replaying_a_game() {
    if !has_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (map, py) = setup(dir.path(), "0.02");
    let db = dir.path().join("arena.sqlite3");
    let bots = [
        "hold=builtin:hold".to_string(),
        format!("slow={py}"),
        "random=builtin:random".into(),
    ];
    // 3 bots on 2 seats: 6 games a round, 12 in all.
    let mut child = ply()
        .args(args(&map, &db, &bots, 2))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while stored(&db).len() < 2 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = stored(&db);
    assert!(before.len() < 12, "killed too late to test anything");

    let out = ply().args(args(&map, &db, &bots, 2)).output().unwrap();
    let resumed = json(&out);
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "resuming tournament #1 in {}: {} of 12 games already played\n",
            db.display(),
            before.len()
        )
    );
    // The bot the killed run left (perhaps frozen between turns) is gone too.
    let marker = dir.path().join("bot.py").display().to_string();
    assert_eq!(
        processes_with(&marker),
        Vec::<u32>::new(),
        "bots left behind"
    );
    let after = stored(&db);
    let places: Vec<(u32, u32)> = after.iter().map(|g| (g.0, g.1)).collect();
    let expected: Vec<(u32, u32)> = (1..=2).flat_map(|r| (0..6).map(move |s| (r, s))).collect();
    assert_eq!(places, expected, "every game once");
    for game in &before {
        assert!(after.contains(game), "game {:?} changed", (game.0, game.1));
    }

    // The same tournament unbroken, in another database, ends with the same standings.
    let db2 = dir.path().join("unbroken.sqlite3");
    let unbroken = json(&ply().args(args(&map, &db2, &bots, 2)).output().unwrap());
    assert_eq!(resumed["standings"], unbroken["standings"]);
    let replays = |g: Vec<(u32, u32, Vec<usize>, String)>| -> Vec<Vec<usize>> {
        g.into_iter().map(|g| g.2).collect()
    };
    assert_eq!(replays(stored(&db)), replays(stored(&db2)));
}

#[test]
fn an_ants_tournament_on_postgresql_stores_and_rates_as_on_sqlite() {
    if !has_python() {
        return;
    }
    let Some(cluster) = ply_testkit::postgres::Cluster::shared() else {
        return;
    };
    let url = cluster.database("ants_tournament");
    let dir = tempfile::tempdir().unwrap();
    let (map, py) = setup(dir.path(), "0");
    let bots = [
        "hunter=builtin:hunter".to_string(),
        format!("py={py}"),
        "hold=builtin:hold".into(),
    ];
    let on_postgres = json(
        &ply()
            .args(args(&map, Path::new(&url), &bots, 2))
            .output()
            .unwrap(),
    );
    let db = dir.path().join("arena.sqlite3");
    let on_sqlite = json(&ply().args(args(&map, &db, &bots, 2)).output().unwrap());
    assert_eq!(on_postgres["standings"], on_sqlite["standings"]);
    assert_eq!(on_postgres["rating"], "trueskill");
    // Run again: complete, nothing played, the same leaderboard.
    let again = json(
        &ply()
            .args(args(&map, Path::new(&url), &bots, 2))
            .output()
            .unwrap(),
    );
    assert_eq!(again["standings"], on_postgres["standings"]);
    let store = ply_store::PostgresStore::open(&url).unwrap();
    let t = store.tournament(None).unwrap();
    let games = store.games(t.id).unwrap();
    assert_eq!(games.len(), 12);
    assert!(games.iter().all(|g| g.seats.len() == 2));
}

/// A folder `maps/` with a 2-player and a 3-player map (sorted: `a-two.map` first), readable
/// by the jailed bots.
fn maps_folder(dir: &Path) -> PathBuf {
    let maps = dir.join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    for (name, players, seed) in [("b-three.map", "3", "4"), ("a-two.map", "2", "3")] {
        let out = ply()
            .args(["ants", "mapgen", "--players", players, "--rows", "18"])
            .args(["--cols", "36", "--seed", seed, "-o"])
            .arg(maps.join(name))
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        std::fs::set_permissions(maps.join(name), std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::write(maps.join("notes.txt"), "not a map").unwrap();
    std::fs::set_permissions(&maps, std::fs::Permissions::from_mode(0o755)).unwrap();
    maps
}

/// `args` with `--map FILE` replaced by `--maps` and `maps`, and more options.
fn rotation_args(
    maps: &[&Path],
    db: &Path,
    bots: &[String],
    rounds: u32,
    more: &[&str],
) -> Vec<String> {
    let mut v = args(Path::new("-"), db, bots, rounds);
    v.splice(
        2..4,
        std::iter::once("--maps".to_string()).chain(maps.iter().map(|m| m.display().to_string())),
    );
    v.extend(more.iter().map(|s| s.to_string()));
    v
}

#[test]
fn a_rotation_of_maps_killed_with_sigkill_resumes_with_no_game_lost_or_doubled() {
    if !has_python() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (_, py) = setup(dir.path(), "0.02");
    let maps = maps_folder(dir.path());
    let db = dir.path().join("arena.sqlite3");
    let bots = [
        "hold=builtin:hold".to_string(),
        format!("slow={py}"),
        "random=builtin:random".into(),
    ];
    // Round 1 on a-two.map (6 games), round 2 on b-three.map (3), round 3 on a-two.map (6).
    let run = |db: &Path, concurrency: &str| {
        rotation_args(&[&maps], db, &bots, 3, &["--concurrency", concurrency])
    };
    let mut child = ply()
        .args(run(&db, "2"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while stored(&db).len() < 4 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = stored(&db);
    assert!(before.len() < 15, "killed too late to test anything");

    let out = ply().args(run(&db, "2")).output().unwrap();
    let resumed = json(&out);
    assert!(
        String::from_utf8_lossy(&out.stderr).starts_with(&format!(
            "resuming tournament #1 in {}: {} of 15 games already played",
            db.display(),
            before.len()
        )),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let after = stored(&db);
    let places: Vec<(u32, u32)> = after.iter().map(|g| (g.0, g.1)).collect();
    let expected: Vec<(u32, u32)> = [(1, 6), (2, 3), (3, 6)]
        .iter()
        .flat_map(|&(r, n)| (0..n).map(move |s| (r, s)))
        .collect();
    assert_eq!(places, expected, "every game once");
    for game in &before {
        assert!(after.contains(game), "game {:?} changed", (game.0, game.1));
    }
    for (round, slot, seats, _) in &after {
        assert_eq!(
            seats.len(),
            if *round == 2 { 3 } else { 2 },
            "{round}:{slot}"
        );
    }
    // Unbroken, one game at a time, with the files named one by one: the same games and
    // standings.
    let db2 = dir.path().join("unbroken.sqlite3");
    let files = [maps.join("a-two.map"), maps.join("b-three.map")];
    let unbroken = json(
        &ply()
            .args(rotation_args(
                &[&files[0], &files[1]],
                &db2,
                &bots,
                3,
                &["--concurrency", "1"],
            ))
            .output()
            .unwrap(),
    );
    assert_eq!(resumed["standings"], unbroken["standings"]);
    let seatings = |g: Vec<(u32, u32, Vec<usize>, String)>| -> Vec<Vec<usize>> {
        g.into_iter().map(|g| g.2).collect()
    };
    assert_eq!(seatings(stored(&db)), seatings(stored(&db2)));
}

#[test]
fn bad_rotations_exit_2_before_anything_is_stored() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("arena.sqlite3");
    let maps = maps_folder(dir.path());
    let empty = dir.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let broken = dir.path().join("broken.map");
    std::fs::write(&broken, "rows 2\ncols 2\nplayers 2\nm a.\n").unwrap();
    let two = ["h=builtin:hunter".to_string(), "r=builtin:random".into()];
    let cases: [(Vec<&Path>, &str); 3] = [
        (vec![&empty], "no .map files in this folder"),
        (vec![&maps, &broken], "broken.map: "),
        (vec![&maps], "b-three.map is for 3 players"),
    ];
    for (given, wanted) in cases {
        let out = ply()
            .args(rotation_args(&given, &db, &two, 1, &[]))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{given:?}: {stderr}");
        assert!(stderr.contains(wanted), "{given:?}: {stderr}");
        assert!(!db.exists(), "{given:?}: the database was created");
    }
    // --map and --maps together are refused by the parser.
    let mut both = rotation_args(&[&maps], &db, &two, 1, &[]);
    both.extend(["--map".into(), maps.join("a-two.map").display().to_string()]);
    assert_eq!(ply().args(both).output().unwrap().status.code(), Some(2));
    assert!(!db.exists());
}

/// Ants bots run on one CPU each (their persistent limits carry no CPU count): `--cpus` is
/// refused for an Ants tournament before the database is touched.
#[test]
fn an_ants_tournament_refuses_more_cpus() {
    let dir = tempfile::tempdir().unwrap();
    let (map, _) = setup(dir.path(), "0");
    let db = dir.path().join("never-created.sqlite3");
    let bots = ["a=builtin:hunter".to_string(), "b=builtin:random".into()];
    let out = ply()
        .args(args(&map, &db, &bots, 1))
        .arg("--cpus=2")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--cpus 2: Ants bots run one CPU each"),
        "{err}"
    );
    assert!(!db.exists());
}
