//! Times the 8x8 bitboard perft on one thread.
//!
//! `othello_perft DEPTH [RUNS] [all]` prints the leaf count of perft DEPTH from the start and
//! the best of RUNS wall times (default 3); with `all`, each run counts every depth from 1 to
//! DEPTH in turn (the work `/work/shared/baselines/othello_perft.c DEPTH 1` does), and the
//! figure is the sum of the leaves over the time. Used for docs/benchmarks.md.
//!
//! On x86-64 with AVX2 the AVX2 code runs, chosen at run time; `PLY_NO_SIMD=1` in the
//! environment forces the portable code. The line printed names the one that ran.

use std::time::Instant;

use ply_games::reversi::{Eight, Othello, perft_bits, simd_in_use};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let runs: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let all = args.next().is_some_and(|a| a == "all");
    let (own, opp) = Othello::initial().sides();
    let first = if all { 1 } else { depth };
    let mut best = f64::INFINITY;
    let mut leaves = 0;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        leaves = (first..=depth)
            .map(|d| perft_bits::<Eight>(std::hint::black_box(own), opp, d))
            .sum::<u64>();
        best = best.min(t.elapsed().as_secs_f64());
    }
    let what = if all { "1.." } else { "" };
    println!(
        "othello perft {what}{depth}: {leaves} leaves, best of {runs}: {best:.3} s, {:.1} M leaves/s ({})",
        leaves as f64 / best / 1e6,
        code()
    );
}

/// Which code the library chose.
fn code() -> &'static str {
    if simd_in_use() { "avx2" } else { "portable" }
}
