//! `ply breaker play|autoplay|replay|check`: Block Breaker in the terminal. The game is
//! `ply_breaker`; this module reads the arguments and files, runs the library, prints, and
//! hands drawing to `breaker_tui`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde::Serialize;

use ply_breaker::scores::{Entry, HighScores};
use ply_breaker::trace::{Episode, Recorder};
use ply_breaker::{Level, Sim, Start, Status, Trace, autopilot, builtin_levels, rng};

use crate::bad_input;
use crate::cmd::breaker_tui;
use crate::out::Count;

/// Arguments of `ply breaker`.
#[derive(Debug, Args)]
pub struct BreakerArgs {
    #[command(subcommand)]
    pub command: BreakerCommand,
}

#[derive(Debug, Subcommand)]
pub enum BreakerCommand {
    /// Play in the terminal: arrows or a/d move, space launches, p pauses, q quits.
    #[command(after_help = "\
Examples:
  ply breaker play
  ply breaker play --level 4 --seed 7
  ply breaker play --level-file my_level.txt

Needs a terminal of at least 78x24. High scores are kept in the data directory
(~/.local/share/ply/breaker-scores.json on Linux).")]
    Play(PlayArgs),
    /// Let the autopilot play: one line (or JSON object) per level.
    #[command(after_help = "\
Examples:
  ply breaker autoplay --json
  ply breaker autoplay --level 6 --seed 3 --watch
  ply breaker autoplay --level 1 --trace run.json && ply breaker replay run.json

Exit code 1 when a level is not cleared (0 when q stops --watch).")]
    Autoplay(AutoplayArgs),
    /// Replay a trace written with --trace, checking every recorded state digest.
    #[command(after_help = "\
Example:
  ply breaker replay run.json --watch")]
    Replay(ReplayArgs),
    /// Check level files: print each one's name and bricks, or every problem found.
    #[command(after_help = "\
Example:
  ply breaker check my_level.txt

The format (docs/breaker.md): `name:`, `speed:` (50-200), `drops:` (0-100), then `bricks:` and up to 12 rows of
13 cells: . empty, 1-9 hit points, X indestructible, * always drops a power-up.")]
    Check(CheckArgs),
}

