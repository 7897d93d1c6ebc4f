//! Fitting the pattern weights: ridge regression on sparse rows, solved by conjugate
//! gradients with a diagonal preconditioner. Pure arithmetic, no I/O: the `othello_fit`
//! example generates and labels the positions, calls [`ridge`] once per phase and writes the
//! file [`super::pattern::write_params`] defines.
//!
//! A row is a position: the weight numbers its features touch and the feature values (1 for
//! a pattern instance, the count for mobility). The fit minimises
//! `sum (target - row . w)^2 + lambda * |w|^2`; weights no row touches stay 0, and rarely
//! seen ones are pulled towards 0 by `lambda`.

/// Rows of a sparse matrix, one after another.
#[derive(Clone, Debug, Default)]
pub struct SparseRows {
    columns: Vec<u32>,
    values: Vec<f32>,
    starts: Vec<usize>,
}

impl SparseRows {
    /// No rows.
    pub fn new() -> SparseRows {
        SparseRows {
            columns: Vec::new(),
            values: Vec::new(),
            starts: vec![0],
        }
    }

    /// Appends a row of (column, value) entries (a column may repeat: values add up).
    pub fn push(&mut self, entries: impl IntoIterator<Item = (u32, f32)>) {
        for (c, v) in entries {
            self.columns.push(c);
            self.values.push(v);
        }
        self.starts.push(self.columns.len());
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn row(&self, i: usize) -> impl Iterator<Item = (usize, f32)> + '_ {
        let (a, b) = (self.starts[i], self.starts[i + 1]);
        self.columns[a..b]
            .iter()
            .zip(&self.values[a..b])
            .map(|(&c, &v)| (c as usize, v))
    }

    /// `row . w` for row `i`.
    pub fn dot(&self, i: usize, w: &[f32]) -> f32 {
        self.row(i).map(|(c, v)| v * w[c]).sum()
    }
}

/// What a fit did.
#[derive(Clone, Debug, PartialEq)]
pub struct FitReport {
    /// Conjugate-gradient steps taken.
    pub iterations: usize,
    /// Root mean square of `target - row . w` at the end.
    pub rms: f64,
}

/// Ridge regression: the `columns` weights minimising
/// `sum_i (targets[i] - rows_i . w)^2 + lambda * |w|^2`, by at most `iterations`
/// preconditioned conjugate-gradient steps (it stops earlier once the residual is tiny).
///
/// # Panics
/// If `rows` and `targets` differ in length or a row names a column `>= columns`.
pub fn ridge(
    rows: &SparseRows,
    targets: &[f32],
    columns: usize,
    lambda: f64,
    iterations: usize,
) -> (Vec<f32>, FitReport) {
    assert_eq!(rows.len(), targets.len(), "one target per row");
    // In f64: the normal equations add up millions of terms.
    let xt = |u: &[f64]| {
        let mut out = vec![0f64; columns];
        for (i, &ui) in u.iter().enumerate() {
            for (c, v) in rows.row(i) {
                out[c] += f64::from(v) * ui;
            }
        }
        out
    };
    let x = |w: &[f64]| -> Vec<f64> {
        (0..rows.len())
            .map(|i| rows.row(i).map(|(c, v)| f64::from(v) * w[c]).sum())
            .collect()
    };
    let normal = |p: &[f64]| -> Vec<f64> {
        let mut out = xt(&x(p));
        for (o, &pi) in out.iter_mut().zip(p) {
            *o += lambda * pi;
        }
        out
    };
    let mut diag = vec![lambda; columns];
    for i in 0..rows.len() {
        for (c, v) in rows.row(i) {
            diag[c] += f64::from(v) * f64::from(v);
        }
    }
    let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
    let targets64: Vec<f64> = targets.iter().map(|&t| f64::from(t)).collect();
    let mut w = vec![0f64; columns];
    let mut r = xt(&targets64);
    let precondition = |r: &[f64]| -> Vec<f64> {
        r.iter()
            .zip(&diag)
            .map(|(&ri, &d)| if d > 0.0 { ri / d } else { 0.0 })
            .collect()
    };
    let mut z = precondition(&r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let start = rz.abs().max(f64::MIN_POSITIVE);
    let mut done = 0;
    for _ in 0..iterations {
        if rz.abs() <= start * 1e-14 {
            break;
        }
        let ap = normal(&p);
        let pap = dot(&p, &ap);
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for k in 0..columns {
            w[k] += alpha * p[k];
            r[k] -= alpha * ap[k];
        }
        z = precondition(&r);
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        rz = rz_next;
        for k in 0..columns {
            p[k] = z[k] + beta * p[k];
        }
        done += 1;
    }
    let w: Vec<f32> = w.iter().map(|&v| v as f32).collect();
    let rms = if rows.is_empty() {
        0.0
    } else {
        let sq: f64 = (0..rows.len())
            .map(|i| f64::from(targets[i] - rows.dot(i, &w)).powi(2))
            .sum();
        (sq / rows.len() as f64).sqrt()
    };
    (
        w,
        FitReport {
            iterations: done,
            rms,
        },
    )
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Rows touching 6 of 40 weights with value 1 plus one real-valued column, targets made
    /// from known weights without noise: the fit must give those weights back.
    #[test]
    fn ridge_recovers_known_weights_on_synthetic_data() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let columns = 41;
        let truth: Vec<f32> = (0..columns).map(|_| rng.random_range(-5.0..5.0)).collect();
        let mut rows = SparseRows::new();
        let mut targets = Vec::new();
        for _ in 0..2000 {
            let mut entries: Vec<(u32, f32)> =
                (0..6).map(|_| (rng.random_range(0..40u32), 1.0)).collect();
            entries.push((40, rng.random_range(-10..=10) as f32));
            let y = entries.iter().map(|&(c, v)| v * truth[c as usize]).sum();
            rows.push(entries);
            targets.push(y);
        }
        let (w, report) = ridge(&rows, &targets, columns, 1e-9, 200);
        for (c, (got, want)) in w.iter().zip(&truth).enumerate() {
            assert!((got - want).abs() < 1e-3, "weight {c}: {got} vs {want}");
        }
        assert!(report.rms < 1e-3, "{report:?}");
    }

    /// A large lambda shrinks every weight towards 0; an untouched weight stays 0.
    #[test]
    fn ridge_shrinks_with_lambda_and_leaves_unseen_weights_at_zero() {
        let mut rows = SparseRows::new();
        for _ in 0..10 {
            rows.push([(0, 1.0)]);
        }
        let targets = vec![4.0; 10];
        let (w, _) = ridge(&rows, &targets, 2, 10.0, 50);
        // (sum x^2 + lambda) w = sum x y: 20 w = 40.
        assert!((w[0] - 2.0).abs() < 1e-5, "{w:?}");
        assert_eq!(w[1], 0.0);
    }
}
