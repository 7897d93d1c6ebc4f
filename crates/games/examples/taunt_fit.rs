//! Fits Taunt's linear evaluation ([`ply_games::taunt::Fitted`]) and duels evaluations:
//!
//! ```text
//! taunt_fit fit [--games N] [--depth D] [--seed S] [--lambda L] [--player EVAL]  > fitted.rs
//! taunt_fit duel --a EVAL --b EVAL [--pairs N] [--depth D] [--seed S]
//! ```
//!
//! An EVAL is `classic` ([`Material`]), `fitted` (the compiled [`Fitted`]) or the path of a
//! `fitted.rs` file that this example printed (its weights, read at run time).
//!
//! `fit` plays seeded self-play games with `--player` (default `classic`) at a fixed depth
//! (4 to 8 random plies to open, then one move in ten at random, for variety), labels every
//! position with the game's final piece difference for its side to move, fits the weights
//! by ridge regression and prints `fitted.rs`. `duel` plays pairs of games from seeded
//! 4-ply openings, colours swapped, A against B at the same fixed depth, and prints A's
//! wins, draws and losses.

use ply_core::{Budget, Evaluator, Game, Score, Seat};
use ply_games::reversi::fit::{SparseRows, ridge};
use ply_games::taunt::{CapturesFirst, FEATURES, Fitted, Material, Move, Taunt, features};
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

fn text_arg<'a>(args: &'a [String], key: &str, default: &'a str) -> &'a str {
    args.iter()
        .position(|a| a == key)
        .and_then(|i| args.get(i + 1))
        .map_or(default, String::as_str)
}

/// An evaluation named on the command line.
#[derive(Clone)]
enum Eval {
    Classic,
    Fitted,
    Loaded(Vec<i32>),
}

impl Eval {
    fn named(name: &str) -> Eval {
        match name {
            "classic" => Eval::Classic,
            "fitted" => Eval::Fitted,
            path => {
                let text = std::fs::read_to_string(path).expect("the weights file");
                let body = &text[text.find("= [").expect("the weights array") + 3..];
                let body = &body[..body.find(']').expect("the array's end")];
                let w: Vec<i32> = body
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|t| !t.is_empty())
                    .map(|t| t.parse().expect("a weight"))
                    .collect();
                assert_eq!(w.len(), FEATURES, "one weight per feature");
                Eval::Loaded(w)
            }
        }
    }
}

impl Evaluator<Taunt> for Eval {
    fn evaluate(&self, state: &Taunt) -> Score {
        match self {
            Eval::Classic => Material.evaluate(state),
            Eval::Fitted => Fitted.evaluate(state),
            Eval::Loaded(w) => Score(features(state).iter().zip(w).map(|(x, w)| x * w).sum()),
        }
    }
}

fn best(eval: &Eval, state: &Taunt, depth: u32) -> Move {
    let mut search = AlphaBeta::with(eval.clone(), CapturesFirst, Config::default());
    search
        .search(state, Budget::depth(depth))
        .best
        .expect("a move")
}

fn fit(args: &[String]) {
    let games = arg(args, "--games", 1000.0) as u64;
    let depth = arg(args, "--depth", 4.0) as u32;
    let seed = arg(args, "--seed", 34.0) as u64;
    let lambda = arg(args, "--lambda", 10.0);
    let player_name = text_arg(args, "--player", "classic");
    let player = Eval::named(player_name);
    let mut rows = SparseRows::new();
    let mut targets = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let mut state = Taunt::start();
        let mut seen = Vec::new();
        let opening = rng.random_range(4..=8);
        let mut plies = 0;
        while state.outcome().is_none() {
            seen.push(state);
            state.legal_moves(&mut moves);
            let mv = if plies < opening || rng.random_bool(0.1) {
                moves[rng.random_range(0..moves.len())]
            } else {
                best(&player, &state, depth)
            };
            state.play_unchecked(mv);
            plies += 1;
        }
        let first = state.count(Seat::FIRST) as f32 - state.count(Seat::SECOND) as f32;
        for p in seen {
            let x = features(&p);
            rows.push(
                x.iter()
                    .enumerate()
                    .filter(|&(_, &v)| v != 0)
                    .map(|(c, &v)| (c as u32, v as f32)),
            );
            targets.push(if p.to_move() == Seat::FIRST {
                first
            } else {
                -first
            });
        }
    }
    let (w, report) = ridge(&rows, &targets, FEATURES, lambda, 500);
    eprintln!(
        "{games} games, {} positions, depth {depth}, lambda {lambda}: rms {:.3} after {} steps",
        targets.len(),
        report.rms,
        report.iterations
    );
    println!("//! The weights of [`super::eval::Fitted`], written by the `taunt_fit` example:");
    println!(
        "//! `taunt_fit fit --games {games} --depth {depth} --seed {seed} --lambda {lambda} --player {player_name}`"
    );
    println!(
        "//! ({} positions, rms {:.3} pieces).",
        targets.len(),
        report.rms
    );
    println!();
    println!("/// Hundredths of a piece per unit of each feature ([`super::eval::features`]).");
    println!("#[rustfmt::skip]");
    println!("pub const WEIGHTS: [i32; super::eval::FEATURES] = [");
    for chunk in w.chunks(13) {
        let line: Vec<String> = chunk
            .iter()
            .map(|x| format!("{}", (x * 100.0).round() as i32))
            .collect();
        println!("    {},", line.join(", "));
    }
    println!("];");
}

fn duel(args: &[String]) {
    let pairs = arg(args, "--pairs", 100.0) as u64;
    let depth = arg(args, "--depth", 5.0) as u32;
    let seed = arg(args, "--seed", 1.0) as u64;
    let a = Eval::named(text_arg(args, "--a", "fitted"));
    let b = Eval::named(text_arg(args, "--b", "classic"));
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    let mut moves = Vec::new();
    for p in 0..pairs {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ p);
        let mut opening = Taunt::start();
        for _ in 0..4 {
            opening.legal_moves(&mut moves);
            opening.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        for a_seat in [Seat::FIRST, Seat::SECOND] {
            let mut state = opening;
            while state.outcome().is_none() {
                let eval = if state.to_move() == a_seat { &a } else { &b };
                state.play_unchecked(best(eval, &state, depth));
            }
            match state.count(a_seat).cmp(&state.count(a_seat.next(2))) {
                std::cmp::Ordering::Greater => won += 1,
                std::cmp::Ordering::Equal => drawn += 1,
                std::cmp::Ordering::Less => lost += 1,
            }
        }
    }
    let n = f64::from(won + drawn + lost);
    let score = (f64::from(won) + 0.5 * f64::from(drawn)) / n;
    println!(
        "A against B, depth {depth}, {pairs} pairs from seed {seed}: {won} won, {drawn} drawn, {lost} lost, score {score:.3}"
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("fit") => fit(&args),
        Some("duel") => duel(&args),
        _ => eprintln!("usage: taunt_fit fit|duel [options]"),
    }
}
