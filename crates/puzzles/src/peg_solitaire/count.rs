//! Counting reachable positions level by level (a level = positions after k jumps), as
//! sorted vectors of canonical positions, and which of them can still be finished.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::board::{Board, bits_of};
use super::solve::{Goal, PegHasher, PegSet};

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

/// Games counted over [`Levels`]: a game is a sequence of jumps from the start until no jump
/// is left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCounts {
    /// Every distinct game.
    pub games: u128,
    /// The games that end on the goal.
    pub solutions: u128,
    /// The fewest jumps of a game that gets stuck short of the goal (`None`: none does).
    pub shortest_stuck: Option<usize>,
    /// `by_length[k]`: the games of exactly `k` jumps.
    pub by_length: Vec<u128>,
}

impl Levels {
    /// Counts every game, and the games that end on `goal`, by one forward pass that counts
    /// paths level by level. With [`Reduce::Symmetry`] a level holds one position per class
    /// of symmetric images, and the number kept for a class is the number of paths to any
    /// of its members: the start is symmetric, so every member is reached by as many paths
    /// and has as many jumps into each class, and a jump from a class adds its class's
    /// number to the class it leads into. A game ends where a position has no jump. The
    /// counts reach 10^20 on the English board, hence `u128`.
    ///
    /// # Panics
    /// With [`Reduce::Symmetry`] and a goal that the board's symmetries move (callers check
    /// [`Goal::symmetric`] and count without symmetry instead).
    pub fn count_games(&self, board: &Board, goal: Goal) -> GameCounts {
        assert!(
            self.reduce == Reduce::Nothing || goal.symmetric(board),
            "count_games over symmetry classes needs a symmetric goal"
        );
        type Paths = HashMap<u64, u128, BuildHasherDefault<PegHasher>>;
        let mut counts = GameCounts {
            games: 0,
            solutions: 0,
            shortest_stuck: None,
            by_length: vec![0; self.levels.len()],
        };
        let mut paths = Paths::default();
        if let Some(&start) = self.levels.first().and_then(|l| l.first()) {
            paths.insert(start, 1);
        }
        for (k, level) in self.levels.iter().enumerate() {
            let mut next = Paths::default();
            next.reserve(self.levels.get(k + 1).map_or(0, Vec::len));
            for &p in level {
                let Some(&n) = paths.get(&p) else { continue };
                let mut stuck = true;
                for bit in bits_of(p) {
                    for j in board.jumps_from(bit) {
                        if j.legal(p) {
                            stuck = false;
                            *next.entry(self.reduce.key(board, j.apply(p))).or_default() += n;
                        }
                    }
                }
                if stuck {
                    counts.by_length[k] += n;
                    counts.games += n;
                    if goal.reached(p) {
                        counts.solutions += n;
                    } else if counts.shortest_stuck.is_none() {
                        counts.shortest_stuck = Some(k);
                    }
                }
            }
            paths = next;
        }
        counts
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
