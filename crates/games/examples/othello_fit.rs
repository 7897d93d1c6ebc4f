//! Fits the weights of the 8x8 Othello pattern evaluation (`ply_games::reversi::pattern`)
//! from ply's own self-play. Two steps, each a subcommand:
//!
//! ```text
//! othello_fit generate --games N --seed S [--threads T] [--depth D] [--exact E]
//!                      [--eval classic|pattern] [--random-plies LO-HI] --out FILE
//!                      [--blended-out FILE --blend W]
//! othello_fit fit --data FILE[,FILE...] [--lambda L[,L...]] [--iterations I] [--overlap K]
//!                 [--holdout F | --test FILE[,FILE...]] --out WEIGHTS
//! othello_fit duel --a WEIGHTS --b WEIGHTS [--pairs P] [--depth D] [--exact E] [--seed S]
//!                  [--opening-plies K] [--probcut on|off]
//! othello_fit speed [--depth D] [--positions N] [--seed S] [--eval classic|pattern|both]
//!                   [--empties LO-HI] [--roots R] [--probcut on|off]
//!                   [--deepening fixed|iterative] [--tt buckets|direct] [--per-root on]
//! ```
//!
//! `generate` plays N games, game `g` seeded from (S, g) alone (so the file does not depend
//! on T): a random opening of LO to HI plies (default 2-16), then alpha-beta at fixed depth D
//! (default 3) with the `--eval` evaluator until E empties are left (default 14), then
//! perfect play by the exact endgame solver. Every position is written with its label, the
//! final disc difference for its side to move (empties to the winner): exact for positions
//! with at most E empties, and for earlier ones the exact value of the game's first
//! position with E empties (that is: the result of this self-play game from there, played
//! perfectly from E empties on). A record is 17 bytes: own discs, other discs (u64 LE, the
//! side to move first) and the label (i8). With `--blended-out`, a second file holds the same
//! positions in the same order, the label of each position the search chose a move in
//! replaced by `(1 - W) * outcome + W * the search's score` (in discs, rounded; W in 0..=1):
//! a label in the spirit of TD-leaf, less noisy than the outcome of a whole game still to be
//! played, and less tied to the evaluation being fitted than the search score alone.
//!
//! `fit` reads the records, fits each phase by ridge regression (`reversi::fit::ridge`) on
//! the positions of that phase and of the K discs either side of it (default 2, smoothing
//! between phases), keeps the last fraction F of the records (default 0.05) out of the fit
//! to report the error on unseen games, and writes the weights file (1/100 disc units).
//! With `--test`, every record of `--data` is fitted and the error is reported on the test
//! files instead: the same held-out positions for fits on different data, so that their
//! errors can be compared (a file listed twice in `--data` counts twice, which weights it).
//! `--lambda` is one value for every phase or one per phase (12, the opening's first).
//!
//! `duel` plays two weights files (or `shipped`, the compiled-in weights) against each other
//! at a fixed depth D (default 6, ProbCut on by default as in the bot) from P pairs of
//! seeded openings of K random plies (default 100 and 8), colours swapped within a pair, the
//! exact solver playing both sides from E empties (default 16) so that the result is the
//! midgame's. Deterministic (one thread, fixed depth): it compares evaluations, not time
//! use, in a few minutes where a timed match needs hours. Prints A's wins, draws, losses,
//! score with a 95% interval from the pairs, and mean disc difference.
//!
//! `speed` times both evaluators (or the one `--eval` names): evaluations per second over N
//! positions of random games (default 2000), and a fixed-depth alpha-beta search (default
//! depth 8, one thread, the built-in's table) from the start and from the first R (default
//! 20) of those positions with LO to HI empties (default 40-60), in nodes per second.
//! `--probcut on --deepening iterative` searches as `ply bot othello` does (ProbCut,
//! iterative deepening up to the depth), still deterministic: the node counts are the same
//! on every run, so two builds can be compared on them. `--tt direct` searches with the
//! direct-mapped table of sessions 1-38 instead of the buckets; `--per-root on` prints each
//! root's move, score and nodes. Figures go in docs/benchmarks.md.
//!
//! The data stays out of git: write it under target/ or /tmp. The committed weights and the
//! exact commands that made them are in `crates/games/data/othello-patterns.md`.

