//! Solvers against each other, against the seed's plain backtracking, and against published
//! facts; formats and their errors; the generator's promises; explained solving.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::Puzzle;

use super::*;

fn fixture(name: &str) -> Vec<Entry> {
    let path = ply_testkit::workspace_root()
        .join("crates/puzzles/tests/data/sudoku")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    read_puzzles(&text, ReadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn one(text: &str) -> Grid {
    let mut e = read_puzzles(text, ReadOptions::default()).unwrap();
    assert_eq!(e.len(), 1);
    e.remove(0).grid
}

/// The seed's algorithm: fill the first empty cell with each legal value and recurse,
/// counting solutions up to `limit`.
fn brute_force_count(g: &mut Grid, limit: u64) -> u64 {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if g.is_full() {
        return u64::from(g.is_solved());
    }
    let mut n = 0;
    for mv in moves {
        let mut child = g.clone();
        child.play_unchecked(mv);
        n += brute_force_count(&mut child, limit - n);
        if n >= limit {
            break;
        }
    }
    n
}

/// A random puzzle: a random solution with `blanks` cells emptied (any number of solutions).
fn random_puzzle(shape: Shape, blanks: usize, rng: &mut ChaCha8Rng) -> Grid {
    let mut g = general::solve_random(&Grid::empty(shape), rng).unwrap();
    let side = shape.side();
    let mut cells: Vec<usize> = (0..shape.cells()).collect();
    cells.shuffle(rng);
    for &c in cells.iter().take(blanks) {
        g.set(c / side, c % side, 0);
    }
    g
}

#[test]
fn easy_fixture_solves_to_its_published_solution() {
    let e = fixture("easy.txt");
    for pair in e.chunks(2) {
        let (puzzle, expected) = (&pair[0].grid, &pair[1].grid);
        assert!(expected.solves(puzzle), "the fixture's solution is wrong");
        for s in [solve(puzzle, 2), solve_general(puzzle, 2)] {
            assert_eq!(s.count, 1);
            assert_eq!(s.first.as_ref(), Some(expected));
        }
        assert_eq!(s_guesses(puzzle), 0, "singles alone solve this one");
    }
}

fn s_guesses(p: &Grid) -> u64 {
    solve(p, 2).guesses
}

#[test]
fn hard_fixture_has_unique_solutions_that_keep_every_clue() {
    let e = fixture("hard.txt");
    assert_eq!(e.len(), 5);
    for entry in &e {
        let p = &entry.grid;
        assert!(p.check().is_ok());
        let fast = solve(p, 2);
        let general = solve_general(p, 2);
        assert_eq!((fast.count, general.count), (1, 1), "line {}", entry.line);
        let sol = fast.first.unwrap();
        assert!(sol.solves(p), "line {}", entry.line);
        assert_eq!(general.first.as_ref(), Some(&sol));
        // Norvig's published solution of hard1 starts 417369825.
        if entry.line == 3 {
            assert!(sol.to_line().starts_with("417369825632158947"));
        }
        let mut first = [0u8; 81];
        let (n, _) = classic::solve(p.cells().try_into().unwrap(), 1, Some(&mut first));
        assert_eq!((n, &first[..]), (1, sol.cells()));
    }
}

#[test]
fn no_solution_and_clashing_clues_count_zero() {
    let none = &fixture("none.txt")[0].grid;
    assert!(none.check().is_ok());
    assert_eq!(solve(none, 2).count, 0);
    assert_eq!(solve_general(none, 2).count, 0);
    assert_eq!(solve(none, 2).first, None);

    let bad = &fixture("invalid.txt")[0].grid;
    let err = bad.check().unwrap_err();
    assert_eq!(err.clashes.len(), 2);
    assert_eq!(
        err.to_string(),
        "clues clash: 5 at r1c5 repeats the row of r1c1; 3 at r3c1 repeats the box of r2c2"
    );
    assert_eq!(solve(bad, 2).count, 0);
    assert_eq!(solve_general(bad, 2).count, 0);
}

/// Blanking a rectangle `a b / b a` that spans two boxes of one band leaves exactly two
/// solutions: the solution and the one with the rectangle swapped.
#[test]
fn an_unavoidable_rectangle_gives_exactly_two_solutions() {
    let sol = fixture("easy.txt")[1].grid.clone();
    let mut found = None;
    'search: for r1 in 0..9 {
        for r2 in r1 + 1..(r1 / 3 + 1) * 3 {
            for c1 in 0..9 {
                for c2 in (c1 / 3 + 1) * 3..9 {
                    if sol.get(r1, c1) == sol.get(r2, c2) && sol.get(r1, c2) == sol.get(r2, c1) {
                        found = Some((r1, r2, c1, c2));
                        break 'search;
                    }
                }
            }
        }
    }
    let (r1, r2, c1, c2) = found.expect("the grid has an unavoidable rectangle");
    let mut p = sol.clone();
    for (r, c) in [(r1, c1), (r1, c2), (r2, c1), (r2, c2)] {
        p.set(r, c, 0);
    }
    assert_eq!(solve(&p, 10).count, 2);
    assert_eq!(solve_general(&p, 10).count, 2);
    assert_eq!(brute_force_count(&mut p.clone(), 10), 2);
    assert_eq!(solve(&p, 2).count, 2, "uniqueness mode stops at 2");
    assert_eq!(solve(&p, 1).count, 1, "first-solution mode stops at 1");
}

#[test]
fn the_empty_4x4_board_has_288_solutions() {
    // A published count (e.g. OEIS A107739: 288 Shidoku grids).
    let empty = Grid::empty(Shape::for_side(4).unwrap());
    assert_eq!(solve(&empty, 1000).count, 288);
    assert_eq!(brute_force_count(&mut empty.clone(), 1000), 288);
}

#[test]
fn empty_9x9_counts_stop_at_the_limit() {
    let empty = Grid::empty(Shape::CLASSIC);
    for limit in [1, 2, 50] {
        assert_eq!(solve(&empty, limit).count, limit);
        assert_eq!(solve_general(&empty, limit).count, limit);
    }
    assert!(solve(&empty, 1).first.unwrap().solves(&empty));
}

#[test]
fn brute_force_agrees_on_random_small_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5EED);
    for (shape, blanks) in [
        (Shape::for_side(4).unwrap(), 10..16),
        (Shape::for_side(6).unwrap(), 18..30),
        (Shape::new(3, 2).unwrap(), 18..30),
        (Shape::CLASSIC, 40..55),
    ] {
        for _ in 0..30 {
            let b = rng.random_range(blanks.clone());
            let mut p = random_puzzle(shape, b, &mut rng);
            // Some clues changed at random, so that some puzzles have no solution.
            if rng.random_bool(0.3) {
                let c = rng.random_range(0..shape.cells());
                let v = rng.random_range(1..=shape.side() as u8);
                p.set(c / shape.side(), c % shape.side(), v);
            }
            let expected = if p.check().is_ok() {
                brute_force_count(&mut p.clone(), 20)
            } else {
                0
            };
            let fast = solve(&p, 20);
            let general = solve_general(&p, 20);
            assert_eq!(fast.count, expected, "{shape} {p}");
            assert_eq!(general.count, expected, "{shape} {p}");
            if let Some(s) = &fast.first {
                assert!(s.solves(&p));
            }
            if let Some(s) = &general.first {
                assert!(s.solves(&p));
            }
        }
    }
}

