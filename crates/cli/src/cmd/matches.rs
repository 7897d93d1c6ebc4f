//! `ply match GAME --p1 SPEC --p2 SPEC`: several refereed games between two players. The match
//! itself is `ply_arena::run_match`; this reads the arguments, writes the replays and prints.
//! `ply match ants --map FILE --bot SPEC ...` is `ply_arena::run_ants_match`: one bot per
//! player of the map, seats rotated, TrueSkill standings.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;
use serde::Serialize;

use ply_arena::{MatchPlan, run_match};
use ply_referee::Replay;

use super::arena::{LimitArgs, arena_error, player_spec};
use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply match tictactoe --p1 builtin:random --p2 builtin:alphabeta:ms=50 --games 10 --swap\n  \
ply match tictactoe --p1 'python3 mybot.py' --p2 builtin:mcts --replays replays/ --json\n  \
ply match ants --map r.map --bot builtin:hunter --bot 'python3 MyBot.py' --games 2 --turns 200\n\n\
A player is `builtin:NAME[:key=value,...]` (random, greedy, alphabeta[:ms=,depth=],\n\
mcts[:ms=,iterations=], perfect) or a command line, run afresh for every move with the state\n\
on stdin in the game's contest format; it must print its move on stdout. A bot that crashes,\n\
runs out of time or memory, or plays an illegal move loses that game.")]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts instead of text")))]
pub struct MatchArgs {
    /// The game (see `ply games`; it needs a bot format).
    pub game: String,
    /// Player 1.
    #[arg(long, required_unless_present = "map")]
    pub p1: Option<String>,
    /// Player 2.
    #[arg(long, required_unless_present = "map")]
    pub p2: Option<String>,
    /// Ants: the map (one `--bot` per player of the map).
    #[arg(long, conflicts_with_all = ["p1", "p2"])]
    pub map: Option<PathBuf>,
    /// Ants: a bot, `builtin:NAME` (hunter, phalanx, random, hold) or a command line; one per
    /// player of the map, in seat order for game 1 (the seats rotate every game).
    #[arg(long = "bot", requires = "map")]
    pub bots: Vec<String>,
    /// Ants: the turn limit of every game.
    #[arg(long, default_value_t = 1000, requires = "map", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub turns: u32,
    /// How many games, 1 to 1000000.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub games: u32,
    /// Alternate who moves first (player 1 starts the odd games).
    #[arg(long)]
    pub swap: bool,
    /// Random plies the referee plays first, 0 to 60 (seeded; with --swap both games of a
    /// pair share one), so that deterministic players do not replay one game.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub opening_plies: u32,
    /// Seed of the built-in players' random choices; every game's seed derives from it.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write one replay file per game into this directory (`ply replay FILE` plays it back).
    #[arg(long)]
    pub replays: Option<PathBuf>,
    /// Replace existing replay files (never through a symbolic link); without it, an
    /// existing file is an error.
    #[arg(long, requires = "replays")]
    pub force: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    if args.game.eq_ignore_ascii_case("ants") {
        return run_ants(args);
    }
    if args.map.is_some() {
        return Err(bad_input!("--map and --bot are for `ply match ants`"));
    }
    let kind = super::game_kind(&args.game)?;
    if !kind.has_hackerearth_format() {
        return Err(bad_input!(
            "{kind} has no bot format yet; `ply games` marks the games that have one"
        ));
    }
    let plan = MatchPlan {
        game: kind.to_string(),
        players: [
            player_spec("--p1", args.p1.as_deref().unwrap_or_default())?,
            player_spec("--p2", args.p2.as_deref().unwrap_or_default())?,
        ],
        games: args.games,
        swap: args.swap,
        seed: args.seed,
        limits: args.limits.limits()?,
        opening_plies: args.opening_plies,
    };
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the replay directory {}", dir.display()))?;
    }
    let sandbox = super::arena::sandbox(&args.limits.bot_env, args.limits.jail(), &[])?;
    for (option, spec) in ["--p1", "--p2"].into_iter().zip(&plan.players) {
        super::arena::check_reachable(&sandbox, option, spec)?;
    }
    let mut games = run_match(plan, Arc::new(sandbox)).map_err(|e| arena_error(e, ""))?;
    let mut lines = Vec::new();
    for game in games.by_ref() {
        let game = game.map_err(|e| match e {
            ply_arena::ArenaError::Bot { source, .. } => bad_input!("{source}"),
            other => arena_error(other, ""),
        })?;
        let file = match &args.replays {
            Some(dir) => Some(write_replay(dir, game.number, &game.replay, args.force)?),
            None => None,
        };
        let line = GameLine {
            game: game.number,
            first: game.seats[0] + 1,
            result: game.description,
            p1_score: game.p1_score,
            plies: game.replay.moves.len(),
            replay: file,
        };
        if !args.json.on {
            // A fault's reason may quote the bot's answer: escaped for the terminal.
            outln!(
                "game {}: {}",
                line.game,
                crate::out::untrusted(&line.result)
            );
        }
        lines.push(line);
    }
    let tallies = games.tallies();
    if args.json.on {
        let v = serde_json::json!({
            "game": kind.to_string(), "seed": args.seed, "games": lines, "players": tallies,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!();
        for t in tallies {
            let faults: Vec<String> = t.faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
            outln!(
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

fn write_replay(dir: &std::path::Path, game: u32, replay: &Replay, force: bool) -> Result<PathBuf> {
    let path = dir.join(format!("game-{game:04}.json"));
    let text = serde_json::to_string_pretty(replay)?;
    crate::out::write_new(&path, (text + "\n").as_bytes(), force)?;
    Ok(path)
}

/// `ply match ants`: the games one at a time (a line each, the replay written), then the
/// standings by conservative TrueSkill.
fn run_ants(args: &MatchArgs) -> Result<ExitCode> {
    use ply_ants::{AntsMap, Settings};
    use ply_arena::{AntsEntrant, AntsMatchPlan, run_ants_match};
    use ply_referee::spec::AntsSpec;

    let Some(map_path) = &args.map else {
        return Err(bad_input!(
            "ply match ants needs --map FILE and one --bot per player"
        ));
    };
    let text = crate::input::read_file(map_path, "")?;
    let map = AntsMap::parse(&text).map_err(|e| bad_input!("{}: {e}", map_path.display()))?;
    let mut bots = Vec::new();
    for (i, b) in args.bots.iter().enumerate() {
        let spec = b
            .parse::<AntsSpec>()
            .map_err(|e| bad_input!("--bot {}: {e}", i + 1))?;
        if let AntsSpec::Command(c) = &spec {
            c.check_program(std::env::var_os("PATH").as_deref())
                .map_err(|e| bad_input!("--bot {}: {e}", i + 1))?;
        }
        bots.push(AntsEntrant {
            name: format!("bot{}", i + 1),
            spec_text: b.clone(),
            spec,
        });
    }
    if bots.len() != map.players {
        return Err(bad_input!(
            "the map is for {} players but {} bots were given",
            map.players,
            bots.len()
        ));
    }
    let plan = AntsMatchPlan {
        map,
        bots,
        games: args.games,
        seed: args.seed,
        settings: Settings {
            turns: args.turns,
            ..Settings::default()
        },
        limits: ply_referee::persistent::PersistentLimits::default(),
    };
    if let Some(dir) = &args.replays {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("creating the replay directory {}", dir.display()))?;
    }
    let sandbox = super::arena::sandbox(&args.limits.bot_env, args.limits.jail(), &[])?;
    for (i, b) in plan.bots.iter().enumerate() {
        if let AntsSpec::Command(c) = &b.spec {
            sandbox
                .check_reachable(c, std::env::var_os("PATH").as_deref())
                .map_err(|e| bad_input!("--bot {}: {e}", i + 1))?;
        }
    }
    let sandbox = std::sync::Arc::new(sandbox);
    let mut run = run_ants_match(plan, sandbox).map_err(|e| bad_input!("{e}"))?;
    let mut lines = Vec::new();
    for game in run.by_ref() {
        let game = game.map_err(|e| bad_input!("{e}"))?;
        let replay = match &args.replays {
            Some(dir) => {
                let path = dir.join(format!("game-{:04}.replay", game.number));
                let text = serde_json::to_string(&game.stored)?;
                crate::out::write_new(&path, text.as_bytes(), args.force)?;
                Some(path)
            }
            None => None,
        };
        let seats: Vec<String> = game.seats.iter().map(|b| format!("bot{}", b + 1)).collect();
        let line = serde_json::json!({
            "game": game.number,
            "seats": seats,
            "score": game.result.score,
            "rank": game.result.rank,
            "status": game.result.status.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            "turns": game.result.game_length,
            "cutoff": game.result.cutoff.as_str(),
            "replay": replay,
        });
        if !args.json.on {
            outln!(
                "game {}: seats {}, scores {:?}, {} turns ({})",
                game.number,
                seats.join(" "),
                game.result.score,
                game.result.game_length,
                game.result.cutoff.as_str()
            );
        }
        lines.push(line);
    }
    let standings = run.standings();
    if args.json.on {
        let v = serde_json::json!({
            "game": "ants", "seed": args.seed, "games": lines, "players": standings,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!();
        outln!("bot    games  wins  mean rank     mu  sigma  mu-3sigma  spec");
        for s in &standings {
            outln!(
                "{:<6} {:>5} {:>5} {:>10.2} {:>6.2} {:>6.2} {:>10.2}  {}",
                s.name,
                s.games,
                s.wins,
                s.mean_rank,
                s.mu,
                s.sigma,
                s.skill,
                crate::out::untrusted(&s.spec)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
