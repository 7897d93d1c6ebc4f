//! `ply hanoi solve|bfs|graph|play|bench`: the Tower of Hanoi on any number of pegs.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use num_bigint::BigUint;

use ply_puzzles::hanoi::bfs::Bfs;
use ply_puzzles::hanoi::longest::{MAX_PATH_DISCS, longest_paths};
use ply_puzzles::hanoi::solve::{SolveLimits, longest};
use ply_puzzles::hanoi::text::write_moves;
use ply_puzzles::hanoi::three_peg::BinaryMoves;
use ply_puzzles::hanoi::{Move, Moves, Peg, Position, graph, solve};

use crate::bad_input;

/// Arguments of `ply hanoi`.
#[derive(Debug, Args)]
pub struct HanoiArgs {
    #[command(subcommand)]
    pub command: HanoiCommand,
}

#[derive(Debug, Subcommand)]
pub enum HanoiCommand {
    /// Print a shortest (or best known) solution, one `FROM TO` move per line.
    #[command(after_help = "\
Examples:
  ply hanoi solve --discs 3                      # 7 moves, peg 1 to peg 3
  ply hanoi solve --discs 64 --count             # 18446744073709551615
  ply hanoi solve --discs 6 --pegs 4 --json      # the seed's 17 moves
  ply hanoi solve --discs 4 --from 1113 --to 2222
  ply hanoi solve --discs 4 --from 1213 --to 1111 --longest --count   # 80 3

Positions give one peg (from 1) per disc, largest disc first: with 4 discs `1113` has discs
4, 3, 2 on peg 1 and disc 1 on peg 3 (with 10 or more pegs, separate them by commas).
The summary (length, proven or upper bound, method) goes to stderr.")]
    Solve(SolveArgs),
    /// Breadth-first search of every position: eccentricity, layer sizes, tower distances.
    #[command(after_help = "\
Examples:
  ply hanoi bfs --pegs 4 --discs 12          # prints: eccentricity: 81
  ply hanoi bfs --pegs 4 --discs 15 --layers  # Korf: eccentricity 130, 588 positions

Memory: 2 bits per position (256 MiB for 4 pegs and 15 discs); both cores are used.")]
    Bfs(BfsArgs),
    /// Draw the 3-peg state graph (a Sierpinski triangle) as SVG or Graphviz dot.
    #[command(after_help = "\
Examples:
  ply hanoi graph --discs 3 > hanoi3.svg
  ply hanoi graph --discs 4 --format dot --highlight --from 1111 --to 2323 > h.dot")]
    Graph(GraphArgs),
    /// Play in the terminal: type moves as `FROM TO`.
    #[command(after_help = "\
Example:
  ply hanoi play --discs 4 --pegs 4

Type `1 3` to move the top disc of peg 1 onto peg 3; `hint` shows a best next move,
`quit` stops. The optimal number of moves is shown at the end.")]
    Play(PlayArgs),
    /// Measure how fast the classic solution streams (moves per second into a sink).
    #[command(after_help = "Example:\n  ply hanoi bench --discs 30")]
    Bench(BenchArgs),
    /// The k-th move of the classic 3-peg solution, found directly (seed 002's binary rule).
    #[command(after_help = "\
Examples:
  ply hanoi kth --discs 3 --k 4          # last line: move 4: disc 3 from peg 1 to peg 3
  ply hanoi kth --discs 64 --k 18446744073709551615 --json

The disc moved at step k is the lowest set bit of k (disc 1 the smallest), and disc d moves
2^(n-d) times in all; the pegs follow from how often that disc moved before.")]
    Kth(KthArgs),
    /// The optimal split table of Frame–Stewart (seed 000's getSteps): for each height, the
    /// moves and how many discs park on the extra pegs.
    #[command(after_help = "\
Examples:
  ply hanoi split --pegs 4 --discs 6     # last line: putting => 6:17:3
  ply hanoi split --pegs 5 --discs 10 --json

Lines read `putting => HEIGHT:MOVES:PARKED` as the seed prints them, PARKED the largest
optimal split; `also optimal:` lists the others when there are several.")]
    Split(SplitArgs),
    /// The average distance between two random positions on 3 pegs: exact for small N,
    /// Hinz's formula for any N (seed 000's, with its typo 12/29 read as 12/59).
    #[command(after_help = "\
Examples:
  ply hanoi average --discs 3            # prints: exact: 2838/729 = 3.893004
  ply hanoi average --discs 64 --json")]
    Average(AverageArgs),
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print `{\"discs\", \"exact_sum\", \"pairs\", \"formula\", \"log10\"}`")))]
pub struct AverageArgs {
    /// Number of discs, 1 to 1000000 (exact up to 8).
    #[arg(long)]
    pub discs: usize,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print `{\"k\", \"disc\", \"from\", \"to\", \"disc_moves\"}`")))]
pub struct KthArgs {
    /// Number of discs, 1 to 1000000.
    #[arg(long)]
    pub discs: usize,
    /// The move, from 1 to 2^discs - 1.
    #[arg(long)]
    pub k: BigUint,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print one object per height")))]
pub struct SplitArgs {
    /// Number of pegs, 4 to 64.
    #[arg(long, default_value_t = 4)]
    pub pegs: usize,
    /// The largest height, 1 to 500.
    #[arg(long)]
    pub discs: usize,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print `{\"moves\": N, \"optimal\": \"proven\"|\"upper-bound\", \"path\": [[from,to],...]}`")))]
pub struct SolveArgs {
    /// Number of discs.
    #[arg(long)]
    pub discs: usize,
    /// Number of pegs (at least 3).
    #[arg(long, default_value_t = 3)]
    pub pegs: usize,
    /// Start position (default: all discs on peg 1).
    #[arg(long)]
    pub from: Option<String>,
    /// Goal position (default: all discs on the last peg).
    #[arg(long)]
    pub to: Option<String>,
    /// Print only the number of moves.
    #[arg(long)]
    pub count: bool,
    #[command(flatten)]
    pub json: crate::out::Json,
    /// How each move is written: `moves` (`FROM TO`, pegs from 1) or `words` (`Move disk 1
    /// from A to C`, as seed 002's programs print it).
    #[arg(long, value_enum, default_value = "moves", conflicts_with_all = ["json", "count"])]
    pub format: MoveFormat,
    /// After each move, print every peg's discs (`6,5,4, : 3,2,1, :  : `) and at the end
    /// `N Moves`, as seed 000's Java program does.
    #[arg(long, conflicts_with_all = ["json", "count"])]
    pub show_towers: bool,
    /// Print the second shortest path where two exist (3 pegs).
    #[arg(long)]
    pub second: bool,
    /// Print the longest non-self-crossing solution instead (3 pegs; between two different
    /// towers the 3^n - 1 moves through every position; between any other two positions, up to
    /// 12 discs, every longest path after a `# path I of C: L moves` line, and with --count
    /// `LENGTH COUNT`).
    #[arg(long, conflicts_with = "second")]
    pub longest: bool,
    /// Memory allowed for an exact breadth-first search on 4 or more pegs, in MiB (6 MiB
    /// covers 12 discs on 4 pegs, searched in a second; each further disc takes 4 times more).
    #[arg(long, default_value_t = 6)]
    pub search_mib: u64,
}

/// How `ply hanoi solve` writes a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum MoveFormat {
    /// `FROM TO`, pegs numbered from 1.
    Moves,
    /// `Move disk N from A to B`.
    Words,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct BfsArgs {
    /// Number of pegs (at least 3).
    #[arg(long)]
    pub pegs: usize,
    /// Number of discs.
    #[arg(long)]
    pub discs: usize,
    /// Start position (default: all discs on peg 1).
    #[arg(long)]
    pub from: Option<String>,
    /// Also print the number of positions at every depth.
    #[arg(long)]
    pub layers: bool,
    #[command(flatten)]
    pub json: crate::out::Json,
    /// Memory allowed, in MiB.
    #[arg(long, default_value_t = 16384)]
    pub memory_mib: u64,
}

/// Picture formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum GraphFormat {
    /// An SVG picture in the Sierpinski layout.
    Svg,
    /// Graphviz dot (with fixed positions for `neato -n`).
    Dot,
}

#[derive(Debug, Args)]
pub struct GraphArgs {
    /// Number of discs (at most 8).
    #[arg(long)]
    pub discs: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "svg")]
    pub format: GraphFormat,
    /// Highlight a shortest path from --from to --to.
    #[arg(long)]
    pub highlight: bool,
    /// Start of the highlighted path (default: all on peg 1).
    #[arg(long, requires = "highlight")]
    pub from: Option<String>,
    /// End of the highlighted path (default: all on peg 3).
    #[arg(long, requires = "highlight")]
    pub to: Option<String>,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Number of discs.
    #[arg(long, default_value_t = 3)]
    pub discs: usize,
    /// Number of pegs (at least 3).
    #[arg(long, default_value_t = 3)]
    pub pegs: usize,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Number of discs of the classic 3-peg solution to stream.
    #[arg(long, default_value_t = 30)]
    pub discs: usize,
}

pub fn run(args: &HanoiArgs) -> Result<ExitCode> {
    match &args.command {
        HanoiCommand::Solve(a) => run_solve(a),
        HanoiCommand::Bfs(a) => run_bfs(a),
        HanoiCommand::Graph(a) => run_graph(a),
        HanoiCommand::Play(a) => run_play(a),
        HanoiCommand::Bench(a) => run_bench(a),
        HanoiCommand::Kth(a) => run_kth(a),
        HanoiCommand::Split(a) => run_split(a),
        HanoiCommand::Average(a) => run_average(a),
    }
}

fn check_pegs(pegs: usize) -> Result<()> {
    if pegs < 3 {
        return Err(bad_input!(
            "--pegs {pegs}: the puzzle needs at least 3 pegs; give --pegs 3 or more"
        ));
    }
    if pegs > ply_puzzles::hanoi::position::MAX_PEGS {
        return Err(bad_input!(
            "--pegs {pegs}: at most {} pegs are supported",
            ply_puzzles::hanoi::position::MAX_PEGS
        ));
    }
    Ok(())
}

fn check_discs(discs: usize) -> Result<()> {
    let max = ply_puzzles::hanoi::position::MAX_DISCS;
    if discs > max {
        return Err(bad_input!(
            "--discs {discs}: at most {max} discs are supported (a position holds a peg per disc)"
        ));
    }
    Ok(())
}

/// Reads `--flag`'s position, or the perfect tower on `default`.
fn position(
    flag: &str,
    text: Option<&str>,
    discs: usize,
    pegs: usize,
    default: usize,
) -> Result<Position> {
    match text {
        None => Ok(Position::perfect(discs, pegs, Peg(default as u8))),
        Some(t) => Position::parse(t, discs, pegs).map_err(|e| {
            bad_input!(
                "{flag} {t:?}: column {}: {} (a position gives one peg from 1 to {pegs} per disc, largest disc first, {discs} in all)",
                e.column,
                e.reason
            )
        }),
    }
}

/// Names what failed; a closed pipe (`| head`) is a normal end, told apart in `exit`.
fn moves_written(r: io::Result<()>) -> Result<()> {
    r.context("writing the moves")
}

fn run_solve(a: &SolveArgs) -> Result<ExitCode> {
    check_pegs(a.pegs)?;
    check_discs(a.discs)?;
    if a.second && a.pegs > 3 {
        // Two shortest paths exist only on 3 pegs: say so before any search.
        return Err(bad_input!(
            "--second: two shortest paths exist only on 3 pegs (--pegs 3), when the largest misplaced disc can move once or twice at the same cost"
        ));
    }
    let (n, k) = (a.discs, a.pegs);
    let start = position("--from", a.from.as_deref(), n, k, 0)?;
    let goal = position("--to", a.to.as_deref(), n, k, k - 1)?;
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    if a.longest {
        if k != 3 {
            return Err(bad_input!(
                "--longest is for 3 pegs (--pegs 3): the longest non-self-crossing paths of seed 002"
            ));
        }
        let (Some(s), Some(g)) = (start.perfect_peg(), goal.perfect_peg()) else {
            return run_longest_between(a, &start, &goal, &mut out);
        };
        if s == g {
            return run_longest_between(a, &start, &goal, &mut out);
        }
        let length = BigUint::from(3u32).pow(n as u32) - 1u32;
        tracing::info!(
            "{length} moves: the longest non-self-crossing solution, through every position once"
        );
        moves_written((|| {
            if a.json.on {
                write!(out, "{{\"moves\": {length}, \"longest\": true")?;
                if !a.count {
                    write!(out, ", \"path\": [")?;
                    write_moves(&mut out, longest(n, s, g), true)?;
                    write!(out, "]")?;
                }
                writeln!(out, "}}")?;
            } else if a.count {
                writeln!(out, "{length}")?;
            } else {
                write_moves(&mut out, longest(n, s, g), false)?;
            }
            out.flush()
        })())?;
        return Ok(ExitCode::SUCCESS);
    }
    let limits = SolveLimits {
        bfs_bytes: u128::from(a.search_mib) << 20,
    };
    let solution = solve(&start, &goal, limits).map_err(|e| bad_input!("{e}"))?;
    let which = usize::from(a.second);
    let Some(moves) = solution.path(which) else {
        return Err(bad_input!(
            "--second: this task has only one shortest path (two exist only on 3 pegs, when the largest misplaced disc can move once or twice at the same cost)"
        ));
    };
    let paths = match solution.paths() {
        2 => "; 2 shortest paths (--second prints the other)",
        _ => "",
    };
    // With --count the length is the output: the summary does not repeat it (it has
    // 30,103 digits for 100,000 discs).
    let length = if a.count {
        "the count on stdout".to_string()
    } else {
        format!("{} moves", solution.length)
    };
    tracing::info!(
        "{length}, optimality {} ({}){paths}",
        solution.optimality,
        solution.method
    );
    moves_written((|| {
        if a.json.on {
            write!(
                out,
                "{{\"moves\": {}, \"optimal\": \"{}\"",
                solution.length, solution.optimality
            )?;
            if !a.count {
                write!(out, ", \"path\": [")?;
                write_moves(&mut out, moves, true)?;
                write!(out, "]")?;
            }
            writeln!(out, "}}")?;
        } else if a.count {
            writeln!(out, "{}", solution.length)?;
        } else if a.format == MoveFormat::Words || a.show_towers {
            write_described(&mut out, &start, moves, a.format, a.show_towers)?;
        } else {
            write_moves(&mut out, moves, false)?;
        }
        out.flush()
    })())?;
    Ok(ExitCode::SUCCESS)
}

/// `--longest` between any two positions: every longest non-self-crossing path (seed 002's
/// properties 3 and 4), each after a `# path I of C: L moves` line, or in JSON.
fn run_longest_between(
    a: &SolveArgs,
    start: &Position,
    goal: &Position,
    out: &mut impl Write,
) -> Result<ExitCode> {
    if a.discs > MAX_PATH_DISCS {
        return Err(bad_input!(
            "--longest between positions other than two different towers: at most {MAX_PATH_DISCS} discs (paths of up to 3^{MAX_PATH_DISCS} - 1 moves)"
        ));
    }
    let found = longest_paths(start, goal, 16);
    tracing::info!(
        "{} moves: {} longest non-self-crossing path(s){}",
        found.length,
        found.count,
        if found.count > found.paths.len() as u128 {
            format!(", the first {} printed", found.paths.len())
        } else {
            String::new()
        }
    );
    let total = found.count;
    moves_written((|| {
        if a.json.on {
            write!(
                out,
                "{{\"moves\": {}, \"longest\": true, \"count\": {total}",
                found.length
            )?;
            if !a.count {
                write!(out, ", \"paths\": [")?;
                for (i, path) in found.paths.iter().enumerate() {
                    if i > 0 {
                        write!(out, ",")?;
                    }
                    write!(out, "[")?;
                    write_moves(out, Moves::from_moves(path.clone()), true)?;
                    write!(out, "]")?;
                }
                write!(out, "]")?;
            }
            writeln!(out, "}}")?;
        } else if a.count {
            writeln!(out, "{} {total}", found.length)?;
        } else {
            for (i, path) in found.paths.iter().enumerate() {
                writeln!(out, "# path {} of {total}: {} moves", i + 1, found.length)?;
                let moves = Moves::from_moves(path.clone());
                if a.format == MoveFormat::Words || a.show_towers {
                    write_described(out, start, moves, a.format, a.show_towers)?;
                } else {
                    write_moves(out, moves, false)?;
                }
            }
        }
        out.flush()
    })())?;
    Ok(ExitCode::SUCCESS)
}

/// Writes each move in words and/or the towers after it, as the seeds' programs print them.
fn write_described(
    out: &mut impl Write,
    start: &Position,
    mut moves: Moves,
    format: MoveFormat,
    towers: bool,
) -> io::Result<()> {
    let mut position = start.clone();
    let mut block = vec![Move::new(0, 0); 1 << 10];
    let mut count = 0u64;
    loop {
        let got = moves.fill(&mut block);
        if got == 0 {
            break;
        }
        for &mv in &block[..got] {
            let disc = position
                .play(mv)
                .map_err(|e| io::Error::other(format!("the solver gave an illegal move: {e}")))?;
            if format == MoveFormat::Words {
                writeln!(
                    out,
                    "Move disk {} from {} to {}",
                    disc + 1,
                    mv.from.letter(),
                    mv.to.letter()
                )?;
            }
            if towers {
                writeln!(out, "{}", position.towers_line())?;
            }
            count += 1;
        }
    }
    if towers {
        writeln!(out, "{count} Moves")?;
    }
    Ok(())
}

fn run_bfs(a: &BfsArgs) -> Result<ExitCode> {
    check_pegs(a.pegs)?;
    let (n, k) = (a.discs, a.pegs);
    // The memory check first: it refuses any number of discs too large to search, before
    // a position of that many discs is built.
    let mut bfs = Bfs::new(n, k, u128::from(a.memory_mib) << 20).map_err(|e| {
        bad_input!("{e}; raise --memory-mib or use fewer discs (4 pegs: 15 discs need 256 MiB, 18 discs 16 GiB)")
    })?;
    let start = position("--from", a.from.as_deref(), n, k, 0)?;
    let total = bfs.positions();
    let bar = crate::out::progress(u64::try_from(total).unwrap_or(u64::MAX), "positions");
    let clock = Instant::now();
    let ex = bfs.explore(&start, &mut |depth, seen| {
        bar.set_position(seen);
        bar.set_message(format!("depth {depth}"));
    });
    bar.finish_and_clear();
    let secs = clock.elapsed().as_secs_f64();
    tracing::info!(
        "searched {total} positions of {n} discs on {k} pegs in {secs:.2} s with {} MiB",
        Bfs::memory_needed(n, k) >> 20
    );
    let mut out = io::stdout().lock();
    if a.json.on {
        let v = serde_json::json!({
            "discs": n, "pegs": k, "from": start.to_string(),
            "eccentricity": ex.eccentricity(), "at_eccentricity": ex.at_eccentricity(),
            "tower_distances": ex.tower_distances, "layers": ex.layers, "seconds": secs,
        });
        writeln!(out, "{v}")?;
        return Ok(ExitCode::SUCCESS);
    }
    if a.layers {
        for (d, c) in ex.layers.iter().enumerate() {
            writeln!(out, "depth {d}: {c}")?;
        }
    }
    writeln!(out, "eccentricity: {}", ex.eccentricity())?;
    writeln!(out, "positions at eccentricity: {}", ex.at_eccentricity())?;
    for (p, d) in ex.tower_distances.iter().enumerate() {
        writeln!(out, "distance to the tower on peg {}: {d}", p + 1)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_graph(a: &GraphArgs) -> Result<ExitCode> {
    if a.discs > 8 {
        return Err(bad_input!(
            "--discs {}: the graph has 3^n positions; draw at most 8 discs (6561 positions)",
            a.discs
        ));
    }
    let n = a.discs;
    let path = if a.highlight {
        let start = position("--from", a.from.as_deref(), n, 3, 0)?;
        let goal = position("--to", a.to.as_deref(), n, 3, 2)?;
        let s = solve(&start, &goal, SolveLimits::default()).map_err(|e| bad_input!("{e}"))?;
        Some((start, s.moves().collect::<Vec<_>>()))
    } else {
        None
    };
    let hl = path.as_ref().map(|(s, m)| (s, m.as_slice()));
    let text = match a.format {
        GraphFormat::Svg => graph::svg(n, hl),
        GraphFormat::Dot => graph::dot(n, hl),
    };
    moves_written(io::stdout().lock().write_all(text.as_bytes()))?;
    Ok(ExitCode::SUCCESS)
}

fn run_play(a: &PlayArgs) -> Result<ExitCode> {
    check_pegs(a.pegs)?;
    if a.discs == 0 || a.discs > 12 {
        return Err(bad_input!("--discs {}: play with 1 to 12 discs", a.discs));
    }
    let (n, k) = (a.discs, a.pegs);
    let start = Position::perfect(n, k, Peg(0));
    let goal = Position::perfect(n, k, Peg(k as u8 - 1));
    let limits = SolveLimits::default();
    let best = solve(&start, &goal, limits).map_err(|e| bad_input!("{e}"))?;
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "Tower of Hanoi, {n} discs, {k} pegs: move every disc from peg 1 to peg {k}.\n\
A disc may only go onto an empty peg or a larger disc. Type `FROM TO` (e.g. `1 {k}`), \
`hint`, or `quit`."
    )?;
    let mut cur = start;
    let mut played = 0u64;
    let stdin = io::stdin();
    let mut lines = crate::input::lines(stdin.lock(), "stdin");
    while cur != goal {
        writeln!(out, "\n{}\n", cur.diagram())?;
        write!(out, "move {}: ", played + 1)?;
        out.flush()?;
        let Some(line) = lines.next() else {
            writeln!(
                out,
                "\nInput ended; puzzle left unfinished after {played} moves."
            )?;
            return Ok(ExitCode::SUCCESS);
        };
        let line = line.context("reading your move")?;
        let text = line.trim();
        match text {
            "" => continue,
            "quit" | "q" | "exit" => {
                writeln!(out, "Stopped after {played} moves.")?;
                return Ok(ExitCode::SUCCESS);
            }
            "hint" | "help" | "?" => {
                let s = solve(&cur, &goal, limits).map_err(|e| bad_input!("{e}"))?;
                match s.moves().next() {
                    Some(mv) => writeln!(
                        out,
                        "Hint: {mv} ({} moves left at best, {})",
                        s.length, s.optimality
                    )?,
                    None => writeln!(out, "Already solved.")?,
                }
                continue;
            }
            _ => {}
        }
        let nums: Vec<&str> = text.split_whitespace().collect();
        let parsed: Option<Vec<usize>> = nums.iter().map(|t| t.parse().ok()).collect();
        let mv = match parsed.as_deref() {
            Some([f, t]) if (1..=k).contains(f) && (1..=k).contains(t) => {
                Move::new((*f - 1) as u8, (*t - 1) as u8)
            }
            Some([_, _]) => {
                writeln!(out, "Pegs are numbered 1 to {k}.")?;
                continue;
            }
            _ => {
                writeln!(out, "Type two peg numbers, FROM TO, like `1 {k}`.")?;
                continue;
            }
        };
        match cur.play(mv) {
            Ok(_) => played += 1,
            Err(e) => writeln!(out, "Not allowed: {}.", e.reason)?,
        }
    }
    writeln!(out, "\n{}\n", cur.diagram())?;
    writeln!(
        out,
        "Solved in {played} moves. The optimum is {} ({}{}).",
        best.length,
        best.optimality,
        if BigUint::from(played) == best.length {
            ": you found it"
        } else {
            ""
        }
    )?;
    Ok(ExitCode::SUCCESS)
}

fn run_bench(a: &BenchArgs) -> Result<ExitCode> {
    if a.discs > 40 {
        return Err(bad_input!(
            "--discs {}: 2^n - 1 moves; benchmark at most 40 discs",
            a.discs
        ));
    }
    let n = a.discs;
    let mut out = io::stdout().lock();
    // Every move goes into a count and a checksum, so that none can be optimised away and
    // the four ways can be compared.
    let step = |(c, h): (u64, u64), mv: &Move| {
        (c + 1, h.rotate_left(5) ^ u64::from(mv.from.0 * 8 + mv.to.0))
    };
    let blocks = |fill: &mut dyn FnMut(&mut [Move]) -> usize| {
        let mut buf = vec![Move::new(0, 0); 1 << 14];
        let mut acc = (0, 0);
        loop {
            let got = fill(&mut buf);
            if got == 0 {
                return acc;
            }
            acc = buf[..got].iter().fold(acc, step);
        }
    };
    let start = Position::perfect(n, 3, Peg(0));
    let goal = Position::perfect(n, 3, Peg(2));
    let s = solve(&start, &goal, SolveLimits::default()).map_err(|e| bad_input!("{e}"))?;
    let binary = || BinaryMoves::new(n, Peg(0), Peg(2), Peg(1));
    /// A way to stream the solution, giving its count and checksum.
    type Way<'a> = &'a dyn Fn() -> (u64, u64);
    let ways: [(&str, Way); 4] = [
        ("binary iterator", &|| {
            binary().fold((0, 0), |acc, mv| step(acc, &mv))
        }),
        ("binary fill", &|| {
            let mut it = binary();
            blocks(&mut |buf| it.fill(buf))
        }),
        ("solve() iterator", &|| {
            s.moves().fold((0, 0), |acc, mv| step(acc, &mv))
        }),
        ("solve() fill", &|| {
            let mut it = s.moves();
            blocks(&mut |buf| it.fill(buf))
        }),
    ];
    let mut first = None;
    for (name, way) in ways {
        let clock = Instant::now();
        let (count, hash) = way();
        let secs = clock.elapsed().as_secs_f64();
        writeln!(
            out,
            "{name:16}: {count} moves of {n} discs in {secs:.3} s: {:.0} million moves/s (checksum {hash:x})",
            count as f64 / secs / 1e6
        )?;
        if *first.get_or_insert((count, hash)) != (count, hash) {
            anyhow::bail!("{name} disagrees with the binary iterator");
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_kth(a: &KthArgs) -> Result<ExitCode> {
    check_discs(a.discs)?;
    if a.discs == 0 {
        return Err(bad_input!(
            "--discs 0: there is no move; give 1 or more discs"
        ));
    }
    let (from, to, via) = (Peg(0), Peg(2), Peg(1));
    let Some((disc, mv)) = ply_puzzles::hanoi::three_peg::kth_move(a.discs, from, to, via, &a.k)
    else {
        return Err(bad_input!(
            "--k {}: the {}-disc solution has moves 1 to 2^{} - 1",
            a.k,
            a.discs,
            a.discs
        ));
    };
    // Disc d (from 1) moves 2^(n - d) times in the whole solution.
    let disc_moves = BigUint::from(1u32) << (a.discs - disc - 1);
    if a.json.on {
        outln!(
            "{}",
            serde_json::json!({
                "k": a.k.to_string(), "disc": disc + 1, "from": mv.from.0 + 1, "to": mv.to.0 + 1,
                "disc_moves": disc_moves.to_string(),
            })
        );
    } else {
        let times = if disc_moves == BigUint::from(1u32) {
            "once".to_string()
        } else {
            format!("{disc_moves} times")
        };
        outln!(
            "disc {} (the lowest set bit of k) moves {times} in all",
            disc + 1
        );
        outln!(
            "move {}: disc {} from peg {} to peg {}",
            a.k,
            disc + 1,
            mv.from,
            mv.to
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn run_split(a: &SplitArgs) -> Result<ExitCode> {
    if !(4..=ply_puzzles::hanoi::position::MAX_PEGS).contains(&a.pegs) {
        return Err(bad_input!(
            "--pegs {}: the split table is for 4 to {} pegs (3 pegs have no choice)",
            a.pegs,
            ply_puzzles::hanoi::position::MAX_PEGS
        ));
    }
    if !(1..=500).contains(&a.discs) {
        return Err(bad_input!(
            "--discs {}: give a height from 1 to 500",
            a.discs
        ));
    }
    for h in 1..=a.discs {
        let splits = ply_puzzles::hanoi::frame_stewart::optimal_splits(h, a.pegs);
        let moves = ply_puzzles::hanoi::frame_stewart::frame_stewart(h, a.pegs);
        let parked = *splits.last().expect("a height of 1 or more has a split");
        let others: Vec<usize> = splits[..splits.len() - 1].to_vec();
        if a.json.on {
            outln!(
                "{}",
                serde_json::json!({
                    "height": h, "moves": moves.to_string(), "parked": parked, "optimal_splits": splits,
                })
            );
        } else if others.is_empty() {
            outln!("putting => {h}:{moves}:{parked}");
        } else {
            let others: Vec<String> = others.iter().map(usize::to_string).collect();
            outln!(
                "putting => {h}:{moves}:{parked}  also optimal: {}",
                others.join(", ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_average(a: &AverageArgs) -> Result<ExitCode> {
    use ply_puzzles::hanoi::three_peg::{average_distance, average_distance_log10, distance_sum};
    check_discs(a.discs)?;
    if a.discs == 0 {
        return Err(bad_input!("--discs 0: give 1 or more discs"));
    }
    let n = a.discs;
    let exact = distance_sum(n);
    let formula = average_distance(n);
    let log10 = average_distance_log10(n);
    if a.json.on {
        outln!(
            "{}",
            serde_json::json!({
                "discs": n,
                "exact_sum": exact.map(|(s, _)| s.to_string()),
                "pairs": exact.map(|(_, p)| p.to_string()),
                "formula": formula.is_finite().then_some(formula),
                "log10": log10,
            })
        );
        return Ok(ExitCode::SUCCESS);
    }
    match exact {
        Some((sum, pairs)) => outln!("exact: {sum}/{pairs} = {:.6}", sum as f64 / pairs as f64),
        None => outln!(
            "exact: not computed above {} discs (9^n pairs)",
            ply_puzzles::hanoi::three_peg::MAX_EXACT_AVERAGE_DISCS
        ),
    }
    if formula.is_finite() {
        outln!("Hinz's formula: {formula:.6}");
    } else {
        let exponent = log10.floor();
        outln!(
            "Hinz's formula: about {:.6}e{exponent} (466/885 * 2^{n})",
            10f64.powf(log10 - exponent)
        );
    }
    Ok(ExitCode::SUCCESS)
}
