//! Counting reachable positions level by level (a level = positions after k jumps), as
//! sorted vectors of canonical positions, and which of them can still be finished.

use super::board::{Board, bits_of};
use super::solve::{Goal, PegSet};

/// Whether positions are identified up to the board's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// One representative (the smallest image) per class of symmetric positions.
    Symmetry,
    /// Every position on its own (for goals that are not symmetric).
    Nothing,
}

impl Reduce {
    /// The key of `pegs`.
    #[inline]
    pub fn key(self, board: &Board, pegs: u64) -> u64 {
        match self {
            Reduce::Symmetry => board.canonical(pegs),
            Reduce::Nothing => pegs,
        }
    }
}

/// Every position reachable from a start, by level.
#[derive(Clone, Debug)]
pub struct Levels {
    /// How positions were identified.
    pub reduce: Reduce,
    /// `levels[k]`: the canonical positions after `k` jumps, sorted ascending.
    pub levels: Vec<Vec<u64>>,
}

/// Counts from [`Levels`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Positions per level, up to symmetry.
    pub canonical: Vec<u64>,
    /// Positions per level, every symmetric image counted.
    pub all: Vec<u64>,
}

/// Enumerates every position reachable from `start`, level by level, up to the board's
/// symmetries when `reduce` asks for it and the start is symmetric (otherwise each position
/// on its own, as counting images of a lopsided start would count positions it never
/// reaches); stops after `max_levels` levels (`usize::MAX` for all). Calls `progress`
/// after each level with its number and size.
pub fn reachable_levels(
    board: &Board,
    start: u64,
    reduce: Reduce,
    max_levels: usize,
    mut progress: impl FnMut(usize, usize),
) -> Levels {
    let reduce = match reduce {
        Reduce::Symmetry if board.images(start).iter().all(|&i| i == start) => Reduce::Symmetry,
        _ => Reduce::Nothing,
    };
    let mut levels = vec![vec![reduce.key(board, start)]];
    progress(0, 1);
    while levels.len() < max_levels {
        let cur = levels.last().expect("at least the start");
        let mut next = Vec::with_capacity(cur.len() * 4);
        for &p in cur {
            for bit in bits_of(p) {
                for &j in board.jumps_from(bit) {
                    if j.legal(p) {
                        next.push(reduce.key(board, j.apply(p)));
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        radix_sort(&mut next, 64 - board.holes().leading_zeros());
        next.dedup();
        next.shrink_to_fit();
        progress(levels.len(), next.len());
        levels.push(next);
    }
    Levels { reduce, levels }
}

impl Levels {
    /// Positions per level as stored, and with every distinct image counted (the same
    /// when symmetry was not used).
    pub fn counts(&self, board: &Board) -> Counts {
        let canonical = self.levels.iter().map(|l| l.len() as u64).collect();
        let all = self
            .levels
            .iter()
            .map(|l| match self.reduce {
                Reduce::Symmetry => l.iter().map(|&p| orbit_size(board, p)).sum(),
                Reduce::Nothing => l.len() as u64,
            })
            .collect();
        Counts { canonical, all }
    }

    /// For each level, the positions (canonical, sorted) from which `goal` can still be
    /// reached. With [`Reduce::Symmetry`], `goal` must be symmetric (see
    /// [`Goal::symmetric`]).
    pub fn finishable(&self, board: &Board, goal: Goal) -> Vec<Vec<u64>> {
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); self.levels.len()];
        for k in (0..self.levels.len()).rev() {
            // A hash set: the finishable sets are small next to the levels they filter.
            let next: Option<PegSet> = out.get(k + 1).map(|l| l.iter().copied().collect());
            let next = next.as_ref();
            out[k] = self.levels[k]
                .iter()
                .copied()
                .filter(|&p| {
                    goal.reached(p)
                        || next.is_some_and(|next| {
                            bits_of(p).any(|bit| {
                                board.jumps_from(bit).iter().any(|j| {
                                    j.legal(p) && next.contains(&self.reduce.key(board, j.apply(p)))
                                })
                            })
                        })
                })
                .collect();
        }
        out
    }
}

/// How many distinct images `pegs` has under the board's symmetries.
pub fn orbit_size(board: &Board, pegs: u64) -> u64 {
    board.orbit_size(pegs)
}

/// Sorts `v`, whose values are below `2^bits`, by least-significant-digit radix sort with
/// 11-bit digits: the levels hold tens of millions of keys, where this is several times
/// faster than a comparison sort.
pub fn radix_sort(v: &mut Vec<u64>, bits: u32) {
    const DIGIT: u32 = 11;
    if v.len() < 1 << 12 {
        v.sort_unstable();
        return;
    }
    let mut tmp = vec![0u64; v.len()];
    let mut shift = 0;
    while shift < bits {
        let mut count = vec![0usize; 1 << DIGIT];
        for &x in v.iter() {
            count[(x >> shift) as usize & ((1 << DIGIT) - 1)] += 1;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &x in v.iter() {
            let d = (x >> shift) as usize & ((1 << DIGIT) - 1);
            tmp[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(v, &mut tmp);
        shift += DIGIT;
    }
}
