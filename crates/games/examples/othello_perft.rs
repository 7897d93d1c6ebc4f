//! Times the 8x8 bitboard perft on one thread: `othello_perft DEPTH [RUNS]` prints the leaf
//! count and the best of RUNS wall times (default 3). Used for docs/benchmarks.md.

use std::time::Instant;

use ply_games::reversi::{Eight, Othello, perft_bits};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(9);
    let runs: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let (own, opp) = Othello::initial().sides();
    let mut best = f64::INFINITY;
    let mut leaves = 0;
    for _ in 0..runs.max(1) {
        let t = Instant::now();
        leaves = perft_bits::<Eight>(std::hint::black_box(own), opp, depth);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "othello perft {depth}: {leaves} leaves, best of {runs}: {best:.3} s, {:.1} M leaves/s",
        leaves as f64 / best / 1e6
    );
}
