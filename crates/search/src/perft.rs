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
    // One move buffer per ply, reused: allocation would otherwise dominate small games. They
    // are made as the recursion gets there, not for the depth asked: every game ends, so a
    // depth beyond its longest game (`ply perft tictactoe 4000000000`) costs nothing.
    let mut buffers = Vec::new();
    count(state, depth, &mut buffers, 0)
}

fn count<G: Game>(state: &G, depth: u32, buffers: &mut Vec<Vec<G::Move>>, ply: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    if buffers.len() == ply {
        buffers.push(Vec::new());
    }
    let mut moves = std::mem::take(&mut buffers[ply]);
    state.legal_moves(&mut moves);
    let total = if depth == 1 {
        moves.len() as u64
    } else {
        let mut total = 0;
        for &mv in moves.iter() {
            let mut child = state.clone();
            child.play_unchecked(mv);
            total += count(&child, depth - 1, buffers, ply + 1);
        }
        total
    };
    buffers[ply] = moves;
    total
}

/// Perft split by first move, for finding where two move generators disagree. At depth 0
/// there is no first move: the list is empty (and [`perft`] is 1).
pub fn perft_divide<G: Game>(state: &G, depth: u32) -> Vec<(G::Move, u64)> {
    perft_divide_with(state, depth, |_, _| {})
}

/// [`perft_divide`], calling `counted(done, of)` after each first move's count: `done` of the
/// `of` first moves are counted (a progress bar's position and length).
pub fn perft_divide_with<G: Game>(
    state: &G,
    depth: u32,
    mut counted: impl FnMut(usize, usize),
) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let of = moves.len();
    moves
        .into_iter()
        .enumerate()
        .map(|(i, mv)| {
            let mut child = state.clone();
            child.play_unchecked(mv);
            let n = perft(&child, depth - 1);
            counted(i + 1, of);
            (mv, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_games::tictactoe::TicTacToe;

    #[test]
    fn a_depth_past_every_game_s_end_counts_nothing_and_costs_nothing() {
        let start = TicTacToe::start();
        // Published: 127,872 of tic-tac-toe's 255,168 games last all 9 plies.
        assert_eq!(perft(&start, 9), 127_872);
        assert_eq!(perft(&start, 10), 0);
        // Before, a buffer per ply asked was made first: 96 GB here, and an abort.
        assert_eq!(perft(&start, 4_000_000_000), 0);
    }

    #[test]
    fn divide_sums_to_perft_and_has_no_first_move_at_depth_0() {
        let start = TicTacToe::start();
        assert!(perft_divide(&start, 0).is_empty());
        let mut calls = Vec::new();
        perft_divide_with(&start, 3, |done, of| calls.push((done, of)));
        assert_eq!(calls, (1..=9).map(|d| (d, 9)).collect::<Vec<_>>());
        assert_eq!(perft(&start, 0), 1);
        for depth in 1..=10 {
            let divide = perft_divide(&start, depth);
            assert_eq!(divide.len(), 9);
            assert_eq!(
                divide.iter().map(|(_, n)| n).sum::<u64>(),
                perft(&start, depth)
            );
        }
    }
}