use std::io::{BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use ply_core::{Budget, Evaluator, Game, ProbCut, Score};
use ply_games::reversi::pattern::{
    self, DISCS_PER_PHASE, INSTANCES, LAYOUT, PHASES, PatternWeights, UNITS_PER_DISC,
};
use ply_games::reversi::{
    CornersFirst, EndgameSolver, IndexedOthello, Othello, OthelloEval, Place, SolveMode, empties,
};
use ply_search::{AlphaBeta, Config, Deepening, TtLayout};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const RECORD: usize = 17;

#[path = "common/duel.rs"]
mod duels;
#[path = "common/fit.rs"]
mod fitting;
#[path = "common/options.rs"]
mod options;
use options::Options;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("generate") => Options::parse(&args[1..]).and_then(|o| generate(&o)),
        Some("fit") => Options::parse(&args[1..]).and_then(|o| fit(&o)),
        Some("speed") => Options::parse(&args[1..]).and_then(|o| speed(&o)),
        Some("duel") => Options::parse(&args[1..]).and_then(|o| duel(&o)),
        _ => {
            Err("usage: othello_fit generate|fit --option value ... (see the file's header)".into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello_fit: {e}");
            ExitCode::FAILURE
        }
    }
}

struct Generate {
    seed: u64,
    depth: u32,
    exact: u32,
    eval: OthelloEval,
    random_plies: (u32, u32),
    /// The search score's share in the blended labels, when they are written.
    blend: Option<f64>,
}

/// One game's records: outcome labels, and blended ones when asked for.
struct Records {
    outcome: Vec<u8>,
    blended: Vec<u8>,
}

fn generate(o: &Options) -> Result<(), String> {
    let games: u64 = o.num("games", 1000)?;
    let threads: u64 = o.num("threads", 1)?;
    let out = o.get("out").ok_or("--out FILE is required")?;
    let eval = match o.get("eval").unwrap_or("classic") {
        "classic" => OthelloEval::Classic,
        "pattern" => OthelloEval::Pattern,
        e => return Err(format!("--eval: classic or pattern, not {e:?}")),
    };
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
    let blended_out = o.get("blended-out");
    let blend = match (blended_out, o.get("blend")) {
        (None, None) => None,
        (Some(_), Some(w)) => match w.parse::<f64>() {
            Ok(w) if (0.0..=1.0).contains(&w) => Some(w),
            _ => return Err(format!("--blend: a share from 0 to 1, not {w:?}")),
        },
        _ => return Err("--blended-out FILE and --blend W go together".into()),
    };
    let g = Generate {
        seed: o.num("seed", 1)?,
        depth: o.num("depth", 3)?,
        exact: o.num("exact", 14)?,
        eval,
        random_plies,
        blend,
    };
    let start = Instant::now();
    let per_thread: Vec<Vec<(u64, Records)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|t| {
                let g = &g;
                s.spawn(move || {
                    let mut solver = EndgameSolver::new();
                    (t..games)
                        .step_by(threads.max(1) as usize)
                        .map(|i| (i, play(g, i, &mut solver)))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a worker panicked"))
            .collect()
    });
    let mut all: Vec<(u64, Records)> = per_thread.into_iter().flatten().collect();
    all.sort_by_key(|(i, _)| *i);
    let positions = all
        .iter()
        .map(|(_, r)| r.outcome.len() / RECORD)
        .sum::<usize>();
    write_records(out, all.iter().map(|(_, r)| &r.outcome))?;
    if let Some(path) = blended_out {
        write_records(path, all.iter().map(|(_, r)| &r.blended))?;
    }
    eprintln!(
        "{games} games, {positions} positions in {:.1} s -> {out}",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Writes the games' records to `path`, in order.
fn write_records<'a>(path: &str, games: impl Iterator<Item = &'a Vec<u8>>) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("creating {path}: {e}"))?;
    let mut w = BufWriter::new(file);
    for bytes in games {
        w.write_all(bytes)
            .map_err(|e| format!("writing {path}: {e}"))?;
    }
    w.flush().map_err(|e| format!("writing {path}: {e}"))
}

