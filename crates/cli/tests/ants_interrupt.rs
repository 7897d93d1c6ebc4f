//! Ctrl-C or a kill of `ply` during an Ants game leaves no bot behind (issue 15 item 5): the
//! bots are persistent processes, paused between turns, and must die with the referee
//! whether it is interrupted or killed outright, in the jail and without it.

use std::os::unix::fs::PermissionsExt;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use ply_testkit::procs::{Look, marked};

/// A bot that answers every turn slowly, so the game is still on when `ply` is stopped.
const SLOW_BOT: &str = "import sys, time\n\
for line in sys.stdin:\n    \
line = line.strip()\n    \
if line in ('ready', 'go'):\n        \
time.sleep(0.05)\n        \
print('go', flush=True)\n    \
elif line == 'end':\n        \
break\n";

/// The pids whose command line contains `marker`.
fn processes_with(marker: &str) -> Vec<u32> {
    marked(marker, Look::CommandLine)
        .into_iter()
        .map(|p| p.pid)
        .collect()
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
    let map = dir.join("duel.map");
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["ants", "mapgen", "--players", "2", "--rows", "18"])
        .args(["--cols", "36", "--seed", "3", "-o"])
        .arg(&map)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let bot = dir.join("slow_bot.py");
    std::fs::write(&bot, SLOW_BOT).unwrap();
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
        .arg("builtin:hold")
        .arg(format!("/usr/bin/python3 {} {marker}", bot.display()))
        .args(["--turns", "1000", "--turntime", "2000"])
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if !jail {
        cmd.arg("--no-jail");
    }
    cmd.spawn().unwrap()
}

fn stop_ply_and_check(signal: &str, jail: bool) {
    if !std::path::Path::new("/usr/bin/python3").exists() {
        eprintln!("skipping: /usr/bin/python3 is absent");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let marker = format!("ply-interrupt-{}-{signal}-{jail}", std::process::id());
    let mut ply = start_game(dir.path(), &marker, jail);
    let started = wait_until(Duration::from_secs(20), || {
        !processes_with(&marker).is_empty()
    });
    assert!(started, "the bot never started");
    // A few turns in, so the bot is paused between turns at least once.
    std::thread::sleep(Duration::from_millis(500));
    let status = Command::new("kill")
        .args([&format!("-{signal}"), &ply.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exited = wait_until(Duration::from_secs(10), || {
        ply.try_wait().unwrap().is_some()
    });
    assert!(exited, "ply did not stop on SIG{signal}");
    let gone = wait_until(Duration::from_secs(10), || {
        processes_with(&marker).is_empty()
    });
    assert!(
        gone,
        "SIG{signal} (jail: {jail}) left bot processes {:?}",
        processes_with(&marker)
    );
}

#[test]
fn ctrl_c_in_the_jail_leaves_no_bot() {
    stop_ply_and_check("INT", true);
}

#[test]
fn kill_9_in_the_jail_leaves_no_bot() {
    stop_ply_and_check("KILL", true);
}

#[test]
fn ctrl_c_without_the_jail_leaves_no_bot() {
    stop_ply_and_check("INT", false);
}

#[test]
fn kill_9_without_the_jail_leaves_no_bot() {
    stop_ply_and_check("KILL", false);
}
