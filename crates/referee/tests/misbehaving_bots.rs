//! The test kit's misbehaving bots (the 2011 AI Challenge's idea): each gets its verdict, and
//! none leaves a process behind.
//!
//! Each bot is a small script written into a temporary directory. They play tic-tac-toe's
//! first move (`1 1` is legal on the empty grid) unless they misbehave on purpose.

use std::path::{Path, PathBuf};
use std::time::Duration;

use ply_core::{Fault, Game};
use ply_games::tictactoe::TicTacToe;
use ply_referee::Verdict;
use ply_referee::bot::judge_run;
use ply_referee::process::{CommandLine, Limits, MemoryGuard, Run, Sandbox, run_once};

const LIMITS: Limits = Limits {
    // Generous, because test machines are often loaded: the timing bots keep 0.8 s clear of it.
    time: Duration::from_millis(2000),
    memory: 64 << 20,
    output: 4096,
    cpus: 1,
};

struct Kit {
    dir: tempfile::TempDir,
}

impl Kit {
    fn new() -> Kit {
        Kit {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// Writes an executable `/bin/sh` script; `$PIDS` in it names a file for pids.
    fn script(&self, name: &str, body: &str) -> CommandLine {
        let path = self.dir.path().join(name);
        let body = body.replace("$PIDS", &self.pids_file().display().to_string());
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        chmod_x(&path);
        CommandLine {
            program: path.display().to_string(),
            args: vec![],
        }
    }

    fn python(&self, name: &str, body: &str) -> Option<CommandLine> {
        let python = python()?;
        let path = self.dir.path().join(name);
        let body = body.replace("$PIDS", &self.pids_file().display().to_string());
        std::fs::write(&path, body).unwrap();
        Some(CommandLine {
            program: python,
            args: vec!["-S".into(), path.display().to_string()],
        })
    }

    fn pids_file(&self) -> PathBuf {
        self.dir.path().join("pids")
    }

    /// The pids the bot wrote, which must all be dead now.
    fn assert_no_survivor(&self) {
        let Ok(text) = std::fs::read_to_string(self.pids_file()) else {
            return;
        };
        for pid in text.split_whitespace() {
            assert!(!alive(pid), "process {pid} outlived its bot");
        }
    }
}

fn chmod_x(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The real Python interpreter (not a version manager's shim, which can take half a second
/// to start).
fn python() -> Option<String> {
    let out = std::process::Command::new(which("python3")?)
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let exe = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !exe.is_empty()).then_some(exe)
}

fn which(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

/// Alive and not a zombie (an orphan's zombie waits for an init that may never reap it).
fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Err(_) => false,
        Ok(stat) => {
            let state = stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next();
            !matches!(state, Some("Z" | "X"))
        }
    }
}

fn run_on(state: &TicTacToe, sandbox: &Sandbox, bot: &CommandLine) -> (Verdict, Run) {
    let input = ply_protocol::hackerearth::request(state);
    let run = run_once(sandbox, bot, input.as_bytes(), &LIMITS);
    let (verdict, _) = judge_run(state, &run, &LIMITS);
    (verdict, run)
}

fn judge(kit: &Kit, bot: &CommandLine) -> Verdict {
    let sandbox = unjailed();
    let (verdict, _) = run_on(&TicTacToe::start(), &sandbox, bot);
    kit.assert_no_survivor();
    verdict
}

#[test]
fn a_good_bot_is_ok_and_its_move_is_read() {
    let kit = Kit::new();
    let bot = kit.script("good", "echo $$ >> $PIDS; cat > /dev/null; echo 1 1");
    let sandbox = unjailed();
    let state = TicTacToe::start();
    let input = ply_protocol::hackerearth::request(&state);
    let run = run_once(&sandbox, &bot, input.as_bytes(), &LIMITS);
    let (verdict, mv) = judge_run(&state, &run, &LIMITS);
    assert_eq!(verdict, Verdict::Ok);
    assert_eq!(mv.unwrap().to_string(), "1 1");
    kit.assert_no_survivor();
}

#[test]
fn the_bot_reads_the_state_in_the_contest_format() {
    let kit = Kit::new();
    let copy = kit.dir.path().join("seen");
    let bot = kit.script("copier", &format!("cat > {}; echo 2 2", copy.display()));
    let state: TicTacToe = "x../.o./...".parse().unwrap();
    let (verdict, _) = run_on(&state, &unjailed(), &bot);
    assert_eq!(verdict, Verdict::Ok);
    assert_eq!(
        std::fs::read_to_string(copy).unwrap(),
        "1 0 0\n0 2 0\n0 0 0\n1\n"
    );
}

#[test]
fn a_crash_is_a_runtime_error_with_its_exit_code() {
    let kit = Kit::new();
    let bot = kit.script("crash", "echo $$ >> $PIDS; echo 1 1; exit 3");
    assert_eq!(
        judge(&kit, &bot),
        Verdict::Fault(Fault::RuntimeError {
            detail: "exit code 3".into()
        })
    );
}

#[test]
fn a_segfault_is_a_runtime_error_with_its_signal() {
    let kit = Kit::new();
    let bot = kit.script("segv", "echo $$ >> $PIDS; kill -SEGV $$");
    assert_eq!(
        judge(&kit, &bot),
        Verdict::Fault(Fault::RuntimeError {
            detail: "killed by signal 11 (SIGSEGV)".into()
        })
    );
}

#[test]
fn a_missing_program_is_a_runtime_error() {
    let bot = CommandLine {
        program: "/nonexistent/ply-bot".into(),
        args: vec![],
    };
    let verdict = judge(&Kit::new(), &bot);
    assert!(
        matches!(&verdict, Verdict::Fault(Fault::RuntimeError { detail }) if detail.starts_with("cannot start")),
        "{verdict:?}"
    );
}

#[test]
fn a_hang_is_a_time_limit_and_is_killed() {
    let kit = Kit::new();
    let bot = kit.script(
        "hang",
        "echo $$ >> $PIDS; sleep 30 & echo $! >> $PIDS; wait",
    );
    assert_eq!(judge(&kit, &bot), Verdict::Fault(Fault::TimeLimit));
}

#[test]
fn garbage_is_an_unreadable_answer() {
    let kit = Kit::new();
    let bot = kit.script("garbage", "echo 'hello world'");
    let verdict = judge(&kit, &bot);
    assert!(
        matches!(&verdict, Verdict::Fault(Fault::Unreadable { reason }) if reason.contains("hello world")),
        "{verdict:?}"
    );
}

#[test]
fn an_output_flood_is_an_output_limit() {
    let kit = Kit::new();
    let bot = kit.script("flood", "echo $$ >> $PIDS; exec yes '1 1'");
    assert_eq!(judge(&kit, &bot), Verdict::Fault(Fault::OutputLimit));
}

#[test]
fn silence_is_no_output() {
    let kit = Kit::new();
    let bot = kit.script("silent", "exit 0");
    assert_eq!(judge(&kit, &bot), Verdict::Fault(Fault::NoOutput));
}

#[test]
fn an_illegal_move_is_invalid_with_the_reason() {
    let kit = Kit::new();
    let bot = kit.script("illegal", "echo 0 0");
    let state: TicTacToe = "x../.o./...".parse().unwrap();
    let (verdict, _) = run_on(&state, &unjailed(), &bot);
    assert!(
        matches!(&verdict, Verdict::Fault(Fault::InvalidMove { reason }) if reason.starts_with("illegal move 0 0")),
        "{verdict:?}"
    );
}

#[test]
fn an_answer_just_inside_the_limit_is_ok() {
    let kit = Kit::new();
    let bot = kit.script("inside", "sleep 1.2; echo 1 1");
    assert_eq!(judge(&kit, &bot), Verdict::Ok);
}

#[test]
fn an_answer_just_past_the_limit_is_a_time_limit() {
    let kit = Kit::new();
    let bot = kit.script("past", "echo $$ >> $PIDS; sleep 2.8; echo 1 1");
    assert_eq!(judge(&kit, &bot), Verdict::Fault(Fault::TimeLimit));
}

#[test]
fn debug_lines_after_the_move_are_ignored() {
    let kit = Kit::new();
    let bot = kit.script(
        "chatty",
        "echo 1 1; echo 'debug: 5 nodes, score +0.25'; echo 'more debug' >&2",
    );
    let (verdict, run) = run_on(&TicTacToe::start(), &unjailed(), &bot);
    assert_eq!(verdict, Verdict::Ok);
    assert_eq!(String::from_utf8_lossy(&run.stderr_tail), "more debug\n");
}

#[test]
fn a_forked_child_that_never_exits_is_killed_with_its_bot() {
    let kit = Kit::new();
    let bot = kit.script(
        "forker",
        "echo $$ >> $PIDS; sleep 1000 & echo $! >> $PIDS; echo 1 1",
    );
    let started = std::time::Instant::now();
    assert_eq!(judge(&kit, &bot), Verdict::Ok);
    // The referee did not wait for the child's stdout to close.
    assert!(started.elapsed() < Duration::from_millis(1900));
    assert_eq!(
        std::fs::read_to_string(kit.pids_file())
            .unwrap()
            .split_whitespace()
            .count(),
        2
    );
}

#[test]
fn a_child_that_leaves_the_process_group_dies_with_the_cgroup() {
    let sandbox = unjailed();
    if !sandbox.has_cgroup() || which("setsid").is_none() {
        eprintln!("skipped: no cgroup can be created here, or no setsid");
        return;
    }
    let kit = Kit::new();
    let bot = kit.script(
        "escaper",
        "setsid sh -c 'echo $$ >> $PIDS; exec sleep 1000' > /dev/null 2>&1 < /dev/null & sleep 0.2; echo 1 1",
    );
    let (verdict, _) = run_on(&TicTacToe::start(), &sandbox, &bot);
    assert_eq!(verdict, Verdict::Ok);
    kit.assert_no_survivor();
}

const MEMORY_HOG: &str = "import os\nopen('$PIDS', 'a').write('%d\\n' % os.getpid())\nheap = []\nwhile True:\n    heap.append(b'x' * (1 << 20))\n";

#[test]
fn a_memory_hog_is_a_memory_limit() {
    let kit = Kit::new();
    let Some(bot) = kit.python("hog.py", MEMORY_HOG) else {
        eprintln!("skipped: no python3");
        return;
    };
    assert_eq!(judge(&kit, &bot), Verdict::Fault(Fault::MemoryLimit));
}

#[test]
fn a_memory_hog_is_a_memory_limit_under_rlimits_too() {
    let kit = Kit::new();
    let Some(bot) = kit.python("hog.py", MEMORY_HOG) else {
        eprintln!("skipped: no python3");
        return;
    };
    let sandbox = Sandbox::with_guard(MemoryGuard::Rlimit);
    let (verdict, _) = run_on(&TicTacToe::start(), &sandbox, &bot);
    assert_eq!(verdict, Verdict::Fault(Fault::MemoryLimit));
}

/// A sandbox that has cgroups but cannot make this bot's (its base is gone, say) still
/// limits the bot, by the address-space rlimit, and judges it as under rlimits: a failed
/// allocation is the memory limit, not a crash.
#[test]
fn a_memory_hog_whose_cgroup_cannot_be_made_is_a_memory_limit() {
    let kit = Kit::new();
    let Some(bot) = kit.python("hog.py", MEMORY_HOG) else {
        eprintln!("skipped: no python3");
        return;
    };
    let gone = kit.dir.path().join("no-such-cgroup-base");
    let sandbox = Sandbox::with_guard(MemoryGuard::CgroupV2(gone.clone()));
    assert!(sandbox.has_cgroup());
    let (verdict, run) = run_on(&TicTacToe::start(), &sandbox, &bot);
    assert!(
        !run.cgroup,
        "the move ran in a cgroup under {}",
        gone.display()
    );
    assert_eq!(verdict, Verdict::Fault(Fault::MemoryLimit));
    assert!(!gone.exists());
    kit.assert_no_survivor();
}

#[test]
fn a_bot_that_never_reads_a_large_input_cannot_stall_the_referee() {
    let kit = Kit::new();
    let bot = kit.script("deaf", "echo $$ >> $PIDS; sleep 30");
    let sandbox = unjailed();
    let input = vec![b'0'; 1 << 20];
    let started = std::time::Instant::now();
    let run = run_once(&sandbox, &bot, &input, &LIMITS);
    assert_eq!(run.end, ply_referee::process::RunEnd::TimedOut);
    assert!(started.elapsed() < LIMITS.time + Duration::from_secs(2));
    kit.assert_no_survivor();
}

/// The detected sandbox without its jail: these bots write their pids and what they saw
/// into the test's folder, which a jailed bot cannot (`tests/hostile_bots.rs` checks the
/// jail itself).
fn unjailed() -> Sandbox {
    Sandbox::detect().with_jail(None)
}
