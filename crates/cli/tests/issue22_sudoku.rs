//! Issue 22, item 9: seed 003's own backtracking solver beside ply's, on the same puzzles.

mod common;
use common::ply;

const PUZZLES: &str = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n\
    53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";

#[test]
fn the_seed_s_backtracking_finds_the_same_solutions_and_says_how_hard_it_worked() {
    let fast = ply(&["sudoku", "solve"], PUZZLES);
    let seed = ply(&["sudoku", "solve", "--solver", "backtracking"], PUZZLES);
    assert!(fast.status.success() && seed.status.success(), "{seed:?}");
    // Unique puzzles: the first solution in the seed's order is the solution.
    assert_eq!(seed.stdout, fast.stdout);
    let err = String::from_utf8_lossy(&seed.stderr);
    for line in [1, 2] {
        let said = err
            .lines()
            .find(|l| l.starts_with(&format!("line {line}: the seed's backtracking made ")))
            .unwrap_or_else(|| panic!("no report for line {line}: {err}"));
        let placements: u64 = said.split_whitespace().nth(6).unwrap().parse().unwrap();
        // At least one placement per empty cell.
        let empty = PUZZLES.lines().nth(line - 1).unwrap().matches('.').count() as u64;
        assert!(placements >= empty, "{said}");
        assert!(said.contains("ply's solver made"), "{said}");
    }
}

#[test]
fn the_seed_s_backtracking_gives_up_at_its_limit() {
    let out = ply(
        &[
            "sudoku",
            "solve",
            "--solver",
            "backtracking",
            "--max-placements",
            "10",
        ],
        PUZZLES,
    );
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("gave up after 10 placements"), "{err}");
}
