//! Positions: which peg each disc is on; parsing, printing, legal moves, and [`Task`], the
//! [`Puzzle`] of going from one position to another.

use std::fmt;

use ply_core::{IllegalMoveError, ParseStateError, Puzzle};

use super::{Move, Peg};

/// The most pegs a position may have (pegs are stored in a byte).
pub const MAX_PEGS: usize = 64;

/// The most discs a position may have: a position holds a peg per disc, and the classic
/// 3-peg count of a million discs already has 301,030 digits (0.4 s, 260 MB to print).
/// Front ends check this before building a position.
pub const MAX_DISCS: usize = 1_000_000;

/// A legal position: the peg of every disc. Any assignment of discs to pegs is legal, since
/// the discs on one peg are always stacked largest at the bottom.
///
/// Text form: one peg number (1-based) per disc, largest disc first; with 10 or more pegs the
/// numbers are separated by commas.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Position {
    pegs: u8,
    /// `on[d]` is the 0-based peg of disc `d`, disc 0 the smallest.
    on: Vec<u8>,
}

impl Position {
    /// Every one of `discs` discs on `peg`.
    ///
    /// # Panics
    /// If `pegs` is not in 3..=[`MAX_PEGS`] or `peg` is not below `pegs`.
    pub fn perfect(discs: usize, pegs: usize, peg: Peg) -> Position {
        assert!((3..=MAX_PEGS).contains(&pegs) && peg.index() < pegs);
        Position {
            pegs: pegs as u8,
            on: vec![peg.0; discs],
        }
    }

    /// A position from the 0-based peg of each disc, smallest disc first.
    ///
    /// # Panics
    /// If `pegs` is not in 3..=[`MAX_PEGS`] or a peg is not below `pegs`.
    pub fn from_pegs(pegs: usize, smallest_first: Vec<u8>) -> Position {
        assert!((3..=MAX_PEGS).contains(&pegs));
        assert!(smallest_first.iter().all(|&p| (p as usize) < pegs));
        Position {
            pegs: pegs as u8,
            on: smallest_first,
        }
    }

    /// Reads a position of `discs` discs on `pegs` pegs: one 1-based peg number per disc,
    /// largest disc first (`1113`), or comma-separated numbers (`1,1,12,3`).
    ///
    /// # Errors
    /// A [`ParseStateError`] (line 1) whose column points at the first wrong character: not a
    /// digit, peg 0 or above `pegs`, too few or too many discs; also when `pegs` is below 3.
    ///
    /// ```
    /// use ply_puzzles::hanoi::{Peg, Position};
    /// let p = Position::parse("1113", 4, 3).unwrap();
    /// assert_eq!(p.peg_of(0), Peg(2)); // disc 1, the smallest, is on peg 3
    /// assert!(Position::parse("1143", 4, 3).is_err());
    /// ```
    pub fn parse(text: &str, discs: usize, pegs: usize) -> Result<Position, ParseStateError> {
        if !(3..=MAX_PEGS).contains(&pegs) {
            return Err(ParseStateError::new(
                1,
                1,
                format!("the number of pegs must be 3 to {MAX_PEGS}, got {pegs}"),
            ));
        }
        // (column, text) of each peg number.
        let fields: Vec<(usize, &str)> = if text.contains(',') {
            let mut col = 1;
            text.split(',')
                .map(|f| {
                    let start = col + (f.len() - f.trim_start().len());
                    col += f.chars().count() + 1;
                    (start, f.trim())
                })
                .collect()
        } else {
            text.char_indices()
                .map(|(i, c)| (text[..i].chars().count() + 1, &text[i..i + c.len_utf8()]))
                .collect()
        };
        let mut largest_first = Vec::with_capacity(discs);
        for (i, &(col, f)) in fields.iter().enumerate() {
            if i == discs {
                return Err(ParseStateError::new(
                    1,
                    col,
                    format!(
                        "too many discs: expected {discs} peg numbers, one per disc, largest first"
                    ),
                ));
            }
            let peg: usize = match f.parse() {
                Ok(p) if f.bytes().all(|b| b.is_ascii_digit()) => p,
                _ => {
                    return Err(ParseStateError::new(
                        1,
                        col,
                        format!("{f:?} is not a peg number: write 1 to {pegs}"),
                    ));
                }
            };
            if peg == 0 || peg > pegs {
                return Err(ParseStateError::new(
                    1,
                    col,
                    format!("peg {peg} does not exist: pegs are numbered 1 to {pegs}"),
                ));
            }
            largest_first.push((peg - 1) as u8);
        }
        if largest_first.len() < discs {
            let col = fields.last().map_or(1, |&(c, f)| c + f.chars().count());
            return Err(ParseStateError::new(
                1,
                col,
                format!(
                    "too few discs: got {} peg numbers, expected {discs} (one per disc, largest first)",
                    largest_first.len()
                ),
            ));
        }
        largest_first.reverse();
        Ok(Position {
            pegs: pegs as u8,
            on: largest_first,
        })
    }

    /// The number of discs.
    pub fn discs(&self) -> usize {
        self.on.len()
    }

    /// The number of pegs.
    pub fn pegs(&self) -> usize {
        self.pegs as usize
    }

    /// The peg of disc `d` (0 the smallest).
    pub fn peg_of(&self, d: usize) -> Peg {
        Peg(self.on[d])
    }

    /// The 0-based peg of every disc, smallest first.
    pub fn as_slice(&self) -> &[u8] {
        &self.on
    }

