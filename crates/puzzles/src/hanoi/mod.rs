//! Tower of Hanoi with any number of pegs, from any legal position to any legal position.
//!
//! # Rules
//! `n` discs of distinct sizes sit on `k >= 3` pegs. A move takes the top (smallest) disc of
//! one peg and puts it on another peg that is empty or whose top disc is larger. A task asks
//! for a sequence of moves from one legal position to another; the classic task starts with
//! every disc on peg 1 (a *perfect tower*) and ends with every disc on peg `k`.
//!
//! ```text
//!   discs 4, 3, 2 on peg 1, disc 1 on peg 3: position "1113"
//!      |          |          |
//!      |          |          |
//!    [=2=]        |          |
//!   [==3==]       |          |
//!  [===4===]      |         [1]
//! ---------------------------------
//!      1          2          3
//! ```
//!
//! # Choices made, and why
//! * **Pegs are numbered from 1 in text** ([`Peg`] displays 1-based), as in the seed's Java
//!   program (`strB.append(source + 1)`); inside, pegs are 0-based.
//! * **A position is one peg per disc, largest disc first** (`1113` above), as the issue's
//!   interface fixes; inside, [`Position`] stores the smallest disc first, so that disc `d`
//!   (0-based, 0 the smallest) is index `d` and the bit `d` of a move number (binary solution).
//! * **Defaults**: start all on peg 1, goal all on peg `k`.
//! * **Optimality is stated, never assumed** ([`Optimality`]): 3 pegs are solved exactly for
//!   any pair of positions (Hinz 1992); for `k >= 4` the Frame–Stewart numbers are proven
//!   optimal for perfect towers only for 4 pegs (Bousch 2014) and for `n < k` (each disc but the
//!   largest must move at least twice); every other `k >= 4` answer is an upper bound unless the
//!   packed breadth-first search ([`bfs`]) found it. Frame–Stewart is *not* optimal between
//!   arbitrary positions: on 4 pegs some tasks need the largest disc to move three times.
//! * **Hinz's average-distance constant is 12/59**: the seed writes 12/29, which is a typo;
//!   the test `hinz_average_formula_with_12_over_59` checks the formula against exhaustive
//!   sums of distances for n = 1..7.
//! * **Frame–Stewart splits**: among the optimal `l` (the number of smallest discs parked with
//!   all pegs) the largest is taken, as the seed's `getSteps` does (it scans `l` downwards and
//!   keeps the first strict minimum); this reproduces the seed's 17-move 6-disc output move
//!   for move.
//!
//! # Parts
//! * [`position`]: [`Position`], parsing and printing, [`Task`] (implements
//!   [`ply_core::Puzzle`] so the generic searches can cross-check).
//! * [`three_peg`]: the recursive and binary classic solutions, the k-th move in O(n), exact
//!   distances and every shortest path between two positions (Hinz), and the longest
//!   non-self-crossing solution of 3^n - 1 moves.
//! * [`longest`]: the longest non-self-crossing paths between any two 3-peg positions and
//!   how many there are (seed 002's properties 3 and 4).
//! * [`frame_stewart`]: exact Frame–Stewart numbers with big integers, optimal splits, tower
//!   moves on any number of pegs, and an upper-bound solver between any two positions.
//! * [`bfs`]: exact breadth-first search over packed states (2 bits per position to explore,
//!   3 to find paths), on every core.
//! * [`graph`]: the 3-peg state graph (Sierpinski triangle) as SVG or Graphviz dot.
//! * [`mod@solve`]: picks the right method for a task and says whether the answer is proven.
//!
//! Every move sequence is an iterator ([`Moves`]) that yields moves as it goes, so a 40-disc
//! solution starts at once and runs in memory linear in `n`; [`Moves::fill`] writes them a
//! block at a time, copying the classic transfers of the 10 smallest discs from templates
//! (the fast way to stream: over 500 million moves a second); [`text::write_moves`] copies
//! the transfers of the 12 smallest discs as ready-made text the same way.

pub mod bfs;
pub mod frame_stewart;
pub mod graph;
pub mod longest;
mod plan;
pub mod position;
pub mod solve;
pub mod text;
pub mod three_peg;

#[cfg(test)]
mod tests;

use std::fmt;

pub use plan::Moves;
pub use position::{Position, Task};
pub use solve::{Optimality, Solution, SolveError, solve};

/// A peg, 0-based inside, displayed 1-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Peg(pub u8);

impl Peg {
    /// The 0-based index.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The peg as seed 002's programs name it: `A`, `B`, `C`, ... up to `Z`, then its
    /// number from 1.
    pub fn letter(self) -> String {
        if self.0 < 26 {
            char::from(b'A' + self.0).to_string()
        } else {
            (self.0 + 1).to_string()
        }
    }
}

impl fmt::Display for Peg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

/// One move: the top disc of `from` goes onto `to`. Ordered by `from`, then `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Move {
    /// The peg the disc leaves.
    pub from: Peg,
    /// The peg the disc goes to.
    pub to: Peg,
}

impl Move {
    /// The move from `from` to `to` (0-based pegs).
    pub fn new(from: u8, to: u8) -> Move {
        Move {
            from: Peg(from),
            to: Peg(to),
        }
    }

    /// The same move played backwards.
    pub fn reversed(self) -> Move {
        Move {
            from: self.to,
            to: self.from,
        }
    }
}

impl fmt::Display for Move {
    /// `FROM TO`, 1-based, as `ply hanoi solve` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.from, self.to)
    }
}
