//! Time to depth of the lazy-SMP search on 8x8 Othello midgame positions:
//!
//! ```text
//! othello_smp [--positions N] [--seed S] [--depth D | --ms MS] [--threads T] [--hash-mb M] [--scheme ahead|defer]
//! ```
//!
//! Takes one position of 30 to 44 empties (chosen by the game's own generator) from each of
//! N (default 24) seeded self-play games (`common/othello_games.rs`: a random opening of 2
//! to 12 plies, then alpha-beta at depth 2), and searches each as the built-in bot does (the
//! pattern evaluation, ProbCut, corners-first ordering, a fresh table of M MB (default 16,
//! `ply bot`'s), iterative deepening) to depth D (default 10) with 1 thread and then with T
//! threads (default 2), alternately, the threads dividing the work by `--scheme` (default
//! the search's own default, [`SmpScheme`]). With `--ms MS` each search has MS milliseconds
//! instead of a depth (as `ply bot` has its second), and the table shows the depth each
//! finished and its nodes. Prints per position and in total the wall time and the nodes of every
//! thread until the search returns its depth-D answer, and the speed-up (the one-thread
//! time over the T-thread time). The nodes are a count; the times are timings: run it on
//! idle cores.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use ply_core::Budget;
use ply_games::reversi::{CornersFirst, IndexedOthello, OthelloEval, empties};
use ply_search::{AlphaBeta, Config, SmpScheme};
use rand::seq::IndexedRandom;

#[path = "common/othello_games.rs"]
#[allow(dead_code)] // `on_threads` is for the other examples
mod games;
#[path = "common/options.rs"]
mod options;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello_smp: {e}");
            ExitCode::from(2)
        }
    }
}

/// Wall time, nodes and the depth finished of one search of `root` to `depth` (or for `ms`
/// milliseconds) on `threads` threads.
fn time_to_depth(
    root: &IndexedOthello,
    depth: u32,
    threads: usize,
    hash_mb: usize,
    smp: SmpScheme,
    ms: Option<u64>,
) -> (Duration, u64, u32) {
    let config = Config {
        threads,
        smp,
        tt_bytes: hash_mb << 20,
        probcut: true,
        ..Config::default()
    };
    let mut search = AlphaBeta::with(OthelloEval::Pattern, CornersFirst, config);
    let start = Instant::now();
    let budget = match ms {
        Some(ms) => Budget::time(Duration::from_millis(ms)),
        None => Budget::depth(depth),
    };
    let r = search.search_parallel(root, budget);
    (start.elapsed(), r.nodes, r.depth)
}

fn run(args: &[String]) -> Result<(), String> {
    let opts = options::Options::parse(args)?;
    let positions: u64 = opts.num("positions", 24)?;
    let seed: u64 = opts.num("seed", 38)?;
    let depth: u32 = opts.num("depth", 10)?;
    let threads: usize = opts.num("threads", 2)?;
    let ms: Option<u64> = opts.get("ms").map(|_| opts.num("ms", 0)).transpose()?;
    let hash_mb: usize = opts.num("hash-mb", 16)?;
    let scheme = match opts.get("scheme") {
        None => SmpScheme::default(),
        Some("ahead") => SmpScheme::Ahead,
        Some("defer") => SmpScheme::Defer,
        Some(other) => return Err(format!("--scheme {other}: use ahead or defer")),
    };
    if depth == 0 || threads < 2 || !(1..=4096).contains(&hash_mb) {
        return Err(
            "--depth must be at least 1, --threads at least 2 and --hash-mb 1 to 4096".into(),
        );
    }
    if ms.is_some() {
        println!(
            "| position | empties | 1 thread depth | 1 thread nodes | {threads} threads depth | {threads} threads nodes |"
        );
    } else {
        println!(
            "| position | empties | 1 thread ms | 1 thread nodes | {threads} threads ms | {threads} threads nodes | speed-up |"
        );
    }
    println!(
        "|---|---|---|---|---|---|{}",
        if ms.is_some() { "" } else { "---|" }
    );
    let (mut t1, mut tn, mut n1, mut nn) = (0.0, 0.0, 0u64, 0u64);
    let (mut d1, mut dn, mut counted) = (0u32, 0u32, 0u32);
    let mut log_speedup = 0.0;
    for g in 0..positions {
        let (played, mut rng) = games::play(seed, g);
        let midgame: Vec<_> = played
            .into_iter()
            .filter(|s| (30..=44).contains(&empties(s)))
            .collect();
        let Some(position) = midgame.choose(&mut rng) else {
            continue;
        };
        let root = IndexedOthello::from(*position);
        let (a, na, da) = time_to_depth(&root, depth, 1, hash_mb, scheme, ms);
        let (b, nb, db) = time_to_depth(&root, depth, threads, hash_mb, scheme, ms);
        n1 += na;
        nn += nb;
        counted += 1;
        if ms.is_some() {
            println!(
                "| {g} | {} | {da} | {na} | {db} | {nb} |",
                empties(position)
            );
            d1 += da;
            dn += db;
            continue;
        }
        if da < depth.min(empties(position)) || db < depth.min(empties(position)) {
            eprintln!("position {g}: reached depths {da} and {db}");
        }
        let (a, b) = (a.as_secs_f64() * 1e3, b.as_secs_f64() * 1e3);
        println!(
            "| {g} | {} | {a:.1} | {na} | {b:.1} | {nb} | {:.2} |",
            empties(position),
            a / b
        );
        t1 += a;
        tn += b;
        log_speedup += (a / b).ln();
    }
    if ms.is_some() {
        let mean = |d: u32| f64::from(d) / f64::from(counted.max(1));
        println!(
            "| mean | | {:.2} | {} | {:.2} | {} |",
            mean(d1),
            n1 / u64::from(counted.max(1)),
            mean(dn),
            nn / u64::from(counted.max(1))
        );
        return Ok(());
    }
    println!(
        "| total | | {t1:.0} | {n1} | {tn:.0} | {nn} | {:.2} (geometric mean {:.2}) |",
        t1 / tn,
        (log_speedup / positions as f64).exp()
    );
    Ok(())
}