/// One self-play game's labelled positions, as records.
fn play(g: &Generate, index: u64, solver: &mut EndgameSolver) -> Records {
    let mut rng = ChaCha8Rng::seed_from_u64(g.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index);
    let mut search = AlphaBeta::with(
        g.eval,
        CornersFirst,
        Config {
            tt_bytes: 1 << 20,
            deepening: Deepening::Fixed,
            ..Config::default()
        },
    );
    let mut state = Othello::start();
    let mut moves: Vec<Place> = Vec::new();
    let randoms = rng.random_range(g.random_plies.0..=g.random_plies.1);
    // Positions before the exact part, labelled at its start.
    // With the score of the search that chose the move, for the side to move (1/100 discs).
    let mut early: Vec<(Othello, Option<i32>)> = Vec::new();
    let mut labelled: Vec<(Othello, i32)> = Vec::new();
    let mut ply = 0;
    loop {
        if state.outcome().is_some() {
            break;
        }
        if empties(&state) <= g.exact {
            let s = solver
                .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
                .expect("an unlimited solve of an unfinished game answers");
            labelled.push((state, s.score));
            state.play_unchecked(s.best);
            continue;
        }
        state.legal_moves(&mut moves);
        let mv = if ply < randoms {
            early.push((state, None));
            *moves.choose(&mut rng).expect("the game is not over")
        } else {
            let report = search.search(&IndexedOthello::from(state), Budget::depth(g.depth));
            early.push((state, Some(report.score.0)));
            report
                .best
                .expect("a search of an unfinished game has a move")
        };
        state.play_unchecked(mv);
        ply += 1;
    }
    // The value at the end of the early part, for its side to move.
    let (anchor, value) = match labelled.first() {
        Some(&(s, v)) => (s, v),
        None => (state, duels::final_score(&state)),
    };
    let mut out = Records {
        outcome: Vec::with_capacity((early.len() + labelled.len()) * RECORD),
        blended: Vec::new(),
    };
    let record = |out: &mut Vec<u8>, s: &Othello, v: i32| {
        let (own, opp) = s.sides();
        out.extend_from_slice(&own.to_le_bytes());
        out.extend_from_slice(&opp.to_le_bytes());
        out.push(v as i8 as u8);
    };
    for (s, searched) in &early {
        let v = if s.to_move() == anchor.to_move() {
            value
        } else {
            -value
        };
        record(&mut out.outcome, s, v);
        if let Some(w) = g.blend {
            let blended = searched.map_or(v, |score| {
                // A proven win or loss scores far beyond any disc count: clamp to the board.
                let discs = (f64::from(score) / f64::from(UNITS_PER_DISC)).clamp(-64.0, 64.0);
                ((1.0 - w) * f64::from(v) + w * discs).round() as i32
            });
            record(&mut out.blended, s, blended);
        }
    }
    for (s, v) in &labelled {
        record(&mut out.outcome, s, *v);
        if g.blend.is_some() {
            record(&mut out.blended, s, *v);
        }
    }
    out
}

fn fit(o: &Options) -> Result<(), String> {
    let out = o.get("out").ok_or("--out WEIGHTS is required")?;
    let board = fitting::Board {
        record: RECORD,
        parse: |r| {
            let own = u64::from_le_bytes(r[0..8].try_into().expect("8 bytes"));
            let opp = u64::from_le_bytes(r[8..16].try_into().expect("8 bytes"));
            (own, opp)
        },
        discs: |&(own, opp)| (own | opp).count_ones(),
        cells: 64,
        phases: PHASES,
        discs_per_phase: DISCS_PER_PHASE,
        per_phase: LAYOUT.params_per_phase,
        features: |&(own, opp)| {
            let (pats, scal) = pattern::features(own, opp);
            fitting::feature_row(pats, scal, pattern::scalar_param)
        },
    };
    let params = fitting::fit(o, &board)?;
    let file = pattern::write_params(&params);
    std::fs::write(out, &file).map_err(|e| format!("writing {out}: {e}"))?;
    eprintln!("{} bytes -> {out} ({INSTANCES} instances)", file.len());
    Ok(())
}