#[test]
fn general_solver_agrees_with_the_9x9_solver() {
    let mut rng = ChaCha8Rng::seed_from_u64(81);
    for _ in 0..100 {
        let b = rng.random_range(50..64);
        let p = random_puzzle(Shape::CLASSIC, b, &mut rng);
        let fast = solve(&p, 3);
        let general = solve_general(&p, 3);
        assert_eq!(fast.count, general.count, "{p}");
        if fast.count == 1 {
            assert_eq!(fast.first, general.first);
        }
    }
}

/// Probing by trail and undo instead of a copy of the state changes nothing the search
/// sees: on boards of sides 9, 16 and 25 with no, one and several solutions, and with a
/// wrong clue, the same solution counts (to 2) after the same number of guesses, plain
/// and as the generator asks (a value excluded, a known solution tried first).
#[test]
fn trail_probing_searches_exactly_as_copied_probing() {
    use general::Probing::{Copy, Trail};
    let mut rng = ChaCha8Rng::seed_from_u64(2030);
    let mut by_count = [0usize; 3];
    let mut guesses = 0;
    for (side, blanks, boards) in [(9, 30..65, 80), (16, 80..200, 30), (25, 200..470, 16)] {
        let shape = Shape::for_side(side).unwrap();
        for _ in 0..boards {
            let full = general::solve_random(&Grid::empty(shape), &mut rng).unwrap();
            let mut p = full.clone();
            let mut cells: Vec<usize> = (0..shape.cells()).collect();
            cells.shuffle(&mut rng);
            for &c in cells.iter().take(rng.random_range(blanks.clone())) {
                p.set(c / side, c % side, 0);
            }
            if rng.random_bool(0.2) {
                // A wrong clue: often no solution.
                let c = cells[0];
                let v = full.cells()[c] % side as u8 + 1;
                p.set(c / side, c % side, v);
            }
            let copied = general::count_with(&p, 2, None, None, Copy);
            assert_eq!(general::count_with(&p, 2, None, None, Trail), copied, "{p}");
            by_count[copied.0 as usize] += 1;
            guesses += copied.1;
            let c = cells[1];
            let exclude = Some((c, full.cells()[c]));
            let guide = Some(full.cells());
            let copied = general::count_with(&p, 1, exclude, guide, Copy);
            let trailed = general::count_with(&p, 1, exclude, guide, Trail);
            assert_eq!(trailed, copied, "without {exclude:?}: {p}");
        }
    }
    assert!(by_count.iter().all(|&k| k >= 5), "{by_count:?}");
    assert!(guesses > 500, "{guesses} guesses");
}

