//! Reaching a goal (one peg anywhere, one peg in a given hole, or an exact pattern) by
//! depth-first search over jumps, with the position-class test at the root and a table of
//! dead positions (canonical under the symmetries that fix the goal).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::board::{Board, Jump, bits_of};

/// A fast hasher for `u64` positions (a multiply and a rotate; the keys are already spread
/// over many bits, and nothing here faces hostile input).
#[derive(Default, Clone, Copy)]
pub struct PegHasher(u64);

impl Hasher for PegHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 ^= self.0 >> 29;
    }
}

/// A hash set of positions.
pub type PegSet = HashSet<u64, BuildHasherDefault<PegHasher>>;

/// What counts as finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// One peg left, anywhere.
    OnePeg,
    /// Exactly these pegs (one peg in a given hole is a one-bit pattern).
    Pattern(u64),
}

impl Goal {
    /// Whether `pegs` is finished.
    #[inline]
    pub fn reached(self, pegs: u64) -> bool {
        match self {
            Goal::OnePeg => pegs.count_ones() == 1,
            Goal::Pattern(p) => pegs == p,
        }
    }

    /// How many pegs the goal has.
    pub fn pegs(self) -> u32 {
        match self {
            Goal::OnePeg => 1,
            Goal::Pattern(p) => p.count_ones(),
        }
    }

    /// The position classes of the finished positions.
    pub fn classes(self, board: &Board) -> Vec<u8> {
        let mut c: Vec<u8> = match self {
            Goal::OnePeg => board.bits().map(|b| board.position_class(1 << b)).collect(),
            Goal::Pattern(p) => vec![board.position_class(p)],
        };
        c.sort_unstable();
        c.dedup();
        c
    }

    /// Whether every symmetry of the board maps the goal onto itself (then positions may be
    /// identified up to symmetry).
    pub fn symmetric(self, board: &Board) -> bool {
        match self {
            Goal::OnePeg => true,
            Goal::Pattern(p) => board.images(p).iter().all(|&i| i == p),
        }
    }
}

/// Why there is no solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    /// The start's position class differs from every finished position's class; classes
    /// never change, so no sequence of jumps can get there.
    PositionClass {
        /// The start's class.
        start: u8,
        /// The classes of the finished positions.
        goals: Vec<u8>,
    },
    /// The goal has more pegs than the start: jumps only remove pegs.
    TooFewPegs,
    /// Every position reachable from the start was searched and none is finished.
    Exhaustive {
        /// Distinct positions (up to symmetry when the goal allows it) searched.
        positions: u64,
    },
}

impl std::fmt::Display for Proof {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Proof::PositionClass { start, goals } => write!(
                f,
                "position-class argument: the start is in class {start}, every finished position in one of {goals:?}; each jump keeps the class (it flips the parity of all three diagonals mod 3 it touches), so no solution exists"
            ),
            Proof::TooFewPegs => f.write_str("the goal has more pegs than the start"),
            Proof::Exhaustive { positions } => write!(
                f,
                "exhaustive search: all {positions} reachable positions visited, none finished"
            ),
        }
    }
}

/// The answer of a solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A solution, as jumps.
    Solved(Vec<Jump>),
    /// No solution, and why.
    Impossible(Proof),
}

/// The result of [`solve`], with the work done.
#[derive(Clone, Debug)]
pub struct SolveReport {
    /// Solution or proof.
    pub outcome: Outcome,
    /// Positions expanded.
    pub nodes: u64,
}

/// Finds a sequence of jumps from `pegs` to `goal`, or proves there is none.
///
/// ```
/// use ply_puzzles::peg_solitaire::{Goal, Outcome, Standard, solve};
/// let board = Standard::English.board();
/// let start = board.full_but(1 << 27); // bit 8 * 3 + 3: the centre
/// let report = solve(&board, start, Goal::Pattern(1 << 27));
/// assert!(matches!(report.outcome, Outcome::Solved(ref j) if j.len() == 31));
/// ```
pub fn solve(board: &Board, pegs: u64, goal: Goal) -> SolveReport {
    if goal.pegs() > pegs.count_ones() {
        return SolveReport {
            outcome: Outcome::Impossible(Proof::TooFewPegs),
            nodes: 0,
        };
    }
    let start_class = board.position_class(pegs);
    let goals = goal.classes(board);
    if !goals.contains(&start_class) {
        return SolveReport {
            outcome: Outcome::Impossible(Proof::PositionClass {
                start: start_class,
                goals,
            }),
            nodes: 0,
        };
    }
    let mut s = Search {
        board,
        goal,
        symmetric: goal.symmetric(board),
        dead: PegSet::default(),
        path: Vec::new(),
        nodes: 0,
        goal_pegs: goal.pegs(),
        goal_classes: goals,
    };
    if s.dfs(pegs) {
        SolveReport {
            outcome: Outcome::Solved(s.path),
            nodes: s.nodes,
        }
    } else {
        SolveReport {
            outcome: Outcome::Impossible(Proof::Exhaustive {
                positions: s.dead.len() as u64,
            }),
            nodes: s.nodes,
        }
    }
}

struct Search<'a> {
    board: &'a Board,
    goal: Goal,
    symmetric: bool,
    dead: PegSet,
    path: Vec<Jump>,
    nodes: u64,
    goal_pegs: u32,
    goal_classes: Vec<u8>,
}

impl Search<'_> {
    fn dfs(&mut self, pegs: u64) -> bool {
        if self.goal.reached(pegs) {
            return true;
        }
        if pegs.count_ones() <= self.goal_pegs {
            return false;
        }
        let key = if self.symmetric {
            self.board.canonical(pegs)
        } else {
            pegs
        };
        if self.dead.contains(&key) {
            return false;
        }
        self.nodes += 1;
        debug_assert!(self.goal_classes.contains(&self.board.position_class(pegs)));
        for bit in bits_of(pegs) {
            for &j in self.board.jumps_from(bit) {
                if j.legal(pegs) {
                    self.path.push(j);
                    if self.dfs(j.apply(pegs)) {
                        return true;
                    }
                    self.path.pop();
                }
            }
        }
        self.dead.insert(key);
        false
    }
}
