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

/// Whether `grid`, a unique puzzle with `value` at `cell` now emptied, is still unique;
/// `full` is its solution.
///
/// The 9x9 solver is fast enough to count to 2. Other shapes ask the general solver for a
/// solution with another value at `cell`: the only solution with `value` there is known, so
/// the two questions are the same, but the second is a smaller search, and it stops at the
/// first alternative instead of also walking back to the known solution. The search tries
/// `full`'s values first, so the answer, and the puzzle, are as before, only found sooner.
fn unique_without(g: &Geometry, grid: &Grid, cell: usize, value: u8, full: &Grid) -> bool {
    if grid.shape().is_classic() {
        let cells: &[u8; 81] = grid.cells().try_into().expect("81 cells");
        super::classic::solve(cells, 2, None).0 == 1
    } else {
        !general::solvable_without(g, grid, cell, value, full)
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
/// and, when it has more than `floor` clues, minimal. Big boards take longer to make
/// minimal, because the checks get harder as clues go (about 0.1 s for 16x16 and 1.3 s
/// to nearly 2 minutes of CPU for 25x25, median 16 s, in release, on the machine of
/// docs/benchmarks.md); a floor keeps that quick, and so, keeping the puzzle minimal,
/// does [`generate_restarting`].
pub fn generate_down_to<R: Rng>(shape: Shape, floor: usize, rng: &mut R) -> Grid {
    let g = Geometry::new(shape);
    let steering = Steering {
        steer: Steer::Random,
        trace: None,
    };
    attempt(&g, floor, rng, |_| None, None, usize::MAX, steering)
        .unwrap_or_else(|_| unreachable!("no budget, so never abandoned"))
}

/// Like [`generate_down_to`], but an attempt whose removal checks run long is abandoned
/// and a new one started, from a new solution grid and removal order drawn from `rng`
/// (so the same `rng` state still gives the same puzzle, though not the one
/// [`generate_down_to`] gives, once an attempt has been abandoned). The product is the
/// same kind: unique, and minimal when above `floor`.
///
/// How dear a 25x25 generation is depends on its removal order more than on its grid (1.3
/// s to nearly 2 minutes of CPU), and shows early: by the time 54% of the cells have been checked the
/// guesses spent are about a tenth of the total, and the dear attempts are already far
/// ahead. An attempt may spend [`RESTART_BASE`] guesses plus [`RESTART_RATE`] per check
/// past that point, times 1.5 for every attempt abandoned before it (so an attempt is
/// eventually allowed to finish). 9x9 boards are checked by counting and never restart.
pub fn generate_restarting<R: Rng>(shape: Shape, floor: usize, rng: &mut R) -> Grid {
    generate_restarting_counted(
        shape,
        floor,
        RESTART_BASE,
        RESTART_RATE,
        RESTART_RESUMES,
        rng,
    )
    .0
}

/// Guesses an attempt of [`generate_restarting`] may spend before its budget starts to
/// grow with the checks.
pub const RESTART_BASE: u64 = 100;
/// Guesses an attempt of [`generate_restarting`] may spend per check past 54% of the cells.
pub const RESTART_RATE: u64 = 60;

/// How many abandoned attempts of [`generate_restarting`] in a row start again from the
/// first one's puzzle at 54% of its checks (the rest of the cells reshuffled) before a new
/// grid is drawn.
pub const RESTART_RESUMES: u32 = 0;

/// [`generate_restarting`] with the budget's base and rate and the resumes given (see
/// [`RESTART_BASE`], [`RESTART_RATE`] and [`RESTART_RESUMES`]), also returning the
/// attempts made.
pub fn generate_restarting_counted<R: Rng>(
    shape: Shape,
    floor: usize,
    base: u64,
    rate: u64,
    resumes: u32,
    rng: &mut R,
) -> (Grid, u32) {
    let from = shape.cells() * 54 / 100;
    generate_steered_counted(
        shape,
        floor,
        Steer::Random,
        (base, rate, from),
        resumes,
        rng,
    )
}

/// Like [`generate_restarting`], but the next clue to try removing is always one whose
/// cell would have the most candidates without it ([`Steer::Loose`]; ties in a random
/// order drawn from `rng`), and an attempt may spend [`STEER_BASE`] guesses plus
/// [`STEER_RATE`] per check over its removal checks (times 1.5 for every attempt
/// abandoned before it). The product is the same kind: unique, and minimal when above
/// `floor`; the same `rng` state gives the same puzzle, not the one [`generate`] gives.
///
/// Removing from the loosest cells first keeps the checks cheap: on 25x25 boards, seeds
/// 1-20, 3,583 to 5,579 guesses over a generation's checks on 19 seeds (the random order:
/// 6,790 to over 400,000), and 242 to 258 clues instead of 261 to 274; the one dear order
/// in 20 spent 29,345 guesses on proving one removal, which the budget cuts short
/// (docs/benchmarks.md, session 44).
pub fn generate_steered<R: Rng>(shape: Shape, floor: usize, rng: &mut R) -> Grid {
    generate_steered_counted(
        shape,
        floor,
        Steer::Loose,
        (STEER_BASE, STEER_RATE, 0),
        0,
        rng,
    )
    .0
}

/// Guesses an attempt of [`generate_steered`] may spend besides [`STEER_RATE`] per check.
pub const STEER_BASE: u64 = 1000;
/// Guesses an attempt of [`generate_steered`] may spend per check made.
pub const STEER_RATE: u64 = 10;

/// [`generate_restarting_counted`] with the removal order chosen by `steer`, and the
/// budget's rate counted from check `from` on (the checks before it get `base` in all).
pub fn generate_steered_counted<R: Rng>(
    shape: Shape,
    floor: usize,
    steer: Steer,
    (base, rate, from): (u64, u64, usize),
    resumes: u32,
    rng: &mut R,
) -> (Grid, u32) {
    let g = Geometry::new(shape);
    let start = from;
    let mut scale = 1.0f64;
    let mut snapshot: Option<(Snapshot, u32)> = None;
    for attempts in 1.. {
        let budget = |checks: usize| {
            let plain = base.max(1) + checks.saturating_sub(start) as u64 * rate;
            Some((plain as f64 * scale) as u64)
        };
        let from = snapshot.as_ref().map(|(s, _)| s);
        match attempt(
            &g,
            floor,
            rng,
            budget,
            from,
            start,
            Steering { steer, trace: None },
        ) {
            Ok(p) => return (p, attempts),
            Err(taken) => {
                snapshot = match (snapshot, taken) {
                    (Some((s, used)), _) if used < resumes => Some((s, used + 1)),
                    (None, Some(s)) if resumes > 0 => Some((s, 1)),
                    _ => None,
                };
            }
        }
        scale *= 1.5;
    }
    unreachable!("attempts are counted without end")
}

/// How the next clue to try removing is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Steer {
    /// In a random order drawn up front (what [`generate`] does).
    Random,
    /// The clue whose row, column, box and digit hold the most clues (in all) first, ties
    /// in the random order: the clues left stay spread evenly.
    Dense,
    /// The clue whose row, column, box and digit hold the fewest clues first.
    Sparse,
    /// The clue whose cell would have the most candidates (values not among the clues of
    /// its row, column and box) without it first.
    Loose,
    /// The clue whose cell would have the fewest candidates without it first.
    Tight,
    /// [`Steer::Loose`], ties broken as [`Steer::Sparse`].
    LooseSparse,
    /// [`Steer::Loose`], ties broken as [`Steer::Dense`].
    LooseDense,
}

/// Clues per row, column, box and digit, and the digits given in each unit, of a puzzle
/// being whittled down.
struct Counts {
    side: usize,
    box_of: Vec<usize>,
    value: Vec<u8>,
    /// Rows, then columns, then boxes, then digits.
    n: Vec<u32>,
    /// Digits present, rows, then columns, then boxes.
    mask: Vec<u32>,
}

impl Counts {
    fn new(shape: Shape, puzzle: &Grid) -> Counts {
        let side = shape.side();
        let mut c = Counts {
            side,
            box_of: (0..shape.cells())
                .map(|i| shape.box_of(i / side, i % side))
                .collect(),
            value: puzzle.cells().to_vec(),
            n: vec![0; 4 * side],
            mask: vec![0; 3 * side],
        };
        for (i, &v) in puzzle.cells().iter().enumerate() {
            if v != 0 {
                c.add(i, v);
            }
        }
        c
    }

    fn units(&self, cell: usize) -> [usize; 3] {
        let side = self.side;
        [
            cell / side,
            side + cell % side,
            2 * side + self.box_of[cell],
        ]
    }

    fn add(&mut self, cell: usize, v: u8) {
        for u in self.units(cell) {
            self.n[u] += 1;
            self.mask[u] |= 1 << (v - 1);
        }
        self.n[3 * self.side + usize::from(v) - 1] += 1;
    }

    fn remove(&mut self, cell: usize, v: u8) {
        for u in self.units(cell) {
            self.n[u] -= 1;
            self.mask[u] &= !(1 << (v - 1));
        }
        self.n[3 * self.side + usize::from(v) - 1] -= 1;
    }

    /// The score of removing `cell` next: higher goes first.
    fn score(&self, steer: Steer, cell: usize) -> i64 {
        let v = self.value[cell];
        let us = self.units(cell);
        let dense = || {
            i64::from(us.iter().map(|&u| self.n[u]).sum::<u32>())
                + i64::from(self.n[3 * self.side + usize::from(v) - 1])
        };
        let cands = || {
            let seen = us.iter().fold(0, |m, &u| m | self.mask[u]) & !(1u32 << (v - 1));
            i64::from(self.side as u32 - seen.count_ones())
        };
        match steer {
            Steer::Random => 0,
            Steer::Dense => dense(),
            Steer::Sparse => -dense(),
            Steer::Loose => cands(),
            Steer::Tight => -cands(),
            Steer::LooseSparse => cands() * 1024 - dense(),
            Steer::LooseDense => cands() * 1024 + dense(),
        }
    }

    /// Moves the best cell of `rest` to its front (the first of the best, so ties keep
    /// `rest`'s order).
    fn pick(&self, steer: Steer, rest: &mut [usize]) {
        let mut best = (i64::MIN, 0);
        for (k, &cell) in rest.iter().enumerate() {
            let s = self.score(steer, cell);
            if s > best.0 {
                best = (s, k);
            }
        }
        if best.1 > 0 {
            let c = rest[best.1];
            rest.copy_within(0..best.1, 1);
            rest[0] = c;
        }
    }
}

/// The first attempt of a steered generation, without budgets, calling `trace` with each
/// check's answer (the clue removed) and guesses: for measuring orders.
#[doc(hidden)]
pub fn generate_traced<R: Rng>(
    shape: Shape,
    steer: Steer,
    rng: &mut R,
    trace: &mut dyn FnMut(bool, u64),
) -> Grid {
    let g = Geometry::new(shape);
    let steering = Steering {
        steer,
        trace: Some(trace),
    };
    attempt(&g, 0, rng, |_| None, None, usize::MAX, steering)
        .unwrap_or_else(|_| unreachable!("no budget, so never abandoned"))
}

/// An attempt's state after some checks: a later attempt can go on from it with the
/// unchecked cells in another order (a clue kept so far stays needed as more go).
struct Snapshot {
    full: Grid,
    puzzle: Grid,
    clues: usize,
    checks: usize,
    rest: Vec<usize>,
}

/// How an attempt orders its removals, and what it reports of each check (the clue
/// removed, the guesses; given a reporter, checks are made without a budget).
struct Steering<'t> {
    steer: Steer,
    trace: Option<&'t mut dyn FnMut(bool, u64)>,
}

