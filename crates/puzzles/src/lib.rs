//! The puzzles ply solves, one folder per puzzle (`hanoi/`, `peg_solitaire/`, `sudoku/`),
//! each opening with its rules and the choices made, then its formats and solvers.
//!
//! Every puzzle implements [`ply_core::Puzzle`] so that the plain generic searches of
//! `ply_search::puzzle` can check its specialised solvers on small instances.

use std::fmt;

pub mod hanoi;
pub mod peg_solitaire;
pub mod sudoku;

/// Every puzzle ply knows, as `ply games` lists them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PuzzleKind {
    /// Tower of Hanoi, any number of pegs, any start and goal.
    Hanoi,
    /// Sudoku of any box shape.
    Sudoku,
    /// Peg solitaire on any board, with the MATLAB contest's weighted scoring.
    PegSolitaire,
}

impl PuzzleKind {
    /// Every puzzle, in listing order.
    pub const ALL: &'static [PuzzleKind] = &[
        PuzzleKind::Hanoi,
        PuzzleKind::PegSolitaire,
        PuzzleKind::Sudoku,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleKind::Hanoi => "hanoi",
            PuzzleKind::Sudoku => "sudoku",
            PuzzleKind::PegSolitaire => "peg",
        }
    }

    /// One line on what it is.
    pub fn summary(self) -> &'static str {
        match self {
            PuzzleKind::Hanoi => {
                "Tower of Hanoi: exact solutions for any pegs, start and goal (`ply hanoi`)"
            }
            PuzzleKind::Sudoku => {
                "fill the grid so each row, column and box has every value once (any box shape)"
            }
            PuzzleKind::PegSolitaire => {
                "peg solitaire: any board, fewest moves, weighted contest score, packages"
            }
        }
    }
}

impl fmt::Display for PuzzleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
