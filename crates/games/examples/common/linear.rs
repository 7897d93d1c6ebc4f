//! What the fitting examples of the games with a linear evaluation (Draughts, Taunt) share:
//! the seeded self-play games whose positions are labelled by the final material, the
//! printed `fitted.rs`, and the duel's openings and tally. Included by `#[path]`.

use std::cmp::Ordering;

use ply_core::{Game, Seat};
use ply_games::reversi::fit::{SparseRows, ridge};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The random generator of game (or pair) `n` of a run seeded by `seed`.
fn rng(seed: u64, n: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n)
}

/// Plays `games` seeded self-play games: `opening(rng)` random plies to open, then one move
/// in ten at random and the others `choose`n; labels every position by the game's final lead
/// of the first seat (`first_lead` of the last position), for its side to move. Returns the
/// positions' feature rows (`row`) and labels.
pub fn self_play<G: Game + Copy, R: IntoIterator<Item = (u32, f32)>>(
    games: u64,
    seed: u64,
    opening: impl Fn(&mut ChaCha8Rng) -> u32,
    mut choose: impl FnMut(&G) -> G::Move,
    row: impl Fn(&G) -> R,
    first_lead: impl Fn(&G) -> f32,
) -> (SparseRows, Vec<f32>) {
    let mut rows = SparseRows::new();
    let mut targets = Vec::new();
    let mut moves = Vec::new();
    for g in 0..games {
        let mut rng = rng(seed, g);
        let mut state = G::start();
        let mut seen = Vec::new();
        let opening = opening(&mut rng);
        let mut plies = 0;
        while state.outcome().is_none() {
            seen.push(state);
            state.legal_moves(&mut moves);
            let mv = if plies < opening || rng.random_bool(0.1) {
                moves[rng.random_range(0..moves.len())]
            } else {
                choose(&state)
            };
            state.play_unchecked(mv);
            plies += 1;
        }
        let first = first_lead(&state);
        for p in seen {
            rows.push(row(&p));
            targets.push(if p.to_move() == Seat::FIRST {
                first
            } else {
                -first
            });
        }
    }
    (rows, targets)
}

/// What `fitted.rs` says of itself: the example and its command line, the positions' unit
/// (`men`, `pieces`), the weights' doc line and integer type, and weights a line.
pub struct Printed<'a> {
    pub example: &'a str,
    pub command: String,
    pub unit: &'a str,
    pub doc: &'a str,
    pub int: &'a str,
    pub per_line: usize,
}

/// Fits `columns` weights to the labelled rows by ridge regression (`lambda`, at most
/// `iterations` steps), reports the fit on stderr (`games` and `depth` of the self-play
/// named there) and prints `fitted.rs`.
pub fn fit_and_print(
    rows: &SparseRows,
    targets: &[f32],
    columns: usize,
    lambda: f64,
    iterations: usize,
    (games, depth): (u64, u32),
    printed: &Printed,
) {
    let (w, report) = ridge(rows, targets, columns, lambda, iterations);
    eprintln!(
        "{games} games, {} positions, depth {depth}, lambda {lambda}: rms {:.3} after {} steps",
        targets.len(),
        report.rms,
        report.iterations
    );
    print_weights(printed, targets.len(), report.rms, &w);
}

/// Prints `fitted.rs`: the weights `w` (in units of the label) as hundredths.
fn print_weights(p: &Printed, positions: usize, rms: f64, w: &[f32]) {
    println!(
        "//! The weights of [`super::eval::Fitted`], written by the `{}` example:",
        p.example
    );
    println!("//! `{}`", p.command);
    println!("//! ({positions} positions, rms {rms:.3} {}).", p.unit);
    println!();
    println!("/// {}", p.doc);
    println!("#[rustfmt::skip]");
    println!("pub const WEIGHTS: [{}; super::eval::FEATURES] = [", p.int);
    for chunk in w.chunks(p.per_line) {
        let line: Vec<String> = chunk
            .iter()
            .map(|x| format!("{}", (x * 100.0).round() as i32))
            .collect();
        println!("    {},", line.join(", "));
    }
    println!("];");
}

/// Plays `pairs` pairs of games from seeded 4-ply random openings, A first in one game of a
/// pair and second in the other; `play(opening, A's seat)` plays a game out and says how A
/// ended against the other side. Returns A's wins, draws and losses.
pub fn duel<G: Game + Copy>(
    pairs: u64,
    seed: u64,
    mut play: impl FnMut(G, Seat) -> Ordering,
) -> (u32, u32, u32) {
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    let mut moves = Vec::new();
    for p in 0..pairs {
        let mut rng = rng(seed, p);
        let mut opening = G::start();
        for _ in 0..4 {
            opening.legal_moves(&mut moves);
            opening.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        for a_seat in [Seat::FIRST, Seat::SECOND] {
            match play(opening, a_seat) {
                Ordering::Greater => won += 1,
                Ordering::Equal => drawn += 1,
                Ordering::Less => lost += 1,
            }
        }
    }
    (won, drawn, lost)
}

/// A's score from wins, draws and losses.
pub fn score(won: u32, drawn: u32, lost: u32) -> f64 {
    (f64::from(won) + 0.5 * f64::from(drawn)) / f64::from(won + drawn + lost)
}
