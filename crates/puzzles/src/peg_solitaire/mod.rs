//! Peg solitaire on any board, with the 2007 MATLAB contest's weighted scoring.
//!
//! # Rules
//! A board is a matrix: `-1` off the board, `0` an empty hole, a positive number a peg of
//! that weight (classic boards: weight 1). A jump takes a peg horizontally or vertically over
//! exactly one peg into an empty hole; the peg jumped over is removed. On the triangular board
//! pegs also jump along the diagonal. A **move** is a run of consecutive jumps by the same peg.
//! Stopping early is allowed.
//!
//! Contest score (lower is better): the weights of the pegs left plus, for every move, the
//! weight of the peg that moved (its lifting penalty, paid once per move, not per jump).
//! The contest's example: initial total 31; a peg of weight 2 jumps over 8 -> 25; the same
//! peg jumps again over 7 -> 18.
//!
//! ```text
//!   English (33)          French (37)        triangle (15, diagonal jumps)
//!     . . o o o . .         . . o o o . .      o
//!     . . o o o . .         . o o o o o .      o o
//!     o o o o o o o         o o o o o o o      o o o
//!     o o o . o o o         o o o . o o o      o o o o
//!     o o o o o o o         o o o o o o o      o o o o o
//!     . . o o o . .         . o o o o o .
//!     . . o o o . .         . . o o o . .
//! ```
//!
//! # Choices made, and why
//! * Moves are written as the contest wrote them, one jump per row `[r1 c1 r2 c2]`, 1-based
//!   ([`parse_contest_moves`]); classic notation `46-44`, `75-73-53` is row then column from
//!   1, as in Bergholt's 18-move solution quoted by Beasley ([`parse_classic_moves`]).
//! * A contest jump continues the previous move exactly when it starts where the previous
//!   jump landed: that is the only way the same peg can move twice in a row, and it is how
//!   the seed's hand solution (407) and the contest example score.
//! * Boards up to 8x8 use bit `8 * row + col` so that the eight square symmetries are byte
//!   swaps, bit reversal and a transpose; larger boards (Wiegleb, diamond) number holes row
//!   by row and apply symmetries by byte-indexed tables. Either way at most 64 holes.
//! * The triangle is stored left-aligned (row `r` holds columns `0..=r`), so its third jump
//!   line is the matrix diagonal `(+1, +1)`; its six symmetries permute the barycentric
//!   coordinates.
//! * Default starts: the centre (English, French, Wiegleb, diamond), the top hole of the
//!   triangle.
//! * Impossibility is proved, never assumed: first by the position-class argument (Conway;
//!   Beasley's "rule of three": every jump flips the parity of the pegs on all three
//!   diagonals mod 3 it touches), then by exhaustive search with a table of dead positions.
//! * The fewest-moves solver is exact: it enumerates every reachable position and relaxes
//!   moves over the layered graph ([`fewest`]).
//! * Weighted pegs carry their weight when they jump, so the weighted objective searches
//!   positions with weights ([`weighted`]): a fast beam search that says when its result is
//!   not proven optimal, and an exact branch and bound ([`weighted::prove_optimum`],
//!   `ply peg solve --prove`) that proved the weighted English board's optimum, 342 (the
//!   beam finds 377, the seed's hand solution 407).
//!
//! # Variants and parameters
//! The five standard boards ([`Standard`]), any matrix file ([`Setup::parse`]), any start
//! hole, goals of one peg anywhere, one peg in a hole, or a pattern ([`Goal`]); package
//! blocks with wildcard cells ([`package`]); package-and-purge, the seed's search in block
//! space ([`purge`]).

mod board;
pub mod count;
pub mod fewest;
mod matrix;
mod moves;
pub mod objective;
pub mod package;
pub mod picture;
pub mod purge;
mod puzzle;
mod score;
mod solve;
#[cfg(test)]
mod tests;
pub mod weighted;

pub use board::{
    Board, BoardError, Geometry, Hole, Jump, ParseBoardError, Setup, Standard, bits_of, parse_hole,
};
pub use count::{Counts, Levels, Reduce, orbit_size, reachable_levels};
pub use fewest::{Fewest, fewest_moves};
pub use matrix::{Entry, ParseMatrixError, parse_matrix, parse_rows};
pub use moves::{
    ParseMovesError, WrittenJump, format_classic, format_contest, group_moves, jump_holes,
    parse_classic_moves, parse_contest_moves,
};
pub use objective::{Answer, Objective, ScoreSearch, SolveError, solve_for};
pub use puzzle::{ChainMove, HoleJump, PegChains, PegPuzzle};
pub use score::{IllegalJumpError, IllegalReason, Replay, replay, replay_jumps};
pub use solve::{Goal, Outcome, PegHasher, PegSet, Proof, SolveReport, solve};
