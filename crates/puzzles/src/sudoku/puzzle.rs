//! The seed's backtracking solver as a [`Puzzle`]: a move fills the first empty cell, in
//! reading order, with a value that no row, column or box already holds.

use std::fmt;

use ply_core::Puzzle;

use super::grid::{Grid, symbol};

/// Writing `value` in cell `cell` (row by row, 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// The cell, row by row from 0.
    pub cell: u16,
    /// The value, 1-based.
    pub value: u8,
}

impl fmt::Display for Placement {
    /// `#cell=value`, cells row by row from 0 (a placement does not know its board side).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}={}", self.cell, symbol(self.value))
    }
}

impl Grid {
    /// Whether `value` may go at `row`, `col` with the values already there (the seed's
    /// `legalSquare`).
    pub fn allows(&self, row: usize, col: usize, value: u8) -> bool {
        let shape = self.shape();
        let side = shape.side();
        let (br, bc) = (shape.box_rows(), shape.box_cols());
        let (r0, c0) = (row / br * br, col / bc * bc);
        (0..side).all(|i| self.get(row, i) != value && self.get(i, col) != value)
            && (0..br).all(|i| (0..bc).all(|j| self.get(r0 + i, c0 + j) != value))
    }
}

impl Puzzle for Grid {
    type Move = Placement;

    fn legal_moves(&self, moves: &mut Vec<Placement>) {
        moves.clear();
        let side = self.shape().side();
        if let Some(cell) = self.cells().iter().position(|&v| v == 0) {
            let (r, c) = (cell / side, cell % side);
            moves.extend(
                (1..=side as u8)
                    .filter(|&v| self.allows(r, c, v))
                    .map(|value| Placement {
                        cell: cell as u16,
                        value,
                    }),
            );
        }
    }

    fn play_unchecked(&mut self, mv: Placement) {
        let side = self.shape().side();
        let cell = mv.cell as usize;
        self.set(cell / side, cell % side, mv.value);
    }

    fn is_solved(&self) -> bool {
        self.is_full() && self.check().is_ok()
    }
}