/// A few hundred 9x9 puzzles with 1, 2 and more solutions: generated minimal ones (hard
/// for the solvers: they need guessing), the same with a clue removed, and a sample of the
/// shared 17-clue set when present.
#[test]
fn general_solver_agrees_with_the_9x9_solver_on_hundreds_of_puzzles() {
    let mut rng = ChaCha8Rng::seed_from_u64(909);
    let mut puzzles: Vec<Grid> = fixture("hard.txt").into_iter().map(|e| e.grid).collect();
    for _ in 0..150 {
        let p = generate(Shape::CLASSIC, &mut rng);
        let mut q = p.clone();
        let clue = (0..81).filter(|&c| p.cells()[c] != 0).collect::<Vec<_>>();
        let c = clue[rng.random_range(0..clue.len())];
        q.set(c / 9, c % 9, 0);
        puzzles.push(p);
        puzzles.push(q);
    }
    if let Some(path) = ply_testkit::shared_data("sudoku/puzzles2_17_clue.txt") {
        let text = std::fs::read_to_string(path).unwrap();
        let e = read_puzzles(&text, ReadOptions::default()).unwrap();
        puzzles.extend(e.iter().step_by(e.len() / 100).map(|e| e.grid.clone()));
    }
    let mut by_count = [0usize; 4];
    for p in &puzzles {
        for limit in [1, 2, 3] {
            let fast = solve(p, limit);
            let general = solve_general(p, limit);
            assert_eq!(fast.count, general.count, "limit {limit}: {p}");
            if limit == 2 && fast.count == 1 {
                assert_eq!(fast.first, general.first, "{p}");
            }
            if let Some(s) = &general.first {
                assert!(s.solves(p), "{p}");
            }
            if limit == 3 {
                by_count[fast.count as usize] += 1;
            }
        }
    }
    assert!(puzzles.len() >= 300);
    assert!(by_count[1] >= 150, "{by_count:?}");
    assert!(by_count[2] + by_count[3] >= 50, "{by_count:?}");
}

/// The minimal 16x16 fixture: unique, solved keeping every clue, and every clue needed.
#[test]
fn the_minimal_16x16_fixture_is_unique_and_minimal() {
    let p = &fixture("16x16.txt")[0].grid;
    let s = solve(p, 2);
    assert_eq!(s.count, 1);
    let sol = s.first.unwrap();
    assert!(sol.solves(p));
    assert_eq!(solve(p, 1).first.as_ref(), Some(&sol));
    for c in (0..256).filter(|&c| p.cells()[c] != 0) {
        let mut q = p.clone();
        q.set(c / 16, c % 16, 0);
        let s = solve(&q, 2);
        assert_eq!(
            s.count,
            2,
            "clue r{}c{} is removable",
            c / 16 + 1,
            c % 16 + 1
        );
        assert!(s.first.unwrap().solves(&q));
    }
}

/// The sparse 25x25 fixture is unique, and emptying clues from it gives puzzles whose
/// solutions keep the rest.
#[test]
fn the_sparse_25x25_fixture_is_unique() {
    let p = &fixture("25x25.txt")[0].grid;
    assert!(p.clues() <= 300);
    let s = solve(p, 2);
    assert_eq!(s.count, 1);
    let sol = s.first.unwrap();
    assert!(sol.solves(p));
    // Two more clues gone: the puzzle is still solved consistently with the others.
    let mut q = p.clone();
    let mut gone = 0;
    for c in (0..625).filter(|&c| p.cells()[c] != 0).step_by(97) {
        q.set(c / 25, c % 25, 0);
        gone += 1;
    }
    assert!(gone >= 2);
    let s = solve(&q, 1);
    assert!(s.first.unwrap().solves(&q));
}

/// The minimal 25x25 fixture and its solution (a file apart, so that `ply sudoku bench`
/// times the puzzle alone); proving uniqueness and minimality takes minutes (see the
/// ignored test below).
#[test]
fn the_minimal_25x25_fixture_keeps_its_solution() {
    let p = &fixture("25x25-minimal.txt")[0].grid;
    let sol = &fixture("25x25-minimal-solution.txt")[0].grid;
    assert!(sol.solves(p), "the recorded solution is wrong");
    assert!(p.clues() < 300);
}

