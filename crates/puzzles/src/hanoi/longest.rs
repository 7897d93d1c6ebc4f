//! The longest non-self-crossing paths between any two positions on 3 pegs (seed 002's
//! properties 3 and 4): a path that visits no position twice, as long as possible, and how
//! many such paths there are.
//!
//! # Method
//! The 3-peg state graph of `m` discs is three copies of the graph of `m - 1` discs (one per
//! peg of the largest disc) joined by three single edges, the *bridges*: the largest disc
//! moves from peg `p` to peg `q` while the smaller discs all sit on the third peg `r`. A copy
//! meets the rest of the graph only at its three corners (the perfect towers of its smaller
//! discs), so a simple path from `u` to `v` crosses any copy in at most two *segments*, each
//! running between two of the copy's *terminals*: its corners whose outer edge the path
//! uses, and `u` or `v` if they lie in it. For each copy and each way of pairing its
//! terminals into segments the longest total length and the number of ways to reach it are
//! computed from the three sub-copies (every pairing of theirs, every subset of the three
//! bridges, the joined pieces checked to form exactly the wanted segments and no cycle). The
//! copies that hold neither `u` nor `v` are all alike, so each level has a handful of cases:
//! the work is linear in the number of discs; writing the paths out is linear in their
//! length.
//!
//! The paths themselves are rebuilt the same way, keeping every optimal choice (up to a
//! limit), so every longest path is printed, however many there are.
//!
//! # What is true of seed 002's "one or two"
//! The seed (after Hinz) says there are one or two longest non-self-crossing paths from any
//! position to a tower, and between any two positions. Checked against every simple path,
//! that holds up to 3 discs; from 4 discs it fails: from `1213` to the tower `1111` there are
//! three (through all 81 positions), between `1212` and `2121` four (both confirmed by an
//! independent search in `hanoi/tests.rs`); at 5 discs the recursion finds up to four to a
//! tower and nine between two positions.

use std::collections::HashMap;

use super::{Move, Position};

/// A terminal of a copy: corner 0, 1, 2 (the perfect tower of its discs on that peg), or the
/// start `U` or the goal `V` of the whole path.
type Terminal = u8;
const U: Terminal = 3;
const V: Terminal = 4;

/// The segments a path makes through a copy: pairs of terminals `(a, b)` with `a < b`,
/// sorted; a segment runs from `a` to `b`.
type Spec = Vec<(Terminal, Terminal)>;

/// The most discs [`longest_paths`] writes paths for: 3^12 - 1 = 531,440 moves.
pub const MAX_PATH_DISCS: usize = 12;

/// The most discs [`longest_count`] takes (lengths up to 3^40 fit a `u64`).
pub const MAX_COUNT_DISCS: usize = 40;

/// The longest non-self-crossing paths from one position to another.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongestPaths {
    /// Their length in moves.
    pub length: u64,
    /// How many different paths have that length.
    pub count: u128,
    /// The paths, at most the `max_paths` asked for, in a fixed order.
    pub paths: Vec<Vec<Move>>,
}

/// The length and number of the longest non-self-crossing paths from `start` to `goal` (3
/// pegs, at most [`MAX_COUNT_DISCS`] discs). From a position to itself: length 0, one path.
///
/// # Panics
/// If the positions have different discs, not 3 pegs, or too many discs.
pub fn longest_count(start: &Position, goal: &Position) -> (u64, u128) {
    check(start, goal, MAX_COUNT_DISCS);
    if start == goal {
        return (0, 1);
    }
    let mut dp = Dp::new(start, goal);
    let n = start.discs();
    dp.best(n, true, true, &vec![(U, V)])
        .expect("the state graph is connected")
}

