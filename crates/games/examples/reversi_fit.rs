//! Fits the weights of the 10x10 Reversi pattern evaluation (`ply_games::reversi::pattern10`)
//! from ply's own self-play: the 10x10 sibling of `othello_fit`, whose header explains the
//! method. What differs is said here.
//!
//! ```text
//! reversi_fit generate --games N --seed S [--depth D] [--exact E] [--eval classic|pattern]
//!                      [--random-plies LO-HI] --out FILE
//! reversi_fit fit --data FILE[,FILE...] [--lambda L[,L...]] [--iterations I] [--overlap K]
//!                 [--holdout F | --test FILE[,FILE...]] --out WEIGHTS
//! reversi_fit duel --a WEIGHTS --b WEIGHTS [--pairs P] [--depth D] [--exact E] [--seed S]
//!                  [--opening-plies K]
//! ```
//!
//! `generate` plays N games, game `g` seeded from (S, g) alone: a random opening of LO to
//! HI plies (default 2-16), then the generic alpha-beta at fixed depth D (default 3) with
//! the `--eval` evaluator (the `eval=` of a bot: `classic` is `Positional`, `pattern` the
//! compiled-in fitted weights) until E empties are left (default 12), then a search to the
//! end of the game (win, draw or loss, not the disc count: there is no exact 10x10 solver).
//! Every position from the end of the opening on is written with the final disc difference
//! of the game for its side to move (empties to the winner). A record is 33 bytes: own
//! discs, other discs (u128 LE, the side to move first) and the label (i8).
//!
//! `fit` is `othello_fit fit` on these records, with the 10x10 patterns and phases (12 of 8
//! discs), writing the 10x10 weights file.
//!
//! `duel` plays two evaluations against each other: weights files, `shipped` (the compiled-in
//! weights) or `classic` (`Positional`), at a fixed depth D (default 4, iterative deepening,
//! no ProbCut) from P pairs of seeded openings of K random plies (default 100 and 8), colours
//! swapped within a pair; from E empties (default 12) both sides play the same search to the
//! end, so that the result is the midgame's. Deterministic, one thread. Prints A's wins,
//! draws, losses, score with a 95% interval from the pairs, and mean disc difference.
//!
//! The data stays out of git (write it under the target directory). The committed weights
//! and the exact commands that made them are in `crates/games/data/reversi-patterns.md`.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use ply_core::{Budget, Evaluator, Game, Score};
use ply_games::reversi::pattern10::{self, LAYOUT, PHASES, PatternWeights};
use ply_games::reversi::{CornersFirst, IndexedReversi10, Positional, Reversi10};
use ply_games::{EvalChoice, Heuristics};
use ply_search::{AlphaBeta, Config, Deepening};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "common/duel.rs"]
mod duels;
#[path = "common/fit.rs"]
mod fitting;
#[path = "common/options.rs"]
mod options;
use options::Options;

const RECORD: usize = 33;
const CELLS: i32 = 100;

type Searched = <Reversi10 as Heuristics>::Searched;
type Search =
    AlphaBeta<Searched, <Reversi10 as Heuristics>::Eval, <Reversi10 as Heuristics>::Ordering>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("generate") => Options::parse(&args[1..]).and_then(|o| generate(&o)),
        Some("fit") => Options::parse(&args[1..]).and_then(|o| fit(&o)),
        Some("duel") => Options::parse(&args[1..]).and_then(|o| duel(&o)),
        _ => Err(
            "usage: reversi_fit generate|fit|duel --option value ... (see the file's header)"
                .into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reversi_fit: {e}");
            ExitCode::FAILURE
        }
    }
}

fn eval_choice(o: &Options) -> Result<EvalChoice, String> {
    match o.get("eval").unwrap_or("classic") {
        "classic" => Ok(EvalChoice::Classic),
        "pattern" => Ok(EvalChoice::Best),
        e => Err(format!("--eval: classic or pattern, not {e:?}")),
    }
}

/// A search of the built-in kind at one fixed depth, deterministic (one thread).
fn fixed_search(choice: EvalChoice) -> Search {
    let config = Config {
        tt_bytes: 4 << 20,
        deepening: Deepening::Fixed,
        ..Config::default()
    };
    AlphaBeta::with(
        Reversi10::evaluator(choice),
        <Reversi10 as Heuristics>::Ordering::default(),
        config,
    )
}

