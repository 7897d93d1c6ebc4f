//! Perft: count the leaves of the game tree to a depth.

use ply_core::Game;

/// The number of move sequences of exactly `depth` plies from `state` (sequences that reach
/// the end of the game earlier are not counted, as in chess perft).
///
/// ```
/// use ply_core::Game;
/// use ply_games::tictactoe::TicTacToe;
/// assert_eq!(ply_search::perft(&TicTacToe::start(), 2), 72);
/// ```
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&mv| {
            let mut child = state.clone();
            child.play_unchecked(mv);
            perft(&child, depth - 1)
        })
        .sum()
}

/// Perft split by first move, for finding where two move generators disagree.
pub fn perft_divide<G: Game>(state: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.play_unchecked(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
