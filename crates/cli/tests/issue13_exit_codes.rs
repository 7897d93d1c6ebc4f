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

/// `ply ARGS` in `dir` with `stdin`: its exit code and stderr.
fn run(args: &[&str], dir: &std::path::Path, stdin: Stdio) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Every command that reads a file, given `file`.
fn readers(file: &str) -> Vec<Vec<&str>> {
    vec![
        vec!["sudoku", "solve", file],
        vec!["sudoku", "grade", file],
        vec!["peg", "solve", "--board", file],
        vec!["peg", "score", "--moves", file],
        vec!["judge", "tictactoe", "--state", file, "--move", "-"],
        vec!["replay", file],
        vec![
            "ants",
            "play",
            "--map",
            file,
            "builtin:random",
            "builtin:random",
        ],
        vec!["breaker", "check", file],
        vec!["breaker", "replay", file],
    ]
}

#[test]
fn a_binary_file_is_bad_input_that_says_where_its_first_bad_byte_is() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bin.txt"), b"12\n3\xff\xfe\x00").unwrap();
    for args in readers("bin.txt") {
        let (code, err) = run(&args, dir.path(), Stdio::null());
        assert_eq!(code, Some(2), "ply {args:?}: {err}");
        assert!(
            err.contains("bin.txt: not text: byte 0xff at line 2, column 2 is not UTF-8"),
            "ply {args:?}: {err}"
        );
    }
}

/// Before the cap, `ply sudoku solve /dev/zero` (and every reader here) allocated until the
/// machine ran out of memory, and `ply play` with stdin from it did the same on one line.
#[test]
fn an_endless_input_is_bad_input_not_a_hang() {
    if !std::path::Path::new("/dev/zero").exists() {
        eprintln!("skipped: no /dev/zero on this system");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for args in readers("/dev/zero") {
        let (code, err) = run(&args, dir.path(), Stdio::null());
        assert_eq!(code, Some(2), "ply {args:?}: {err}");
        assert!(err.contains("longer than 256 MiB"), "ply {args:?}: {err}");
    }
    for args in [
        &["bot", "tictactoe"][..],
        &["sudoku", "solve", "-"],
        &["judge", "tictactoe", "--state", "-", "--move", "-"],
    ] {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let (code, err) = run(args, dir.path(), zero.into());
        assert_eq!(code, Some(2), "ply {args:?} < /dev/zero: {err}");
        assert!(err.contains("longer than 256 MiB"), "ply {args:?}: {err}");
    }
    for args in [
        &["play", "tictactoe", "--ai", "random"][..],
        &["hanoi", "play", "--discs", "3"],
    ] {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let (code, err) = run(args, dir.path(), zero.into());
        assert_eq!(code, Some(2), "ply {args:?} < /dev/zero: {err}");
        assert!(
            err.contains("a line longer than 64 KiB"),
            "ply {args:?}: {err}"
        );
    }
}
