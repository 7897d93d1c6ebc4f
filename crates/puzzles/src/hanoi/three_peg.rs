//! Three pegs: the classic solution (recursive, binary, and its k-th move alone), exact
//! distances and every shortest path between any two positions (Hinz 1992), and the longest
//! non-self-crossing solution.
//!
//! Everything here needs exactly 3 pegs; the callers check it.

use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

use super::plan::Step;
use super::{Move, Peg, Position};

/// The classic optimal solution, move by move, by the binary rule: move `m` (from 1) moves
/// the disc of the lowest set bit of `m`, and each disc cycles over the three pegs always in
/// the same direction (the smallest disc towards the goal when `n` is odd).
///
/// Constant work per move and memory linear in `n`. For `n > 127` the move counter would
/// overflow after 2^128 - 1 moves, which no machine reaches.
#[derive(Clone, Debug)]
pub struct BinaryMoves {
    /// Local peg (0 = from, 1 = to, 2 = via) of every disc.
    local: Vec<u8>,
    /// Local -> real peg.
    real: [u8; 3],
    /// Moves done.
    done: u128,
    /// Moves in all.
    total: u128,
    /// Parity of `n`: disc `d` cycles forward (from -> to -> via) when `n - d` is odd.
    n_parity: usize,
}

impl BinaryMoves {
    /// The optimal transfer of `n` discs from `from` to `to` over `via`.
    pub fn new(n: usize, from: Peg, to: Peg, via: Peg) -> BinaryMoves {
        BinaryMoves {
            local: vec![0; n],
            real: [from.0, to.0, via.0],
            done: 0,
            total: if n >= 128 {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
            n_parity: n & 1,
        }
    }
}

/// `[forward, backward]` successor of a local peg.
const NEXT: [[u8; 3]; 2] = [[1, 2, 0], [2, 0, 1]];

impl Iterator for BinaryMoves {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        if self.done == self.total {
            return None;
        }
        self.done += 1;
        let d = self.done.trailing_zeros() as usize;
        // Forward when n - d is odd, i.e. when the parities of n and d differ.
        let dir = (d & 1) ^ self.n_parity ^ 1;
        let from = self.local[d];
        let to = NEXT[dir][from as usize];
        self.local[d] = to;
        Some(Move::new(self.real[from as usize], self.real[to as usize]))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.total - self.done;
        let n = usize::try_from(left).unwrap_or(usize::MAX);
        (n, usize::try_from(left).ok())
    }
}

/// The classic optimal solution by the textbook recursion (move `n - 1` discs out of the way,
/// the largest disc, then the `n - 1` discs back on top), run on an explicit stack so that it
/// is lazy too.
#[derive(Clone, Debug)]
pub struct RecursiveMoves {
    /// `(discs, from, to, via)`; `discs == 0` stands for the single move `from -> to`.
    stack: Vec<(u32, u8, u8, u8)>,
}

impl RecursiveMoves {
    /// The optimal transfer of `n` discs from `from` to `to` over `via`.
    pub fn new(n: usize, from: Peg, to: Peg, via: Peg) -> RecursiveMoves {
        let mut stack = Vec::with_capacity(2 * n + 1);
        if n > 0 {
            stack.push((n as u32, from.0, to.0, via.0));
        }
        RecursiveMoves { stack }
    }
}

impl Iterator for RecursiveMoves {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        loop {
            let (n, from, to, via) = self.stack.pop()?;
            if n <= 1 {
                return Some(Move::new(from, to));
            }
            self.stack.push((n - 1, via, to, from));
            self.stack.push((0, from, to, via));
            self.stack.push((n - 1, from, via, to));
        }
    }
}

/// Move `m` (from 1) of the classic `n`-disc solution from peg 0 by the seed's bit formula:
/// from peg `(m & (m - 1)) % 3` to peg `((m | (m - 1)) + 1) % 3`; the tower ends on peg 2
/// when `n` is odd and on peg 1 when `n` is even.
pub fn seed_formula_move(m: u64) -> Move {
    Move::new(((m & (m - 1)) % 3) as u8, (((m | (m - 1)) + 1) % 3) as u8)
}

/// Move `k` (from 1) of the optimal transfer of `n` discs from `from` to `to` over `via`,
/// computed directly in O(n) word operations without the moves before it; gives the disc
/// moved (0 the smallest) and the move. `None` when `k` is 0 or beyond 2^n - 1.
///
/// ```
/// use num_bigint::BigUint;
/// use ply_puzzles::hanoi::{Move, Peg, three_peg::kth_move};
/// // The last move of 64 discs is the smallest disc onto the goal.
/// let k = (BigUint::from(1u32) << 64u32) - 1u32;
/// assert_eq!(kth_move(64, Peg(0), Peg(2), Peg(1), &k), Some((0, Move::new(1, 2))));
/// ```
pub fn kth_move(n: usize, from: Peg, to: Peg, via: Peg, k: &BigUint) -> Option<(usize, Move)> {
    if k.is_zero() || k.bits() > n as u64 {
        return None;
    }
    let d = k.trailing_zeros()? as usize;
    // Disc d moves at moves 2^d, 3 * 2^d, 5 * 2^d, ...: it has moved k >> (d + 1) times before.
    let before = ((k >> (d + 1)) % 3u32).to_u8()?;
    let step = if (n - d) % 2 == 1 { 1 } else { 2 };
    let local_from = (before * step) % 3;
    let local_to = (local_from + step) % 3;
    let real = [from.0, to.0, via.0];
    Some((
        d,
        Move::new(real[local_from as usize], real[local_to as usize]),
    ))
}