#[test]
#[ignore = "proves a minimal 25x25 puzzle unique and minimal by counting: about 5 minutes in release"]
fn the_minimal_25x25_fixture_is_unique_and_minimal() {
    let p = &fixture("25x25-minimal.txt")[0].grid;
    let sol = &fixture("25x25-minimal-solution.txt")[0].grid;
    let s = solve(p, 2);
    assert_eq!((s.count, s.first.as_ref()), (1, Some(sol)));
    for c in (0..625).filter(|&c| p.cells()[c] != 0) {
        let mut q = p.clone();
        q.set(c / 25, c % 25, 0);
        assert!(
            solve(&q, 2).count == 2,
            "clue r{}c{} is removable",
            c / 25 + 1,
            c % 25 + 1
        );
    }
}

#[test]
fn large_fixtures_solve_uniquely() {
    for (name, side) in [("16x16.txt", 16), ("25x25.txt", 25), ("6x6.txt", 6)] {
        let e = fixture(name);
        assert!(!e.is_empty());
        for entry in &e {
            let p = &entry.grid;
            assert_eq!(p.shape().side(), side);
            let s = solve(p, 2);
            assert_eq!(s.count, 1, "{name} line {}", entry.line);
            assert!(s.first.unwrap().solves(p));
        }
    }
}

#[test]
fn shapes() {
    let s = |n| Shape::for_side(n).map(|s| (s.box_rows(), s.box_cols()));
    assert_eq!(s(4), Ok((2, 2)));
    assert_eq!(s(6), Ok((2, 3)));
    assert_eq!(s(12), Ok((3, 4)));
    assert_eq!(s(25), Ok((5, 5)));
    assert!(s(7).is_err());
    assert!(s(36).is_err());
    assert!(Shape::new(1, 9).is_err());
}

#[test]
fn formats_line_grid_comments_and_round_trips() {
    let line = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
    let g = one(line);
    assert_eq!(g.to_line(), line);
    let zeros = line.replace('.', "0");
    assert_eq!(one(&zeros), g);
    let block = g.to_block();
    assert!(block.starts_with(". . 3 | . 2 . | 6 . .\n9 . . | 3 . 5 | . . 1\n"));
    let text = format!("# a comment\n\n{block}\n{line}  # trailing comment\n");
    let e = read_puzzles(&text, ReadOptions::default()).unwrap();
    assert_eq!(e.len(), 2);
    assert_eq!((e[0].line, e[0].layout), (3, Layout::Block));
    assert_eq!((e[1].line, e[1].layout), (15, Layout::Line));
    assert_eq!(e[0].grid, g);
    assert_eq!(e[1].grid, g);
    // A 16x16 board round trips through both layouts.
    let big = &fixture("16x16.txt")[0].grid;
    assert_eq!(one(&big.to_line()), *big);
    assert_eq!(one(&big.to_block()), *big);
}

#[test]
fn parse_errors_name_line_and_column() {
    let cases: [(&str, ReadOptions, (usize, usize), &str); 6] = [
        (
            "# x\n..3.2.6..9..3.5..1..18.64....81.29..7..?....8..67.82....26.95..8..2.3..9..5.1.3..",
            ReadOptions::default(),
            (2, 40),
            "unexpected '?'",
        ),
        (
            "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.",
            ReadOptions::default(),
            (1, 81),
            "a line of 80 cells",
        ),
        (
            "1 2 3 4\n3 4 1 2\n2 1\n",
            ReadOptions::default(),
            (3, 4),
            "a row of 2 cells",
        ),
        (
            "12|34\n34|12\n\n",
            ReadOptions::default(),
            (3, 1),
            "ends after 2 rows",
        ),
        (
            "12|34\n34|12\n",
            ReadOptions::default(),
            (3, 1),
            "ends after 2 rows",
        ),
        (
            "1234\n34G2\n",
            ReadOptions::default(),
            (2, 3),
            "above the side 4",
        ),
    ];
    for (text, opts, at, what) in cases {
        let e = read_puzzles(text, opts).unwrap_err();
        assert_eq!((e.line, e.column), at, "{text:?}: {e}");
        assert!(e.to_string().contains(what), "{text:?}: {e}");
    }
}

