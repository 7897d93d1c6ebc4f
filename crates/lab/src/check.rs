//! Correctness check: every algorithm must return the sorted permutation of its input.

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde::Serialize;

use crate::Algorithm;
use crate::inputs::{InputKind, case_seed};

/// What to check.
#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// Array sizes.
    pub sizes: Vec<usize>,
    /// Input kinds.
    pub inputs: Vec<InputKind>,
    /// Algorithms.
    pub algorithms: Vec<Algorithm>,
    /// Seed of the arrays.
    pub seed: u64,
}

/// How an output was wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Fault {
    /// `output[index] > output[index + 1]`.
    NotSorted {
        /// The first position out of order.
        index: usize,
    },
    /// Sorted, but not the input's values with their multiplicities.
    NotPermutation,
    /// The algorithm panicked.
    Panicked,
}

/// One wrong result.
#[derive(Clone, Debug, Serialize)]
pub struct Failure {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The input kind.
    pub input: InputKind,
    /// The array size.
    pub size: usize,
    /// The array's seed ([`InputKind::generate`]).
    pub seed: u64,
    /// What was wrong.
    pub fault: Fault,
}

/// The outcome of a check.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// (algorithm, input, size) cases run.
    pub cases: usize,
    /// The wrong ones.
    pub failures: Vec<Failure>,
}

/// How `output` differs from the sorted permutation of `input`, if it does.
///
/// ```
/// use ply_lab::check::{verify, Fault};
/// assert_eq!(verify(&[3, 1, 2], &[1, 2, 3]), None);
/// assert_eq!(verify(&[3, 1, 2], &[1, 3, 2]), Some(Fault::NotSorted { index: 1 }));
/// assert_eq!(verify(&[3, 1, 2], &[1, 1, 3]), Some(Fault::NotPermutation));
/// ```
pub fn verify(input: &[i64], output: &[i64]) -> Option<Fault> {
    if let Some(index) = output.windows(2).position(|w| w[0] > w[1]) {
        return Some(Fault::NotSorted { index });
    }
    let mut expected = input.to_vec();
    expected.sort_unstable();
    (expected != output).then_some(Fault::NotPermutation)
}

/// Sorts every input with every algorithm and verifies each output.
///
/// An algorithm that panics is reported as [`Fault::Panicked`] (the panic message still goes to
/// the panic hook).
pub fn run(config: &CheckConfig) -> CheckReport {
    let mut report = CheckReport {
        cases: 0,
        failures: Vec::new(),
    };
    for &input in &config.inputs {
        for &size in &config.sizes {
            let seed = case_seed(config.seed, input, size, 0);
            let base = input.generate(size, seed);
            for &algorithm in &config.algorithms {
                let mut output = base.clone();
                report.cases += 1;
                let sorted = catch_unwind(AssertUnwindSafe(|| algorithm.sort(&mut output)));
                let fault = match sorted {
                    Err(_) => Some(Fault::Panicked),
                    Ok(()) => verify(&base, &output),
                };
                if let Some(fault) = fault {
                    report.failures.push(Failure {
                        algorithm,
                        input,
                        size,
                        seed,
                        fault,
                    });
                }
            }
        }
    }
    report
}
