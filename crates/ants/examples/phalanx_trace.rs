//! What chose each order of the phalanx in a recorded game against another bot: replays
//! the game in-process from its replay (the other side's orders as recorded, the
//! phalanx answering anew with tracing on, engine and player seed 1, 1000 turns) and
//! prints, for every turn and own ant, `TURN ROW COL MOVER` (the ant's square before its
//! move on that turn). Stops with a message if the phalanx's orders differ from the
//! recorded ones (a different build or settings).
//!
//! With `parts`, also a line per battle part the search saw: `P TURN STRENGTH FIXED OURS
//! FOES LEFT_OUT CUT` (strength 2 bold, 1 strong, 0 weak; each list `ROW:COL,...` or `-`;
//! CUT 1 where the search ran out of its budget).
//!
//! `phalanx_trace MAP REPLAY [escape] [detached] [fit] [prune] [support=REACH] [parts]` (the replay's seat named
//! `builtin:phalanx` is replayed, with the switches named turned on)
use ply_ants::bot::{AntsBot, PhalanxBot, PhalanxParams};
use ply_ants::{AntsGame, AntsMap, AntsMatch, Settings};
use std::collections::BTreeSet;

/// A recorded ant: spawn turn, owner, its squares after each of its moves, its orders.
type Recorded = (u32, usize, Vec<(i64, i64)>, Vec<char>);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let map = AntsMap::parse(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
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
        let spawn = a[2].as_u64().unwrap() as u32;
        let owner = a[4].as_u64().unwrap() as usize;
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
        ants.push((spawn, owner, path, orders));
    }
    // the orders of `owner` on turn `u` as recorded
    let recorded = |owner: usize, u: u32| -> BTreeSet<String> {
        ants.iter()
            .filter(|a| a.1 == owner && a.0 < u && ((u - a.0 - 1) as usize) < a.3.len())
            .filter_map(|a| {
                let k = (u - a.0 - 1) as usize;
                let c = a.3[k];
                let (r, c0) = a.2[k];
                "nesw".contains(c).then(|| format!("o {r} {c0} {c}"))
            })
            .collect()
    };
    let settings = Settings {
        engine_seed: 1,
        player_seed: 1,
        turns: 1000,
        turntime: 1500,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let on = |name: &str| args[3..].iter().any(|a| a == name);
    let params = PhalanxParams {
        escape: on("escape"),
        detached: on("detached"),
        fit: on("fit"),
        prune_replies: on("prune"),
        support_reach: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("support="))
            .map_or(0, |r| r.parse().unwrap()),
        ..PhalanxParams::default()
    };
    let mut bot = PhalanxBot::with_params(seat as u64, params).tracing();
    while !m.is_over() {
        let u = m.turn();
        let mut answers = Vec::new();
        for s in 0..2 {
            let a = if s == seat {
                if m.expects_answer(s) {
                    let o = bot.answer(m.pending(s));
                    if u > 0 {
                        for &((r, c), mover) in bot.movers() {
                            println!("{u} {r} {c} {mover:?}");
                        }
                        if on("parts") {
                            let list = |ls: &[(usize, usize)]| {
                                if ls.is_empty() {
                                    return "-".to_string();
                                }
                                let v: Vec<String> =
                                    ls.iter().map(|(r, c)| format!("{r}:{c}")).collect();
                                v.join(",")
                            };
                            for p in bot.parts_seen() {
                                println!(
                                    "P {u} {} {} {} {} {} {}",
                                    p.strength,
                                    p.fixed,
                                    list(&p.ours),
                                    list(&p.foes),
                                    list(&p.left_out),
                                    u8::from(p.cut)
                                );
                            }
                        }
                    }
                    let mine: BTreeSet<String> = o.iter().cloned().collect();
                    if m.turn() > 0 && mine != recorded(s, u) {
                        eprintln!("turn {u}: orders differ from the replay's");
                        return;
                    }
                    o
                } else {
                    Vec::new()
                }
            } else if m.expects_answer(s) {
                if m.turn() == 0 {
                    Vec::new()
                } else {
                    recorded(s, u).into_iter().collect()
                }
            } else {
                Vec::new()
            };
            answers.push(Ok(a));
        }
        m.play_turn(answers);
    }
}
