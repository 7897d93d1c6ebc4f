//! Draughts' endgame tables: `--fill` computes all of them and prints the time and size;
//! otherwise prints how long first probes of seeded random positions take, per class.
//!
//! ```text
//! draughts_tables [--fill] [--samples N]
//! ```

use std::time::Instant;

use ply_games::draughts::{Tables, tables};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--fill") {
        let t = Instant::now();
        let tables = Tables::new();
        let n = tables.fill();
        println!(
            "{n} positions ({} bytes) computed in {:.2} s",
            n,
            t.elapsed().as_secs_f64()
        );
        return;
    }
    let samples: usize = args
        .iter()
        .position(|a| a == "--samples")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let tables = Tables::new();
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    for (a, b) in [(1, 1), (2, 2), (3, 2), (3, 3)] {
        let (mut worst, mut total) = (0f64, 0f64);
        for _ in 0..samples {
            let p = tables::random_position(&mut rng, a, b);
            let t = Instant::now();
            tables.value(&p).expect("covered");
            let ms = t.elapsed().as_secs_f64() * 1e3;
            worst = worst.max(ms);
            total += ms;
        }
        println!(
            "{a} against {b}: first probes mean {:.3} ms, slowest {worst:.3} ms; {} known",
            total / samples as f64,
            tables.known()
        );
    }
}
