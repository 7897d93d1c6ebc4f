//! Live conformance: the original engine's cases (`../shared/ants-conformance/cases`, and
//! the normal games with food on under `cases-random`) played
//! again by `ply ants play` with the real `conformance_bot.py` in every seat, as external
//! processes under the referee's persistent-bot protocol. Every byte each bot received, its
//! order log, the scores, statuses, turns, cutoff and replay must equal the recordings.
//! Skips (with a message) when the cases or a Python 3 are absent.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

/// The real interpreter behind `python3` (a pyenv shim takes half a second to start).
fn python() -> Option<String> {
    let out = Command::new("python3")
        .args(["-S", "-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    let path = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !path.is_empty()).then_some(path)
}

fn command_value<'a>(command: &'a str, key: &str) -> &'a str {
    command
        .lines()
        .find_map(|l| l.trim().strip_prefix(key)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("command.txt has no {key}"))
        .trim()
}

fn run_case(dir: &Path, python: &str, extra: &[&str]) {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let command = fs::read_to_string(dir.join("command.txt")).unwrap();
    let scenario = command_value(&command, "scenario") == "true";
    let players: usize = command_value(&command, "players").parse().unwrap();
    let bot = format!(
        "{python} -S {}",
        dir.join("../../conformance_bot.py").display()
    );
    let out_dir = tempfile::tempdir().unwrap();
    let logs = out_dir.path().join("logs");
    let replay = out_dir.path().join("replay.json");
    // The recordings were made with 5000 ms for both: the bots are told so, and that much
    // time also keeps a loaded machine from causing false timeouts.
    let out = ply()
        .args(["ants", "play", "--map"])
        .arg(dir.join("scenario.map"))
        .args(std::iter::repeat_n(&bot, players))
        .args(["--turns", command_value(&command, "turns")])
        .args(["--engine-seed", command_value(&command, "engine_seed")])
        .args(["--player-seed", command_value(&command, "player_seed")])
        .args(scenario.then_some("--scenario"))
        .args(["--food", command_value(&command, "food")])
        // The conformance bot writes what it read into the test's folder: a jailed bot
        // cannot.
        .arg("--no-jail")
        .args(["--turntime", "5000", "--loadtime", "5000", "--json"])
        .arg("--log-dir")
        .arg(&logs)
        .arg("--replay")
        .arg(&replay)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for b in 0..players {
        for ext in ["input", "output"] {
            let file = format!("bot{b}.{ext}");
            let got = fs::read_to_string(logs.join(&file)).unwrap();
            let want = fs::read_to_string(dir.join(&file)).unwrap();
            if got != want {
                let line = got
                    .lines()
                    .zip(want.lines())
                    .position(|(x, y)| x != y)
                    .unwrap_or(0);
                panic!(
                    "{name}: {file} differs from line {}:\n ply: {:?}\n orig: {:?}",
                    line + 1,
                    got.lines().skip(line).take(4).collect::<Vec<_>>(),
                    want.lines().skip(line).take(4).collect::<Vec<_>>()
                );
            }
        }
    }
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got: Value = serde_json::from_str(&fs::read_to_string(&replay).unwrap()).unwrap();
    let want: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("replay.json")).unwrap()).unwrap();
    for key in ["status", "playerturns", "score", "rank", "game_length"] {
        assert_eq!(got[key], want[key], "{name}: {key}");
        assert_eq!(summary[key], want[key], "{name}: --json {key}");
    }
    assert_eq!(
        summary["cutoff"], want["replaydata"]["cutoff"],
        "{name}: cutoff"
    );
    for s in summary["seats"].as_array().unwrap() {
        assert!(s["detail"].is_null(), "{name}: {s}");
    }
    let mut keys = vec!["loadtime", "turntime"];
    keys.extend(extra);
    ply_testkit::assert_ants_replays_agree(&got, &want, &name, &keys);
}

fn cases() -> Option<(Vec<PathBuf>, String)> {
    let cases = ply_testkit::ants_conformance_cases()?;
    let Some(python) = python() else {
        eprintln!("skipping: no python3 to run conformance_bot.py");
        return None;
    };
    Some((cases, python))
}

/// All twelve cases take about 4 s here (dev profile): bots' time is most of it.
#[test]
fn conformance_bot_as_processes_matches_the_original_engine() {
    let Some((cases, python)) = cases() else {
        return;
    };
    assert_eq!(cases.len(), 12, "the shared set has 12 cases");
    for c in &cases {
        run_case(c, &python, &[]);
    }
}

/// The normal games with food on (engine seed 1): the referee's live loop must draw the
/// same random stream as the original engine's (food, spawn ties, the per-turn shuffle).
#[test]
fn random_food_games_as_processes_match_the_original_engine() {
    let Some(cases) = ply_testkit::ants_conformance_random_cases() else {
        return;
    };
    let Some(python) = python() else {
        eprintln!("skipping: no python3 to run conformance_bot.py");
        return;
    };
    assert_eq!(cases.len(), 4, "the shared set has 4 random-food games");
    for c in &cases {
        run_case(c, &python, &["food_rate", "food_turn", "food_start"]);
    }
}
