//! `ply leaderboard`: the standings of a stored tournament.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use ply_store::{Standing, StoreError, Tournament};

use super::arena::open_any_store_read_only;
use crate::bad_input;
use crate::out::Count;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  ply leaderboard\n  ply leaderboard --tournament 2 --json\n\n\
Score is HackerEarth's: 100 x rating / best rating. An Ants tournament shows TrueSkill\n\
instead: mu, sigma and mu - 3 sigma (by which it is ranked), W and L games ranked first or not."
)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct LeaderboardArgs {
    /// The database file (default: arena.sqlite3 in the platform's data directory, or
    /// PLY_DB), or a PostgreSQL URL.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Which tournament (default: the newest).
    #[arg(long)]
    pub tournament: Option<i64>,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &LeaderboardArgs) -> Result<ExitCode> {
    // Read-only: the leaderboard works on a database in a read-only directory, and creates
    // nothing when there is none.
    let (store, path) = open_any_store_read_only(args.db.as_ref())?;
    let Some(store) = store else {
        return no_tournaments(&path, args.json.on);
    };
    let t = match store.tournament(args.tournament) {
        Err(StoreError::NoTournament(_)) if args.tournament.is_none() => {
            return no_tournaments(&path, args.json.on);
        }
        Err(StoreError::NoTournament(id)) => {
            return Err(bad_input!(
                "{path} holds no tournament #{id}; `ply leaderboard` without --tournament shows \
                 the newest"
            ));
        }
        other => other.context("reading the tournament")?,
    };
    let standings = store.standings(t.id)?;
    print_standings(&t, &standings, args.json.on)?;
    Ok(ExitCode::SUCCESS)
}

/// An empty leaderboard: no database, or no tournament in it.
fn no_tournaments(path: &str, json: bool) -> Result<ExitCode> {
    if json {
        let v = serde_json::json!({ "tournament": null, "standings": [] });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else {
        outln!("no tournaments yet in {path}; `ply tournament` starts one");
    }
    Ok(ExitCode::SUCCESS)
}

/// What the table's columns mean, under it.
const SCORE_NOTE: &str = "rating, dev, vol: Glicko-2 rating, deviation and volatility; \
score: 100 x rating / the best rating (HackerEarth's)";

/// Prints the leaderboard as a table, or as JSON.
pub fn print_standings(t: &Tournament, standings: &[Standing], json: bool) -> Result<()> {
    if t.config.ants.is_some() {
        return print_trueskill(t, standings, json);
    }
    let best = standings
        .iter()
        .map(|s| s.rating.rating)
        .fold(f64::MIN, f64::max);
    if json {
        let rows: Vec<_> = standings
            .iter()
            .enumerate()
            .map(|(i, s)| {
                serde_json::json!({
                    "rank": i + 1, "bot": s.bot, "spec": s.spec,
                    "rating": s.rating.rating, "deviation": s.rating.deviation,
                    "volatility": s.rating.volatility,
                    "wins": s.wins, "draws": s.draws, "losses": s.losses,
                    "score": ply_rating::score(s.rating.rating, best),
                })
            })
            .collect();
        let v = serde_json::json!({
            "tournament": t.id, "game": t.config.game, "rounds": t.config.rounds,
            "finished": t.finished, "standings": rows,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    outln!(
        "Tournament #{} ({}, {}{}), created {}",
        t.id,
        t.config.game,
        Count(u64::from(t.config.rounds), "round"),
        if t.finished { "" } else { ", unfinished" },
        t.created
    );
    outln!(
        "{:>4}  {:<16} {:>7} {:>6} {:>8} {:>4} {:>4} {:>4} {:>6}",
        "rank",
        "bot",
        "rating",
        "dev",
        "vol",
        "W",
        "D",
        "L",
        "score"
    );
    for (i, s) in standings.iter().enumerate() {
        outln!(
            "{:>4}  {:<16} {:>7.1} {:>6.1} {:>8.5} {:>4} {:>4} {:>4} {:>6.1}",
            i + 1,
            s.bot,
            s.rating.rating,
            s.rating.deviation,
            s.rating.volatility,
            s.wins,
            s.draws,
            s.losses,
            ply_rating::score(s.rating.rating, best)
        );
    }
    outln!("{SCORE_NOTE}");
    Ok(())
}

/// An Ants tournament's leaderboard: TrueSkill (the store keeps mu as the rating and sigma
/// as the deviation), sorted by mu - 3 sigma; W and L count games ranked first or not.
fn print_trueskill(t: &Tournament, standings: &[Standing], json: bool) -> Result<()> {
    let skill = |s: &Standing| s.rating.rating - 3.0 * s.rating.deviation;
    if json {
        let rows: Vec<_> = standings
            .iter()
            .enumerate()
            .map(|(i, s)| {
                serde_json::json!({
                    "rank": i + 1, "bot": s.bot, "spec": s.spec,
                    "mu": s.rating.rating, "sigma": s.rating.deviation, "skill": skill(s),
                    "wins": s.wins, "losses": s.losses,
                })
            })
            .collect();
        let v = serde_json::json!({
            "tournament": t.id, "game": t.config.game, "rounds": t.config.rounds,
            "finished": t.finished, "rating": "trueskill", "standings": rows,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(());
    }
    outln!(
        "Tournament #{} ({}, {}{}), created {}",
        t.id,
        t.config.game,
        Count(u64::from(t.config.rounds), "round"),
        if t.finished { "" } else { ", unfinished" },
        t.created
    );
    outln!(
        "{:>4}  {:<16} {:>7} {:>6} {:>9} {:>4} {:>4}",
        "rank",
        "bot",
        "mu",
        "sigma",
        "mu-3sigma",
        "W",
        "L"
    );
    for (i, s) in standings.iter().enumerate() {
        outln!(
            "{:>4}  {:<16} {:>7.2} {:>6.2} {:>9.2} {:>4} {:>4}",
            i + 1,
            s.bot,
            s.rating.rating,
            s.rating.deviation,
            skill(s),
            s.wins,
            s.losses
        );
    }
    outln!(
        "mu, sigma: TrueSkill on each game's full ranking; mu-3sigma: the conservative skill, \
         by which bots are ranked; W: games ranked first (ties included), L: the others"
    );
    Ok(())
}
