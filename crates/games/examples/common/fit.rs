//! The `fit` step of the fitting examples, for either board: read the labelled records,
//! split off the held-out ones, fit each phase by ridge regression on its positions and
//! those within `overlap` discs of it, print the error table and return the weights in
//! 1/100 disc units. Included by `#[path]`, not an example.

use std::time::Instant;

use ply_games::reversi::fit::{SparseRows, ridge};

use super::options::Options;

/// A board's side of the fit: its records and features.
pub struct Board<P> {
    /// Bytes of a record: own discs, other discs, label (i8).
    pub record: usize,
    /// The position of a record's first `record - 1` bytes.
    pub parse: fn(&[u8]) -> P,
    /// Discs on the board of a position.
    pub discs: fn(&P) -> u32,
    /// Cells on the board (the last phase ends there).
    pub cells: u32,
    /// Phases, and discs per phase from 4 on.
    pub phases: usize,
    pub discs_per_phase: u32,
    /// Weights per phase.
    pub per_phase: usize,
    /// The weights a position's features touch within its phase, with their values.
    pub features: fn(&P) -> Vec<(u32, f32)>,
}

impl<P> Board<P> {
    fn phase(&self, discs: u32) -> usize {
        ((discs.saturating_sub(4) / self.discs_per_phase) as usize).min(self.phases - 1)
    }
}

/// Runs `fit` as its options say (see `othello_fit`'s header): the weights, phase by phase.
pub fn fit<P>(o: &Options, board: &Board<P>) -> Result<Vec<i16>, String> {
    let data = o.get("data").ok_or("--data FILE[,FILE...] is required")?;
    let lambdas = lambdas(o.get("lambda").unwrap_or("5"), board.phases)?;
    let iterations: usize = o.num("iterations", 100)?;
    let overlap: u32 = o.num("overlap", 2)?;
    let holdout: f64 = o.num("holdout", 0.05)?;
    let records = read_records(data, board)?;
    let test_records;
    let (train, test) = match o.get("test") {
        Some(files) => {
            test_records = read_records(files, board)?;
            (&records[..], &test_records[..])
        }
        None => {
            let test_from = records.len() - (records.len() as f64 * holdout) as usize;
            records.split_at(test_from)
        }
    };
    eprintln!("{} positions to fit, {} held out", train.len(), test.len());
    let start = Instant::now();
    let per = board.per_phase;
    let mut params = vec![0i16; board.phases * per];
    println!("| phase | discs | fitted on | train rms | held out | held-out rms | rms of 0 |");
    println!("|---|---|---|---|---|---|---|");
    for ph in 0..board.phases {
        let lo = 4 + board.discs_per_phase * ph as u32;
        let hi = if ph == board.phases - 1 {
            board.cells
        } else {
            lo + board.discs_per_phase - 1
        };
        let near = |p: &P| {
            let d = (board.discs)(p);
            d + overlap >= lo && d <= hi + overlap
        };
        let mut rows = SparseRows::new();
        let mut targets = Vec::new();
        for (p, y) in train.iter().filter(|r| near(&r.0)) {
            rows.push((board.features)(p));
            targets.push(*y);
        }
        let (w, report) = ridge(&rows, &targets, per, lambdas[ph], iterations);
        for (k, v) in w.iter().enumerate() {
            let units = (v * 100.0).round();
            params[ph * per + k] = units.clamp(f32::from(i16::MIN), f32::from(i16::MAX)) as i16;
        }
        let in_phase: Vec<_> = test
            .iter()
            .filter(|r| board.phase((board.discs)(&r.0)) == ph)
            .collect();
        let rms = |f: &dyn Fn(&P) -> f32| {
            let sq: f64 = in_phase
                .iter()
                .map(|r| f64::from(r.1 - f(&r.0)).powi(2))
                .sum();
            (sq / in_phase.len().max(1) as f64).sqrt()
        };
        let predict = |p: &P| {
            (board.features)(p)
                .iter()
                .map(|&(c, v)| v * w[c as usize])
                .sum::<f32>()
        };
        println!(
            "| {ph} | {lo}-{hi} | {} | {:.2} | {} | {:.2} | {:.2} |",
            rows.len(),
            report.rms,
            in_phase.len(),
            rms(&predict),
            rms(&|_| 0.0)
        );
    }
    let set = params.iter().filter(|&&p| p != 0).count();
    eprintln!(
        "fitted in {:.1} s; {set} of {} weights set",
        start.elapsed().as_secs_f64(),
        params.len(),
    );
    Ok(params)
}

/// The records of the comma-separated files, in order: (position, label in discs).
pub fn read_records<P>(files: &str, board: &Board<P>) -> Result<Vec<(P, f32)>, String> {
    let mut bytes = Vec::new();
    for f in files.split(',') {
        bytes.extend(std::fs::read(f).map_err(|e| format!("reading {f}: {e}"))?);
    }
    let n = board.record;
    if bytes.len() % n != 0 {
        return Err(format!("{files}: not a whole number of {n}-byte records"));
    }
    Ok(bytes
        .chunks_exact(n)
        .map(|r| ((board.parse)(&r[..n - 1]), f32::from(r[n - 1] as i8)))
        .collect())
}

/// `--lambda`: one ridge strength for every phase, or one per phase.
fn lambdas(arg: &str, phases: usize) -> Result<Vec<f64>, String> {
    let values = arg
        .split(',')
        .map(|v| {
            v.parse::<f64>()
                .map_err(|_| format!("--lambda: bad number {v:?}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match values.len() {
        1 => Ok(vec![values[0]; phases]),
        n if n == phases => Ok(values),
        n => Err(format!("--lambda: one value or {phases}, not {n}")),
    }
}

/// A position's features as fitting rows want them: each pattern weight with value 1, then
/// the scalars (numbered by `scalar_param`) with theirs.
pub fn feature_row<const K: usize, const S: usize>(
    pats: [u32; K],
    scal: [i32; S],
    scalar_param: fn(usize) -> usize,
) -> Vec<(u32, f32)> {
    pats.into_iter()
        .map(|p| (p, 1.0f32))
        .chain((0..S).map(|i| (scalar_param(i) as u32, scal[i] as f32)))
        .collect()
}