#[test]
fn the_shape_option_reads_6x6_as_3x2_boxes() {
    let text = "123456\n456123\n214365\n365214\n531642\n642531\n";
    let wide = read_puzzles(text, ReadOptions::default()).unwrap();
    assert_eq!(wide[0].grid.shape(), Shape::new(2, 3).unwrap());
    assert!(wide[0].grid.check().is_ok());
    let tall = read_puzzles(
        text,
        ReadOptions {
            shape: Some(Shape::new(3, 2).unwrap()),
            layout: None,
        },
    )
    .unwrap();
    assert!(
        tall[0].grid.check().is_err(),
        "as 3x2 boxes this grid clashes"
    );
}

#[test]
fn generated_puzzles_are_unique_and_minimal() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    for shape in [
        Shape::for_side(4).unwrap(),
        Shape::for_side(6).unwrap(),
        Shape::CLASSIC,
        Shape::CLASSIC,
    ] {
        let p = generate(shape, &mut rng);
        assert_eq!(solve(&p, 2).count, 1, "{p}");
        let side = shape.side();
        for c in 0..shape.cells() {
            let (r, col) = (c / side, c % side);
            if p.get(r, col) != 0 {
                let mut q = p.clone();
                q.set(r, col, 0);
                assert_eq!(
                    solve_general(&q, 2).count,
                    2,
                    "clue at r{}c{} of {p} is removable",
                    r + 1,
                    col + 1
                );
            }
        }
    }
}

/// Big boards use the general solver's exclusion check, not counting: the puzzles must
/// still be unique and minimal by counting.
#[test]
fn generated_12x12_puzzles_are_unique_and_minimal() {
    let shape = Shape::for_side(12).unwrap();
    let p = generate(shape, &mut ChaCha8Rng::seed_from_u64(12));
    assert_eq!(solve(&p, 2).count, 1, "{p}");
    for c in (0..144).filter(|&c| p.cells()[c] != 0) {
        let mut q = p.clone();
        q.set(c / 12, c % 12, 0);
        assert_eq!(
            solve(&q, 2).count,
            2,
            "clue r{}c{} of {p} is removable",
            c / 12 + 1,
            c % 12 + 1
        );
    }
}

/// A generated 16x16 puzzle (its removals checked by the guided search for another value
/// in the emptied cell) is unique and minimal by plain counting, which neither excludes a
/// value nor follows a known solution.
#[test]
fn a_generated_16x16_puzzle_is_unique_and_minimal_by_counting() {
    let shape = Shape::for_side(16).unwrap();
    let p = generate(shape, &mut ChaCha8Rng::seed_from_u64(16));
    let s = solve_general(&p, 2);
    assert_eq!(s.count, 1, "{p}");
    let sol = s.first.unwrap();
    for c in (0..256).filter(|&c| p.cells()[c] != 0) {
        let mut q = p.clone();
        q.set(c / 16, c % 16, 0);
        let s = solve_general(&q, 2);
        assert_eq!(
            s.count,
            2,
            "clue r{}c{} of {p} is removable",
            c / 16 + 1,
            c % 16 + 1
        );
        assert!(s.first.unwrap().solves(&q));
    }
    assert!(sol.solves(&p));
}

/// The same for 8x8 boards, counting with the seed's plain backtracking (no propagation),
/// which is too slow for 16x16.
#[test]
fn generated_8x8_puzzles_are_unique_and_minimal_by_plain_backtracking() {
    let shape = Shape::for_side(8).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for _ in 0..2 {
        let p = generate(shape, &mut rng);
        assert_eq!(brute_force_count(&mut p.clone(), 2), 1, "{p}");
        for c in (0..64).filter(|&c| p.cells()[c] != 0) {
            let mut q = p.clone();
            q.set(c / 8, c % 8, 0);
            assert_eq!(
                brute_force_count(&mut q, 2),
                2,
                "clue r{}c{} of {p} is removable",
                c / 8 + 1,
                c % 8 + 1
            );
        }
    }
}

#[test]
fn the_generator_is_deterministic_and_honours_the_clue_bound() {
    let a = generate(Shape::CLASSIC, &mut ChaCha8Rng::seed_from_u64(5));
    let b = generate(Shape::CLASSIC, &mut ChaCha8Rng::seed_from_u64(5));
    assert_eq!(a, b);
    let c = generate(Shape::CLASSIC, &mut ChaCha8Rng::seed_from_u64(6));
    assert_ne!(a, c);
    let p = generate_with_max_clues(Shape::CLASSIC, 25, 200, &mut ChaCha8Rng::seed_from_u64(1))
        .unwrap();
    assert!(p.clues() <= 25);
    let e = generate_with_max_clues(Shape::CLASSIC, 16, 2, &mut ChaCha8Rng::seed_from_u64(1))
        .unwrap_err();
    assert!(e.best > 16, "no 9x9 puzzle has 16 clues");
}