    /// The peg holding every disc, if there is one.
    pub fn perfect_peg(&self) -> Option<Peg> {
        match self.on.split_first() {
            None => Some(Peg(0)),
            Some((&p, rest)) => rest.iter().all(|&q| q == p).then_some(Peg(p)),
        }
    }

    /// The smallest disc on every peg (`None` for an empty peg).
    pub fn tops(&self) -> Vec<Option<usize>> {
        let mut tops = vec![None; self.pegs()];
        for (d, &p) in self.on.iter().enumerate().rev() {
            tops[p as usize] = Some(d);
        }
        tops
    }

    /// The legal moves, sorted by `from` then `to`.
    pub fn legal_moves(&self) -> Vec<Move> {
        let tops = self.tops();
        let mut moves = Vec::new();
        for (from, top) in tops.iter().enumerate() {
            let Some(d) = *top else { continue };
            for (to, other) in tops.iter().enumerate() {
                if to != from && other.is_none_or(|e| e > d) {
                    moves.push(Move::new(from as u8, to as u8));
                }
            }
        }
        moves
    }

    /// Checks `mv` and gives the disc it would move.
    ///
    /// # Errors
    /// Says why the move is not legal: a peg that does not exist, the same peg twice, an empty
    /// peg, or a larger disc onto a smaller one.
    pub fn check(&self, mv: Move) -> Result<usize, IllegalMoveError<Move>> {
        let err = |reason: String| IllegalMoveError { mv, reason };
        for peg in [mv.from, mv.to] {
            if peg.index() >= self.pegs() {
                return Err(err(format!(
                    "peg {peg} does not exist: pegs are numbered 1 to {}",
                    self.pegs
                )));
            }
        }
        if mv.from == mv.to {
            return Err(err("a disc must move to another peg".to_string()));
        }
        let tops = self.tops();
        let Some(d) = tops[mv.from.index()] else {
            return Err(err(format!("peg {} is empty", mv.from)));
        };
        if let Some(e) = tops[mv.to.index()].filter(|&e| e < d) {
            return Err(err(format!(
                "disc {} cannot go onto the smaller disc {} on peg {}",
                d + 1,
                e + 1,
                mv.to
            )));
        }
        Ok(d)
    }

    /// Plays `mv` if it is legal, giving the disc moved (0 the smallest).
    ///
    /// # Errors
    /// As [`Position::check`]; the position is then unchanged.
    pub fn play(&mut self, mv: Move) -> Result<usize, IllegalMoveError<Move>> {
        let d = self.check(mv)?;
        self.on[d] = mv.to.0;
        Ok(d)
    }

    /// Plays `mv`, assumed legal: moves the smallest disc of `mv.from` to `mv.to`.
    ///
    /// # Panics
    /// If `mv.from` is empty.
    pub fn play_unchecked(&mut self, mv: Move) {
        let d = self
            .on
            .iter()
            .position(|&p| p == mv.from.0)
            .expect("move from an empty peg");
        self.on[d] = mv.to.0;
    }

    /// Every peg's discs from the bottom up (numbered from 1), each followed by a comma, the
    /// pegs separated by ` : `, as seed 000's Java program prints a position:
    /// `6,5,4,3,2, :  : 1, : `.
    pub fn towers_line(&self) -> String {
        let towers: Vec<String> = (0..self.pegs())
            .map(|peg| {
                (0..self.discs())
                    .rev()
                    .filter(|&d| self.peg_of(d).index() == peg)
                    .map(|d| format!("{},", d + 1))
                    .collect()
            })
            .collect();
        towers.join(" : ")
    }

    /// The pegs drawn in ASCII, discs as `[==3==]`, peg numbers underneath.
    pub fn diagram(&self) -> String {
        let n = self.discs();
        let width = 2 * n + 3;
        let mut stacks: Vec<Vec<usize>> = vec![Vec::new(); self.pegs()];
        for d in (0..n).rev() {
            stacks[self.on[d] as usize].push(d);
        }
        let mut out = String::new();
        for row in (0..=n).rev() {
            for stack in &stacks {
                let cell = match stack.get(row) {
                    None => format!("{:^width$}", "|"),
                    Some(&d) => {
                        let half = "=".repeat(d);
                        format!("{:^width$}", format!("[{half}{}{half}]", (d + 1) % 10))
                    }
                };
                out.push_str(&cell);
            }
            out = out.trim_end().to_string();
            out.push('\n');
        }
        out.push_str(&"-".repeat(width * self.pegs()));
        out.push('\n');
        for p in 0..self.pegs() {
            out.push_str(&format!("{:^width$}", p + 1));
        }
        out.trim_end().to_string()
    }
}

impl fmt::Display for Position {
    /// The text form: 1-based pegs, largest disc first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.pegs > 9 { "," } else { "" };
        for (i, &p) in self.on.iter().rev().enumerate() {
            if i > 0 {
                f.write_str(sep)?;
            }
            write!(f, "{}", p + 1)?;
        }
        Ok(())
    }
}

/// Going from one position to a goal position: the [`Puzzle`] that the generic searches of
/// `ply_search::puzzle` solve, to cross-check the specialised solvers.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Task {
    /// The current position.
    pub position: Position,
    /// The goal.
    pub goal: Position,
}

impl Puzzle for Task {
    type Move = Move;

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        moves.extend(self.position.legal_moves());
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.position.play_unchecked(mv);
    }

    fn is_solved(&self) -> bool {
        self.position == self.goal
    }
}
