//! Issue 13, item 9: the small things a new user reads: plurals, aligned columns, a title
//! said once, a huge count printed once.

use std::process::{Command, Output, Stdio};

fn ply(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "ply {args:?}: {out:?}");
    out
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn one_is_singular() {
    let err = text(&ply(&["peg", "solve", "--board", "english"]).stderr);
    assert!(err.contains(", 1 peg left,"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.sqlite3");
    let out = ply(&[
        "tournament",
        "tictactoe",
        "--bot",
        "a=builtin:random",
        "--bot",
        "b=builtin:greedy",
        "--rounds",
        "1",
        "--db",
        db.to_str().unwrap(),
    ]);
    let all = text(&out.stdout) + &text(&out.stderr);
    assert!(
        all.contains("1 round,") || all.contains("1 round)"),
        "{all}"
    );
    assert!(!all.contains("1 rounds"), "{all}");
}

#[test]
fn every_summary_of_ply_games_starts_in_one_column() {
    let out = text(&ply(&["games"]).stdout);
    let columns: Vec<usize> = out
        .lines()
        .map(|l| {
            // name, two or more spaces, seats, two or more spaces, summary
            let after_name = l[l.find("  ").unwrap()..].trim_start();
            let summary = after_name[after_name.find("  ").unwrap()..].trim_start();
            l.len() - summary.len()
        })
        .collect();
    assert!(columns.len() >= 9, "{out}");
    assert!(columns.windows(2).all(|w| w[0] == w[1]), "{out}");
}

#[test]
fn a_huge_count_is_printed_once() {
    let out = ply(&["hanoi", "solve", "--discs", "100000", "--count"]);
    let count = text(&out.stdout);
    assert_eq!(count.trim().len(), 30103);
    assert!(
        !text(&out.stderr).contains(&count.trim()[..50]),
        "the summary repeats the count"
    );
}

#[test]
fn the_play_title_says_the_game_once() {
    let out = text(&ply(&["play", "reversi", "--seed", "1"]).stdout);
    let first = out.lines().next().unwrap();
    assert_eq!(first.matches("HackerEarth").count(), 1, "{first}");
    assert_eq!(first.matches("Reversi").count(), 1, "{first}");
}

#[test]
fn the_ants_result_table_lines_up() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("m.map");
    ply(&[
        "ants",
        "mapgen",
        "--players",
        "2",
        "--rows",
        "24",
        "--cols",
        "24",
        "-o",
        map.to_str().unwrap(),
    ]);
    let out = text(
        &ply(&[
            "ants",
            "play",
            "--map",
            map.to_str().unwrap(),
            "--turns",
            "30",
            "--engine-seed",
            "1",
            "--player-seed",
            "1",
            "builtin:hunter",
            "builtin:hold",
        ])
        .stdout,
    );
    let table: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("seat "))
        .take(3)
        .collect();
    assert_eq!(table.len(), 3, "{out}");
    let turns_at = table[0].find("turns").unwrap();
    for row in &table[1..] {
        // The last column (turns played) starts under its heading.
        let last = row.rfind(' ').unwrap() + 1;
        assert_eq!(last, turns_at, "{out}");
    }
}
