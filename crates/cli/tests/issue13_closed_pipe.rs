//! Issue 13, item 2: every subcommand stops quietly when its reader goes away
//! (`ply sudoku generate --count 100 | head -3` used to panic with exit 101).
//!
//! Each command runs once normally (it must succeed and print something, or the check
//! below would prove nothing) and once with a standard output whose reader is already
//! closed: it must exit 0 with no panic and no error message. `ply play` and
//! `ply breaker play` are interactive (the latter needs a terminal); `ply peg bench` times
//! release builds: those are left out.

use std::path::Path;
use std::process::{Command, Stdio};

const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n";

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

/// The commands, with the files they read made in `dir`.
fn commands(dir: &Path) -> Vec<Vec<String>> {
    let p = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    std::fs::write(dir.join("puzzle.txt"), PUZZLE).unwrap();
    std::fs::write(dir.join("state.txt"), "1 0 0\n0 2 0\n0 0 0\n1\n").unwrap();
    std::fs::write(dir.join("move.txt"), "0 2\n").unwrap();
    std::fs::write(dir.join("jumps.txt"), "2 4 4 4\n").unwrap();
    let ok = |args: &[&str]| {
        let out = ply().args(args).output().unwrap();
        assert!(out.status.success(), "ply {args:?}: {out:?}");
    };
    // A replay, an Ants map and a Block Breaker trace to read back.
    ok(&[
        "match",
        "tictactoe",
        "--p1",
        "builtin:random",
        "--p2",
        "builtin:random",
        "--replays",
        &p("replays"),
    ]);
    ok(&[
        "ants",
        "mapgen",
        "--players",
        "2",
        "--rows",
        "24",
        "--cols",
        "24",
        "-o",
        &p("small.map"),
    ]);
    ok(&[
        "breaker",
        "autoplay",
        "--level",
        "1",
        "--trace",
        &p("trace.json"),
    ]);
    let db = p("arena.sqlite3");
    let level = concat!(env!("CARGO_MANIFEST_DIR"), "/../breaker/levels");
    let level = std::fs::read_dir(level)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|f| f.extension().is_some_and(|x| x == "txt"))
        .unwrap();
    let lines: &[&[&str]] = &[
        &["games"],
        &["completions", "bash"],
        &["man"],
        &["perft", "tictactoe", "3"],
        &[
            "judge",
            "tictactoe",
            "--state",
            &p("state.txt"),
            "--move",
            &p("move.txt"),
        ],
        &[
            "match",
            "tictactoe",
            "--p1",
            "builtin:random",
            "--p2",
            "builtin:random",
            "--games",
            "2",
        ],
        &[
            "tournament",
            "tictactoe",
            "--bot",
            "a=builtin:random",
            "--bot",
            "b=builtin:greedy",
            "--rounds",
            "1",
            "--db",
            &db,
        ],
        &["leaderboard", "--db", &db],
        &["replay", &p("replays/game-0001.json")],
        &["sort", "check"],
        &[
            "sort",
            "bench",
            "--sizes",
            "10",
            "--runs",
            "1",
            "--inputs",
            "random",
            "--out",
            &p("sort"),
        ],
        &["sudoku", "solve", &p("puzzle.txt")],
        &["sudoku", "generate", "--count", "100", "--seed", "1"],
        &["sudoku", "explain", &p("puzzle.txt")],
        &["sudoku", "grade", &p("puzzle.txt")],
        &["sudoku", "bench", "--rounds", "1", &p("puzzle.txt")],
        &["peg", "solve", "--board", "triangle", "--start", "11"],
        &["peg", "count", "--board", "triangle", "--start", "11"],
        &["peg", "score", "--moves", &p("jumps.txt")],
        &[
            "peg",
            "package",
            "--from",
            "[1 0 0 -1;-1 1 1 1;-1 1 1 1]",
            "--to",
            "[1 0 0 -1;-1 0 0 0;-1 0 0 0]",
        ],
        &["peg", "show", "--board", "english"],
        &["hanoi", "solve", "--discs", "20"],
        &["hanoi", "bfs", "--pegs", "4", "--discs", "6"],
        &["hanoi", "graph", "--discs", "3"],
        &["hanoi", "bench", "--discs", "12"],
        &[
            "ants",
            "mapgen",
            "--players",
            "2",
            "--rows",
            "24",
            "--cols",
            "24",
        ],
        &[
            "ants",
            "play",
            "--map",
            &p("small.map"),
            "--turns",
            "5",
            "builtin:random",
            "builtin:random",
        ],
        &["breaker", "autoplay", "--level", "1", "--json"],
        &["breaker", "replay", &p("trace.json")],
        &["breaker", "check", level.to_str().unwrap()],
    ];
    lines
        .iter()
        .map(|l| l.iter().map(|s| s.to_string()).collect())
        .collect()
}

#[test]
fn every_subcommand_stops_quietly_when_its_reader_goes_away() {
    let dir = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for args in commands(dir.path()) {
        let normal = ply().args(&args).stdin(Stdio::null()).output().unwrap();
        assert!(
            normal.status.success() && !normal.stdout.is_empty(),
            "ply {args:?} should succeed and print: {normal:?}"
        );
        // A pipe whose reader is closed before ply starts: its first write fails.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let closed = ply()
            .args(&args)
            .stdin(Stdio::null())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&closed.stderr);
        if closed.status.code() != Some(0)
            || stderr.contains("panicked")
            || stderr.contains("error")
        {
            failures.push(format!(
                "ply {}: {:?}, stderr {stderr:?}",
                args.join(" "),
                closed.status
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
