//! `ply ladder GAME --bot NEW=SPEC --bot OLD=SPEC ...`: the first bot against each of the
//! others in pairs of games from seeded openings, as Elo differences with 95% intervals,
//! stopped early by an SPRT. The ladder is `ply_arena::run_ladder`; this reads the
//! arguments and prints (a table, Markdown for docs/strength.md, or JSON).

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;

use ply_arena::{LadderPlan, LadderRow, MoveTimes, run_ladder};
use ply_rating::elo::{Sprt, SprtVerdict};

use super::arena::{LimitArgs, arena_error, parse_entrants};
use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply ladder tictactoe --bot ab=builtin:alphabeta:depth=2 --bot rand=builtin:random \\\n    \
--bot greedy=builtin:greedy --pairs 20\n  \
ply ladder othello --bot new=builtin:alphabeta:depth=3 --bot old=builtin:alphabeta:depth=2 \\\n    \
--pairs 200 --sprt 0,50 --opening-plies 6 --markdown\n\n\
The first --bot is the challenger; it plays each of the others in pairs of games from one\n\
seeded random opening, once with each colour. Each row gives the challenger's wins, draws and\n\
losses, its Elo difference with a 95% interval (trinomial model) and its likelihood of\n\
superiority. With --sprt ELO0,ELO1 the games against an opponent stop, at a pair boundary,\n\
once the sequential test (alpha = beta = 0.05, Fishtest's normal approximation) accepts\n\
H1 (the challenger is at least ELO1 stronger) or H0 (at most ELO0).")]
#[command(mut_arg("json", |a| a.help("Print the rows as JSON")))]
pub struct LadderArgs {
    /// The game (see `ply games`; it needs a bot format).
    pub game: String,
    /// A bot, as NAME=SPEC (SPEC as in `ply match`): the challenger first, then at least one
    /// opponent.
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true)]
    pub bots: Vec<String>,
    /// Pairs of games against each opponent at most, 1 to 100000.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub pairs: u32,
    /// Random plies of each pair's opening, 0 to 60.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub opening_plies: u32,
    /// Stop against an opponent once the SPRT of H0 "at most ELO0" against H1 "at least ELO1"
    /// decides, e.g. `--sprt 0,10`.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// Seed of the openings and the built-ins' choices.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print a Markdown table with the command, for docs/strength.md.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub json: crate::out::Json,
}

fn parse_sprt(text: &str) -> Result<Sprt> {
    let parsed = text
        .split_once(',')
        .and_then(|(a, b)| Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?)));
    let Some((elo0, elo1)) = parsed else {
        return Err(bad_input!(
            "--sprt {text:?}: write ELO0,ELO1 (two numbers, ELO0 < ELO1), e.g. --sprt 0,10"
        ));
    };
    Sprt::new(elo0, elo1).map_err(|e| bad_input!("--sprt {text:?}: {e}"))
}

