//! Fits Draughts' linear evaluation ([`ply_games::draughts::Fitted`]) and duels it:
//!
//! ```text
//! draughts_fit fit [--games N] [--depth D] [--seed S] [--lambda L] [--player fitted]  > fitted.rs
//! draughts_fit duel [--pairs N] [--depth D] [--seed S] [--weights FILE]
//! ```
//!
//! `--player fitted` plays the fitting games with the compiled [`Fitted`] instead of
//! [`Material`] (a second round); `--weights FILE` duels the weights of a `fitted.rs` file
//! against the compiled [`Fitted`] instead of [`Fitted`] against [`Material`].
//!
//! `fit` plays seeded self-play games with [`Material`] at a fixed depth (6 random plies to
//! open, then one move in ten at random, for variety), labels every position with the
//! game's final man difference for its side to move, fits the weights by ridge regression
//! and prints `fitted.rs`. `duel` plays pairs of games from seeded 4-ply openings, colours
//! swapped, [`Fitted`] against [`Material`] at the same fixed depth, and prints the score.

use ply_core::{Budget, Evaluator, Game, Score, Seat};
use ply_games::draughts::{CapturesFirst, Draughts, FEATURES, Fitted, Material, features};
use ply_games::reversi::fit::{SparseRows, ridge};
use ply_search::{AlphaBeta, Config};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn arg(args: &[String], key: &str, default: f64) -> f64 {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Weights read from a `fitted.rs` file, to compare with the compiled ones.
#[derive(Clone)]
struct Loaded(Vec<i32>);

impl Loaded {
    fn read(path: &str) -> Loaded {
        let text = std::fs::read_to_string(path).expect("the weights file");
        let body = &text[text.find("= [").expect("the weights array") + 3..];
        let w: Vec<i32> = body
            .split(|c: char| c == ',' || c.is_whitespace() || c == ']' || c == ';')
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().expect("a weight"))
            .collect();
        assert_eq!(w.len(), FEATURES, "one weight per feature");
        Loaded(w)
    }
}

impl Evaluator<Draughts> for Loaded {
    fn evaluate(&self, state: &Draughts) -> Score {
        Score(features(state).map(|(c, _)| self.0[c as usize]).sum())
    }
}

fn best<E: Evaluator<Draughts>>(
    eval: E,
    state: &Draughts,
    depth: u32,
) -> ply_games::draughts::Move {
    let mut search = AlphaBeta::with(eval, CapturesFirst, Config::default());
    let budget = Budget {
        max_depth: Some(depth),
        ..Budget::UNLIMITED
    };
    search.search(state, budget).best.expect("a move")
}

fn fit(args: &[String]) {
    let games = arg(args, "--games", 3000.0) as u64;
    let depth = arg(args, "--depth", 4.0) as u32;
    let seed = arg(args, "--seed", 33.0) as u64;
    let lambda = arg(args, "--lambda", 10.0);
    let with_fitted = args
        .windows(2)
        .any(|w| w[0] == "--player" && w[1] == "fitted");
    let mut rows = SparseRows::new();
    let mut targets = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let mut state = Draughts::start();
        let mut seen = Vec::new();
        let mut plies = 0;
        while state.outcome().is_none() {
            seen.push(state);
            state.legal_moves(&mut moves);
            let mv = if plies < 6 || rng.random_bool(0.1) {
                moves[rng.random_range(0..moves.len())]
            } else if with_fitted {
                best(Fitted, &state, depth)
            } else {
                best(Material, &state, depth)
            };
            state.play_unchecked(mv);
            plies += 1;
        }
        let men = |s: Seat| state.men(s).count_ones() as f32;
        let first = men(Seat::FIRST) - men(Seat::SECOND);
        for p in seen {
            rows.push(features(&p));
            targets.push(if p.to_move() == Seat::FIRST {
                first
            } else {
                -first
            });
        }
    }
    let (w, report) = ridge(&rows, &targets, FEATURES, lambda, 300);
    eprintln!(
        "{games} games, {} positions, depth {depth}, lambda {lambda}: rms {:.3} after {} steps",
        targets.len(),
        report.rms,
        report.iterations
    );
    println!("//! The weights of [`super::eval::Fitted`], written by the `draughts_fit` example:");
    println!(
        "//! `draughts_fit fit --games {games} --depth {depth} --seed {seed} --lambda {lambda}`"
    );
    println!(
        "//! ({} positions, rms {:.3} men).",
        targets.len(),
        report.rms
    );
    println!();
    println!("/// Hundredths of a man per feature ([`super::eval::features`]).");
    println!("#[rustfmt::skip]");
    println!("pub const WEIGHTS: [i16; super::eval::FEATURES] = [");
    for chunk in w.chunks(8) {
        let line: Vec<String> = chunk
            .iter()
            .map(|x| format!("{}", (x * 100.0).round() as i16))
            .collect();
        println!("    {},", line.join(", "));
    }
    println!("];");
}

fn duel(args: &[String]) {
    let pairs = arg(args, "--pairs", 100.0) as u64;
    let depth = arg(args, "--depth", 6.0) as u32;
    let seed = arg(args, "--seed", 1.0) as u64;
    let weights = args
        .windows(2)
        .find(|w| w[0] == "--weights")
        .map(|w| Loaded::read(&w[1]));
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    let mut moves = Vec::new();
    for p in 0..pairs {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ p);
        let mut opening = Draughts::start();
        for _ in 0..4 {
            opening.legal_moves(&mut moves);
            opening.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        for fitted_seat in [Seat::FIRST, Seat::SECOND] {
            let mut state = opening;
            while state.outcome().is_none() {
                let mv = match (&weights, state.to_move() == fitted_seat) {
                    (Some(w), true) => best(w.clone(), &state, depth),
                    (Some(_), false) => best(Fitted, &state, depth),
                    (None, true) => best(Fitted, &state, depth),
                    (None, false) => best(Material, &state, depth),
                };
                state.play_unchecked(mv);
            }
            let mine = state.men(fitted_seat).count_ones();
            let theirs = state.men(fitted_seat.next(2)).count_ones();
            match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => won += 1,
                std::cmp::Ordering::Equal => drawn += 1,
                std::cmp::Ordering::Less => lost += 1,
            }
        }
    }
    let n = f64::from(won + drawn + lost);
    let score = (f64::from(won) + 0.5 * f64::from(drawn)) / n;
    println!(
        "fitted against material, depth {depth}, {pairs} pairs: {won} won, {drawn} drawn, {lost} lost, score {:.3}",
        score
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("fit") => fit(&args),
        Some("duel") => duel(&args),
        _ => eprintln!("usage: draughts_fit fit|duel [options]"),
    }
}
