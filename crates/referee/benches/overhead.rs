//! The referee's overhead per move: one move of a trivial bot (`/bin/echo 1 1`) through
//! the referee (jail, session, cgroup or rlimit, pipes, deadline, judging) against a bare
//! `fork` + `exec` of the same program with `std::process::Command::output`. With the
//! jail, the moves of one game go through one [`MoveRunner`] (one jail per game, its
//! launcher starting each move); `jail per move` is [`run_once`] without a launcher.
//!
//! `cargo bench -p ply-referee --bench overhead` prints the median and mean of each, and the
//! difference, which is the overhead. (A plain harness: the quantity is a process spawn, far
//! above anything a statistics harness would refine.)

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ply_core::Game;
use ply_games::tictactoe::TicTacToe;
use ply_referee::bot::judge_run;
use ply_referee::launcher::{ARG, Launcher};
use ply_referee::moves::MoveRunner;
use ply_referee::process::{CommandLine, Limits, MemoryGuard, Sandbox, run_once};

const RUNS: usize = 300;

fn measure(mut f: impl FnMut()) -> (Duration, Duration) {
    for _ in 0..20 {
        f();
    }
    let mut times: Vec<Duration> = (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    let mean = times.iter().sum::<Duration>() / RUNS as u32;
    (times[RUNS / 2], mean)
}

fn main() {
    let echo = CommandLine {
        program: "/bin/echo".into(),
        args: vec!["1".into(), "1".into()],
    };
    let state = TicTacToe::start();
    let input = ply_protocol::hackerearth::request(&state);
    let limits = Limits::default();

    let bare = measure(|| {
        let out = Command::new(&echo.program)
            .args(&echo.args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(out.status.success());
    });
    println!(
        "bare fork+exec                   median {:>8.3} ms  mean {:>8.3} ms",
        ms(bare.0),
        ms(bare.1)
    );
    let launcher = Launcher::program(
        std::path::Path::new(env!("CARGO_BIN_EXE_ply-jail-launcher")),
        vec![ARG.into()],
    )
    .unwrap();
    let detected = Sandbox::detect().with_launcher(Some(launcher));
    if detected.jail().is_some() {
        // One game: every move through the same runner, its jail made at the first move.
        let mut game = MoveRunner::new();
        let t = measure(|| {
            let run = game.run(&detected, &echo, input.as_bytes(), &limits);
            let (verdict, _) = judge_run(&state, &run, &limits);
            assert!(verdict.is_ok(), "{verdict:?}");
        });
        assert!(game.has_jail());
        let label = format!("referee (game jail, {})", kind(&detected));
        println!(
            "{label:<32} median {:>8.3} ms  mean {:>8.3} ms  overhead (median) {:>6.3} ms",
            ms(t.0),
            ms(t.1),
            ms(t.0.saturating_sub(bare.0))
        );
        let start = measure(|| {
            let mut game = MoveRunner::new();
            let run = game.run(&detected, &echo, input.as_bytes(), &limits);
            assert!(run.stdout.starts_with(b"1 1"));
        });
        println!(
            "{:<32} median {:>8.3} ms  mean {:>8.3} ms",
            "  a game's first move (+ end)",
            ms(start.0),
            ms(start.1),
        );
    }
    let detected = detected.with_launcher(None);
    let label = format!(
        "referee ({}, {})",
        if detected.jail().is_some() {
            "jail per move"
        } else {
            "no jail"
        },
        kind(&detected)
    );
    let unjailed = Sandbox::detect().with_jail(None);
    let guards = [
        (label, detected),
        (format!("referee (no jail, {})", kind(&unjailed)), unjailed),
        (
            "referee (rlimit)".to_string(),
            Sandbox::with_guard(MemoryGuard::Rlimit),
        ),
    ];
    for (label, sandbox) in &guards {
        let t = measure(|| {
            let run = run_once(sandbox, &echo, input.as_bytes(), &limits);
            let (verdict, _) = judge_run(&state, &run, &limits);
            assert!(verdict.is_ok(), "{verdict:?}");
        });
        println!(
            "{label:<32} median {:>8.3} ms  mean {:>8.3} ms  overhead (median) {:>6.3} ms",
            ms(t.0),
            ms(t.1),
            ms(t.0.saturating_sub(bare.0))
        );
    }
    let _ = state.is_terminal();
}

fn kind(s: &Sandbox) -> &'static str {
    match s.guard() {
        MemoryGuard::CgroupV2(_) => "cgroup v2",
        MemoryGuard::CgroupV1(_) => "cgroup v1",
        MemoryGuard::Rlimit => "rlimit",
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
