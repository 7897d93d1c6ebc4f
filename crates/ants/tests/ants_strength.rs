//! Strength of the built-in Ants bot (`hunter`) against `random`, `hold` and itself, in
//! seeded 2-player games on generated maze maps (`ply ants mapgen`) with symmetric food.
//!
//! A game is won by the higher final score (hills: 1 each at the start, +2 per hill razed,
//! -1 per hill lost); every pairing is played in both seats on each map. The quick test
//! (a few seconds in the dev profile) asserts that hunter beats random in every game; the
//! table for docs/benchmarks.md comes from the ignored test, which also plays the hunter
//! against its first version (`baseline/hunter_v1.rs`, frozen):
//! `cargo test --release -p ply-ants --test ants_strength -- --ignored --nocapture`
//! (`PLY_ANTS_GAMES` maps per pairing, default 20).

#[path = "baseline/hunter_v1.rs"]
mod hunter_v1;

use std::time::{Duration, Instant};

use ply_ants::bot::{AntsBot, BuiltinBot, play_in_process};
use ply_ants::mapgen::{MapGenParams, generate};
use ply_ants::{AntsGame, AntsMatch, Settings};

/// A contender: a built-in bot, or the frozen first version of the hunter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bot {
    Builtin(BuiltinBot),
    HunterV1,
}

impl Bot {
    fn create(self, salt: u64) -> Box<dyn AntsBot> {
        match self {
            Bot::Builtin(b) => b.create(salt),
            Bot::HunterV1 => Box::new(hunter_v1::HunterV1::new(salt)),
        }
    }
}

impl std::fmt::Display for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Bot::Builtin(b) => write!(f, "{b}"),
            Bot::HunterV1 => f.write_str("hunter v1 (2b2d011)"),
        }
    }
}

/// One game's result, from seat 0's point of view.
struct Game {
    score: [i64; 2],
    ants: [usize; 2],
    turns: u32,
    /// Time spent in each seat's bot.
    bot_time: [Duration; 2],
}

fn play(map_seed: u64, rows: usize, cols: usize, turns: u32, bots: [Bot; 2]) -> Game {
    let p = MapGenParams {
        players: 2,
        rows,
        cols,
        ..MapGenParams::default()
    };
    let map = generate(&p, map_seed).unwrap();
    let settings = Settings {
        turns,
        engine_seed: map_seed as i64,
        player_seed: 7,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut timed: Vec<Box<dyn AntsBot>> = vec![
        Box::new(Timed::new(bots[0].create(0))),
        Box::new(Timed::new(bots[1].create(1))),
    ];
    play_in_process(&mut m, &mut timed, |_, _| {});
    let r = m.result().unwrap();
    let g = m.game();
    Game {
        score: [r.score[0], r.score[1]],
        ants: [g.player_ants(0).len(), g.player_ants(1).len()],
        turns: r.game_length,
        bot_time: [TIMES.with(|t| t.borrow()[0]), TIMES.with(|t| t.borrow()[1])],
    }
}

thread_local! {
    static TIMES: std::cell::RefCell<Vec<Duration>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Wraps a bot and adds the time it takes to the thread's per-seat total.
struct Timed {
    bot: Box<dyn AntsBot>,
    seat: usize,
}

impl Timed {
    fn new(bot: Box<dyn AntsBot>) -> Timed {
        let seat = TIMES.with(|t| {
            let mut t = t.borrow_mut();
            if t.len() >= 2 {
                t.clear();
            }
            t.push(Duration::ZERO);
            t.len() - 1
        });
        Timed { bot, seat }
    }
}

impl AntsBot for Timed {
    fn answer(&mut self, message: &str) -> Vec<String> {
        let start = Instant::now();
        let out = self.bot.answer(message);
        let dt = start.elapsed();
        TIMES.with(|t| t.borrow_mut()[self.seat] += dt);
        out
    }
}

/// Plays `maps` maps in both seats; returns (wins, draws, losses, hunter's mean share of
/// the ants at the end, mean bot time per turn for `bot`).
fn pairing(
    bot: Bot,
    other: Bot,
    maps: u64,
    size: (usize, usize),
    turns: u32,
) -> (u32, u32, u32, f64, Duration) {
    let (mut w, mut d, mut l) = (0, 0, 0);
    let mut share = 0.0;
    let mut time = Duration::ZERO;
    let mut turns_played = 0u32;
    for seed in 0..maps {
        for seat in 0..2 {
            let bots = if seat == 0 {
                [bot, other]
            } else {
                [other, bot]
            };
            let g = play(seed + 1, size.0, size.1, turns, bots);
            let (me, them) = (seat, 1 - seat);
            match g.score[me].cmp(&g.score[them]) {
                std::cmp::Ordering::Greater => w += 1,
                std::cmp::Ordering::Equal => d += 1,
                std::cmp::Ordering::Less => l += 1,
            }
            let total = (g.ants[0] + g.ants[1]).max(1);
            share += g.ants[me] as f64 / total as f64;
            time += g.bot_time[me];
            turns_played += g.turns.max(1);
        }
    }
    (
        w,
        d,
        l,
        share / (2 * maps) as f64,
        time / turns_played.max(1),
    )
}

const HUNTER: Bot = Bot::Builtin(BuiltinBot::Hunter);

#[test]
fn hunter_beats_random_in_every_game() {
    let (w, d, l, share, _) = pairing(HUNTER, Bot::Builtin(BuiltinBot::Random), 2, (24, 48), 250);
    assert_eq!(
        (w, d, l),
        (4, 0, 0),
        "hunter vs random: {w} won, {d} drawn, {l} lost"
    );
    assert!(
        share > 0.8,
        "hunter holds {share:.2} of the ants at the end"
    );
}

#[test]
#[ignore = "minutes in the dev profile; run in release for docs/benchmarks.md"]
fn strength_table() {
    let maps: u64 = std::env::var("PLY_ANTS_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    println!(
        "| opponent | map | turns | games | won | drawn | lost | ant share | hunter ms/turn |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    let (random, hold) = (
        Bot::Builtin(BuiltinBot::Random),
        Bot::Builtin(BuiltinBot::Hold),
    );
    for (other, size, turns) in [
        (random, (48, 48), 500),
        (hold, (48, 48), 500),
        (HUNTER, (48, 48), 500),
        (Bot::HunterV1, (48, 48), 500),
        (random, (60, 90), 1000),
        (Bot::HunterV1, (60, 90), 1000),
    ] {
        let (w, d, l, share, t) = pairing(HUNTER, other, maps, size, turns);
        println!(
            "| {other} | {}x{} | {turns} | {} | {w} | {d} | {l} | {share:.2} | {:.3} |",
            size.0,
            size.1,
            2 * maps,
            t.as_secs_f64() * 1000.0
        );
    }
}
