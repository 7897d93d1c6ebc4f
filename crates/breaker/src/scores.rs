//! The high-score table: the ten best runs, kept as JSON by the front end (this crate
//! reads and writes no files).

use serde::{Deserialize, Serialize};

/// Entries kept.
pub const KEPT: usize = 10;

/// One run on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Who played.
    pub name: String,
    /// Final score.
    pub score: u64,
    /// The last level reached (1-based).
    pub level: usize,
    /// Whether every level was cleared.
    pub won: bool,
}

/// The best runs, best first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HighScores {
    /// Best first; ties keep the older entry first.
    pub entries: Vec<Entry>,
}

impl HighScores {
    /// Reads a table from its JSON.
    ///
    /// # Errors
    /// The text is not a table's JSON.
    pub fn from_json(text: &str) -> Result<HighScores, serde_json::Error> {
        let mut t: HighScores = serde_json::from_str(text)?;
        t.entries.sort_by_key(|e| std::cmp::Reverse(e.score));
        t.entries.truncate(KEPT);
        Ok(t)
    }

    /// The table as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Adds a run if it makes the table; returns its 0-based rank.
    ///
    /// ```
    /// use ply_breaker::scores::{Entry, HighScores};
    /// let mut t = HighScores::default();
    /// let e = |score| Entry { name: "a".into(), score, level: 1, won: false };
    /// assert_eq!(t.insert(e(50)), Some(0));
    /// assert_eq!(t.insert(e(70)), Some(0));
    /// assert_eq!(t.insert(e(50)), Some(2));
    /// assert_eq!(t.entries[1].score, 50);
    /// ```
    pub fn insert(&mut self, entry: Entry) -> Option<usize> {
        if entry.score == 0 {
            return None;
        }
        let rank = self
            .entries
            .iter()
            .take_while(|e| e.score >= entry.score)
            .count();
        if rank >= KEPT {
            return None;
        }
        self.entries.insert(rank, entry);
        self.entries.truncate(KEPT);
        Some(rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_ten_best() {
        let mut t = HighScores::default();
        for s in 1..=15 {
            t.insert(Entry {
                name: format!("p{s}"),
                score: s * 10,
                level: 1,
                won: false,
            });
        }
        assert_eq!(t.entries.len(), KEPT);
        assert_eq!(t.entries[0].score, 150);
        assert_eq!(t.entries[9].score, 60);
        let back = HighScores::from_json(&t.to_json()).unwrap();
        assert_eq!(back, t);
        assert_eq!(
            t.insert(Entry {
                name: "low".into(),
                score: 5,
                level: 1,
                won: false
            }),
            None
        );
    }
}
