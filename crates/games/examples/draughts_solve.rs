//! How long Draughts' exact solver takes by rows left: plays seeded self-play games at a
//! fixed depth and, at the first position of each game with at most R rows left (for R in
//! the list), solves it win/loss/draw and exactly, printing nodes and milliseconds:
//!
//! ```text
//! draughts_solve [--games N] [--depth D] [--seed S] [--rows 30,35,40,...]
//! ```

use std::time::Instant;

use ply_core::{Budget, Game};
use ply_games::draughts::{CapturesFirst, Draughts, EndgameSolver, Material, SolveMode, rows_left};
use ply_search::{AlphaBeta, Config};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arg(args: &[String], key: &str) -> Option<String> {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .cloned()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |k: &str, d: u64| arg(&args, k).and_then(|v| v.parse().ok()).unwrap_or(d);
    let (games, depth, seed) = (
        num("--games", 20),
        num("--depth", 6) as u32,
        num("--seed", 33),
    );
    let rows: Vec<u32> = arg(&args, "--rows")
        .unwrap_or("30,35,40,45,50".into())
        .split(',')
        .map(|r| r.parse().expect("a number"))
        .collect();
    let mut solver = EndgameSolver::new();
    let mut moves = Vec::new();
    println!("game\trows\tmen\twld\twld_nodes\twld_ms\texact\texact_nodes\texact_ms");
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let mut state = Draughts::start();
        let mut search = AlphaBeta::with(Material, CapturesFirst, Config::default());
        let mut plies = 0;
        let mut todo: Vec<u32> = rows.iter().rev().copied().collect();
        while state.outcome().is_none() {
            while let Some(&r) = todo.first() {
                if rows_left(&state) > r {
                    break;
                }
                todo.remove(0);
                let t = Instant::now();
                let w = solver
                    .solve(&state, SolveMode::WinLossDraw, None)
                    .expect("no deadline");
                let wt = t.elapsed().as_secs_f64() * 1e3;
                let t = Instant::now();
                let e = solver
                    .solve(&state, SolveMode::Exact, None)
                    .expect("no deadline");
                let et = t.elapsed().as_secs_f64() * 1e3;
                println!(
                    "{g}\t{r}\t{}\t{}\t{}\t{wt:.2}\t{}\t{}\t{et:.2}",
                    (state.men(ply_core::Seat::FIRST) | state.men(ply_core::Seat::SECOND))
                        .count_ones(),
                    w.score,
                    w.nodes,
                    e.score,
                    e.nodes
                );
            }
            let mv = if plies < 4 {
                state.legal_moves(&mut moves);
                moves[rng.random_range(0..moves.len())]
            } else {
                let budget = Budget {
                    max_depth: Some(depth),
                    ..Budget::UNLIMITED
                };
                search.search(&state, budget).best.expect("a move")
            };
            state.play_unchecked(mv);
            plies += 1;
        }
    }
}