/// The longest non-self-crossing paths from `start` to `goal`, with at most `max_paths` of
/// them written out (3 pegs, at most [`MAX_PATH_DISCS`] discs).
///
/// ```
/// use ply_puzzles::hanoi::{Position, longest::longest_paths};
/// // 2 discs: from "11" (both on peg 1) to "12", through all 9 positions
/// let (a, b) = (Position::parse("11", 2, 3).unwrap(), Position::parse("12", 2, 3).unwrap());
/// let l = longest_paths(&a, &b, 4);
/// assert_eq!((l.length, l.count), (8, 1));
/// ```
///
/// # Panics
/// If the positions have different discs, not 3 pegs, or too many discs.
pub fn longest_paths(start: &Position, goal: &Position, max_paths: usize) -> LongestPaths {
    check(start, goal, MAX_PATH_DISCS);
    if start == goal {
        return LongestPaths {
            length: 0,
            count: 1,
            paths: vec![Vec::new()].into_iter().take(max_paths).collect(),
        };
    }
    let n = start.discs();
    let mut dp = Dp::new(start, goal);
    let top = vec![(U, V)];
    let (length, count) = dp.best(n, true, true, &top).expect("connected");
    let cap = max_paths.max(1);
    let mut rebuilt = HashMap::new();
    let ways = dp.rebuild(n, true, true, &top, cap, &mut rebuilt);
    let paths = ways
        .iter()
        .take(max_paths)
        .map(|way| {
            let codes = &way[0];
            codes
                .windows(2)
                .map(|w| code_move(w[0], w[1]))
                .collect::<Vec<Move>>()
        })
        .collect();
    LongestPaths {
        length,
        count,
        paths,
    }
}

fn check(start: &Position, goal: &Position, max: usize) {
    assert_eq!(start.pegs(), 3, "longest paths are for 3 pegs");
    assert_eq!(goal.pegs(), 3, "longest paths are for 3 pegs");
    assert_eq!(start.discs(), goal.discs(), "different numbers of discs");
    assert!(start.discs() <= max, "at most {max} discs");
}

/// The move between two positions coded in base 3 (digit `d` the peg of disc `d`) that
/// differ in one digit.
fn code_move(a: u64, b: u64) -> Move {
    let (mut x, mut y) = (a, b);
    loop {
        let (p, q) = ((x % 3) as u8, (y % 3) as u8);
        if p != q {
            return Move::new(p, q);
        }
        x /= 3;
        y /= 3;
    }
}

/// One way to make a copy's segments: a vertex list (base-3 codes of the copy's discs) per
/// segment of the spec, from its first terminal to its second.
type Way = Vec<Vec<u64>>;

/// A copy in the memo tables: its number of discs, whether it holds the start and the goal,
/// and the segments asked of it.
type Key = (usize, bool, bool, Spec);

/// A choice inside a copy: the bridges used and each sub-copy's spec.
type Choice = (u8, [Spec; 3]);

struct Dp {
    /// Peg of each disc, smallest first.
    u: Vec<u8>,
    v: Vec<u8>,
    memo: HashMap<Key, Option<(u64, u128)>>,
}

/// Every way to pair the terminals into segments (perfect matchings), each sorted.
fn matchings(terms: &[Terminal]) -> Vec<Spec> {
    if terms.is_empty() {
        return vec![Vec::new()];
    }
    if terms.len() % 2 == 1 {
        return Vec::new();
    }
    let first = terms[0];
    let mut out = Vec::new();
    for i in 1..terms.len() {
        let rest: Vec<Terminal> = terms[1..]
            .iter()
            .enumerate()
            .filter(|&(j, _)| j + 1 != i)
            .map(|(_, &t)| t)
            .collect();
        for mut m in matchings(&rest) {
            let (a, b) = (first.min(terms[i]), first.max(terms[i]));
            m.push((a, b));
            m.sort_unstable();
            out.push(m);
        }
    }
    out
}

impl Dp {
    fn new(start: &Position, goal: &Position) -> Dp {
        Dp {
            u: start.as_slice().to_vec(),
            v: goal.as_slice().to_vec(),
            memo: HashMap::new(),
        }
    }

