//! What chose each order of the phalanx in a recorded game against another bot: replays
//! the game in-process from its replay (the other side's orders as recorded, the
//! phalanx answering anew with tracing on, the replay's engine and player seeds, 1000 turns) and
//! prints, for every turn and own ant, `TURN ROW COL MOVER` (the ant's square before its
//! move on that turn). Stops with a message if the phalanx's orders differ from the
//! recorded ones (a different build or settings).
//!
//! With `parts`, also a line per battle part the search saw: `P TURN STRENGTH FIXED OURS
//! FOES LEFT_OUT CUT` (strength 2 bold, 1 strong, 0 weak; each list `ROW:COL,...` or `-`;
//! CUT 1 where the search ran out of its budget).
//!
//! With `times`, also a line per turn `T TURN MICROS PARTS CUT` (the phalanx's answer's wall
//! time, the battle parts searched and those cut short on that turn).
//!
//! With `shadow`, the recorded orders of both sides are played whatever the phalanx answers
//! (so a build or settings other than the replay's can be traced on the same positions),
//! and each turn where they differ gets a line `D TURN DIFFERENT RECORDED` (orders not in
//! the replay's, orders in the replay).
//!
//! `phalanx_trace MAP REPLAY [escape] [detached] [fit] [prune] [noprune] [still] [cut_foes=N] [budget=N] [part=N] [share=N] [guard=MS] [support=REACH] [area=SIZE] [standoff=STEPS] [exact] [parts] [times] [shadow]` (the replay's seat named
//! `builtin:phalanx` is replayed, with the switches named turned on)
use ply_ants::bot::{AntsBot, PhalanxBot, PhalanxParams};
use ply_ants::{AntsGame, AntsMap, AntsMatch, Playback, Settings};
use std::collections::BTreeSet;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let map = AntsMap::parse(&std::fs::read_to_string(&args[1]).unwrap()).unwrap();
    let pb = Playback::parse(&std::fs::read_to_string(&args[2]).unwrap()).unwrap();
    let seat = pb
        .names()
        .iter()
        .position(|n| n.starts_with("builtin"))
        .unwrap();
    // the orders of `owner` on turn `u` as recorded
    let recorded = |owner: usize, u: u32| -> BTreeSet<String> {
        pb.orders_on(u, owner as u8)
            .iter()
            .map(|&((r, c), d)| format!("o {r} {c} {}", d.letter() as char))
            .collect()
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
    let on = |name: &str| args[3..].iter().any(|a| a == name);
    let params = PhalanxParams {
        escape: on("escape"),
        detached: on("detached"),
        fit: on("fit"),
        // the defaults are main's (pruned since session 47): `noprune` for older builds
        prune_replies: (on("prune") || PhalanxParams::default().prune_replies) && !on("noprune"),
        still_foes: on("still"),
        exact_cut: on("exact") || PhalanxParams::default().exact_cut,
        cut_foes: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("cut_foes="))
            .map_or(PhalanxParams::default().cut_foes, |r| r.parse().unwrap()),
        budget: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("budget="))
            .map_or(PhalanxParams::default().budget, |r| r.parse().unwrap()),
        part: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("part="))
            .map_or(PhalanxParams::default().part, |r| r.parse().unwrap()),
        part_share: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("share="))
            .map_or(PhalanxParams::default().part_share, |r| r.parse().unwrap()),
        clock_guard: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("guard="))
            .map_or(PhalanxParams::default().clock_guard, |r| r.parse().unwrap()),
        support_reach: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("support="))
            .map_or(0, |r| r.parse().unwrap()),
        standoff_steps: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("standoff="))
            .map_or(PhalanxParams::default().standoff_steps, |r| {
                r.parse().unwrap()
            }),
        approach_area: args[3..]
            .iter()
            .find_map(|a| a.strip_prefix("area="))
            .map_or(PhalanxParams::default().approach_area, |r| {
                r.parse().unwrap()
            }),
        ..PhalanxParams::default()
    };
    let mut bot = PhalanxBot::with_params(seat as u64, params).tracing();
    while !m.is_over() {
        let u = m.turn();
        let mut answers = Vec::new();
        for s in 0..2 {
            let a = if s == seat {
                if m.expects_answer(s) {
                    let before = bot.parts_searched();
                    let clock = std::time::Instant::now();
                    let o = bot.answer(m.pending(s));
                    let micros = clock.elapsed().as_micros();
                    if u > 0 && on("times") {
                        let after = bot.parts_searched();
                        println!(
                            "T {u} {micros} {} {}",
                            after.0 - before.0,
                            after.1 - before.1
                        );
                    }
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
                        if !on("shadow") {
                            eprintln!("turn {u}: orders differ from the replay's");
                            return;
                        }
                        let rec = recorded(s, u);
                        println!("D {u} {} {}", mine.difference(&rec).count(), rec.len());
                    }
                    if on("shadow") && m.turn() > 0 {
                        recorded(s, u).into_iter().collect()
                    } else {
                        o
                    }
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
