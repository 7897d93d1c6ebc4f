//! Ants tournaments through the `ply` binary (issue 15 item 3): built-ins and a Python bot
//! (jailed, as `nobody`) in the same store as every other tournament, each game's full
//! ranking stored, TrueSkill on the leaderboard, and a tournament killed with SIGKILL that
//! resumes with no game lost or played twice.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ply_store::{SqliteStore, Store};

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
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if let Ok(cmd) = std::fs::read(entry.path().join("cmdline"))
            && String::from_utf8_lossy(&cmd).contains(marker)
        {
            out.push(pid);
        }
    }
    out
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
