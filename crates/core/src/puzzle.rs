//! Single-agent puzzles.

use std::fmt::{Debug, Display};
use std::hash::Hash;

use crate::IllegalMoveError;

/// A single-agent puzzle: a state, its moves, and a goal test. Generic searches (breadth-first,
/// IDA*) run over this trait; each puzzle also has its own specialised solvers, which tests
/// check against the generic ones.
pub trait Puzzle: Clone + Eq + Hash + Debug + Send + Sync {
    /// One move.
    type Move: Copy + Ord + Hash + Debug + Display + Send + Sync;

    /// Appends the legal moves, sorted ascending, to `moves` (which it clears first).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv`, which must be legal.
    ///
    /// # Panics
    /// May panic, or leave a nonsensical state, if `mv` is not legal.
    fn play_unchecked(&mut self, mv: Self::Move);

    /// Whether this state is a goal.
    fn is_solved(&self) -> bool;

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// Gives the move back when it is not legal; the state is then unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMoveError<Self::Move>> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.contains(&mv) {
            self.play_unchecked(mv);
            Ok(())
        } else {
            Err(IllegalMoveError {
                mv,
                reason: "not a legal move in this position".to_string(),
            })
        }
    }
}
