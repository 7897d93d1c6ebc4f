//! The arena end to end through the `ply` binary: matches, replays, tournaments with a Python
//! bot, and a tournament killed with SIGKILL that resumes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use ply_store::{SqliteStore, Store};

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

fn run(args: &[&str]) -> Output {
    ply().args(args).output().expect("ply runs")
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "ply failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

/// A tic-tac-toe bot in `sh`: the first empty cell, after `delay` seconds.
fn sh_bot(dir: &Path, delay: &str) -> String {
    let path = dir.join("first_empty.sh");
    let script = format!(
        "#!/bin/sh\nsleep {delay}\nr=0\nwhile [ $r -lt 3 ]; do\n  read a b c\n  \
         [ \"$a\" = 0 ] && {{ echo \"$r 0\"; exit 0; }}\n  \
         [ \"$b\" = 0 ] && {{ echo \"$r 1\"; exit 0; }}\n  \
         [ \"$c\" = 0 ] && {{ echo \"$r 2\"; exit 0; }}\n  r=$((r+1))\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// The real Python interpreter (a version manager's shim can take half a second to start);
/// the system's first, which jailed bots can run as `nobody` (one under root's home
/// folder they cannot).
fn python() -> Option<String> {
    if Path::new("/usr/bin/python3").exists() {
        return Some("/usr/bin/python3".into());
    }
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let exe = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !exe.is_empty()).then_some(exe)
}

const PYTHON_BOT: &str = r#"
import sys
# HackerEarth's tic-tac-toe input: three rows of 0/1/2, then my id.
rows = [line.split() for line in sys.stdin.read().split("\n") if line.strip()]
grid = [[int(x) for x in row] for row in rows[:3]]
me = int(rows[3][0])
them = 3 - me
lines = [[(r, c) for c in range(3)] for r in range(3)]
lines += [[(r, c) for r in range(3)] for c in range(3)]
lines += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
def completing(who):
    for line in lines:
        marks = [grid[r][c] for r, c in line]
        if marks.count(who) == 2 and marks.count(0) == 1:
            return line[marks.index(0)]
    return None
move = completing(me) or completing(them)
if move is None:
    free = [(r, c) for r in range(3) for c in range(3) if grid[r][c] == 0]
    move = (1, 1) if (1, 1) in free else free[0]
print(move[0], move[1])
print("debug: python bot chose", move, file=sys.stderr)
print("debug lines after the move are ignored")
"#;

#[test]
fn a_python_bot_plays_a_rated_tournament_against_the_built_ins() {
    let Some(python) = python() else {
        eprintln!("skipped: no python3");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    // Readable by others: jailed bots run as `nobody` when the tests run as root.
    std::fs::set_permissions(
        dir.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let bot = dir.path().join("bot.py");
    std::fs::write(&bot, PYTHON_BOT).unwrap();
    let db = dir.path().join("arena.sqlite3");
    let db = db.to_str().unwrap();
    let py = format!("--bot=py={python} -S {}", bot.display());
    let out = run(&[
        "tournament",
        "tictactoe",
        &py,
        "--bot=rand=builtin:random",
        "--bot=ab=builtin:alphabeta:ms=20",
        "--rounds",
        "2",
        "--concurrency",
        "2",
        // What is tested is the games, not the speed: a loaded machine can take over 1 s
        // to start Python in a jail.
        "--time-ms=10000",
        "--db",
        db,
        "--json",
    ]);
    let v = json(&out);
    let standings = v["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 3);
    for s in standings {
        let games = ["wins", "draws", "losses"]
            .iter()
            .map(|k| s[k].as_u64().unwrap())
            .sum::<u64>();
        // 2 opponents x 2 games (each side first once) x 2 rounds.
        assert_eq!(games, 8, "{s}");
        if s["bot"] == "ab" {
            // Alpha-beta solves tic-tac-toe: it never loses.
            assert_eq!(s["losses"], 0, "{s}");
        }
    }
    // The best bot scores 100, and the list is sorted by rating.
    assert_eq!(standings[0]["score"], 100.0);
    let ratings: Vec<f64> = standings
        .iter()
        .map(|s| s["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings.windows(2).all(|w| w[0] >= w[1]), "{ratings:?}");
    // The Python bot's moves were all judged ok, and its stderr reached the replays.
    let store = SqliteStore::open(Path::new(db)).unwrap();
    let t = store.tournament(None).unwrap();
    let games = store.games(t.id).unwrap();
    assert_eq!(games.len(), 12);
    for g in &games {
        let replay: serde_json::Value = serde_json::from_str(&g.replay).unwrap();
        for (seat, p) in replay["players"].as_array().unwrap().iter().enumerate() {
            if p["name"] == "py" {
                assert!(
                    replay["stderr"][seat]
                        .as_str()
                        .unwrap()
                        .contains("python bot chose")
                );
                for m in replay["moves"].as_array().unwrap() {
                    if m["seat"] == seat + 1 {
                        assert_eq!(m["verdict"], "ok", "{m}");
                    }
                }
            }
        }
    }
    // `ply leaderboard` shows the same standings.
    let again = json(&run(&["leaderboard", "--db", db, "--json"]));
    assert_eq!(again["standings"], v["standings"]);
    // Every stored game plays back.
    let out = run(&["replay", "--db", db, "--game", "2:3"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("result: "));
    let out = run(&["replay", "--db", db, "--game", "9:0"]);
    assert_eq!(out.status.code(), Some(2));
}

fn stored_games(db: &Path) -> Vec<(u32, u32, String)> {
    if !db.exists() {
        return Vec::new();
    }
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
        .map(|g| (g.round, g.slot, g.replay))
        .collect()
}

fn tournament_args(bot: &str, db: &Path) -> Vec<String> {
    [
        "tournament",
        "tictactoe",
        &format!("--bot=slow={bot}"),
        "--bot=rand=builtin:random",
        "--bot=greedy=builtin:greedy",
        "--rounds=3",
        "--seed=7",
        // A 50 ms bot must never run out of time here, or the resumed and the unbroken
        // tournaments differ by a verdict the machine's load chose.
        "--time-ms=10000",
        "--json",
        "--db",
        db.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

#[test]
fn a_tournament_killed_with_sigkill_resumes_without_losing_or_replaying_a_game() {
    let dir = tempfile::tempdir().unwrap();
    let bot = sh_bot(dir.path(), "0.05");
    let db: PathBuf = dir.path().join("arena.sqlite3");
    let mut child = ply()
        .args(tournament_args(&bot, &db))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while stored_games(&db).len() < 4 {
        assert!(started.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let before = stored_games(&db);
    assert!(before.len() < 18, "killed too late to test anything");

    let out = ply().args(tournament_args(&bot, &db)).output().unwrap();
    let resumed = json(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr,
        format!(
            "resuming tournament #1 in {}: {} of 18 games already played\n",
            db.display(),
            before.len()
        )
    );
    let after = stored_games(&db);
    assert_eq!(after.len(), 18);
    for game in &before {
        assert!(
            after.contains(game),
            "game {:?} changed or vanished",
            (game.0, game.1)
        );
    }

    // The same tournament unbroken, in another database, ends with the same standings.
    let db2 = dir.path().join("unbroken.sqlite3");
    let unbroken = json(&ply().args(tournament_args(&bot, &db2)).output().unwrap());
    assert_eq!(resumed["standings"], unbroken["standings"]);
}

#[test]
fn a_match_records_replays_that_play_back() {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("replays");
    let v = json(&run(&[
        "match",
        "tictactoe",
        "--p1",
        "builtin:random",
        "--p2",
        "builtin:perfect",
        "--games",
        "4",
        "--swap",
        "--json",
        "--replays",
        replays.to_str().unwrap(),
    ]));
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    let firsts: Vec<u64> = games.iter().map(|g| g["first"].as_u64().unwrap()).collect();
    assert_eq!(firsts, [1, 2, 1, 2]);
    // Perfect play never loses at tic-tac-toe.
    assert_eq!(v["players"][0]["wins"], 0);
    let file = games[0]["replay"].as_str().unwrap();
    let out = run(&["replay", file]);
    assert!(out.status.success());
    // The whole playback, the bots' times masked (`in 0.2 ms` -> `in T`).
    let text: String = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| match l.rsplit_once(" in ") {
            Some((head, _)) if l.starts_with("ply ") => format!("{head} in T\n"),
            _ => format!("{l}\n"),
        })
        .collect();
    let board = |cells: [&str; 9]| {
        format!(
            " {} | {} | {} \n---+---+---\n {} | {} | {} \n---+---+---\n {} | {} | {} \n\n\n",
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            cells[6],
            cells[7],
            cells[8]
        )
    };
    let mut expected = String::from(
        "Tic-tac-toe (seed 10451216379200822465)\nplayer 1: p1 (builtin:random)\n\
         player 2: p2 (builtin:perfect)\n\n",
    );
    expected += &board(["1", "2", "3", "4", "5", "6", "7", "8", "9"]);
    for (ply, (mv, cells)) in [
        ("0 1", ["1", "X", "3", "4", "5", "6", "7", "8", "9"]),
        ("1 1", ["1", "X", "3", "4", "O", "6", "7", "8", "9"]),
        ("2 0", ["1", "X", "3", "4", "O", "6", "X", "8", "9"]),
        ("1 2", ["1", "X", "3", "4", "O", "O", "X", "8", "9"]),
        ("2 1", ["1", "X", "3", "4", "O", "O", "X", "X", "9"]),
        ("1 0", ["1", "X", "3", "O", "O", "O", "X", "X", "9"]),
    ]
    .into_iter()
    .enumerate()
    {
        let player = ply % 2 + 1;
        expected += &format!(
            "ply {}: player {player} (p{player}) plays {mv} in T\n",
            ply + 1
        );
        expected += &board(cells);
    }
    expected += "result: player 2 wins\n";
    assert_eq!(text, expected);
}

#[test]
fn a_crashing_bot_loses_every_game_by_runtime_error() {
    let v = json(&run(&[
        "match",
        "tictactoe",
        "--p1",
        "sh -c 'exit 3'",
        "--p2",
        "builtin:random",
        "--games",
        "2",
        "--swap",
        "--json",
    ]));
    assert_eq!(v["players"][0]["losses"], 2);
    assert_eq!(v["players"][0]["faults"]["runtime_error"], 2);
}

#[test]
fn bad_specs_are_bad_input() {
    let out = run(&[
        "tournament",
        "tictactoe",
        "--bot=a=builtin:nope",
        "--bot=b=builtin:random",
        "--db",
        "/nonexistent/never-created.sqlite3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: --bot \"builtin:nope\": unknown built-in AI \"nope\"; the built-ins are: random, \
         greedy, alphabeta, mcts, perfect\n"
    );
    let out = run(&[
        "match",
        "tictactoe",
        "--p1",
        "python3 'open",
        "--p2",
        "builtin:random",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: --p1 \"python3 'open\": cannot read the command line \"python3 'open\": a quote \
         is not closed, or a backslash ends it\n"
    );
    // A built-in that cannot play the game is refused before the database is opened.
    let out = run(&[
        "tournament",
        "reversi",
        "--bot=a=builtin:perfect",
        "--bot=b=builtin:random",
        "--db",
        "/nonexistent/never-created.sqlite3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "error: --bot a: builtin:perfect searches to the end of the game, which reversi is too \
         long for; use builtin:alphabeta\n"
    );
    assert!(!Path::new("/nonexistent").exists());
}

/// Runs `ply` and returns (stdout, stderr), asserting success.
fn texts(args: &[&str]) -> (String, String) {
    let out = run(args);
    assert!(
        out.status.success(),
        "ply {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

// The whole outputs below were written by `ply` before the arena moved into its own crate
// (ply-arena); deterministic players only (random, greedy, fixed-depth alpha-beta, mcts with a
// fixed number of playouts), so that they must stay byte for byte.

#[test]
fn a_match_prints_every_game_and_the_totals_exactly() {
    let (out, err) = texts(&[
        "match",
        "tictactoe",
        "--p1",
        "builtin:random",
        "--p2",
        "builtin:greedy",
        "--games",
        "4",
        "--swap",
        "--seed",
        "3",
    ]);
    assert_eq!(
        out,
        "game 1: p2 wins in 6 plies (p1 first)\n\
         game 2: p2 wins in 5 plies (p2 first)\n\
         game 3: p2 wins in 6 plies (p1 first)\n\
         game 4: p2 wins in 5 plies (p2 first)\n\
         \n\
         p1 (builtin:random): 0 won, 0 drawn, 4 lost\n\
         p2 (builtin:greedy): 4 won, 0 drawn, 0 lost\n"
    );
    assert_eq!(err, "");
    let (out, _) = texts(&[
        "match",
        "tictactoe",
        "--p1",
        "sh -c 'exit 3'",
        "--p2",
        "builtin:random",
        "--games",
        "2",
        "--swap",
    ]);
    assert_eq!(
        out,
        "game 1: p2 wins, p1 lost by runtime error (exit code 3) on ply 1 (p1 first)\n\
         game 2: p2 wins, p1 lost by runtime error (exit code 3) on ply 2 (p2 first)\n\
         \n\
         p1 (sh -c 'exit 3'): 0 won, 0 drawn, 2 lost; lost by runtime_error 2\n\
         p2 (builtin:random): 2 won, 0 drawn, 0 lost\n"
    );
}

#[test]
fn a_match_s_json_is_exactly_the_documented_shape() {
    let (out, _) = texts(&[
        "match",
        "tictactoe",
        "--p1",
        "builtin:random",
        "--p2",
        "builtin:mcts:iterations=50",
        "--games",
        "3",
        "--seed",
        "5",
        "--json",
    ]);
    let game = |n: u32| {
        format!(
            "    {{\n      \"first\": 1,\n      \"game\": {n},\n      \"p1_score\": 0.0,\n      \
             \"plies\": 6,\n      \"replay\": null,\n      \
             \"result\": \"p2 wins in 6 plies (p1 first)\"\n    }}"
        )
    };
    let player = |name: &str, spec: &str, wins: u32, losses: u32| {
        format!(
            "    {{\n      \"draws\": 0,\n      \"faults\": {{}},\n      \"losses\": {losses},\n      \
             \"name\": \"{name}\",\n      \"spec\": \"{spec}\",\n      \"wins\": {wins}\n    }}"
        )
    };
    let expected = format!(
        "{{\n  \"game\": \"tictactoe\",\n  \"games\": [\n{},\n{},\n{}\n  ],\n  \"players\": [\n{},\n{}\n  ],\n  \
         \"seed\": 5\n}}\n",
        game(1),
        game(2),
        game(3),
        player("p1", "builtin:random", 0, 3),
        player("p2", "builtin:mcts:iterations=50", 3, 0),
    );
    assert_eq!(out, expected);
}

fn created(db: &Path) -> String {
    let store = SqliteStore::open(db).unwrap();
    store.tournament(None).unwrap().created
}

const DETERMINISTIC_BOTS: [&str; 3] = [
    "--bot=r=builtin:random",
    "--bot=g=builtin:greedy",
    "--bot=d=builtin:alphabeta:depth=2",
];

#[test]
fn a_tournament_and_its_leaderboard_print_exactly_the_standings() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let db_text = db.to_str().unwrap();
    let mut args = vec!["tournament", "tictactoe"];
    args.extend(DETERMINISTIC_BOTS);
    args.extend(["--rounds", "2", "--db", db_text]);
    let (out, err) = texts(&args);
    let table = format!(
        "Tournament #1 (tictactoe, 2 rounds), created {}\n\
         rank  bot               rating    dev      vol    W    D    L  score\n   \
         1  d                 1751.6  162.4  0.06000    5    3    0  100.0\n   \
         2  g                 1625.1  162.4  0.06000    4    3    1   92.8\n   \
         3  r                 1112.1  182.9  0.06000    0    0    8   63.5\n\
         rating, dev, vol: Glicko-2 rating, deviation and volatility; \
         score: 100 x rating / the best rating (HackerEarth's)\n",
        created(&db)
    );
    assert_eq!(out, table);
    assert_eq!(
        err,
        format!("tournament #1 in {db_text}: 3 bots, 2 rounds, 12 games\n")
    );
    let (again, err) = texts(&["leaderboard", "--db", db_text]);
    assert_eq!(again, table);
    assert_eq!(err, "");
}

fn deterministic_tournament(db: &str, extra: &[&str]) -> Output {
    let mut args = vec!["tournament", "tictactoe"];
    args.extend(DETERMINISTIC_BOTS);
    args.extend(["--rounds", "1", "--db", db]);
    args.extend(extra);
    run(&args)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn a_finished_tournament_run_again_shows_its_standings_and_new_starts_another() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let db_text = db.to_str().unwrap();
    let first = deterministic_tournament(db_text, &[]);
    assert!(first.status.success());
    let again = deterministic_tournament(db_text, &[]);
    assert!(again.status.success());
    assert_eq!(
        text(&again.stderr),
        format!(
            "tournament #1 in {db_text} is complete; its standings follow (--new plays it again \
             as a new tournament)\n"
        )
    );
    assert_eq!(text(&again.stdout), text(&first.stdout));
    let store = SqliteStore::open(&db).unwrap();
    assert_eq!(
        store.tournament(None).unwrap().id,
        1,
        "a second tournament was started"
    );
    drop(store);
    let new = deterministic_tournament(db_text, &["--new"]);
    assert!(new.status.success());
    assert_eq!(
        text(&new.stderr),
        format!("tournament #2 in {db_text}: 3 bots, 1 round, 6 games\n")
    );
}

#[test]
fn the_output_limit_is_part_of_a_tournament_s_identity() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let db_text = db.to_str().unwrap();
    assert!(
        deterministic_tournament(db_text, &["--output-kb", "64"])
            .status
            .success()
    );
    // The same limit is the same tournament (complete); another limit is another one.
    let same = deterministic_tournament(db_text, &["--output-kb", "64"]);
    assert!(
        text(&same.stderr).starts_with("tournament #1 in "),
        "{}",
        text(&same.stderr)
    );
    assert!(text(&same.stderr).contains(" is complete;"));
    let other = deterministic_tournament(db_text, &["--output-kb", "128"]);
    assert_eq!(
        text(&other.stderr),
        format!("tournament #2 in {db_text}: 3 bots, 1 round, 6 games\n")
    );
    let store = SqliteStore::open(&db).unwrap();
    assert_eq!(store.tournament(Some(2)).unwrap().config.output, 128 << 10);
}

#[test]
fn the_leaderboard_without_a_database_says_so_and_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("sub").join("none.sqlite3");
    let db_text = db.to_str().unwrap();
    let (out, err) = texts(&["leaderboard", "--db", db_text]);
    assert_eq!(
        out,
        format!("no tournaments yet in {db_text}; `ply tournament` starts one\n")
    );
    assert_eq!(err, "");
    let (out, _) = texts(&["leaderboard", "--db", db_text, "--json"]);
    assert_eq!(out, "{\n  \"standings\": [],\n  \"tournament\": null\n}\n");
    let out = run(&["replay", "--db", db_text, "--game", "1:0"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: {db_text}: no tournaments yet (no such file); run `ply tournament` first\n"
        )
    );
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "the leaderboard or the replay created something"
    );
}

/// Runs `ply` as an unprivileged user when the tests run as root (root writes anywhere, so a
/// read-only directory would prove nothing), else as this user.
fn as_unprivileged(args: &[&str]) -> Output {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    if root {
        Command::new("setpriv")
            .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .output()
            .expect("setpriv runs")
    } else {
        run(args)
    }
}

#[test]
fn the_leaderboard_reads_a_database_in_a_read_only_directory() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let db = ro.join("t.db");
    let db_text = db.to_str().unwrap();
    let made = deterministic_tournament(db_text, &[]);
    assert!(made.status.success());
    let table = text(&made.stdout);
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    let out = as_unprivileged(&["leaderboard", "--db", db_text]);
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), table);
    let names: Vec<String> = std::fs::read_dir(&ro)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["t.db"]);
}

#[test]
fn an_unreadable_database_names_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("garbage.db");
    std::fs::write(&db, "this is no database\n".repeat(200)).unwrap();
    let db_text = db.to_str().unwrap();
    let out = run(&["leaderboard", "--db", db_text]);
    // Naming a file that is no database is the user's mistake: bad input, exit 2.
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        format!(
            "error: opening the arena database {db_text}\n  \
             caused by: file is not a database; name an arena database, or a path where \
             there is none yet to create one\n"
        )
    );
    // A folder, for the commands that write too.
    let folder = dir.path().to_str().unwrap();
    for args in [
        &["leaderboard", "--db", folder][..],
        &[
            "tournament",
            "tictactoe",
            "--bot",
            "a=builtin:random",
            "--bot",
            "b=builtin:random",
            "--db",
            folder,
        ],
    ] {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn an_unreadable_answer_and_an_illegal_move_are_told_apart() {
    let (out, _) = texts(&[
        "match",
        "tictactoe",
        "--p1",
        "echo hello",
        "--p2",
        "builtin:random",
    ]);
    assert_eq!(
        out,
        "game 1: p2 wins, p1 lost by unreadable answer (cannot read a move from \"hello\": \
         expected numbers: `row col` (each 0, 1 or 2) or a cell 1..9) on ply 1 (p1 first)\n\
         \n\
         p1 (echo hello): 0 won, 0 drawn, 1 lost; lost by unreadable 1\n\
         p2 (builtin:random): 1 won, 0 drawn, 0 lost\n"
    );
    let (out, _) = texts(&[
        "match",
        "tictactoe",
        "--p1",
        "echo 0 0",
        "--p2",
        "builtin:random",
        "--games",
        "2",
        "--swap",
        "--seed",
        "2",
    ]);
    assert_eq!(
        out,
        "game 1: p2 wins, p1 lost by invalid move (illegal move 0 0: cell 1 (row 0, column 0) \
         already holds X) on ply 3 (p1 first)\n\
         game 2: p2 wins, p1 lost by invalid move (illegal move 0 0: cell 1 (row 0, column 0) \
         already holds X) on ply 2 (p2 first)\n\
         \n\
         p1 (echo 0 0): 0 won, 0 drawn, 2 lost; lost by invalid_move 2\n\
         p2 (builtin:random): 2 won, 0 drawn, 0 lost\n"
    );
}