    /// The terminals of sub-copy `p` (largest disc `m - 1` on peg `p`) of a copy of `m`
    /// discs whose segments are `spec`, with the bridges in `bridges` (bit `r`: the bridge
    /// through sub-corner `r`, between the two sub-copies other than `r`).
    fn sub_terminals(
        &self,
        m: usize,
        cu: bool,
        cv: bool,
        spec: &Spec,
        bridges: u8,
        p: u8,
    ) -> Vec<Terminal> {
        let mut t = Vec::with_capacity(5);
        for r in 0..3u8 {
            let outer = if r == p {
                spec.iter().any(|&(a, b)| a == p || b == p)
            } else {
                bridges & (1 << r) != 0
            };
            if outer {
                t.push(r);
            }
        }
        if cu && self.u[m - 1] == p {
            t.push(U);
        }
        if cv && self.v[m - 1] == p {
            t.push(V);
        }
        t
    }

    /// Every choice of bridges and sub-copy specs that joins into exactly `spec` with no
    /// cycle.
    fn choices(&self, m: usize, cu: bool, cv: bool, spec: &Spec) -> Vec<Choice> {
        let mut out = Vec::new();
        for bridges in 0..8u8 {
            let subs: Vec<Vec<Spec>> = (0..3u8)
                .map(|p| matchings(&self.sub_terminals(m, cu, cv, spec, bridges, p)))
                .collect();
            for s0 in &subs[0] {
                for s1 in &subs[1] {
                    for s2 in &subs[2] {
                        let subs = [s0.clone(), s1.clone(), s2.clone()];
                        if joins_into(&subs, spec) {
                            out.push((bridges, subs));
                        }
                    }
                }
            }
        }
        out
    }

    fn best(&mut self, m: usize, cu: bool, cv: bool, spec: &Spec) -> Option<(u64, u128)> {
        let key = (m, cu, cv, spec.clone());
        if let Some(&r) = self.memo.get(&key) {
            return r;
        }
        let r = if m == 0 {
            // One position: no segment, or one of length 0.
            (spec.len() <= 1).then_some((0, 1))
        } else {
            let mut best: Option<(u64, u128)> = None;
            for (bridges, subs) in self.choices(m, cu, cv, spec) {
                let mut len = u64::from(bridges.count_ones());
                let mut count = 1u128;
                let mut ok = true;
                for (p, sub) in subs.iter().enumerate() {
                    let (su, sv) = (
                        cu && self.u[m - 1] == p as u8,
                        cv && self.v[m - 1] == p as u8,
                    );
                    match self.best(m - 1, su, sv, sub) {
                        Some((l, c)) => {
                            len += l;
                            count = count.saturating_mul(c);
                        }
                        None => {
                            ok = false;
                            break;
                        }
                    }
                }
                if !ok {
                    continue;
                }
                best = match best {
                    Some((bl, bc)) if bl > len => Some((bl, bc)),
                    Some((bl, bc)) if bl == len => Some((bl, bc.saturating_add(count))),
                    _ => Some((len, count)),
                };
            }
            best
        };
        self.memo.insert(key, r);
        r
    }

    /// Up to `cap` optimal ways to make `spec` in the copy of `m` discs.
    fn rebuild(
        &mut self,
        m: usize,
        cu: bool,
        cv: bool,
        spec: &Spec,
        cap: usize,
        done: &mut HashMap<Key, Vec<Way>>,
    ) -> Vec<Way> {
        let key = (m, cu, cv, spec.clone());
        if let Some(w) = done.get(&key) {
            return w.clone();
        }
        let Some((target, _)) = self.best(m, cu, cv, spec) else {
            return Vec::new();
        };
        let mut ways: Vec<Way> = Vec::new();
        if m == 0 {
            ways.push(spec.iter().map(|_| vec![0]).collect());
        } else {
            let step = 3u64.pow(m as u32 - 1);
            for (bridges, subs) in self.choices(m, cu, cv, spec) {
                if ways.len() >= cap {
                    break;
                }
                let mut len = u64::from(bridges.count_ones());
                let mut flags = [(false, false); 3];
                let mut feasible = true;
                for (p, sub) in subs.iter().enumerate() {
                    flags[p] = (
                        cu && self.u[m - 1] == p as u8,
                        cv && self.v[m - 1] == p as u8,
                    );
                    match self.best(m - 1, flags[p].0, flags[p].1, sub) {
                        Some((l, _)) => len += l,
                        None => feasible = false,
                    }
                }
                if !feasible || len != target {
                    continue;
                }
                let sub_ways: Vec<Vec<Way>> = (0..3)
                    .map(|p| self.rebuild(m - 1, flags[p].0, flags[p].1, &subs[p], cap, done))
                    .collect();
                for w0 in &sub_ways[0] {
                    for w1 in &sub_ways[1] {
                        for w2 in &sub_ways[2] {
                            if ways.len() >= cap {
                                break;
                            }
                            ways.push(stitch(&subs, spec, [w0, w1, w2], step));
                        }
                    }
                }
            }
        }
        done.insert(key, ways.clone());
        ways
    }
}

