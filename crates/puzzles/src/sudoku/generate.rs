//! Puzzles with a unique solution and no removable clue, from a seeded random generator.

use rand::Rng;
use rand::seq::SliceRandom;
use thiserror::Error;

use super::general::{self, Geometry};
use super::grid::{Grid, Shape};

/// No minimal puzzle with few enough clues turned up.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "no minimal puzzle with at most {max_clues} clues in {attempts} attempts (the fewest had {best}); allow more clues or attempts"
)]
pub struct GenerateError {
    /// The clue bound asked for.
    pub max_clues: usize,
    /// Puzzles generated.
    pub attempts: usize,
    /// The fewest clues seen.
    pub best: usize,
}

/// Whether `grid`, a unique puzzle with `value` at `cell` now emptied, is still unique.
fn unique_without(g: &Geometry, grid: &Grid, cell: usize, value: u8) -> bool {
    if grid.shape().is_classic() {
        let cells: &[u8; 81] = grid.cells().try_into().expect("81 cells");
        super::classic::solve(cells, 2, None).0 == 1
    } else {
        !general::solvable_without(g, grid, cell, value)
    }
}

/// A random minimal puzzle of `shape`: a random solution grid, then clues removed in a
/// random order while the solution stays unique. The same `rng` state gives the same puzzle.
///
/// ```
/// use rand::SeedableRng;
/// use ply_puzzles::sudoku::{generate, solve, Shape};
/// let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
/// let p = generate(Shape::CLASSIC, &mut rng);
/// assert_eq!(solve(&p, 2).count, 1);
/// ```
pub fn generate<R: Rng>(shape: Shape, rng: &mut R) -> Grid {
    generate_down_to(shape, 0, rng)
}

/// Like [`generate`], but stops removing clues once `floor` are left: the puzzle is unique
/// and, when it has more than `floor` clues, minimal. Big boards (25x25) take long to make
/// minimal, because proving uniqueness gets harder as clues go; a floor keeps that quick.
pub fn generate_down_to<R: Rng>(shape: Shape, floor: usize, rng: &mut R) -> Grid {
    let g = Geometry::new(shape);
    let full =
        general::solve_random(&Grid::empty(shape), rng).expect("an empty board has solutions");
    let mut puzzle = full;
    let mut order: Vec<usize> = (0..shape.cells()).collect();
    order.shuffle(rng);
    let side = shape.side();
    let mut clues = shape.cells();
    for cell in order {
        if clues <= floor {
            break;
        }
        let (r, c) = (cell / side, cell % side);
        let v = puzzle.get(r, c);
        puzzle.set(r, c, 0);
        if unique_without(&g, &puzzle, cell, v) {
            clues -= 1;
        } else {
            puzzle.set(r, c, v);
        }
    }
    puzzle
}

/// Generates minimal puzzles until one has at most `max_clues` clues.
///
/// # Errors
/// When none of `attempts` puzzles is small enough.
pub fn generate_with_max_clues<R: Rng>(
    shape: Shape,
    max_clues: usize,
    attempts: usize,
    rng: &mut R,
) -> Result<Grid, GenerateError> {
    let mut best = usize::MAX;
    for _ in 0..attempts.max(1) {
        let p = generate(shape, rng);
        if p.clues() <= max_clues {
            return Ok(p);
        }
        best = best.min(p.clues());
    }
    Err(GenerateError {
        max_clues,
        attempts,
        best,
    })
}
