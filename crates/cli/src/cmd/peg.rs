//! `ply peg`: peg solitaire on any board: solve, count, score a contest answer, search
//! packages, draw, and time the solvers.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::ProgressBar;

use ply_puzzles::peg_solitaire::{
    self as peg, Goal, Outcome, Reduce, ScoreSearch, Setup, SolveError, Standard, fewest_moves,
    format_classic, format_contest, jump_holes, package, parse_contest_moves, parse_hole, picture,
    reachable_levels, replay, replay_jumps, solve,
};

use crate::bad_input;
use crate::out::Count;

#[derive(Debug, Args)]
pub struct PegArgs {
    #[command(subcommand)]
    pub command: PegCommand,
}

#[derive(Debug, Subcommand)]
pub enum PegCommand {
    /// Solve a board: one peg left, fewest moves, or the lowest contest score.
    #[command(
        after_help = "Examples:\n  ply peg solve --board english                     # one peg, any hole\n  \
ply peg solve --board english --finish 44 --format moves\n  \
ply peg solve --board english --objective moves   # 17 moves, any finish (release, ~1 min)\n  \
ply peg solve --board english --objective moves --finish 44   # 18: the central game\n  \
ply peg solve --board weighted.txt --objective score --format contest\n  \
ply peg solve --board english --objective score --packages --width 50   # package and purge\n  \
ply peg solve --board weighted.txt --objective score --prove --max-nodes 2000000 --format json\n      \
# exact unless the cap stops it first (the contest's board needs 134 M nodes, 3 GB)\n  \
ply peg solve --board french                      # impossible: prints the proof, exit 1"
    )]
    Solve(SolveArgs),
    /// Count the positions reachable from the start, per level (jumps made) and in total.
    #[command(
        after_help = "Example:\n  ply peg count --board english     # 23475688 up to symmetry (release build)\n  \
ply peg count --board triangle --start 11 --finishable
  \
ply peg count --board triangle --start 11 --games  # last line: games ending with one peg: 29760
  \
ply peg count --board english --games --finish 44  # 577116156815309849672 games (release)"
    )]
    Count(CountArgs),
    /// Replay a contest answer (rows `r1 c1 r2 c2`), reject the first illegal jump, print the score.
    #[command(
        after_help = "Example:\n  ply peg score --board weighted.txt --moves answer.txt\n\n\
Board files: -1 off the board, 0 empty, a positive weight for a peg; rows of numbers or\n\
MATLAB `[.. ; ..]`. Move files: one jump a row, 1-based, as the contest wrote them."
    )]
    Score(ScoreArgs),
    /// The graph of positions that clear a block (the contest's `findsolitairepackages`).
    #[command(
        after_help = "Example:\n  ply peg package --from '[1 0 0 -1;-1 1 1 1;-1 1 1 1]' --to '[1 0 0 -1;-1 0 0 0;-1 0 0 0]'\n  \
ply peg package --from block.txt --to goal.txt --dot > g.dot\n  \
ply peg package --from block.txt --to goal.txt --svg packages.svg\n\n\
Cells: -1 off, 0 empty, 1 peg, NaN either. --from/--to take a file or the matrix itself."
    )]
    Package(PackageArgs),
    /// Draw a board in the terminal, or as SVG.
    #[command(
        after_help = "Example:\n  ply peg show --board french\n  ply peg show --board english --svg board.svg"
    )]
    Show(ShowArgs),
    /// Time the solvers on the English board (release builds; figures for docs/benchmarks.md).
    #[command(after_help = "Example:\n  ply peg bench --full       # build with --release first")]
    Bench(BenchArgs),
}