/// One attempt at a minimal puzzle: a random solution grid, then clues removed in a random
/// order (or one steered by `steering`) while the solution stays unique, or the rest of
/// `from`'s cells in a new random order. `Err` when the guesses of the removal checks
/// exceed `budget(checks made so far)` (no budget: never), with the state after `keep_at`
/// checks if this attempt drew its own grid and got that far.
fn attempt<R: Rng>(
    g: &Geometry,
    floor: usize,
    rng: &mut R,
    budget: impl Fn(usize) -> Option<u64>,
    from: Option<&Snapshot>,
    keep_at: usize,
    steering: Steering<'_>,
) -> Result<Grid, Option<Snapshot>> {
    let Steering { steer, mut trace } = steering;
    let shape = g.shape;
    let (full, mut puzzle, mut clues, first, mut order) = match from {
        Some(s) => {
            let mut rest = s.rest.clone();
            rest.shuffle(rng);
            (s.full.clone(), s.puzzle.clone(), s.clues, s.checks, rest)
        }
        None => {
            let full = general::solve_random(&Grid::empty(shape), rng)
                .expect("an empty board has solutions");
            let mut order: Vec<usize> = (0..shape.cells()).collect();
            order.shuffle(rng);
            (full.clone(), full, shape.cells(), 0, order)
        }
    };
    let side = shape.side();
    let mut spent = 0u64;
    let mut taken = None;
    let mut counts = Counts::new(shape, &puzzle);
    for i in 0..order.len() {
        if steer != Steer::Random {
            counts.pick(steer, &mut order[i..]);
        }
        let cell = order[i];
        let checks = first + i;
        if clues <= floor {
            break;
        }
        if checks == keep_at && from.is_none() {
            taken = Some(Snapshot {
                full: full.clone(),
                puzzle: puzzle.clone(),
                clues,
                checks,
                rest: order[i..].to_vec(),
            });
        }
        let (r, c) = (cell / side, cell % side);
        let v = puzzle.get(r, c);
        puzzle.set(r, c, 0);
        let unique = match budget(checks) {
            _ if trace.is_some() && !shape.is_classic() => {
                let (answer, guesses) =
                    general::solvable_without_within(g, &puzzle, cell, v, &full, 0);
                (trace.as_mut().expect("traced"))(answer != Some(true), guesses);
                answer != Some(true)
            }
            Some(b) if !shape.is_classic() => {
                if spent >= b {
                    return Err(taken);
                }
                let (answer, guesses) =
                    general::solvable_without_within(g, &puzzle, cell, v, &full, b - spent);
                spent += guesses;
                match answer {
                    Some(found) => !found,
                    None => return Err(taken),
                }
            }
            _ => unique_without(g, &puzzle, cell, v, &full),
        };
        if unique {
            clues -= 1;
            counts.remove(cell, v);
        } else {
            puzzle.set(r, c, v);
        }
    }
    Ok(puzzle)
}

