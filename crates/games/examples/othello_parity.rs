//! Measures how the values of 8x8 Othello searches swing with the parity of the depth, and
//! derives the tempo that takes the swing out (`ply_games::reversi::tempo`):
//!
//! ```text
//! othello_parity [--games N] [--seed S] [--threads T] [--max-depth D] [--per-game K]
//!                [--eval pattern|tempo] [--probcut on|off] [--derive-from DMIN]
//!                [--compare on|off]
//! ```
//!
//! Plays N games (default 500), game `g` seeded from (S, g) alone: a random opening of 2 to
//! 12 plies, then alpha-beta at depth 2 with the pattern evaluation (as the `othello_probcut`
//! example). From every game it takes K positions (default 4) at random among those with 14
//! to 58 empties, and searches each to every depth 1 to D (default 10) as the bot's
//! iterative deepening does: one search object whose table is kept from depth to depth,
//! ProbCut on unless `--probcut off`, with the `--eval` evaluation (`tempo`: the compiled-in
//! tempo added). Positions whose score at some depth is a proven result keep only the
//! depths before it.
//!
//! Prints, in 1/100 discs, for every depth d and bucket of the root's empties, the mean,
//! standard deviation and count of `value(d + 1) - value(d)` and how often it is positive;
//! then, for every depth d from 3, how often a window of +-W around the value of depth
//! d - 1 (as an aspiration window centred on the last iteration) or of depth d - 2 (the last
//! of the same parity) would have missed the value of depth d. With `--derive-from DMIN`
//! it then prints the tempo table: per phase of the evaluation (by the discs of the leaves
//! of the shallower search, the root's discs plus d), the mean of
//! `(-1)^d (value(d + 1) - value(d)) / 2` over every d from DMIN to D - 1, to paste into
//! `crates/games/src/reversi/tempo.rs` (phases without 30 samples take their neighbour's).
//! With `--compare on` (and `--eval tempo`) every position is searched again with the plain
//! pattern evaluation at every depth, and the table counts how often the two choose
//! different moves.

use std::process::ExitCode;
use std::time::Instant;

use ply_core::Budget;
use ply_games::reversi::pattern::{PHASES, phase};
use ply_games::reversi::{CornersFirst, IndexedOthello, OthelloEval, empties};
use ply_search::{AlphaBeta, Config, Deepening};
use rand::seq::SliceRandom;

#[path = "common/othello_games.rs"]
mod games;
#[path = "common/options.rs"]
mod options;

/// One sampled position: its discs, its values at depths 1, 2, ... (index d - 1) and, with
/// `--compare`, whether the plain pattern evaluation chose another move at each depth.
struct Sample {
    discs: u32,
    values: Vec<i32>,
    differs: Vec<bool>,
}

/// The buckets of the root's empties in the printed tables.
const BUCKETS: [(u32, u32); 5] = [(14, 23), (24, 33), (34, 43), (44, 50), (51, 58)];

/// Aspiration half-widths tried, 1/100 discs.
const WINDOWS: [i32; 3] = [100, 200, 400];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello_parity: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let o = options::Options::parse(args)?;
    let games: u64 = o.num("games", 500)?;
    let seed: u64 = o.num("seed", 1)?;
    let threads: u64 = o.num("threads", 1)?.max(1);
    let max: u32 = o.num("max-depth", 10)?.max(2);
    let per_game: usize = o.num("per-game", 4)?;
    let eval = match o.get("eval").unwrap_or("pattern") {
        "pattern" => OthelloEval::Pattern,
        "tempo" => OthelloEval::Tempo,
        other => return Err(format!("--eval is pattern or tempo, not {other}")),
    };
    let switch = |key: &str| match o.get(key).unwrap_or("off") {
        "on" => Ok(true),
        "off" => Ok(false),
        other => Err(format!("--{key} is on or off, not {other}")),
    };
    let probcut = o.get("probcut").is_none() || switch("probcut")?;
    let compare = switch("compare")?;
    let derive: Option<u32> = o
        .get("derive-from")
        .map(|_| o.num("derive-from", 1))
        .transpose()?;
    let start = Instant::now();
    let samples: Vec<Sample> = games::on_threads(games, threads, |g| {
        sample_game(seed, g, max, per_game, eval, probcut, compare)
    });
    println!(
        "othello_parity --games {games} --seed {seed} --max-depth {max} --per-game {per_game} \
         --eval {eval:?} --probcut {}: {} positions, {:.1} s",
        if probcut { "on" } else { "off" },
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    swing_table(&samples, max);
    aspiration_table(&samples, max);
    if compare {
        println!();
        println!("| depth | positions | another move than the plain patterns' |");
        println!("|---|---|---|");
        for d in 1..=max as usize {
            let rows: Vec<&Sample> = samples.iter().filter(|s| s.differs.len() >= d).collect();
            let n = rows.iter().filter(|s| s.differs[d - 1]).count();
            println!("| {d} | {} | {n} |", rows.len());
        }
    }
    if let Some(from) = derive {
        derive_tempo(&samples, from.max(1), max);
    }
    Ok(())
}

fn mean_sd(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    let m = xs.iter().sum::<f64>() / n;
    let v = xs.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0).max(1.0);
    (m, v.sqrt())
}