fn speed(o: &Options) -> Result<(), String> {
    let depth: u32 = o.num("depth", 8)?;
    let n: usize = o.num("positions", 2000)?;
    let mut rng = ChaCha8Rng::seed_from_u64(o.num("seed", 1)?);
    let mut positions = Vec::new();
    let mut moves: Vec<Place> = Vec::new();
    while positions.len() < n {
        let mut s = Othello::start();
        while s.outcome().is_none() && positions.len() < n {
            positions.push(s);
            s.legal_moves(&mut moves);
            s.play_unchecked(*moves.choose(&mut rng).expect("the game is not over"));
        }
    }
    let evals = match o.get("eval").unwrap_or("both") {
        "both" => vec![OthelloEval::Classic, OthelloEval::Pattern],
        "classic" => vec![OthelloEval::Classic],
        "pattern" => vec![OthelloEval::Pattern],
        e => return Err(format!("--eval: classic, pattern or both, not {e:?}")),
    };
    let (lo, hi) = match o.get("empties") {
        None => (40, 60),
        Some(r) => {
            let (a, b) = r.split_once('-').ok_or("--empties LO-HI")?;
            let num = |x: &str| x.parse::<u32>().map_err(|_| "--empties LO-HI");
            (num(a)?, num(b)?)
        }
    };
    let probcut = match o.get("probcut").unwrap_or("off") {
        "on" => true,
        "off" => false,
        p => return Err(format!("--probcut: on or off, not {p:?}")),
    };
    let deepening = match o.get("deepening").unwrap_or("fixed") {
        "fixed" => Deepening::Fixed,
        "iterative" => Deepening::Iterative,
        d => return Err(format!("--deepening: fixed or iterative, not {d:?}")),
    };
    let tt_layout = match o.get("tt").unwrap_or("buckets") {
        "buckets" => TtLayout::Buckets,
        "direct" => TtLayout::Direct,
        t => return Err(format!("--tt: buckets or direct, not {t:?}")),
    };
    let per_root = o.get("per-root").is_some_and(|v| v == "on");
    // As the bot does: evaluated and searched on the state that keeps the pattern indices.
    let mut roots = vec![IndexedOthello::from(Othello::start())];
    roots.extend(
        positions
            .iter()
            .filter(|s| (lo..=hi).contains(&empties(s)))
            .take(o.num("roots", 20)?)
            .map(|&s| IndexedOthello::from(s)),
    );
    let indexed: Vec<IndexedOthello> = positions.iter().map(|&s| s.into()).collect();
    let t = Instant::now();
    let mut sum = 0u64;
    for _ in 0..50 {
        for s in &positions {
            let (own, opp) = s.sides();
            sum += pattern::indices(std::hint::black_box(own), opp)
                .iter()
                .map(|&i| u64::from(i))
                .sum::<u64>();
        }
    }
    println!(
        "pattern indices alone: {:.0} ns a position (checksum {sum})",
        t.elapsed().as_secs_f64() / (50 * positions.len()) as f64 * 1e9
    );
    for eval in evals {
        use ply_core::Evaluator;
        let _ = eval.evaluate(&indexed[0]);
        let t = Instant::now();
        let mut sum = 0i64;
        let rounds = 50;
        for _ in 0..rounds {
            for s in &indexed {
                sum += i64::from(eval.evaluate(std::hint::black_box(s)).0);
            }
        }
        let per_eval = t.elapsed().as_secs_f64() / (rounds * positions.len()) as f64;
        let mut nodes = 0;
        // The moves and scores found, so that two builds can be checked to search alike.
        let mut found = 0u64;
        let t = Instant::now();
        for root in &roots {
            let mut search = AlphaBeta::with(
                eval,
                CornersFirst,
                Config {
                    deepening,
                    probcut,
                    tt_layout,
                    ..Config::default()
                },
            );
            let report = search.search(root, Budget::depth(depth));
            nodes += report.nodes;
            let mv = report
                .best
                .and_then(|m| m.cell())
                .map_or(64, |(r, c)| r * 8 + c);
            if per_root {
                println!(
                    "root {:016x}: move {mv}, score {}, {} nodes",
                    root.key(),
                    report.score.0,
                    report.nodes
                );
            }
            found = found.wrapping_mul(1_000_003)
                ^ (mv as u64) << 32
                ^ u64::from(report.score.0 as u32);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{eval:?}: {:.0} ns an evaluation (checksum {sum}); depth {depth} from {} roots: {nodes} nodes in {secs:.2} s, {:.2} M nodes/s (moves and scores {found:016x})",
            per_eval * 1e9,
            roots.len(),
            nodes as f64 / secs / 1e6
        );
    }
    Ok(())
}

