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
fn a_program_that_cannot_start_is_refused_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("m.map");
    std::fs::write(&map, "rows 1\ncols 4\nplayers 2\nm A.B.\n").unwrap();
    let out = ply()
        .args(["ants", "play", "--map"])
        .arg(&map)
        .args(["builtin:hold", "/nonexistent/ply-bot --fast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bot 2: cannot run \"/nonexistent/ply-bot\""),
        "{err}"
    );
}

/// A program beside a built-in: it crashes at turn 3, the game goes on, and the logs hold
/// every byte both ways.
#[test]
fn programs_and_builtins_play_together_with_logs() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("m.map");
    std::fs::write(
        &map,
        "rows 4\ncols 30\nplayers 3\nm A.........B.........C.........\n\
         m a.........b.........c.........\nm ..............................\n\
         m ..............................\n",
    )
    .unwrap();
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../referee/tests/bots/ants_bot.sh")
        .display()
        .to_string();
    let pids = dir.path().join("pids").display().to_string();
    let logs = dir.path().join("logs");
    let out = ply()
        // The script writes its pids into the test's folder: a jailed bot cannot.
        .args(["ants", "play", "--no-jail", "--map"])
        .arg(&map)
        .arg(format!("sh {script} hold 99 {pids}"))
        .arg(format!("sh {script} crash 3 {pids}"))
        .args([
            "builtin:hold",
            "--turns",
            "6",
            "--scenario",
            "--food",
            "none",
        ])
        .args([
            "--engine-seed",
            "1",
            "--player-seed",
            "1",
            "--json",
            "--log-dir",
        ])
        .arg(&logs)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        v["status"],
        serde_json::json!(["survived", "crashed", "survived"])
    );
    assert_eq!(v["playerturns"], serde_json::json!([6, 3, 6]));
    assert_eq!(v["seats"][1]["detail"], "exit code 3");
    assert_eq!(v["seats"][1]["failed_turn"], 3);
    let read = |f: &str| std::fs::read_to_string(logs.join(f)).unwrap();
    assert_eq!(read("bot0.stdout"), "go\n".repeat(7));
    assert_eq!(read("bot1.stdout"), "go\n".repeat(3));
    let input1 = read("bot1.input");
    assert!(
        input1.contains("turn 3\n") && input1.ends_with("go\n"),
        "{input1}"
    );
    assert!(
        !input1.contains("turn 4\n") && !input1.contains("end\n"),
        "{input1}"
    );
    assert!(read("bot0.input").contains("\nend\nplayers 3\n"));
    assert_eq!(read("bot2.stdout"), "go\n".repeat(7));
    assert_eq!(read("bot1.stderr"), "");
}