#[test]
fn explain_solves_easy_puzzles_with_singles_and_every_step_is_true() {
    let e = fixture("easy.txt");
    let (p, sol) = (&e[0].grid, &e[1].grid);
    let ex = explain(p).unwrap();
    assert_eq!(ex.ending, Ending::Solved);
    assert_eq!(&ex.grid, sol);
    assert_eq!(Grade::of(&ex), Grade::Easy);
    let side = 9;
    for s in &ex.steps {
        for &(c, v) in &s.placed {
            assert_eq!(sol.get(c / side, c % side), v, "{}", s.reason);
        }
        for &(c, v) in &s.removed {
            assert_ne!(sol.get(c / side, c % side), v, "{}", s.reason);
        }
    }
    assert_eq!(
        ex.steps[0].reason, "r2c2 is the only place for 6 in box 1",
        "boxes are searched first"
    );
}

#[test]
fn explain_never_removes_a_true_value_on_hard_puzzles() {
    let mut grades = Vec::new();
    for entry in fixture("hard.txt").iter().chain(&fixture("6x6.txt")) {
        let p = &entry.grid;
        let sol = solve(p, 1).first.unwrap();
        let side = p.shape().side();
        let ex = explain(p).unwrap();
        assert_ne!(ex.ending, Ending::Contradiction);
        for s in &ex.steps {
            for &(c, v) in &s.placed {
                assert_eq!(sol.get(c / side, c % side), v, "{}", s.reason);
            }
            for &(c, v) in &s.removed {
                assert_ne!(sol.get(c / side, c % side), v, "{}", s.reason);
            }
        }
        grades.push(Grade::of(&ex));
    }
    assert!(
        grades.contains(&Grade::Beyond),
        "the hardest puzzles need guessing"
    );
}

#[test]
fn techniques_beyond_singles_are_found() {
    // Generated minimal puzzles, graded: the harder techniques must show up, and each step
    // must agree with the solution.
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..40 {
        let p = generate(Shape::CLASSIC, &mut rng);
        let sol = solve(&p, 1).first.unwrap();
        let ex = explain(&p).unwrap();
        for s in &ex.steps {
            seen.insert(s.technique);
            for &(c, v) in &s.removed {
                assert_ne!(sol.get(c / 9, c % 9), v, "{}", s.reason);
            }
            for &(c, v) in &s.placed {
                assert_eq!(sol.get(c / 9, c % 9), v, "{}", s.reason);
            }
        }
    }
    for t in [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::LockedCandidates,
        Technique::NakedPair,
    ] {
        assert!(seen.contains(&t), "{t} never used; saw {seen:?}");
    }
}

#[test]
fn shared_data_sets_sampled() {
    for (file, take) in [
        ("sudoku/puzzles2_17_clue.txt", 300),
        ("sudoku/puzzles3_magictour_top1465.txt", 100),
        ("sudoku/puzzles6_forum_hardest_1106.txt", 20),
    ] {
        let Some(path) = ply_testkit::shared_data(file) else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let e = read_puzzles(&text, ReadOptions::default()).unwrap();
        for entry in e.iter().step_by((e.len() / take).max(1)) {
            let s = solve(&entry.grid, 2);
            assert_eq!(s.count, 1, "{file} line {}", entry.line);
            assert!(s.first.unwrap().solves(&entry.grid));
        }
    }
}

#[test]
#[ignore = "solves every puzzle of the shared data sets with both solvers: minutes in the dev profile"]
fn shared_data_sets_in_full() {
    for file in [
        "sudoku/puzzles2_17_clue.txt",
        "sudoku/puzzles3_magictour_top1465.txt",
        "sudoku/puzzles6_forum_hardest_1106.txt",
    ] {
        let Some(path) = ply_testkit::shared_data(file) else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        for entry in read_puzzles(&text, ReadOptions::default()).unwrap() {
            let s = solve(&entry.grid, 2);
            assert_eq!(s.count, 1, "{file} line {}", entry.line);
            assert!(s.first.as_ref().unwrap().solves(&entry.grid));
            assert_eq!(solve_general(&entry.grid, 2).first, s.first);
        }
    }
}

#[test]
fn the_seed_puzzle_trait_solves_a_4x4_by_breadth_first_search() {
    // From the grid 1234/3412/2143/4321.
    let p = one("1..4.4..2..3..2.");
    let path = ply_search::puzzle::bfs_solve(&p).expect("a solution");
    let mut g = p.clone();
    for mv in path {
        g.play(mv).unwrap();
    }
    assert!(g.solves(&p));
    assert!(solve(&p, 2).count >= 1);
}

