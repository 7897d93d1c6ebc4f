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
use ply_games::taunt::{CapturesFirst, FEATURES, Fitted, Material, Move, Taunt, features};
use ply_search::{AlphaBeta, Config};
use rand::Rng;

#[path = "common/linear.rs"]
mod linear;

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
    let (rows, targets) = linear::self_play(
        games,
        seed,
        |rng| rng.random_range(4..=8),
        |state: &Taunt| best(&player, state, depth),
        |p| {
            let x = features(p);
            x.into_iter()
                .enumerate()
                .filter(|&(_, v)| v != 0)
                .map(|(c, v)| (c as u32, v as f32))
        },
        |end| end.count(Seat::FIRST) as f32 - end.count(Seat::SECOND) as f32,
    );
    let printed = linear::Printed {
        example: "taunt_fit",
        command: format!(
            "taunt_fit fit --games {games} --depth {depth} --seed {seed} --lambda {lambda} --player {player_name}"
        ),
        unit: "pieces",
        doc: "Hundredths of a piece per unit of each feature ([`super::eval::features`]).",
        int: "i32",
        per_line: 13,
    };
    linear::fit_and_print(
        &rows,
        &targets,
        FEATURES,
        lambda,
        500,
        (games, depth),
        &printed,
    );
}

fn duel(args: &[String]) {
    let pairs = arg(args, "--pairs", 100.0) as u64;
    let depth = arg(args, "--depth", 5.0) as u32;
    let seed = arg(args, "--seed", 1.0) as u64;
    let a = Eval::named(text_arg(args, "--a", "fitted"));
    let b = Eval::named(text_arg(args, "--b", "classic"));
    let (won, drawn, lost) = linear::duel(pairs, seed, |mut state: Taunt, a_seat| {
        while state.outcome().is_none() {
            let eval = if state.to_move() == a_seat { &a } else { &b };
            state.play_unchecked(best(eval, &state, depth));
        }
        state.count(a_seat).cmp(&state.count(a_seat.next(2)))
    });
    println!(
        "A against B, depth {depth}, {pairs} pairs from seed {seed}: {won} won, {drawn} drawn, {lost} lost, score {:.3}",
        linear::score(won, drawn, lost)
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
