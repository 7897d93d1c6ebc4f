//! The benchmark: every algorithm on the same seeded arrays, growing sizes, repeated runs.
//!
//! Time is the calling thread's CPU time where the system has that clock (Unix: the machine
//! this lab runs on is shared, and time spent waiting for a core is not the sort's), wall time
//! elsewhere; [`BenchReport::clock`] says which, and the wall time is kept too.
//!
//! For each input kind, size and run one array is generated; every algorithm sorts its own copy
//! of it, and its result is compared with the standard library's. Arrays too small to time
//! reliably are sorted in batches of copies (at least [`MIN_BATCH`] values per timed batch) and
//! the time divided. The figure kept per run is the time of one sort; a measurement reports the
//! median, mean and minimum over the runs, per element.
//!
//! Algorithms of [`Growth::Quadratic`] are *capped*: after each size, the time of one sort at
//! the next size is predicted as `t · (next/size)^e`, with `t` the fastest run and `e` the growth exponent measured over
//! the last two sizes (both at least 1000 values, clamped to `1..=2`; `2` before that), and the
//! algorithm is skipped for this input from the first size predicted to exceed the budget.

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::inputs::{InputKind, case_seed};
use crate::{Algorithm, Growth};

/// Which clock the figures come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Clock {
    /// CPU time of the measuring thread (`CLOCK_THREAD_CPUTIME_ID`).
    ThreadCpu,
    /// Wall time ([`Instant`]).
    Wall,
}

/// Reads the thread's CPU clock, if the system has one.
fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        // rustix (already the referee's) rather than nix: one syscall crate in the tree.
        let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        let secs = u64::try_from(t.tv_sec).ok()?;
        let nanos = u32::try_from(t.tv_nsec).ok()?;
        Some(Duration::new(secs, nanos))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The clock [`run`] will use on this system.
pub fn clock() -> Clock {
    if thread_cpu_time().is_some() {
        Clock::ThreadCpu
    } else {
        Clock::Wall
    }
}

/// The fewest values one timed batch sorts.
pub const MIN_BATCH: usize = 16_384;

/// What to measure.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    /// Array sizes (sorted and deduplicated by [`run`]).
    pub sizes: Vec<usize>,
    /// Arrays per input kind and size.
    pub runs: u32,
    /// The input kinds.
    pub inputs: Vec<InputKind>,
    /// The algorithms.
    pub algorithms: Vec<Algorithm>,
    /// Seed of the arrays.
    pub seed: u64,
    /// Quadratic algorithms are skipped where one sort is predicted to take longer than this.
    pub max_sort: Duration,
}

impl BenchConfig {
    /// How many (input, size, run, algorithm) steps [`run`] reports.
    pub fn steps(&self) -> u64 {
        let mut sizes = self.sizes.clone();
        sizes.sort_unstable();
        sizes.dedup();
        (self.inputs.len() * sizes.len() * self.algorithms.len()) as u64 * u64::from(self.runs)
    }
}

/// The time of one algorithm on one input kind and size.
#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The input kind.
    pub input: InputKind,
    /// The array size.
    pub size: usize,
    /// Arrays measured.
    pub runs: u32,
    /// Copies sorted per timed batch.
    pub reps: usize,
    /// Median over the runs of the time of one sort, per element, in nanoseconds.
    pub median_ns_per_elem: f64,
    /// Mean over the runs, per element, in nanoseconds.
    pub mean_ns_per_elem: f64,
    /// Fastest run, per element, in nanoseconds.
    pub min_ns_per_elem: f64,
    /// Fastest run by the wall clock, per element, in nanoseconds.
    pub min_wall_ns_per_elem: f64,
}

/// A quadratic algorithm skipped from `from_size` upwards on one input kind.
#[derive(Clone, Debug, Serialize)]
pub struct Cap {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The input kind.
    pub input: InputKind,
    /// The first size not measured.
    pub from_size: usize,
    /// Predicted seconds of one sort at `from_size`.
    pub predicted_secs: f64,
    /// The growth exponent used for the prediction.
    pub exponent: f64,
}

