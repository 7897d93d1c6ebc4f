//! Issue 15: `ply match ants`: games between a built-in and a program on one map, the seats
//! rotated every game, replays written, TrueSkill standings (mu, sigma, mu - 3 sigma).

use std::fs;
use std::process::Command;

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

const HOLDER: &str = "import sys\nfor line in sys.stdin:\n    if line.strip() in ('ready', 'go'):\n        print('go', flush=True)\n";

#[test]
fn issue15_ply_match_ants_rotates_seats_writes_replays_and_rates_with_trueskill() {
    if Command::new("python3").arg("-c").arg("1").output().is_err() {
        eprintln!("skipping: no python3 for the program seat");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = ply()
        .current_dir(d)
        .args([
            "ants",
            "mapgen",
            "--players",
            "2",
            "--rows",
            "24",
            "--cols",
            "24",
        ])
        .args(["-o", "r.map"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    fs::write(d.join("hold.py"), HOLDER).unwrap();
    let out = ply()
        .current_dir(d)
        .args(["match", "ants", "--map", "r.map", "--bot", "builtin:hunter"])
        .args([
            "--bot",
            "python3 -S hold.py",
            "--games",
            "2",
            "--turns",
            "300",
        ])
        .args(["--replays", "replays", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{v}");
    assert_eq!(games[0]["seats"], serde_json::json!(["bot1", "bot2"]));
    assert_eq!(games[1]["seats"], serde_json::json!(["bot2", "bot1"]));
    for g in games {
        let path = g["replay"].as_str().unwrap();
        let stored: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(d.join(path)).unwrap()).unwrap();
        assert_eq!(stored["challenge"], "ants");
        assert_eq!(stored["replaydata"]["players"], 2);
    }
    let players = v["players"].as_array().unwrap();
    assert_eq!(players[0]["name"], "bot1", "the hunter leads: {v}");
    assert_eq!(players[0]["games"], 2);
    assert_eq!(players[0]["wins"], 2, "{v}");
    let (mu, sigma, skill) = (
        players[0]["mu"].as_f64().unwrap(),
        players[0]["sigma"].as_f64().unwrap(),
        players[0]["skill"].as_f64().unwrap(),
    );
    assert!(mu > 25.0 && sigma < 25.0 / 3.0, "{v}");
    assert!((skill - (mu - 3.0 * sigma)).abs() < 1e-9);
    assert!(players[1]["mu"].as_f64().unwrap() < 25.0, "{v}");
    // The text form shows the same columns.
    let out = ply()
        .current_dir(d)
        .args(["match", "ants", "--map", "r.map", "--bot", "builtin:hunter"])
        .args(["--bot", "builtin:hold", "--turns", "100"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("mu-3sigma"), "{text}");
}
