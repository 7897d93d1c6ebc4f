//! xathis's economy (the 2011 winner's `Strategy.java`, written anew): where the ants
//! that have no food, fight or hill to go for stand, so that they hold and see as much of
//! the map as they can and food is near one of them when it spawns.
//!
//! * **Explore value**: every square's value is the number of turns since it was last
//!   within [`COVER`] steps of an own ant (a square never covered starts at [`NEVER`]).
//!   An idle ant sums the values of the squares exactly [`HORIZON`] steps away, each
//!   credited to every first step that begins a shortest path to it, and takes the best
//!   first step; the squares it credited are then reset, so the next ant looks elsewhere.
//! * **Distribution**: an idle ant that has nothing to explore (or an enemy near) steps to
//!   the neighbour from which the own ants around it own the most area: one
//!   breadth-first search from every ant (ours and the enemies') within
//!   [`OWN_NEIGHBOURS`] steps gives each square within [`OWN_DEPTH`] steps to its nearest
//!   ant, and each of our squares is worth `10 + OWN_DEPTH - distance`. Ants so placed
//!   stand spread over the region they hold instead of bunching at its edge.
//!
//! The boundary: squares, water and ants in, values out; which ants are idle and how the
//! steps are taken is the phalanx's business (`bot/phalanx.rs`). All the work is counted
//! in squares visited, which the phalanx caps per turn, so a turn's work is bounded.
//!
//! Why (docs/strength.md, session 32): in session 30's replays against xathis, the food
//! spawned in turns 100-199 was nearer (by path) to one of his ants than to ours 195
//! times to 168, and each side gathered about what was nearer to it (192 and 178): the
//! food race is won by where the ants stand when food spawns, not by the chase.

use std::collections::VecDeque;

use super::super::geometry::{Dir, Torus};
use super::super::map::Loc;

/// Steps within which an own ant covers a square (its explore value drops to nothing).
pub const COVER: u32 = 10;
/// Steps out at which an explorer sums the explore values: one beyond what it covers.
pub const HORIZON: u32 = COVER + 1;
/// Steps within which distribution counts the area an ant owns (xathis: 9).
pub const OWN_DEPTH: u32 = 9;
/// Ants within this Manhattan distance of a distributed ant are weighed with it.
pub const OWN_NEIGHBOURS: usize = 2 * OWN_DEPTH as usize + 2;
/// The explore value at turn 0 of a square never covered (xathis's start value).
pub const NEVER: i64 = 100;

/// Reusable breadth-first search marks: a square is marked when its stamp is the current
/// generation, so a search does not clear a map-sized array.
#[derive(Clone, Debug, Default)]
pub(super) struct Marks {
    stamp: Vec<u32>,
    generation: u32,
    dist: Vec<u32>,
    /// Per square: the first steps (a bit per direction) or the owner (1: ours).
    tag: Vec<u8>,
}

