//! Times minimal puzzle generation for one shape and seed, as `ply sudoku generate` makes
//! it (the same generator and seeding), without building the CLI:
//! `cargo run --release -p ply-puzzles --example sudoku_generate_time -- 25 SEED`.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ply_puzzles::sudoku::{Shape, generate};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side: usize = args.get(1).map_or(25, |s| s.parse().expect("a side"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let shape = Shape::for_side(side).expect("a side with a box shape");
    let t = std::time::Instant::now();
    let p = generate(shape, &mut ChaCha8Rng::seed_from_u64(seed));
    println!("{p}");
    eprintln!(
        "side {side} seed {seed}: {} clues in {:.2} s",
        p.clues(),
        t.elapsed().as_secs_f64()
    );
}
