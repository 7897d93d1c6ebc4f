//! `ply peg` end to end: the real binary in a temp dir.

use std::path::Path;
use std::process::Command;

fn ply(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn score_prints_the_contest_example_and_rejects_illegal_rows() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("b.txt"), "2 8 0 7 0 -1 14\n").unwrap();
    std::fs::write(dir.path().join("m.txt"), "[1 1 1 3; 1 3 1 5]\n").unwrap();
    let (code, out, _) = ply(
        dir.path(),
        &[
            "peg", "score", "--board", "b.txt", "--moves", "m.txt", "--json",
        ],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["score"], 18);
    assert_eq!(v["moves"], 1);
    std::fs::write(dir.path().join("bad.txt"), "1 1 1 3\n1 3 1 1\n").unwrap();
    let (code, _, err) = ply(
        dir.path(),
        &["peg", "score", "--board", "b.txt", "--moves", "bad.txt"],
    );
    // An illegal jump in a well-formed answer is a failed check (issue 13 item 8).
    assert_eq!(code, 1);
    assert!(
        err.contains("jump 2 (line 2) 13-11 is illegal: there is no peg to jump over"),
        "{err}"
    );
    std::fs::write(dir.path().join("short.txt"), "1 1 1 3\n1 3 1\n").unwrap();
    let (code, _, err) = ply(
        dir.path(),
        &["peg", "score", "--board", "b.txt", "--moves", "short.txt"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("line 2: jump row 2 has 3 numbers"), "{err}");
    std::fs::write(dir.path().join("ragged.txt"), "1 1 1\n1 1\n").unwrap();
    let (code, _, err) = ply(
        dir.path(),
        &["peg", "score", "--board", "ragged.txt", "--moves", "m.txt"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("line 2: row 2 has 2 entries"), "{err}");
    let (code, _, err) = ply(
        dir.path(),
        &["peg", "solve", "--board", "english", "--start", "11"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("not a hole of the board"), "{err}");
}

#[test]
fn solve_outputs_replay_through_the_scorer() {
    let dir = tempfile::tempdir().unwrap();
    for objective in ["pegs", "score"] {
        let (code, out, _) = ply(
            dir.path(),
            &[
                "peg",
                "solve",
                "--board",
                "english",
                "--objective",
                objective,
                "--format",
                "contest",
                "--width",
                "50",
            ],
        );
        assert_eq!(code, 0, "{objective}");
        std::fs::write(dir.path().join("moves.txt"), &out).unwrap();
        let (code, out, err) = ply(
            dir.path(),
            &[
                "peg",
                "score",
                "--board",
                "english",
                "--moves",
                "moves.txt",
                "--json",
            ],
        );
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        if objective == "pegs" {
            assert_eq!(v["pegs_left"], 1);
        }
    }
    let (code, out, _) = ply(
        dir.path(),
        &[
            "peg",
            "solve",
            "--board",
            "triangle",
            "--format",
            "json",
            "--objective",
            "moves",
        ],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["optimal"], true);
    assert_eq!(v["pegs_left"], 1);
    let (code, out, _) = ply(dir.path(), &["peg", "solve", "--board", "french"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("no solution: position-class argument"),
        "{out}"
    );
}

#[test]
fn package_lists_solutions_and_draws_dot() {
    let dir = tempfile::tempdir().unwrap();
    let from = "[1 0 0 -1;-1 1 1 1;-1 1 1 1]";
    let to = "[1 0 0 -1;-1 0 0 0;-1 0 0 0]";
    let (code, out, _) = ply(dir.path(), &["peg", "package", "--from", from, "--to", to]);
    assert_eq!(code, 0);
    assert!(out.lines().count() > 1, "{out}");
    let (code, out, _) = ply(
        dir.path(),
        &["peg", "package", "--from", from, "--to", to, "--dot"],
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("digraph package {") && out.contains("->"));
}

#[test]
fn count_prints_levels_and_total() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, _) = ply(
        dir.path(),
        &[
            "peg",
            "count",
            "--board",
            "triangle",
            "--json",
            "--finishable",
        ],
    );
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["levels"][0], 1);
    assert_eq!(v["up_to_symmetry"], false);
}