/// A node of the joining graph: sub-copy `p`'s terminal `t`.
type Node = (u8, Terminal);

/// Where a node's outer edge leads: a terminal of the whole copy, or a node across a bridge.
fn outer(node: Node) -> Result<Terminal, Node> {
    let (p, t) = node;
    match t {
        U | V => Ok(t),
        c if c == p => Ok(c),
        r => Err((3 - p - r, r)),
    }
}

/// The other end of the sub-segment at `node`, and whether the segment runs forwards
/// from it.
fn partner(subs: &[Spec; 3], node: Node) -> (Node, usize, bool) {
    let (p, t) = node;
    for (i, &(a, b)) in subs[p as usize].iter().enumerate() {
        if a == t {
            return ((p, b), i, true);
        }
        if b == t {
            return ((p, a), i, false);
        }
    }
    unreachable!("every terminal of a sub-copy is in one of its segments")
}

/// The node whose outer edge is the copy's terminal `t`.
fn entry(subs: &[Spec; 3], t: Terminal) -> Node {
    for (p, sub) in subs.iter().enumerate() {
        for &(a, b) in sub {
            for x in [a, b] {
                if outer((p as u8, x)) == Ok(t) {
                    return (p as u8, x);
                }
            }
        }
    }
    unreachable!("the terminal is in some sub-copy's segment")
}

/// Whether the sub-copies' segments and the bridges join into exactly `spec`'s segments,
/// with every piece used and no cycle.
fn joins_into(subs: &[Spec; 3], spec: &Spec) -> bool {
    let nodes: usize = subs.iter().map(|s| 2 * s.len()).sum();
    // A bridge in use is a terminal of both sub-copies it joins (by construction); walk
    // from every terminal of the copy.
    let mut seen = 0;
    let mut got: Spec = Vec::new();
    for &(a, b) in spec {
        for start in [a, b] {
            let mut node = entry(subs, start);
            loop {
                let (other, _, _) = partner(subs, node);
                seen += 2;
                match outer(other) {
                    Ok(end) => {
                        if start < end {
                            got.push((start, end));
                        }
                        break;
                    }
                    Err(next) => node = next,
                }
                if seen > 2 * nodes {
                    return false;
                }
            }
        }
    }
    got.sort_unstable();
    // Each segment was walked from both ends.
    seen == 2 * nodes && got == *spec
}

/// Joins one way of each sub-copy into one way of the copy: vertex codes of the copy's
/// discs, `step` = 3^(m-1) the weight of its largest disc.
fn stitch(subs: &[Spec; 3], spec: &Spec, ways: [&Way; 3], step: u64) -> Way {
    spec.iter()
        .map(|&(a, _)| {
            let mut path = Vec::new();
            let mut node = entry(subs, a);
            loop {
                let (other, i, forward) = partner(subs, node);
                let p = node.0 as usize;
                let base = step * p as u64;
                let seg = &ways[p][i];
                if forward {
                    path.extend(seg.iter().map(|c| c + base));
                } else {
                    path.extend(seg.iter().rev().map(|c| c + base));
                }
                match outer(other) {
                    Ok(_) => break,
                    Err(next) => node = next,
                }
            }
            path
        })
        .collect()
}