#[derive(Debug, Args)]
pub struct BoardArg {
    /// english, french, wiegleb, diamond, triangle, or a matrix file (-1 off, 0 empty, weights).
    #[arg(long, default_value = "english")]
    pub board: String,
    /// The hole left empty at the start, `RC` or `R,C` from 1 (standard boards: default
    /// centre, triangle top). On a file, empties that hole too.
    #[arg(long)]
    pub start: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Objective {
    /// Leave one peg (in --finish if given).
    Pegs,
    /// Fewest moves (a move = jumps by one peg), proven minimal.
    Moves,
    /// Lowest contest score: weights left plus the moving peg's weight per move.
    Score,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// The contest's rows `r1 c1 r2 c2`, one jump a line.
    Contest,
    /// Classic notation: `46-44, 75-73-53`.
    Moves,
    /// JSON for scripts.
    Json,
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// What to optimise.
    #[arg(long, value_enum, default_value = "pegs")]
    pub objective: Objective,
    /// The hole the last peg must end in (`RC` or `R,C`); default anywhere.
    #[arg(long)]
    pub finish: Option<String>,
    /// Finish on exactly this pattern instead: a matrix file of the board's shape whose
    /// positive cells are the pegs to leave (objectives pegs and moves).
    #[arg(long, conflicts_with = "finish", value_name = "FILE")]
    pub target: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "moves")]
    pub format: Format,
    /// Beam width of the score objective, 1 to 10000000 (larger: slower, often better).
    #[arg(long, default_value_t = 3000, value_parser = crate::ranges::count::<10_000_000>)]
    pub width: usize,
    /// With --objective score: search in block space instead, seed 001's package and purge
    /// (3x3, 3x4 and 4x3 blocks and their precomputed clearing moves, joined by a beam
    /// search of --width states a layer over whole packages).
    #[arg(long)]
    pub packages: bool,
    /// With --objective score: prove the optimum by branch and bound (exact; the beam's
    /// answer at --width is the starting bound). If --max-nodes stops it first, the answer
    /// is printed as not proven optimal.
    #[arg(long, conflicts_with = "packages")]
    pub prove: bool,
    /// With --prove: stop after this many nodes, 1 to 10^15 (default: no limit).
    #[arg(long, value_parser = crate::ranges::nodes())]
    pub max_nodes: Option<u64>,
    /// With --prove: megabytes of the transposition table, 1 to 1048576 (default 512; the
    /// table holds the largest power of two of 48-byte entries that fits).
    #[arg(long, value_parser = crate::ranges::megabytes())]
    pub table_mb: Option<u64>,
    /// Also write the solution move by move as SVG to this file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct CountArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// Count every position on its own instead of up to the board's symmetries.
    #[arg(long)]
    pub no_symmetry: bool,
    /// Also count the positions from which one peg can still be reached.
    #[arg(long)]
    pub finishable: bool,
    /// With --finishable or --games: the last peg must end in this hole (`RC` or `R,C`).
    #[arg(long)]
    pub finish: Option<String>,
    /// Also count every game (jumps until none is left), the games that end with one peg
    /// (in --finish, if given), and the fewest jumps of a game that gets stuck.
    #[arg(long)]
    pub games: bool,
    /// Stop after this many levels.
    #[arg(long)]
    pub max_levels: Option<usize>,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct ScoreArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// The move file: rows `r1 c1 r2 c2`, or MATLAB `[..;..]`.
    #[arg(long)]
    pub moves: PathBuf,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
pub struct PackageArgs {
    /// The start block: a file, or the matrix text (`[1 0;-1 NaN]`).
    #[arg(long)]
    pub from: String,
    /// The goal block, same shape.
    #[arg(long)]
    pub to: String,
    /// Print the graph in Graphviz dot instead.
    #[arg(long)]
    pub dot: bool,
    /// Also draw the graph as an SVG picture into this file (positions as small boards).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// List at most this many solutions.
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub board: BoardArg,
    /// Write the board as SVG to this file instead.
    #[arg(long)]
    pub svg: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Also time the full count and the fewest-moves proof (about a minute each).
    #[arg(long)]
    pub full: bool,
}

pub fn run(args: &PegArgs) -> Result<ExitCode> {
    match &args.command {
        PegCommand::Solve(a) => run_solve(a),
        PegCommand::Count(a) => run_count(a),
        PegCommand::Score(a) => run_score(a),
        PegCommand::Package(a) => run_package(a),
        PegCommand::Show(a) => run_show(a),
        PegCommand::Bench(a) => run_bench(a),
    }
}