#[test]
fn count_games_of_the_triangle_matches_the_published_figures() {
    // The 15-hole triangle from a corner vacancy: 568,630 games, 29,760 ending with one peg.
    let dir = tempfile::tempdir().unwrap();
    let args = ["peg", "count", "--board", "triangle", "--start", "11"];
    let (code, out, _) = ply(dir.path(), &[&args[..], &["--games", "--json"]].concat());
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["games"]["games"], "568630");
    assert_eq!(v["games"]["solutions"], "29760");
    let (code, out, _) = ply(dir.path(), &[&args[..], &["--games"]].concat());
    assert_eq!(code, 0);
    let tail: Vec<&str> = out.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            "games ending with one peg: 29760",
            "shortest game that gets stuck: 6 jumps",
            "games: 568630"
        ]
    );
    let (code, _, err) = ply(
        dir.path(),
        &[&args[..], &["--games", "--max-levels", "3"]].concat(),
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("drop --max-levels"), "{err}");
}

#[test]
fn solve_reaches_a_target_pattern_file() {
    let dir = tempfile::tempdir().unwrap();
    // The English board finished with one peg in the centre, written as a pattern.
    let mut rows = Vec::new();
    for r in 0..7 {
        let row: Vec<&str> = (0..7)
            .map(|c| {
                let on_board = (2..5).contains(&r) || (2..5).contains(&c);
                match (on_board, r == 3 && c == 3) {
                    (false, _) => "-1",
                    (true, true) => "1",
                    (true, false) => "0",
                }
            })
            .collect();
        rows.push(row.join(" "));
    }
    std::fs::write(dir.path().join("centre.txt"), rows.join("\n") + "\n").unwrap();
    let (code, out, err) = ply(
        dir.path(),
        &["peg", "solve", "--target", "centre.txt", "--format", "json"],
    );
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["pegs_left"], 1);
    assert_eq!(v["jumps"], 31);
    let last = v["solution"].as_array().unwrap().last().unwrap().clone();
    assert_eq!((last[2].as_u64(), last[3].as_u64()), (Some(4), Some(4)));
    // A pattern of another shape is refused with the reason.
    std::fs::write(dir.path().join("small.txt"), "1 0 0\n").unwrap();
    let (code, _, err) = ply(dir.path(), &["peg", "solve", "--target", "small.txt"]);
    assert_eq!(code, 2);
    assert!(err.contains("differ from the board's"), "{err}");
}

#[test]
fn solve_prove_finds_and_proves_the_weighted_optimum() {
    let dir = tempfile::tempdir().unwrap();
    // A small weighted board: the proof is instant.
    std::fs::write(dir.path().join("w.txt"), "[9 1 0 7;3 8 2 5;4 6 1 0]\n").unwrap();
    let args = |extra: &[&'static str]| {
        let mut v = vec![
            "peg",
            "solve",
            "--board",
            "w.txt",
            "--objective",
            "score",
            "--format",
            "json",
        ];
        v.extend_from_slice(extra);
        v
    };
    let (code, out, err) = ply(dir.path(), &args(&["--prove"]));
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["optimal"], true);
    assert_eq!(v["proof"]["proven"], true);
    assert!(v["proof"]["nodes"].as_u64().unwrap() >= 1);
    assert!(v["proof"]["root_bound"].as_u64().unwrap() <= v["score"].as_u64().unwrap());
    // The answer replays through the scorer with the same score.
    let rows: Vec<String> = v["solution"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r.as_array()
                .unwrap()
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    std::fs::write(dir.path().join("m.txt"), rows.join("\n") + "\n").unwrap();
    let (code, scored, _) = ply(
        dir.path(),
        &[
            "peg", "score", "--board", "w.txt", "--moves", "m.txt", "--json",
        ],
    );
    assert_eq!(code, 0);
    let s: serde_json::Value = serde_json::from_str(&scored).unwrap();
    assert_eq!(s["score"], v["score"]);
    // A node limit: the best answer so far, not proven, still exit 0.
    let (code, out, _) = ply(dir.path(), &args(&["--prove", "--max-nodes", "1"]));
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["optimal"].clone(), v["proof"]["proven"].clone()),
        (false.into(), false.into())
    );
    // Bad input: exit 2 with a message naming the flag.
    for (extra, needle) in [
        (&["--prove", "--max-nodes", "0"][..], "--max-nodes"),
        (&["--prove", "--table-mb", "0"][..], "--table-mb"),
        (&["--max-nodes", "5"][..], "--prove"),
        (&["--prove", "--packages"][..], "--packages"),
        // The score chooses where to stop: a finish hole was silently ignored before.
        (&["--finish", "2,2"][..], "--finish"),
    ] {
        let (code, _, err) = ply(dir.path(), &args(extra));
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
    let (code, _, err) = ply(
        dir.path(),
        &["peg", "solve", "--board", "english", "--prove"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("--objective score"), "{err}");
}
