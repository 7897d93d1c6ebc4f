//! The phalanx against the hunter (or against the phalanx with its default choices), in-process, on the maps given, both seats (engine and
//! player seed 1 unless the environment says otherwise, deterministic): total points, games won, ants alive at turns 100 and 150,
//! ants born in turns 0-99, 100-199 and from 200 on; hills razed on each side (and the
//! median turn), games in which each side lost every hill.
//!
//! `phalanx_duel APPROACH BATTLES KILL LOSS BOLD_KILL BOLD_LOSS CLOSE_IN FIGHT_MASS HOLD_MASS PART BUDGET
//! EXPLORE DISTRIBUTE RAIDERS ECONOMY_BUDGET REGROUP_REACH KEEP_AWAY RALLY THREAT_STEPS THREAT_SCOPE THREAT_MARGIN ESCAPE DETACHED FIT PART_FOES SUPPORT_REACH GUARD_REACH HOME_WORTH EXPLORE_AVOID GROUP_SIZE GROUP_LINK GROUP_REACH GROUP_FIGHT RAID_SHARE RAID_REACH RAID_FIGHT RAID_MUSTER PRUNE_REPLIES CUT_FOES OPPONENT MAP...` (booleans
//! as 0 or 1: the fields of `PhalanxParams`; OPPONENT `hunter` or `phalanx`; the output
//! says "hunter" for either), e.g. `cargo run --release -p ply-ants --example phalanx_duel --
//! 1 1 512 768 300 180 1 5 5 5 6000000 1 0 1 3000000 0 0 0 0 2 1 0 0 0 5 0 0 0 0 0 2 12 0 0 20 0 0 0 0 phalanx maps/*.map`;
//! also the ants that died (before the game's last turn) in turns 100-149, 150-199, 200-299
//! and 300-499 on each side. The standoff switch of session 46 comes from the environment:
//! `STANDOFF_STEPS` and `STANDOFF_FOES` (unset: the defaults of `PhalanxParams`; session 46's
//! in-process runs were made when the default was off, so the opponent `phalanx` was too).
//! `ENGINE_SEED` (default 1) picks the engine seed, and with it the food regime (seed 1:
//! 6 food per 37 turns; seed 2: 11 per 20); `PLAYER_SEED` defaults to it. `STILL_FOES=1`
//! turns on session 47's `still_foes`; `APPROACH_AREA` sets session 47's xathis areas in
//! the approach (unset: the default, off). `EXACT_CUT=1` turns on session 48's `exact_cut`;
//! `PART_SHARE` and `CLOCK_GUARD` set session 48's per-part share of the budget and the
//! clock guard (unset: the defaults).
use ply_ants::bot::{AntsBot, HunterBot, PhalanxBot, PhalanxParams, play_in_process};
use ply_ants::{AntsGame, AntsMap, AntsMatch, Settings};
use std::sync::{Arc, Mutex};

/// The phalanx shared with the caller, to read its counts after the game.
struct Shared(Arc<Mutex<PhalanxBot>>);

impl AntsBot for Shared {
    fn answer(&mut self, message: &str) -> Vec<String> {
        self.0.lock().unwrap().answer(message)
    }
}