impl Marks {
    /// Starts a new search over `n` squares.
    fn start(&mut self, n: usize) {
        if self.stamp.len() != n {
            *self = Marks {
                stamp: vec![0; n],
                generation: 0,
                dist: vec![0; n],
                tag: vec![0; n],
            };
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }

    fn marked(&self, i: usize) -> bool {
        self.stamp[i] == self.generation
    }

    fn mark(&mut self, i: usize, dist: u32, tag: u8) {
        self.stamp[i] = self.generation;
        self.dist[i] = dist;
        self.tag[i] = tag;
    }

    /// Visits each square within `reach` steps of `sources` (around `water`) once, nearest
    /// first; returns the squares visited.
    fn within(
        &mut self,
        t: Torus,
        water: &[bool],
        sources: &[Loc],
        reach: u32,
        mut visit: impl FnMut(usize),
    ) -> u64 {
        self.start(t.area());
        let mut q = VecDeque::new();
        for &s in sources {
            let i = t.index(s);
            if !self.marked(i) {
                self.mark(i, 0, 0);
                q.push_back(i);
            }
        }
        let mut work = 0;
        while let Some(c) = q.pop_front() {
            work += 1;
            visit(c);
            let dc = self.dist[c];
            if dc >= reach {
                continue;
            }
            let cl = t.loc(c);
            for d in Dir::ALL {
                let i = t.index(t.step(cl, d));
                if !water[i] && !self.marked(i) {
                    self.mark(i, dc + 1, 0);
                    q.push_back(i);
                }
            }
        }
        work
    }
}

/// The first-step sums of a square's explore values seen from `a`: for each direction (in
/// [`Dir::ALL`] order), the sum of `value` over the squares exactly [`HORIZON`] steps away
/// (around `water`) that a shortest path starting with that step reaches; also those
/// squares with their first steps as bits, and the squares visited (`work`).
pub(super) fn horizon_values(
    t: Torus,
    water: &[bool],
    a: Loc,
    value: impl Fn(usize) -> i64,
    marks: &mut Marks,
) -> ([i64; 4], Vec<(usize, u8)>, u64) {
    marks.start(t.area());
    let mut q = VecDeque::new();
    let ai = t.index(a);
    marks.mark(ai, 0, 0);
    for (j, d) in Dir::ALL.into_iter().enumerate() {
        let i = t.index(t.step(a, d));
        if !water[i] && !marks.marked(i) {
            marks.mark(i, 1, 1 << j);
            q.push_back(i);
        }
    }
    let mut sums = [0i64; 4];
    let mut horizon = Vec::new();
    let mut work = 0u64;
    while let Some(c) = q.pop_front() {
        work += 1;
        let dc = marks.dist[c];
        let tc = marks.tag[c];
        if dc == HORIZON {
            let v = value(c);
            for (j, s) in sums.iter_mut().enumerate() {
                if tc & (1 << j) != 0 {
                    *s += v;
                }
            }
            horizon.push((c, tc));
            continue;
        }
        let cl = t.loc(c);
        for d in Dir::ALL {
            let i = t.index(t.step(cl, d));
            if water[i] {
                continue;
            }
            if !marks.marked(i) {
                marks.mark(i, dc + 1, tc);
                q.push_back(i);
            } else if marks.dist[i] == dc + 1 {
                marks.tag[i] |= tc;
            }
        }
    }
    (sums, horizon, work)
}

/// The area our ants own among `sources` (square, ours?), taken in order: one
/// breadth-first search from all of them (around `water`) gives each square within
/// `depth` steps to its nearest source, the first in order among equally near ones; each
/// square of ours at distance `d` (from 1) is worth `10 + depth - d`. Also the squares
/// visited.
pub(super) fn owned_area(
    t: Torus,
    water: &[bool],
    sources: &[(Loc, bool)],
    depth: u32,
    marks: &mut Marks,
) -> (i64, u64) {
    marks.start(t.area());
    let mut q = VecDeque::new();
    for &(s, ours) in sources {
        let i = t.index(s);
        if !marks.marked(i) {
            marks.mark(i, 0, u8::from(ours));
            q.push_back(i);
        }
    }
    let mut value = 0i64;
    let mut work = 0u64;
    while let Some(c) = q.pop_front() {
        work += 1;
        let dc = marks.dist[c];
        if dc >= depth {
            continue;
        }
        let tc = marks.tag[c];
        let cl = t.loc(c);
        for d in Dir::ALL {
            let i = t.index(t.step(cl, d));
            if water[i] || marks.marked(i) {
                continue;
            }
            marks.mark(i, dc + 1, tc);
            q.push_back(i);
            if tc == 1 {
                value += 10 + i64::from(depth) - i64::from(dc + 1);
            }
        }
    }
    (value, work)
}

/// Whether a square `i` whose hostile mark (one more than the turn, 0 never) is `marks[i]`
/// was marked within the last `memory` turns before `turn`.
fn recent(marks: &[u32], i: usize, turn: u32, memory: u32) -> bool {
    memory > 0
        && marks
            .get(i)
            .is_some_and(|&h| h > 0 && turn + 1 - h < memory)
}

/// The economy's memory over a game: when each square was last covered, and the
/// search marks.
#[derive(Clone, Debug, Default)]
pub(super) struct Economy {
    /// Per square, the turn it was last within [`COVER`] steps of an own ant (or
    /// `-NEVER`).
    covered: Vec<i64>,
    /// Per square, one more than the turn it was last within the hostile reach of a
    /// visible enemy (0: never; [`Economy::mark_hostile`]).
    hostile: Vec<u32>,
    marks: Marks,
}

impl Economy {
    /// Marks the squares within [`COVER`] steps of `sources` (own ants and hills) as
    /// covered at `turn`; returns the squares visited.
    pub(super) fn cover(&mut self, t: Torus, water: &[bool], sources: &[Loc], turn: u32) -> u64 {
        if self.covered.len() != t.area() {
            self.covered = vec![-NEVER; t.area()];
        }
        let covered = &mut self.covered;
        self.marks
            .within(t, water, sources, COVER, |c| covered[c] = i64::from(turn))
    }

