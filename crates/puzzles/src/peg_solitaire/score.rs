//! The contest scorer: replays a jump list on a weighted board, refusing the first illegal
//! jump, and scores the result (weights left plus one lifting penalty per move).

use thiserror::Error;

use super::board::{Geometry, Hole, Jump, Setup};
use super::moves::WrittenJump;

/// The result of a legal replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// Jumps played.
    pub jumps: usize,
    /// Moves played (runs of jumps by the same peg).
    pub moves: usize,
    /// Pegs left on the board.
    pub pegs_left: u32,
    /// Total weight of the pegs left.
    pub weight_left: u64,
    /// Sum of the lifting penalties: the weight of the moving peg, once per move.
    pub penalty: u64,
    /// The contest score, `weight_left + penalty` (lower is better).
    pub score: u64,
    /// The pegs at the end.
    pub pegs: u64,
    /// The weights at the end, by bit.
    pub weights: Vec<u32>,
    /// The jumps as bit-level jumps.
    pub played: Vec<Jump>,
}

/// Why a jump is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    /// The start cell is not a hole of the board.
    FromOffBoard,
    /// The landing cell is not a hole of the board.
    ToOffBoard,
    /// No peg at the start.
    NoPeg,
    /// The landing hole holds a peg.
    ToOccupied,
    /// Not two cells apart along a jump line.
    NotAJump,
    /// The cell jumped over is empty.
    NothingToJump,
}

impl IllegalReason {
    fn text(self) -> &'static str {
        match self {
            IllegalReason::FromOffBoard => "the start cell is off the board",
            IllegalReason::ToOffBoard => "the landing cell is off the board",
            IllegalReason::NoPeg => "there is no peg at the start",
            IllegalReason::ToOccupied => "the landing hole is not empty",
            IllegalReason::NotAJump => {
                "the holes are not two apart in a row or column (or a diagonal of the triangle)"
            }
            IllegalReason::NothingToJump => "there is no peg to jump over",
        }
    }
}

/// The first illegal jump of a move list.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("jump {row} (line {line}) {from}-{to} is illegal: {}", reason.text())]
pub struct IllegalJumpError {
    /// The 1-based row of the move list.
    pub row: usize,
    /// The 1-based line of the text.
    pub line: usize,
    /// Where the peg started.
    pub from: Hole,
    /// Where it was to land.
    pub to: Hole,
    /// Why it is illegal.
    pub reason: IllegalReason,
}

/// Replays `jumps` from `setup` and scores the end.
///
/// # Errors
/// [`IllegalJumpError`] for the first illegal jump, with its row and the reason.
///
/// ```
/// use ply_puzzles::peg_solitaire::{Setup, parse_contest_moves, replay};
/// // The contest's example: a peg of weight 2 takes 8, then 7.
/// let setup = Setup::parse("t", "[2 8 0 7 0 -1 14]").unwrap();
/// let jumps = parse_contest_moves("1 1 1 3\n1 3 1 5").unwrap();
/// let r = replay(&setup, &jumps).unwrap();
/// assert_eq!((setup.total_weight(), r.score), (31, 18));
/// ```
pub fn replay(setup: &Setup, jumps: &[WrittenJump]) -> Result<Replay, IllegalJumpError> {
    let board = &setup.board;
    let mut pegs = setup.pegs;
    let mut weights = setup.weights.clone();
    let mut penalty = 0u64;
    let mut moves = 0usize;
    let mut last_to: Option<u8> = None;
    let mut played = Vec::with_capacity(jumps.len());
    for w in jumps {
        let err = |reason| IllegalJumpError {
            row: w.row,
            line: w.line,
            from: w.from,
            to: w.to,
            reason,
        };
        let from = board.bit(w.from).ok_or(err(IllegalReason::FromOffBoard))?;
        let to = board.bit(w.to).ok_or(err(IllegalReason::ToOffBoard))?;
        if pegs >> from & 1 == 0 {
            return Err(err(IllegalReason::NoPeg));
        }
        let (dr, dc) = (
            w.to.row as i32 - w.from.row as i32,
            w.to.col as i32 - w.from.col as i32,
        );
        let line = match board.geometry() {
            Geometry::Square => (dr == 0 && dc.abs() == 2) || (dc == 0 && dr.abs() == 2),
            Geometry::Triangular => {
                (dr == 0 && dc.abs() == 2)
                    || (dc == 0 && dr.abs() == 2)
                    || (dr == dc && dr.abs() == 2)
            }
        };
        if !line {
            return Err(err(IllegalReason::NotAJump));
        }
        let mid = Hole::new(
            (w.from.row as i32 + dr / 2) as u8,
            (w.from.col as i32 + dc / 2) as u8,
        );
        let over = board.bit(mid).ok_or(err(IllegalReason::NothingToJump))?;
        if pegs >> over & 1 == 0 {
            return Err(err(IllegalReason::NothingToJump));
        }
        if pegs >> to & 1 == 1 {
            return Err(err(IllegalReason::ToOccupied));
        }
        let jump = Jump { from, over, to };
        if last_to != Some(from) {
            moves += 1;
            penalty += u64::from(weights[from as usize]);
        }
        pegs = jump.apply(pegs);
        weights[to as usize] = weights[from as usize];
        weights[from as usize] = 0;
        weights[over as usize] = 0;
        last_to = Some(to);
        played.push(jump);
    }
    let weight_left: u64 = super::board::bits_of(pegs)
        .map(|b| u64::from(weights[b as usize]))
        .sum();
    Ok(Replay {
        jumps: jumps.len(),
        moves,
        pegs_left: pegs.count_ones(),
        weight_left,
        penalty,
        score: weight_left + penalty,
        pegs,
        weights,
        played,
    })
}

/// Replays bit-level jumps (a solver's output) through the scorer.
///
/// # Errors
/// As [`replay`].
pub fn replay_jumps(setup: &Setup, jumps: &[Jump]) -> Result<Replay, IllegalJumpError> {
    let written: Vec<WrittenJump> = jumps
        .iter()
        .enumerate()
        .map(|(i, j)| WrittenJump {
            from: setup.board.hole(j.from),
            to: setup.board.hole(j.to),
            row: i + 1,
            line: i + 1,
        })
        .collect();
    replay(setup, &written)
}
