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
    // One move buffer per ply, reused: allocation would otherwise dominate small games.
    let mut buffers = vec![Vec::new(); depth as usize + 1];
    count(state, depth, &mut buffers)
}

fn count<G: Game>(state: &G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    state.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = state.clone();
        child.play_unchecked(mv);
        total += count(&child, depth - 1, rest);
    }
    total
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
