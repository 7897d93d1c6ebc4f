//! `ply ants`: the binary end to end (mapgen, play with built-in bots, bad input).

use std::process::Command;

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

#[test]
fn mapgen_then_play_writes_logs_and_replay() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("maze.map");
    let out = ply()
        .args([
            "ants",
            "mapgen",
            "--players",
            "2",
            "--rows",
            "18",
            "--cols",
            "36",
            "--seed",
            "3",
        ])
        .arg("-o")
        .arg(&map)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let logs = dir.path().join("logs");
    let replay = dir.path().join("game.replay");
    let out = ply()
        .args(["ants", "play", "--map"])
        .arg(&map)
        .args([
            "builtin:hunter",
            "builtin:random",
            "--turns",
            "60",
            "--engine-seed",
            "1",
        ])
        .args(["--player-seed", "2", "--json", "--log-dir"])
        .arg(&logs)
        .arg("--replay")
        .arg(&replay)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["challenge"], "ants");
    let input = std::fs::read_to_string(logs.join("bot0.input")).unwrap();
    assert!(input.starts_with("turn 0\nloadtime 3000\n"));
    assert!(input.contains("\nend\nplayers 2\n"));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(r["replaydata"]["revision"], 3);
}

#[test]
fn bad_map_reports_line_and_column_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("bad.map");
    std::fs::write(&map, "rows 1\ncols 3\nplayers 2\nm a?b\n").unwrap();
    let out = ply()
        .args(["ants", "play", "--map"])
        .arg(&map)
        .args(["builtin:hold", "builtin:hold"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 4, column 4"), "{err}");
}

#[test]
fn external_bots_are_left_to_the_referee() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("m.map");
    std::fs::write(&map, "rows 1\ncols 4\nplayers 2\nm A.B.\n").unwrap();
    let out = ply()
        .args(["ants", "play", "--map"])
        .arg(&map)
        .args(["builtin:hold", "python3 bot.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
