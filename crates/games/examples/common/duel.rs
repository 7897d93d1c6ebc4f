//! What the fitting examples' `duel` shares on either board: the seeded openings and the
//! score of A, with a 95% interval from the pairs of games. Included by `#[path]`.

use ply_core::Game;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

/// The opening of pair `pair`: `plies` random moves from the start, seeded by (`seed`,
/// `pair`) alone.
pub fn opening<G: Game>(seed: u64, pair: u64, plies: u32) -> G {
    let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ pair);
    let mut open = G::start();
    random_plies(&mut open, plies, &mut rng);
    open
}

/// Plays up to `plies` random moves (fewer if the game ends).
pub fn random_plies<G: Game>(state: &mut G, plies: u32, rng: &mut impl rand::Rng) {
    let mut moves = Vec::new();
    for _ in 0..plies {
        state.legal_moves(&mut moves);
        let Some(&mv) = moves.choose(rng) else {
            break;
        };
        state.play_unchecked(mv);
    }
}

/// A finished game's disc difference for the side to move, empties to the winner.
pub fn final_score<S: ply_games::reversi::Size>(s: &ply_games::reversi::Reversi<S>) -> i32 {
    use ply_games::reversi::Bits;
    let (own, opp) = s.sides();
    let (a, b) = (own.count() as i32, opp.count() as i32);
    let e = (S::N * S::N) as i32 - a - b;
    (a - b) + (a - b).signum() * e
}

/// Plays `pairs` pairs of games from the openings of [`opening`]: in game 0 of a pair A
/// plays the opening's side to move, in game 1 the other side. `play(opening, A's seat)`
/// plays one game and gives A's final disc difference.
pub fn play_pairs<G: Game>(
    pairs: u64,
    seed: u64,
    plies: u32,
    mut play: impl FnMut(G, ply_core::Seat) -> i32,
) -> Tally {
    let mut tally = Tally::default();
    for p in 0..pairs {
        let open: G = opening(seed, p, plies);
        for a_seat in [open.to_move(), open.to_move().next(2)] {
            tally.game(play(open.clone(), a_seat));
        }
        tally.end_pair();
    }
    tally
}

/// A's results, game by game and pair by pair.
#[derive(Default)]
pub struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    discs: i64,
    pair: f64,
    pair_scores: Vec<f64>,
}

impl Tally {
    /// A game ended `for_a` discs up for A (negative: down).
    pub fn game(&mut self, for_a: i32) {
        self.discs += i64::from(for_a);
        self.pair += match for_a.signum() {
            1 => {
                self.wins += 1;
                1.0
            }
            0 => {
                self.draws += 1;
                0.5
            }
            _ => {
                self.losses += 1;
                0.0
            }
        };
    }

    /// Both games of a pair are in.
    pub fn end_pair(&mut self) {
        self.pair_scores.push(self.pair / 2.0);
        self.pair = 0.0;
    }

    /// `A: +W =D -L of G games: S% +- H% (95%, from P pairs); X discs a game`.
    pub fn summary(&self) -> String {
        let n = self.pair_scores.len() as f64;
        let mean = self.pair_scores.iter().sum::<f64>() / n;
        let var = self
            .pair_scores
            .iter()
            .map(|x| (x - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0).max(1.0);
        let half = 1.96 * (var / n).sqrt();
        let games = self.wins + self.draws + self.losses;
        format!(
            "A: +{} ={} -{} of {games} games: {:.1}% +- {:.1}% (95%, from {} pairs); {:+.2} discs a game",
            self.wins,
            self.draws,
            self.losses,
            100.0 * mean,
            100.0 * half,
            self.pair_scores.len(),
            self.discs as f64 / f64::from(games.max(1))
        )
    }
}
