//! `ply tournament GAME --bot NAME=SPEC ...`: a rated round robin, stored as it goes.

use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use clap::Args;

use ply_core::Seat;
use ply_games::{HackerEarth, Heuristics, with_hackerearth_game};
use ply_rating::{GameResult, Rating, rate_period, round_robin};
use ply_referee::game::run_parallel;
use ply_referee::process::MemoryGuard;
use ply_referee::{PlayerSpec, Sandbox, play_game};
use ply_store::{BotEntry, GameRecord, Store, TournamentConfig};

use super::arena::{LimitArgs, game_seed, open_store, player_spec};
use super::leaderboard::print_standings;
use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply tournament tictactoe --bot rand=builtin:random --bot greedy=builtin:greedy \\\n    \
--bot ab=builtin:alphabeta:ms=20 --bot mcts=builtin:mcts:ms=20 --rounds 3\n  \
ply tournament tictactoe --bot mine='python3 bot.py' --bot ab=builtin:alphabeta --concurrency 2\n\n\
Each round every pair of bots plays twice, each moving first once (HackerEarth's format);\n\
ratings are Glicko-2 with one rating period per round. Every finished game is stored at once:\n\
run the same command again after an interruption and the tournament resumes where it stopped.")]
pub struct TournamentArgs {
    /// The game (see `ply games`; it needs a bot format).
    pub game: String,
    /// A bot, as NAME=SPEC (SPEC as in `ply match`); at least two.
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true)]
    pub bots: Vec<String>,
    /// Rounds to play.
    #[arg(long, default_value_t = 3)]
    pub rounds: u32,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed from which every game's seed derives; part of the tournament's identity.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The database file (default: arena.sqlite3 in the platform's data directory).
    #[arg(long)]
    pub db: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print the final standings as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: &TournamentArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    with_hackerearth_game!(kind, G => tournament::<G>(args)).unwrap_or_else(|| {
        Err(bad_input!(
            "{kind} has no bot format yet; `ply games` marks the games that have one"
        ))
    })
}

fn parse_bots(args: &TournamentArgs) -> Result<Vec<(BotEntry, PlayerSpec)>> {
    let mut bots: Vec<(BotEntry, PlayerSpec)> = Vec::new();
    for text in &args.bots {
        let (name, spec) = text.split_once('=').ok_or_else(|| {
            bad_input!("--bot {text:?}: write NAME=SPEC, e.g. --bot ab=builtin:alphabeta")
        })?;
        let name = name.trim();
        if name.is_empty() {
            return Err(bad_input!("--bot {text:?}: the name before `=` is empty"));
        }
        if bots.iter().any(|(b, _)| b.name == name) {
            return Err(bad_input!("--bot {text:?}: two bots are named {name:?}"));
        }
        let parsed = player_spec("--bot", spec)?;
        bots.push((
            BotEntry {
                name: name.to_string(),
                spec: parsed.to_string(),
            },
            parsed,
        ));
    }
    if bots.len() < 2 {
        return Err(bad_input!("a tournament needs at least two --bot"));
    }
    Ok(bots)
}

struct Job {
    round: u32,
    slot: u32,
    first: usize,
    second: usize,
}

