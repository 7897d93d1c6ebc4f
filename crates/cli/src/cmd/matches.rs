//! `ply match GAME --p1 SPEC --p2 SPEC`: several refereed games between two players.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

use ply_core::{Outcome, Seat};
use ply_games::{HackerEarth, Heuristics, with_hackerearth_game};
use ply_referee::{PlayerSpec, Replay, Sandbox, play_game};

use super::arena::{LimitArgs, game_seed, player_spec};
use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply match tictactoe --p1 builtin:random --p2 builtin:alphabeta:ms=50 --games 10 --swap\n  \
ply match tictactoe --p1 'python3 mybot.py' --p2 builtin:mcts --replays replays/ --json\n\n\
A player is `builtin:NAME[:key=value,...]` (random, greedy, alphabeta[:ms=,depth=],\n\
mcts[:ms=,iterations=], perfect) or a command line, run afresh for every move with the state\n\
on stdin in the game's contest format; it must print its move on stdout. A bot that crashes,\n\
runs out of time or memory, or plays an illegal move loses that game.")]
pub struct MatchArgs {
    /// The game (see `ply games`; it needs a bot format).
    pub game: String,
    /// Player 1.
    #[arg(long)]
    pub p1: String,
    /// Player 2.
    #[arg(long)]
    pub p2: String,
    /// How many games.
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Alternate who moves first (player 1 starts the odd games).
    #[arg(long)]
    pub swap: bool,
    /// Seed of the built-in players' random choices; every game's seed derives from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write one replay file per game into this directory (`ply replay FILE` plays it back).
    #[arg(long)]
    pub replays: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print JSON for scripts instead of text.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    with_hackerearth_game!(kind, G => play_match::<G>(args)).unwrap_or_else(|| {
        Err(bad_input!(
            "{kind} has no bot format yet; `ply games` marks the games that have one"
        ))
    })
}

/// One player's record over the match.
#[derive(Debug, Default, Serialize)]
struct Tally {
    name: String,
    spec: String,
    wins: u32,
    draws: u32,
    losses: u32,
    /// Lost games by verdict (`time_limit`: 2).
    faults: std::collections::BTreeMap<String, u32>,
}

#[derive(Serialize)]
struct GameLine {
    game: u32,
    first: usize,
    result: String,
    /// 1 if player 1 (`--p1`) won, 0.5 draw, 0 lost.
    p1_score: f64,
    plies: usize,
    replay: Option<PathBuf>,
}

fn play_match<G: HackerEarth + Heuristics>(args: &MatchArgs) -> Result<ExitCode> {
    if args.games == 0 {
        return Err(bad_input!("--games must be at least 1"));
    }
    let specs: [PlayerSpec; 2] = [
        player_spec("--p1", &args.p1)?,
        player_spec("--p2", &args.p2)?,
    ];
    let limits = args.limits.limits()?;
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the replay directory {}", dir.display()))?;
    }
    let sandbox = Arc::new(Sandbox::detect());
    let names = ["p1".to_string(), "p2".to_string()];
    let mut tallies: Vec<Tally> = specs
        .iter()
        .zip(&names)
        .map(|(s, n)| Tally {
            name: n.clone(),
            spec: s.to_string(),
            ..Tally::default()
        })
        .collect();
    let mut lines = Vec::new();
    for i in 0..args.games {
        // seats[s] = which player (0 = p1) sits in seat s.
        let seats = if args.swap && i % 2 == 1 {
            [1, 0]
        } else {
            [0, 1]
        };
        let seed = game_seed(args.seed, 0, i);
        let mut bots = Vec::new();
        for (s, &p) in seats.iter().enumerate() {
            let bot = specs[p]
                .build::<G>(&names[p], seed.wrapping_add(s as u64), &sandbox, &limits)
                .map_err(|e| bad_input!("{e}"))?;
            bots.push(bot);
        }
        let seat_specs: Vec<String> = seats.iter().map(|&p| specs[p].to_string()).collect();
        let replay = play_game::<G>(&mut bots, &seat_specs, seed);
        let p1_seat = Seat::new(if seats[0] == 0 { 0 } else { 1 });
        let p1_score = replay.outcome.payoff(p1_seat, 2);
        tally(&mut tallies, &replay, &seats);
        let file = match &args.replays {
            Some(dir) => Some(write_replay(dir, i + 1, &replay)?),
            None => None,
        };
        let line = GameLine {
            game: i + 1,
            first: seats[0] + 1,
            result: describe(&replay, &seats),
            p1_score,
            plies: replay.moves.len(),
            replay: file,
        };
        if !args.json {
            println!("game {}: {}", line.game, line.result);
        }
        lines.push(line);
    }
    if args.json {
        let v = serde_json::json!({
            "game": G::info().name, "seed": args.seed, "games": lines, "players": tallies,
        });
        println!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        println!();
        for t in &tallies {
            let faults: Vec<String> = t.faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
            println!(
                "{} ({}): {} won, {} drawn, {} lost{}",
                t.name,
                t.spec,
                t.wins,
                t.draws,
                t.losses,
                if faults.is_empty() {
                    String::new()
                } else {
                    format!("; lost by {}", faults.join(", "))
                }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn tally(tallies: &mut [Tally], replay: &Replay, seats: &[usize; 2]) {
    for (s, &p) in seats.iter().enumerate() {
        let t = &mut tallies[p];
        match &replay.outcome {
            Outcome::Win(w) if w.index() == s => t.wins += 1,
            Outcome::Draw => t.draws += 1,
            _ => t.losses += 1,
        }
    }
    if let Some((seat, verdict)) = replay.fault() {
        *tallies[seats[seat.index()]]
            .faults
            .entry(verdict.code().to_string())
            .or_default() += 1;
    }
}

/// `p1 (X) beats p2 in 7 plies`, with the fault if any.
fn describe(replay: &Replay, seats: &[usize; 2]) -> String {
    let name = |s: usize| format!("p{}", seats[s] + 1);
    let order = format!("{} first", name(0));
    match (&replay.outcome, replay.fault()) {
        (Outcome::Win(w), Some((loser, verdict))) => format!(
            "{} wins, {} lost by {verdict} on ply {} ({order})",
            name(w.index()),
            name(loser.index()),
            replay.moves.len()
        ),
        (Outcome::Win(w), None) => format!(
            "{} wins in {} plies ({order})",
            name(w.index()),
            replay.moves.len()
        ),
        (o, _) => format!("{o} in {} plies ({order})", replay.moves.len()),
    }
}

fn write_replay(dir: &std::path::Path, game: u32, replay: &Replay) -> Result<PathBuf> {
    let path = dir.join(format!("game-{game:04}.json"));
    let text = serde_json::to_string_pretty(replay)?;
    std::fs::write(&path, text + "\n")
        .with_context(|| format!("writing the replay {}", path.display()))?;
    Ok(path)
}
