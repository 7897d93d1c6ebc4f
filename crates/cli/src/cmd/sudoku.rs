//! `ply sudoku solve|generate|explain|grade|bench`: Sudoku of any box shape.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use indicatif::ProgressBar;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;

use ply_puzzles::sudoku::{
    self, Ending, Entry, Grid, Layout, ReadOptions, Shape, Solutions, classic,
};

use crate::bad_input;
use crate::out::Count;

#[derive(Debug, Args)]
pub struct SudokuArgs {
    #[command(subcommand)]
    pub command: SudokuCommand,
}

#[derive(Debug, Subcommand)]
pub enum SudokuCommand {
    /// Solve every puzzle of a file: one answer per puzzle, in order, in the input's layout.
    #[command(after_help = "Examples:\n  \
ply sudoku solve puzzles.txt --threads 2\n  \
ply sudoku generate --seed 7 | ply sudoku solve\n  \
ply sudoku generate --seed 7 | ply sudoku solve --solver backtracking  # seed 003's\n  \
ply sudoku solve puzzles.txt --count --limit 10     # solutions per puzzle, at most 10\n\n\
A puzzle with no solution prints `no solution` (with the reason when clues clash) and the\n\
exit code is then 1. With --count, a number equal to --limit means \"at least that many\".")]
    Solve(SolveArgs),
    /// Generate puzzles with a unique solution from which no clue can be removed.
    #[command(after_help = "Examples:\n  \
ply sudoku generate --seed 7\n  \
ply sudoku generate --size 6 --count 5 --seed 1\n  \
ply sudoku generate --clues 24 --seed 3 --grid\n  \
ply sudoku generate --size 16 --seed 16 --grid           # minimal, about 0.2 s\n  \
ply sudoku generate --size 25 --seed 25                  # minimal, seconds to minutes\n  \
ply sudoku generate --size 25 --seed 25 --restart        # minimal, sooner on average\n  \
ply sudoku generate --size 25 --seed 25 --steer          # minimal, about a second of CPU\n  \
ply sudoku generate --size 25 --min-clues 300 --seed 25  # unique, not minimal; seconds")]
    Generate(GenerateArgs),
    /// Solve with human techniques, printing each step and its reason.
    #[command(after_help = "Example:\n  \
ply sudoku generate --seed 7 | ply sudoku explain")]
    Explain(ExplainArgs),
    /// Rate each puzzle by the hardest human technique it needs.
    #[command(after_help = "Example:\n  ply sudoku grade puzzles.txt --json\n\n\
Grades: easy (singles), medium (locked candidates), hard (pairs, triples), expert (x-wing,\n\
swordfish), beyond (needs guessing, or the puzzle has no unique solution).")]
    Grade(GradeArgs),
    /// Time the solver on files of puzzles (puzzles/s, microseconds and guesses per puzzle).
    #[command(after_help = "Example:\n  \
ply sudoku bench puzzles.txt --rounds 1\n\n\
Built with `--features compare-sudoku-crate`, it also times the `sudoku` crate on the same\n\
9x9 puzzles in the same run and checks that both agree.")]
    Bench(BenchArgs),
}

/// How puzzles are laid out in the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    /// Each line is a puzzle, or a row of a grid (decided per puzzle).
    Auto,
    /// One puzzle per line.
    Line,
    /// One row per line.
    Grid,
}

#[derive(Debug, Args)]
pub struct InputArgs {
    /// The file of puzzles; `-` or nothing reads standard input.
    pub file: Option<PathBuf>,
    /// Box shape ROWSxCOLS (e.g. 2x3); default: the most square boxes for the side.
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,
    /// How puzzles are written.
    #[arg(long, value_enum, default_value = "auto")]
    pub format: FormatArg,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print one JSON object per puzzle")))]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print the number of solutions instead of a solution.
    #[arg(long)]
    pub count: bool,
    /// Stop counting at this many solutions.
    #[arg(long, default_value_t = 2)]
    pub limit: u64,
    /// Worker threads for files with many puzzles.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    #[command(flatten)]
    pub json: crate::out::Json,
    /// Which solver: ply's (`fast`), or seed 003's own recursive backtracking
    /// (`backtracking`), which reports how many values it placed beside ply's guesses.
    #[arg(long, value_enum, default_value = "fast", conflicts_with = "count")]
    pub solver: Solver,
    /// With --solver backtracking: give up after this many placements, 1 to 10^12.
    #[arg(long, default_value_t = 100_000_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000_000))]
    pub max_placements: u64,
}