fn tournament<G: HackerEarth + Heuristics>(args: &TournamentArgs) -> Result<ExitCode> {
    let bots = parse_bots(args)?;
    if args.rounds == 0 {
        return Err(bad_input!("--rounds must be at least 1"));
    }
    let limits = args.limits.limits()?;
    let probe = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
    for (entry, spec) in &bots {
        // Refuse a built-in that cannot play this game before anything is stored.
        spec.build::<G>(&entry.name, 0, &probe, &limits)
            .map_err(|e| bad_input!("--bot {}: {e}", entry.name))?;
    }
    let config = TournamentConfig {
        game: G::info().name.to_string(),
        bots: bots.iter().map(|(b, _)| b.clone()).collect(),
        rounds: args.rounds,
        time_ms: args.limits.time_ms,
        memory: limits.memory,
        seed: args.seed,
    };
    let (mut store, path) = open_store(args.db.as_ref())?;
    let t = store
        .open_tournament(&config)
        .context("opening the tournament")?;
    let stored = store.games(t.id)?;
    let done: HashSet<(u32, u32)> = stored.iter().map(|g| (g.round, g.slot)).collect();
    let pairings = round_robin(bots.len());
    let total = u64::from(args.rounds) * pairings.len() as u64;
    if done.is_empty() {
        eprintln!(
            "tournament #{} in {}: {} bots, {} rounds, {} games",
            t.id,
            path.display(),
            bots.len(),
            args.rounds,
            total
        );
    } else {
        eprintln!(
            "resuming tournament #{} in {}: {} of {} games already played",
            t.id,
            path.display(),
            done.len(),
            total
        );
    }
    let bar = indicatif::ProgressBar::new(total);
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} {msg}")
            .expect("a valid template"),
    );
    bar.set_position(done.len() as u64);
    let sandbox = Arc::new(Sandbox::detect());
    let specs: Vec<PlayerSpec> = bots.iter().map(|(_, s)| s.clone()).collect();
    let names: Vec<String> = bots.iter().map(|(b, _)| b.name.clone()).collect();
    for round in 1..=args.rounds {
        let jobs: Vec<Job> = pairings
            .iter()
            .enumerate()
            .filter(|(slot, _)| !done.contains(&(round, *slot as u32)))
            .map(|(slot, p)| Job {
                round,
                slot: slot as u32,
                first: p.first,
                second: p.second,
            })
            .collect();
        let mut failure = None;
        run_parallel(
            jobs,
            args.concurrency,
            |job| play::<G>(&job, &specs, &names, &sandbox, &limits, args.seed),
            |record| match record.and_then(|r| Ok(store.record_game(t.id, &r)?)) {
                Ok(_) => {
                    bar.inc(1);
                    true
                }
                Err(e) => {
                    failure.get_or_insert(e);
                    false
                }
            },
        );
        if let Some(e) = failure {
            bar.abandon();
            return Err(e.context(format!("playing round {round}")));
        }
        let ratings = ratings_after(&store.games(t.id)?, bots.len(), round);
        store.record_ratings(t.id, round, &ratings)?;
        bar.set_message(format!("round {round} rated"));
    }
    bar.finish_and_clear();
    store.finish(t.id)?;
    let t = store.tournament(Some(t.id))?;
    let standings = store.standings(t.id)?;
    print_standings(&t, &standings, args.json)?;
    Ok(ExitCode::SUCCESS)
}

fn play<G: HackerEarth + Heuristics>(
    job: &Job,
    specs: &[PlayerSpec],
    names: &[String],
    sandbox: &Arc<Sandbox>,
    limits: &ply_referee::Limits,
    seed: u64,
) -> Result<GameRecord> {
    let seed = game_seed(seed, job.round, job.slot);
    let entries = [job.first, job.second];
    let mut bots = Vec::new();
    for (s, &e) in entries.iter().enumerate() {
        bots.push(
            specs[e]
                .build::<G>(&names[e], seed.wrapping_add(s as u64), sandbox, limits)
                .map_err(|e| bad_input!("{e}"))?,
        );
    }
    let seat_specs: Vec<String> = entries.iter().map(|&e| specs[e].to_string()).collect();
    let replay = play_game::<G>(&mut bots, &seat_specs, seed);
    Ok(GameRecord {
        round: job.round,
        slot: job.slot,
        first: job.first,
        second: job.second,
        first_score: replay.outcome.payoff(Seat::FIRST, 2),
        result: replay.result.clone(),
        replay: serde_json::to_string(&replay)?,
    })
}

/// Every bot's rating after `last_round`, from the stored games alone: one Glicko-2 period
/// per round, each game rated against the opponent's rating at the start of the round.
/// Recomputed from scratch, so that a resumed tournament rates exactly as an unbroken one.
fn ratings_after(games: &[GameRecord], bots: usize, last_round: u32) -> Vec<Rating> {
    let mut ratings = vec![Rating::default(); bots];
    for round in 1..=last_round {
        let mut results: Vec<Vec<GameResult>> = vec![Vec::new(); bots];
        for g in games.iter().filter(|g| g.round == round) {
            results[g.first].push(GameResult {
                opponent: ratings[g.second],
                score: g.first_score,
            });
            results[g.second].push(GameResult {
                opponent: ratings[g.first],
                score: 1.0 - g.first_score,
            });
        }
        ratings = ratings
            .iter()
            .zip(&results)
            .map(|(&r, games)| rate_period(r, games))
            .collect();
    }
    ratings
}
