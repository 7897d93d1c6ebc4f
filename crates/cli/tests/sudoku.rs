//! `ply sudoku` run as a program: whole outputs and exit codes.

mod common;
use common::{ply, text};

const EASY: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";
const EASY_SOLVED: &str =
    "483921657967345821251876493548132976729564138136798245372689514814253769695417382";

fn fixture(name: &str) -> String {
    ply_testkit::workspace_root()
        .join("crates/puzzles/tests/data/sudoku")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn solve_prints_one_line_per_line_puzzle_in_order() {
    let input = format!("# two puzzles\n{EASY}\n\n{EASY_SOLVED}\n");
    let o = ply(&["sudoku", "solve"], &input);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), format!("{EASY_SOLVED}\n{EASY_SOLVED}\n"));
}

#[test]
fn solve_answers_grids_with_grids_and_uses_threads() {
    let f = fixture("6x6.txt");
    let one = ply(&["sudoku", "solve", &f], "");
    let two = ply(&["sudoku", "solve", &f, "--threads", "2"], "");
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(text(&one.stdout), text(&two.stdout));
    assert_eq!(text(&one.stdout).lines().count(), 5);

    let grid = ply(&["sudoku", "solve", &fixture("16x16.txt")], "");
    assert_eq!(grid.status.code(), Some(0));
    let out = text(&grid.stdout);
    assert_eq!(out.lines().count(), 16 + 3, "16 rows and 3 rules");
    assert!(!out.contains('.'), "every cell filled");
}

#[test]
fn unsolvable_and_clashing_puzzles_say_so_and_exit_1() {
    let o = ply(&["sudoku", "solve", &fixture("none.txt")], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(text(&o.stdout), "no solution (line 2)\n");
    let o = ply(&["sudoku", "solve", &fixture("invalid.txt")], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stdout),
        "no solution (line 2): clues clash: 5 at r1c5 repeats the row of r1c1; \
         3 at r3c1 repeats the box of r2c2\n"
    );
}

#[test]
fn count_is_capped_by_the_limit() {
    let empty4 = "................\n";
    let o = ply(&["sudoku", "solve", "--count", "--limit", "1000"], empty4);
    assert_eq!(text(&o.stdout), "288\n");
    let o = ply(
        &["sudoku", "solve", "--count"],
        &format!("{EASY}\n{}\n", ".".repeat(81)),
    );
    assert_eq!(text(&o.stdout), "1\n2\n");
    let o = ply(&["sudoku", "solve", "--json"], &format!("{EASY}\n"));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["solutions"], 1);
    assert_eq!(v["solution"], EASY_SOLVED);
}

#[test]
fn bad_input_names_line_and_column_and_exits_2() {
    let o = ply(&["sudoku", "solve"], &format!("# x\n{}x\n", &EASY[..80]));
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("<stdin>: line 2, column 81"), "{err}");
    let o = ply(&["sudoku", "solve", "--box", "3"], EASY);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("expected ROWSxCOLS"));
    let o = ply(&["sudoku", "solve"], "# only a comment\n");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn generate_is_seeded_unique_and_solvable() {
    let a = ply(&["sudoku", "generate", "--seed", "3", "--count", "2"], "");
    let b = ply(&["sudoku", "generate", "--seed", "3", "--count", "2"], "");
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let puzzles = text(&a.stdout);
    assert_eq!(puzzles.lines().count(), 2);
    let o = ply(&["sudoku", "solve", "--count"], &puzzles);
    assert_eq!(text(&o.stdout), "1\n1\n");
    let small = ply(
        &["sudoku", "generate", "--size", "4", "--seed", "1", "--grid"],
        "",
    );
    assert_eq!(text(&small.stdout).lines().count(), 5);
}

/// `--restart` (abandon a generation whose checks run long) gives one puzzle per seed, unique.
#[test]
fn generate_restart_is_seeded_and_unique() {
    let args = [
        "sudoku",
        "generate",
        "--size",
        "16",
        "--seed",
        "16",
        "--restart",
    ];
    let a = ply(&args, "");
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    assert_eq!(a.stdout, ply(&args, "").stdout);
    let o = ply(&["sudoku", "solve", "--count"], &text(&a.stdout));
    assert_eq!(text(&o.stdout), "1\n");
    let o = ply(&["sudoku", "generate", "--clues", "30", "--restart"], "");
    assert_eq!(
        o.status.code(),
        Some(2),
        "--restart does not go with --clues"
    );
}

/// `--steer` (loosest clues first) gives one puzzle per seed, unique, another than the
/// default's, and goes with neither `--clues` nor `--restart`.
#[test]
fn generate_steer_is_seeded_and_unique() {
    let args = [
        "sudoku", "generate", "--size", "16", "--seed", "16", "--steer",
    ];
    let a = ply(&args, "");
    assert_eq!(a.status.code(), Some(0), "{}", text(&a.stderr));
    assert_eq!(a.stdout, ply(&args, "").stdout);
    let o = ply(&["sudoku", "solve", "--count"], &text(&a.stdout));
    assert_eq!(text(&o.stdout), "1\n");
    let plain = ply(&args[..6], "");
    assert_ne!(a.stdout, plain.stdout);
    for other in ["--restart", "--clues=30"] {
        let o = ply(&["sudoku", "generate", "--steer", other], "");
        assert_eq!(o.status.code(), Some(2), "--steer does not go with {other}");
    }
}

#[test]
fn explain_and_grade() {
    let o = ply(&["sudoku", "explain"], EASY);
    assert_eq!(o.status.code(), Some(0));
    let out = text(&o.stdout);
    assert!(
        out.contains("  1. hidden single: r2c2 is the only place for 6 in box 1 => r2c2=6"),
        "{out}"
    );
    assert!(out.contains("grade easy"), "{out}");
    let o = ply(&["sudoku", "grade", &fixture("hard.txt")], "");
    let grades = text(&o.stdout);
    assert_eq!(grades.lines().count(), 5);
    assert!(grades.lines().any(|l| l.starts_with("beyond")), "{grades}");
}

#[test]
fn bench_reports_every_file() {
    let o = ply(
        &[
            "sudoku",
            "bench",
            &fixture("hard.txt"),
            &fixture("6x6.txt"),
            "--rounds",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let ply_rows: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["solver"] == "ply")
        .collect();
    assert_eq!(ply_rows.len(), 2);
    assert_eq!(ply_rows[0]["puzzles"], 5);
    assert_eq!(ply_rows[1]["puzzles"], 5);
}
