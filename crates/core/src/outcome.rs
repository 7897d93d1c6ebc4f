//! How a game ended.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Seat;

/// The result of a finished game.
///
/// Two-seat games end in [`Outcome::Win`] or [`Outcome::Draw`]; games with more seats (Ants)
/// end in a [`Outcome::Ranking`], lowest rank best, equal ranks tied.
///
/// ```
/// use ply_core::{Outcome, Seat};
/// let o = Outcome::Win(Seat::FIRST);
/// assert_eq!(o.payoff(Seat::FIRST, 2), 1.0);
/// assert_eq!(o.payoff(Seat::SECOND, 2), 0.0);
/// assert_eq!(Outcome::Draw.payoff(Seat::SECOND, 2), 0.5);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// One seat won; every other seat lost.
    Win(Seat),
    /// Nobody won.
    Draw,
    /// A rank for every seat, indexed by seat: 0 is first place, equal numbers are ties.
    Ranking(Vec<u32>),
}

impl Outcome {
    /// The two-seat end by majority: more pieces wins, equal numbers draw.
    /// `counts` is indexed by seat (`counts[seat.index()]`).
    ///
    /// ```
    /// use ply_core::{Outcome, Seat};
    /// assert_eq!(Outcome::by_majority([5, 3]), Outcome::Win(Seat::FIRST));
    /// assert_eq!(Outcome::by_majority([2, 9]), Outcome::Win(Seat::SECOND));
    /// assert_eq!(Outcome::by_majority([4, 4]), Outcome::Draw);
    /// ```
    pub fn by_majority(counts: [u32; 2]) -> Outcome {
        match counts[0].cmp(&counts[1]) {
            std::cmp::Ordering::Greater => Outcome::Win(Seat::FIRST),
            std::cmp::Ordering::Less => Outcome::Win(Seat::SECOND),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The score of `seat` in `[0, 1]`: 1 for a win, 0 for a loss, shared for ties.
    ///
    /// In a ranking, a seat scores the fraction of other seats it beat, with ties counting
    /// half, which reduces to 1 / 0.5 / 0 with two seats.
    pub fn payoff(&self, seat: Seat, seats: usize) -> f64 {
        match self {
            Outcome::Win(w) => f64::from(u8::from(*w == seat)),
            Outcome::Draw => 0.5,
            Outcome::Ranking(ranks) => {
                if seats < 2 {
                    return 1.0;
                }
                let mine = ranks[seat.index()];
                let beaten: f64 = ranks
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != seat.index())
                    .map(|(_, &r)| match r.cmp(&mine) {
                        std::cmp::Ordering::Greater => 1.0,
                        std::cmp::Ordering::Equal => 0.5,
                        std::cmp::Ordering::Less => 0.0,
                    })
                    .sum();
                beaten / (seats - 1) as f64
            }
        }
    }

    /// The winning seat, if exactly one seat won.
    pub fn winner(&self) -> Option<Seat> {
        match self {
            Outcome::Win(s) => Some(*s),
            Outcome::Draw => None,
            Outcome::Ranking(ranks) => {
                let firsts: Vec<_> = ranks.iter().enumerate().filter(|(_, r)| **r == 0).collect();
                (firsts.len() == 1).then(|| Seat::new(firsts[0].0 as u8))
            }
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(s) => write!(f, "{s} wins"),
            Outcome::Draw => f.write_str("draw"),
            Outcome::Ranking(ranks) => {
                f.write_str("ranking")?;
                for (i, r) in ranks.iter().enumerate() {
                    write!(f, " {}:{}", Seat::new(i as u8).number(), r + 1)?;
                }
                Ok(())
            }
        }
    }
}
