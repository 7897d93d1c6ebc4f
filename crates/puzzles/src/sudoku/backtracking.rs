//! Seed 003's own solver, exactly as its pseudocode reads, to set beside ply's: scan the
//! cells in order, try the values 1..side in the first empty one with `legalSquare` (box,
//! row and column), recurse, undo on failure. No propagation, no choice of cell: the number
//! of placements it makes shows what ply's solver saves. Any box shape works.

use super::{Grid, Shape};

/// What the seed's backtracking did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Backtracked {
    /// The first solution in the seed's order, if it found one within the limit.
    pub solution: Option<Grid>,
    /// Values written into cells (`A[i][j] = num`), the work it did.
    pub placements: u64,
    /// It stopped at the placement limit before finishing.
    pub gave_up: bool,
}

/// Runs seed 003's `sudokusolver` on `grid`, stopping after `max_placements` placements.
///
/// ```
/// use ply_puzzles::sudoku::{backtracking::seed_backtracking, read_puzzles, solve, ReadOptions};
/// let text = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let grid = &read_puzzles(text, ReadOptions::default()).unwrap()[0].grid;
/// let seed = seed_backtracking(grid, 10_000_000);
/// assert_eq!(seed.solution, solve(grid, 1).first);
/// assert!(seed.placements > 81);
/// ```
pub fn seed_backtracking(grid: &Grid, max_placements: u64) -> Backtracked {
    let shape = grid.shape();
    let mut cells = grid.cells().to_vec();
    let mut search = Search {
        shape,
        side: shape.side(),
        placements: 0,
        max: max_placements,
        gave_up: false,
    };
    let solved = grid.check().is_ok() && search.solve(&mut cells, 0);
    Backtracked {
        solution: solved.then(|| Grid::from_cells(shape, cells).expect("a filled board")),
        placements: search.placements,
        gave_up: search.gave_up,
    }
}

struct Search {
    shape: Shape,
    side: usize,
    placements: u64,
    max: u64,
    gave_up: bool,
}

impl Search {
    /// `sudokusolver(A)`: the first empty cell from `from` on, every legal value in turn.
    fn solve(&mut self, a: &mut [u8], from: usize) -> bool {
        let Some(cell) = (from..a.len()).find(|&c| a[c] == 0) else {
            return true;
        };
        for num in 1..=self.side as u8 {
            if self.legal_square(a, num, cell) {
                if self.placements == self.max {
                    self.gave_up = true;
                    return false;
                }
                self.placements += 1;
                a[cell] = num;
                if self.solve(a, cell + 1) {
                    return true;
                }
                a[cell] = 0;
                if self.gave_up {
                    return false;
                }
            }
        }
        false
    }

    /// `legalSquare(val, col, row, A)`: `val` is in neither the cell's box, row nor column.
    fn legal_square(&self, a: &[u8], val: u8, cell: usize) -> bool {
        let (row, col) = (cell / self.side, cell % self.side);
        let (br, bc) = (self.shape.box_rows(), self.shape.box_cols());
        let (top, left) = (row / br * br, col / bc * bc);
        let in_box =
            (top..top + br).any(|r| (left..left + bc).any(|c| a[r * self.side + c] == val));
        let in_row = (0..self.side).any(|c| a[row * self.side + c] == val);
        let in_col = (0..self.side).any(|r| a[r * self.side + col] == val);
        !(in_box || in_row || in_col)
    }
}
