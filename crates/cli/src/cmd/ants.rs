//! `ply ants play` (in-process built-in bots) and `ply ants mapgen`.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};

use ply_games::ants::bot::{BuiltinBot, play_in_process};
use ply_games::ants::mapgen::{MapGenParams, generate};
use ply_games::ants::{AntsGame, AntsMap, AntsMatch, FoodMode, Scoring, Settings};

use crate::bad_input;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  ply ants mapgen --players 2 --rows 30 --cols 60 -o duel.map\n  \
ply ants play --map duel.map builtin:hunter builtin:random --engine-seed 1 --player-seed 7"
)]
pub struct AntsArgs {
    #[command(subcommand)]
    pub command: AntsCommand,
}

#[derive(Debug, Subcommand)]
pub enum AntsCommand {
    /// Play a game of Ants with built-in bots, in-process.
    #[command(after_help = "Example:\n  ply ants mapgen --seed 3 > maze.map\n  \
ply ants play --map maze.map builtin:hunter builtin:hunter builtin:random builtin:hold \\\n    \
--turns 500 --engine-seed 1 --replay game.replay --log-dir logs\n\n\
Bots: builtin:hunter (food by BFS, exploration, hill attack and defence, battle awareness),\n\
builtin:random, builtin:hold. External bot commands run under the referee, not here.")]
    Play(PlayArgs),
    /// Generate a symmetric, connected maze map in the original format.
    #[command(
        after_help = "Example:\n  ply ants mapgen --players 4 --rows 60 --cols 90 --seed 7 -o maze.map"
    )]
    Mapgen(MapgenArgs),
}

/// Food spawning modes (the original's `--food`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FoodArg {
    /// No food beyond the map's.
    None,
    /// At the same oriented offset from every start (needs a symmetric map).
    Symmetric,
    /// Anywhere on free land.
    Random,
    /// In each player's starting section.
    Sections,
}

/// Scoring rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScoringArg {
    /// Hills: +2 for razing, -1 for losing a hill (the final rules).
    Hills,
    /// The beta era: 1 per spawned ant, 2 per kill shared among the killers.
    Beta,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The map file (original format).
    #[arg(long)]
    pub map: PathBuf,
    /// One bot per player: builtin:hunter, builtin:random or builtin:hold.
    #[arg(required = true)]
    pub bots: Vec<String>,
    /// Turn limit.
    #[arg(long, default_value_t = 1000)]
    pub turns: u32,
    /// Time per turn told to bots, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    pub turntime: u32,
    /// Time for the setup told to bots, in milliseconds.
    #[arg(long, default_value_t = 3000)]
    pub loadtime: u32,
    /// Seed of the engine's random choices (default: a fresh one, printed).
    #[arg(long)]
    pub engine_seed: Option<i64>,
    /// Seed told to the bots (default: a fresh one, printed).
    #[arg(long)]
    pub player_seed: Option<i64>,
    /// Use the map's ants and food as given.
    #[arg(long)]
    pub scenario: bool,
    /// Food spawning.
    #[arg(long, value_enum, default_value = "symmetric")]
    pub food: FoodArg,
    /// Scoring rules.
    #[arg(long, value_enum, default_value = "hills")]
    pub scoring: ScoringArg,
    /// Strict mode: an invalid order eliminates the bot.
    #[arg(long)]
    pub strict: bool,
    /// Write the replay (the original's result JSON with revision-3 replay data) here.
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// Write botN.input and botN.output here (every byte sent to seat N, and its orders as
    /// the original's -O log).
    #[arg(long)]
    pub log_dir: Option<PathBuf>,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct MapgenArgs {
    /// Players, 2 to 10.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Rows.
    #[arg(long, default_value_t = 60)]
    pub rows: usize,
    /// Columns.
    #[arg(long, default_value_t = 90)]
    pub cols: usize,
    /// Corridor width.
    #[arg(long, default_value_t = 2)]
    pub corridor: usize,
    /// Fraction of maze walls knocked down, 0 to 1.
    #[arg(long, default_value_t = 0.15)]
    pub openness: f64,
    /// Hills per player.
    #[arg(long, default_value_t = 1)]
    pub hills: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &AntsArgs) -> Result<ExitCode> {
    match &args.command {
        AntsCommand::Play(a) => play(a),
        AntsCommand::Mapgen(a) => mapgen(a),
    }
}

