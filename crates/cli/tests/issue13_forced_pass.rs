//! Issue 13, item 1: a program is never asked to move for a side that must pass.
//!
//! In Reversi and Othello a side with no placement passes, and the HackerEarth judge skips
//! it. The referee used to run that side's program anyway, with an input that names the
//! *other* player, and judge the answer as the passing side's move: programs that play
//! correctly lost "by invalid move". These tests play many seeded games between external
//! programs that answer the first (or last) cell marked `3` in their input, and between
//! `ply bot` and the built-ins, and require that no game ends by a fault while passes did
//! happen.

use std::path::Path;

mod common;
use std::process::Command;

/// A bot that plays the first (`pick = "first"`) or last cell marked `3` on a `rows`-row
/// board, as the issue's `firstbot.sh` does.
fn marked_cell_bot(dir: &Path, pick: &str, rows: usize) -> String {
    let path = dir.join(format!("{pick}bot.sh"));
    let choose = match pick {
        "first" => "if (!done) { r = NR - 1; c = i - 1; done = 1 }",
        _ => "{ r = NR - 1; c = i - 1; done = 1 }",
    };
    common::write_script(
        &path,
        &format!(
            "#!/bin/sh\nexec awk 'NR<={rows} {{ for (i=1;i<=NF;i++) if ($i==\"3\") {choose} }} \
             END {{ if (done) print r, c; else print \"0 0\" }}'\n"
        ),
    );
    path.to_str().unwrap().to_owned()
}

/// Plays a match with `--json` and replays in `dir`, and returns the match's JSON and the
/// number of passes the replays record.
fn play(
    dir: &Path,
    game: &str,
    p1: &str,
    p2: &str,
    games: u32,
    seed: u64,
) -> (serde_json::Value, usize) {
    // A fresh folder per match: replay files are never overwritten.
    static MATCHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let replays = dir.join(format!("replays-{game}-{seed}-{n}"));
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["match", game, "--p1", p1, "--p2", p2, "--swap", "--json"])
        .args(["--games", &games.to_string(), "--seed", &seed.to_string()])
        .arg("--replays")
        .arg(&replays)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ply match {game} {p1} {p2}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut passes = 0;
    for g in v["games"].as_array().unwrap() {
        let text = std::fs::read_to_string(g["replay"].as_str().unwrap()).unwrap();
        let replay: serde_json::Value = serde_json::from_str(&text).unwrap();
        passes += replay["moves"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|m| m["move"] == "pass")
            .count();
    }
    (v, passes)
}

/// No player lost a game by any fault.
fn assert_no_faults(v: &serde_json::Value, what: &str) {
    for p in v["players"].as_array().unwrap() {
        assert_eq!(
            p["faults"],
            serde_json::json!({}),
            "{what}: {} lost by a fault; games: {}",
            p["name"],
            v["games"]
        );
    }
}

#[test]
fn programs_are_never_asked_to_move_for_a_side_that_must_pass() {
    let dir = tempfile::tempdir().unwrap();
    let mut passes = 0;
    for (game, rows) in [("reversi", 10), ("othello", 8)] {
        let first = marked_cell_bot(dir.path(), "first", rows);
        let last = marked_cell_bot(dir.path(), "last", rows);
        // Two external programs against each other, both colours.
        let (v, n) = play(dir.path(), game, &first, &last, 2, 1);
        assert_no_faults(&v, &format!("{game} first vs last"));
        passes += n;
        // The reproduction and more seeds against the random built-in.
        for seed in [1, 2, 3] {
            let (v, n) = play(dir.path(), game, &first, "builtin:random", 10, seed);
            assert_no_faults(&v, &format!("{game} first vs random, seed {seed}"));
            passes += n;
        }
    }
    // The test means something only if sides did have to pass.
    assert!(passes > 0, "no game had a forced pass");
}

#[test]
fn ply_bot_as_a_program_never_loses_by_a_fault_in_any_game() {
    let dir = tempfile::tempdir().unwrap();
    let ply = env!("CARGO_BIN_EXE_ply");
    let mut passes = 0;
    for game in ["tictactoe", "reversi", "othello", "draughts", "taunt"] {
        let program = format!("{ply} bot {game} --time-ms 30");
        // Where the format marks legal cells, the opponent is the external first-cell
        // program too (it is the side that gets stuck); elsewhere the random built-in.
        let opponent = match game {
            "reversi" => marked_cell_bot(dir.path(), "first", 10),
            "othello" => marked_cell_bot(dir.path(), "first", 8),
            _ => "builtin:random".to_owned(),
        };
        let (v, n) = play(dir.path(), game, &program, &opponent, 4, 7);
        assert_no_faults(&v, &format!("{game}: ply bot vs {opponent}"));
        passes += n;
    }
    assert!(passes > 0, "no game had a forced pass");
}
