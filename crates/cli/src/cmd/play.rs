//! `ply play GAME`: a person against an AI in the terminal.

use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};

use ply_core::{Budget, Seat};
use ply_games::{Heuristics, with_game};

use crate::args::{PlayArgs, Side};
use crate::players;

pub fn run(args: &PlayArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    with_game!(kind, G => play::<G>(args))
}

fn play<G: Heuristics>(args: &PlayArgs) -> Result<ExitCode> {
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut ai = players::ai::<G>(args.ai, seed, Duration::from_millis(args.think_ms))?;
    let human = match args.you {
        Side::X => Seat::FIRST,
        Side::O => Seat::SECOND,
    };
    let stdin = std::io::stdin();
    let mut lines = crate::input::lines(stdin.lock(), "stdin");
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", players::describe::<G>())?;
    writeln!(
        out,
        "You are {human}; the AI is {} (seed {seed}: `--seed {seed}` replays its choices).",
        ai.name()
    )?;
    writeln!(out, "Type a move, `help` for the legal moves, or `quit`.")?;
    let mut state = G::start();
    let mut moves = Vec::new();
    while state.outcome().is_none() {
        writeln!(out, "\n{}", state.diagram())?;
        let seat = state.to_move();
        if seat == human {
            write!(out, "{seat}, your move: ")?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out, "\nInput ended; game left unfinished.")?;
                return Ok(ExitCode::SUCCESS);
            };
            let line = line.context("reading your move")?;
            let text = line.trim();
            state.legal_moves(&mut moves);
            match text {
                "" => continue,
                "quit" | "exit" | "q" => {
                    writeln!(out, "Game abandoned.")?;
                    return Ok(ExitCode::SUCCESS);
                }
                "help" | "?" | "moves" => {
                    let list: Vec<String> = moves.iter().map(|m| format!("[{m}]")).collect();
                    writeln!(out, "Legal moves: {}", list.join(" "))?;
                    continue;
                }
                _ => {}
            }
            match state.parse_move(text) {
                Err(e) => writeln!(out, "{e}. Try again (`help` lists the legal moves).")?,
                Ok(mv) => {
                    if let Err(e) = state.play(mv) {
                        writeln!(out, "{e}. Try again (`help` lists the legal moves).")?;
                    }
                }
            }
        } else {
            let mv = ai
                .choose(&state, Budget::UNLIMITED)
                .map_err(|f| anyhow::anyhow!("the AI failed: {f}"))?;
            writeln!(out, "{seat} ({}) plays {mv}", ai.name())?;
            state.play_unchecked(mv);
        }
    }
    writeln!(out, "\n{}", state.diagram())?;
    let outcome = state.outcome().expect("loop ends on an outcome");
    let verdict = match outcome.winner() {
        Some(s) if s == human => "You win!".to_string(),
        Some(_) => format!("The AI ({}) wins.", ai.name()),
        None => "Draw.".to_string(),
    };
    writeln!(out, "{verdict}")?;
    Ok(ExitCode::SUCCESS)
}

fn fresh_seed() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000)
        .unwrap_or(0)
}
