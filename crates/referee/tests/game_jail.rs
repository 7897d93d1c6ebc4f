//! Issue 18: one jail per game and seat for per-move bots. The launcher inside the jail
//! starts each move's process; between moves nothing of the bot but the launcher is left,
//! verdicts are those of a process per move, the bot cannot touch the launcher, and at the
//! end of the game nothing at all is left.
//!
//! Every test needs the jail (bubblewrap, installed by `scripts/install-test-deps`); on a
//! machine without `bwrap` they say so and pass, as the hostile-bot tests do.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ply_core::{Fault, Game};
use ply_games::tictactoe::TicTacToe;
use ply_referee::Verdict;
use ply_referee::bot::judge_run;
use ply_referee::launcher::{ARG, Launcher};
use ply_referee::moves::MoveRunner;
use ply_referee::process::{CommandLine, Limits, Run, Sandbox};
use ply_testkit::procs::{Look, marked};

/// How late a verdict may come on a loaded machine; a bot's leftover `sleep 1000` is far past it.
const SLACK: Duration = Duration::from_secs(5);

const LIMITS: Limits = Limits {
    time: Duration::from_millis(2000),
    memory: 128 << 20,
    output: 4096,
    cpus: 1,
};

/// Goes first in every bot that signals processes (see tests/hostile_bots.rs): the bot
/// exits instead where it is not in a pid namespace of its own.
const ONLY_IN_A_PID_NAMESPACE: &str =
    "[ $$ -lt 10 ] || { echo \"pid $$: not in a pid namespace of its own\" >&2; exit 1; }\n";

fn jailed() -> Option<Sandbox> {
    if !Path::new("/usr/bin/bwrap").exists() && !Path::new("/usr/local/bin/bwrap").exists() {
        eprintln!("skipped: bubblewrap is not installed (scripts/install-test-deps)");
        return None;
    }
    let launcher = Launcher::program(
        Path::new(env!("CARGO_BIN_EXE_ply-jail-launcher")),
        vec![ARG.into()],
    )
    .unwrap();
    let sandbox = Sandbox::detect().with_launcher(Some(launcher));
    assert!(sandbox.jail().is_some(), "{}", sandbox.report());
    Some(sandbox)
}

fn marker(name: &str) -> String {
    format!("ply-gamejail-{name}-{}", std::process::id())
}

fn sh(body: &str, marker: &str) -> CommandLine {
    CommandLine {
        program: "/bin/sh".into(),
        args: vec!["-c".into(), body.into(), marker.into()],
    }
}

fn play(runner: &mut MoveRunner, sandbox: &Sandbox, bot: &CommandLine) -> (Verdict, Run) {
    play_under(runner, sandbox, bot, &LIMITS)
}

fn play_under(
    runner: &mut MoveRunner,
    sandbox: &Sandbox,
    bot: &CommandLine,
    limits: &Limits,
) -> (Verdict, Run) {
    let state = TicTacToe::start();
    let input = ply_protocol::hackerearth::request(&state);
    let run = runner.run(sandbox, bot, input.as_bytes(), limits);
    let (verdict, _) = judge_run(&state, &run, limits);
    (verdict, run)
}

fn stderr(run: &Run) -> String {
    String::from_utf8_lossy(&run.stderr_tail).into_owned()
}

