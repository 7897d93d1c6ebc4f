//! Plain negamax: the slow, obviously correct reference.

use ply_core::{Evaluator, Game, MoveOrdering, NoOrdering, Outcome, Score, Seat};

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
    negamax_quiescent(state, depth, ply, eval, &NoOrdering)
}

/// [`negamax`] whose horizon is [`quiescence`] with `ordering`'s noisy moves: the reference
/// for a search with quiescence. With an ordering that has none, it is [`negamax`].
pub fn negamax_quiescent<G: Game, E: Evaluator<G>, O: MoveOrdering<G>>(
    state: &G,
    depth: u32,
    ply: u32,
    eval: &E,
    ordering: &O,
) -> Score {
    let me = state.to_move();
    if let Some(outcome) = state.outcome() {
        return terminal_score(&outcome, me, G::info().seats, ply);
    }
    if depth == 0 {
        return quiescence(state, ply, eval, ordering);
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut best = -Score::INFINITY;
    for mv in moves {
        let mut child = state.clone();
        child.play_unchecked(mv);
        let v = negamax_quiescent(&child, depth - 1, ply + 1, eval, ordering);
        let v = if child.to_move() == me { v } else { -v };
        best = best.max(v);
    }
    best
}

/// The value of an unfinished `state` at the horizon, with no pruning: the side to move
/// either stands on the evaluation or plays one of the ordering's noisy moves (when it asks
/// for quiescence), whichever is worth more, and so on below; a finished game is scored as
/// an end. Without quiescence, the evaluation.
pub fn quiescence<G: Game, E: Evaluator<G>, O: MoveOrdering<G>>(
    state: &G,
    ply: u32,
    eval: &E,
    ordering: &O,
) -> Score {
    let me = state.to_move();
    let mut best = eval.evaluate(state);
    if !ordering.quiescence() {
        return best;
    }
    let mut moves = Vec::new();
    ordering.noisy(state, &mut moves);
    for mv in moves {
        let mut child = state.clone();
        child.play_unchecked(mv);
        let v = match child.outcome() {
            Some(outcome) => terminal_score(&outcome, me, G::info().seats, ply + 1),
            None => {
                let v = quiescence(&child, ply + 1, eval, ordering);
                if child.to_move() == me { v } else { -v }
            }
        };
        best = best.max(v);
    }
    best
}
