//! Issue 19: tournaments across machines. `ply tournament --enqueue` queues a tournament in
//! PostgreSQL; three `ply worker` processes play it, one killed with -9 in the middle of a
//! game; every game is stored exactly once, and the leaderboard equals a single local run's.
//! A worker whose copy of a bot differs from the tournament's never claims that bot's games.
//! (A result posted twice is stored once: the store contract, crates/store/tests.)

mod common;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ply_testkit::postgres::Cluster;

/// A tic-tac-toe bot that thinks for `delay` seconds, then takes the first free cell.
fn slow_bot(path: &Path, delay: &str) {
    common::write_script(
        path,
        &format!(
            "#!/bin/sh\nsleep {delay}\nr=0\nwhile [ $r -lt 3 ]; do\n  read a b c\n  \
             [ \"$a\" = 0 ] && {{ echo \"$r 0\"; exit 0; }}\n  \
             [ \"$b\" = 0 ] && {{ echo \"$r 1\"; exit 0; }}\n  \
             [ \"$c\" = 0 ] && {{ echo \"$r 2\"; exit 0; }}\n  r=$((r+1))\ndone\n"
        ),
    );
}

fn ply(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .env_remove("PLY_DB")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ply {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn worker(url: &str, name: &str, dir: &Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["worker", "--db", url, "--name", name, "--lease-secs", "2"])
        .arg("--exit-when-idle")
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.join(format!("{name}.log"))).unwrap())
        .spawn()
        .unwrap()
}

fn wait(child: &mut Child, limit: Duration) {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "a worker failed: {status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("a worker did not finish within {limit:?}");
}

fn standings(out: &std::process::Output) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["standings"].clone()
}

#[test]
fn three_workers_one_killed_mid_game_store_every_game_once_and_rate_as_a_local_run() {
    let Some(cluster) = Cluster::shared() else {
        return;
    };
    let url = cluster.database("three_workers");
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("slow.sh");
    slow_bot(&bot, "0.05");
    let slow = format!("--bot=slow={}", bot.display());
    let tournament = |db: &str, extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "tictactoe",
            &slow,
            "--bot=rand=builtin:random",
            "--bot=greedy=builtin:greedy",
            "--rounds",
            "3",
            "--seed",
            "19",
            "--db",
            db,
        ];
        args.extend_from_slice(extra);
        ply(&args)
    };
    tournament(&url, &["--enqueue"]);
    let mut workers: Vec<Child> = ["w1", "w2", "w3"]
        .iter()
        .map(|n| worker(&url, n, dir.path()))
        .collect();
    // Kill w1 with -9 while it holds a game.
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let start = Instant::now();
    loop {
        let held: i64 = client
            .query_one(
                "SELECT count(*) FROM queue WHERE state = 'leased' AND worker LIKE 'w1/%'",
                &[],
            )
            .unwrap()
            .get(0);
        if held > 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "w1 never claimed"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    workers[0].kill().unwrap(); // SIGKILL
    workers[0].wait().unwrap();
    for w in &mut workers[1..] {
        wait(w, Duration::from_secs(240));
    }
    // 3 bots: 6 games a round, 3 rounds; each stored once, the queue all done.
    let row = client
        .query_one(
            "SELECT count(*), count(DISTINCT (round, slot)) FROM games",
            &[],
        )
        .unwrap();
    assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (18, 18));
    let row = client
        .query_one(
            "SELECT count(*) FILTER (WHERE state = 'done'), max(attempt) FROM queue",
            &[],
        )
        .unwrap();
    let (done, attempts): (i64, i64) = (row.get(0), row.get(1));
    assert_eq!(done, 18);
    assert!(
        attempts >= 2,
        "the killed worker's game was not claimed again"
    );
    let rated: i64 = client
        .query_one("SELECT count(DISTINCT round) FROM ratings", &[])
        .unwrap()
        .get(0);
    assert_eq!(rated, 3);
    // The same tournament played by one local process, on SQLite, from the same seeds.
    let local = dir.path().join("local.sqlite3");
    let local = tournament(local.to_str().unwrap(), &["--json"]);
    let shared = ply(&["leaderboard", "--db", &url, "--json"]);
    assert_eq!(standings(&shared), standings(&local));
    let v: serde_json::Value = serde_json::from_slice(&shared.stdout).unwrap();
    assert_eq!(v["finished"], true);
    // --watch on a finished tournament prints the same standings.
    let watched = tournament(&url, &["--watch", "--json"]);
    assert_eq!(standings(&watched), standings(&local));
    // `ply workers` lists the three, the survivors stopped, with the games they stored, and
    // the killed one (which never said `stopped`) as silent.
    let listed = ply(&["workers", "--db", &url, "--json", "--silent-after", "1"]);
    let listed: Vec<serde_json::Value> = serde_json::from_slice(&listed.stdout).unwrap();
    let mut names: Vec<&str> = listed.iter().map(|w| w["name"].as_str().unwrap()).collect();
    names.sort_unstable();
    assert_eq!(names, ["w1", "w2", "w3"]);
    let survivors: u64 = listed
        .iter()
        .filter(|w| w["name"] != "w1")
        .inspect(|w| assert_eq!(w["state"], "stopped", "{w}"))
        .map(|w| w["games"].as_u64().unwrap())
        .sum();
    assert!((1..=18).contains(&survivors), "{listed:?}");
    let killed = listed.iter().find(|w| w["name"] == "w1").unwrap();
    assert_eq!(killed["state"], "silent", "{killed}");
    assert_ne!(killed["reported_state"], "stopped", "{killed}");
    assert!(killed["seconds_since_heartbeat"].as_u64().unwrap() >= 1);
}

