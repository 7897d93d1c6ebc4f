//! Issue 13, items 3 and 4: no numeric flag can make ply panic, abort or hang, and values
//! that mean nothing are refused before any work.
//!
//! Every numeric flag of every command family gets the edge values below (zero, one, just
//! past common limits, the largest integers, values that do not fit, not a number), on a
//! base command chosen so that any value ply accepts is cheap. ply must answer each with
//! exit 0, 1 or 2 within the time limit: never 101 (panic), never a signal (abort, out of
//! memory), never a hang.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "65",
    "257",
    "4294967297",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "1e3",
    "nan",
];

/// Each case: the command before the flag, the flag, and the arguments after its value.
const CASES: &[(&str, &str, &str)] = &[
    ("hanoi solve --count", "--discs", ""),
    ("hanoi solve --count --discs 3", "--pegs", ""),
    ("hanoi solve --count --discs 3 --pegs 4", "--search-mib", ""),
    ("hanoi bfs --pegs 3", "--discs", ""),
    ("hanoi bfs --discs 3", "--pegs", ""),
    ("hanoi bfs --pegs 3 --discs 3", "--memory-mib", ""),
    ("hanoi graph", "--discs", ""),
    ("hanoi play", "--discs", ""),
    ("hanoi play", "--pegs", ""),
    ("hanoi bench", "--discs", ""),
    ("hanoi kth --k 1", "--discs", ""),
    ("hanoi kth --discs 10", "--k", ""),
    ("hanoi split --discs 5", "--pegs", ""),
    ("hanoi split", "--discs", ""),
    ("hanoi average", "--discs", ""),
    ("sudoku generate", "--size", ""),
    ("sudoku generate --size 4", "--count", ""),
    ("sudoku generate --size 4 --clues 6", "--attempts", ""),
    ("sudoku generate --size 4", "--clues", ""),
    ("sudoku generate --size 4", "--min-clues", ""),
    ("sudoku generate --size 4", "--seed", ""),
    (
        "sudoku solve --solver backtracking --max-placements 1000 /dev/null",
        "--threads",
        "",
    ),
    (
        "sudoku solve --solver backtracking /dev/null",
        "--max-placements",
        "",
    ),
    ("peg solve --objective score", "--width", ""),
    ("peg count --board triangle --start 11", "--max-levels", ""),
    ("ants mapgen", "--players", ""),
    ("ants mapgen", "--rows", ""),
    ("ants mapgen", "--cols", ""),
    ("ants mapgen", "--corridor", ""),
    ("ants mapgen", "--hills", ""),
    ("ants mapgen", "--openness", ""),
    ("ants mapgen", "--seed", ""),
    (
        "match tictactoe --p1 builtin:random --p2 builtin:random",
        "--games",
        "",
    ),
    (
        "match tictactoe --p1 builtin:random --p2 builtin:random",
        "--seed",
        "",
    ),
    (
        "match tictactoe --p1 builtin:random --p2 builtin:random",
        "--time-ms",
        "",
    ),
    (
        "match tictactoe --p1 builtin:random --p2 builtin:random",
        "--memory-mb",
        "",
    ),
    (
        "match tictactoe --p1 builtin:random --p2 builtin:random",
        "--output-kb",
        "",
    ),
    (
        "match tictactoe --p1 builtin:random --p2 builtin:random",
        "--cpus",
        "",
    ),
    ("perft tictactoe", "", ""),
    ("sort check", "--sizes", ""),
    (
        "sort bench --runs 1 --inputs random --algorithms std-sort",
        "--sizes",
        "",
    ),
    // One algorithm: 257 runs of all fourteen take 20 s of CPU in a debug build.
    (
        "sort bench --sizes 10 --inputs random --algorithms std-sort",
        "--runs",
        "",
    ),
    ("breaker autoplay --level 1", "--max-steps", ""),
    ("breaker autoplay --max-steps 100", "--level", ""),
    ("breaker autoplay --level 1 --max-steps 100", "--seed", ""),
];

/// Runs ply with `args`; `None` when it did not finish within `limit` (then it is killed).
fn run(args: &[String], limit: Duration) -> Option<std::process::Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn no_numeric_flag_panics_aborts_or_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for (before, flag, after) in CASES {
        for value in VALUES {
            let mut args: Vec<String> = before.split_whitespace().map(String::from).collect();
            if !flag.is_empty() {
                args.push(flag.to_string());
            }
            args.push(value.to_string());
            args.extend(after.split_whitespace().map(String::from));
            if args[0] == "sort" && args[1] == "bench" {
                args.extend(["--out".into(), dir.path().to_str().unwrap().into()]);
            }
            match run(&args, Duration::from_secs(20)) {
                None => failures.push(format!("ply {}: still running after 20 s", args.join(" "))),
                Some(out) => {
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    if !matches!(out.status.code(), Some(0..=2)) || stderr.contains("panicked") {
                        failures.push(format!(
                            "ply {}: {:?} {}",
                            args.join(" "),
                            out.status,
                            stderr.lines().take(3).collect::<Vec<_>>().join(" | ")
                        ));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Runs ply and returns its exit code and stderr.
fn code(args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn values_that_mean_nothing_are_refused_before_any_work() {
    for (args, says) in [
        (&["peg", "solve", "--width", "0"][..], "--width"),
        (
            // Refused at once, not after 1,000 minimal puzzles of 20-odd clues each.
            &["sudoku", "generate", "--clues", "16"][..],
            "--clues 16: no 9x9 Sudoku with one solution has fewer than 17 clues",
        ),
        (
            &["ants", "mapgen", "--openness", "2"][..],
            "fraction from 0 to 1",
        ),
        (
            &[
                "match",
                "tictactoe",
                "--p1",
                "./no-such-bot",
                "--p2",
                "builtin:random",
            ][..],
            "cannot run \"./no-such-bot\"",
        ),
        (
            &[
                "tournament",
                "tictactoe",
                "--bot",
                "a=no-such-bot-on-path",
                "--bot",
                "b=builtin:random",
                "--db",
                "/nonexistent/dir/x.sqlite3",
            ][..],
            "no program of that name on PATH",
        ),
        (
            // Refused before the search (which took 34 s with 30 discs), by the check that
            // names the 3 pegs it needs.
            &["hanoi", "solve", "--pegs", "4", "--discs", "30", "--second"][..],
            "--second: two shortest paths exist only on 3 pegs (--pegs 3)",
        ),
        (
            &[
                "match",
                "tictactoe",
                "--p1",
                "builtin:random",
                "--p2",
                "builtin:random",
                "--memory-mb",
                "17592186044416",
            ][..],
            "1..=1048576",
        ),
        (
            &[
                "match",
                "tictactoe",
                "--p1",
                "builtin:random",
                "--p2",
                "builtin:random",
                "--output-kb",
                "18014398509481984",
            ][..],
            "1..=1048576",
        ),
        (
            &["sudoku", "generate", "--size", "18446744073709551615"][..],
            "sides go from 4 to 32",
        ),
        (
            &["sudoku", "generate", "--size", "33"][..],
            "sides go from 4 to 32",
        ),
        (
            &["hanoi", "solve", "--discs", "100000000", "--count"][..],
            "at most 1000000 discs",
        ),
    ] {
        let (code, stderr) = code(args);
        assert_eq!(code, Some(2), "ply {args:?}: {stderr}");
        assert!(
            stderr.contains(says),
            "ply {args:?} should say {says:?}: {stderr}"
        );
    }
}