/// The pattern evaluation with weights read from a file, with the bot's ProbCut.
#[derive(Clone)]
struct FileEval(std::sync::Arc<PatternWeights>);

impl FileEval {
    fn load(path: &str) -> Result<FileEval, String> {
        let bytes = if path == "shipped" {
            include_bytes!("../data/othello-patterns.bin").to_vec()
        } else {
            std::fs::read(path).map_err(|e| format!("reading {path}: {e}"))?
        };
        let w = PatternWeights::read(&bytes).map_err(|e| format!("{path}: {e}"))?;
        Ok(FileEval(std::sync::Arc::new(w)))
    }
}

impl Evaluator<IndexedOthello> for FileEval {
    fn evaluate(&self, state: &IndexedOthello) -> Score {
        let (own, opp) = state.sides();
        let idx = state.indices();
        Score(self.0.evaluate_indexed(own, opp, |k| u32::from(idx[k])))
    }

    fn probcut(&self, state: &IndexedOthello, depth: u32) -> Option<ProbCut> {
        OthelloEval::Pattern.probcut(state, depth)
    }
}

fn duel(o: &Options) -> Result<(), String> {
    let a = FileEval::load(o.get("a").ok_or("--a WEIGHTS is required")?)?;
    let b = FileEval::load(o.get("b").ok_or("--b WEIGHTS is required")?)?;
    let pairs: u64 = o.num("pairs", 100)?;
    let depth: u32 = o.num("depth", 6)?;
    let exact: u32 = o.num("exact", 16)?;
    let seed: u64 = o.num("seed", 1)?;
    let opening: u32 = o.num("opening-plies", 8)?;
    let probcut = match o.get("probcut").unwrap_or("on") {
        "on" => true,
        "off" => false,
        p => return Err(format!("--probcut: on or off, not {p:?}")),
    };
    let config = Config {
        tt_bytes: 4 << 20,
        deepening: Deepening::Iterative,
        probcut,
        ..Config::default()
    };
    let mut searches = [
        AlphaBeta::with(a, CornersFirst, config),
        AlphaBeta::with(b, CornersFirst, config),
    ];
    let mut solver = EndgameSolver::new();
    let start = Instant::now();
    let tally = duels::play_pairs(pairs, seed, opening, |open: Othello, a_seat| {
        for s in &mut searches {
            s.clear();
        }
        let mut state = open;
        while state.outcome().is_none() {
            let mv = if empties(&state) <= exact {
                solver
                    .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
                    .expect("an unfinished game has a solution")
                    .best
            } else {
                let side = usize::from(state.to_move() != a_seat);
                searches[side]
                    .search(&IndexedOthello::from(state), Budget::depth(depth))
                    .best
                    .expect("a search of an unfinished game has a move")
            };
            state.play_unchecked(mv);
        }
        let d = duels::final_score(&state);
        if state.to_move() == a_seat { d } else { -d }
    });
    println!(
        "{}; depth {depth}, exact from {exact}, {:.0} s",
        tally.summary(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
