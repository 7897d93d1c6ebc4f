//! Issue 18 through the binary: `ply tournament`, `ply match` and `ply ants play` with
//! hostile bots in their jail (`--require-jail`, so a machine without the jail fails these
//! tests rather than running the attacks unconfined). The library's suite, one test per
//! attack, is crates/referee/tests/hostile_bots.rs.

use std::path::Path;
use std::process::Output;

use ply_testkit::procs::{Look, marked};

mod common;

/// Whether bubblewrap is installed (scripts/install-test-deps installs it).
fn have_jail() -> bool {
    let found = Path::new("/usr/bin/bwrap").exists() || Path::new("/usr/local/bin/bwrap").exists();
    if !found {
        eprintln!("skipped: bubblewrap is not installed (scripts/install-test-deps)");
    }
    found
}

/// A folder everybody may read (jailed bots run as `nobody` when the tests run as root).
fn open_dir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// A tic-tac-toe bot that plays the first empty cell after running `attack`.
fn bot(dir: &Path, name: &str, attack: &str) -> String {
    let path = dir.join(name);
    common::write_script(
        &path,
        &format!(
            "#!/bin/sh\n{attack}\nr=0\nwhile [ $r -lt 3 ]; do\n  read a b c\n  \
             [ \"$a\" = 0 ] && {{ echo \"$r 0\"; exit 0; }}\n  \
             [ \"$b\" = 0 ] && {{ echo \"$r 1\"; exit 0; }}\n  \
             [ \"$c\" = 0 ] && {{ echo \"$r 2\"; exit 0; }}\n  r=$((r+1))\ndone\n"
        ),
    );
    path.display().to_string()
}

