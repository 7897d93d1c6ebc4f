//! Helpers shared by the Ants integration tests: reading the recorded cases of
//! `../shared/ants-conformance/cases` and `tests/data/ants/` (scenario map, command line,
//! each seat's logged orders).

#![allow(dead_code)]

use std::collections::BTreeMap;

use ply_ants::{FoodMode, Settings};

/// The settings of a case's `command.txt` (one `key value` per line).
pub fn settings_from_command(text: &str) -> Settings {
    let mut s = Settings {
        loadtime: 5000,
        turntime: 5000,
        ..Settings::default()
    };
    for line in text.lines() {
        let Some((k, v)) = line.trim().split_once(' ') else {
            continue;
        };
        let v = v.trim();
        match k {
            "turns" => s.turns = v.parse().unwrap(),
            "engine_seed" => s.engine_seed = v.parse().unwrap(),
            "player_seed" => s.player_seed = v.parse().unwrap(),
            "scenario" => s.scenario = v == "true",
            "turntime" => s.turntime = v.parse().unwrap(),
            "loadtime" => s.loadtime = v.parse().unwrap(),
            "food" => {
                s.food = match v {
                    "none" => FoodMode::None,
                    "random" => FoodMode::Random,
                    "sections" => FoodMode::Sections,
                    "symmetric" => FoodMode::Symmetric,
                    _ => panic!("unknown food mode {v:?}"),
                }
            }
            _ => {}
        }
    }
    s
}

/// The recorded `-O` log, split per turn, each line stripped of its ` # reason`.
pub fn answers_by_turn(log: &str) -> BTreeMap<u32, Vec<String>> {
    let mut out: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let mut turn = 0;
    for line in log.lines() {
        if let Some(t) = line.strip_prefix("# turn ") {
            turn = t.trim().parse().unwrap();
            out.entry(turn).or_default();
        } else {
            let order = line.split(" # ").next().unwrap().to_string();
            out.entry(turn).or_default().push(order);
        }
    }
    out
}
