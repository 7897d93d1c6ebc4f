//! Counts the guesses of one generation's removal checks with a steered removal order
//! (the first attempt, no budget), printing the guesses by check 375 as soon as it is
//! reached and the totals at the end:
//! `cargo run --release -p ply-puzzles --example sudoku_order_trace -- 25 SEED STEER`
//! (STEER: random, dense, sparse, loose, tight).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ply_puzzles::sudoku::{Shape, Steer, generate_traced};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side: usize = args.get(1).map_or(25, |s| s.parse().expect("a side"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let steer = match args.get(3).map_or("random", String::as_str) {
        "random" => Steer::Random,
        "dense" => Steer::Dense,
        "sparse" => Steer::Sparse,
        "loose" => Steer::Loose,
        "tight" => Steer::Tight,
        "loose-sparse" => Steer::LooseSparse,
        "loose-dense" => Steer::LooseDense,
        other => panic!("unknown order {other}"),
    };
    let shape = Shape::for_side(side).expect("a side with a box shape");
    let t = std::time::Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut checks, mut kept, mut removed) = (0usize, 0u64, 0u64);
    let mut trace = |was_removed: bool, guesses: u64| {
        checks += 1;
        if was_removed {
            removed += guesses;
        } else {
            kept += guesses;
        }
        if checks == 375 {
            eprintln!(
                "seed {seed} {steer:?}: by check 375 {} guesses",
                kept + removed
            );
        }
        if std::env::var_os("PLY_CURVE").is_some() && checks % 25 == 0 {
            eprintln!("curve {seed} {checks} {}", kept + removed);
        }
    };
    let p = generate_traced(shape, steer, &mut rng, &mut trace);
    println!("{p}");
    eprintln!(
        "seed {seed} {steer:?}: {} clues, guesses {} (kept {kept}, removals {removed}), {:.2} s",
        p.clues(),
        kept + removed,
        t.elapsed().as_secs_f64()
    );
}
