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
use ply_search::{AlphaBeta, Config};

#[path = "common/linear.rs"]
mod linear;

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
    let (rows, targets) = linear::self_play(
        games,
        seed,
        |_| 6,
        |state: &Draughts| {
            if with_fitted {
                best(Fitted, state, depth)
            } else {
                best(Material, state, depth)
            }
        },
        |p| features(p).collect::<Vec<_>>(),
        |end| {
            let men = |s: Seat| end.men(s).count_ones() as f32;
            men(Seat::FIRST) - men(Seat::SECOND)
        },
    );
    let printed = linear::Printed {
        example: "draughts_fit",
        command: format!(
            "draughts_fit fit --games {games} --depth {depth} --seed {seed} --lambda {lambda}"
        ),
        unit: "men",
        doc: "Hundredths of a man per feature ([`super::eval::features`]).",
        int: "i16",
        per_line: 8,
    };
    linear::fit_and_print(
        &rows,
        &targets,
        FEATURES,
        lambda,
        300,
        (games, depth),
        &printed,
    );
}

fn duel(args: &[String]) {
    let pairs = arg(args, "--pairs", 100.0) as u64;
    let depth = arg(args, "--depth", 6.0) as u32;
    let seed = arg(args, "--seed", 1.0) as u64;
    let weights = args
        .windows(2)
        .find(|w| w[0] == "--weights")
        .map(|w| Loaded::read(&w[1]));
    let (won, drawn, lost) = linear::duel(pairs, seed, |mut state: Draughts, fitted_seat| {
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
        mine.cmp(&state.men(fitted_seat.next(2)).count_ones())
    });
    println!(
        "fitted against material, depth {depth}, {pairs} pairs: {won} won, {drawn} drawn, {lost} lost, score {:.3}",
        linear::score(won, drawn, lost)
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
