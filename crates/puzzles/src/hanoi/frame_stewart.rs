//! Frame–Stewart for `k >= 3` pegs: the numbers, exact with big integers; the optimal splits;
//! tower transfers; and an upper-bound solver between any two positions.
//!
//! The Frame–Stewart recursion moves a perfect tower of `n` discs by parking the `l` smallest
//! on a spare peg with all `k` pegs, moving the other `n - l` with the `k - 1` pegs left, and
//! bringing the `l` back: `T(n, k) = min over 0 <= l < n of 2 T(l, k) + T(n - l, k - 1)`,
//! `T(n, 3) = 2^n - 1`. Its increments are powers of two: `T(n, k) - T(n - 1, k)` runs through
//! `2^t` repeated `C(t + k - 3, k - 3)` times, which [`frame_stewart`] sums in
//! O(number of distinct increments) big-integer operations (`n` in the thousands is instant).
//! [`frame_stewart_dp`] is the plain recursion the tests compare it with.

use std::collections::HashMap;

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::plan::{Step, reverse_plan};
use super::{Move, Position};

/// The Frame–Stewart number `T(n, k)`: moves to transfer a perfect tower of `n` discs with
/// `k >= 3` pegs (optimal for `k = 3`, for `k = 4` (Bousch 2014), and for `n < k`).
///
/// ```
/// use ply_puzzles::hanoi::frame_stewart::frame_stewart;
/// assert_eq!(frame_stewart(6, 4).to_string(), "17"); // the seed's 6-disc example
/// assert_eq!(frame_stewart(64, 3).to_string(), "18446744073709551615");
/// ```
///
/// # Panics
/// If `k < 3`.
pub fn frame_stewart(n: usize, k: usize) -> BigUint {
    assert!(k >= 3, "Frame–Stewart needs at least 3 pegs");
    if k == 3 {
        return (BigUint::one() << n) - 1u32;
    }
    let j = (k - 3) as u128;
    let mut total = BigUint::zero();
    let mut left = n as u128;
    // mult = C(t + j, j), exact while it is below `left` (after that it is not needed).
    let mut mult: u128 = 1;
    let mut t: u64 = 0;
    while left > 0 {
        let take = mult.min(left);
        total += BigUint::from(take) << t;
        left -= take;
        if left == 0 {
            break;
        }
        t += 1;
        mult = mult * (t as u128 + j) / t as u128;
    }
    total
}

/// `T(n, k)` by the plain recursion over every split, for the tests: O(k n^2).
///
/// # Panics
/// If `k < 3`.
pub fn frame_stewart_dp(n: usize, k: usize) -> BigUint {
    assert!(k >= 3);
    let mut prev: Vec<BigUint> = (0..=n).map(|m| (BigUint::one() << m) - 1u32).collect();
    for _ in 4..=k {
        let mut cur: Vec<BigUint> = Vec::with_capacity(n + 1);
        cur.push(BigUint::zero());
        for m in 1..=n {
            let best = (0..m)
                .map(|l| (&cur[l] << 1u32) + &prev[m - l])
                .min()
                .expect("m >= 1");
            cur.push(best);
        }
        prev = cur;
    }
    prev.swap_remove(n)
}

/// Every optimal split `l` of `T(n, k)` (the number of smallest discs parked with all pegs),
/// ascending. Empty for `n = 0`.
///
/// # Panics
/// If `k < 4`.
pub fn optimal_splits(n: usize, k: usize) -> Vec<usize> {
    assert!(k >= 4);
    if n == 0 {
        return Vec::new();
    }
    let cost = |l: usize| (frame_stewart(l, k) << 1u32) + frame_stewart(n - l, k - 1);
    let costs: Vec<BigUint> = (0..n).map(cost).collect();
    let best = costs.iter().min().expect("n >= 1").clone();
    (0..n).filter(|&l| costs[l] == best).collect()
}

/// Frame–Stewart numbers and splits, cached, for the lazy move generators.
#[derive(Clone, Debug, Default)]
pub struct FrameStewart {
    splits: HashMap<(usize, usize), usize>,
}

impl FrameStewart {
    /// An empty cache.
    pub fn new() -> FrameStewart {
        FrameStewart::default()
    }

    /// `T(n, k)`.
    pub fn count(&mut self, n: usize, k: usize) -> BigUint {
        frame_stewart(n, k)
    }

    /// The largest optimal split of `T(n, k)`, as the seed's `getSteps` chooses it: scanning
    /// `l` down from `n - 1` and stopping at the first cost that does not improve (the cost is
    /// convex in `l`, so this finds the minimum).
    ///
    /// # Panics
    /// If `k < 4` or `n == 0`.
    pub fn split(&mut self, n: usize, k: usize) -> usize {
        assert!(k >= 4 && n >= 1);
        if let Some(&l) = self.splits.get(&(n, k)) {
            return l;
        }
        let cost = |l: usize| (frame_stewart(l, k) << 1u32) + frame_stewart(n - l, k - 1);
        let mut best_l = n - 1;
        let mut best = cost(best_l);
        for l in (0..n - 1).rev() {
            let c = cost(l);
            if c < best {
                best = c;
                best_l = l;
            } else {
                break;
            }
        }
        self.splits.insert((n, k), best_l);
        best_l
    }
}

