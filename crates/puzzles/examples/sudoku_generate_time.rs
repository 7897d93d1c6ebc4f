//! Times minimal puzzle generation for one shape and seed, as `ply sudoku generate` makes
//! it (the same generator and seeding), without building the CLI:
//! `cargo run --release -p ply-puzzles --example sudoku_generate_time -- 25 SEED [restart [RESUMES]]`
//! (`restart`: `generate_restarting` instead of `generate`).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ply_puzzles::sudoku::{
    RESTART_BASE, RESTART_RATE, RESTART_RESUMES, Shape, generate, generate_restarting_counted,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side: usize = args.get(1).map_or(25, |s| s.parse().expect("a side"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let shape = Shape::for_side(side).expect("a side with a box shape");
    let restart = args.get(3).is_some_and(|a| a == "restart");
    let t = std::time::Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (p, attempts) = if restart {
        generate_restarting_counted(
            shape,
            0,
            RESTART_BASE,
            RESTART_RATE,
            args.get(4)
                .map_or(RESTART_RESUMES, |a| a.parse().expect("resumes")),
            &mut rng,
        )
    } else {
        (generate(shape, &mut rng), 1)
    };
    println!("{p}");
    eprintln!(
        "side {side} seed {seed}: {} clues in {:.2} s, {attempts} attempt(s)",
        p.clues(),
        t.elapsed().as_secs_f64()
    );
}