/// The solvers of `ply sudoku solve`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Solver {
    /// ply's: bitsets, propagation, the most constrained cell first.
    Fast,
    /// Seed 003's: every value in every empty cell in order, with legalSquare.
    Backtracking,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// The side of the board (4, 6, 8, 9, 12, 16, ...).
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Box shape ROWSxCOLS, overriding --size.
    #[arg(long = "box", value_name = "RxC")]
    pub box_shape: Option<String>,
    /// At most this many clues: minimal puzzles are generated until one is small enough.
    #[arg(long)]
    pub clues: Option<usize>,
    /// Stop removing clues at this many: quick for big boards, but then not minimal.
    #[arg(long, conflicts_with = "clues")]
    pub min_clues: Option<usize>,
    /// Abandon a generation whose uniqueness checks run long and start afresh (still
    /// minimal; quicker on big boards on average, but a different puzzle for some seeds).
    #[arg(long, conflicts_with = "clues")]
    pub restart: bool,
    /// Remove clues from the loosest cells first (the most candidates without them) and
    /// abandon a generation whose checks run long (still minimal; much quicker on 25x25
    /// boards; a different puzzle from the default's).
    #[arg(long, conflicts_with_all = ["clues", "restart"])]
    pub steer: bool,
    /// How many minimal puzzles to try per requested puzzle when --clues is given.
    #[arg(long, default_value_t = 1000, value_parser = crate::ranges::count::<100_000>)]
    pub attempts: usize,
    /// Seed of the generator; default: a fresh one, printed on stderr.
    #[arg(long)]
    pub seed: Option<u64>,
    /// How many puzzles, 1 to 1000000.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::count::<1_000_000>)]
    pub count: usize,
    /// Print grids (one row per line) instead of one puzzle per line.
    #[arg(long)]
    pub grid: bool,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct ExplainArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print one JSON object per puzzle")))]
pub struct GradeArgs {
    #[command(flatten)]
    pub input: InputArgs,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct BenchArgs {
    /// Files of puzzles.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Stop at the first solution instead of proving uniqueness.
    #[arg(long)]
    pub first: bool,
    /// Time each file this many times and keep the fastest run.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &SudokuArgs) -> Result<ExitCode> {
    match &args.command {
        SudokuCommand::Solve(a) => solve(a),
        SudokuCommand::Generate(a) => generate(a),
        SudokuCommand::Explain(a) => explain(a),
        SudokuCommand::Grade(a) => grade(a),
        SudokuCommand::Bench(a) => bench(a),
    }
}

fn parse_box(text: &str) -> Result<Shape> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| bad_input!("--box {text:?}: expected ROWSxCOLS, such as 2x3"))?;
    let r: usize = r
        .trim()
        .parse()
        .map_err(|_| bad_input!("--box {text:?}: {r:?} is not a number of rows"))?;
    let c: usize = c
        .trim()
        .parse()
        .map_err(|_| bad_input!("--box {text:?}: {c:?} is not a number of columns"))?;
    Shape::new(r, c).map_err(|e| bad_input!("--box {text:?}: {e}"))
}

fn read_text(file: Option<&Path>) -> Result<(String, String)> {
    match file {
        None => read_text(Some(Path::new("-"))),
        Some(p) if p == Path::new("-") => {
            let s = crate::input::read_stdin("<stdin>")?;
            Ok((s, "<stdin>".to_string()))
        }
        Some(p) => {
            let s = crate::input::read_file(p, "")?;
            Ok((s, p.display().to_string()))
        }
    }
}

