//! The self-play games the Othello measuring examples (`othello_probcut`, `othello_parity`)
//! take their positions from. Included by `#[path]`, not an example.

use ply_core::{Budget, Game};
use ply_games::reversi::{CornersFirst, IndexedOthello, Othello, OthelloEval, Place};
use ply_search::{AlphaBeta, Config, Deepening};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Game `index` of `seed`, seeded from the two alone: a random opening of 2 to 12 plies, then
/// alpha-beta at depth 2 with the pattern evaluation to the end. Every position a move was
/// played in, in order, and the game's generator, for the caller's own random choices.
pub fn play(seed: u64, index: u64) -> (Vec<Othello>, ChaCha8Rng) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index);
    let config = Config {
        tt_bytes: 4 << 20,
        deepening: Deepening::Fixed,
        ..Config::default()
    };
    let mut player = AlphaBeta::with(OthelloEval::Pattern, CornersFirst, config);
    let randoms = rng.random_range(2..=12);
    let mut state = Othello::start();
    let mut moves: Vec<Place> = Vec::new();
    let mut positions = Vec::new();
    let mut ply = 0;
    while state.outcome().is_none() {
        positions.push(state);
        state.legal_moves(&mut moves);
        let mv = if ply < randoms {
            *moves.choose(&mut rng).expect("the game is not over")
        } else {
            player
                .search(&IndexedOthello::from(state), Budget::depth(2))
                .best
                .expect("a search of an unfinished game has a move")
        };
        state.play_unchecked(mv);
        ply += 1;
    }
    (positions, rng)
}

/// What `sample` takes from each game below `games`, on `threads` threads (game `g` on thread
/// `g % threads`): thread 0's games first, then thread 1's, and so on.
pub fn on_threads<T: Send>(
    games: u64,
    threads: u64,
    sample: impl Fn(u64) -> Vec<T> + Sync,
) -> Vec<T> {
    let threads = threads.max(1);
    let sample = &sample;
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    (t..games)
                        .step_by(threads as usize)
                        .flat_map(sample)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker panicked"))
            .collect()
    })
}
