//! `ply replay FILE`: a replay played back in the terminal.

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use ply_core::Game;
use ply_games::with_game;
use ply_referee::Replay;

use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  ply replay replays/game-0001.json\n  \
ply replay replays/game-0001.json --step     # Enter for the next move\n\n\
Replays come from `ply match --replays DIR`.")]
pub struct ReplayArgs {
    /// The replay file (JSON).
    pub file: PathBuf,
    /// Wait for Enter after each move.
    #[arg(long)]
    pub step: bool,
}

pub fn run(args: &ReplayArgs) -> Result<ExitCode> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("reading the replay {}", args.file.display()))?;
    let replay: Replay = serde_json::from_str(&text).map_err(|e| {
        bad_input!(
            "{}: line {}, column {}: not a ply replay: {e}",
            args.file.display(),
            e.line(),
            e.column()
        )
    })?;
    let kind = super::game_kind(&replay.game)?;
    with_game!(kind, G => show::<G>(args, &replay))
}

fn show<G: Game>(args: &ReplayArgs, replay: &Replay) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    writeln!(out, "{} (seed {})", G::info().title, replay.seed)?;
    for (i, p) in replay.players.iter().enumerate() {
        writeln!(out, "player {}: {} ({})", i + 1, p.name, p.spec)?;
    }
    let mut state: G = replay
        .start
        .parse()
        .map_err(|e| bad_input!("{}: the start position: {e}", args.file.display()))?;
    writeln!(out, "\n{}", state.diagram())?;
    for m in &replay.moves {
        let who = replay
            .players
            .get(usize::from(m.seat).saturating_sub(1))
            .map_or("?", |p| p.name.as_str());
        match &m.mv {
            Some(text) if m.verdict.is_ok() => {
                let mv = state
                    .parse_move(text)
                    .map_err(|e| bad_input!("{}: ply {}: {e}", args.file.display(), m.ply))?;
                state
                    .play(mv)
                    .map_err(|e| bad_input!("{}: ply {}: {e}", args.file.display(), m.ply))?;
                writeln!(
                    out,
                    "\nply {}: player {} ({who}) plays {text} in {:.1} ms",
                    m.ply,
                    m.seat,
                    m.micros as f64 / 1000.0
                )?;
                writeln!(out, "{}", state.diagram())?;
            }
            _ => writeln!(
                out,
                "\nply {}: player {} ({who}): {} after {:.1} ms",
                m.ply,
                m.seat,
                m.verdict,
                m.micros as f64 / 1000.0
            )?,
        }
        if args.step {
            out.flush()?;
            if input.next().is_none() {
                break;
            }
        }
    }
    writeln!(out, "\nresult: {}", replay.result)?;
    for (i, tail) in replay.stderr.iter().enumerate() {
        if !tail.trim().is_empty() {
            writeln!(out, "\nstderr of player {} (last lines):", i + 1)?;
            for line in tail
                .lines()
                .rev()
                .take(10)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                writeln!(out, "  {line}")?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