/// Which levels to play.
#[derive(Debug, Args)]
pub struct LevelArgs {
    /// Play only this level (1-based); without it, every level in order.
    #[arg(long)]
    pub level: Option<usize>,
    /// Play these level files instead of the six built-in ones (repeat for several).
    #[arg(long, value_name = "FILE")]
    pub level_file: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Seed of the game's chance (drops, serves); default: a fresh one.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Your name on the high-score table; default: $USER.
    #[arg(long)]
    pub name: Option<String>,
    /// Write the game as a trace (JSON) to this file when it ends.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// For the tests: panic after this many steps, to show the terminal is restored.
    #[arg(long, hide = true)]
    pub panic_after: Option<u64>,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print one JSON object per level")))]
pub struct AutoplayArgs {
    #[command(flatten)]
    pub levels: LevelArgs,
    /// Seed of the game's chance.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Show the game in the terminal (q stops).
    #[arg(long)]
    pub watch: bool,
    /// With --watch: game steps per frame, 1 (real time) to 100.
    #[arg(long, default_value_t = 1)]
    pub speed: u32,
    #[command(flatten)]
    pub json: crate::out::Json,
    /// Give up on a level after this many steps (60 a second), 1 to 10,000,000.
    #[arg(long, default_value_t = 100_000)]
    pub max_steps: u64,
    /// Write the run as a trace (JSON) to this file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The trace file.
    pub trace: PathBuf,
    /// Show the replay in the terminal (q stops).
    #[arg(long)]
    pub watch: bool,
    /// With --watch: game steps per frame, 1 (real time) to 100.
    #[arg(long, default_value_t = 1)]
    pub speed: u32,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Level files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// Runs `ply breaker`.
pub fn run(args: &BreakerArgs) -> Result<ExitCode> {
    match &args.command {
        BreakerCommand::Play(a) => play(a),
        BreakerCommand::Autoplay(a) => autoplay(a),
        BreakerCommand::Replay(a) => replay(a),
        BreakerCommand::Check(a) => check(a),
    }
}

fn read_level(path: &Path) -> Result<Level> {
    let text = crate::input::read_file(path, "the level file")?;
    Level::parse(&text).map_err(|e| {
        let lines: Vec<String> = e
            .problems
            .iter()
            .map(|p| format!("{}:{}:{}: {}", path.display(), p.line, p.column, p.message))
            .collect();
        bad_input!("{}", lines.join("\n"))
    })
}

/// The levels to play and the 1-based number of the first.
fn levels(a: &LevelArgs) -> Result<(Vec<Level>, usize)> {
    let all = if a.level_file.is_empty() {
        builtin_levels()
    } else {
        a.level_file
            .iter()
            .map(|p| read_level(p))
            .collect::<Result<_>>()?
    };
    match a.level {
        None => Ok((all, 1)),
        Some(n) if (1..=all.len()).contains(&n) => Ok((vec![all[n - 1].clone()], n)),
        Some(n) => Err(bad_input!(
            "--level {n} does not exist: there are {} levels (1 to {})",
            all.len(),
            all.len()
        )),
    }
}

fn check_speed(speed: u32) -> Result<()> {
    if !(1..=100).contains(&speed) {
        return Err(bad_input!(
            "--speed {speed} is out of range: give 1 (real time) to 100"
        ));
    }
    Ok(())
}

fn write_trace(path: &Path, episodes: Vec<Episode>) -> Result<()> {
    std::fs::write(path, Trace::new(episodes).to_json() + "\n")
        .with_context(|| format!("writing the trace {}", path.display()))
}

/// One level's line of `autoplay --json`.
#[derive(Debug, Serialize)]
struct LevelReport<'a> {
    level: usize,
    name: &'a str,
    cleared: bool,
    score: u64,
    steps: u64,
    lives_left: u32,
}

fn autoplay(a: &AutoplayArgs) -> Result<ExitCode> {
    let (levels, first) = levels(&a.levels)?;
    check_speed(a.speed)?;
    if !(1..=10_000_000).contains(&a.max_steps) {
        return Err(bad_input!(
            "--max-steps {} is out of range: give 1 to 10000000",
            a.max_steps
        ));
    }
    let mut watch = if a.watch {
        Some(breaker_tui::Watch::start(a.speed, "AUTOPILOT")?)
    } else {
        None
    };
    let mut start = Start::default();
    let mut reports = Vec::new();
    let mut episodes = Vec::new();
    let mut stopped = false;
    for (i, level) in levels.iter().enumerate() {
        let number = first + i;
        let seed = rng::level_seed(a.seed, number - 1);
        let mut recorder = a
            .trace
            .as_ref()
            .map(|_| Recorder::new(number, level, seed, start));
        let sim = autopilot::run_level(level, seed, start, a.max_steps, |action, sim| {
            if let Some(r) = &mut recorder {
                r.record(action, sim);
            }
            match &mut watch {
                Some(w) => w
                    .frame(sim, number, levels.len() + first - 1)
                    .unwrap_or(false),
                None => true,
            }
        });
        if let Some(r) = recorder {
            episodes.push(r.finish(&sim));
        }
        stopped = watch.as_ref().is_some_and(|w| w.stopped());
        reports.push((
            number,
            level.name.clone(),
            sim.status(),
            sim.score(),
            sim.steps(),
            sim.lives(),
        ));
        if stopped || sim.status() != Status::Cleared {
            break;
        }
        if let Some(w) = &mut watch {
            w.pause_between_levels(&sim, number, first + levels.len() - 1)?;
        }
        start = sim.carry();
    }
    drop(watch);
    if let Some(path) = &a.trace {
        write_trace(path, episodes)?;
    }
    let mut all_cleared = true;
    for (level, name, status, score, steps, lives) in &reports {
        let cleared = *status == Status::Cleared;
        all_cleared &= cleared;
        if a.json.on {
            let r = LevelReport {
                level: *level,
                name,
                cleared,
                score: *score,
                steps: *steps,
                lives_left: *lives,
            };
            outln!("{}", serde_json::to_string(&r)?);
        } else {
            let how = match status {
                Status::Cleared => "cleared",
                Status::GameOver => "lost",
                Status::Playing => "not cleared",
            };
            outln!(
                "level {level} {name}: {how} in {steps} steps, score {score}, {lives} lives left"
            );
        }
    }
    if stopped {
        outln!("stopped by the viewer");
    }
    Ok(if all_cleared || stopped {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn replay(a: &ReplayArgs) -> Result<ExitCode> {
    check_speed(a.speed)?;
    let text = crate::input::read_file(&a.trace, "the trace")?;
    let trace = Trace::from_json(&text).map_err(|e| bad_input!("{}: {e}", a.trace.display()))?;
    let total = trace.episodes.len();
    let mut watch = if a.watch {
        Some(breaker_tui::Watch::start(a.speed, "REPLAY")?)
    } else {
        None
    };
    let result = trace.replay(|episode, sim| match &mut watch {
        Some(w) => w
            .frame(sim, trace.episodes[episode - 1].level, total)
            .unwrap_or(false),
        None => true,
    });
    let stopped = watch.as_ref().is_some_and(|w| w.stopped());
    drop(watch);
    match result {
        Ok(steps) if stopped => {
            outln!(
                "stopped after {}; every digest so far matched",
                Count(steps, "step")
            );
            Ok(ExitCode::SUCCESS)
        }
        Ok(steps) => {
            let checks: usize = trace.episodes.iter().map(|e| e.checkpoints.len()).sum();
            let last = trace
                .episodes
                .last()
                .map(|e| (e.result.score, e.result.status.clone()));
            let (score, status) = last.unwrap_or((0, "empty".into()));
            outln!(
                "replayed {total} level(s), {steps} steps: all {checks} state digests match; final score {score} ({status})"
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ ply_breaker::trace::ReplayError::Diverged { .. })
        | Err(e @ ply_breaker::trace::ReplayError::Result { .. }) => {
            tracing::error!("{}: {e}", a.trace.display());
            Ok(ExitCode::from(1))
        }
        Err(e) => Err(bad_input!("{}: {e}", a.trace.display())),
    }
}

fn check(a: &CheckArgs) -> Result<ExitCode> {
    let mut bad = Vec::new();
    for path in &a.files {
        match read_level(path) {
            Ok(level) => outln!(
                "{}: {:?}, {} rows, {} bricks to break, speed {}%, drops {}%",
                path.display(),
                level.name,
                level.rows.len(),
                level.breakable(),
                level.speed,
                level.drops
            ),
            Err(e) => bad.push(e.to_string()),
        }
    }
    if bad.is_empty() {
        Ok(ExitCode::SUCCESS)
    } else {
        Err(bad_input!("{}", bad.join("\n")))
    }
}

/// Where the high scores live: `breaker-scores.json` in the platform's data directory.
fn scores_path() -> Result<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "ply")
        .ok_or_else(|| anyhow::anyhow!("cannot find a home directory for the high scores"))?;
    Ok(dirs.data_dir().join("breaker-scores.json"))
}

/// The saved table; a missing one is empty. A damaged one is kept as `*.damaged` and the
/// game starts a new table, rather than refusing to play or writing over it unseen.
fn load_scores(path: &Path) -> Result<(HighScores, Option<String>)> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok((HighScores::default(), None));
        }
        Err(e) => {
            return Err(e).with_context(|| format!("reading the high scores {}", path.display()));
        }
    };
    match HighScores::from_json(&text) {
        Ok(t) => Ok((t, None)),
        Err(e) => {
            let kept = path.with_extension("json.damaged");
            std::fs::rename(path, &kept).with_context(|| {
                format!("moving the damaged high scores {} aside", path.display())
            })?;
            Ok((
                HighScores::default(),
                Some(format!(
                    "the high scores in {} could not be read ({e}); they were moved to {} and a new table begun",
                    path.display(),
                    kept.display()
                )),
            ))
        }
    }
}

