//! Issue 18: hostile bots against the jail. One test per attack of the issue: the attack
//! fails, the victim (the referee, the store, the other bot) is unaffected, and nothing is
//! left behind: no process whose command line holds the bot's marker, no cgroup of this
//! process.
//!
//! Every test needs the jail (bubblewrap, installed by `scripts/install-test-deps`); on a
//! machine without `bwrap` they say so and pass, as the other tests do without `python3`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ply_core::{Fault, Game};
use ply_games::tictactoe::TicTacToe;
use ply_referee::Verdict;
use ply_referee::bot::judge_run;
use ply_referee::launcher::Launcher;
use ply_referee::persistent::{PersistentBot, PersistentLimits};
use ply_referee::process::{CommandLine, Limits, Run, Sandbox, run_once};
use ply_testkit::procs::{Look, marked};

const LIMITS: Limits = Limits {
    time: Duration::from_millis(3000),
    memory: 256 << 20,
    output: 4096,
    cpus: 1,
};

/// The detected sandbox, `None` (test skipped) when bubblewrap is not installed. When it is
/// installed, the jail must work.
fn jailed() -> Option<Sandbox> {
    if !Path::new("/usr/bin/bwrap").exists() && !Path::new("/usr/local/bin/bwrap").exists() {
        eprintln!("skipped: bubblewrap is not installed (scripts/install-test-deps)");
        return None;
    }
    let sandbox = Sandbox::detect().with_launcher(Some(launcher()));
    assert!(sandbox.jail().is_some(), "{}", sandbox.report());
    Some(sandbox)
}

/// The jail launcher built for these tests (ply itself is one: `ply __ply-jail-launcher`).
fn launcher() -> Launcher {
    Launcher::program(
        Path::new(env!("CARGO_BIN_EXE_ply-jail-launcher")),
        vec![ply_referee::launcher::ARG.into()],
    )
    .unwrap()
}

/// A folder everybody may read (the bots run as `nobody` when the tests run as root).
fn open_dir() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}

/// Goes first in every bot that kills or stops processes: the attack runs only where the
/// bot is in a pid namespace of its own (a pid below 10). Were the jail ever broken, a
/// `kill -9 -1` run as root would kill every process of the machine; this way the bot
/// exits instead, and the test fails on its verdict.
const ONLY_IN_A_PID_NAMESPACE: &str =
    "[ $$ -lt 10 ] || { echo \"pid $$: not in a pid namespace of its own\" >&2; exit 1; }\n";

/// A unique marker for this test's bots.
fn marker(name: &str) -> String {
    format!("ply-hostile-{name}-{}", std::process::id())
}

/// `sh -c BODY MARKER`: the marker is `$0` and in the command line of the bot's shell.
fn sh(body: &str, marker: &str) -> CommandLine {
    CommandLine {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), body.into(), marker.into()],
    }
}

fn run(sandbox: &Sandbox, bot: &CommandLine) -> (Verdict, Run) {
    let state = TicTacToe::start();
    let input = ply_protocol::hackerearth::request(&state);
    let run = run_once(sandbox, bot, input.as_bytes(), &LIMITS);
    let (verdict, _) = judge_run(&state, &run, &LIMITS);
    (verdict, run)
}

fn stderr(run: &Run) -> String {
    String::from_utf8_lossy(&run.stderr_tail).into_owned()
}

