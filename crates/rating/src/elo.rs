//! Elo differences from match results, with a confidence interval, and the sequential
//! probability ratio test (SPRT) that engine testers use to decide whether a change gains
//! strength: the maths of `ply ladder`.
//!
//! The model is the logistic one: a player `d` Elo stronger scores
//! `1 / (1 + 10^(-d/400))` on average. The interval and the test treat each game as an
//! independent draw of 1, 1/2 or 0 (the trinomial model of cutechess-cli and the early
//! Fishtest). Games played in pairs from one opening with colours swapped are positively
//! correlated when openings are unbalanced, so the trinomial interval is a little wide for
//! them, never too narrow: the conservative side.
//!
//! The SPRT is the generalised one (GSPRT) that Fishtest uses: for each hypothesis, the
//! distribution over {loss, draw, win} of the hypothesis' mean score that makes the observed
//! games most likely (a one-dimensional Lagrange problem, solved by bisection), and the LLR is
//! the log of the ratio of the two likelihoods. Counts are regularised by 1/1000 of a game
//! each, as Fishtest does, so that a clean sweep (zero variance, where the normal
//! approximation `(s1 - s0) (2 s - s0 - s1) / (2 var / n)` is undefined) still moves the test:
//! after `n` straight wins the LLR is about `n ln(s1 / s0)`. It accepts H1 (`elo >= elo1`)
//! when the LLR reaches `ln((1 - beta) / alpha)` and H0 (`elo <= elo0`) when it falls to
//! `ln(beta / (1 - alpha))`.

use serde::Serialize;

/// Wins, draws and losses, from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score (a draw is half a point); `None` with no game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The per-game variance of the score about its mean; `None` with no game.
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        Some(w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2))
    }
}

