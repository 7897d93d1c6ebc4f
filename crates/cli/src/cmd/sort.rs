//! `ply sort bench|check`: the sorting lab (crate `ply-lab`) from the command line.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use ply_lab::Algorithm;
use ply_lab::bench::{BenchConfig, BenchReport, Clock};
use ply_lab::check::CheckConfig;
use ply_lab::inputs::InputKind;

use crate::bad_input;

/// Sizes above this would need several gigabytes for the copies the benchmark keeps.
const MAX_SIZE: usize = 100_000_000;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply sort check                 # every algorithm, every input kind, n up to 10^4\n  \
ply sort bench --sizes 100,10000 --runs 3 --out /tmp/sort  # table, CSV and SVG plots\n\n\
See docs/sorting.md for what the measurements show.")]
pub struct SortArgs {
    #[command(subcommand)]
    pub command: SortCommand,
}

#[derive(Debug, Subcommand)]
pub enum SortCommand {
    /// Time every algorithm on the same seeded arrays; write a CSV and SVG plots, print a table.
    #[command(after_help = "Example:\n  \
ply sort bench --sizes 10,100,1000,10000,100000 --runs 5 --inputs random,sorted --out target/sort\n\n\
Algorithms that are quadratic on some input (the stack sorts, insertion, quick) are skipped at\n\
the sizes where one sort is predicted to take longer than --max-sort-ms; the table and the plot\n\
say where. Algorithms: stack-v1, stack-v2, stack-v3, stack-hash10, stack-hash100, stack-min2,\n\
stack-linear, patience, insertion, merge, quick, heap,\n\
std-sort, std-sort-unstable.")]
    Bench(BenchArgs),
    /// Run every algorithm on every input and verify it returns the sorted permutation.
    #[command(
        after_help = "Example:\n  ply sort check --sizes 0,1,2,10,1000 --inputs random,few-unique"
    )]
    Check(CheckArgs),
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print the whole report as JSON on stdout instead of tables")))]
pub struct BenchArgs {
    /// Array sizes, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "10,100,1000,10000,100000,1000000"
    )]
    pub sizes: Vec<usize>,
    /// Arrays per input kind and size; the table and plot show the fastest run, the CSV also the
    /// median and mean.
    #[arg(long, default_value_t = 5)]
    pub runs: u32,
    /// Input kinds, comma-separated: random, sorted, reversed, few-unique, sawtooth.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,sorted,reversed,few-unique,sawtooth"
    )]
    pub inputs: Vec<InputKind>,
    /// Algorithms, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub algorithms: Vec<Algorithm>,
    /// Seed of the arrays.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Directory for sort-bench.csv and one sort-<input>.svg per input kind.
    #[arg(long, default_value = "sort-bench")]
    pub out: std::path::PathBuf,
    /// Skip a quadratic algorithm where one sort is predicted to take longer than this.
    #[arg(long, default_value_t = 1000)]
    pub max_sort_ms: u64,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct CheckArgs {
    /// Array sizes, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0,1,2,3,10,100,1000,10000"
    )]
    pub sizes: Vec<usize>,
    /// Input kinds, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "random,sorted,reversed,few-unique,sawtooth"
    )]
    pub inputs: Vec<InputKind>,
    /// Algorithms, comma-separated (default: all).
    #[arg(long, value_delimiter = ',')]
    pub algorithms: Vec<Algorithm>,
    /// Seed of the arrays.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &SortArgs) -> Result<ExitCode> {
    match &args.command {
        SortCommand::Bench(a) => bench(a),
        SortCommand::Check(a) => check(a),
    }
}

fn algorithms(chosen: &[Algorithm]) -> Vec<Algorithm> {
    if chosen.is_empty() {
        Algorithm::ALL.to_vec()
    } else {
        chosen.to_vec()
    }
}

