//! Ants engine speed: a 1000-turn 4-player game on a 60x90 generated maze map.
//!
//! `engine_only` replays answers recorded from built-in bots (bot time excluded, as in the
//! original engine's 44-49 s figure); `with_bots` plays the whole game with the bots
//! in-process. Run with `cargo bench -p ply-ants --bench ants`.
//!
//! The random bots' game lasts the 1000 turns; the hunters' game ends earlier, "rank
//! stabilized" once hills fall (778 turns since the hunter learned to raze every hill it
//! finds), so its benchmark names carry the game's length.

use criterion::{Criterion, criterion_group, criterion_main};
use ply_ants::bot::{BuiltinBot, play_in_process};
use ply_ants::mapgen::{MapGenParams, generate};
use ply_ants::{AntsGame, AntsMap, AntsMatch, Settings};

fn settings() -> Settings {
    Settings {
        engine_seed: 1,
        player_seed: 7,
        ..Settings::default()
    }
}

fn record(map: &AntsMap, bot: BuiltinBot) -> Vec<Vec<Vec<String>>> {
    let mut m = AntsMatch::new(AntsGame::new(map, settings()).unwrap());
    let mut bots: Vec<_> = (0..map.players as u64).map(|i| bot.create(i)).collect();
    let mut turns = Vec::new();
    play_in_process(&mut m, &mut bots, |_, a| turns.push(a.to_vec()));
    if bot == BuiltinBot::Random {
        assert_eq!(
            m.result().unwrap().game_length,
            1000,
            "the random bots' game must last 1000 turns"
        );
    }
    turns
}

fn replay(map: &AntsMap, turns: &[Vec<Vec<String>>]) -> usize {
    let mut m = AntsMatch::new(AntsGame::new(map, settings()).unwrap());
    let mut bytes = 0;
    for a in turns {
        bytes += (0..map.players).map(|b| m.pending(b).len()).sum::<usize>();
        m.play_turn(a.iter().cloned().map(Ok).collect());
    }
    bytes + (0..map.players).map(|b| m.pending(b).len()).sum::<usize>()
}

fn bench(c: &mut Criterion) {
    let map = generate(&MapGenParams::default(), 1).unwrap();
    let mut g = c.benchmark_group("ants_1000_turns_4p_maze_60x90");
    g.sample_size(10);
    let mut hunter_turns = 0;
    for bot in [BuiltinBot::Random, BuiltinBot::Hunter] {
        let turns = record(&map, bot);
        let name = if bot == BuiltinBot::Random {
            format!("engine_only/{bot}")
        } else {
            hunter_turns = turns.len() - 1;
            format!("engine_only/{bot}_{hunter_turns}_turns")
        };
        g.bench_function(name, |b| b.iter(|| replay(&map, &turns)));
    }
    g.bench_function(format!("with_bots/hunter_{hunter_turns}_turns"), |b| {
        b.iter(|| {
            let mut m = AntsMatch::new(AntsGame::new(&map, settings()).unwrap());
            let mut bots: Vec<_> = (0..4).map(|i| BuiltinBot::Hunter.create(i)).collect();
            play_in_process(&mut m, &mut bots, |_, _| {});
            m.result()
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