/// Processes whose command line contains `marker` (other than this test process).
fn survivors(marker: &str) -> Vec<String> {
    marked(marker, Look::CommandLine)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Waits up to 2 s for every process with `marker` to be gone (the kernel reaps a killed
/// pid namespace asynchronously), then checks that no cgroup of this process is left.
fn assert_nothing_left(marker: &str, sandbox: &Sandbox) {
    let until = std::time::Instant::now() + Duration::from_secs(2);
    while !survivors(marker).is_empty() && std::time::Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        survivors(marker),
        Vec::<String>::new(),
        "processes left behind"
    );
    assert_eq!(
        sandbox.leftovers(),
        Vec::<PathBuf>::new(),
        "cgroups left behind"
    );
}

#[test]
fn a_bot_cannot_read_or_rewrite_the_hidden_database() {
    let Some(sandbox) = jailed() else { return };
    let dir = open_dir();
    let db = dir.path().join("arena.sqlite3");
    std::fs::write(&db, "the real results").unwrap();
    std::fs::write(dir.path().join("arena.sqlite3-wal"), "the real journal").unwrap();
    let sandbox = sandbox.hide(&db);
    let m = marker("db");
    // A spy looks for the path where the attacker found it: its parent's command
    // line (and every other one it can see).
    let spy = "cat /proc/[0-9]*/cmdline | tr '\\0' ' ' >&2; echo 1 1";
    let (verdict, run_spy) = run(&sandbox, &sh(spy, &m));
    assert_eq!(verdict, Verdict::Ok);
    let seen = stderr(&run_spy);
    // The jail's pid 1 is the launcher.
    assert!(seen.contains(ply_referee::launcher::ARG), "{seen}");
    assert!(
        !seen.contains("arena.sqlite3"),
        "the path is in a command line: {seen}"
    );
    // An attacker that knows the path anyway.
    let body = format!(
        "cat {db} {db}-wal >&2; echo 'forged wins' > {db}; echo forged > {db}-wal; echo 1 1",
        db = db.display()
    );
    let (verdict, run) = run(&sandbox, &sh(&body, &m));
    assert_eq!(verdict, Verdict::Ok);
    let seen = stderr(&run);
    assert!(!seen.contains("the real"), "{seen}");
    assert_eq!(std::fs::read_to_string(&db).unwrap(), "the real results");
    assert_eq!(
        std::fs::read_to_string(dir.path().join("arena.sqlite3-wal")).unwrap(),
        "the real journal"
    );
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_bot_cannot_kill_or_stop_the_referee() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("parent");
    let me = std::process::id();
    let body = format!(
        "{ONLY_IN_A_PID_NAMESPACE}kill -STOP $PPID; kill -9 $PPID; kill -STOP {me}; kill -9 {me}; kill -9 -1; echo 1 1"
    );
    let (verdict, run) = run(&sandbox, &sh(&body, &m));
    // Still here (a stopped referee would hang the test; a killed one would end it), and
    // the bot's move was read.
    assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_bot_sees_only_its_own_processes() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("procs");
    let (verdict, run) = run(
        &sandbox,
        &sh("ls /proc | grep -c '^[0-9]' >&2; echo 1 1", &m),
    );
    assert_eq!(verdict, Verdict::Ok);
    let count: u32 = stderr(&run).trim().parse().unwrap();
    // bubblewrap's init, the shell, ls and grep.
    assert!(count <= 4, "{count} processes visible");
    assert_nothing_left(&m, &sandbox);
}

/// Ants: one persistent bot kills every process it can see and reads every stdin it can
/// find through /proc; the other keeps playing and its input stays its own.
#[test]
fn an_ants_bot_cannot_kill_the_other_bot_or_read_its_stdin() {
    let Some(sandbox) = jailed() else { return };
    let attacker = marker("ants-attacker");
    let victim = marker("ants-victim");
    let limits = PersistentLimits {
        load: Duration::from_secs(3),
        turn: Duration::from_secs(2),
        ..PersistentLimits::default()
    };
    let hold = sh(
        "while read line; do [ \"$line\" = go ] && echo go; done",
        &victim,
    );
    let attack = sh(
        &format!(
            "{ONLY_IN_A_PID_NAMESPACE}while read line; do
           if [ \"$line\" = go ]; then
             for p in /proc/[0-9]*; do
               n=${{p#/proc/}}; [ $n != $$ ] && [ $n != 1 ] && kill -9 $n 2>/dev/null
               cat $p/cmdline $p/fd/0 2>/dev/null | tr '\\0' ' ' | head -c 200 >&2
             done
             echo go
           fi
         done"
        ),
        &attacker,
    );
    let mut a = PersistentBot::start(&sandbox, &attack, &limits, false).unwrap();
    let mut v = PersistentBot::start(&sandbox, &hold, &limits, true).unwrap();
    for turn in 0..3 {
        let text = format!("turn {turn}\nsecret-{victim}\ngo\n");
        assert_eq!(
            v.exchange(&text, limits.turn).reply,
            Ok(vec![]),
            "turn {turn}"
        );
        let _ = a.exchange("turn\ngo\n", limits.turn);
    }
    assert_eq!(v.exchange("turn 4\ngo\n", limits.turn).reply, Ok(vec![]));
    let seen = String::from_utf8_lossy(a.stderr_tail()).into_owned();
    assert!(
        !seen.contains(&victim),
        "the attacker saw the victim: {seen}"
    );
    a.kill();
    v.kill();
    drop((a, v));
    assert_nothing_left(&attacker, &sandbox);
    assert_nothing_left(&victim, &sandbox);
}

/// A bot cannot read another bot's scratch folder, nor list the folder holding them.
#[test]
fn a_bot_cannot_read_another_bots_files() {
    let Some(sandbox) = jailed() else { return };
    let owner = marker("files-owner");
    let thief = marker("files-thief");
    let limits = PersistentLimits::default();
    let keeper = sh(
        "echo \"secret-$0\" > $HOME/secret; while read line; do [ \"$line\" = go ] && echo go; done",
        &owner,
    );
    let mut k = PersistentBot::start(&sandbox, &keeper, &limits, false).unwrap();
    assert_eq!(k.exchange("ready\ngo\n", limits.load).reply, Ok(vec![]));
    let body = "ls -a \"$(dirname $HOME)\" >&2; cat \"$(dirname $HOME)\"/*/secret /tmp/ply-bots-*/*/secret >&2; echo 1 1";
    let (verdict, run) = run(&sandbox, &sh(body, &thief));
    assert_eq!(verdict, Verdict::Ok);
    let seen = stderr(&run);
    assert!(!seen.contains(&format!("secret-{owner}")), "{seen}");
    // Its own folder is the only one it sees (beside the launcher's program).
    let listed: Vec<&str> = seen
        .lines()
        .filter(|l| !l.starts_with('.') && !l.contains("No such file") && !l.contains("cat:"))
        .filter(|l| *l != "ply-jail-launcher")
        .collect();
    assert_eq!(listed.len(), 1, "{seen}");
    k.kill();
    drop(k);
    assert_nothing_left(&owner, &sandbox);
    assert_nothing_left(&thief, &sandbox);
}

#[test]
fn a_bot_sees_only_the_contest_environment() {
    let Some(sandbox) = jailed() else { return };
    let sandbox = sandbox.with_env([("PLY_GIVEN".to_string(), "yes".to_string())]);
    let m = marker("env");
    let (verdict, run) = run(
        &sandbox,
        &sh(
            "cat /proc/1/environ | tr '\\0' '\\n' >&2; echo --- >&2; env >&2; echo 1 1",
            &m,
        ),
    );
    assert_eq!(verdict, Verdict::Ok);
    let seen = stderr(&run);
    for line in seen.lines().filter(|l| l.contains('=')) {
        let key = line.split('=').next().unwrap();
        // The shell adds PWD (and dash nothing else); the rest is the contest's.
        assert!(
            [
                "PATH",
                "LANG",
                "HOME",
                "PLY_GIVEN",
                "PWD",
                "OLDPWD",
                "SHLVL",
                "_"
            ]
            .contains(&key),
            "{key} reached the bot: {seen}"
        );
    }
    assert!(seen.contains("PLY_GIVEN=yes"), "{seen}");
    assert!(!seen.contains("CARGO"), "{seen}");
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_bot_cannot_reach_a_listener_on_the_hosts_loopback() {
    let Some(sandbox) = jailed() else { return };
    let Some(python) = python() else {
        eprintln!("skipped: no python3");
        return;
    };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let m = marker("tcp");
    let script = format!(
        "import socket, sys\n\
         try:\n    socket.create_connection(('127.0.0.1', {port}), timeout=1).send(b'hello')\n    sys.stderr.write('connected\\n')\n\
         except OSError as e:\n    sys.stderr.write('refused: %s\\n' % e)\n\
         print('1 1')\n"
    );
    let bot = CommandLine {
        program: python,
        args: vec!["-S".into(), "-c".into(), script, m.clone()],
    };
    let (verdict, run) = run(&sandbox, &bot);
    assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
    assert!(stderr(&run).contains("refused"), "{}", stderr(&run));
    match listener.accept() {
        Ok((mut s, _)) => {
            let mut got = Vec::new();
            let _ = s.read_to_end(&mut got);
            panic!("the bot connected: {got:?}");
        }
        Err(e) => assert_eq!(e.kind(), std::io::ErrorKind::WouldBlock),
    }
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_bot_cannot_write_outside_its_scratch_folder() {
    let Some(sandbox) = jailed() else { return };
    let dir = open_dir();
    {
        use std::os::unix::fs::PermissionsExt;
        // Writable by everybody: only the jail stands in the way.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    }
    let m = marker("write");
    let outside = dir.path().join("planted");
    let tmp = format!("/tmp/{m}");
    let body = format!(
        "echo x > {outside}; echo x > {tmp}; echo x > /planted; echo ok > $HOME/mine && cat $HOME/mine >&2; echo 1 1",
        outside = outside.display()
    );
    let (verdict, run) = run(&sandbox, &sh(&body, &m));
    assert_eq!(verdict, Verdict::Ok);
    assert!(!outside.exists());
    assert!(!Path::new(&tmp).exists());
    assert!(!Path::new("/planted").exists());
    assert!(stderr(&run).contains("ok"), "its own folder is writable");
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_setsid_child_does_not_outlive_the_game() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("setsid");
    let (verdict, _) = run(
        &sandbox,
        &sh(
            "setsid sh -c 'exec sleep 1000' \"$0\" >/dev/null 2>&1 </dev/null & sleep 0.1; echo 1 1",
            &m,
        ),
    );
    assert_eq!(verdict, Verdict::Ok);
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_child_cannot_move_itself_into_a_parent_cgroup() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("cgroup");
    let body = "setsid sh -c 'for f in /sys/fs/cgroup/cgroup.procs /sys/fs/cgroup/*/cgroup.procs; do echo $$ > $f; done; exec sleep 1000' \"$0\" </dev/null >&2 & sleep 0.2; echo 1 1";
    let (verdict, run) = run(&sandbox, &sh(body, &m));
    assert_eq!(verdict, Verdict::Ok);
    assert!(stderr(&run).contains("Read-only"), "{}", stderr(&run));
    assert_nothing_left(&m, &sandbox);
}

/// A `setsid` helper computes while its bot is paused between turns: the freezer stops it
/// too, so it gets no CPU while the referee waits.
#[test]
fn a_helper_cannot_compute_while_its_bot_is_paused() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("paused");
    let limits = PersistentLimits::default();
    let bot = sh(
        "read a; read b
         setsid sh -c 'while :; do :; done' \"$0\" </dev/null >/dev/null 2>&1 &
         echo $! > $HOME/helper
         echo go
         read a; read b
         awk '{print $14 + $15}' /proc/$(cat $HOME/helper)/stat
         echo go
         exec cat >/dev/null",
        &m,
    );
    let mut b = PersistentBot::start(&sandbox, &bot, &limits, false).unwrap();
    assert_eq!(b.exchange("ready\ngo\n", limits.load).reply, Ok(vec![]));
    std::thread::sleep(Duration::from_millis(800));
    // The helper's CPU time (user + system, in ticks of 10 ms) comes back as an order line.
    let reply = b.exchange("turn 1\ngo\n", limits.turn).reply.unwrap();
    let ticks: u64 = reply[0].parse().unwrap();
    // 800 ms of computing would be about 80 ticks; frozen, it ran only between its start
    // and the bot's `go`, and at the start of the next turn.
    assert!(
        ticks < 20,
        "the helper computed {ticks} ticks while paused; the bot had a freezer: {}; this \
         process's freezer cgroups: {:?}",
        b.freezes(),
        freezer_states()
    );
    b.kill();
    drop(b);
    assert_nothing_left(&m, &sandbox);
}

/// Every freezer cgroup of this test process with its state (v1 `freezer.state`, v2
/// `cgroup.events`), for a failure message.
fn freezer_states() -> Vec<(String, String)> {
    let prefix = format!("ply-{}-", std::process::id());
    let mut found = Vec::new();
    for (base, file) in [
        ("/sys/fs/cgroup/freezer", "freezer.state"),
        ("/sys/fs/cgroup", "cgroup.events"),
        ("/sys/fs/cgroup/unified", "cgroup.events"),
    ] {
        let Ok(entries) = std::fs::read_dir(base) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with(&prefix) {
                let state = std::fs::read_to_string(e.path().join(file)).unwrap_or_default();
                found.push((format!("{base}/{name}"), state.trim().replace('\n', ", ")));
            }
        }
    }
    found
}

/// Ten processes of 200 MB each under a 256 MB limit: the limit holds for the whole tree.
#[test]
fn ten_processes_share_one_memory_limit() {
    let Some(sandbox) = jailed() else { return };
    if !sandbox.has_cgroup() {
        eprintln!("skipped: no memory cgroup here");
        return;
    }
    let Some(python) = python() else {
        eprintln!("skipped: no python3");
        return;
    };
    let m = marker("memory");
    // Each process that holds its 200 MB leaves its pid in the bot's folder; after 2 s
    // the bot counts those still alive.
    let body = format!(
        "for i in 1 2 3 4 5 6 7 8 9 10; do {python} -S -c \"import os, time
b = b'x' * (200 << 20)
open(os.environ['HOME'] + '/got-%d' % os.getpid(), 'w').close(); time.sleep(5)\" & done
         sleep 2
         for f in $HOME/got-*; do kill -0 ${{f##*got-}} 2>/dev/null && echo alive >&2; done
         echo 1 1"
    );
    let (verdict, run) = run(&sandbox, &sh(&body, &m));
    let alive = stderr(&run).matches("alive").count();
    assert!(
        alive <= 1,
        "{alive} processes of 200 MB under 256 MB ({verdict:?})"
    );
    assert_nothing_left(&m, &sandbox);
}

#[test]
fn a_bot_inherits_no_descriptor_but_its_three_streams() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("fds");
    // `ls` lists its own descriptors: the three streams and 3, the folder it reads.
    let (verdict, run) = run(&sandbox, &sh("ls /proc/self/fd >&2; echo 1 1", &m));
    assert_eq!(verdict, Verdict::Ok);
    let fds: Vec<String> = stderr(&run).split_whitespace().map(String::from).collect();
    assert_eq!(fds, ["0", "1", "2", "3"], "{}", stderr(&run));
    assert_nothing_left(&m, &sandbox);
}

/// The jail changes no verdict: a crash keeps its signal, a hang its time limit.
#[test]
fn verdicts_are_the_same_in_the_jail() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("verdicts");
    let (v, _) = run(&sandbox, &sh("kill -SEGV $$", &m));
    assert_eq!(
        v,
        Verdict::Fault(Fault::RuntimeError {
            detail: "killed by signal 11 (SIGSEGV)".into()
        })
    );
    let (v, _) = run(&sandbox, &sh("exit 3", &m));
    assert_eq!(
        v,
        Verdict::Fault(Fault::RuntimeError {
            detail: "exit code 3".into()
        })
    );
    assert!(TicTacToe::start().outcome().is_none());
    assert_nothing_left(&m, &sandbox);
}

/// The real Python interpreter, readable by everybody (a version manager's shim under a
/// home folder may not be).
fn python() -> Option<String> {
    ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .map(String::from)
}

/// A referee killed with -9 leaves its bots' cgroups (and, without the jail, processes in
/// them): the next referee kills those processes and removes the cgroups when it starts.
#[test]
fn a_new_referee_cleans_up_after_one_killed_with_sigkill() {
    let Some(sandbox) = jailed() else { return };
    let base = match sandbox.guard() {
        ply_referee::process::MemoryGuard::CgroupV1(b)
        | ply_referee::process::MemoryGuard::CgroupV2(b) => b.clone(),
        ply_referee::process::MemoryGuard::Rlimit => {
            eprintln!("skipped: no cgroup here");
            return;
        }
    };
    // A pid that ran and is gone: the dead referee's.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let m = marker("stale");
    let dir = base.join(format!("ply-{dead}-0-0"));
    std::fs::create_dir(&dir).unwrap();
    let mut orphan = std::process::Command::new("sh")
        .args(["-c", "exec sleep 1000", &m])
        .spawn()
        .unwrap();
    std::fs::write(dir.join("cgroup.procs"), orphan.id().to_string()).unwrap();
    drop(Sandbox::detect());
    // The orphan was the test's own child here, so it is reaped here.
    let status = orphan.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    assert!(!dir.exists(), "the stale cgroup is still there");
    assert_nothing_left(&m, &sandbox);
}
