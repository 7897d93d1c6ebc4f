//! Searches seeded Taunt positions to a fixed depth with the bot's evaluation and ordering
//! and prints, per position, the best move, score, depth and node count, then the total
//! time and nodes per second:
//!
//! ```text
//! taunt_fixed_depth [--positions N] [--depth D] [--seed S] [--fitted 0|1] [--nmp 0|1]
//!     [--lmr 0|1] [--nodes N] [--direct 0|1]
//! ```
//!
//! `--fitted 1` searches with the bot's default evaluation (`TauntEval::Fitted`) instead of
//! `Material`; `--nmp 1` and `--lmr 1` turn on null moves and late-move reductions; with
//! `--nodes N` each position is searched by iterative deepening until N nodes, and the line
//! gives the last depth finished there (the depth a search reaches on the same work);
//! `--direct 1` searches with the direct-mapped table of sessions 1-38 instead of the
//! buckets.
//!
//! Position `i` is the start after a random number (0 to 59) of random plies, seeded from
//! (S, i) alone. Run it on two versions of the code and `diff` the per-position lines: a pure
//! speedup prints the same lines (same move, score and nodes) and a higher rate.

use std::time::Instant;

use ply_core::{Budget, Game};
use ply_games::taunt::{CapturesFirst, Taunt, TauntEval};
use ply_search::{AlphaBeta, Config, TtLayout};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arg(args: &[String], key: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (count, depth, seed) = (
        arg(&args, "--positions", 40),
        arg(&args, "--depth", 6) as u32,
        arg(&args, "--seed", 27),
    );
    let eval = if arg(&args, "--fitted", 0) == 1 {
        TauntEval::Fitted
    } else {
        TauntEval::Classic
    };
    let config = Config {
        null_move: arg(&args, "--nmp", 0) == 1,
        late_moves: arg(&args, "--lmr", 0) == 1,
        tt_layout: if arg(&args, "--direct", 0) == 1 {
            TtLayout::Direct
        } else {
            TtLayout::Buckets
        },
        ..Config::default()
    };
    let max_nodes = args
        .iter()
        .any(|a| a == "--nodes")
        .then(|| arg(&args, "--nodes", 0));
    let (mut nodes, start) = (0u64, Instant::now());
    let mut moves = Vec::new();
    for i in 0..count {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ i);
        let mut state = Taunt::start();
        for _ in 0..rng.random_range(0..60) {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        let mut search = AlphaBeta::with(eval, CapturesFirst, config);
        let budget = Budget {
            max_depth: max_nodes.is_none().then_some(depth),
            max_nodes,
            ..Budget::UNLIMITED
        };
        let r = search.search(&state, budget);
        nodes += r.nodes;
        let best = r.best.map_or("-".to_string(), |m| m.to_string());
        println!(
            "{state}\t{best}\t{}\tdepth {}\tnodes {}",
            r.score.0, r.depth, r.nodes
        );
    }
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "{count} positions, depth {depth}: {nodes} nodes in {secs:.2} s, {:.0} nps",
        nodes as f64 / secs
    );
}