fn bench(args: &BenchArgs) -> Result<ExitCode> {
    if args.runs == 0 {
        return Err(bad_input!("--runs 0: give at least one run"));
    }
    if let Some(bad) = args.sizes.iter().find(|&&n| n == 0 || n > MAX_SIZE) {
        return Err(bad_input!(
            "--sizes: {bad} is out of range; sizes go from 1 to {MAX_SIZE}"
        ));
    }
    let config = BenchConfig {
        sizes: args.sizes.clone(),
        runs: args.runs,
        inputs: args.inputs.clone(),
        algorithms: algorithms(&args.algorithms),
        seed: args.seed,
        max_sort: Duration::from_millis(args.max_sort_ms),
    };
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating the output directory {}", args.out.display()))?;

    let bar = crate::out::progress(config.steps(), "runs");
    let report = ply_lab::bench::run(&config, |step| {
        bar.set_message(format!("{} n={} {}", step.input, step.size, step.algorithm));
        bar.inc(1);
    })?;
    bar.finish_and_clear();

    let written = write_files(&report, &args.out)?;
    if args.json.on {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", tables(&report));
        for path in &written {
            outln!("wrote {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn write_files(report: &BenchReport, out: &Path) -> Result<Vec<std::path::PathBuf>> {
    let mut written = Vec::new();
    let csv = out.join("sort-bench.csv");
    std::fs::write(&csv, report.csv()).with_context(|| format!("writing {}", csv.display()))?;
    written.push(csv);
    for &input in &report.inputs {
        if let Some(svg) = ply_lab::plot::svg(report, input) {
            let path = out.join(format!("sort-{input}.svg"));
            std::fs::write(&path, svg).with_context(|| format!("writing {}", path.display()))?;
            written.push(path);
        }
    }
    Ok(written)
}

/// One table per input kind: algorithms down, sizes across, nanoseconds per element (fastest run).
fn tables(report: &BenchReport) -> String {
    let mut s = String::new();
    let width = 10;
    for &input in &report.inputs {
        let _ = writeln!(
            s,
            "{input}: ns per element ({}), fastest of {} runs (seed {})",
            clock_name(report.clock),
            report.runs,
            report.seed
        );
        let _ = write!(s, "{:<18}", "algorithm");
        for n in &report.sizes {
            let _ = write!(s, "{n:>width$}");
        }
        s.push('\n');
        for &algorithm in &report.algorithms {
            let _ = write!(s, "{:<18}", algorithm.name());
            for &n in &report.sizes {
                let cell = match report.measurement(algorithm, input, n) {
                    Some(m) => significant(m.min_ns_per_elem),
                    None if report.cap(algorithm, input).is_some() => "capped".to_owned(),
                    None => "-".to_owned(),
                };
                let _ = write!(s, "{cell:>width$}");
            }
            s.push('\n');
        }
        for cap in report.caps.iter().filter(|c| c.input == input) {
            let _ = writeln!(
                s,
                "  {} capped from n = {}: one sort predicted to take {} ms (growth n^{:.2}) > {} ms",
                cap.algorithm,
                cap.from_size,
                significant(cap.predicted_secs * 1e3),
                cap.exponent,
                significant(report.max_sort_secs * 1e3)
            );
        }
        s.push('\n');
    }
    s
}

fn clock_name(clock: Clock) -> &'static str {
    match clock {
        Clock::ThreadCpu => "thread CPU time",
        Clock::Wall => "wall time",
    }
}

/// Three significant figures, without exponent notation.
fn significant(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn check(args: &CheckArgs) -> Result<ExitCode> {
    if let Some(bad) = args.sizes.iter().find(|&&n| n > MAX_SIZE) {
        return Err(bad_input!(
            "--sizes: {bad} is out of range; sizes go from 0 to {MAX_SIZE}"
        ));
    }
    let config = CheckConfig {
        sizes: args.sizes.clone(),
        inputs: args.inputs.clone(),
        algorithms: algorithms(&args.algorithms),
        seed: args.seed,
    };
    let report = ply_lab::check::run(&config);
    if args.json.on {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for f in &report.failures {
            outln!(
                "FAIL {} on {} input of {} values (seed {}): {:?}",
                f.algorithm,
                f.input,
                f.size,
                f.seed,
                f.fault
            );
        }
        outln!(
            "{} of {} cases sorted correctly ({} algorithms x {} inputs x {} sizes)",
            report.cases - report.failures.len(),
            report.cases,
            config.algorithms.len(),
            config.inputs.len(),
            config.sizes.len()
        );
    }
    Ok(if report.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
