//! The queue's own cost per game, without playing: `threads` claimers each claim a game and
//! post a result with `complete_rated` until the queue is empty.
//!
//! ```text
//! cargo run --release -p ply-store --example queue_overhead -- URL_OR_FILE [GAMES] [THREADS]
//! ```
//! Prints games per second and milliseconds per game; docs/benchmarks.md has figures.

use std::time::Instant;

use ply_rating::Rating;
use ply_store::{BotEntry, GameRecord, QueuedGame, TournamentConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let db = args
        .next()
        .ok_or("usage: queue_overhead URL_OR_FILE [GAMES] [THREADS]")?;
    let games: u32 = args.next().map_or(Ok(2000), |a| a.parse())?;
    let threads: usize = args.next().map_or(Ok(1), |a| a.parse())?;
    let mut store = ply_store::open(&db)?;
    let bot = |name: &str| BotEntry {
        name: name.into(),
        spec: "builtin:random".into(),
        hash: None,
    };
    let config = TournamentConfig {
        game: "tictactoe".into(),
        bots: vec![bot("a"), bot("b")],
        rounds: 1,
        time_ms: 1000,
        memory: 1 << 28,
        output: 1 << 16,
        cpus: 1,
        seed: u64::from(games) << 8 | threads as u64,
        ants: None,
    };
    let t = store.create_tournament(&config)?;
    let queue: Vec<QueuedGame> = (0..games)
        .map(|slot| QueuedGame {
            round: 1,
            slot,
            first: (slot % 2) as usize,
            second: 1 - (slot % 2) as usize,
        })
        .collect();
    store.enqueue(t.id, &queue)?;
    let rate = |_: &[GameRecord], _: u32| vec![Rating::default(); 2];
    let start = Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        let handles: Vec<_> = (0..threads)
            .map(|i| {
                let db = &db;
                scope.spawn(move || -> Result<(), ply_store::StoreError> {
                    let mut s = ply_store::open(db)?;
                    let worker = format!("bench-{i}");
                    while let Some(lease) = s.claim(Some(t.id), &worker, 0, u64::MAX / 2)? {
                        let record = GameRecord {
                            round: 1,
                            slot: lease.game.slot,
                            first: lease.game.first,
                            second: lease.game.second,
                            first_score: 0.5,
                            result: "draw".into(),
                            replay: "{}".into(),
                            seats: Vec::new(),
                        };
                        s.complete_rated(&lease, &record, 1, &rate)?;
                    }
                    Ok(())
                })
            })
            .collect();
        for h in handles {
            h.join()
                .map_err(|_| "a thread panicked".to_string())?
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{games} games, {threads} thread(s): {:.0} games/s, {:.2} ms/game (claim + complete_rated)",
        f64::from(games) / secs,
        1000.0 * secs / f64::from(games)
    );
    Ok(())
}
