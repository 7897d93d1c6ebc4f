//! Sudoku of any box shape: exact solvers, formats, a generator of minimal puzzles, and
//! solving explained with human techniques.
//!
//! # Rules
//! A board of `n x n` cells is cut into `n` rows, `n` columns and `n` boxes of `r x c` cells
//! (`n = r * c`). Some cells hold clues, values `1..=n`; the puzzle is to fill every cell so
//! that each row, column and box holds each value exactly once. A proper puzzle has exactly
//! one solution; a *minimal* one loses that property when any clue is removed.
//!
//! # Choices made, and why
//! * **Shapes.** Boxes are `r x c` with `r, c >= 2` and sides up to 32 (candidates are bits
//!   of a `u32`). Without `--box`, a side gets its most square boxes with no more rows than
//!   columns (6 -> 2x3, 12 -> 3x4), the convention of the 6x6 and 12x12 puzzles in print.
//! * **Symbols.** Values 1-9 then `A`, `B`, ... for 10, 11, ... (so 16x16 uses 1-9 and A-G,
//!   25x25 uses 1-9 and A-P); `.` and `0` are empty. One convention for every side keeps
//!   `0` free for "empty", as the 9x9 collections (tdoku's data, magictour) write it.
//! * **Formats** ([`read_puzzles`]): one puzzle per line, or grids of one row per line with
//!   optional `|`, `-`, `+` and spaces; `#` comments. Answers use the layout of their input.
//! * **Two solvers.** [`classic`] is specialised for 9x9 (band words, minirow tables,
//!   bivalue guesses) because that is where speed is asked for; [`solve`] picks it for 9x9 and
//!   the general solver otherwise. [`solve_general`] is public so that tests and users can
//!   check one against the other.
//! * **Modes.** Every solver takes a limit: 1 returns the first solution, 2 proves uniqueness
//!   (the default everywhere, as tdoku's benchmark does), larger values count.
//! * **Guesses** count tentative placements at branch points; the last candidate of a cell is
//!   forced, not guessed.
//! * **Clashing clues** are reported by [`Grid::check`]; the solvers simply find no
//!   solution for them.
//! * **The seed's backtracking solver** (fill the first empty cell with each legal value,
//!   recurse) is kept as the [`ply_core::Puzzle`] implementation of [`Grid`]: its moves are
//!   the legal values of the first empty cell, so generic searches and the tests' brute-force
//!   reference run exactly that algorithm.
//!
//! # Generator
//! [`generate`] fills a random solution grid, then removes clues in a random order, keeping
//! each removal only if the solution stays unique. One pass suffices for minimality: a clue
//! that could not go then cannot go later, since fewer clues only allow more solutions.
//! Beyond 9x9 a removal is checked by looking for a solution with another value in the
//! emptied cell, which is the same question as "still unique?" but a smaller search.
//! [`generate_steered`] removes the loosest clue next instead (the cell with the most
//! candidates without it) and abandons attempts that run long: a minimal 25x25 puzzle in
//! well under a second of CPU instead of seconds to minutes, but an easier one to solve.
//!
//! # Explained solving
//! [`explain`] applies human techniques from simplest to hardest (see [`Technique`]) and
//! records each step with its reason; [`grade`] names the hardest one needed.

pub mod backtracking;
pub mod classic;
mod general;
mod generate;
mod grid;
mod human;
mod parse;
mod puzzle;
#[cfg(test)]
mod tests;

pub use generate::{
    GenerateError, RESTART_BASE, RESTART_RATE, RESTART_RESUMES, STEER_BASE, STEER_RATE, Steer,
    fewest_possible_clues, generate, generate_down_to, generate_restarting,
    generate_restarting_counted, generate_steered, generate_steered_counted, generate_traced,
    generate_with_max_clues,
};
pub use grid::{
    CheckGridError, Clash, Grid, GridError, MAX_SIDE, Shape, ShapeError, UnitKind, symbol, value_of,
};
pub use human::{Ending, Explanation, Grade, Step, Technique, explain, grade};
pub use parse::{Entry, Layout, ReadOptions, ReadPuzzlesError, read_puzzles};
pub use puzzle::Placement;

/// What a solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solutions {
    /// Solutions found, at most the limit asked for.
    pub count: u64,
    /// The first solution found.
    pub first: Option<Grid>,
    /// Tentative placements made at branch points.
    pub guesses: u64,
}

/// Solves `grid`, stopping after `limit` solutions (1: first; 2: uniqueness; more: count),
/// with the 9x9 solver for classic boards and the general one otherwise.
///
/// ```
/// use ply_puzzles::sudoku::{read_puzzles, solve, ReadOptions};
/// let puzzle = &read_puzzles(
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
///     ReadOptions::default(),
/// ).unwrap()[0].grid;
/// let found = solve(puzzle, 2);
/// assert_eq!(found.count, 1);
/// assert!(found.first.unwrap().solves(puzzle));
/// ```
pub fn solve(grid: &Grid, limit: u64) -> Solutions {
    if grid.shape().is_classic() {
        let cells: &[u8; 81] = grid.cells().try_into().expect("81 cells");
        let mut out = [0u8; 81];
        let (count, guesses) = classic::solve(cells, limit, Some(&mut out));
        Solutions {
            count,
            first: (count > 0)
                .then(|| Grid::from_cells(grid.shape(), out.to_vec()).expect("a full board")),
            guesses,
        }
    } else {
        solve_general(grid, limit)
    }
}

/// Solves `grid` with the general solver whatever its shape; see [`solve`].
pub fn solve_general(grid: &Grid, limit: u64) -> Solutions {
    let (count, guesses, first) = general::solve(grid, limit);
    Solutions {
        count,
        first,
        guesses,
    }
}

/// Solves every grid like [`solve`], on up to `threads` threads, the answers in the grids'
/// order; a grid whose clues clash gets no solution. `done` is called once per grid as it
/// is solved, from the solving thread (for a progress bar).
///
/// ```
/// use ply_puzzles::sudoku::{read_puzzles, solve_many, ReadOptions};
/// let text = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
/// let grids: Vec<_> = read_puzzles(text, ReadOptions::default()).unwrap().into_iter().map(|e| e.grid).collect();
/// let found = solve_many(&grids, 2, 2, || {});
/// assert_eq!(found[0].count, 1);
/// ```
pub fn solve_many(
    grids: &[Grid],
    limit: u64,
    threads: usize,
    done: impl Fn() + Sync,
) -> Vec<Solutions> {
    let one = |g: &Grid| {
        let s = if g.check().is_err() {
            Solutions {
                count: 0,
                first: None,
                guesses: 0,
            }
        } else {
            solve(g, limit)
        };
        done();
        s
    };
    let threads = threads.clamp(1, 256);
    if threads == 1 || grids.len() < 2 * threads {
        return grids.iter().map(one).collect();
    }
    let chunk = grids.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = grids
            .chunks(chunk)
            .map(|part| scope.spawn(|| part.iter().map(one).collect::<Vec<_>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}
