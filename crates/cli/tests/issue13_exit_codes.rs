//! Issue 13, item 8: exit codes follow one rule, stated in the README: 0 success, 1 the work
//! failed or a check said no, 2 the input was wrong (including a file that cannot be opened).

use std::process::{Command, Stdio};

fn code(args: &[&str], dir: &std::path::Path) -> Option<i32> {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .code()
}

#[test]
fn a_missing_input_file_is_bad_input_for_every_command_that_reads_one() {
    let dir = tempfile::tempdir().unwrap();
    let missing = "no-such-file.txt";
    for args in [
        &["sudoku", "solve", missing][..],
        &["sudoku", "explain", missing],
        &["sudoku", "grade", missing],
        &["sudoku", "bench", missing],
        &["peg", "solve", "--board", missing],
        &["peg", "score", "--moves", missing],
        &["peg", "package", "--from", missing, "--to", missing],
        &["judge", "tictactoe", "--state", missing, "--move", "-"],
        &["replay", missing],
        &[
            "ants",
            "play",
            "--map",
            missing,
            "builtin:random",
            "builtin:random",
        ],
        &["breaker", "check", missing],
        &["breaker", "replay", missing],
        &["breaker", "autoplay", "--level-file", missing],
    ] {
        assert_eq!(code(args, dir.path()), Some(2), "ply {args:?}");
    }
}

#[test]
fn a_failed_check_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    // A well-formed answer whose first jump is illegal (no peg on 4 4 at the start).
    std::fs::write(dir.path().join("jumps.txt"), "4 4 2 4\n").unwrap();
    assert_eq!(
        code(&["peg", "score", "--moves", "jumps.txt"], dir.path()),
        Some(1)
    );
    // An illegal tic-tac-toe move: cell 0 0 is taken.
    std::fs::write(dir.path().join("state.txt"), "1 0 0\n0 2 0\n0 0 0\n1\n").unwrap();
    std::fs::write(dir.path().join("move.txt"), "0 0\n").unwrap();
    assert_eq!(
        code(
            &[
                "judge",
                "tictactoe",
                "--state",
                "state.txt",
                "--move",
                "move.txt"
            ],
            dir.path()
        ),
        Some(1)
    );
    // Correct work: 0.
    std::fs::write(dir.path().join("ok.txt"), "2 4 4 4\n").unwrap();
    assert_eq!(
        code(&["peg", "score", "--moves", "ok.txt"], dir.path()),
        Some(0)
    );
}