/// The plan moving a perfect tower of `n` discs from `from` to `to`, using every peg of
/// `pegs` (which holds both).
pub(crate) fn tower_plan(n: usize, from: u8, to: u8, pegs: &[u8]) -> Vec<Step> {
    let aux: Vec<u8> = pegs
        .iter()
        .copied()
        .filter(|&p| p != from && p != to)
        .collect();
    if n == 0 || from == to {
        return Vec::new();
    }
    vec![Step::Tower {
        discs: n as u32,
        from,
        to,
        aux,
    }]
}

/// Gathers discs `lo..m` of `on` into a tower on `target` using only the pegs `pegs`
/// (discs below `lo` lie on other pegs and are not touched). Optimal with 3 pegs (the seed's
/// `buildTower` generalised), the seed's 4-peg method generalised otherwise:
/// * discs already on `target` from the bottom up are left alone;
/// * a perfect sub-tower goes by Frame–Stewart;
/// * otherwise the smallest `l` discs are parked on a spare peg that holds none of the discs
///   `l..` (the Frame–Stewart split, raised if needed), the rest gather on `target` with one
///   peg fewer, and the `l` discs come back.
pub(crate) fn gather_plan(
    on: &[u8],
    lo: usize,
    m: usize,
    target: u8,
    pegs: &[u8],
    fs: &mut FrameStewart,
) -> Vec<Step> {
    let Some(top) = (lo..m).rev().find(|&d| on[d] != target) else {
        return Vec::new();
    };
    let src = on[top];
    if on[lo..=top].iter().all(|&p| p == src) {
        return tower_plan(top + 1 - lo, src, target, pegs);
    }
    if pegs.len() == 3 {
        return gather3(on, lo, top + 1, target, pegs);
    }
    // Choose the spare peg needing the fewest parked discs.
    let split = lo + fs.split(top + 1 - lo, pegs.len());
    let (park, need) = pegs
        .iter()
        .copied()
        .filter(|&p| p != src && p != target)
        .map(|p| {
            let need = (lo..top).rev().find(|&d| on[d] == p).map_or(lo, |d| d + 1);
            (p, need)
        })
        .min_by_key(|&(p, need)| (need, p))
        .expect("at least 4 pegs");
    let l = split.max(need);
    let rest: Vec<u8> = pegs.iter().copied().filter(|&p| p != park).collect();
    let mut plan = gather_plan(on, lo, l, park, pegs, fs);
    plan.extend(gather_plan(on, l, top + 1, target, &rest, fs));
    plan.extend(tower_plan(l - lo, park, target, pegs));
    plan
}

/// Three pegs: the unique shortest way to gather discs `lo..m` on `target`.
fn gather3(on: &[u8], lo: usize, m: usize, mut target: u8, pegs: &[u8]) -> Vec<Step> {
    let third = |a: u8, b: u8| {
        pegs.iter()
            .copied()
            .find(|&p| p != a && p != b)
            .expect("3 pegs")
    };
    let mut tails = Vec::new();
    for i in (lo..m).rev() {
        if on[i] != target {
            let t = third(on[i], target);
            tails.push([
                Step::One(Move::new(on[i], target)),
                Step::Classic {
                    discs: (i - lo) as u32,
                    from: t,
                    to: target,
                    via: on[i],
                },
            ]);
            target = t;
        }
    }
    tails.into_iter().rev().flatten().collect()
}

/// A plan from `start` to `goal` on `k >= 4` pegs: Frame–Stewart between perfect towers,
/// otherwise the gathering method above through the best intermediate tower. An upper bound
/// on the distance in general.
pub(crate) fn upper_bound_plan(start: &Position, goal: &Position) -> Vec<Step> {
    let mut fs = FrameStewart::new();
    let (s, g) = (start.as_slice(), goal.as_slice());
    let Some(m) = (0..s.len()).rev().find(|&d| s[d] != g[d]) else {
        return Vec::new();
    };
    let pegs: Vec<u8> = (0..start.pegs() as u8).collect();
    let (a, b) = (s[m], g[m]);
    if g[..=m].iter().all(|&p| p == b) {
        return gather_plan(s, 0, m + 1, b, &pegs, &mut fs);
    }
    if s[..=m].iter().all(|&p| p == a) {
        return reverse_plan(&gather_plan(g, 0, m + 1, a, &pegs, &mut fs));
    }
    let mut best: Option<(BigUint, Vec<Step>)> = None;
    for &via in pegs.iter().filter(|&&p| p != a && p != b) {
        let mut plan = gather_plan(s, 0, m, via, &pegs, &mut fs);
        plan.push(Step::One(Move::new(a, b)));
        plan.extend(reverse_plan(&gather_plan(g, 0, m, via, &pegs, &mut fs)));
        let len = super::plan::plan_len(&plan, &mut fs);
        if best.as_ref().is_none_or(|(l, _)| len < *l) {
            best = Some((len, plan));
        }
    }
    best.expect("at least one spare peg").1
}