#[test]
fn a_worker_with_another_version_of_a_bot_does_not_claim_its_games() {
    let Some(cluster) = Cluster::shared() else {
        return;
    };
    let url = cluster.database("lacking");
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("mine.sh");
    slow_bot(&bot, "0");
    let mine = format!("--bot=mine={}", bot.display());
    ply(&[
        "tournament",
        "tictactoe",
        &mine,
        "--bot=rand=builtin:random",
        "--bot=greedy=builtin:greedy",
        "--rounds",
        "1",
        "--db",
        &url,
        "--enqueue",
    ]);
    // This machine's copy is another version.
    slow_bot(&bot, "0.01");
    let mut w = worker(&url, "other", dir.path());
    wait(&mut w, Duration::from_secs(120));
    let log = std::fs::read_to_string(dir.path().join("other.log")).unwrap();
    assert!(
        log.contains("not playing the games of these bots of tournament #1: mine ("),
        "{log}"
    );
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    // Only rand against greedy, both ways; mine (entry 0) never played.
    let row = client
        .query_one(
            "SELECT count(*), count(*) FILTER (WHERE first_entry = 0 OR second_entry = 0)
             FROM games",
            &[],
        )
        .unwrap();
    assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (2, 0));
    let leased: i64 = client
        .query_one("SELECT count(*) FROM queue WHERE state != 'queued' AND (first_entry = 0 OR second_entry = 0)", &[])
        .unwrap()
        .get(0);
    assert_eq!(leased, 0, "a game of the lacking bot was claimed");
}