/// The search compiled for newer x86-64 CPUs and the portable one are the same code: they
/// must find the same counts with the same number of guesses, on the first puzzles of each
/// shared data set (and the repository's hard fixture).
#[test]
fn native_and_portable_9x9_searches_agree() {
    if !classic::native_detected() {
        eprintln!("skipping: this CPU lacks the features of the native 9x9 search");
        return;
    }
    let mut puzzles: Vec<(String, [u8; 81])> = fixture("hard.txt")
        .iter()
        .map(|e| (format!("hard.txt line {}", e.line), grid81(&e.grid)))
        .collect();
    for (file, take) in [
        ("sudoku/puzzles2_17_clue.txt", 500),
        ("sudoku/puzzles3_magictour_top1465.txt", 200),
        ("sudoku/puzzles6_forum_hardest_1106.txt", 50),
    ] {
        let Some(path) = ply_testkit::shared_data(file) else {
            continue;
        };
        let text = std::fs::read_to_string(path).unwrap();
        let e = read_puzzles(&text, ReadOptions::default()).unwrap();
        puzzles.extend(
            e.iter()
                .take(take)
                .map(|e| (format!("{file} line {}", e.line), grid81(&e.grid))),
        );
    }
    for (name, cells) in &puzzles {
        for limit in [1, 2, 3] {
            let mut a = [0u8; 81];
            let mut b = [0u8; 81];
            let portable = classic::solve_with(cells, limit, Some(&mut a), classic::Code::Portable);
            let native = classic::solve_with(cells, limit, Some(&mut b), classic::Code::Native);
            assert_eq!(portable, native, "{name}, limit {limit}");
            assert_eq!(a, b, "{name}, limit {limit}");
            if name.starts_with("sudoku/") {
                assert_eq!(native.0, 1, "{name}, limit {limit}");
            }
        }
    }
}

fn grid81(g: &Grid) -> [u8; 81] {
    g.cells().try_into().expect("a 9x9 grid")
}

/// Every full grid of `shape` (small shapes only), by the seed's fill-and-recurse.
fn all_solutions(g: &Grid, out: &mut Vec<Grid>) {
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    if g.is_full() {
        if g.is_solved() {
            out.push(g.clone());
        }
        return;
    }
    for mv in moves {
        let mut child = g.clone();
        child.play_unchecked(mv);
        all_solutions(&child, out);
    }
}

