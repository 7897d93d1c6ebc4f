//! Where session 46's standoff switch would have moved otherwise in a recorded game: replays
//! the game in-process from its replay as `phalanx_trace` does (the other side's orders as
//! recorded, the phalanx with its default choices answering anew; it stops if those differ
//! from the recorded ones), and beside it a shadow phalanx with
//! [`PhalanxParams::standoff_steps`] and [`PhalanxParams::standoff_foes`] as given
//! answering the same messages. Prints `TURN ROW COL OFF ON` for each own ant whose order
//! the shadow gives otherwise (`-` for holding; the ant's square before its move).
//!
//! `standoff_shadow MAP REPLAY STEPS FOES`
use ply_ants::bot::{AntsBot, PhalanxBot, PhalanxParams};
use ply_ants::{AntsGame, AntsMap, AntsMatch, Settings};
use std::collections::BTreeMap;

/// A recorded ant: spawn turn, owner, its squares before each of its moves, its orders.
type Recorded = (u32, usize, Vec<(i64, i64)>, Vec<char>);

/// The orders of a turn by the ant's square: `ROW COL` to the direction.
fn by_square(orders: &[String]) -> BTreeMap<String, String> {
    orders
        .iter()
        .filter_map(|o| {
            let f: Vec<&str> = o.split_whitespace().collect();
            (f.len() == 4).then(|| (format!("{} {}", f[1], f[2]), f[3].to_string()))
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let map = AntsMap::parse(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
    let steps: u32 = args[3].parse().unwrap();
    let foes: u8 = args[4].parse().unwrap();
    let names = doc["playernames"].as_array().unwrap();
    let seat = names
        .iter()
        .position(|n| n.as_str().unwrap().starts_with("builtin"))
        .unwrap();
    let r = &doc["replaydata"];
    let (rows, cols) = (
        r["map"]["rows"].as_u64().unwrap() as i64,
        r["map"]["cols"].as_u64().unwrap() as i64,
    );
    let mut ants: Vec<Recorded> = Vec::new();
    for a in r["ants"].as_array().unwrap() {
        let a = a.as_array().unwrap();
        let (mut row, mut col) = (a[0].as_i64().unwrap(), a[1].as_i64().unwrap());
        let orders: Vec<char> = a
            .get(5)
            .and_then(|o| o.as_str())
            .unwrap_or("")
            .chars()
            .collect();
        let mut path = vec![(row, col)];
        for &c in &orders {
            let (dr, dc) = match c {
                'n' => (-1, 0),
                's' => (1, 0),
                'e' => (0, 1),
                'w' => (0, -1),
                _ => (0, 0),
            };
            row = (row + dr).rem_euclid(rows);
            col = (col + dc).rem_euclid(cols);
            path.push((row, col));
        }
        let spawn = a[2].as_u64().unwrap() as u32;
        ants.push((spawn, a[4].as_u64().unwrap() as usize, path, orders));
    }
    let recorded = |owner: usize, u: u32| -> Vec<String> {
        let mut v: Vec<String> = ants
            .iter()
            .filter(|a| a.1 == owner && a.0 < u && ((u - a.0 - 1) as usize) < a.3.len())
            .filter_map(|a| {
                let k = (u - a.0 - 1) as usize;
                let (r, c0) = a.2[k];
                "nesw"
                    .contains(a.3[k])
                    .then(|| format!("o {r} {c0} {}", a.3[k]))
            })
            .collect();
        v.sort();
        v
    };
    let settings = Settings {
        engine_seed: 1,
        player_seed: 1,
        turns: 1000,
        turntime: 1500,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut bot = PhalanxBot::new(seat as u64);
    let shadow_params = PhalanxParams {
        standoff_steps: steps,
        standoff_foes: foes,
        ..PhalanxParams::default()
    };
    let mut shadow = PhalanxBot::with_params(seat as u64, shadow_params);
    while !m.is_over() {
        let u = m.turn();
        let mut answers = Vec::new();
        for s in 0..2 {
            let a = if !m.expects_answer(s) {
                Vec::new()
            } else if s == seat {
                let mut o = bot.answer(m.pending(s));
                let other = shadow.answer(m.pending(s));
                o.sort();
                if u > 0 {
                    if o != recorded(s, u) {
                        eprintln!("turn {u}: orders differ from the replay's");
                        return;
                    }
                    let (off, on) = (by_square(&o), by_square(&other));
                    let keys: std::collections::BTreeSet<&String> =
                        off.keys().chain(on.keys()).collect();
                    for k in keys {
                        let (a, b) = (off.get(k), on.get(k));
                        if a != b {
                            let show =
                                |x: Option<&String>| x.map_or("-".to_string(), |s| s.clone());
                            println!("{u} {k} {} {}", show(a), show(b));
                        }
                    }
                }
                o
            } else if u == 0 {
                Vec::new()
            } else {
                recorded(s, u)
            };
            answers.push(Ok(a));
        }
        m.play_turn(answers);
    }
}