fn fresh_seed() -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % 1_000_000_007) as i64
}

fn play(a: &PlayArgs) -> Result<ExitCode> {
    let text =
        fs::read_to_string(&a.map).with_context(|| format!("reading {}", a.map.display()))?;
    let map = AntsMap::parse(&text).map_err(|e| bad_input!("{}: {e}", a.map.display()))?;
    if a.bots.len() != map.players {
        return Err(bad_input!(
            "the map is for {} players but {} bots were given",
            map.players,
            a.bots.len()
        ));
    }
    let mut kinds = Vec::new();
    for b in &a.bots {
        let Some(name) = b.strip_prefix("builtin:") else {
            return Err(bad_input!(
                "{b:?}: only built-in bots (builtin:hunter, builtin:random, builtin:hold) \
                 play in-process here; external bot commands run under the referee"
            ));
        };
        kinds.push(name.parse::<BuiltinBot>().map_err(|e| bad_input!("{e}"))?);
    }
    let engine_seed = a.engine_seed.unwrap_or_else(fresh_seed);
    let player_seed = a.player_seed.unwrap_or_else(fresh_seed);
    if a.engine_seed.is_none() || a.player_seed.is_none() {
        eprintln!("engine seed {engine_seed}, player seed {player_seed}");
    }
    let settings = Settings {
        turns: a.turns,
        turntime: a.turntime,
        loadtime: a.loadtime,
        engine_seed,
        player_seed,
        scenario: a.scenario,
        food: match a.food {
            FoodArg::None => FoodMode::None,
            FoodArg::Symmetric => FoodMode::Symmetric,
            FoodArg::Random => FoodMode::Random,
            FoodArg::Sections => FoodMode::Sections,
        },
        scoring: match a.scoring {
            ScoringArg::Hills => Scoring::Hills,
            ScoringArg::Beta => Scoring::Beta,
        },
        strict: a.strict,
        ..Settings::default()
    };
    let game = AntsGame::new(&map, settings).map_err(|e| bad_input!("{e}"))?;
    let mut m = AntsMatch::new(game);
    let mut bots: Vec<_> = kinds
        .iter()
        .enumerate()
        .map(|(i, k)| k.create(i as u64))
        .collect();
    let n = map.players;
    let mut inputs: Vec<String> = (0..n).map(|b| m.pending(b).to_string()).collect();
    let logging = a.log_dir.is_some();
    play_in_process(&mut m, &mut bots, |m, _| {
        if logging {
            for (b, s) in inputs.iter_mut().enumerate() {
                s.push_str(m.pending(b));
            }
        }
    });
    if let Some(dir) = &a.log_dir {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        for (b, input) in inputs.iter().enumerate() {
            fs::write(dir.join(format!("bot{b}.input")), input)?;
            fs::write(dir.join(format!("bot{b}.output")), m.output_log(b))?;
        }
    }
    let names: Vec<String> = a.bots.clone();
    let result = m.result_json(&names).context("the game did not finish")?;
    if let Some(path) = &a.replay {
        fs::write(path, serde_json::to_string(&result)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let r = m.result().context("the game did not finish")?;
    if a.json {
        let mut v = result;
        if let Some(o) = v.as_object_mut() {
            o.remove("replaydata");
            o.insert("cutoff".into(), r.cutoff.as_str().into());
        }
        println!("{v}");
    } else {
        println!("{} turns, ended by {}", r.game_length, r.cutoff.as_str());
        println!(
            "{:<6} {:<16} {:>5} {:>5}  {:<10} turns",
            "seat", "bot", "rank", "score", "status"
        );
        for b in 0..n {
            println!(
                "{:<6} {:<16} {:>5} {:>5}  {:<10} {}",
                b + 1,
                a.bots[b],
                r.rank[b] + 1,
                r.score[b],
                r.status[b],
                r.player_turns[b]
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn mapgen(a: &MapgenArgs) -> Result<ExitCode> {
    let p = MapGenParams {
        players: a.players,
        rows: a.rows,
        cols: a.cols,
        corridor: a.corridor,
        openness: a.openness,
        hills: a.hills,
    };
    let map = generate(&p, a.seed).map_err(|e| bad_input!("{e}"))?;
    let text = map.to_text();
    match &a.output {
        Some(path) => {
            fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