pub fn run(args: &LadderArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    if !kind.has_hackerearth_format() {
        return Err(bad_input!(
            "{kind} has no bot format yet; `ply games` marks the games that have one"
        ));
    }
    let mut bots = parse_entrants(&args.bots)?;
    if bots.len() < 2 {
        return Err(bad_input!(
            "a ladder needs the challenger and at least one opponent: two --bot or more"
        ));
    }
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    let challenger = bots.remove(0);
    let plan = LadderPlan {
        game: kind.to_string(),
        challenger,
        opponents: bots,
        pairs: args.pairs,
        opening_plies: args.opening_plies,
        seed: args.seed,
        limits: args.limits.limits()?,
        sprt,
    };
    let sandbox = Arc::new(super::arena::sandbox(
        &args.limits.bot_env,
        args.limits.jail(),
        &[],
    )?);
    for b in std::iter::once(&plan.challenger).chain(&plan.opponents) {
        super::arena::check_reachable(&sandbox, &format!("--bot {}", b.name), &b.spec)?;
    }
    let most = u64::from(args.pairs) * 2 * plan.opponents.len() as u64;
    let bar = crate::out::progress(most, "games");
    let rows = run_ladder(&plan, &sandbox, |row, _| {
        bar.inc(1);
        bar.set_message(format!(
            "{} vs {}: {}",
            plan.challenger.name,
            row.opponent,
            short(row)
        ));
    });
    bar.finish_and_clear();
    let rows = rows.map_err(|e| arena_error(e, "--bot"))?;
    if args.json.on {
        let v = serde_json::json!({
            "game": kind.to_string(),
            "challenger": { "name": plan.challenger.name, "spec": plan.challenger.spec.to_string() },
            "seed": args.seed,
            "opening_plies": args.opening_plies,
            "time_ms": args.limits.time_ms,
            "sprt": sprt,
            "rows": rows,
        });
        outln!("{}", serde_json::to_string_pretty(&v)?);
    } else if args.markdown {
        print_markdown(args, &plan, &rows)?;
    } else {
        outln!(
            "{} ({}) against each opponent, a limit of {} ms a move (a built-in thinks its own ms=), openings of {} random plies:",
            plan.challenger.name,
            plan.challenger.spec,
            args.limits.time_ms,
            args.opening_plies
        );
        for row in &rows {
            outln!("  {:<12} {}", row.opponent, short(row));
            for (fault, n) in &row.faults {
                outln!("  {:<12}   lost by {fault}: {n}", "");
            }
            for (name, t) in [
                (&plan.challenger.name, &row.challenger_times),
                (&row.opponent, &row.opponent_times),
            ] {
                outln!("  {:<12}   {name}'s moves: {}", "", times(t));
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `+35 Elo [+10, +61], 60-20-20, LOS 99.9%, SPRT H1`.
fn short(row: &LadderRow) -> String {
    let elo = match row.estimate {
        Some(e) => format!(
            "{} Elo [{}, {}], LOS {:.1}%",
            signed(e.elo),
            signed(e.low),
            signed(e.high),
            100.0 * e.los
        ),
        None => "no game yet".into(),
    };
    let w = row.wdl;
    let test = match (row.verdict, row.llr) {
        (Some(v), Some(llr)) => format!(", SPRT {} (LLR {llr:.2})", verdict(v)),
        _ => String::new(),
    };
    format!(
        "{} won, {} drawn, {} lost: {elo}{test}",
        w.wins, w.draws, w.losses
    )
}

/// `1024 moves, mean 812.0 ms, 99% within 905.0 ms, slowest 931.0 ms` (`1 move, ...` for one).
fn times(t: &MoveTimes) -> String {
    if t.moves == 0 {
        return "none timed".into();
    }
    let noun = if t.moves == 1 { "move" } else { "moves" };
    format!(
        "{} {noun}, mean {:.1} ms, 99% within {:.1} ms, slowest {:.1} ms",
        t.moves, t.mean_ms, t.p99_ms, t.max_ms
    )
}

fn signed(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{elo:+.0}")
    }
}

fn verdict(v: SprtVerdict) -> &'static str {
    match v {
        SprtVerdict::Continue => "undecided",
        SprtVerdict::AcceptH1 => "H1 accepted",
        SprtVerdict::AcceptH0 => "H0 accepted",
    }
}

fn print_markdown(args: &LadderArgs, plan: &LadderPlan, rows: &[LadderRow]) -> Result<()> {
    // `ply` rather than however the binary was reached, so that the line can be pasted.
    let command: Vec<String> = std::iter::once("ply".to_string())
        .chain(std::env::args().skip(1))
        .map(|a| {
            if a.contains([' ', '\'', '"', '$', '*']) {
                format!("'{}'", a.replace('\'', r"'\''"))
            } else {
                a
            }
        })
        .collect();
    outln!("```sh\n{}\n```\n", command.join(" "));
    outln!(
        "{} (`{}`), a limit of {} ms a move (a built-in thinks its own `ms=`), pairs of games from openings of {} random plies (seed {}):\n",
        plan.challenger.name,
        plan.challenger.spec,
        args.limits.time_ms,
        args.opening_plies,
        args.seed
    );
    outln!("| opponent | games | won | drawn | lost | score | Elo | 95% interval | LOS | SPRT |");
    outln!("|---|---|---|---|---|---|---|---|---|---|");
    for row in rows {
        let w = row.wdl;
        let score = w
            .score()
            .map_or("-".into(), |s| format!("{:.1}%", 100.0 * s));
        let (elo, interval, los) = match row.estimate {
            Some(e) => (
                signed(e.elo),
                format!("[{}, {}]", signed(e.low), signed(e.high)),
                format!("{:.1}%", 100.0 * e.los),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        let test = row.verdict.map_or("-", verdict);
        outln!(
            "| {} (`{}`) | {} | {} | {} | {} | {score} | {elo} | {interval} | {los} | {test} |",
            row.opponent,
            row.spec,
            w.games(),
            w.wins,
            w.draws,
            w.losses
        );
    }
    let faults: Vec<String> = rows
        .iter()
        .flat_map(|row| {
            row.faults.iter().map(move |(fault, n)| {
                // The key is "side: verdict"; say who lost how many, in which pairing.
                let (who, verdict) = fault.split_once(": ").unwrap_or(("?", fault));
                let games = if *n == 1 { "game" } else { "games" };
                format!(
                    "{who} lost {n} {games} by {verdict} ({} against {})",
                    plan.challenger.name, row.opponent
                )
            })
        })
        .collect();
    if faults.is_empty() {
        outln!("\nNo game was lost by a fault (time, crash, illegal or unreadable move).");
    } else {
        outln!("\nGames lost by a fault: {}.", faults.join("; "));
    }
    outln!("\nThe referee's wall time of each move, opening moves left out:\n");
    for row in rows {
        for (name, other, t) in [
            (&plan.challenger.name, &row.opponent, &row.challenger_times),
            (&row.opponent, &plan.challenger.name, &row.opponent_times),
        ] {
            outln!("- {name} against {other}: {}", times(t));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    // The arena builds these from real games (its list of times is private), so set the
    // public summary by hand.
    #[allow(clippy::field_reassign_with_default)]
    fn timed(moves: u32) -> MoveTimes {
        let mut t = MoveTimes::default();
        t.moves = moves;
        t.mean_ms = 812.0;
        t.p99_ms = 905.0;
        t.max_ms = 931.0;
        t
    }

    #[test]
    fn move_times_read_as_english() {
        assert_eq!(times(&timed(0)), "none timed");
        assert_eq!(
            times(&timed(1)),
            "1 move, mean 812.0 ms, 99% within 905.0 ms, slowest 931.0 ms"
        );
        assert_eq!(
            times(&timed(1024)),
            "1024 moves, mean 812.0 ms, 99% within 905.0 ms, slowest 931.0 ms"
        );
    }
}
