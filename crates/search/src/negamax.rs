//! Plain negamax: the slow, obviously correct reference.

use ply_core::{Evaluator, Game, Outcome, Score, Seat};

/// The score of a finished game for `seat`, `ply` plies from the root: a win sooner and a loss
/// later score better (the seed's `100 - depth`).
pub fn terminal_score(outcome: &Outcome, seat: Seat, seats: usize, ply: u32) -> Score {
    let payoff = outcome.payoff(seat, seats);
    if payoff > 0.5 {
        Score::win_in(ply)
    } else if payoff < 0.5 {
        Score::loss_in(ply)
    } else {
        Score::DRAW
    }
}

/// The minimax value of `state` for the side to move, searched `depth` plies with no pruning,
/// `ply` plies below the root (0 at the root). Two-seat games only.
///
/// Every clever search in this crate is tested to return exactly this value.
pub fn negamax<G: Game, E: Evaluator<G>>(state: &G, depth: u32, ply: u32, eval: &E) -> Score {
    let me = state.to_move();
    if let Some(outcome) = state.outcome() {
        return terminal_score(&outcome, me, G::info().seats, ply);
    }
    if depth == 0 {
        return eval.evaluate(state);
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut best = -Score::INFINITY;
    for mv in moves {
        let mut child = state.clone();
        child.play_unchecked(mv);
        let v = negamax(&child, depth - 1, ply + 1, eval);
        let v = if child.to_move() == me { v } else { -v };
        best = best.max(v);
    }
    best
}
