//! What a search tells about its work.

use std::fmt;
use std::time::Duration;

use ply_core::Score;

/// The result of one search: the move, how good it is, and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport<M> {
    /// The move to play; `None` only when the position has no legal move.
    pub best: Option<M>,
    /// The value of the position for the side to move, as far as the search saw.
    pub score: Score,
    /// The deepest fully searched depth, in plies (for MCTS: the deepest tree node).
    pub depth: u32,
    /// Nodes visited (for MCTS: iterations).
    pub nodes: u64,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<M>,
    /// Wall time spent.
    pub elapsed: Duration,
    /// Whether `score` is the exact game-theoretic value (the search reached every end).
    pub exact: bool,
}

impl<M: fmt::Display> fmt::Display for SearchReport<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let nps = if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        };
        write!(
            f,
            "depth {} score {}{} nodes {} nps {:.0} time {:.3}s pv",
            self.depth,
            self.score,
            if self.exact { " (exact)" } else { "" },
            self.nodes,
            nps,
            secs
        )?;
        for m in &self.pv {
            write!(f, " {m}")?;
        }
        Ok(())
    }
}
