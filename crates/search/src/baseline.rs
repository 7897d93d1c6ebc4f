//! Baseline players: uniformly random, and one-ply greedy.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::{Budget, Evaluator, Fault, Game, Player};

use crate::negamax::terminal_score;

/// Plays a uniformly random legal move, from a seeded generator so that games replay exactly.
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        RandomPlayer {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "random".into()
    }

    fn choose(&mut self, state: &G, _: Budget) -> Result<G::Move, Fault> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err(Fault::NoOutput);
        }
        Ok(moves[self.rng.random_range(0..moves.len())])
    }
}

/// Plays the move whose resulting position the evaluator likes best (a finished game counts
/// as won, drawn or lost), breaking ties at random with a seeded generator.
pub struct GreedyPlayer<E> {
    eval: E,
    rng: ChaCha8Rng,
}

impl<E> GreedyPlayer<E> {
    /// A greedy player over `eval`, seeded with `seed`.
    pub fn new(eval: E, seed: u64) -> Self {
        GreedyPlayer {
            eval,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game, E: Evaluator<G>> Player<G> for GreedyPlayer<E> {
    fn name(&self) -> String {
        "greedy".into()
    }

    fn choose(&mut self, state: &G, _: Budget) -> Result<G::Move, Fault> {
        let me = state.to_move();
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut best = Vec::new();
        let mut best_score = None;
        for &mv in &moves {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let s = match child.outcome() {
                Some(o) => terminal_score(&o, me, G::info().seats, 1),
                None if child.to_move() == me => self.eval.evaluate(&child),
                None => -self.eval.evaluate(&child),
            };
            match best_score {
                Some(b) if s < b => {}
                Some(b) if s == b => best.push(mv),
                _ => {
                    best_score = Some(s);
                    best.clear();
                    best.push(mv);
                }
            }
        }
        if best.is_empty() {
            return Err(Fault::NoOutput);
        }
        Ok(best[self.rng.random_range(0..best.len())])
    }
}