    /// Marks the squares within `reach` steps of `foes` (the enemies in view) as hostile
    /// at `turn`; returns the squares visited.
    pub(super) fn mark_hostile(
        &mut self,
        t: Torus,
        water: &[bool],
        foes: &[Loc],
        reach: u32,
        turn: u32,
    ) -> u64 {
        if self.hostile.len() != t.area() {
            self.hostile = vec![0; t.area()];
        }
        let hostile = &mut self.hostile;
        self.marks
            .within(t, water, foes, reach, |c| hostile[c] = turn + 1)
    }

    /// Whether square `i` was marked hostile within the last `memory` turns before `turn`
    /// (never with `memory` 0).
    pub(super) fn hostile(&self, i: usize, turn: u32, memory: u32) -> bool {
        recent(&self.hostile, i, turn, memory)
    }

    /// The steps from `a` worth exploring, best first (those with a positive sum of
    /// explore values on the horizon, among `allowed` squares); the squares on the
    /// horizon of the best one are reset, so that other ants look elsewhere. A square
    /// marked hostile within the last `memory` turns is worth nothing (0: every square
    /// counts). Also the squares visited.
    pub(super) fn explore(
        &mut self,
        t: Torus,
        water: &[bool],
        (a, turn, memory): (Loc, u32, u32),
        allowed: impl Fn(Loc) -> bool,
    ) -> (Vec<Loc>, u64) {
        let covered = std::mem::take(&mut self.covered);
        let hostile = &self.hostile;
        let value = |i: usize| {
            if recent(hostile, i, turn, memory) {
                0
            } else {
                i64::from(turn) - covered[i]
            }
        };
        let (sums, horizon, work) = horizon_values(t, water, a, value, &mut self.marks);
        self.covered = covered;
        let mut steps: Vec<(i64, usize, Loc)> = Dir::ALL
            .into_iter()
            .enumerate()
            .map(|(j, d)| (sums[j], j, t.step(a, d)))
            .filter(|&(v, _, l)| v > 0 && allowed(l))
            .collect();
        steps.sort_by_key(|&(v, j, _)| (std::cmp::Reverse(v), j));
        if let Some(&(_, j, _)) = steps.first() {
            for (i, bits) in horizon {
                if bits & (1 << j) != 0 {
                    self.covered[i] = i64::from(turn);
                }
            }
        }
        (steps.into_iter().map(|(_, _, l)| l).collect(), work)
    }

    /// `options` (squares `a` may stand on next, holding included if allowed) ordered by
    /// the area our ants own from there, best first (ties in the order given): `others`
    /// are the other ants near `a` (square, ours?), enemies first. Also the squares
    /// visited.
    pub(super) fn distribute(
        &mut self,
        t: Torus,
        water: &[bool],
        options: &[Loc],
        others: &[(Loc, bool)],
    ) -> (Vec<Loc>, u64) {
        let mut work = 0;
        let mut sources: Vec<(Loc, bool)> = others.to_vec();
        let mut scored: Vec<(i64, usize, Loc)> = Vec::new();
        for (j, &o) in options.iter().enumerate() {
            sources.push((o, true));
            let (v, w) = owned_area(t, water, &sources, OWN_DEPTH, &mut self.marks);
            sources.pop();
            work += w;
            scored.push((v, j, o));
        }
        scored.sort_by_key(|&(v, j, _)| (std::cmp::Reverse(v), j));
        (scored.into_iter().map(|(_, _, l)| l).collect(), work)
    }
}
