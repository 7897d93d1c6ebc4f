//! Search scores with mate distance.

use std::fmt;
use std::ops::Neg;

/// A position's value for the side to move, in centi-units of the evaluator, with wins and
/// losses encoded by their distance in plies so that search prefers the fastest win and the
/// slowest loss (the seed's depth-aware minimax: `100 - depth` for a win).
///
/// ```
/// use ply_core::Score;
/// assert!(Score::win_in(1) > Score::win_in(3));
/// assert!(Score::loss_in(4) > Score::loss_in(2));
/// assert_eq!(-Score::win_in(5), Score::loss_in(5));
/// assert_eq!(Score::win_in(5).plies_to_end(), Some(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// The value of a certain win on the board right now.
    pub const WIN: Score = Score(1_000_000);
    /// Anything at or beyond this magnitude is a proven result, not a heuristic guess.
    pub const PROVEN: Score = Score(1_000_000 - 10_000);
    /// A draw.
    pub const DRAW: Score = Score(0);
    /// Larger than any real score, for alpha-beta windows.
    pub const INFINITY: Score = Score(i32::MAX - 1);

    /// A win for the side to move, `plies` plies from now.
    pub const fn win_in(plies: u32) -> Score {
        Score(Self::WIN.0 - plies as i32)
    }

    /// A loss for the side to move, `plies` plies from now.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-(Self::WIN.0 - plies as i32))
    }

    /// Whether this score is a proven win or loss rather than an estimate.
    pub const fn is_proven(self) -> bool {
        self.0 >= Self::PROVEN.0 || self.0 <= -Self::PROVEN.0
    }

    /// For a proven win or loss, how many plies until the game ends.
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_proven() {
            Some((Self::WIN.0 - self.0.abs()) as u32)
        } else {
            None
        }
    }

    /// Converts a proven score counted from the root into one counted from a node `ply` plies
    /// deep, for storing in a transposition table (and back with [`Score::from_node`]).
    pub const fn to_node(self, ply: u32) -> Score {
        if self.0 >= Self::PROVEN.0 {
            Score(self.0 + ply as i32)
        } else if self.0 <= -Self::PROVEN.0 {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_node`].
    pub const fn from_node(self, ply: u32) -> Score {
        if self.0 >= Self::PROVEN.0 {
            Score(self.0 - ply as i32)
        } else if self.0 <= -Self::PROVEN.0 {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.0 > 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None => write!(f, "{}", self.0),
        }
    }
}