/// The environment variable `name` parsed, or `default` when it is not set.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let p = PhalanxParams {
        approach: args[1] == "1",
        battles: args[2] == "1",
        kill: args[3].parse().unwrap(),
        loss: args[4].parse().unwrap(),
        bold_kill: args[5].parse().unwrap(),
        bold_loss: args[6].parse().unwrap(),
        close_in: args[7] == "1",
        fight_mass: args[8].parse().unwrap(),
        hold_mass: args[9].parse().unwrap(),
        part: args[10].parse().unwrap(),
        budget: args[11].parse().unwrap(),
        explore: args[12] == "1",
        distribute: args[13] == "1",
        raiders: args[14] == "1",
        economy_budget: args[15].parse().unwrap(),
        regroup_reach: args[16].parse().unwrap(),
        keep_away: args[17] == "1",
        rally: args[18] == "1",
        threat_steps: args[19].parse().unwrap(),
        threat_scope: args[20].parse().unwrap(),
        threat_margin: args[21].parse().unwrap(),
        escape: args[22] == "1",
        detached: args[23] == "1",
        fit: args[24] == "1",
        part_foes: args[25].parse().unwrap(),
        support_reach: args[26].parse().unwrap(),
        guard_reach: args[27].parse().unwrap(),
        home_worth: args[28].parse().unwrap(),
        explore_avoid: args[29].parse().unwrap(),
        group_size: args[30].parse().unwrap(),
        group_link: args[31].parse().unwrap(),
        group_reach: args[32].parse().unwrap(),
        group_fight: args[33] == "1",
        raid_share: args[34].parse().unwrap(),
        raid_reach: args[35].parse().unwrap(),
        raid_fight: args[36] == "1",
        raid_muster: args[37].parse().unwrap(),
        prune_replies: args[38] == "1",
        cut_foes: args[39].parse().unwrap(),
        // session 46's switch from the environment (`STANDOFF_STEPS`, `STANDOFF_FOES`), so
        // the arguments stay as they were
        standoff_steps: env_or("STANDOFF_STEPS", PhalanxParams::default().standoff_steps),
        standoff_foes: env_or("STANDOFF_FOES", PhalanxParams::default().standoff_foes),
        // session 47's switch: the enemies left out of a part stand in its search
        still_foes: env_or("STILL_FOES", 0u8) == 1,
        exact_cut: env_or("EXACT_CUT", u8::from(PhalanxParams::default().exact_cut)) == 1,
        // session 47's switch from the environment too (`APPROACH_AREA`)
        approach_area: env_or("APPROACH_AREA", PhalanxParams::default().approach_area),
        // session 48's switches from the environment too (`PART_SHARE`, `CLOCK_GUARD` in ms)
        part_share: env_or("PART_SHARE", PhalanxParams::default().part_share),
        clock_guard: env_or("CLOCK_GUARD", PhalanxParams::default().clock_guard),
    };
    // the opponent: the hunter, or the phalanx with its default choices
    let phalanx_opponent = match args[40].as_str() {
        "hunter" => false,
        "phalanx" => true,
        other => panic!("opponent {other}: hunter or phalanx"),
    };
    let (mut us, mut them, mut wins, mut losses, mut games) = (0i64, 0i64, 0, 0, 0);
    let mut alive = [[0usize; 2]; 2];
    let (mut parts, mut cut) = (0, 0);
    let mut born = [[0usize; 2]; 3];
    // deaths per turn band (100-149, 150-199, 200-299, 300-499), ours and theirs
    const BANDS: [(u32, u32); 4] = [(100, 150), (150, 200), (200, 300), (300, 500)];
    let mut died = [[0usize; 2]; 4];
    let mut most = 0;
    // turns our hills and the opponent's fell; games each side ended with no hill
    let mut fell: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
    let mut homeless = [0usize; 2];
    for path in &args[41..] {
        let map = AntsMap::parse(&std::fs::read_to_string(path).unwrap()).unwrap();
        for seat in 0..2 {
            let settings = Settings {
                engine_seed: env_or("ENGINE_SEED", 1),
                player_seed: env_or("PLAYER_SEED", env_or("ENGINE_SEED", 1)),
                ..Settings::default()
            };
            let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
            let phalanx = Arc::new(Mutex::new(PhalanxBot::with_params(seat as u64, p)));
            let c: Box<dyn AntsBot> = Box::new(Shared(Arc::clone(&phalanx)));
            let h: Box<dyn AntsBot> = if phalanx_opponent {
                Box::new(PhalanxBot::new(1 - seat as u64))
            } else {
                Box::new(HunterBot::new(1 - seat as u64))
            };
            let mut bots = if seat == 0 { vec![c, h] } else { vec![h, c] };
            let mut at = [[0usize; 2]; 2];
            play_in_process(&mut m, &mut bots, |m, _| {
                for (k, turn) in [100, 150].into_iter().enumerate() {
                    if m.game().turn() == turn {
                        at[k] = [
                            m.game().player_ants(seat).len(),
                            m.game().player_ants(1 - seat).len(),
                        ];
                    }
                }
            });
            let (p, c) = phalanx.lock().unwrap().parts_searched();
            parts += p;
            cut += c;
            most = most.max(phalanx.lock().unwrap().most_economy_work());
            let last = m.game().turn();
            for a in m.game().all_ants() {
                if let Some(d) = a.die_turn.filter(|&d| d < last) {
                    let side = usize::from(usize::from(a.owner) != seat);
                    for (b, &(lo, hi)) in BANDS.iter().enumerate() {
                        if (lo..hi).contains(&d) {
                            died[b][side] += 1;
                        }
                    }
                }
                // the starting ants (turn 0) are not born of food
                if a.spawn_turn > 0 {
                    let side = usize::from(usize::from(a.owner) != seat);
                    born[(a.spawn_turn as usize / 100).min(2)][side] += 1;
                }
            }
            for side in 0..2 {
                let owner = if side == 0 { seat } else { 1 - seat };
                let hills: Vec<_> = m
                    .game()
                    .hills()
                    .iter()
                    .filter(|h| usize::from(h.owner) == owner)
                    .collect();
                let razed: Vec<u32> = hills.iter().filter_map(|h| h.end_turn).collect();
                homeless[side] += usize::from(razed.len() == hills.len());
                fell[side].extend(razed);
            }
            let s = m.game().scores();
            let name = std::path::Path::new(path)
                .file_stem()
                .unwrap()
                .to_string_lossy();
            println!(
                "{name} seat {seat}: phalanx {} - hunter {} ({} turns)",
                s[seat],
                s[1 - seat],
                m.game().turn()
            );
            us += s[seat];
            them += s[1 - seat];
            for k in 0..2 {
                alive[k][0] += at[k][0];
                alive[k][1] += at[k][1];
            }
            games += 1;
            wins += usize::from(s[seat] > s[1 - seat]);
            losses += usize::from(s[seat] < s[1 - seat]);
        }
    }
    println!(
        "phalanx {us} - hunter {them} points, {wins} won {losses} lost of {games}, ants@100 {}-{} @150 {}-{}, parts {parts} cut {cut}",
        alive[0][0], alive[0][1], alive[1][0], alive[1][1]
    );
    println!(
        "born 0-99 {}-{} 100-199 {}-{} 200+ {}-{}, most economy work in a turn {most}",
        born[0][0], born[0][1], born[1][0], born[1][1], born[2][0], born[2][1]
    );
    println!(
        "died 100-149 {}-{} 150-199 {}-{} 200-299 {}-{} 300-499 {}-{}",
        died[0][0],
        died[0][1],
        died[1][0],
        died[1][1],
        died[2][0],
        died[2][1],
        died[3][0],
        died[3][1]
    );
    let median = |v: &mut Vec<u32>| {
        v.sort_unstable();
        v.get(v.len() / 2).copied().unwrap_or(0)
    };
    println!(
        "hills razed: phalanx's {} (median turn {}) hunter's {} (median turn {}); games left with no hill: phalanx {} hunter {}",
        fell[0].len(),
        median(&mut fell[0]),
        fell[1].len(),
        median(&mut fell[1]),
        homeless[0],
        homeless[1]
    );
}