#[test]
fn sigterm_stops_a_worker_after_it_stores_the_game_it_holds() {
    let Some(cluster) = Cluster::shared() else {
        return;
    };
    let url = cluster.database("sigterm");
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("slow.sh");
    slow_bot(&bot, "0.2");
    let slow = format!("--bot=slow={}", bot.display());
    ply(&[
        "tournament",
        "tictactoe",
        &slow,
        "--bot=rand=builtin:random",
        "--rounds",
        "2",
        "--db",
        &url,
        "--enqueue",
    ]);
    // Without --exit-when-idle: only the signal ends it.
    let mut w = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["worker", "--db", &url, "--name", "term"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(dir.path().join("term.log")).unwrap())
        .spawn()
        .unwrap();
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let start = Instant::now();
    while client
        .query_one("SELECT count(*) FROM queue WHERE state = 'leased'", &[])
        .unwrap()
        .get::<_, i64>(0)
        == 0
    {
        assert!(start.elapsed() < Duration::from_secs(60), "nothing claimed");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = Command::new("kill")
        .args(["-TERM", &w.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    wait(&mut w, Duration::from_secs(60));
    // The game it held was finished and stored, nothing is left leased, and it said so.
    let row = client
        .query_one(
            "SELECT count(*) FILTER (WHERE state = 'leased'),
                    count(*) FILTER (WHERE state = 'done')
             FROM queue",
            &[],
        )
        .unwrap();
    let (leased, done): (i64, i64) = (row.get(0), row.get(1));
    assert_eq!(leased, 0);
    assert!(done >= 1, "the held game was not stored");
    let stored: i64 = client
        .query_one("SELECT count(*) FROM games", &[])
        .unwrap()
        .get(0);
    assert_eq!(stored, done);
    let state: String = client
        .query_one("SELECT state FROM workers WHERE name = 'term'", &[])
        .unwrap()
        .get(0);
    assert_eq!(state, "stopped");
    let log = std::fs::read_to_string(dir.path().join("term.log")).unwrap();
    assert!(log.contains("worker stopped"), "{log}");
}

#[test]
fn a_worker_takes_a_stored_program_when_its_own_copy_differs() {
    let Some(cluster) = Cluster::shared() else {
        return;
    };
    let url = cluster.database("stored_program");
    let dir = tempfile::tempdir().unwrap();
    let bot = dir.path().join("mine.sh");
    slow_bot(&bot, "0");
    let mine = format!("--bot=mine={}", bot.display());
    ply(&[
        "tournament",
        "tictactoe",
        &mine,
        "--bot=rand=builtin:random",
        "--bot=greedy=builtin:greedy",
        "--rounds",
        "1",
        "--db",
        &url,
        "--enqueue",
        "--store-programs",
    ]);
    // This machine's copy is broken; the worker takes the tournament's from the database.
    common::write_script(&bot, "#!/bin/sh\necho 9 9\n");
    let programs = dir.path().join("programs");
    let mut w = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "worker",
            "--db",
            &url,
            "--name",
            "taker",
            "--exit-when-idle",
        ])
        .arg("--programs-dir")
        .arg(&programs)
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait(&mut w, Duration::from_secs(120));
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let row = client
        .query_one(
            // A game a bot lost by a fault reads `1-0 (second b: illegal move ...)`.
            "SELECT count(*), count(*) FILTER (WHERE result LIKE '%(%') FROM games",
            &[],
        )
        .unwrap();
    // All six games played, none lost by a fault (the broken copy answers off the board).
    assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (6, 0));
    let taken: Vec<_> = std::fs::read_dir(&programs).unwrap().collect();
    assert_eq!(taken.len(), 1, "one program taken from the database");
}

#[test]
fn a_local_tournament_runs_on_postgresql_named_by_ply_db() {
    let Some(cluster) = Cluster::shared() else {
        return;
    };
    let url = cluster.database("local_run");
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .env("PLY_DB", &url)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    };
    let args = [
        "tournament",
        "tictactoe",
        "--bot=rand=builtin:random",
        "--bot=greedy=builtin:greedy",
        "--rounds",
        "2",
        "--json",
    ];
    let on_postgres = run(&args);
    let stderr = String::from_utf8_lossy(&on_postgres.stderr);
    assert!(
        stderr.contains("postgres://postgres@127.0.0.1:"),
        "{stderr}"
    );
    let local = dir.path().join("local.sqlite3");
    let mut with_file = args.to_vec();
    with_file.extend(["--db", local.to_str().unwrap()]);
    assert_eq!(standings(&on_postgres), standings(&ply(&with_file)));
    assert_eq!(
        standings(&run(&["leaderboard", "--json"])),
        standings(&on_postgres)
    );
    // `ply replay --game` reads the same database (it once took the URL for a file name),
    // and the stored game is the one the SQLite run stored: same seeds, same moves.
    let replay = |extra: &[&str]| {
        let mut args = vec!["replay", "--game", "1:0"];
        args.extend(extra);
        String::from_utf8(run(&args).stdout).unwrap()
    };
    let from_postgres = replay(&[]);
    assert!(from_postgres.contains("(seed "), "{from_postgres}");
    // The moves' times are each run's own ("in 0.0 ms" in one, "in 0.1 ms" in the other
    // once): everything else must be the same.
    assert_eq!(
        without_times(&from_postgres),
        without_times(&replay(&["--db", local.to_str().unwrap()]))
    );
}

