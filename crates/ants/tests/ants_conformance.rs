//! Ants against the original engine: every case under `../shared/ants-conformance/cases`
//! (recorded with aichallenge's `playgame.py`) and ply's own cases under
//! `tests/data/ants/`, and the normal games with food on under `cases-random`, replayed without processes from each seat's recorded answers.
//! The text sent to every seat must equal `botN.input` byte for byte, the order log must
//! equal `botN.output`, and the result and replay must match `replay.json`.

mod common;

use std::fs;
use std::path::Path;

use common::{answers_by_turn, settings_from_command};
use ply_ants::{AntsGame, AntsMap, AntsMatch};
use serde_json::Value;

fn run_case(dir: &Path, extra: &[&str]) {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let map = AntsMap::parse(&fs::read_to_string(dir.join("scenario.map")).unwrap()).unwrap();
    let settings = settings_from_command(&fs::read_to_string(dir.join("command.txt")).unwrap());
    let n = map.players;
    let logs: Vec<String> = (0..n)
        .map(|b| fs::read_to_string(dir.join(format!("bot{b}.output"))).unwrap())
        .collect();
    let answers: Vec<_> = logs.iter().map(|l| answers_by_turn(l)).collect();
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut sent: Vec<String> = (0..n).map(|b| m.pending(b).to_string()).collect();
    let mut order_logs = vec![String::new(); n];
    while !m.is_over() {
        let t = m.turn();
        let a = (0..n)
            .map(|b| Ok(answers[b].get(&t).cloned().unwrap_or_default()))
            .collect();
        m.play_turn(a);
        for (b, s) in sent.iter_mut().enumerate() {
            s.push_str(m.pending(b));
            order_logs[b].push_str(m.output_log(b));
        }
    }
    for b in 0..n {
        let want = fs::read_to_string(dir.join(format!("bot{b}.input"))).unwrap();
        if sent[b] != want {
            let line = sent[b]
                .lines()
                .zip(want.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            panic!(
                "{name}: bot{b}.input differs from line {}:\n ply: {:?}\n orig: {:?}",
                line + 1,
                sent[b].lines().skip(line).take(4).collect::<Vec<_>>(),
                want.lines().skip(line).take(4).collect::<Vec<_>>()
            );
        }
        assert_eq!(order_logs[b], logs[b], "{name}: bot{b}.output");
    }
    let want: Value =
        serde_json::from_str(&fs::read_to_string(dir.join("replay.json")).unwrap()).unwrap();
    let names: Vec<String> = want["playernames"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|v| v.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    let got = m.result_json(&names).unwrap();
    for key in ["status", "playerturns", "score", "rank", "game_length"] {
        assert_eq!(got[key], want[key], "{name}: {key}");
    }
    ply_testkit::assert_ants_replays_agree(&got, &want, &name, extra);
}

#[test]
fn original_engine_cases() {
    let Some(cases) = ply_testkit::ants_conformance_cases() else {
        return;
    };
    for c in cases {
        run_case(&c, &[]);
    }
}

/// Normal games with food on (engine seed 1): the same game needs the same random stream,
/// drawn in the same order (food parameters, symmetry, starting and per-turn food, spawn
/// ties, the engine loop's shuffle of the bots).
#[test]
fn original_engine_random_food_cases() {
    let Some(cases) = ply_testkit::ants_conformance_random_cases() else {
        return;
    };
    for c in cases {
        run_case(&c, &["food_rate", "food_turn", "food_start"]);
    }
}

#[test]
fn own_cases() {
    let root = ply_testkit::workspace_root().join("tests/data/ants");
    let cases = ply_testkit::ants_cases_in(&root);
    assert!(!cases.is_empty(), "no cases under {}", root.display());
    for c in cases {
        run_case(&c, &[]);
    }
}