fn ok(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "ply failed: {}",
        common::text(&out.stderr)
    );
    let stderr = common::text(&out.stderr);
    assert!(
        !stderr.contains("warning"),
        "the jail is complete: {stderr}"
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn tournament(db: &Path, bot: &str) -> serde_json::Value {
    let bot = format!("--bot=b={bot}");
    ok(&common::ply(
        &[
            "tournament",
            "tictactoe",
            &bot,
            "--bot=r=builtin:random",
            "--rounds",
            "2",
            "--seed",
            "7",
            "--db",
            db.to_str().unwrap(),
            "--require-jail",
            "--json",
        ],
        "",
    ))
}

/// A bot rewrites the tournament's database (its path given to it, as if found) on every
/// move, and gives up its move when it can read it: the store holds the same results as
/// the same tournament with an honest bot.
#[test]
fn a_bot_cannot_forge_the_tournament_s_results() {
    if !have_jail() {
        return;
    }
    let dir = open_dir();
    let db = dir.path().join("arena.sqlite3");
    let attack = format!(
        "for f in {db} {db}-wal {db}-shm; do echo forged > $f; done 2>/dev/null\n\
         head -c 15 {db} 2>/dev/null | grep -q SQLite && {{ echo 'I read the database'; exit 0; }}",
        db = db.display()
    );
    let evil = bot(dir.path(), "evil.sh", &attack);
    let attacked = tournament(&db, &evil);
    let clean_dir = open_dir();
    let honest = bot(clean_dir.path(), "honest.sh", ":");
    let clean = tournament(&clean_dir.path().join("arena.sqlite3"), &honest);
    // Everything but the bots' paths (the specs) is the same.
    let without_specs = |v: &serde_json::Value| {
        let mut v = v["standings"].clone();
        for s in v.as_array_mut().unwrap() {
            s.as_object_mut().unwrap().remove("spec");
        }
        v
    };
    assert_eq!(without_specs(&attacked), without_specs(&clean));
    // The database is intact and says the same.
    let out = common::ply(&["leaderboard", "--db", db.to_str().unwrap(), "--json"], "");
    assert!(out.status.success(), "{}", common::text(&out.stderr));
}

/// A bot stops and kills its parent: in its jail that is the launcher, the jail's pid 1,
/// which ignores it; the referee plays on.
#[test]
fn a_bot_cannot_stop_or_kill_ply_match() {
    if !have_jail() {
        return;
    }
    let dir = open_dir();
    // Only in a pid namespace of its own (see hostile_bots.rs): never `kill -9 -1` as root
    // outside one.
    let evil = bot(
        dir.path(),
        "evil.sh",
        "[ $$ -lt 10 ] || exit 1\nkill -STOP $PPID; kill -9 $PPID; kill -9 -1",
    );
    let p1 = format!("--p1={evil}");
    let v = ok(&common::ply(
        &[
            "match",
            "tictactoe",
            &p1,
            "--p2=builtin:random",
            "--games",
            "2",
            "--require-jail",
            "--json",
        ],
        "",
    ));
    let text = v.to_string();
    assert!(!text.contains("runtime_error"), "{text}");
}

/// `--require-jail` and `--no-jail` cannot be given together.
#[test]
fn require_jail_and_no_jail_conflict() {
    let out = common::ply(
        &[
            "match",
            "tictactoe",
            "--p1=builtin:random",
            "--p2=builtin:random",
            "--require-jail",
            "--no-jail",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", common::text(&out.stderr));
}

/// As root, bots run as `nobody`: a program in a folder only root may enter is refused
/// before any game, with the fix, instead of losing every move.
#[test]
fn a_program_nobody_can_reach_is_refused_before_the_match() {
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout == b"0\n");
    if !have_jail() || !root {
        eprintln!("skipped: not root, or no jail");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let hidden = bot(dir.path(), "hidden.sh", ":");
    let p1 = format!("--p1={hidden}");
    let out = common::ply(&["match", "tictactoe", &p1, "--p2=builtin:random"], "");
    assert_eq!(out.status.code(), Some(2), "{}", common::text(&out.stderr));
    let err = common::text(&out.stderr);
    assert!(err.contains("nobody cannot reach"), "{err}");
    assert!(err.contains("chmod o+rx"), "{err}");
}

/// `ply match` runs a per-move bot's moves of one game in one jail (ply is its own
/// launcher): the bot counts its moves in its `HOME`, which lasts the game and no longer,
/// and the count it last wrote on stderr is its number of moves in that game.
#[test]
fn a_per_move_bot_keeps_one_jail_and_folder_for_a_game() {
    if !have_jail() {
        return;
    }
    let dir = open_dir();
    let counter = bot(
        dir.path(),
        "counter.sh",
        "echo x >> \"$HOME/moves\"; echo \"moves $(wc -l < \"$HOME/moves\") pid $$\" >&2",
    );
    let replays = dir.path().join("replays");
    let p1 = format!("--p1={counter}");
    let v = ok(&common::ply(
        &[
            "match",
            "tictactoe",
            &p1,
            "--p2=builtin:random",
            "--games",
            "2",
            "--swap",
            "--seed",
            "3",
            "--require-jail",
            "--json",
            "--replays",
            replays.to_str().unwrap(),
        ],
        "",
    ));
    for game in v["games"].as_array().unwrap() {
        let replay: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(game["replay"].as_str().unwrap()).unwrap(),
        )
        .unwrap();
        let seat = replay["players"]
            .as_array()
            .unwrap()
            .iter()
            .position(|p| p["spec"].as_str().unwrap().contains("counter.sh"))
            .unwrap();
        let moves = replay["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["seat"].as_u64() == Some(seat as u64 + 1))
            .count();
        assert!(moves >= 2, "{replay}");
        let tail = replay["stderr"][seat].as_str().unwrap();
        // Each move is a new process in the same jail: the launcher is pid 1, the moves
        // come after it.
        assert!(tail.starts_with(&format!("moves {moves} pid ")), "{tail}");
        let pid: u32 = tail.split_whitespace().last().unwrap().parse().unwrap();
        assert!(pid > 1 && pid < 1000, "{tail}");
    }
}

/// Processes whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<String> {
    marked(marker, Look::CommandLine)
        .into_iter()
        .map(|p| p.cmdline)
        .collect()
}

/// Without a jail there is no pid namespace to die with ply, yet nothing of a bot outlives
/// ply killed with -9 in the middle of a move: the bot dies of its parent-death signal, and
/// its helper in a session of its own is killed by the launcher, its subreaper, which sees
/// ply's socket close.
#[test]
fn nothing_of_a_bot_outlives_ply_killed_with_sigkill_without_a_jail() {
    let dir = open_dir();
    let marker = format!("ply-sigkill-{}", std::process::id());
    // Only sleeps (nothing here is in a namespace): a helper, then a long think.
    let sleeper = bot(
        dir.path(),
        "sleeper.sh",
        &format!("setsid sh -c 'sleep 1000; :' {marker} </dev/null >/dev/null 2>&1 &\nsleep 1000"),
    );
    let p1 = format!("--p1={sleeper}");
    let mut ply = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "match",
            "tictactoe",
            &p1,
            "--p2=builtin:random",
            "--no-jail",
            "--time-ms",
            "60000",
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while processes_with(&marker).is_empty() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(!processes_with(&marker).is_empty(), "the helper never ran");
    ply.kill().unwrap();
    ply.wait().unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while !processes_with(&marker).is_empty() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(
        processes_with(&marker),
        Vec::<String>::new(),
        "outlived ply"
    );
}
