//! Ctrl-C or a kill of `ply` during an Ants game leaves no bot behind (issue 15 item 5): the
//! bots are persistent processes, paused between turns, and must die with the referee
//! whether it is interrupted or killed outright, in the jail and without it.

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
