//! Fewest moves (a move = a run of jumps by one peg), exactly.
//!
//! The positions form a layered graph: every jump removes one peg. ply first enumerates
//! every reachable position ([`reachable_levels`]), keeps those from which the goal can
//! still be reached ([`Levels::finishable`]), then relaxes the least number of moves level
//! by level: a move from a position is any run of jumps by one of its pegs, and it lands
//! `length` levels further on. Every predecessor of a level lies on an earlier level, so
//! when a level is processed its distances are final. The minimum found is therefore a
//! proof: no shorter solution exists among all reachable positions.

use std::collections::HashMap;

use super::board::{Board, Jump, bits_of};
use super::count::{Levels, Reduce, reachable_levels};
use super::solve::{Goal, PegHasher, PegSet};

type DistMap = HashMap<u64, (u32, u64), std::hash::BuildHasherDefault<PegHasher>>;

/// The fewest-moves answer.
#[derive(Clone, Debug)]
pub struct Fewest {
    /// The least number of moves (proven: no solution has fewer).
    pub moves: u32,
    /// A solution with that many moves.
    pub jumps: Vec<Jump>,
    /// Reachable positions enumerated (as stored: up to symmetry or not).
    pub reachable: u64,
    /// Of those, the ones from which the goal can be reached.
    pub finishable: u64,
}

/// Calls `visit(path, end)` for every run of jumps by the peg on `peg`, from `pegs`; if
/// `visit` returns `false` the run is not extended further.
pub fn for_each_chain(
    board: &Board,
    pegs: u64,
    peg: u8,
    path: &mut Vec<Jump>,
    visit: &mut impl FnMut(&[Jump], u64) -> bool,
) {
    for &j in board.jumps_from(peg) {
        if j.legal(pegs) {
            let after = j.apply(pegs);
            path.push(j);
            if visit(path, after) {
                for_each_chain(board, after, j.to, path, visit);
            }
            path.pop();
        }
    }
}

/// The fewest moves from `start` to `goal`, with a solution; `None` if the goal cannot be
/// reached at all. Symmetry is used when the goal allows it. `progress` receives a phase
/// name and a level after each level.
///
/// This enumerates every reachable position: for the English board, 23 million (about
/// 200 MB); run it in release builds.
pub fn fewest_moves(
    board: &Board,
    start: u64,
    goal: Goal,
    mut progress: impl FnMut(&str, usize),
) -> Option<Fewest> {
    let reduce = if goal.symmetric(board) {
        Reduce::Symmetry
    } else {
        Reduce::Nothing
    };
    let levels = reachable_levels(board, start, reduce, usize::MAX, |k, _| {
        progress("enumerating", k)
    });
    fewest_on_levels(board, start, goal, &levels, progress)
}

/// [`fewest_moves`] on levels already enumerated from `start`.
pub fn fewest_on_levels(
    board: &Board,
    start: u64,
    goal: Goal,
    levels: &Levels,
    mut progress: impl FnMut(&str, usize),
) -> Option<Fewest> {
    let reduce = levels.reduce;
    let fin = levels.finishable(board, goal);
    if fin[0].is_empty() {
        return None;
    }
    let n = fin.len();
    let fin_sets: Vec<PegSet> = fin.iter().map(|l| l.iter().copied().collect()).collect();
    let mut dist: Vec<DistMap> = vec![DistMap::default(); n];
    dist[0].insert(reduce.key(board, start), (0, u64::MAX));
    let mut path = Vec::new();
    for k in 0..n {
        progress("relaxing", k);
        let here = std::mem::take(&mut dist[k]);
        for (&p, &(d, _)) in &here {
            for peg in bits_of(p) {
                for_each_chain(board, p, peg, &mut path, &mut |chain, after| {
                    let lvl = k + chain.len();
                    let key = reduce.key(board, after);
                    if lvl >= n || !fin_sets[lvl].contains(&key) {
                        return false;
                    }
                    let e = dist[lvl].entry(key).or_insert((u32::MAX, 0));
                    if d + 1 < e.0 {
                        *e = (d + 1, p);
                    }
                    true
                });
            }
        }
        dist[k] = here;
    }
    // The finished positions, and the best of them.
    let (end, moves) = dist
        .iter()
        .flat_map(|m| m.iter())
        .filter(|(p, _)| goal.reached(**p))
        .map(|(&p, &(d, _))| (p, d))
        .min_by_key(|&(p, d)| (d, p))?;
    let mut keys = vec![end];
    let mut cur = end;
    loop {
        let lvl = (start.count_ones() - cur.count_ones()) as usize;
        let (_, parent) = dist[lvl][&cur];
        if parent == u64::MAX {
            break;
        }
        keys.push(parent);
        cur = parent;
    }
    keys.reverse();
    // Replay on real positions: from each, find a run of jumps landing on the next key.
    let mut pegs = start;
    let mut jumps = Vec::new();
    for &target in &keys[1..] {
        let mut found: Option<(Vec<Jump>, u64)> = None;
        for peg in bits_of(pegs) {
            for_each_chain(board, pegs, peg, &mut path, &mut |chain, after| {
                if found.is_some() {
                    return false;
                }
                if reduce.key(board, after) == target {
                    found = Some((chain.to_vec(), after));
                    return false;
                }
                after.count_ones() > target.count_ones()
            });
        }
        let (chain, after) = found.expect("every recorded parent has a move to its child");
        jumps.extend(chain);
        pegs = after;
    }
    Some(Fewest {
        moves,
        jumps,
        reachable: levels.levels.iter().map(|l| l.len() as u64).sum(),
        finishable: fin.iter().map(|l| l.len() as u64).sum(),
    })
}