fn read_entries(input: &InputArgs) -> Result<Vec<Entry>> {
    let (text, name) = read_text(input.file.as_deref())?;
    let opts = ReadOptions {
        shape: input.box_shape.as_deref().map(parse_box).transpose()?,
        layout: match input.format {
            FormatArg::Auto => None,
            FormatArg::Line => Some(Layout::Line),
            FormatArg::Grid => Some(Layout::Block),
        },
    };
    let entries = sudoku::read_puzzles(&text, opts).map_err(|e| bad_input!("{name}: {e}"))?;
    if entries.is_empty() {
        return Err(bad_input!(
            "{name}: no puzzle found (expected lines of 81 cells, `.` or `0` for empty, or grids)"
        ));
    }
    Ok(entries)
}

fn progress(len: usize, what: &str) -> ProgressBar {
    if len >= 2000 {
        crate::out::progress(len as u64, what)
    } else {
        ProgressBar::hidden()
    }
}

/// Solves every puzzle on `threads` threads, in order, with a progress bar for big files.
fn solve_all(entries: &[Entry], limit: u64, threads: usize) -> Vec<Solutions> {
    let bar = progress(entries.len(), "puzzles");
    let grids: Vec<_> = entries.iter().map(|e| e.grid.clone()).collect();
    let out = sudoku::solve_many(&grids, limit, threads, || bar.inc(1));
    bar.finish_and_clear();
    out
}

/// Seed 003's solver on every puzzle, reporting its work beside ply's; its answers replace
/// ply's (the first solution in its order, no uniqueness check).
fn backtrack_all(entries: &[Entry], fast: &[Solutions], max: u64) -> Vec<Solutions> {
    entries
        .iter()
        .zip(fast)
        .map(|(e, f)| {
            let b = sudoku::backtracking::seed_backtracking(&e.grid, max);
            let ply = format!("ply's solver made {}", Count(f.guesses, "guess"));
            if b.gave_up {
                tracing::warn!(
                    "line {}: the seed's backtracking gave up after {} (--max-placements); {ply}",
                    e.line,
                    Count(b.placements, "placement")
                );
            } else {
                tracing::info!(
                    "line {}: the seed's backtracking made {}; {ply}",
                    e.line,
                    Count(b.placements, "placement")
                );
            }
            Solutions {
                count: u64::from(b.solution.is_some()),
                first: b.solution,
                guesses: b.placements,
            }
        })
        .collect()
}

