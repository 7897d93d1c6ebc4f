//! Choosing a method for a task and saying whether its answer is proven optimal.
//!
//! * 3 pegs: Hinz's exact method, any start, any goal, both shortest paths where two exist.
//! * `k >= 4`, perfect tower to perfect tower: Frame–Stewart; proven for `k = 4` (Bousch
//!   2014) and for `n < k`; otherwise checked by breadth-first search when it fits in the
//!   memory allowed.
//! * `k >= 4`, other tasks: breadth-first search when it fits (proven), else the gathering
//!   method of [`super::frame_stewart`] (an upper bound).

use std::fmt;

use num_bigint::BigUint;

use super::bfs::Bfs;
use super::frame_stewart::{FrameStewart, frame_stewart, upper_bound_plan};
use super::plan::{Step, plan_len};
use super::three_peg;
use super::{Moves, Position};

/// Whether a solution's length is known to be the least possible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Optimality {
    /// Proven shortest.
    Proven,
    /// A legal solution, perhaps not the shortest.
    UpperBound,
}

impl fmt::Display for Optimality {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Optimality::Proven => "proven",
            Optimality::UpperBound => "upper-bound",
        })
    }
}

/// How a solution was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Hinz's exact 3-peg method.
    Hinz,
    /// The Frame–Stewart tower transfer.
    FrameStewart,
    /// Breadth-first search over every position.
    Bfs,
    /// The gathering method (the seed's 4-peg algorithm generalised to any start).
    Gathering,
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Method::Hinz => "Hinz's exact 3-peg method",
            Method::FrameStewart => "Frame–Stewart",
            Method::Bfs => "breadth-first search",
            Method::Gathering => "the gathering method",
        })
    }
}

/// A task that cannot be solved as given.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "start and goal differ in shape: {start_discs} discs on {start_pegs} pegs against {goal_discs} discs on {goal_pegs} pegs"
)]
pub struct SolveError {
    /// Discs of the start.
    pub start_discs: usize,
    /// Pegs of the start.
    pub start_pegs: usize,
    /// Discs of the goal.
    pub goal_discs: usize,
    /// Pegs of the goal.
    pub goal_pegs: usize,
}

/// A solution: its length, whether that is proven optimal, and its moves on demand.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The number of moves.
    pub length: BigUint,
    /// Whether `length` is proven least.
    pub optimality: Optimality,
    /// How it was found.
    pub method: Method,
    /// One plan per distinct shortest path known (two only on 3 pegs, where Hinz's method
    /// finds every shortest path).
    plans: Vec<Vec<Step>>,
}

impl Solution {
    /// The moves, lazily.
    pub fn moves(&self) -> Moves {
        Moves::new(self.plans[0].clone(), FrameStewart::new())
    }

    /// How many different shortest paths are given (1 or 2).
    pub fn paths(&self) -> usize {
        self.plans.len()
    }

    /// The moves of the `i`-th shortest path, if there is one.
    pub fn path(&self, i: usize) -> Option<Moves> {
        self.plans
            .get(i)
            .map(|p| Moves::new(p.clone(), FrameStewart::new()))
    }
}

/// What [`solve`] may spend.
#[derive(Clone, Copy, Debug)]
pub struct SolveLimits {
    /// The most memory for a breadth-first search, in bytes (0: never search).
    pub bfs_bytes: u128,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits { bfs_bytes: 6 << 20 }
    }
}

/// Solves the task `start` to `goal` by the best method available within `limits`.
///
/// ```
/// use ply_puzzles::hanoi::{Optimality, Peg, Position, solve, solve::SolveLimits};
/// let start = Position::perfect(6, 4, Peg(0));
/// let goal = Position::perfect(6, 4, Peg(3));
/// let s = solve(&start, &goal, SolveLimits::default()).unwrap();
/// assert_eq!(s.length.to_string(), "17");
/// assert_eq!(s.optimality, Optimality::Proven);
/// assert_eq!(s.moves().count(), 17);
/// ```
///
/// # Errors
/// [`SolveError`] if the positions differ in discs or pegs.
pub fn solve(
    start: &Position,
    goal: &Position,
    limits: SolveLimits,
) -> Result<Solution, SolveError> {
    if start.discs() != goal.discs() || start.pegs() != goal.pegs() {
        return Err(SolveError {
            start_discs: start.discs(),
            start_pegs: start.pegs(),
            goal_discs: goal.discs(),
            goal_pegs: goal.pegs(),
        });
    }
    let (n, k) = (start.discs(), start.pegs());
    if k == 3 {
        return Ok(Solution {
            length: three_peg::distance(start, goal),
            optimality: Optimality::Proven,
            method: Method::Hinz,
            plans: three_peg::shortest_plans(start, goal),
        });
    }
    let bfs_fits = Bfs::path_memory_needed(n, k) <= limits.bfs_bytes;
    let mut fs = FrameStewart::new();
    if let (Some(a), Some(b)) = (start.perfect_peg(), goal.perfect_peg()) {
        let plan = upper_bound_plan(start, goal);
        let length = if a == b {
            BigUint::default()
        } else {
            frame_stewart(n, k)
        };
        debug_assert_eq!(length, plan_len(&plan, &mut fs));
        let proven = a == b || k == 4 || n < k;
        if proven || !bfs_fits {
            return Ok(Solution {
                length,
                optimality: if proven {
                    Optimality::Proven
                } else {
                    Optimality::UpperBound
                },
                method: Method::FrameStewart,
                plans: vec![plan],
            });
        }
        let path = bfs_path(start, goal, limits);
        if BigUint::from(path.len()) == length {
            return Ok(Solution {
                length,
                optimality: Optimality::Proven,
                method: Method::FrameStewart,
                plans: vec![plan],
            });
        }
        return Ok(from_path(path));
    }
    if bfs_fits {
        return Ok(from_path(bfs_path(start, goal, limits)));
    }
    let plan = upper_bound_plan(start, goal);
    Ok(Solution {
        length: plan_len(&plan, &mut fs),
        optimality: Optimality::UpperBound,
        method: Method::Gathering,
        plans: vec![plan],
    })
}

fn bfs_path(start: &Position, goal: &Position, limits: SolveLimits) -> Vec<super::Move> {
    let mut bfs =
        Bfs::for_paths(start.discs(), start.pegs(), limits.bfs_bytes).expect("size checked before");
    bfs.shortest_path(start, goal, &mut |_, _| {})
}

fn from_path(path: Vec<super::Move>) -> Solution {
    Solution {
        length: BigUint::from(path.len()),
        optimality: Optimality::Proven,
        method: Method::Bfs,
        plans: vec![path.into_iter().map(Step::One).collect()],
    }
}

/// The longest non-self-crossing transfer of a perfect tower of `n` discs on 3 pegs from
/// `from` to `to`: 3^n - 1 moves through every position once.
///
/// # Panics
/// If `from == to` or either is not below 3.
pub fn longest(n: usize, from: super::Peg, to: super::Peg) -> Moves {
    assert!(from != to && from.0 < 3 && to.0 < 3);
    let via = super::Peg(3 - from.0 - to.0);
    Moves::new(
        three_peg::longest_plan(n, from, to, via),
        FrameStewart::new(),
    )
}