#[test]
fn no_4x4_puzzle_with_3_clues_has_one_solution_and_one_with_4_does() {
    let shape = Shape::new(2, 2).unwrap();
    let mut grids = Vec::new();
    all_solutions(&Grid::empty(shape), &mut grids);
    grids.sort_by(|a, b| a.cells().cmp(b.cells()));
    grids.dedup();
    assert_eq!(grids.len(), 288, "the published count of 4x4 Sudoku grids");
    assert_eq!(fewest_possible_clues(shape), 4);
    // Renaming the digits keeps the number of solutions, so the grids whose first row is
    // 1 2 3 4 (one in 24) stand for all.
    let canonical: Vec<&Grid> = grids
        .iter()
        .filter(|g| g.cells()[..4] == [1, 2, 3, 4])
        .collect();
    assert_eq!(canonical.len(), 12);
    let mut unique_with_4 = 0;
    for full in canonical {
        for a in 0..16 {
            for b in a + 1..16 {
                for c in b + 1..16 {
                    let mut p = Grid::empty(shape);
                    for &i in &[a, b, c] {
                        p.set(i / 4, i % 4, full.get(i / 4, i % 4));
                    }
                    assert!(solve(&p, 2).count >= 2, "3 clues {p:?} of {full:?}");
                    if unique_with_4 == 0 {
                        for d in c + 1..16 {
                            let mut q = p.clone();
                            q.set(d / 4, d % 4, full.get(d / 4, d % 4));
                            if solve(&q, 2).count == 1 {
                                unique_with_4 += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(unique_with_4 > 0, "some 4-clue 4x4 puzzle has one solution");
}

#[test]
fn fewest_possible_clues_is_below_what_the_generator_reaches() {
    // The bound is a floor: minimal puzzles the generator makes never go under it.
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for (r, c) in [(2, 2), (2, 3), (3, 3), (2, 4)] {
        let shape = Shape::new(r, c).unwrap();
        for _ in 0..5 {
            assert!(generate(shape, &mut rng).clues() >= fewest_possible_clues(shape));
        }
    }
    assert_eq!(fewest_possible_clues(Shape::CLASSIC), 17);
    assert_eq!(fewest_possible_clues(Shape::new(4, 4).unwrap()), 15);
}

/// A removal check with a guess budget answers exactly as without one when the search
/// needs no more guesses than that, and gives up having made exactly the budget when it
/// needs more (the clues of the minimal 16x16 fixture: each has a second solution without
/// it, found after some guesses).
#[test]
fn a_budgeted_check_gives_up_exactly_when_its_search_needs_more_guesses() {
    let p = &fixture("16x16.txt")[0].grid;
    let sol = solve(p, 1).first.unwrap();
    let g = general::Geometry::new(p.shape());
    let mut searched = 0;
    for c in (0..256).filter(|&c| p.cells()[c] != 0) {
        let mut q = p.clone();
        let v = p.cells()[c];
        q.set(c / 16, c % 16, 0);
        let (answer, needed) = general::solvable_without_within(&g, &q, c, v, &sol, 0);
        assert_eq!(
            answer,
            Some(true),
            "every clue of a minimal puzzle is needed"
        );
        if needed < 2 {
            continue;
        }
        searched += 1;
        for budget in [1, needed - 1, needed, needed + 1] {
            let got = general::solvable_without_within(&g, &q, c, v, &sol, budget);
            if budget >= needed {
                assert_eq!(got, (Some(true), needed), "budget {budget}, cell {c}");
            } else {
                assert_eq!(got, (None, budget), "budget {budget}, cell {c}");
            }
        }
    }
    assert!(
        searched >= 10,
        "{searched} clues needed two guesses or more"
    );
}

/// Asserts by plain counting that the 16x16 puzzle `p` has one solution and that removing
/// any of its clues gives more (it is minimal).
fn assert_unique_and_minimal_16(p: &Grid) {
    assert_eq!(solve_general(p, 2).count, 1, "{p}");
    for c in (0..256).filter(|&c| p.cells()[c] != 0) {
        let mut q = p.clone();
        q.set(c / 16, c % 16, 0);
        assert_eq!(
            solve_general(&q, 2).count,
            2,
            "clue {c} of {p} is removable"
        );
    }
}

/// With a budget small enough that attempts are abandoned, the restarting generator still
/// gives a unique and minimal puzzle (checked by plain counting), the same one for the
/// same seed, whether it draws a new grid each time or goes on from an earlier attempt's
/// puzzle.
#[test]
fn the_restarting_generator_abandons_attempts_and_stays_unique_and_minimal() {
    let shape = Shape::for_side(16).unwrap();
    let mut puzzles = Vec::new();
    for resumes in [0, 3] {
        let run = || {
            generate_restarting_counted(shape, 0, 1, 0, resumes, &mut ChaCha8Rng::seed_from_u64(3))
        };
        let (p, attempts) = run();
        assert!(attempts >= 2, "{attempts} attempt(s)");
        assert_eq!(run(), (p.clone(), attempts));
        assert_unique_and_minimal_16(&p);
        puzzles.push(p);
    }
    assert_ne!(puzzles[0], puzzles[1], "resuming changed nothing");
    // The default budget does not restart this easy shape: the same puzzle as generate.
    let (plain, attempts) = generate_restarting_counted(
        shape,
        0,
        RESTART_BASE,
        RESTART_RATE,
        RESTART_RESUMES,
        &mut ChaCha8Rng::seed_from_u64(3),
    );
    assert_eq!(attempts, 1);
    assert_eq!(plain, generate(shape, &mut ChaCha8Rng::seed_from_u64(3)));
}

/// The steered generator (loosest cells first) gives a unique and minimal puzzle by plain
/// counting, the same one for the same seed, and another than the random order's; with a
/// budget of one guess it abandons attempts and the product is still unique and minimal.
#[test]
fn the_steered_generator_stays_unique_and_minimal() {
    let shape = Shape::for_side(16).unwrap();
    let minimal = assert_unique_and_minimal_16;
    let steered = generate_steered(shape, 0, &mut ChaCha8Rng::seed_from_u64(3));
    minimal(&steered);
    assert_eq!(
        steered,
        generate_steered(shape, 0, &mut ChaCha8Rng::seed_from_u64(3))
    );
    assert_ne!(steered, generate(shape, &mut ChaCha8Rng::seed_from_u64(3)));
    let (p, attempts) = generate_steered_counted(
        shape,
        0,
        Steer::Loose,
        (1, 0, 0),
        0,
        &mut ChaCha8Rng::seed_from_u64(3),
    );
    assert!(attempts >= 2, "{attempts} attempt(s)");
    minimal(&p);
    // The random order through the same function is generate_restarting's.
    let budget = (RESTART_BASE, RESTART_RATE, 256 * 54 / 100);
    assert_eq!(
        generate_steered_counted(
            shape,
            0,
            Steer::Random,
            budget,
            0,
            &mut ChaCha8Rng::seed_from_u64(3)
        )
        .0,
        generate_restarting(shape, 0, &mut ChaCha8Rng::seed_from_u64(3))
    );
}
