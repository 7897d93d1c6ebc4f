//! TrueSkill for multi-player games (Herbrich, Minka and Graepel 2006), through the
//! `skillratings` crate: every game's full ranking updates every seat at once, each seat a
//! one-player team, as the 2011 AI Challenge ranked its Ants games. Ties share a rank.
//!
//! The defaults are the paper's (and the contest's): mu 25, sigma 25/3, beta 25/6, tau
//! 25/300, draw probability 0.1. A leaderboard sorts by the conservative skill
//! mu - 3 sigma, which a newcomer starts at 0.

use serde::{Deserialize, Serialize};
use skillratings::MultiTeamOutcome;
use skillratings::trueskill::{TrueSkillConfig, TrueSkillRating, trueskill_multi_team};

/// One player's TrueSkill belief: mean and standard deviation of its skill.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Skill {
    /// The mean, 25 for a newcomer.
    pub mu: f64,
    /// The standard deviation, 25/3 for a newcomer.
    pub sigma: f64,
}

impl Default for Skill {
    fn default() -> Skill {
        Skill {
            mu: 25.0,
            sigma: 25.0 / 3.0,
        }
    }
}

impl Skill {
    /// The conservative skill, mu - 3 sigma, by which a leaderboard sorts.
    pub fn conservative(self) -> f64 {
        self.mu - 3.0 * self.sigma
    }
}

/// The skills after one game: `ranks[i]` is seat `i`'s place (0 best; equal ranks tie).
///
/// # Panics
/// If `skills` and `ranks` differ in length.
pub fn rate_game(skills: &[Skill], ranks: &[u32]) -> Vec<Skill> {
    assert_eq!(skills.len(), ranks.len(), "one rank per seat");
    if skills.len() < 2 {
        return skills.to_vec();
    }
    let teams: Vec<[TrueSkillRating; 1]> = skills
        .iter()
        .map(|s| {
            [TrueSkillRating {
                rating: s.mu,
                uncertainty: s.sigma,
            }]
        })
        .collect();
    // skillratings counts ranks from 1.
    let input: Vec<(&[TrueSkillRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(ranks)
        .map(|(t, &r)| (&t[..], MultiTeamOutcome::new(r as usize + 1)))
        .collect();
    match trueskill_multi_team(&input, &TrueSkillConfig::new(), None) {
        Ok(out) => out
            .iter()
            .map(|t| Skill {
                mu: t[0].rating,
                sigma: t[0].uncertainty,
            })
            .collect(),
        // Only bad weights fail, and none are given.
        Err(_) => skills.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::{Skill, rate_game};

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 0.01
    }

    /// The two-newcomer example of the TrueSkill papers and of the reference
    /// implementation: the winner goes to 29.396 +- 7.171, the loser to 20.604 +- 7.171.
    #[test]
    fn two_newcomers_as_in_the_paper() {
        let r = rate_game(&[Skill::default(), Skill::default()], &[0, 1]);
        assert!(close(r[0].mu, 29.396) && close(r[0].sigma, 7.171), "{r:?}");
        assert!(close(r[1].mu, 20.604) && close(r[1].sigma, 7.171), "{r:?}");
    }

    #[test]
    fn a_four_player_ranking_orders_the_means_and_ties_share() {
        let r = rate_game(&[Skill::default(); 4], &[2, 0, 1, 2]);
        assert!(r[1].mu > r[2].mu && r[2].mu > r[0].mu, "{r:?}");
        assert!(
            close(r[0].mu, r[3].mu) && close(r[0].sigma, r[3].sigma),
            "{r:?}"
        );
        for s in &r {
            assert!(s.sigma < Skill::default().sigma);
        }
        assert!(close(Skill::default().conservative(), 0.0));
    }
}