/// Everything a benchmark run measured.
#[derive(Clone, Debug, Serialize)]
pub struct BenchReport {
    /// Seed of the arrays.
    pub seed: u64,
    /// Arrays per input kind and size.
    pub runs: u32,
    /// Sizes, ascending.
    pub sizes: Vec<usize>,
    /// Input kinds.
    pub inputs: Vec<InputKind>,
    /// Algorithms.
    pub algorithms: Vec<Algorithm>,
    /// The cap's budget for one sort, in seconds.
    pub max_sort_secs: f64,
    /// The clock of the `*_ns_per_elem` figures other than the wall ones.
    pub clock: Clock,
    /// One entry per algorithm, input and size measured.
    pub measurements: Vec<Measurement>,
    /// The caps applied.
    pub caps: Vec<Cap>,
}

/// One finished (input, size, run, algorithm) step, for progress reports.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// The input kind.
    pub input: InputKind,
    /// The array size.
    pub size: usize,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Whether it was skipped by a cap.
    pub capped: bool,
}

/// An algorithm returned something other than the sorted input.
#[derive(Debug, thiserror::Error)]
#[error("{algorithm} returned a wrong result on {input} input of {size} values (seed {seed})")]
pub struct RunBenchError {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The input kind.
    pub input: InputKind,
    /// The array size.
    pub size: usize,
    /// The seed of the array ([`InputKind::generate`]).
    pub seed: u64,
}

/// Runs the benchmark, calling `on_step` after every step.
///
/// # Errors
/// [`RunBenchError`] if an algorithm's output differs from the standard library's.
pub fn run(
    config: &BenchConfig,
    mut on_step: impl FnMut(Step),
) -> Result<BenchReport, RunBenchError> {
    let mut sizes = config.sizes.clone();
    sizes.sort_unstable();
    sizes.dedup();
    let mut measurements = Vec::new();
    let mut caps: Vec<Cap> = Vec::new();
    let clock = clock();
    let now = || match clock {
        Clock::ThreadCpu => thread_cpu_time().unwrap_or_default(),
        Clock::Wall => Duration::ZERO,
    };
    for &input in &config.inputs {
        for (size_index, &size) in sizes.iter().enumerate() {
            let active =
                |a: &Algorithm| !caps.iter().any(|c| c.algorithm == *a && c.input == input);
            let live: Vec<Algorithm> = config.algorithms.iter().copied().filter(active).collect();
            let reps = MIN_BATCH.div_ceil(size.max(1));
            let mut times: Vec<Vec<f64>> = vec![Vec::new(); live.len()];
            let mut wall_times: Vec<Vec<f64>> = vec![Vec::new(); live.len()];
            for run in 0..config.runs {
                let seed = case_seed(config.seed, input, size, run);
                let base = input.generate(size, seed);
                let mut expected = base.clone();
                expected.sort_unstable();
                for (k, &algorithm) in live.iter().enumerate() {
                    let mut copies = vec![base.clone(); reps];
                    let (start, cpu_start) = (Instant::now(), now());
                    for copy in &mut copies {
                        algorithm.sort(std::hint::black_box(copy));
                    }
                    let (cpu_end, wall) = (now(), start.elapsed());
                    let elapsed = match clock {
                        Clock::ThreadCpu => cpu_end.saturating_sub(cpu_start),
                        Clock::Wall => wall,
                    };
                    if copies.iter().any(|c| *c != expected) {
                        return Err(RunBenchError {
                            algorithm,
                            input,
                            size,
                            seed,
                        });
                    }
                    times[k].push(elapsed.as_secs_f64() / reps as f64);
                    wall_times[k].push(wall.as_secs_f64() / reps as f64);
                    on_step(Step {
                        input,
                        size,
                        algorithm,
                        capped: false,
                    });
                }
                for &algorithm in config.algorithms.iter().filter(|a| !live.contains(a)) {
                    on_step(Step {
                        input,
                        size,
                        algorithm,
                        capped: true,
                    });
                }
            }
            for (k, &algorithm) in live.iter().enumerate() {
                let Some(mut m) = summarise(algorithm, input, size, config.runs, reps, &times[k])
                else {
                    continue;
                };
                let fastest_wall = wall_times[k].iter().copied().fold(f64::INFINITY, f64::min);
                m.min_wall_ns_per_elem = fastest_wall * 1e9 / size.max(1) as f64;
                if let (Growth::Quadratic, Some(&next)) =
                    (algorithm.growth(), sizes.get(size_index + 1))
                {
                    let previous = measurements
                        .iter()
                        .rev()
                        .find(|p: &&Measurement| p.algorithm == algorithm && p.input == input);
                    let exponent = growth_exponent(previous, &m);
                    let secs = m.min_ns_per_elem * size as f64 * 1e-9;
                    let predicted = secs * (next as f64 / size as f64).powf(exponent);
                    if predicted > config.max_sort.as_secs_f64() {
                        caps.push(Cap {
                            algorithm,
                            input,
                            from_size: next,
                            predicted_secs: predicted,
                            exponent,
                        });
                    }
                }
                measurements.push(m);
            }
        }
    }
    Ok(BenchReport {
        seed: config.seed,
        runs: config.runs,
        sizes,
        inputs: config.inputs.clone(),
        algorithms: config.algorithms.clone(),
        max_sort_secs: config.max_sort.as_secs_f64(),
        clock,
        measurements,
        caps,
    })
}

