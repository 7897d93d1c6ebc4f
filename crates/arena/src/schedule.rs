//! Who plays whom: a tournament's format gives the games of each round.
//!
//! A format sees the round's number and the games already stored, so that pairings that
//! depend on results (Swiss: neighbours in the standings; gauntlet: one challenger against
//! the field) are each one more [`Format`] variant and one more arm in [`Format::round`],
//! with no change to the runner, the queue or the store.

use serde::{Deserialize, Serialize};

use ply_rating::Pairing;
use ply_store::{GameRecord, QueuedGame};

/// How a tournament pairs its bots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Every round, every pair plays twice, each side moving first once (HackerEarth's).
    #[default]
    RoundRobin,
}

impl Format {
    /// The games of `round` (1-based) among `bots` bots, in slot order, given the games
    /// already `played` (earlier rounds, for formats that pair by results).
    pub fn round(self, round: u32, bots: usize, played: &[GameRecord]) -> Vec<QueuedGame> {
        let _ = played;
        let pairings: Vec<Pairing> = match self {
            Format::RoundRobin => ply_rating::round_robin(bots),
        };
        pairings
            .into_iter()
            .enumerate()
            .map(|(slot, p)| QueuedGame {
                round,
                slot: slot as u32,
                first: p.first,
                second: p.second,
            })
            .collect()
    }

    /// How many games each round has among `bots` bots.
    pub fn games_per_round(self, bots: usize) -> usize {
        match self {
            Format::RoundRobin => bots * bots.saturating_sub(1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_robin_round_has_every_ordered_pair_once_in_numbered_slots() {
        let games = Format::RoundRobin.round(2, 3, &[]);
        assert_eq!(games.len(), Format::RoundRobin.games_per_round(3));
        let pairs: Vec<(usize, usize)> = games.iter().map(|g| (g.first, g.second)).collect();
        assert_eq!(pairs, [(0, 1), (1, 0), (0, 2), (2, 0), (1, 2), (2, 1)]);
        assert!(
            games
                .iter()
                .enumerate()
                .all(|(i, g)| g.round == 2 && g.slot == i as u32)
        );
    }
}
