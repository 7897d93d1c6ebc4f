//! How Draughts games end: plays seeded self-play games at a fixed depth and prints, per
//! game, the final men, the plies, and when the game first came within reach of endgame
//! knowledge (at most K men a side; at most P rows of forward moves left in all).
//!
//! ```text
//! draughts_endings [--games N] [--depth D] [--seed S] [--opening PLIES]
//! ```

use ply_core::{Budget, Game, Seat};
use ply_games::draughts::{CapturesFirst, Draughts, Material};
use ply_search::{AlphaBeta, Config};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arg(args: &[String], key: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Rows left to advance, summed over every man: a bound on the plies left.
fn potential(s: &Draughts) -> u32 {
    let mut p = 0;
    for seat in [Seat::FIRST, Seat::SECOND] {
        let mut m = s.men(seat);
        while m != 0 {
            let row = m.trailing_zeros() / 8;
            m &= m - 1;
            p += if seat == Seat::FIRST { 7 - row } else { row };
        }
    }
    p
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (games, depth, seed, opening) = (
        arg(&args, "--games", 200),
        arg(&args, "--depth", 6) as u32,
        arg(&args, "--seed", 33),
        arg(&args, "--opening", 4),
    );
    let mut moves = Vec::new();
    println!("game\tplies\tmen1\tmen2\tmax_men_first_le3\tle4\tle5\tpot40\tpot30\tpot20");
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let mut state = Draughts::start();
        let mut search = AlphaBeta::with(Material, CapturesFirst, Config::default());
        let mut plies = 0u32;
        let mut first_le = [None::<u32>; 3];
        let mut first_pot = [None::<u32>; 3];
        while state.outcome().is_none() {
            let most = state
                .men(Seat::FIRST)
                .count_ones()
                .max(state.men(Seat::SECOND).count_ones());
            for (k, f) in first_le.iter_mut().enumerate() {
                if f.is_none() && most <= 3 + k as u32 {
                    *f = Some(plies);
                }
            }
            for (k, f) in first_pot.iter_mut().enumerate() {
                if f.is_none() && potential(&state) <= 40 - 10 * k as u32 {
                    *f = Some(plies);
                }
            }
            let mv = if u64::from(plies) < opening {
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
        let left = |f: Option<u32>| f.map_or("-".to_string(), |p| (plies - p).to_string());
        println!(
            "{g}\t{plies}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            state.men(Seat::FIRST).count_ones(),
            state.men(Seat::SECOND).count_ones(),
            left(first_le[0]),
            left(first_le[1]),
            left(first_le[2]),
            left(first_pot[0]),
            left(first_pot[1]),
            left(first_pot[2]),
        );
    }
}
