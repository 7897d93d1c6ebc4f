//! Playing strength of the HackerEarth bots (alpha-beta with each game's evaluator and
//! move ordering, as `ply bot` runs it) against the random and greedy baselines.
//!
//! Slow (minutes per game in release), so every test is ignored; run them with
//! `cargo test --release -p ply-games --test strength -- --ignored --nocapture` and copy
//! the table into docs/benchmarks.md. Each test asserts the bar: at least 99% of the
//! points against random and 95% against greedy.
//!
//! Games come in pairs from the same opening (`OPENING_PLIES` seeded random plies, so that
//! the deterministic players do not replay one game), once with the bot as player 1 and
//! once as player 2. A draw scores half a point.

use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::{Budget, Game, Outcome, Player, Seat};
use ply_games::draughts::Draughts;
use ply_games::reversi::{Othello, Reversi10};
use ply_games::taunt::Taunt;
use ply_games::{Heuristics, Searching};
use ply_search::{AlphaBeta, AlphaBetaPlayer, Config, GreedyPlayer, RandomPlayer};

const OPENING_PLIES: usize = 2;

/// Games per opponent (half with each colour); overridable with `PLY_STRENGTH_GAMES`.
fn games() -> usize {
    std::env::var("PLY_STRENGTH_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100)
}

/// Time per move of the bot; overridable with `PLY_STRENGTH_MS`.
fn per_move() -> Duration {
    Duration::from_millis(
        std::env::var("PLY_STRENGTH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100),
    )
}

/// The timed alpha-beta player of `G`, searching its searched state.
type Bot<G> = Searching<
    <G as Heuristics>::Searched,
    AlphaBetaPlayer<
        <G as Heuristics>::Searched,
        <G as Heuristics>::Eval,
        <G as Heuristics>::Ordering,
    >,
>;

fn bot<G: Heuristics>() -> Bot<G> {
    let search = AlphaBeta::with(
        G::Eval::default(),
        G::Ordering::default(),
        Config::default(),
    );
    Searching::new(AlphaBetaPlayer::new(search, None, Some(per_move())))
}

fn opening<G: Game>(seed: u64) -> G {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = G::start();
    let mut moves = Vec::new();
    for _ in 0..OPENING_PLIES {
        state.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        state.play_unchecked(moves[rng.random_range(0..moves.len())]);
    }
    state
}

/// Plays one game; returns the outcome.
fn play<G: Game>(start: &G, players: &mut [&mut dyn Player<G>; 2]) -> Outcome {
    let mut state = start.clone();
    let mut moves = Vec::new();
    for p in players.iter_mut() {
        p.new_game();
    }
    loop {
        if let Some(o) = state.outcome() {
            return o;
        }
        state.legal_moves(&mut moves);
        let mv = if moves.len() == 1 {
            moves[0]
        } else {
            players[state.to_move().index()]
                .choose(&state, Budget::UNLIMITED)
                .expect("in-process players never fault")
        };
        assert!(moves.contains(&mv), "illegal move {mv} in `{state}`");
        state.play_unchecked(mv);
    }
}

/// Plays `games()` games of the bot against `opponent`; returns the bot's score share and
/// prints a table row.
fn series<G: Heuristics>(name: &str, opponent: &mut dyn Player<G>) -> f64 {
    let mut strong = bot::<G>();
    let n = games();
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let start = std::time::Instant::now();
    for k in 0..n {
        let open = opening::<G>(k as u64 / 2);
        let bot_seat = if k % 2 == 0 {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        let outcome = if bot_seat == Seat::FIRST {
            play(&open, &mut [&mut strong, opponent])
        } else {
            play(&open, &mut [opponent, &mut strong])
        };
        match outcome.winner() {
            Some(s) if s == bot_seat => wins += 1,
            Some(_) => {
                losses += 1;
                eprintln!("{name}: lost game {k} as {bot_seat} from `{open}`");
            }
            None => draws += 1,
        }
    }
    let share = (wins as f64 + 0.5 * draws as f64) / n as f64;
    println!(
        "| {} | {name} | {n} | {wins} | {draws} | {losses} | {:.1}% | {:.0} s |",
        G::info().name,
        100.0 * share,
        start.elapsed().as_secs_f64()
    );
    share
}

fn check<G: Heuristics>() {
    let vs_random = series::<G>("random", &mut RandomPlayer::new(7));
    let vs_greedy = series::<G>("greedy", &mut GreedyPlayer::new(G::Eval::default(), 7));
    assert!(vs_random >= 0.99, "{vs_random} against random");
    assert!(vs_greedy >= 0.95, "{vs_greedy} against greedy");
}

#[test]
#[ignore = "minutes of play; run in release with --ignored --nocapture"]
fn othello_beats_random_and_greedy() {
    check::<Othello>();
}

#[test]
#[ignore = "minutes of play; run in release with --ignored --nocapture"]
fn reversi_beats_random_and_greedy() {
    check::<Reversi10>();
}

#[test]
#[ignore = "minutes of play; run in release with --ignored --nocapture"]
fn draughts_beats_random_and_greedy() {
    check::<Draughts>();
}

#[test]
#[ignore = "minutes of play; run in release with --ignored --nocapture"]
fn taunt_beats_random_and_greedy() {
    check::<Taunt>();
}
