//! Fits the ProbCut regressions of 8x8 Othello (`ply_games::reversi::probcut`) from ply's
//! own self-play:
//!
//! ```text
//! othello_probcut [--games N] [--seed S] [--threads T] [--max-depth D]
//! ```
//!
//! Plays N games (default 400), game `g` seeded from (S, g) alone: a random opening of 2 to
//! 12 plies, then alpha-beta at depth 2 with the pattern evaluation. From every game it takes
//! one position per bucket of empties ([`probcut::BUCKET_EMPTIES`]) at random, searches it
//! with the plain alpha-beta (no ProbCut; the built-in's table, kept from depth to depth as
//! iterative deepening does) to every depth 1 to D (default 10), and then fits, per bucket
//! and per depth d from [`probcut::MIN_DEPTH`] to D, `deep = a * shallow + b` by least
//! squares, where deep is the score at depth d and shallow the score at
//! [`probcut::shallow_depth`]`(d)`; sigma is the residuals' standard deviation. Positions
//! whose scores include a proven result are left out. Prints the table as Rust, to paste into
//! `crates/games/src/reversi/probcut.rs`.

use std::process::ExitCode;
use std::time::Instant;

use ply_core::Budget;
use ply_games::reversi::{CornersFirst, IndexedOthello, Othello, OthelloEval, empties, probcut};
use ply_search::{AlphaBeta, Config, Deepening};
use rand::seq::IndexedRandom;

#[path = "common/othello_games.rs"]
mod games;
#[path = "common/options.rs"]
mod options;

/// Scores at depths 1..=max (index d-1) of one sampled position, and its bucket.
type Sample = (usize, Vec<i32>);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello_probcut: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let opts = options::Options::parse(args)?;
    let games: u64 = opts.num("games", 400)?;
    let seed: u64 = opts.num("seed", 1)?;
    let threads: u64 = opts.num("threads", 1)?;
    let max: u32 = opts.num("max-depth", 10)?;
    let start = Instant::now();
    let samples: Vec<Sample> = games::on_threads(games, threads, |g| sample_game(seed, g, max));
    eprintln!(
        "{games} games, {} positions in {:.1} s",
        samples.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "// othello_probcut --games {games} --seed {seed} --max-depth {max}: {} positions",
        samples.len()
    );
    println!("pub const FITTED: [[Fit; {}]; BUCKETS] = [", max + 1);
    for bucket in 0..probcut::BUCKETS {
        println!("    // empties {:?}", probcut::BUCKET_EMPTIES[bucket]);
        println!("    [");
        for d in 0..=max {
            if d < probcut::MIN_DEPTH {
                println!("        Fit::NONE,");
                continue;
            }
            let shallow = probcut::shallow_depth(d);
            let pairs: Vec<(f64, f64)> = samples
                .iter()
                .filter(|(b, _)| *b == bucket)
                .map(|(_, s)| {
                    (
                        f64::from(s[shallow as usize - 1]),
                        f64::from(s[d as usize - 1]),
                    )
                })
                .collect();
            let (a, b, sigma) = regress(&pairs);
            println!(
                "        Fit {{ a: {a:.3}, b: {b:.1}, sigma: {sigma:.1} }}, // d {d} from {shallow}, {} positions",
                pairs.len()
            );
        }
        println!("    ],");
    }
    println!("];");
    Ok(())
}

/// Least squares `y = a x + b` and the residuals' standard deviation.
fn regress(pairs: &[(f64, f64)]) -> (f64, f64, f64) {
    let n = pairs.len() as f64;
    if pairs.len() < 3 {
        return (1.0, 0.0, f64::INFINITY);
    }
    let mx = pairs.iter().map(|p| p.0).sum::<f64>() / n;
    let my = pairs.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let a = if sxx > 0.0 { sxy / sxx } else { 1.0 };
    let b = my - a * mx;
    let ss: f64 = pairs
        .iter()
        .map(|p| {
            let r = p.1 - (a * p.0 + b);
            r * r
        })
        .sum();
    (a, b, (ss / (n - 2.0)).sqrt())
}

/// One game's samples: a position per bucket, with its scores at every depth.
fn sample_game(seed: u64, index: u64, max: u32) -> Vec<Sample> {
    let (positions, mut rng) = games::play(seed, index);
    let mut by_bucket: Vec<Vec<Othello>> = vec![Vec::new(); probcut::BUCKETS];
    for state in positions {
        if let Some(b) = probcut::bucket(empties(&state)) {
            by_bucket[b].push(state);
        }
    }
    let config = Config {
        tt_bytes: 4 << 20,
        deepening: Deepening::Fixed,
        ..Config::default()
    };
    let mut search = AlphaBeta::with(OthelloEval::Pattern, CornersFirst, config);
    let mut out = Vec::new();
    for (bucket, positions) in by_bucket.iter().enumerate() {
        let Some(position) = positions.choose(&mut rng) else {
            continue;
        };
        search.clear();
        let scores: Vec<i32> = (1..=max)
            .map(|d| {
                search
                    .search(&IndexedOthello::from(*position), Budget::depth(d))
                    .score
            })
            .take_while(|s| !s.is_proven())
            .map(|s| s.0)
            .collect();
        if scores.len() == max as usize {
            out.push((bucket, scores));
        }
    }
    out
}