/// A replay's text with each move's "in T ms" cut off.
fn without_times(replay: &str) -> String {
    replay
        .lines()
        .map(|line| match line.rsplit_once(" in ") {
            Some((play, time)) if time.ends_with(" ms") => play,
            _ => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Issue 15: an Ants tournament on a rotation of a 2-player and a 3-player map, queued with
/// `--enqueue` and played by two workers (its Python bot in the jail), stores every game once
/// and ends with the standings of a local run; the workers need no map files.
#[test]
fn workers_play_a_queued_ants_tournament_on_a_rotation_of_maps_as_a_local_run_does() {
    use std::os::unix::fs::PermissionsExt;
    let Some(cluster) = Cluster::shared() else {
        return;
    };
    if !Path::new("/usr/bin/python3").exists() {
        eprintln!("SKIPPED: /usr/bin/python3 is absent");
        return;
    }
    let url = cluster.database("ants_workers");
    let dir = tempfile::tempdir().unwrap();
    let maps = dir.path().join("maps");
    std::fs::create_dir_all(&maps).unwrap();
    for (name, players, seed) in [("a.map", "2", "3"), ("b.map", "3", "4")] {
        ply(&[
            "ants",
            "mapgen",
            "--players",
            players,
            "--rows",
            "18",
            "--cols",
            "36",
            "--seed",
            seed,
            "-o",
            maps.join(name).to_str().unwrap(),
        ]);
    }
    let bot = dir.path().join("bot.py");
    common::write_script(
        &bot,
        "import sys\nfor line in sys.stdin:\n    line = line.strip()\n    \
         if line in ('ready', 'go'):\n        print('go', flush=True)\n    \
         elif line == 'end':\n        break\n",
    );
    for p in [dir.path(), maps.as_path()] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let py = format!("--bot=py=/usr/bin/python3 {}", bot.display());
    let maps_arg = maps.to_str().unwrap();
    let tournament = |db: &str, extra: &[&str]| {
        let mut args = vec![
            "tournament",
            "ants",
            "--maps",
            maps_arg,
            "--bot=hunter=builtin:hunter",
            &py,
            "--bot=hold=builtin:hold",
            "--rounds",
            "3",
            "--turns",
            "30",
            "--seed",
            "7",
            "--db",
            db,
        ];
        args.extend_from_slice(extra);
        ply(&args)
    };
    tournament(&url, &["--enqueue"]);
    // The workers run elsewhere: without the maps.
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let mut workers: Vec<Child> = ["a1", "a2"]
        .iter()
        .map(|n| worker(&url, n, &elsewhere))
        .collect();
    for w in &mut workers {
        wait(w, Duration::from_secs(240));
    }
    // 3 bots: 6 games on the 2-player map (rounds 1 and 3), 3 on the 3-player one.
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let row = client
        .query_one(
            "SELECT count(*), count(DISTINCT (round, slot)) FROM games",
            &[],
        )
        .unwrap();
    assert_eq!((row.get::<_, i64>(0), row.get::<_, i64>(1)), (15, 15));
    let rated: i64 = client
        .query_one("SELECT count(DISTINCT round) FROM ratings", &[])
        .unwrap()
        .get(0);
    assert_eq!(rated, 3);
    let local = dir.path().join("local.sqlite3");
    let local = tournament(local.to_str().unwrap(), &["--json"]);
    let shared = ply(&["leaderboard", "--db", &url, "--json"]);
    assert_eq!(standings(&shared), standings(&local));
    let v: serde_json::Value = serde_json::from_slice(&shared.stdout).unwrap();
    assert_eq!(
        (&v["finished"], &v["rating"]),
        (&true.into(), &"trueskill".into())
    );
}
