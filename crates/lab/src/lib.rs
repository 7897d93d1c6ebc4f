//! ply's sorting lab: the seed's "stack sort" (seed 003) reproduced faithfully in its three
//! versions, the best version of the same idea (patience sorting), textbook baselines and the
//! standard library's sorts, seeded input generators, and the harness that times them all.
//!
//! The crate is a library: [`bench::run`] and [`check::run`] return reports, [`plot::svg`] and
//! [`bench::BenchReport::csv`] return text; the `ply sort` command prints and writes them.
//! Every algorithm sorts `i64` through [`Algorithm::sort`]; the generic ones also take any
//! `T: Ord + Copy`.

pub mod baselines;
pub mod bench;
pub mod check;
pub mod inputs;
pub mod patience;
pub mod plot;
pub mod stack_sort;

use serde::Serialize;

/// How an algorithm's time grows in its worst case, which decides whether the benchmark caps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Growth {
    /// `O(n log n)` or better on every input: never capped.
    Linearithmic,
    /// `Θ(n²)` on some input: capped where one sort would take too long.
    Quadratic,
}

/// Every sorting algorithm of the lab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Stack sort version 1: our linked list of standard-library stacks.
    StackV1,
    /// Stack sort version 2: our linked list of our own linked-list stacks.
    StackV2,
    /// Stack sort version 3: version 2 hashed by powers of ten.
    StackV3,
    /// Stack sort v3 hashed finer: 10 buckets per power of ten (the seed's "multiples of 10").
    StackHash10,
    /// Stack sort v3 hashed finer: 90 buckets per power of ten (the seed's "multiples of 100").
    StackHash100,
    /// Stack sort v2 removing runs below the second smallest top (the seed's "minimum and
    /// second minimum").
    StackMin2,
    /// Stack sort v2 with the list kept sorted by top (the seed's "linear" remove).
    StackLinear,
    /// Patience sort: binary search over pile tops, heap k-way merge.
    Patience,
    /// Insertion sort.
    Insertion,
    /// Top-down merge sort.
    Merge,
    /// Quicksort, median of three.
    Quick,
    /// Heap sort.
    Heap,
    /// `slice::sort` (stable; driftsort).
    StdSort,
    /// `slice::sort_unstable` (ipnsort).
    StdSortUnstable,
}

impl Algorithm {
    /// Every algorithm, in display order.
    pub const ALL: [Algorithm; 14] = [
        Algorithm::StackV1,
        Algorithm::StackV2,
        Algorithm::StackV3,
        Algorithm::StackHash10,
        Algorithm::StackHash100,
        Algorithm::StackMin2,
        Algorithm::StackLinear,
        Algorithm::Patience,
        Algorithm::Insertion,
        Algorithm::Merge,
        Algorithm::Quick,
        Algorithm::Heap,
        Algorithm::StdSort,
        Algorithm::StdSortUnstable,
    ];

    /// The kebab-case name used on the command line and in files.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::StackV1 => "stack-v1",
            Algorithm::StackV2 => "stack-v2",
            Algorithm::StackV3 => "stack-v3",
            Algorithm::StackHash10 => "stack-hash10",
            Algorithm::StackHash100 => "stack-hash100",
            Algorithm::StackMin2 => "stack-min2",
            Algorithm::StackLinear => "stack-linear",
            Algorithm::Patience => "patience",
            Algorithm::Insertion => "insertion",
            Algorithm::Merge => "merge",
            Algorithm::Quick => "quick",
            Algorithm::Heap => "heap",
            Algorithm::StdSort => "std-sort",
            Algorithm::StdSortUnstable => "std-sort-unstable",
        }
    }

    /// The worst-case growth of the algorithm's time.
    pub fn growth(self) -> Growth {
        match self {
            Algorithm::StackV1
            | Algorithm::StackV2
            | Algorithm::StackV3
            | Algorithm::StackHash10
            | Algorithm::StackHash100
            | Algorithm::StackMin2
            | Algorithm::StackLinear
            | Algorithm::Insertion
            | Algorithm::Quick => Growth::Quadratic,
            _ => Growth::Linearithmic,
        }
    }

    /// Sorts `a` ascending.
    ///
    /// ```
    /// use ply_lab::Algorithm;
    /// for algorithm in Algorithm::ALL {
    ///     let mut a = [5, 3, 8, 4, 6, 10, 7, 8, 5, 5];
    ///     algorithm.sort(&mut a);
    ///     assert_eq!(a, [3, 4, 5, 5, 5, 6, 7, 8, 8, 10], "{algorithm}");
    /// }
    /// ```
    pub fn sort(self, a: &mut [i64]) {
        match self {
            Algorithm::StackV1 => stack_sort::v1(a),
            Algorithm::StackV2 => stack_sort::v2(a),
            Algorithm::StackV3 => stack_sort::v3(a),
            Algorithm::StackHash10 => stack_sort::hashed(a, 1),
            Algorithm::StackHash100 => stack_sort::hashed(a, 2),
            Algorithm::StackMin2 => stack_sort::min2(a),
            Algorithm::StackLinear => stack_sort::linear(a),
            Algorithm::Patience => patience::sort(a),
            Algorithm::Insertion => baselines::insertion(a),
            Algorithm::Merge => baselines::merge(a),
            Algorithm::Quick => baselines::quick(a),
            Algorithm::Heap => baselines::heap(a),
            Algorithm::StdSort => a.sort(),
            Algorithm::StdSortUnstable => a.sort_unstable(),
        }
    }
}

impl std::fmt::Display for Algorithm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not an algorithm of the lab.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown sorting algorithm {name:?}; the algorithms are {}",
    algorithm_names()
)]
pub struct ParseAlgorithmError {
    /// The name given.
    pub name: String,
}

fn algorithm_names() -> String {
    Algorithm::ALL.map(Algorithm::name).join(", ")
}

impl std::str::FromStr for Algorithm {
    type Err = ParseAlgorithmError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name() == s)
            .ok_or_else(|| ParseAlgorithmError { name: s.to_owned() })
    }
}