fn solve(args: &SolveArgs) -> Result<ExitCode> {
    if args.limit == 0 {
        return Err(bad_input!("--limit 0: the limit must be at least 1"));
    }
    let entries = read_entries(&args.input)?;
    let limit = if args.count { args.limit } else { 2 };
    let mut results = solve_all(&entries, limit, args.threads);
    if args.solver == Solver::Backtracking {
        results = backtrack_all(&entries, &results, args.max_placements);
    }
    let mut unsolved = 0;
    let mut out = String::new();
    for (e, s) in entries.iter().zip(&results) {
        let clash = e.grid.check().err();
        if s.count == 0 {
            unsolved += 1;
        }
        if args.json.on {
            let mut v = json!({
                "line": e.line, "solutions": s.count, "at_least": s.count == limit,
                "guesses": s.guesses,
            });
            if !args.count {
                v["solution"] = json!(s.first.as_ref().map(Grid::to_line));
            }
            if let Some(c) = &clash {
                v["error"] = json!(c.to_string());
            }
            out.push_str(&v.to_string());
            out.push('\n');
            continue;
        }
        if args.count {
            out.push_str(&format!("{}\n", s.count));
            continue;
        }
        match (&s.first, &clash) {
            (Some(g), _) => {
                if s.count > 1 {
                    tracing::info!(
                        "note: the puzzle on line {} has more than one solution; this is one of them",
                        e.line
                    );
                }
                match e.layout {
                    Layout::Line => out.push_str(&format!("{}\n", g.to_line())),
                    Layout::Block => {
                        // Grids are set apart by a blank line, as in the input.
                        if !out.is_empty() {
                            out.push('\n');
                        }
                        out.push_str(&g.to_block());
                    }
                }
            }
            (None, Some(c)) => out.push_str(&format!("no solution (line {}): {c}\n", e.line)),
            (None, None) => out.push_str(&format!("no solution (line {})\n", e.line)),
        }
    }
    out!("{out}");
    if unsolved > 0 {
        tracing::info!("{unsolved} of {} puzzles have no solution", entries.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn generate(args: &GenerateArgs) -> Result<ExitCode> {
    let shape = match &args.box_shape {
        Some(b) => parse_box(b)?,
        None => Shape::for_side(args.size).map_err(|e| bad_input!("--size {}: {e}", args.size))?,
    };
    if let Some(n) = args.clues {
        let fewest = sudoku::fewest_possible_clues(shape);
        if n < fewest {
            return Err(bad_input!(
                "--clues {n}: no {side}x{side} Sudoku with one solution has fewer than {fewest} \
                 clues; ask for {fewest} or more",
                side = shape.side()
            ));
        }
    }
    let seed = args.seed.unwrap_or_else(|| {
        let s = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0);
        tracing::info!("seed {s}");
        s
    });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let bar = if shape.side() >= 12 || args.count >= 50 {
        crate::out::progress(args.count as u64, "puzzles")
    } else {
        ProgressBar::hidden()
    };
    for i in 0..args.count {
        let p = match args.clues {
            Some(n) => sudoku::generate_with_max_clues(shape, n, args.attempts, &mut rng)
                .map_err(|e| anyhow::anyhow!("puzzle {}: {e}", i + 1))?,
            None if args.steer => {
                sudoku::generate_steered(shape, args.min_clues.unwrap_or(0), &mut rng)
            }
            None if args.restart => {
                sudoku::generate_restarting(shape, args.min_clues.unwrap_or(0), &mut rng)
            }
            None => sudoku::generate_down_to(shape, args.min_clues.unwrap_or(0), &mut rng),
        };
        bar.inc(1);
        bar.suspend(|| -> Result<()> {
            if args.grid {
                if i > 0 {
                    outln!();
                }
                out!("{}", p.to_block());
            } else {
                outln!("{}", p.to_line());
            }
            Ok(())
        })?;
    }
    bar.finish_and_clear();
    Ok(ExitCode::SUCCESS)
}

fn cell(side: usize, c: usize) -> String {
    format!("r{}c{}", c / side + 1, c % side + 1)
}

fn explain(args: &ExplainArgs) -> Result<ExitCode> {
    let entries = read_entries(&args.input)?;
    let mut failed = false;
    for (k, e) in entries.iter().enumerate() {
        let ex = sudoku::explain(&e.grid).map_err(|c| bad_input!("line {}: {c}", e.line))?;
        let side = e.grid.shape().side();
        let grade = sudoku::Grade::of(&ex);
        failed |= ex.ending == Ending::Contradiction;
        if args.json.on {
            let steps: Vec<_> = ex
                .steps
                .iter()
                .map(|s| {
                    json!({
                        "technique": s.technique.name(), "reason": s.reason,
                        "placed": s.placed.iter().map(|&(c, v)| json!({"cell": cell(side, c), "value": sudoku::symbol(v).to_string()})).collect::<Vec<_>>(),
                        "removed": s.removed.iter().map(|&(c, v)| json!({"cell": cell(side, c), "value": sudoku::symbol(v).to_string()})).collect::<Vec<_>>(),
                    })
                })
                .collect();
            let v = json!({
                "line": e.line, "grade": grade.name(), "ending": format!("{:?}", ex.ending).to_lowercase(),
                "steps": steps, "grid": ex.grid.to_line(),
            });
            outln!("{v}");
            continue;
        }
        if k > 0 {
            outln!();
        }
        outln!("puzzle on line {} ({} clues):", e.line, e.grid.clues());
        out!("{}", e.grid.to_block());
        for (i, s) in ex.steps.iter().enumerate() {
            let mut what = Vec::new();
            for &(c, v) in &s.placed {
                what.push(format!("{}={}", cell(side, c), sudoku::symbol(v)));
            }
            if !s.removed.is_empty() {
                let r: Vec<String> = s
                    .removed
                    .iter()
                    .map(|&(c, v)| format!("{}<>{}", cell(side, c), sudoku::symbol(v)))
                    .collect();
                what.push(r.join(" "));
            }
            outln!(
                "{:>3}. {}: {} => {}",
                i + 1,
                s.technique,
                s.reason,
                what.join(" ")
            );
        }
        match ex.ending {
            Ending::Solved => outln!(
                "solved in {}; grade {grade}",
                Count(ex.steps.len() as u64, "step")
            ),
            Ending::Stuck => outln!(
                "stuck after {}: no technique applies, the rest needs guessing; grade {grade}",
                Count(ex.steps.len() as u64, "step")
            ),
            Ending::Contradiction => outln!(
                "contradiction after {}: the puzzle has no solution",
                Count(ex.steps.len() as u64, "step")
            ),
        }
        out!("{}", ex.grid.to_block());
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn grade(args: &GradeArgs) -> Result<ExitCode> {
    let entries = read_entries(&args.input)?;
    for e in &entries {
        let (g, hardest) =
            sudoku::grade(&e.grid).map_err(|c| bad_input!("line {}: {c}", e.line))?;
        let hardest = hardest.map(|t| t.name()).unwrap_or("none");
        if args.json.on {
            outln!(
                "{}",
                json!({"line": e.line, "grade": g.name(), "hardest": hardest})
            );
        } else {
            match g {
                sudoku::Grade::Beyond => outln!("{g} (stuck; hardest technique used: {hardest})"),
                _ => outln!("{g} ({hardest})"),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// One solver's figures on one file.
struct Figures {
    solver: &'static str,
    puzzles: usize,
    seconds: f64,
    guesses: Option<u64>,
    no_guess: Option<usize>,
}

fn bench(args: &BenchArgs) -> Result<ExitCode> {
    let limit = if args.first { 1 } else { 2 };
    let mut rows: Vec<(String, Figures)> = Vec::new();
    for file in &args.files {
        let (text, name) = read_text(Some(file))?;
        let entries = sudoku::read_puzzles(&text, ReadOptions::default())
            .map_err(|e| bad_input!("{name}: {e}"))?;
        let label = file
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or(name.clone());
        let classic9: Vec<[u8; 81]> = entries
            .iter()
            .filter_map(|e| {
                e.grid
                    .cells()
                    .try_into()
                    .ok()
                    .filter(|_| e.grid.shape().is_classic())
            })
            .collect();
        let classic = classic9.len() == entries.len();
        #[cfg(feature = "compare-sudoku-crate")]
        let theirs = if classic {
            Some(compare::prepare(&classic9)?)
        } else {
            None
        };
        #[cfg(feature = "compare-sudoku-crate")]
        let mut other = f64::MAX;
        // Rounds alternate between the solvers, so that both see the same machine load.
        let mut best = f64::MAX;
        let (mut guesses, mut no_guess) = (0, 0);
        for _ in 0..args.rounds.max(1) {
            let t = Instant::now();
            (guesses, no_guess) = (0, 0);
            if classic {
                for c in &classic9 {
                    let (_, k) = classic::solve(c, limit, None);
                    guesses += k;
                    no_guess += usize::from(k == 0);
                }
            } else {
                for e in &entries {
                    let k = sudoku::solve(&e.grid, limit).guesses;
                    guesses += k;
                    no_guess += usize::from(k == 0);
                }
            }
            best = best.min(t.elapsed().as_secs_f64());
            #[cfg(feature = "compare-sudoku-crate")]
            if let Some(theirs) = &theirs {
                let t = Instant::now();
                compare::solve_all(theirs, args.first);
                other = other.min(t.elapsed().as_secs_f64());
            }
        }
        rows.push((
            label.clone(),
            Figures {
                solver: "ply",
                puzzles: entries.len(),
                seconds: best,
                guesses: Some(guesses),
                no_guess: Some(no_guess),
            },
        ));
        #[cfg(feature = "compare-sudoku-crate")]
        if theirs.is_some() {
            rows.push((
                label,
                Figures {
                    solver: "sudoku crate",
                    puzzles: entries.len(),
                    seconds: other,
                    guesses: None,
                    no_guess: None,
                },
            ));
        }
    }
    if args.json.on {
        let v: Vec<_> = rows
            .iter()
            .map(|(file, f)| {
                json!({
                    "file": file, "solver": f.solver, "puzzles": f.puzzles, "seconds": f.seconds,
                    "puzzles_per_second": f.puzzles as f64 / f.seconds,
                    "us_per_puzzle": f.seconds * 1e6 / f.puzzles.max(1) as f64,
                    "guesses_per_puzzle": f.guesses.map(|g| g as f64 / f.puzzles.max(1) as f64),
                    "no_guess_fraction": f.no_guess.map(|n| n as f64 / f.puzzles.max(1) as f64),
                })
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "mode: {}; best of {} rounds; one thread",
        if args.first {
            "first solution"
        } else {
            "uniqueness (stop at 2)"
        },
        args.rounds.max(1)
    );
    outln!(
        "| {:<34} | {:<12} | {:>8} | {:>12} | {:>10} | {:>9} | {:>14} |",
        "file",
        "solver",
        "puzzles",
        "puzzles/s",
        "us/puzzle",
        "no guess",
        "guesses/puzzle"
    );
    outln!(
        "|{}|{}|{}|{}|{}|{}|{}|",
        "-".repeat(36),
        "-".repeat(14),
        "-".repeat(9) + ":",
        "-".repeat(13) + ":",
        "-".repeat(11) + ":",
        "-".repeat(10) + ":",
        "-".repeat(15) + ":"
    );
    for (file, f) in &rows {
        let n = f.puzzles.max(1) as f64;
        outln!(
            "| {:<34} | {:<12} | {:>8} | {:>12.0} | {:>10.2} | {:>9} | {:>14} |",
            file,
            f.solver,
            f.puzzles,
            f.puzzles as f64 / f.seconds,
            f.seconds * 1e6 / n,
            f.no_guess
                .map(|x| format!("{:.1}%", 100.0 * x as f64 / n))
                .unwrap_or_else(|| "n/a".into()),
            f.guesses
                .map(|g| format!("{:.2}", g as f64 / n))
                .unwrap_or_else(|| "n/a".into()),
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The `sudoku` crate (JCZSolve ported to Rust), timed on the same puzzles; AGPL-3.0, so it
/// is only linked when the `compare-sudoku-crate` feature asks for it.
#[cfg(feature = "compare-sudoku-crate")]
mod compare {
    use ply_puzzles::sudoku::classic;

    /// The puzzles in the crate's form, after checking that both solvers agree on each.
    pub fn prepare(puzzles: &[[u8; 81]]) -> anyhow::Result<Vec<sudoku::Sudoku>> {
        let theirs: Vec<sudoku::Sudoku> = puzzles
            .iter()
            .map(|p| sudoku::Sudoku::from_bytes(*p).map_err(|e| anyhow::anyhow!("{e:?}")))
            .collect::<Result<_, _>>()?;
        for (p, s) in puzzles.iter().zip(&theirs) {
            let ours = classic::solve(p, 2, None).0 as usize;
            let other = s.solutions_count_up_to(2);
            anyhow::ensure!(
                ours == other,
                "ply and the sudoku crate disagree on a puzzle ({ours} vs {other} solutions)"
            );
        }
        Ok(theirs)
    }

    /// Solves every puzzle as the benchmark asks; returns the solutions found.
    pub fn solve_all(theirs: &[sudoku::Sudoku], first: bool) -> u64 {
        theirs
            .iter()
            .map(|s| {
                if first {
                    u64::from(s.some_solution().is_some())
                } else {
                    s.solutions_count_up_to(2) as u64
                }
            })
            .sum()
    }
}
