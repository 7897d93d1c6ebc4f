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
use ply_ants::{AntsGame, AntsMap, AntsMatch, Playback, Settings};
use std::collections::BTreeMap;

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
    let pb = Playback::parse(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
    let steps: u32 = args[3].parse().unwrap();
    let foes: u8 = args[4].parse().unwrap();
    let seat = pb
        .names()
        .iter()
        .position(|n| n.starts_with("builtin"))
        .unwrap();
    // the orders of `owner` on turn `u` as recorded, sorted
    let recorded = |owner: usize, u: u32| -> Vec<String> {
        let mut v: Vec<String> = pb
            .orders_on(u, owner as u8)
            .iter()
            .map(|&((r, c), d)| format!("o {r} {c} {}", d.letter() as char))
            .collect();
        v.sort();
        v
    };
    let (engine_seed, player_seed) = pb.seeds();
    let settings = Settings {
        engine_seed: engine_seed.unwrap_or(1),
        player_seed: player_seed.unwrap_or(1),
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
