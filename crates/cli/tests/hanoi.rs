//! `ply hanoi` run as scripts call it: whole outputs and exit codes.

use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .expect("ply runs")
}

fn stdout(args: &[&str]) -> String {
    let out = ply(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn solve_prints_one_move_per_line_and_nothing_else() {
    assert_eq!(
        stdout(&["hanoi", "solve", "--discs", "3"]),
        "1 3\n1 2\n3 2\n1 3\n2 1\n2 3\n1 3\n"
    );
    let out = ply(&["hanoi", "solve", "--discs", "3"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("7 moves"));
}

#[test]
fn counts_are_exact() {
    assert_eq!(
        stdout(&["hanoi", "solve", "--discs", "64", "--count"]),
        "18446744073709551615\n"
    );
    let big = stdout(&["hanoi", "solve", "--discs", "1000", "--count"]);
    assert_eq!(big.trim().len(), 302); // 2^1000 - 1 has 302 digits
    assert!(big.starts_with("10715086071862673209484250490600018105614048117055"));
    assert_eq!(
        stdout(&["hanoi", "solve", "--discs", "20", "--pegs", "4", "--count"]),
        "289\n"
    );
}

#[test]
fn json_gives_moves_optimality_and_path() {
    let v: serde_json::Value = serde_json::from_str(&stdout(&[
        "hanoi", "solve", "--discs", "6", "--pegs", "4", "--json",
    ]))
    .unwrap();
    assert_eq!(v["moves"], 17);
    assert_eq!(v["optimal"], "proven");
    assert_eq!(v["path"].as_array().unwrap().len(), 17);
    assert_eq!(v["path"][0], serde_json::json!([1, 3]));
    let v: serde_json::Value = serde_json::from_str(&stdout(&[
        "hanoi", "solve", "--discs", "40", "--pegs", "5", "--count", "--json",
    ]))
    .unwrap();
    assert_eq!(v["optimal"], "upper-bound");
    assert!(v.get("path").is_none());
}

#[test]
fn positions_go_largest_disc_first() {
    // Discs 4, 3, 2 on peg 1 and disc 1 on peg 3, to all on peg 2: 14 moves (Hinz).
    let out = stdout(&[
        "hanoi", "solve", "--discs", "4", "--from", "1113", "--to", "2222",
    ]);
    assert_eq!(out.lines().count(), 14);
    assert!(out.starts_with("1 2\n"));
}

#[test]
fn bfs_reports_eccentricity_and_tower_distances() {
    assert_eq!(
        stdout(&["hanoi", "bfs", "--pegs", "4", "--discs", "6"]),
        "eccentricity: 17\npositions at eccentricity: 6\n\
distance to the tower on peg 1: 0\ndistance to the tower on peg 2: 17\n\
distance to the tower on peg 3: 17\ndistance to the tower on peg 4: 17\n"
    );
}

#[test]
fn bad_input_is_named_and_exits_2() {
    for (args, needle) in [
        (vec!["--discs", "4", "--from", "11a3"], "column 3"),
        (vec!["--discs", "4", "--from", "1103"], "peg 0"),
        (vec!["--discs", "4", "--from", "1114"], "peg 4"),
        (vec!["--discs", "4", "--from", "111"], "too few"),
        (vec!["--discs", "4", "--pegs", "2"], "at least 3 pegs"),
        (
            vec!["--discs", "2", "--from", "11", "--to", "33", "--second"],
            "only one",
        ),
    ] {
        let mut all = vec!["hanoi", "solve"];
        all.extend(args.iter().copied());
        let out = ply(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(needle), "{all:?}: {err}");
    }
}

#[test]
fn graph_draws_the_sierpinski_triangle() {
    let dot = stdout(&[
        "hanoi",
        "graph",
        "--discs",
        "2",
        "--format",
        "dot",
        "--highlight",
    ]);
    assert_eq!(dot.matches(" -- ").count(), 12); // 3 (3^n - 1) / 2 edges
    assert_eq!(dot.matches("color=red").count(), 3);
    let svg = stdout(&["hanoi", "graph", "--discs", "3"]);
    assert_eq!(svg.matches("<circle").count(), 27);
    assert_eq!(svg.matches("<line").count(), 39);
}

#[test]
fn play_explains_illegal_moves_and_shows_the_optimum() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["hanoi", "play", "--discs", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"2 3\n1 3\n1 3\n1 2\n3 1\n2 3\n1 3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Not allowed: peg 2 is empty."), "{text}");
    assert!(text.contains("Not allowed: disc 2 cannot go onto the smaller disc 1 on peg 3."));
    assert!(
        text.contains("Solved in 5 moves. The optimum is 3 (proven)."),
        "{text}"
    );
}

#[test]
fn bench_streams_four_ways_with_one_checksum() {
    let out = stdout(&["hanoi", "bench", "--discs", "14"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let checksum = |l: &str| l.split("checksum ").nth(1).map(str::to_owned);
    for l in &lines {
        assert!(l.contains("16383 moves of 14 discs"), "{l}");
        assert_eq!(checksum(l), checksum(lines[0]));
    }
}

#[test]
fn long_solutions_print_the_same_moves_as_the_recursion() {
    // 2^12 - 1 moves through the block writer: every line "F T", replaying to the goal.
    let out = stdout(&["hanoi", "solve", "--discs", "12"]);
    let mut pegs: Vec<Vec<u32>> = vec![(1..=12).rev().collect(), vec![], vec![]];
    for line in out.lines() {
        let (f, t) = line.split_once(' ').unwrap();
        let (f, t): (usize, usize) = (
            f.parse::<usize>().unwrap() - 1,
            t.parse::<usize>().unwrap() - 1,
        );
        let d = pegs[f].pop().unwrap();
        assert!(pegs[t].last().is_none_or(|&top| top > d), "{line}");
        pegs[t].push(d);
    }
    assert_eq!(out.lines().count(), 4095);
    assert_eq!(pegs[2], (1..=12).rev().collect::<Vec<_>>());
}
