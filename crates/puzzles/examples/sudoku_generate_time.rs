//! Times minimal puzzle generation for one shape and seed, as `ply sudoku generate` makes
//! it (the same generator and seeding), without building the CLI:
//! `cargo run --release -p ply-puzzles --example sudoku_generate_time -- 25 SEED [restart [RESUMES]]`
//! (`restart`: `generate_restarting` instead of `generate`;
//! `... 25 SEED steer [BASE RATE]`: `generate_steered`, with that budget if given).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use ply_puzzles::sudoku::{
    RESTART_BASE, RESTART_RATE, RESTART_RESUMES, STEER_BASE, STEER_RATE, Shape, Steer, generate,
    generate_restarting_counted, generate_steered_counted,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side: usize = args.get(1).map_or(25, |s| s.parse().expect("a side"));
    let seed: u64 = args.get(2).map_or(1, |s| s.parse().expect("a seed"));
    let shape = Shape::for_side(side).expect("a side with a box shape");
    let restart = args.get(3).is_some_and(|a| a == "restart");
    let t = std::time::Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let steer = args.get(3).is_some_and(|a| a == "steer");
    let number = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let (p, attempts) = if steer {
        generate_steered_counted(
            shape,
            0,
            Steer::Loose,
            (number(4, STEER_BASE), number(5, STEER_RATE), 0),
            0,
            &mut rng,
        )
    } else if restart {
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