fn load(arg: &BoardArg) -> Result<Setup> {
    let start = arg
        .start
        .as_deref()
        .map(|s| parse_hole(s).map_err(|e| bad_input!("--start: {e}")))
        .transpose()?;
    if let Ok(std) = arg.board.parse::<Standard>() {
        let hole = start.unwrap_or(std.default_start());
        return Setup::standard(std, hole).map_err(|e| bad_input!("--start: {e}"));
    }
    let path = Path::new(&arg.board);
    if !path.exists() {
        return Err(bad_input!(
            "--board {:?}: no such file, and not one of english, french, wiegleb, diamond, triangle",
            arg.board
        ));
    }
    let text = crate::input::read_file(path, "")?;
    let mut setup =
        Setup::parse(&arg.board, &text).map_err(|e| bad_input!("{}: {e}", path.display()))?;
    if let Some(h) = start {
        let bit = setup.board.bit(h).ok_or_else(|| {
            bad_input!(
                "--start {h}: row {}, column {} is off the board",
                h.row + 1,
                h.col + 1
            )
        })?;
        setup.pegs &= !(1u64 << bit);
        setup.weights[bit as usize] = 0;
    }
    Ok(setup)
}

/// The pattern of pegs in the matrix file `file`, which must have the board's holes.
fn target_goal(setup: &Setup, file: &str) -> Result<Goal> {
    let path = Path::new(file);
    let text = crate::input::read_file(path, "--target")?;
    let target = Setup::parse(file, &text).map_err(|e| bad_input!("--target {file}: {e}"))?;
    if target.board.holes() != setup.board.holes()
        || target.board.rows() != setup.board.rows()
        || target.board.cols() != setup.board.cols()
    {
        return Err(bad_input!(
            "--target {file}: its holes (cells other than -1) differ from the board's; write the same shape with the pegs to leave"
        ));
    }
    if target.pegs == 0 {
        return Err(bad_input!(
            "--target {file}: no pegs; mark the pegs to leave with 1"
        ));
    }
    Ok(Goal::Pattern(target.pegs))
}

fn finish_goal(setup: &Setup, finish: Option<&str>) -> Result<Goal> {
    Ok(match finish {
        None => Goal::OnePeg,
        Some(s) => {
            let h = parse_hole(s).map_err(|e| bad_input!("--finish: {e}"))?;
            let bit = setup
                .board
                .bit(h)
                .ok_or_else(|| bad_input!("--finish {h}: not a hole of the board"))?;
            Goal::Pattern(1 << bit)
        }
    })
}

fn spinner(msg: &str) -> ProgressBar {
    crate::out::spinner(msg)
}