/// A number of clues no puzzle of this shape with a unique solution goes below, so that
/// asking for fewer can be refused at once instead of after every attempt.
///
/// For 9x9, 17: McGuire, Tugemann and Civario's exhaustive search (2012) found no 16-clue
/// puzzle. For 4x4, 4 (a 3-clue puzzle always has two solutions; small enough to check
/// here, see the test). For every other shape, `side - 1`: a puzzle in which two digits
/// never appear has a second solution, the first with those two digits swapped.
pub fn fewest_possible_clues(shape: Shape) -> usize {
    match (shape.box_rows(), shape.box_cols()) {
        (3, 3) => 17,
        (2, 2) => 4,
        _ => shape.side() - 1,
    }
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

#[cfg(test)]
mod steer_tests {
    use super::*;

    /// On a 9x9 puzzle of row 1 and the centre cell, the centre is the loosest clue (8
    /// candidates without it: only row 1's clue in its column is seen) and every row-1
    /// clue the tightest (1: the rest of the row); ties keep the given order, and every
    /// score is the candidates counted by hand.
    #[test]
    fn the_loosest_and_tightest_clues_are_picked_first() {
        let digits =
            "123456789456789123789123456214365897365897214897214365531642978642978531978531642";
        let full = Grid::from_cells(Shape::CLASSIC, digits.bytes().map(|b| b - b'0').collect())
            .expect("a full grid");
        let mut puzzle = full.clone();
        for i in 9..81 {
            if i != 40 {
                puzzle.set(i / 9, i % 9, 0);
            }
        }
        let counts = Counts::new(Shape::CLASSIC, &puzzle);
        let clues: Vec<usize> = (0..81).filter(|&i| puzzle.cells()[i] != 0).collect();
        assert_eq!(clues.len(), 10);
        let score = |cell: usize| counts.score(Steer::Loose, cell);
        for &cell in &clues {
            let (r, c) = (cell / 9, cell % 9);
            let mut seen = 0u32;
            for i in (0..81).filter(|&i| i != cell && puzzle.cells()[i] != 0) {
                let (r2, c2) = (i / 9, i % 9);
                if r2 == r || c2 == c || (r2 / 3 == r / 3 && c2 / 3 == c / 3) {
                    seen |= 1 << puzzle.cells()[i];
                }
            }
            assert_eq!(score(cell), 9 - i64::from(seen.count_ones()), "cell {cell}");
            assert_eq!(counts.score(Steer::Tight, cell), -score(cell));
        }
        assert_eq!(score(40), 8);
        assert_eq!(score(3), 1);
        let mut rest = clues.clone();
        rest.reverse();
        counts.pick(Steer::Loose, &mut rest);
        assert_eq!(rest[0], 40);
        counts.pick(Steer::Tight, &mut rest);
        // The first row-1 clue in the reversed order, the others after it as they were.
        assert_eq!(rest, [8, 40, 7, 6, 5, 4, 3, 2, 1, 0]);
        // Removing a clue frees its value in its units.
        let mut counts = counts;
        counts.remove(4, full.get(0, 4));
        assert_eq!(counts.score(Steer::Loose, 40), 9);
    }
}