/// Processes on the host whose command line contains `marker`.
fn survivors(marker: &str) -> Vec<String> {
    marked(marker, Look::CommandLine)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The bot's processes between moves: the survivors but the launcher and bubblewrap (whose
/// command lines hold the bot's).
fn left_of_moves(marker: &str) -> Vec<String> {
    survivors(marker)
        .into_iter()
        .filter(|p| !p.contains(ARG))
        .collect()
}

fn assert_nothing_left(marker: &str, sandbox: &Sandbox) {
    let until = Instant::now() + Duration::from_secs(2);
    while !survivors(marker).is_empty() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(survivors(marker), Vec::<String>::new(), "processes left");
    assert_eq!(sandbox.leftovers(), Vec::<PathBuf>::new(), "cgroups left");
}

/// The moves of a game share one jail (one pid namespace, one scratch folder); another
/// game gets another jail; the folder is gone with the game.
#[test]
fn every_move_of_a_game_runs_in_the_same_jail() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("same");
    let bot = sh(
        "readlink /proc/self/ns/pid >&2; echo \"$HOME\" >&2; echo x >> $HOME/moves; wc -l < $HOME/moves >&2; echo 1 1",
        &m,
    );
    let mut game = MoveRunner::new();
    let mut seen = Vec::new();
    for _ in 0..3 {
        let (verdict, run) = play(&mut game, &sandbox, &bot);
        assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
        seen.push(stderr(&run));
        assert!(game.has_jail());
    }
    let lines: Vec<Vec<&str>> = seen.iter().map(|s| s.lines().collect()).collect();
    // One namespace, one folder, which keeps the bot's files from move to move.
    assert_eq!(lines[0][0], lines[1][0]);
    assert_eq!(lines[0][0], lines[2][0]);
    assert_eq!(lines[0][1], lines[2][1]);
    assert_eq!(
        lines.iter().map(|l| l[2].trim()).collect::<Vec<_>>(),
        ["1", "2", "3"]
    );
    let home = PathBuf::from(lines[0][1]);
    assert!(
        home.is_dir(),
        "the scratch folder lives as long as the game"
    );
    let mut other = MoveRunner::new();
    let (_, run) = play(&mut other, &sandbox, &bot);
    assert_ne!(stderr(&run).lines().next().unwrap(), lines[0][0]);
    assert_eq!(stderr(&run).lines().nth(2).unwrap().trim(), "1");
    drop(other);
    game.finish();
    assert!(!game.has_jail());
    assert!(!home.exists(), "the scratch folder outlived its game");
    assert_nothing_left(&m, &sandbox);
}

/// A child left running by a move (in the background, in a session of its own) is dead
/// before the next move starts: the next move sees only the launcher and itself.
#[test]
fn nothing_of_a_move_survives_into_the_next() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("between");
    let leaver = sh(
        "sleep 1000 & setsid sh -c 'exec sleep 1000' \"$0\" </dev/null >/dev/null 2>&1 & sleep 0.1; echo 1 1",
        &m,
    );
    let counter = sh("ls /proc | grep -c '^[0-9]' >&2; echo 1 1", &m);
    let mut game = MoveRunner::new();
    let (verdict, _) = play(&mut game, &sandbox, &leaver);
    assert_eq!(verdict, Verdict::Ok);
    // On the host: the sleepers are gone while the jail waits for the next move.
    assert_eq!(left_of_moves(&m), Vec::<String>::new());
    assert!(game.has_jail());
    let (verdict, run) = play(&mut game, &sandbox, &counter);
    assert_eq!(verdict, Verdict::Ok);
    let count: u32 = stderr(&run).trim().parse().unwrap();
    // The launcher, the shell, ls and grep.
    assert!(count <= 4, "{count} processes visible");
    drop(game);
    assert_nothing_left(&m, &sandbox);
}

/// The launcher is the jail's pid 1: a bot can neither kill it, nor stop it, nor look into
/// it, and the game goes on in the same jail.
#[test]
fn a_bot_cannot_kill_stop_or_trace_the_launcher() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("launcher");
    // The first move attacks, the second says where it runs.
    let attack = sh(
        &format!(
            "{ONLY_IN_A_PID_NAMESPACE}if [ ! -e $HOME/done ]; then touch $HOME/done; \
             kill -STOP 1; kill -9 1; kill -9 -1; ls /proc/1/fd >&2; cat /proc/1/environ >&2; fi; \
             readlink /proc/self/ns/pid >&2; echo 1 1"
        ),
        &m,
    );
    let mut game = MoveRunner::new();
    let (verdict, run) = play(&mut game, &sandbox, &attack);
    assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
    let seen = stderr(&run);
    assert!(
        seen.matches("Permission denied").count() >= 2,
        "the launcher's descriptors or environment were readable: {seen}"
    );
    let ns = seen.lines().last().unwrap().to_string();
    let (verdict, run) = play(&mut game, &sandbox, &attack);
    assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
    assert_eq!(stderr(&run).trim(), ns, "the launcher did not survive");
    drop(game);
    assert_nothing_left(&m, &sandbox);
}