fn summarise(
    algorithm: Algorithm,
    input: InputKind,
    size: usize,
    runs: u32,
    reps: usize,
    secs: &[f64],
) -> Option<Measurement> {
    if secs.is_empty() {
        return None;
    }
    let mut sorted = secs.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    let median = if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    };
    let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    let per_elem = |s: f64| s * 1e9 / size.max(1) as f64;
    Some(Measurement {
        algorithm,
        input,
        size,
        runs,
        reps,
        median_ns_per_elem: per_elem(median),
        mean_ns_per_elem: per_elem(mean),
        min_ns_per_elem: per_elem(sorted[0]),
        min_wall_ns_per_elem: f64::NAN,
    })
}

/// The exponent `e` of `time ∝ size^e` between two measurements, clamped to `1..=2`; `2` when
/// there is no earlier measurement or either size is under 1000 (too noisy to extrapolate).
fn growth_exponent(previous: Option<&Measurement>, current: &Measurement) -> f64 {
    let Some(p) = previous else { return 2.0 };
    if p.size < 1000 || current.size <= p.size {
        return 2.0;
    }
    let t = |m: &Measurement| m.min_ns_per_elem * m.size as f64;
    let e = (t(current) / t(p)).ln() / (current.size as f64 / p.size as f64).ln();
    if e.is_finite() {
        e.clamp(1.0, 2.0)
    } else {
        2.0
    }
}

impl BenchReport {
    /// The measurement of `algorithm` on `input` at `size`, if taken.
    pub fn measurement(
        &self,
        algorithm: Algorithm,
        input: InputKind,
        size: usize,
    ) -> Option<&Measurement> {
        self.measurements
            .iter()
            .find(|m| m.algorithm == algorithm && m.input == input && m.size == size)
    }

    /// The cap of `algorithm` on `input`, if any.
    pub fn cap(&self, algorithm: Algorithm, input: InputKind) -> Option<&Cap> {
        self.caps
            .iter()
            .find(|c| c.algorithm == algorithm && c.input == input)
    }

