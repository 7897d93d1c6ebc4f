//! The real `ply` binary, run as a user would, whole outputs compared.

mod common;
use common::{ply, text};

#[test]
fn perft_prints_the_count_last() {
    let out = ply(&["perft", "tictactoe", "9"], "");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout).lines().last(), Some("127872"));
}

#[test]
fn perft_divide_and_json() {
    let out = ply(&["perft", "tictactoe", "2", "--divide"], "");
    let s = text(&out.stdout);
    assert_eq!(s.lines().count(), 10);
    assert!(s.starts_with("0 0: 8\n"));
    let out = ply(&["perft", "tictactoe", "3", "--json"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["nodes"], 504);
}

#[test]
fn perft_past_the_end_of_every_game_is_zero_and_depth_0_is_one_with_or_without_divide() {
    // Before, a depth of 4,000,000,000 made 96 GB of buffers first and aborted.
    let out = ply(&["perft", "tictactoe", "4000000000"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "0\n");
    // Depth 0 has no first move: `--divide` lists none, and the count is 1 either way.
    for args in [
        &["perft", "tictactoe", "0"][..],
        &["perft", "tictactoe", "0", "--divide"],
    ] {
        let out = ply(args, "");
        assert_eq!(text(&out.stdout), "1\n", "{args:?}");
    }
}

#[test]
fn perft_bad_position_is_explained() {
    let out = ply(
        &["perft", "tictactoe", "1", "--position", "xxq/.../..."],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("column 3") && err.contains("a cell is `x`, `o` or `.`"),
        "{err}"
    );
}

#[test]
fn unknown_game_lists_the_known_ones() {
    let out = ply(&["perft", "chess", "1"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("tictactoe"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn games_lists_tictactoe() {
    let out = ply(&["games"], "");
    assert!(
        text(&out.stdout)
            .lines()
            .any(|l| l.starts_with("tictactoe "))
    );
    let out = ply(&["games", "--json"], "");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v.as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "tictactoe")
    );
}

#[test]
fn bot_answers_hackerearth_style() {
    // X in the corner, O in the centre: X to move. Any empty cell is legal; the perfect bot
    // must not lose, and the answer is exactly `row col\n`.
    let out = ply(&["bot", "tictactoe"], "1 0 0\n0 2 0\n0 0 0\n1\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ans = text(&out.stdout);
    let cells: Vec<usize> = ans.split_whitespace().map(|t| t.parse().unwrap()).collect();
    assert_eq!(cells.len(), 2);
    assert!(ans.ends_with('\n') && ans.lines().count() == 1);
    assert!(!(cells == [0, 0] || cells == [1, 1]), "occupied cell {ans}");
    // A forced win is taken: X has 0 0 and 0 1, O has 1 0 and 1 1.
    let out = ply(&["bot", "tictactoe"], "1 1 0\n2 2 0\n0 0 0\n1\n");
    assert_eq!(text(&out.stdout), "0 2\n");
}

#[test]
fn bot_rejects_bad_input_with_line_and_column() {
    let out = ply(&["bot", "tictactoe"], "1 0 0\n0 5 0\n0 0 0\n1\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("line 2, column 3"), "{err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn play_explains_bad_moves_and_finishes_the_game() {
    // The person (X) types garbage, an occupied cell, an off-board cell, then real moves.
    // The perfect AI answers; the game must end in a draw or an AI win, never a crash.
    let input = "hello\n5\n5\n3 3\nhelp\n1\n9\n3\n7\n4\n6\n8\n2\n";
    let out = ply(&["play", "tictactoe", "--seed", "3"], input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("cannot read \"hello\" as a move"), "{s}");
    assert!(s.contains("already holds X"), "{s}");
    assert!(s.contains("row and column are 0, 1 or 2"), "{s}");
    assert!(s.contains("Legal moves:"), "{s}");
    assert!(
        s.contains("Draw.") || s.contains("The AI (perfect) wins."),
        "{s}"
    );
}

#[test]
fn play_as_o_against_random_is_reproducible() {
    let input = "1\n2\n3\n4\n5\n6\n7\n8\n9\n".repeat(3);
    let a = ply(
        &[
            "play",
            "tictactoe",
            "--you",
            "o",
            "--ai",
            "random",
            "--seed",
            "11",
        ],
        &input,
    );
    let b = ply(
        &[
            "play",
            "tictactoe",
            "--you",
            "o",
            "--ai",
            "random",
            "--seed",
            "11",
        ],
        &input,
    );
    assert!(a.status.success());
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn help_teaches_with_examples() {
    for args in [
        vec!["--help"],
        vec!["play", "--help"],
        vec!["perft", "--help"],
        vec!["bot", "--help"],
    ] {
        let out = ply(&args, "");
        assert!(out.status.success());
        assert!(text(&out.stdout).contains("Example"), "{args:?}");
    }
}