/// Crashes, hangs, garbage, floods and memory hogs get the verdicts a process per move
/// gets, one after another in the same game jail, and a good move still works after each.
#[test]
fn verdicts_are_those_of_a_process_per_move() {
    let Some(sandbox) = jailed() else { return };
    let m = marker("verdicts");
    let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists());
    let mut cases = vec![
        (
            "exit 3",
            Verdict::Fault(Fault::RuntimeError {
                detail: "exit code 3".into(),
            }),
        ),
        (
            "kill -SEGV $$",
            Verdict::Fault(Fault::RuntimeError {
                detail: "killed by signal 11 (SIGSEGV)".into(),
            }),
        ),
        ("sleep 1000 & sleep 1000", Verdict::Fault(Fault::TimeLimit)),
        (
            "while :; do echo 1 1; done",
            Verdict::Fault(Fault::OutputLimit),
        ),
        ("echo", Verdict::Fault(Fault::NoOutput)),
        (
            "echo garbage",
            Verdict::Fault(Fault::Unreadable {
                reason: String::new(),
            }),
        ),
    ];
    let hog = python
        .map(|p| format!("exec {p} -S -c 'h = []\nwhile True: h.append(b\"x\" * (1 << 20))'"));
    if let Some(hog) = &hog
        && sandbox.has_cgroup()
    {
        cases.push((hog, Verdict::Fault(Fault::MemoryLimit)));
    }
    // Move 2k misbehaves as case k says (its number kept in the bot's folder); move 2k+1
    // plays well.
    let mut body = String::from(
        "n=$(cat $HOME/n 2>/dev/null || echo 0); echo $((n + 1)) > $HOME/n\n\
         if [ $((n % 2)) = 1 ]; then cat >/dev/null; echo 1 1; exit 0; fi\ncase $((n / 2)) in\n",
    );
    for (k, (case, _)) in cases.iter().enumerate() {
        body.push_str(&format!("{k}) {case} ;;\n"));
    }
    body.push_str("esac\n");
    let bot = sh(&body, &m);
    let mut game = MoveRunner::new();
    let (mut verdict, mut run) = play(&mut game, &sandbox, &bot);
    for (case, expected) in &cases {
        match (&verdict, expected) {
            (
                Verdict::Fault(Fault::Unreadable { .. }),
                Verdict::Fault(Fault::Unreadable { .. }),
            ) => {}
            _ => assert_eq!(&verdict, expected, "{case}: {}", stderr(&run)),
        }
        // What these two bounds catch is a wait for what the bot left behind (`sleep 1000`
        // would take 1000 s), not speed: the slack is wide enough for a machine at load 10
        // (500 ms over the limit and 1 s for the next move: one of them failed there once).
        assert!(run.elapsed < LIMITS.time + SLACK, "{case}");
        assert_eq!(left_of_moves(&m), Vec::<String>::new(), "after {case}");
        let started = Instant::now();
        (verdict, run) = play(&mut game, &sandbox, &bot);
        assert_eq!(verdict, Verdict::Ok, "after {case}: {}", stderr(&run));
        assert!(started.elapsed() < SLACK, "after {case}");
        assert!(game.has_jail(), "after {case}: the jail was torn down");
        (verdict, run) = play(&mut game, &sandbox, &bot);
    }
    drop(game);
    assert_nothing_left(&m, &sandbox);
}

/// The game's cgroup limits the bot's whole tree to one CPU (it is made once per game, so
/// the limit costs nothing per move), or to the CPUs the limits give.
#[test]
fn a_game_jail_has_a_cpu_limit_of_one_cpu_or_the_limits_cpus() {
    let Some(sandbox) = jailed() else { return };
    if !sandbox.limits_cpu() {
        eprintln!("skipped: no cpu controller here");
        return;
    }
    for (cpus, quota) in [(1, "100000 100000"), (2, "200000 100000")] {
        let m = marker(&format!("cpu{cpus}"));
        let limits = Limits { cpus, ..LIMITS };
        let mut game = MoveRunner::new();
        let (verdict, _) = play_under(&mut game, &sandbox, &sh("echo 1 1", &m), &limits);
        assert_eq!(verdict, Verdict::Ok);
        assert_eq!(cpu_limits(&sandbox), [quota], "{cpus} CPUs");
        drop(game);
        assert_nothing_left(&m, &sandbox);
    }
}

/// The CPU limits of the sandbox's cgroups now, as "quota period" in microseconds.
fn cpu_limits(sandbox: &Sandbox) -> Vec<String> {
    sandbox
        .leftovers()
        .iter()
        .filter_map(|dir| {
            std::fs::read_to_string(dir.join("cpu.cfs_quota_us"))
                .map(|q| {
                    let period = std::fs::read_to_string(dir.join("cpu.cfs_period_us")).unwrap();
                    format!("{} {}", q.trim(), period.trim())
                })
                .or_else(|_| {
                    std::fs::read_to_string(dir.join("cpu.max")).map(|t| t.trim().to_string())
                })
                .ok()
        })
        .collect()
}

