//! Ctrl-C or a kill of `ply` during an Ants game leaves no bot behind (issue 15 item 5): the
//! bots are persistent processes, paused between turns, and must die with the referee
//! whether it is interrupted or killed outright, in the jail and without it. One Ctrl-C ends
//! the game after the turn in progress and still writes its replay; a second one, or a
//! SIGKILL, ends `ply` at once (the sandbox's reaper cleans up).

use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ply_testkit::procs::{Look, marked};

/// A bot that answers every turn after `sys.argv[2]` seconds (its first argument is the
/// test's marker): a slow one keeps the game going while the fast one sits paused.
const BOT: &str = "import sys, time\n\
delay = float(sys.argv[2])\n\
for line in sys.stdin:\n    \
line = line.strip()\n    \
if line in ('ready', 'go'):\n        \
time.sleep(delay)\n        \
print('go', flush=True)\n    \
elif line == 'end':\n        \
break\n";

/// The pids whose command line contains `marker`, but `ply`'s (whose arguments carry the
/// bots' command lines).
fn processes_with(marker: &str, ply: u32) -> Vec<u32> {
    marked(marker, Look::CommandLine)
        .into_iter()
        .map(|p| p.pid)
        .filter(|&pid| pid != ply)
        .collect()
}

/// Whether the cgroup freezer holds `pid` (v1's `freezer.state`, or v2's `cgroup.events`),
/// read from the standard mount points.
fn is_frozen(pid: u32) -> bool {
    let Ok(cgroups) = std::fs::read_to_string(format!("/proc/{pid}/cgroup")) else {
        return false;
    };
    cgroups.lines().any(|line| {
        let mut parts = line.splitn(3, ':');
        let (controllers, path) = (parts.nth(1).unwrap_or(""), parts.next().unwrap_or(""));
        if controllers.split(',').any(|c| c == "freezer") {
            let file = format!("/sys/fs/cgroup/freezer{path}/freezer.state");
            std::fs::read_to_string(file).is_ok_and(|t| t.trim() == "FROZEN")
        } else if controllers.is_empty() {
            let file = format!("/sys/fs/cgroup{path}/cgroup.events");
            std::fs::read_to_string(file).is_ok_and(|t| t.lines().any(|l| l == "frozen 1"))
        } else {
            false
        }
    })
}

