//! The referee's overhead per turn for a persistent (AI Challenge) bot: a trivial Ants bot
//! that answers every message with `go` plays 1000 turns
//!
//! * `bare`: through plain pipes (`std::process::Command`, write the turn, read to `go`), no
//!   referee at all;
//! * `exchange`: through [`PersistentBot::exchange`] (writer thread, thaw, events up to
//!   `go`, deadline, output cap, freeze; in the jail where there is one);
//! * `game`: a whole 1000-turn game through [`play_ants`] against a built-in `hold` bot,
//!   minus the same game with two built-ins (so the engine's own time is taken out).
//!
//! `cargo bench -p ply-referee --bench persistent` prints the time per turn of each and the
//! differences, which are the overhead. The bot is Python (`-S -u`, the real interpreter
//! behind `python3`); its own time per turn is in all three and cancels out.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use ply_ants::bot::BuiltinBot;
use ply_ants::{AntsGame, AntsMap, AntsMatch, FoodMode, Settings};
use ply_referee::Sandbox;
use ply_referee::ants::{AntsSeat, play_ants};
use ply_referee::persistent::{PersistentBot, PersistentLimits};
use ply_referee::process::CommandLine;

const TURNS: u32 = 1000;
const ROUNDS: usize = 5;

const BOT: &str = "import sys\n\
for line in sys.stdin:\n    \
    if line.strip() in ('ready', 'go'):\n        \
        sys.stdout.write('go\\n'); sys.stdout.flush()\n";

const MAP: &str = "rows 4\ncols 20\nplayers 2\nm A.........B.........\n\
m a.........b.........\nm ....................\nm ....................\n";

/// The system's Python first: a jailed bot runs as `nobody` when the bench runs as root, and
/// cannot run an interpreter under root's home folder (a version manager's).
fn python() -> String {
    if std::path::Path::new("/usr/bin/python3").exists() {
        return "/usr/bin/python3".into();
    }
    let out = Command::new("python3")
        .args(["-S", "-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 runs the trivial bot");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn bare(python: &str) -> Duration {
    let mut child = Command::new(python)
        .args(["-S", "-u", "-c", BOT])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut turn = |text: &str| {
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
        loop {
            line.clear();
            stdout.read_line(&mut line).unwrap();
            if line.trim() == "go" {
                break;
            }
        }
    };
    turn("ready\n");
    let start = Instant::now();
    for t in 1..=TURNS {
        turn(&format!("turn {t}\ngo\n"));
    }
    let elapsed = start.elapsed();
    drop(stdin);
    child.wait().unwrap();
    elapsed / TURNS
}

fn command(python: &str) -> CommandLine {
    CommandLine {
        program: python.into(),
        args: vec!["-S".into(), "-u".into(), "-c".into(), BOT.into()],
    }
}

fn exchange(sandbox: &Sandbox, python: &str) -> Duration {
    let limits = PersistentLimits::default();
    let mut bot = PersistentBot::start(sandbox, &command(python), &limits, false).unwrap();
    bot.exchange("ready\n", limits.load);
    let start = Instant::now();
    for t in 1..=TURNS {
        bot.exchange(&format!("turn {t}\ngo\n"), limits.turn);
    }
    let elapsed = start.elapsed();
    bot.kill();
    elapsed / TURNS
}

fn game(sandbox: &Sandbox, python: Option<&str>) -> Duration {
    let limits = PersistentLimits::default();
    let settings = Settings {
        turns: TURNS,
        scenario: true,
        food: FoodMode::None,
        engine_seed: 1,
        player_seed: 1,
        ..Settings::default()
    };
    let map = AntsMap::parse(MAP).unwrap();
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let first = match python {
        Some(p) => AntsSeat::Program(Box::new(
            PersistentBot::start(sandbox, &command(p), &limits, false).unwrap(),
        )),
        None => AntsSeat::Builtin(BuiltinBot::Hold.create(0)),
    };
    let mut seats = vec![first, AntsSeat::Builtin(BuiltinBot::Hold.create(1))];
    let start = Instant::now();
    play_ants(&mut m, &mut seats, &limits, false, |_| {
        std::ops::ControlFlow::Continue(())
    });
    let elapsed = start.elapsed();
    assert_eq!(m.result().unwrap().game_length, TURNS);
    elapsed / TURNS
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn main() {
    let python = python();
    let sandbox = Sandbox::detect();
    println!("bot: {python} -S -u (answers go), {TURNS} turns, median of {ROUNDS} rounds");
    println!(
        "memory guard: {:?}, jail: {}, pause: {}",
        sandbox.guard(),
        if sandbox.jail().is_some() {
            "bubblewrap"
        } else {
            "none"
        },
        if sandbox
            .report()
            .missing
            .contains(&ply_referee::jail::Missing::Freezer)
        {
            "SIGSTOP"
        } else {
            "freezer"
        }
    );
    let b = median((0..ROUNDS).map(|_| bare(&python)).collect());
    let e = median((0..ROUNDS).map(|_| exchange(&sandbox, &python)).collect());
    let g = median((0..ROUNDS).map(|_| game(&sandbox, Some(&python))).collect());
    let g0 = median((0..ROUNDS).map(|_| game(&sandbox, None)).collect());
    println!("bare pipes          {:>8.1} us/turn", us(b));
    println!(
        "PersistentBot       {:>8.1} us/turn  (overhead {:+.1} us)",
        us(e),
        us(e) - us(b)
    );
    println!(
        "play_ants, program  {:>8.1} us/turn  (built-ins only: {:.1} us; overhead {:+.1} us)",
        us(g),
        us(g0),
        us(g) - us(g0) - us(b)
    );
}