fn generate(o: &Options) -> Result<(), String> {
    let games: u64 = o.num("games", 1000)?;
    let seed: u64 = o.num("seed", 1)?;
    let depth: u32 = o.num("depth", 3)?;
    let exact: u32 = o.num("exact", 12)?;
    let out = o.get("out").ok_or("--out FILE is required")?;
    let random_plies = match o.get("random-plies") {
        None => (2, 16),
        Some(r) => {
            let (a, b) = r.split_once('-').ok_or("--random-plies LO-HI")?;
            (
                a.parse().map_err(|_| "--random-plies LO-HI")?,
                b.parse().map_err(|_| "--random-plies LO-HI")?,
            )
        }
    };
    let mut search = fixed_search(eval_choice(o)?);
    let file = std::fs::File::create(out).map_err(|e| format!("creating {out}: {e}"))?;
    let mut w = BufWriter::new(file);
    let start = Instant::now();
    let (mut positions, mut end_nodes, mut end_secs) = (0usize, 0u64, 0f64);
    for g in 0..games {
        let mut rng = ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let mut s = Reversi10::start();
        let plies = rng.random_range(random_plies.0..=random_plies.1);
        duels::random_plies(&mut s, plies, &mut rng);
        search.clear();
        let mut seen = Vec::new();
        while s.outcome().is_none() {
            seen.push(s);
            let ending = empties(&s) <= exact;
            let t = Instant::now();
            let budget = if ending {
                Budget::UNLIMITED
            } else {
                Budget::depth(depth)
            };
            let report = search.search(&Searched::from(s), budget);
            if ending {
                end_nodes += report.nodes;
                end_secs += t.elapsed().as_secs_f64();
            }
            s.play_unchecked(report.best.expect("an unfinished game has a move"));
        }
        let result = duels::final_score(&s);
        for p in &seen {
            let v = if p.to_move() == s.to_move() {
                result
            } else {
                -result
            };
            let (own, opp) = p.sides();
            w.write_all(&own.to_le_bytes())
                .and_then(|()| w.write_all(&opp.to_le_bytes()))
                .and_then(|()| w.write_all(&[v as i8 as u8]))
                .map_err(|e| format!("writing {out}: {e}"))?;
        }
        positions += seen.len();
        if (g + 1) % 100 == 0 {
            eprintln!(
                "{} games, {positions} positions, {:.0} s; endings {end_nodes} nodes in {end_secs:.1} s",
                g + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    w.flush().map_err(|e| format!("writing {out}: {e}"))?;
    eprintln!(
        "{games} games, {positions} positions ({} bytes) in {:.0} s -> {out}",
        positions * RECORD,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn empties(s: &Reversi10) -> u32 {
    let (own, opp) = s.sides();
    CELLS as u32 - (own | opp).count_ones()
}

fn fit(o: &Options) -> Result<(), String> {
    let out = o.get("out").ok_or("--out WEIGHTS is required")?;
    let board = fitting::Board {
        record: RECORD,
        parse: |r| {
            let own = u128::from_le_bytes(r[0..16].try_into().expect("16 bytes"));
            let opp = u128::from_le_bytes(r[16..32].try_into().expect("16 bytes"));
            (own, opp)
        },
        discs: |&(own, opp)| (own | opp).count_ones(),
        cells: CELLS as u32,
        phases: PHASES,
        discs_per_phase: pattern10::DISCS_PER_PHASE,
        per_phase: LAYOUT.params_per_phase,
        features: |&(own, opp)| {
            let (pats, scal) = pattern10::features(own, opp);
            fitting::feature_row(pats, scal, pattern10::scalar_param)
        },
    };
    let params = fitting::fit(o, &board)?;
    let file = pattern10::write_params(&params);
    std::fs::write(out, &file).map_err(|e| format!("writing {out}: {e}"))?;
    eprintln!(
        "{} bytes -> {out} ({} instances)",
        file.len(),
        pattern10::INSTANCES
    );
    Ok(())
}

/// A side of a duel: `Positional`, or pattern weights read from a file.
#[derive(Clone)]
enum DuelEval {
    Classic,
    Patterns(std::sync::Arc<PatternWeights>),
}

impl DuelEval {
    fn load(name: &str) -> Result<DuelEval, String> {
        let bytes = match name {
            "classic" => return Ok(DuelEval::Classic),
            "shipped" => include_bytes!("../data/reversi-patterns.bin").to_vec(),
            path => std::fs::read(path).map_err(|e| format!("reading {path}: {e}"))?,
        };
        let w = PatternWeights::read(&bytes).map_err(|e| format!("{name}: {e}"))?;
        Ok(DuelEval::Patterns(std::sync::Arc::new(w)))
    }
}

impl Evaluator<IndexedReversi10> for DuelEval {
    fn evaluate(&self, state: &IndexedReversi10) -> Score {
        match self {
            DuelEval::Classic => Positional.evaluate(state),
            DuelEval::Patterns(w) => {
                let (own, opp) = state.sides();
                Score(w.evaluate_indexed(own, opp, state.indices()))
            }
        }
    }
}

fn duel(o: &Options) -> Result<(), String> {
    let a = DuelEval::load(o.get("a").ok_or("--a WEIGHTS is required")?)?;
    let b = DuelEval::load(o.get("b").ok_or("--b WEIGHTS is required")?)?;
    let pairs: u64 = o.num("pairs", 100)?;
    let depth: u32 = o.num("depth", 4)?;
    let exact: u32 = o.num("exact", 12)?;
    let seed: u64 = o.num("seed", 1)?;
    let opening: u32 = o.num("opening-plies", 8)?;
    let config = Config {
        tt_bytes: 4 << 20,
        deepening: Deepening::Iterative,
        ..Config::default()
    };
    let mut searches = [
        AlphaBeta::with(a, CornersFirst, config),
        AlphaBeta::with(b, CornersFirst, config),
    ];
    let mut ending = fixed_search(EvalChoice::Classic);
    let start = Instant::now();
    let tally = duels::play_pairs(pairs, seed, opening, |open: Reversi10, a_seat| {
        for s in &mut searches {
            s.clear();
        }
        ending.clear();
        let mut state = open;
        while state.outcome().is_none() {
            let searched = IndexedReversi10::from(state);
            let report = if empties(&state) <= exact {
                ending.search(&searched, Budget::UNLIMITED)
            } else {
                let side = usize::from(state.to_move() != a_seat);
                searches[side].search(&searched, Budget::depth(depth))
            };
            state.play_unchecked(report.best.expect("an unfinished game has a move"));
        }
        let d = duels::final_score(&state);
        if state.to_move() == a_seat { d } else { -d }
    });
    println!(
        "{}; depth {depth}, to the end from {exact}, {:.0} s",
        tally.summary(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