/// Moves from the discs `0..m` of `on` to a perfect tower on `peg`, as a sum of powers of two.
fn tower_distance_u128(on: &[u8], m: usize, mut peg: u8) -> u128 {
    let mut dist = 0;
    for i in (0..m).rev() {
        if on[i] != peg {
            dist += 1u128 << i;
            peg = 3 - on[i] - peg;
        }
    }
    dist
}

fn tower_distance_big(on: &[u8], m: usize, mut peg: u8) -> BigUint {
    let mut dist = BigUint::zero();
    for i in (0..m).rev() {
        if on[i] != peg {
            dist.set_bit(i as u64, true);
            peg = 3 - on[i] - peg;
        }
    }
    dist
}

/// The largest disc that differs between `a` and `b`.
fn largest_difference(a: &Position, b: &Position) -> Option<usize> {
    (0..a.discs())
        .rev()
        .find(|&d| a.as_slice()[d] != b.as_slice()[d])
}

/// The exact number of moves between two 3-peg positions with at most 126 discs, in O(n).
///
/// For the largest disc that must change peg, from `a` to `b` with `c` the third peg, the
/// two candidates are moving it once (the smaller discs gather on `c`) and twice through `c`
/// (they gather on `b`, go back to `a` as a tower, and spread to the goal).
///
/// # Panics
/// If the positions differ in discs or pegs, or have more than 126 discs.
pub fn distance_u128(start: &Position, goal: &Position) -> u128 {
    assert!(start.discs() <= 126 && same_shape(start, goal));
    let Some(m) = largest_difference(start, goal) else {
        return 0;
    };
    let (s, g) = (start.as_slice(), goal.as_slice());
    let (a, b) = (s[m], g[m]);
    let c = 3 - a - b;
    let once = tower_distance_u128(s, m, c) + 1 + tower_distance_u128(g, m, c);
    let twice = tower_distance_u128(s, m, b) + tower_distance_u128(g, m, a) + (1u128 << m) + 1;
    once.min(twice)
}

/// The exact number of moves between two 3-peg positions, any number of discs, in O(n)
/// big-integer operations.
///
/// # Panics
/// If the positions differ in discs or pegs, or do not have 3 pegs.
pub fn distance(start: &Position, goal: &Position) -> BigUint {
    assert!(same_shape(start, goal));
    let (once, twice) = candidates(start, goal);
    once.min(twice)
}

fn same_shape(a: &Position, b: &Position) -> bool {
    a.pegs() == 3 && b.pegs() == 3 && a.discs() == b.discs()
}

/// The lengths of moving the largest differing disc once and twice (both 0 if none differs).
fn candidates(start: &Position, goal: &Position) -> (BigUint, BigUint) {
    let Some(m) = largest_difference(start, goal) else {
        return (BigUint::zero(), BigUint::zero());
    };
    let (s, g) = (start.as_slice(), goal.as_slice());
    let (a, b) = (s[m], g[m]);
    let c = 3 - a - b;
    let once = tower_distance_big(s, m, c) + 1u32 + tower_distance_big(g, m, c);
    let twice =
        tower_distance_big(s, m, b) + tower_distance_big(g, m, a) + (BigUint::one() << m) + 1u32;
    (once, twice)
}

/// The plan gathering discs `0..m` of `on` into a perfect tower on `peg` (the unique shortest
/// way; the seed's `buildTower`).
pub(crate) fn gather_plan(on: &[u8], m: usize, mut peg: u8) -> Vec<Step> {
    let mut tails = Vec::new();
    for i in (0..m).rev() {
        if on[i] != peg {
            let third = 3 - on[i] - peg;
            // Disc i goes last-but-one: after the smaller discs gathered on `third`.
            tails.push([
                Step::One(Move::new(on[i], peg)),
                Step::Classic {
                    discs: i as u32,
                    from: third,
                    to: peg,
                    via: on[i],
                },
            ]);
            peg = third;
        }
    }
    tails.into_iter().rev().flatten().collect()
}

/// Every shortest plan from `start` to `goal` (one or two; Hinz 1992), shortest first in
/// the order "largest disc moved once", "largest disc moved twice".
pub(crate) fn shortest_plans(start: &Position, goal: &Position) -> Vec<Vec<Step>> {
    let Some(m) = largest_difference(start, goal) else {
        return vec![Vec::new()];
    };
    let (once_len, twice_len) = candidates(start, goal);
    let (s, g) = (start.as_slice(), goal.as_slice());
    let (a, b) = (s[m], g[m]);
    let c = 3 - a - b;
    let mut plans = Vec::new();
    if once_len <= twice_len {
        let mut plan = gather_plan(s, m, c);
        plan.push(Step::One(Move::new(a, b)));
        plan.extend(super::plan::reverse_plan(&gather_plan(g, m, c)));
        plans.push(plan);
    }
    if twice_len <= once_len {
        let mut plan = gather_plan(s, m, b);
        plan.push(Step::One(Move::new(a, c)));
        plan.push(Step::Classic {
            discs: m as u32,
            from: b,
            to: a,
            via: c,
        });
        plan.push(Step::One(Move::new(c, b)));
        plan.extend(super::plan::reverse_plan(&gather_plan(g, m, a)));
        plans.push(plan);
    }
    plans
}

/// The longest non-self-crossing transfer of `n` discs from `from` to `to` over `via`:
/// 3^n - 1 moves through every one of the 3^n positions once (the seed's "maximum moves").
pub(crate) fn longest_plan(n: usize, from: Peg, to: Peg, via: Peg) -> Vec<Step> {
    vec![Step::Longest {
        discs: n as u32,
        from: from.0,
        to: to.0,
        via: via.0,
    }]
}