/// Two busy loops for a second get about one second of CPU between them, not two.
#[test]
fn two_busy_processes_share_one_cpu() {
    let Some(sandbox) = jailed() else { return };
    if !sandbox.limits_cpu() {
        eprintln!("skipped: no cpu controller here");
        return;
    }
    let m = marker("spin");
    let body = "sh -c 'while :; do :; done' & a=$!; sh -c 'while :; do :; done' & b=$!; sleep 1.5; \
                awk '{s += $14 + $15} END {print s}' /proc/$a/stat /proc/$b/stat >&2; echo 1 1";
    let mut game = MoveRunner::new();
    let (verdict, run) = play(&mut game, &sandbox, &sh(body, &m));
    assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
    let ticks: u64 = stderr(&run).trim().parse().unwrap();
    // 1.5 s of wall time: at most 150 ticks of 10 ms with one CPU (some slack for the
    // quota's period), up to 300 with two.
    assert!(ticks <= 170, "{ticks} ticks of CPU in 1.5 s");
    drop(game);
    assert_nothing_left(&m, &sandbox);
}

/// Without a jail (and here without a cgroup: rlimits only), the launcher runs directly as
/// the keeper of the bot's processes: a child that left its bot's session is its, and is
/// dead before the next move; a process of the same user that is not the bot's (this
/// test's own) is untouched; at the end of the game nothing of the bot is left.
#[test]
fn without_a_jail_the_launcher_keeps_the_bots_processes() {
    let launcher = Launcher::program(
        Path::new(env!("CARGO_BIN_EXE_ply-jail-launcher")),
        vec![ARG.into()],
    )
    .unwrap();
    let sandbox = Sandbox::with_guard(ply_referee::process::MemoryGuard::Rlimit)
        .with_launcher(Some(launcher));
    assert!(sandbox.jail().is_none() && !sandbox.has_cgroup());
    let m = marker("keeper");
    // Only sleeps: nothing here is in a namespace.
    let bot = sh(
        "setsid sh -c 'sleep 1000; :' \"$0\" </dev/null >/dev/null 2>&1 & \
         sh -c 'sleep 1000; :' \"$0\" </dev/null >/dev/null 2>&1 & sleep 0.1; echo 1 1",
        &m,
    );
    let mut mine = std::process::Command::new("sleep")
        .arg("1000")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut game = MoveRunner::new();
    for _ in 0..2 {
        let (verdict, run) = play(&mut game, &sandbox, &bot);
        assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
        assert!(game.has_jail());
        assert_eq!(left_of_moves(&m), Vec::<String>::new());
    }
    assert!(
        mine.try_wait().unwrap().is_none(),
        "the test's own process was killed"
    );
    drop(game);
    mine.kill().unwrap();
    mine.wait().unwrap();
    assert_nothing_left(&m, &sandbox);
}

/// What `tracing` writes, kept for a test.
#[derive(Clone, Default)]
struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A game jail that cannot start (its launcher, `/bin/true`, exits without a word) is said
/// once per sandbox, as a warning, however many moves and games fall back; the moves still
/// run, each a process (in a jail) of its own. Without a jail, the same for the keeper.
#[test]
fn a_game_jail_that_cannot_start_is_said_once_and_the_moves_still_run() {
    let bogus = || Launcher::program(Path::new("/bin/true"), Vec::new()).unwrap();
    let mut cases = vec![(
        Sandbox::with_guard(ply_referee::process::MemoryGuard::Rlimit).with_launcher(Some(bogus())),
        "a bot's keeper could not start (/bin/true)",
    )];
    if jailed().is_some() {
        cases.push((
            Sandbox::detect().with_launcher(Some(bogus())),
            "a bot's game jail could not start (/bin/true)",
        ));
    }
    let bot = sh("echo 1 1", "unused");
    for (sandbox, words) in cases {
        let log = Log::default();
        let writer = log.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, || {
            for _ in 0..2 {
                let mut game = MoveRunner::new();
                for _ in 0..2 {
                    let (verdict, run) = play(&mut game, &sandbox, &bot);
                    assert_eq!(verdict, Verdict::Ok, "{}", stderr(&run));
                    assert!(!game.has_jail());
                }
            }
        });
        let text = String::from_utf8_lossy(&log.0.lock().unwrap()).into_owned();
        assert_eq!(text.matches(words).count(), 1, "{text}");
        assert_eq!(text.matches("WARN").count(), 1, "{text}");
        assert!(
            text.contains("(/bin/true): the jail did not start; its moves run"),
            "{text}"
        );
    }
}