fn play(a: &PlayArgs) -> Result<ExitCode> {
    let (levels, first) = levels(&a.levels)?;
    let seed = a.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(1)
    });
    let name = a
        .name
        .clone()
        .or_else(|| std::env::var("USER").ok())
        .unwrap_or_else(|| "player".into());
    let path = scores_path()?;
    let (scores, damaged) = load_scores(&path)?;
    let outcome = breaker_tui::play(&levels, first, seed, scores, &name, a.panic_after)?;
    if let Some(table) = &outcome.scores {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating the directory {}", parent.display()))?;
        }
        std::fs::write(&path, table.to_json() + "\n")
            .with_context(|| format!("writing the high scores {}", path.display()))?;
    }
    if let Some(t) = &a.trace {
        write_trace(t, outcome.episodes)?;
    }
    if let Some(note) = damaged {
        tracing::warn!("{note}");
    }
    outln!(
        "score {}, reached level {} ({}); seed {seed}",
        outcome.score,
        outcome.level,
        if outcome.won { "won" } else { "not won" }
    );
    Ok(ExitCode::SUCCESS)
}

/// What a game in the terminal came to.
pub struct PlayOutcome {
    /// The final score.
    pub score: u64,
    /// The last level reached.
    pub level: usize,
    /// Every level cleared.
    pub won: bool,
    /// The table to save, when the game ended (not quit) and it changed.
    pub scores: Option<HighScores>,
    /// The levels played, for --trace.
    pub episodes: Vec<Episode>,
}

/// A finished game's high-score entry.
pub fn entry(name: &str, sim: &Sim, level: usize, won: bool) -> Entry {
    Entry {
        name: name.chars().take(16).collect(),
        score: sim.score(),
        level,
        won,
    }
}
