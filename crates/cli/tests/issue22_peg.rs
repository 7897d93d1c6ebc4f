//! Issue 22, item 7: seed 001's package and purge from the command line, its answers replayed
//! through the contest scorer (`ply peg score`).

use std::process::Command;

fn ply(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "ply {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn board(name: &str) -> String {
    format!("{}/../../docs/peg/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Solves with `--packages`, writes the contest answer, and scores it with `ply peg score`.
fn solve_and_score(file: &str, width: &str) -> (u64, u64) {
    let json = ply(&[
        "peg",
        "solve",
        "--board",
        file,
        "--objective",
        "score",
        "--packages",
        "--width",
        width,
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let answer: String = v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| {
            let j: Vec<String> = j
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect();
            j.join(" ") + "\n"
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let moves = dir.path().join("answer.txt");
    std::fs::write(&moves, answer).unwrap();
    let scored = ply(&[
        "peg",
        "score",
        "--board",
        file,
        "--moves",
        moves.to_str().unwrap(),
        "--json",
    ]);
    let s: serde_json::Value = serde_json::from_str(&scored).unwrap();
    assert_eq!(s["legal"], true);
    (v["score"].as_u64().unwrap(), s["score"].as_u64().unwrap())
}

#[test]
fn package_and_purge_answers_pass_the_contest_scorer() {
    // The seed's weighted English board and a 7x9 contest-style rectangle (63 holes).
    let (solver, scorer) = solve_and_score(&board("weighted-english.txt"), "30");
    assert_eq!(solver, scorer);
    assert_eq!(scorer, 432);
    let (solver, scorer) = solve_and_score(&board("rectangle-7x9.txt"), "10");
    assert_eq!(solver, scorer);
    assert_eq!(scorer, 121);
}