    /// The report as CSV: one row per measurement, then one `capped` row per cap.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "algorithm,input,size,status,runs,reps,median_ns_per_elem,mean_ns_per_elem,\
             min_ns_per_elem,min_wall_ns_per_elem,predicted_secs\n",
        );
        for m in &self.measurements {
            out.push_str(&format!(
                "{},{},{},measured,{},{},{:.3},{:.3},{:.3},{:.3},\n",
                m.algorithm,
                m.input,
                m.size,
                m.runs,
                m.reps,
                m.median_ns_per_elem,
                m.mean_ns_per_elem,
                m.min_ns_per_elem,
                m.min_wall_ns_per_elem
            ));
        }
        for c in &self.caps {
            out.push_str(&format!(
                "{},{},{},capped,,,,,,,{:.3}\n",
                c.algorithm, c.input, c.from_size, c.predicted_secs
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(algorithms: Vec<Algorithm>, sizes: Vec<usize>, max_sort: Duration) -> BenchConfig {
        BenchConfig {
            sizes,
            runs: 2,
            inputs: vec![InputKind::Random, InputKind::Sorted],
            algorithms,
            seed: 1,
            max_sort,
        }
    }

    #[test]
    fn every_step_is_reported_and_every_pair_measured() {
        let c = config(
            Algorithm::ALL.to_vec(),
            vec![100, 10, 100],
            Duration::from_secs(60),
        );
        let mut steps = 0;
        let report = run(&c, |_| steps += 1).unwrap();
        assert_eq!(steps, c.steps());
        let algorithms = Algorithm::ALL.len();
        assert_eq!(steps, 2 * 2 * algorithms as u64 * 2);
        assert_eq!(report.sizes, [10, 100]);
        assert_eq!(report.measurements.len(), 2 * 2 * algorithms);
        assert!(report.caps.is_empty());
        assert!(report.measurements.iter().all(|m| m.min_ns_per_elem > 0.0
            && m.min_ns_per_elem <= m.mean_ns_per_elem
            && m.reps == MIN_BATCH.div_ceil(m.size)));
        let csv = report.csv();
        assert_eq!(csv.lines().count(), 1 + 4 * algorithms);
    }

    #[test]
    fn quadratic_algorithms_are_capped_and_linearithmic_never() {
        let c = config(
            vec![Algorithm::Insertion, Algorithm::Heap],
            vec![10, 100, 1000],
            Duration::ZERO,
        );
        let mut capped_steps = 0;
        let report = run(&c, |s| capped_steps += usize::from(s.capped)).unwrap();
        // Any positive time exceeds a zero budget: insertion runs at size 10 only.
        assert_eq!(report.caps.len(), 2);
        assert!(
            report
                .caps
                .iter()
                .all(|c| c.algorithm == Algorithm::Insertion
                    && c.from_size == 100
                    && c.exponent == 2.0)
        );
        assert_eq!(capped_steps, 2 * 2 * 2);
        assert!(
            report
                .measurement(Algorithm::Insertion, InputKind::Random, 100)
                .is_none()
        );
        assert!(
            report
                .measurement(Algorithm::Heap, InputKind::Sorted, 1000)
                .is_some()
        );
        assert!(report.csv().contains("insertion,sorted,100,capped"));
    }

    #[test]
    fn growth_exponent_recovers_a_power_law() {
        let m = |size: usize, total_ns: f64| Measurement {
            algorithm: Algorithm::Insertion,
            input: InputKind::Random,
            size,
            runs: 1,
            reps: 1,
            median_ns_per_elem: 0.0,
            mean_ns_per_elem: 0.0,
            min_ns_per_elem: total_ns / size as f64,
            min_wall_ns_per_elem: 0.0,
        };
        let e = growth_exponent(Some(&m(1000, 1e6)), &m(10_000, 1e6 * 10f64.powf(1.5)));
        assert!((e - 1.5).abs() < 1e-9);
        assert_eq!(growth_exponent(Some(&m(100, 1.0)), &m(1000, 1e6)), 2.0);
        assert_eq!(growth_exponent(Some(&m(1000, 1e6)), &m(10_000, 1e12)), 2.0);
        assert_eq!(growth_exponent(None, &m(1000, 1.0)), 2.0);
    }
}