fn wait_until(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let end = Instant::now() + limit;
    while Instant::now() < end {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

fn start_game(dir: &std::path::Path, marker: &str, jail: bool) -> Child {
    let replay = dir.join("game.replay");
    let map = dir.join("duel.map");
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["ants", "mapgen", "--players", "2", "--rows", "18"])
        .args(["--cols", "36", "--seed", "3", "-o"])
        .arg(&map)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let bot = dir.join("bot.py");
    std::fs::write(&bot, BOT).unwrap();
    // The jailed bot runs as nobody: it must be able to reach its program.
    for p in [dir, bot.as_path()] {
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    // A shell without job control starts `cmd &` with SIGINT ignored, and the test (and so
    // `ply`) inherits that when CI runs in the background: `ply` would then rightly ignore
    // the Ctrl-C this test sends. `env --default-signal=INT` (coreutils 8.31+) puts back the
    // disposition a terminal's foreground job has, then execs `ply` under the same pid.
    let mut cmd = Command::new("env");
    cmd.arg("--default-signal=INT")
        .arg(env!("CARGO_BIN_EXE_ply"))
        .args(["ants", "play", "--map"])
        .arg(&map)
        .arg(format!(
            "/usr/bin/python3 {} {marker}-fast 0",
            bot.display()
        ))
        .arg(format!(
            "/usr/bin/python3 {} {marker}-slow 1",
            bot.display()
        ))
        .args(["--turns", "1000", "--turntime", "2000", "--replay"])
        .arg(&replay)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if !jail {
        cmd.arg("--no-jail");
    }
    cmd.spawn().unwrap()
}

/// Sends `signals` to ply in turn, as fast as `kill` runs, while a bot is paused (frozen
/// where there is a freezer), and checks that ply ends, with `code` when it exits, and that
/// nothing of its bots is left. Returns the replay, if ply wrote one.
fn stop_ply_and_check(signals: &[&str], jail: bool, code: Option<i32>) -> Option<String> {
    let signal = signals.join("-");
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("ply-interrupt-{}-{signal}-{jail}", std::process::id());
    let mut ply = start_game(dir.path(), &marker, jail);
    let ply_pid = ply.id();
    let started = wait_until(Duration::from_secs(20), || {
        !processes_with(&marker, ply_pid).is_empty()
    });
    assert!(started, "the bot never started");
    // The fast bot sits paused (its whole jail frozen, where there is a freezer) while the
    // slow one thinks for a second: ply is stopped then, the hardest moment, since a
    // process frozen by cgroup v1 acts on no signal, SIGKILL included, until it is thawed.
    let fast = format!("{marker}-fast");
    let frozen = wait_until(Duration::from_secs(20), || {
        processes_with(&fast, ply_pid)
            .iter()
            .any(|&pid| is_frozen(pid))
    });
    if !frozen {
        eprintln!("no freezer seen for the bot here: stopping ply at an arbitrary moment");
    }
    for sig in signals {
        let status = Command::new("kill")
            .args([&format!("-{sig}"), &ply.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    }
    // One Ctrl-C waits for the turn in progress: the slow bot's second, and the end block.
    let exited = wait_until(Duration::from_secs(10), || {
        ply.try_wait().unwrap().is_some()
    });
    assert!(exited, "ply did not stop on SIG{signal}");
    assert_eq!(ply.wait().unwrap().code(), code, "SIG{signal}");
    let gone = wait_until(Duration::from_secs(10), || {
        processes_with(&marker, ply_pid).is_empty()
    });
    assert!(
        gone,
        "SIG{signal} (jail: {jail}) left bot processes {:?}",
        processes_with(&marker, ply_pid)
    );
    // Nor their cgroups or scratch folders (the reaper removes them right after).
    let clean = wait_until(Duration::from_secs(10), || leftovers(ply_pid).is_empty());
    assert!(
        clean,
        "SIG{signal} (jail: {jail}) left {:?}",
        leftovers(ply_pid)
    );
    std::fs::read_to_string(dir.path().join("game.replay")).ok()
}

/// The replay of a game ended by one Ctrl-C: cut before the turn limit, marked
/// `interrupted`, and every ant's life within the turns played.
fn check_interrupted_replay(replay: Option<String>) {
    let Some(text) = replay else {
        panic!("one Ctrl-C wrote no replay");
    };
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let data = &v["replaydata"];
    assert_eq!(data["cutoff"], "interrupted", "{}", data["cutoff"]);
    let turns = v["game_length"].as_u64().unwrap();
    assert!(turns < 1000, "game_length {turns}");
    for ant in data["ants"].as_array().unwrap() {
        assert!(
            ant[3].as_u64().unwrap() <= turns + 1,
            "ant {ant} outlives the game"
        );
    }
}

/// The cgroup directories (beside this test's own, in every hierarchy at its usual mount
/// point) and the scratch folders in /tmp of the referee `ply`.
fn leftovers(ply: u32) -> Vec<std::path::PathBuf> {
    let prefix = format!("ply-{ply}-");
    let scratch = format!("ply-bots-{ply}-");
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut bases: Vec<std::path::PathBuf> = own
        .lines()
        .filter_map(|line| {
            let mut parts = line.splitn(3, ':');
            let (controllers, path) = (parts.nth(1)?, parts.next()?);
            let mount = controllers.trim_start_matches("name=");
            let dir = std::path::Path::new("/sys/fs/cgroup").join(mount);
            Some(dir.join(path.trim_start_matches('/')))
        })
        .collect();
    bases.push("/tmp".into());
    bases
        .iter()
        .filter_map(|base| std::fs::read_dir(base).ok())
        .flat_map(|entries| entries.flatten())
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with(&prefix) || name.starts_with(&scratch)
        })
        .map(|e| e.path())
        .collect()
}

/// Whether the bots' interpreter is absent (the test then says so and is skipped).
fn no_python() -> bool {
    let absent = !std::path::Path::new("/usr/bin/python3").exists();
    if absent {
        eprintln!("skipping: /usr/bin/python3 is absent");
    }
    absent
}

#[test]
fn ctrl_c_in_the_jail_ends_the_game_and_leaves_no_bot() {
    if no_python() {
        return;
    }
    check_interrupted_replay(stop_ply_and_check(&["INT"], true, Some(130)));
}

#[test]
fn a_second_ctrl_c_in_the_jail_quits_at_once_and_leaves_no_bot() {
    if no_python() {
        return;
    }
    stop_ply_and_check(&["INT", "INT"], true, Some(130));
}

#[test]
fn kill_9_in_the_jail_leaves_no_bot() {
    if no_python() {
        return;
    }
    assert_eq!(stop_ply_and_check(&["KILL"], true, None), None);
}

#[test]
fn ctrl_c_without_the_jail_ends_the_game_and_leaves_no_bot() {
    if no_python() {
        return;
    }
    check_interrupted_replay(stop_ply_and_check(&["INT"], false, Some(130)));
}

#[test]
fn kill_9_without_the_jail_leaves_no_bot() {
    if no_python() {
        return;
    }
    assert_eq!(stop_ply_and_check(&["KILL"], false, None), None);
}