fn run_solve(a: &SolveArgs) -> Result<ExitCode> {
    let setup = load(&a.board)?;
    let board = &setup.board;
    let goal = match &a.target {
        Some(file) => {
            if a.objective == Objective::Score {
                return Err(bad_input!(
                    "--target applies to --objective pegs or moves; the score objective chooses where to stop"
                ));
            }
            target_goal(&setup, file)?
        }
        None => finish_goal(&setup, a.finish.as_deref())?,
    };
    if a.packages && a.objective != Objective::Score {
        return Err(bad_input!(
            "--packages is a search for --objective score (the contest score)"
        ));
    }
    if a.prove && a.objective != Objective::Score {
        return Err(bad_input!(
            "--prove proves the contest score's optimum: add --objective score (the other objectives are always exact)"
        ));
    }
    if !a.prove && (a.max_nodes.is_some() || a.table_mb.is_some()) {
        return Err(bad_input!("--max-nodes and --table-mb apply to --prove"));
    }
    if a.objective == Objective::Score && a.finish.is_some() {
        return Err(bad_input!(
            "--finish applies to --objective pegs or moves; the score objective chooses where to stop"
        ));
    }
    let objective = match a.objective {
        Objective::Pegs => peg::Objective::Pegs(goal),
        Objective::Moves => peg::Objective::Moves(goal),
        Objective::Score if a.packages => {
            peg::Objective::Score(ScoreSearch::Packages { width: a.width })
        }
        Objective::Score if a.prove => peg::Objective::Score(ScoreSearch::Prove {
            width: a.width,
            max_nodes: a.max_nodes.unwrap_or(u64::MAX),
            table_entries: usize::try_from((a.table_mb.unwrap_or(512) << 20) / 48)
                .unwrap_or(usize::MAX),
        }),
        Objective::Score => peg::Objective::Score(ScoreSearch::Beam { width: a.width }),
    };
    let started = Instant::now();
    let pb = match a.objective {
        Objective::Moves => Some(spinner("enumerating positions")),
        Objective::Score if a.prove => Some(spinner("proving")),
        _ => None,
    };
    let solved = peg::solve_for(&setup, &objective, |p| {
        let Some(pb) = &pb else { return true };
        match p {
            peg::objective::Progress::Level { phase, level } => {
                pb.set_message(format!("{phase} level {level}"));
            }
            peg::objective::Progress::Proving(s) => {
                pb.set_message(format!(
                    "{} nodes, best {}, table {}, about {:.4}% done",
                    s.nodes,
                    s.best,
                    s.table,
                    100.0 * s.done
                ));
                if s.nodes % (1 << 26) == 0 {
                    tracing::info!(
                        "{} nodes, best {}, {} table entries, about {:.4}% of the tree done",
                        s.nodes,
                        s.best,
                        s.table,
                        100.0 * s.done
                    );
                }
            }
        }
        pb.tick();
        true
    });
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let answer = match solved {
        Ok(answer) => answer,
        Err(SolveError::NoSolution(why)) => {
            outln!("no solution: {why}");
            return Ok(ExitCode::from(1));
        }
        Err(SolveError::Refused(why)) if a.packages => {
            return Err(bad_input!("--packages: {why}"));
        }
        Err(SolveError::Refused(why)) => return Err(bad_input!("--prove: {why}")),
    };
    if let Some(p) = &answer.purged {
        tracing::info!(
            "package and purge: {} packages and {} single jumps joined; {} states, {} blocks in the table",
            p.packages,
            p.singles,
            answer.nodes,
            p.table
        );
    }
    if let Some(p) = &answer.proof {
        tracing::info!(
            "branch and bound from the beam's {}: {} nodes, {} bound cuts, {} table cuts, root bound {}{}",
            answer.beam_score.unwrap_or(p.score),
            p.nodes,
            p.cuts,
            p.transpositions,
            p.root_bound,
            if p.proven {
                ""
            } else {
                "; stopped by --max-nodes"
            }
        );
    }
    let (jumps, optimal, proof) = (answer.jumps, answer.optimal, answer.proof);
    let secs = started.elapsed().as_secs_f64();
    let r =
        replay_jumps(&setup, &jumps).context("the solver's answer failed the scorer (a bug)")?;
    let holes = jump_holes(board, &jumps);
    match a.format {
        Format::Contest => out!("{}", format_contest(&holes)),
        Format::Moves => outln!("{}", format_classic(&holes)),
        Format::Json => {
            let solution: Vec<[usize; 4]> = holes
                .iter()
                .map(|(f, t)| {
                    [
                        f.row as usize + 1,
                        f.col as usize + 1,
                        t.row as usize + 1,
                        t.col as usize + 1,
                    ]
                })
                .collect();
            let mut v = serde_json::json!({
                "jumps": r.jumps, "moves": r.moves, "pegs_left": r.pegs_left,
                "score": r.score, "optimal": optimal, "solution": solution,
            });
            if let Some(p) = &proof {
                v["proof"] = serde_json::json!({
                    "proven": p.proven, "improved": p.improved, "nodes": p.nodes,
                    "bound_cuts": p.cuts, "table_cuts": p.transpositions,
                    "root_bound": p.root_bound, "seconds": secs,
                });
            }
            outln!("{v}");
        }
    }
    if a.format != Format::Json {
        tracing::info!(
            "{}, {}, {} left, score {}{} ({secs:.3}s)",
            Count(r.jumps as u64, "jump"),
            Count(r.moves as u64, "move"),
            Count(r.pegs_left as u64, "peg"),
            r.score,
            match (a.objective, optimal) {
                (Objective::Pegs, _) => "",
                (_, true) => ", proven optimal",
                (_, false) => ", not proven optimal",
            }
        );
    }
    if let Some(path) = &a.svg {
        std::fs::write(path, picture::solution_svg(board, setup.pegs, &jumps, 6))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_count(a: &CountArgs) -> Result<ExitCode> {
    let setup = load(&a.board)?;
    let board = &setup.board;
    let reduce = if a.no_symmetry {
        Reduce::Nothing
    } else {
        Reduce::Symmetry
    };
    let started = Instant::now();
    let pb = spinner("counting");
    let levels = reachable_levels(
        board,
        setup.pegs,
        reduce,
        a.max_levels.unwrap_or(usize::MAX),
        |k, n| {
            pb.set_message(format!("level {k}: {n} positions"));
            pb.tick();
        },
    );
    let counts = levels.counts(board);
    let goal = finish_goal(&setup, a.finish.as_deref())?;
    if levels.reduce == Reduce::Symmetry && !goal.symmetric(board) {
        return Err(bad_input!(
            "--finish is not fixed by the board's symmetries; add --no-symmetry"
        ));
    }
    let fin = a.finishable.then(|| {
        levels
            .finishable(board, goal)
            .iter()
            .map(|l| l.len() as u64)
            .collect::<Vec<_>>()
    });
    let games = a.games.then(|| {
        pb.set_message("counting games");
        levels.count_games(board, goal)
    });
    pb.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let symmetric = levels.reduce == Reduce::Symmetry;
    let truncated = a.max_levels.is_some_and(|m| counts.canonical.len() >= m);
    if a.games && truncated {
        return Err(bad_input!(
            "--games counts whole games: drop --max-levels (it stopped the count at {} levels)",
            counts.canonical.len()
        ));
    }
    let one_peg = match a.finish.as_deref() {
        Some(h) => format!("games ending with one peg in {h}"),
        None => "games ending with one peg".to_string(),
    };
    if a.json.on {
        // Game counts pass u64 on large boards: strings, so no reader rounds them.
        let games_json = games.as_ref().map(|g| {
            serde_json::json!({
                "games": g.games.to_string(),
                "solutions": g.solutions.to_string(),
                "shortest_stuck": g.shortest_stuck,
                "by_length": g.by_length.iter().map(u128::to_string).collect::<Vec<_>>(),
            })
        });
        outln!(
            "{}",
            serde_json::json!({
                "board": board.name(), "up_to_symmetry": symmetric,
                "levels": counts.canonical, "levels_all_images": counts.all,
                "total": counts.canonical.iter().sum::<u64>(),
                "total_all_images": counts.all.iter().sum::<u64>(),
                "finishable": fin, "games": games_json, "seconds": secs,
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    let head = if symmetric {
        "up to symmetry"
    } else {
        "positions"
    };
    out!("{:>5} {:>6} {:>14}", "jumps", "pegs", head);
    if symmetric {
        out!(" {:>14}", "all images");
    }
    if fin.is_some() {
        out!(" {:>14}", "finishable");
    }
    outln!();
    let pegs0 = setup.pegs.count_ones() as usize;
    for k in 0..counts.canonical.len() {
        out!("{k:>5} {:>6} {:>14}", pegs0 - k, counts.canonical[k]);
        if symmetric {
            out!(" {:>14}", counts.all[k]);
        }
        if let Some(f) = &fin {
            out!(" {:>14}", f[k]);
        }
        outln!();
    }
    out!(
        "{:>5} {:>6} {:>14}",
        "total",
        "",
        counts.canonical.iter().sum::<u64>()
    );
    if symmetric {
        out!(" {:>14}", counts.all.iter().sum::<u64>());
    }
    if let Some(f) = &fin {
        out!(" {:>14}", f.iter().sum::<u64>());
    }
    outln!();
    if let Some(g) = &games {
        outln!("games: {}", g.games);
        match g.shortest_stuck {
            Some(k) => outln!("shortest game that gets stuck: {k} jumps"),
            None => outln!("no game gets stuck short of one peg"),
        }
        outln!("{one_peg}: {}", g.solutions);
    }
    if !symmetric && !a.no_symmetry {
        tracing::info!("(the start is not symmetric, so every position is counted on its own)");
    }
    tracing::info!("counted in {secs:.2}s");
    Ok(ExitCode::SUCCESS)
}

fn run_score(a: &ScoreArgs) -> Result<ExitCode> {
    let setup = load(&a.board)?;
    let text = crate::input::read_file(&a.moves, "")?;
    let jumps = parse_contest_moves(&text).map_err(|e| bad_input!("{}: {e}", a.moves.display()))?;
    match replay(&setup, &jumps) {
        Ok(r) => {
            if a.json.on {
                outln!(
                    "{}",
                    serde_json::json!({
                        "legal": true, "jumps": r.jumps, "moves": r.moves, "pegs_left": r.pegs_left,
                        "weight_left": r.weight_left, "penalty": r.penalty, "score": r.score,
                    })
                );
            } else {
                out!("{}", picture::text(&setup.board, r.pegs, Some(&r.weights)));
                outln!(
                    "{}, {}, {} left: weight left {} + lifting penalty {} = score {}",
                    Count(r.jumps as u64, "jump"),
                    Count(r.moves as u64, "move"),
                    Count(r.pegs_left as u64, "peg"),
                    r.weight_left,
                    r.penalty,
                    r.score
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            if a.json.on {
                outln!(
                    "{}",
                    serde_json::json!({"legal": false, "row": e.row, "line": e.line, "error": e.to_string()})
                );
            }
            // A well-formed answer with an illegal jump is a failed check (exit 1), as
            // `ply judge` rejects an invalid move; only an unreadable file is bad input.
            tracing::error!("invalid answer: {}: {e}", a.moves.display());
            Ok(ExitCode::from(1))
        }
    }
}

fn block_text(arg: &str) -> Result<String> {
    let p = Path::new(arg);
    if !arg.trim_start().starts_with('[') && p.exists() {
        crate::input::read_file(p, "")
    } else {
        Ok(arg.to_string())
    }
}

fn run_package(a: &PackageArgs) -> Result<ExitCode> {
    let p = package::find_packages(&block_text(&a.from)?, &block_text(&a.to)?)
        .map_err(|e| bad_input!("{e}"))?;
    if let Some(path) = &a.svg {
        std::fs::write(path, p.svg()).with_context(|| format!("writing {}", path.display()))?;
    }
    if a.dot {
        out!("{}", p.dot());
        return Ok(ExitCode::SUCCESS);
    }
    let (solutions, complete) = p.solutions(a.limit);
    outln!(
        "{} positions, {} jumps between them; {}{} solutions",
        p.states.len(),
        p.edges.len(),
        if complete { "" } else { "at least " },
        solutions.len()
    );
    for s in &solutions {
        let legal_from = |mut q: u64| {
            s.iter().all(|j| {
                let ok = j.legal(q);
                q = j.apply(q);
                ok
            })
        };
        let start = p
            .starts
            .iter()
            .copied()
            .find(|&st| legal_from(st))
            .unwrap_or(0);
        outln!(
            "{}  from {}",
            format_classic(&jump_holes(&p.board, s)),
            p.pattern(start)
        );
    }
    Ok(if solutions.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn run_show(a: &ShowArgs) -> Result<ExitCode> {
    let setup = load(&a.board)?;
    match &a.svg {
        Some(path) => std::fs::write(path, picture::svg(&setup.board, setup.pegs))
            .with_context(|| format!("writing {}", path.display()))?,
        None => out!(
            "{}",
            picture::text(&setup.board, setup.pegs, Some(&setup.weights))
        ),
    }
    Ok(ExitCode::SUCCESS)
}

fn run_bench(a: &BenchArgs) -> Result<ExitCode> {
    let setup = Setup::standard(Standard::English, Standard::English.default_start())?;
    let board = &setup.board;
    let centre = Goal::Pattern(1 << board.bit(Standard::English.default_start()).expect("hole"));
    let runs = 200;
    let t = Instant::now();
    let mut nodes = 0;
    for _ in 0..runs {
        let r = solve(board, setup.pegs, centre);
        assert!(matches!(r.outcome, Outcome::Solved(_)));
        nodes = r.nodes;
    }
    outln!(
        "english central, one peg in the centre: {:.3} ms per solve (mean of {runs}), {nodes} positions expanded",
        t.elapsed().as_secs_f64() * 1000.0 / runs as f64
    );
    if a.full {
        let t = Instant::now();
        let levels = reachable_levels(board, setup.pegs, Reduce::Symmetry, usize::MAX, |_, _| {});
        let total: u64 = levels.levels.iter().map(|l| l.len() as u64).sum();
        outln!(
            "english central, reachable positions up to symmetry: {total} in {:.2} s",
            t.elapsed().as_secs_f64()
        );
        let t = Instant::now();
        let f = fewest_moves(board, setup.pegs, centre, |_, _| {}).expect("solvable");
        outln!(
            "english central, fewest moves with proof: {} moves in {:.2} s",
            f.moves,
            t.elapsed().as_secs_f64()
        );
    }
    Ok(ExitCode::SUCCESS)
}
