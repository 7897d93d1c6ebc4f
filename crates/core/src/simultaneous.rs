//! Simultaneous-move, partially observed games (the 2011 AI Challenge's Ants).

use crate::{Outcome, Seat};

/// A game in which every live seat orders at once each turn and sees only part of the state.
///
/// It is apart from [`crate::Game`] because nothing in it is "the side to move": a turn takes
/// one batch of orders per seat, and what a seat may know is an explicit [`Self::Observation`].
/// The referee feeds each seat its observation text, collects orders within the turn time, and
/// calls [`SimultaneousGame::step`]; searches for such games are game-specific.
pub trait SimultaneousGame: Send {
    /// One seat's orders for one turn (a list of ant moves, say).
    type Orders: Default + Send;
    /// What one seat is told at the start of a turn.
    type Observation;

    /// How many seats play.
    fn seats(&self) -> usize;

    /// The number of the turn about to be played (the setup turn is 0).
    fn turn(&self) -> u32;

    /// Whether `seat` still takes part (not eliminated, crashed or timed out).
    fn is_alive(&self, seat: Seat) -> bool;

    /// What `seat` sees now.
    fn observe(&self, seat: Seat) -> Self::Observation;

    /// Resolves one turn, with `orders[i]` from seat `i` (empty for dead seats).
    fn step(&mut self, orders: Vec<Self::Orders>);

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
}
