//! Generic searches over [`Puzzle`]: breadth-first search and IDA*.
//!
//! Every puzzle also has specialised solvers in `ply_puzzles`; these plain ones are what the
//! tests compare them with.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use ply_core::Puzzle;

/// A shortest sequence of moves from `start` to a solved state, by breadth-first search over
/// a hash map of parents; `None` if no solved state is reachable. Memory grows with the
/// number of states reached, so this is for small puzzles and for tests.
pub fn bfs_solve<P: Puzzle>(start: &P) -> Option<Vec<P::Move>> {
    let mut parent: HashMap<P, Option<(P, P::Move)>> = HashMap::new();
    parent.insert(start.clone(), None);
    let mut frontier = vec![start.clone()];
    let mut moves = Vec::new();
    let mut goal = None;
    if start.is_solved() {
        goal = Some(start.clone());
    }
    while goal.is_none() && !frontier.is_empty() {
        let mut next = Vec::new();
        'layer: for state in &frontier {
            state.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = state.clone();
                child.play_unchecked(mv);
                if let Entry::Vacant(v) = parent.entry(child.clone()) {
                    v.insert(Some((state.clone(), mv)));
                    if child.is_solved() {
                        goal = Some(child);
                        break 'layer;
                    }
                    next.push(child);
                }
            }
        }
        frontier = next;
    }
    let mut path = Vec::new();
    let mut cur = goal?;
    while let Some(Some((prev, mv))) = parent.get(&cur) {
        path.push(*mv);
        cur = prev.clone();
    }
    path.reverse();
    Some(path)
}

/// The number of states first reached at each depth from `start` (index 0 is `start`
/// itself), exploring everything reachable, up to `max_states` states.
pub fn bfs_layers<P: Puzzle>(start: &P, max_states: usize) -> Vec<u64> {
    let mut seen = std::collections::HashSet::new();
    seen.insert(start.clone());
    let mut frontier = vec![start.clone()];
    let mut layers = vec![1];
    let mut moves = Vec::new();
    while !frontier.is_empty() && seen.len() < max_states {
        let mut next = Vec::new();
        for state in &frontier {
            state.legal_moves(&mut moves);
            for &mv in &moves {
                let mut child = state.clone();
                child.play_unchecked(mv);
                if seen.insert(child.clone()) {
                    next.push(child);
                }
            }
        }
        if !next.is_empty() {
            layers.push(next.len() as u64);
        }
        frontier = next;
    }
    layers
}

/// IDA*: iterative-deepening depth-first search bounded by cost so far plus `heuristic`,
/// which must never overestimate the remaining moves (then the answer is a shortest path).
/// Unit move costs. Gives up (returns `None`) beyond `max_cost` moves.
pub fn ida_star<P, H>(start: &P, heuristic: H, max_cost: u32) -> Option<Vec<P::Move>>
where
    P: Puzzle,
    H: Fn(&P) -> u32,
{
    fn dfs<P: Puzzle, H: Fn(&P) -> u32>(
        state: &P,
        g: u32,
        bound: u32,
        h: &H,
        path: &mut Vec<P::Move>,
    ) -> Result<(), u32> {
        let f = g + h(state);
        if f > bound {
            return Err(f);
        }
        if state.is_solved() {
            return Ok(());
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        let mut next_bound = u32::MAX;
        for mv in moves {
            let mut child = state.clone();
            child.play_unchecked(mv);
            path.push(mv);
            match dfs(&child, g + 1, bound, h, path) {
                Ok(()) => return Ok(()),
                Err(b) => next_bound = next_bound.min(b),
            }
            path.pop();
        }
        Err(next_bound)
    }
    let mut bound = heuristic(start);
    let mut path = Vec::new();
    while bound <= max_cost {
        match dfs(start, 0, bound, &heuristic, &mut path) {
            Ok(()) => return Some(path),
            Err(u32::MAX) => return None,
            Err(b) => bound = b,
        }
    }
    None
}