/// The Elo difference a mean score means: `-400 log10(1/s - 1)` (infinite at 0 and 1).
pub fn elo_from_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The mean score an Elo difference gives: `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// An Elo difference measured over some games.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct EloEstimate {
    /// The estimate (from the mean score).
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
    /// The likelihood of superiority: the probability that the first player is the stronger.
    pub los: f64,
}

impl EloEstimate {
    /// The estimate from a match's results; `None` with no game. A clean sweep gives an
    /// infinite estimate and upper bound, as it should: the data bound it from one side only.
    pub fn from_wdl(wdl: Wdl) -> Option<EloEstimate> {
        let s = wdl.score()?;
        let n = f64::from(wdl.games());
        let stderr = (wdl.variance()? / n).sqrt();
        const Z95: f64 = 1.959_963_984_540_054;
        let clamp = |x: f64| x.clamp(0.0, 1.0);
        let decisive = f64::from(wdl.wins + wdl.losses);
        let los = if decisive == 0.0 {
            0.5
        } else {
            0.5 * (1.0
                + erf((f64::from(wdl.wins) - f64::from(wdl.losses)) / (2.0 * decisive).sqrt()))
        };
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score(clamp(s - Z95 * stderr)),
            high: elo_from_score(clamp(s + Z95 * stderr)),
            los,
        })
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7): enough for a
/// likelihood of superiority printed to one decimal of a percent.
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 { y } else { -y }
}

/// The distribution over the scores (0, 1/2, 1) with mean `mean` under which the games
/// `counts` (losses, draws, wins) are most likely. Maximising `sum n_i ln p_i` subject to
/// `sum p_i = 1` and `sum p_i a_i = mean` gives `p_i = f_i / (1 + t (a_i - mean))`, `f_i`
/// the observed frequencies, for the `t` at which the mean comes out right; that function
/// of `t` is monotonic between the poles, so bisection finds it. Every count is first
/// raised by 1/1000 of a game (Fishtest's regularisation), so that an outcome never seen
/// keeps a little weight and a pole never coincides with the answer.
fn most_likely(counts: [f64; 3], mean: f64) -> [f64; 3] {
    const SCORES: [f64; 3] = [0.0, 0.5, 1.0];
    let counts = counts.map(|n| n + 1e-3);
    let total: f64 = counts.iter().sum();
    let freq = counts.map(|n| n / total);
    // sum f_i (a_i - mean) / (1 + t (a_i - mean)): decreasing in t on (-1/(1-mean), 1/mean).
    let excess = |t: f64| -> f64 {
        (0..3)
            .map(|i| freq[i] * (SCORES[i] - mean) / (1.0 + t * (SCORES[i] - mean)))
            .sum()
    };
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if excess(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let t = 0.5 * (low + high);
    let p = [0, 1, 2].map(|i| freq[i] / (1.0 + t * (SCORES[i] - mean)));
    let sum: f64 = p.iter().sum();
    p.map(|x| x / sum)
}

/// A sequential test: is the first player at least `elo1` stronger (H1), or at most `elo0`
/// (H0)? `alpha` is the chance of accepting H1 when H0 holds, `beta` the reverse.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1 (above `elo0`).
    pub elo1: f64,
    /// The false-positive rate.
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// Where a sequential test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SprtVerdict {
    /// Neither bound reached: play on.
    Continue,
    /// H1 accepted: the gain is at least `elo1`, at the test's confidence.
    AcceptH1,
    /// H0 accepted: the gain is at most `elo0`.
    AcceptH0,
}

impl Sprt {
    /// The test with the usual 5% error rates.
    pub fn new(elo0: f64, elo1: f64) -> Result<Sprt, String> {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
        .checked()
    }

    /// The test if its numbers make sense: finite bounds with `elo0 < elo1`, error rates in
    /// (0, 0.5).
    pub fn checked(self) -> Result<Sprt, String> {
        if !(self.elo0.is_finite() && self.elo1.is_finite() && self.elo0 < self.elo1) {
            return Err(format!(
                "the SPRT needs elo0 < elo1 (finite), got {} and {}",
                self.elo0, self.elo1
            ));
        }
        for (name, p) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("the SPRT's {name} must be in (0, 0.5), got {p}"));
            }
        }
        Ok(self)
    }

    /// The log-likelihood ratio of H1 against H0 after `wdl` (0 with no game).
    pub fn llr(&self, wdl: Wdl) -> f64 {
        if wdl.games() == 0 {
            return 0.0;
        }
        let counts = [wdl.losses, wdl.draws, wdl.wins].map(f64::from);
        let (p0, p1) = (
            most_likely(counts, score_from_elo(self.elo0)),
            most_likely(counts, score_from_elo(self.elo1)),
        );
        (0..3)
            .filter(|&i| counts[i] > 0.0)
            .map(|i| counts[i] * (p1[i] / p0[i]).ln())
            .sum()
    }

    /// The bounds: (accept H0 at or below, accept H1 at or above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Whether to stop after `wdl`, and with which answer.
    pub fn verdict(&self, wdl: Wdl) -> SprtVerdict {
        let llr = self.llr(wdl);
        let (low, high) = self.bounds();
        if llr >= high {
            SprtVerdict::AcceptH1
        } else if llr <= low {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn elo_and_score_are_inverse_and_match_the_textbook_points() {
        // 75% is 190.85 Elo, 64% is 100 Elo (to 0.1), 50% is 0.
        assert!((elo_from_score(0.75) - 190.848).abs() < 1e-3);
        assert!((score_from_elo(100.0) - 0.640_065).abs() < 1e-6);
        assert_eq!(elo_from_score(0.5), 0.0);
        for elo in [-500.0, -35.5, 0.0, 12.0, 400.0] {
            assert!((elo_from_score(score_from_elo(elo)) - elo).abs() < 1e-9);
        }
    }

    #[test]
    fn the_interval_matches_a_hand_computation() {
        // 60 wins, 20 draws, 20 losses: s = 0.7; per-game variance
        // 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16; stderr = 0.04; 95%: 0.7 -+ 0.0784.
        let e = EloEstimate::from_wdl(wdl(60, 20, 20)).unwrap();
        assert!((e.elo - elo_from_score(0.7)).abs() < 1e-9);
        assert!((e.low - elo_from_score(0.7 - 1.959_964 * 0.04)).abs() < 1e-3);
        assert!((e.high - elo_from_score(0.7 + 1.959_964 * 0.04)).abs() < 1e-3);
        assert!(e.low < e.elo && e.elo < e.high);
        // LOS = Phi((W - L) / sqrt(W + L)) = Phi(40 / sqrt(80)) = Phi(4.47): about 1.
        assert!(e.los > 0.999_99);
        let even = EloEstimate::from_wdl(wdl(10, 5, 10)).unwrap();
        assert_eq!(even.elo, 0.0);
        assert!((even.los - 0.5).abs() < 1e-8);
        assert_eq!(EloEstimate::from_wdl(Wdl::default()), None);
        let sweep = EloEstimate::from_wdl(wdl(10, 0, 0)).unwrap();
        assert!(sweep.elo.is_infinite() && sweep.elo > 0.0);
    }

    #[test]
    fn erf_is_close_to_tabulated_values() {
        for (x, v) in [
            (0.0, 0.0),
            (0.5, 0.520_499_9),
            (1.0, 0.842_700_8),
            (2.0, 0.995_322_3),
        ] {
            assert!((erf(x) - v).abs() < 2e-7, "erf({x})");
            assert!((erf(-x) + v).abs() < 2e-7);
        }
    }

    #[test]
    fn the_sprt_bounds_and_llr_follow_the_formula() {
        let t = Sprt::new(0.0, 10.0).unwrap();
        let (low, high) = t.bounds();
        assert!((low - (0.05f64 / 0.95).ln()).abs() < 1e-12);
        assert!((high - (0.95f64 / 0.05).ln()).abs() < 1e-12);
        assert!((high - 2.944_439).abs() < 1e-6);
        // 60/20/20: 1.389822, found independently by a grid search over the draw rate of
        // each hypothesis' likelihood (the normal approximation says 1.73: s = 0.7 is far
        // from both hypotheses). Near them the two agree: 20/20/20 gives -0.037270 exactly,
        // -0.037258 by the approximation.
        assert!((t.llr(wdl(60, 20, 20)) - 1.389_822).abs() < 1e-4);
        let (s0, s1) = (0.5, score_from_elo(10.0));
        let approx = (s1 - s0) * (1.0 - s0 - s1) / (2.0 * (0.5 / 3.0) / 60.0);
        assert!((t.llr(wdl(20, 20, 20)) - approx).abs() < 1e-4);
        // Not yet enough for H1 (2.94); ten times the games is.
        assert_eq!(t.verdict(wdl(60, 20, 20)), SprtVerdict::Continue);
        assert_eq!(t.verdict(wdl(600, 200, 200)), SprtVerdict::AcceptH1);
        assert_eq!(t.verdict(wdl(200, 200, 600)), SprtVerdict::AcceptH0);
        assert_eq!(t.verdict(wdl(3, 2, 3)), SprtVerdict::Continue);
        assert_eq!(t.llr(Wdl::default()), 0.0);
        // A clean sweep of n games: about n ln(s1 / s0) (the mass of the hypotheses' means on
        // wins, the rest on losses), so the test stops after ln(19) / ln(s1/s0) games.
        let sweep = Sprt::new(0.0, 50.0).unwrap();
        let per_win = (score_from_elo(50.0) / 0.5).ln();
        let llr = sweep.llr(wdl(10, 0, 0));
        assert!(
            (llr - 10.0 * per_win).abs() < 0.01,
            "{llr} vs {}",
            10.0 * per_win
        );
        let needed = (high / per_win).ceil() as u32;
        assert_eq!(sweep.verdict(wdl(needed - 1, 0, 0)), SprtVerdict::Continue);
        assert_eq!(sweep.verdict(wdl(needed, 0, 0)), SprtVerdict::AcceptH1);
        assert_eq!(sweep.verdict(wdl(0, 0, needed + 2)), SprtVerdict::AcceptH0);
        assert!(Sprt::new(10.0, 0.0).is_err());
        assert!(Sprt::new(f64::NAN, 1.0).is_err());
    }

    #[test]
    fn the_sprt_errs_at_about_its_rates_on_simulated_matches() {
        // Simulated players whose true difference is elo0 (then elo1): the test should
        // accept the wrong hypothesis in about 5% of runs. 400 runs each, seeded; the bound
        // of 10% leaves room for the normal approximation and the sample.
        let t = Sprt::new(0.0, 40.0).unwrap();
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut uniform = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        for (true_elo, wrong) in [(0.0, SprtVerdict::AcceptH1), (40.0, SprtVerdict::AcceptH0)] {
            let s = score_from_elo(true_elo);
            // Draws 30%, wins and losses share the rest to give mean score s.
            let (pd, pw) = (0.3, s - 0.15);
            let mut errors = 0;
            for _ in 0..400 {
                let mut r = Wdl::default();
                let verdict = loop {
                    let u = uniform();
                    if u < pw {
                        r.wins += 1;
                    } else if u < pw + pd {
                        r.draws += 1;
                    } else {
                        r.losses += 1;
                    }
                    let v = t.verdict(r);
                    if v != SprtVerdict::Continue || r.games() > 100_000 {
                        break v;
                    }
                };
                errors += u32::from(verdict == wrong);
            }
            assert!(errors <= 40, "true {true_elo}: {errors} of 400 wrong");
        }
    }
}