fn swing_table(samples: &[Sample], max: u32) {
    println!();
    print!("| d -> d+1 |");
    for (lo, hi) in BUCKETS {
        print!(" empties {lo}-{hi} |");
    }
    println!(" all |");
    println!("|---|{}---|", "---|".repeat(BUCKETS.len()));
    for d in 1..max {
        print!("| {d} -> {} |", d + 1);
        let mut all = Vec::new();
        for (lo, hi) in BUCKETS {
            let xs: Vec<f64> = samples
                .iter()
                .filter(|s| (lo..=hi).contains(&(64 - s.discs)) && s.values.len() > d as usize)
                .map(|s| f64::from(s.values[d as usize] - s.values[d as usize - 1]))
                .collect();
            all.extend_from_slice(&xs);
            print!(" {} |", cell(&xs));
        }
        println!(" {} |", cell(&all));
    }
    println!("\n(each cell: mean, sd, positions, share above 0; 1/100 discs)");
}

fn cell(xs: &[f64]) -> String {
    let (m, sd) = mean_sd(xs);
    let above = xs.iter().filter(|&&x| x > 0.0).count();
    format!(
        "{m:+.0} sd {sd:.0}, {} ({:.0}%)",
        xs.len(),
        100.0 * above as f64 / xs.len().max(1) as f64
    )
}

fn aspiration_table(samples: &[Sample], max: u32) {
    println!();
    print!("| d | positions |");
    for w in WINDOWS {
        print!(" +-{w} on d-1 | +-{w} on d-2 |");
    }
    println!();
    println!("|---|---|{}", "---|---|".repeat(WINDOWS.len()));
    for d in 3..=max as usize {
        let rows: Vec<&Sample> = samples.iter().filter(|s| s.values.len() >= d).collect();
        print!("| {d} | {} |", rows.len());
        for w in WINDOWS {
            let miss = |back: usize| {
                let n = rows
                    .iter()
                    .filter(|s| (s.values[d - 1] - s.values[d - 1 - back]).abs() >= w)
                    .count();
                100.0 * n as f64 / rows.len().max(1) as f64
            };
            print!(" {:.1}% | {:.1}% |", miss(1), miss(2));
        }
        println!();
    }
    println!("\n(share of positions whose value at depth d falls outside the window)");
}

fn derive_tempo(samples: &[Sample], from: u32, max: u32) {
    let mut by_phase: Vec<Vec<f64>> = vec![Vec::new(); PHASES];
    for s in samples {
        for d in from..max {
            if s.values.len() <= d as usize {
                break;
            }
            let swing = f64::from(s.values[d as usize] - s.values[d as usize - 1]);
            let sign = if d % 2 == 0 { 1.0 } else { -1.0 };
            by_phase[phase((s.discs + d).min(64))].push(sign * swing / 2.0);
        }
    }
    let mut tempo: Vec<Option<f64>> = by_phase
        .iter()
        .map(|xs| (xs.len() >= 30).then(|| mean_sd(xs).0))
        .collect();
    println!();
    println!("| phase | leaves' discs | samples | tempo (mean) | sd |");
    println!("|---|---|---|---|---|");
    for (p, xs) in by_phase.iter().enumerate() {
        let (m, sd) = mean_sd(xs);
        println!(
            "| {p} | {}-{} | {} | {m:+.1} | {sd:.1} |",
            4 + 5 * p,
            (8 + 5 * p).min(64),
            xs.len()
        );
    }
    // Phases without enough samples take the nearest fitted one's.
    for p in 0..PHASES {
        if tempo[p].is_none() {
            let near = (1..PHASES).find_map(|k| {
                p.checked_sub(k)
                    .and_then(|q| tempo[q])
                    .or_else(|| tempo.get(p + k).copied().flatten())
            });
            tempo[p] = near;
        }
    }
    let values: Vec<String> = tempo
        .iter()
        .map(|t| format!("{}", t.unwrap_or(0.0).round() as i32))
        .collect();
    println!();
    println!("pub const TEMPO: [i32; PHASES] = [{}];", values.join(", "));
}

/// One game's samples.
fn sample_game(
    seed: u64,
    index: u64,
    max: u32,
    per_game: usize,
    eval: OthelloEval,
    probcut: bool,
    compare: bool,
) -> Vec<Sample> {
    let (positions, mut rng) = games::play(seed, index);
    let mut candidates: Vec<_> = positions
        .into_iter()
        .filter(|s| (14..=58).contains(&empties(s)))
        .collect();
    candidates.shuffle(&mut rng);
    let config = Config {
        tt_bytes: 16 << 20,
        deepening: Deepening::Fixed,
        probcut,
        ..Config::default()
    };
    let mut search = AlphaBeta::with(eval, CornersFirst, config);
    let mut plain = AlphaBeta::with(OthelloEval::Pattern, CornersFirst, config);
    candidates
        .iter()
        .take(per_game)
        .map(|position| {
            let root = IndexedOthello::from(*position);
            search.clear();
            plain.clear();
            let mut values = Vec::new();
            let mut differs = Vec::new();
            for d in 1..=max {
                let r = search.search(&root, Budget::depth(d));
                if r.score.is_proven() {
                    break;
                }
                values.push(r.score.0);
                if compare {
                    differs.push(plain.search(&root, Budget::depth(d)).best != r.best);
                }
            }
            let (black, white) = position.counts();
            Sample {
                discs: black + white,
                values,
                differs,
            }
        })
        .collect()
}
