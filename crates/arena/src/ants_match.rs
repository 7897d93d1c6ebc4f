//! An Ants match: several games on one map between as many bots as the map has players
//! (programs and built-ins mixed, each spec in the one bot-spec grammar), the seats rotated
//! every game so that each bot starts from each hill in turn, and a TrueSkill standing
//! updated on every game's full ranking, as the 2011 contest ranked its games.
//!
//! Each game is [`ply_referee::ants::play_ants`] over a fresh [`AntsMatch`]; its engine and
//! player seeds derive from the match seed and the game's number ([`crate::game_seed`]),
//! so every game is replayable from its stored replay's seeds.

use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

use ply_ants::{AntsGame, AntsMap, AntsMatch, MatchResult, Settings};
use ply_rating::trueskill::{Skill, rate_game};
use ply_referee::Sandbox;
use ply_referee::ants::{AntsSeat, play_ants};
use ply_referee::persistent::{PersistentBot, PersistentLimits};
use ply_referee::spec::AntsSpec;

use crate::{ArenaError, game_seed};

/// What an Ants match is.
#[derive(Clone, Debug)]
pub struct AntsMatchPlan {
    /// The map; it fixes the number of seats.
    pub map: AntsMap,
    /// The bots, one per seat of the map.
    pub bots: Vec<AntsEntrant>,
    /// How many games, at least one.
    pub games: u32,
    /// The seed every game's engine and player seeds derive from.
    pub seed: u64,
    /// Every other setting of a game (turns, times, food); its seeds are replaced.
    pub settings: Settings,
    /// Time, memory and output limits of the programs.
    pub limits: PersistentLimits,
}

/// A bot of an Ants match.
#[derive(Clone, Debug)]
pub struct AntsEntrant {
    /// Its name in standings and replays.
    pub name: String,
    /// Its spec as written (`builtin:hunter`, `python3 bot.py`).
    pub spec_text: String,
    /// Its spec.
    pub spec: AntsSpec,
}

/// One bot's standing over the match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AntsStanding {
    /// Its name.
    pub name: String,
    /// Its spec as written.
    pub spec: String,
    /// Games played.
    pub games: u32,
    /// Games it ranked first in (alone or tied).
    pub wins: u32,
    /// Its mean place, 1 best.
    pub mean_rank: f64,
    /// TrueSkill mean.
    pub mu: f64,
    /// TrueSkill standard deviation.
    pub sigma: f64,
    /// mu - 3 sigma, by which the standings are sorted.
    pub skill: f64,
}

/// One game of an Ants match, as it ends.
#[derive(Clone, Debug)]
pub struct AntsMatchGame {
    /// 1-based game number.
    pub number: u32,
    /// `seats[s]`: which bot sat in seat `s`.
    pub seats: Vec<usize>,
    /// The engine's result (per seat).
    pub result: MatchResult,
    /// The whole stored game (the original's format: result and replay).
    pub stored: Value,
    /// Why a seat's orders ended early (`exit code 1`, `no go within 1000 ms`), per seat.
    pub details: Vec<Option<String>>,
}

/// The games of an Ants match, one at a time, and the standings so far.
#[derive(Debug)]
pub struct AntsMatchRun {
    plan: AntsMatchPlan,
    sandbox: Arc<Sandbox>,
    skills: Vec<Skill>,
    games: Vec<u32>,
    wins: Vec<u32>,
    rank_sum: Vec<u64>,
    next: u32,
}

/// Starts the Ants match `plan` describes, with programs in `sandbox`.
///
/// # Errors
/// [`ArenaError::Invalid`] for no games, or not one bot per player of the map.
pub fn run_ants_match(
    plan: AntsMatchPlan,
    sandbox: Arc<Sandbox>,
) -> Result<AntsMatchRun, ArenaError> {
    if plan.games == 0 {
        return Err(ArenaError::Invalid(
            "a match needs at least one game".into(),
        ));
    }
    if plan.bots.len() != plan.map.players {
        return Err(ArenaError::Invalid(format!(
            "the map is for {} players but {} bots were given",
            plan.map.players,
            plan.bots.len()
        )));
    }
    let n = plan.bots.len();
    Ok(AntsMatchRun {
        plan,
        sandbox,
        skills: vec![Skill::default(); n],
        games: vec![0; n],
        wins: vec![0; n],
        rank_sum: vec![0; n],
        next: 0,
    })
}

/// A seed the original's `int` options take, from 64 random bits.
pub(crate) fn seed_i64(bits: u64) -> i64 {
    (bits >> 1) as i64
}

/// What one Ants game left: the engine's result (per seat), the whole stored game (the
/// original's format) and why a seat's orders ended early, per seat.
pub(crate) type AntsOutcome = (MatchResult, Value, Vec<Option<String>>);

/// Plays one Ants game on `map` with `settings` (seeds included), `bots` by seat (name and
/// spec); a built-in in seat `s` is seeded with `builtin_seed(s)`.
pub(crate) fn play_ants_game(
    map: &AntsMap,
    settings: Settings,
    bots: &[(&str, &AntsSpec)],
    builtin_seed: impl Fn(usize) -> u64,
    limits: &PersistentLimits,
    sandbox: &Arc<Sandbox>,
) -> Result<AntsOutcome, ArenaError> {
    let game = AntsGame::new(map, settings).map_err(|e| ArenaError::Invalid(e.to_string()))?;
    let mut m = AntsMatch::new(game);
    let mut players = Vec::with_capacity(bots.len());
    for (s, (name, spec)) in bots.iter().enumerate() {
        players.push(match spec {
            AntsSpec::Builtin(k) => AntsSeat::Builtin(k.create(builtin_seed(s))),
            AntsSpec::Command(c) => {
                let bot = PersistentBot::start(sandbox, c, limits, false)
                    .map_err(|e| ArenaError::Invalid(format!("{name}: cannot start: {e}")))?;
                AntsSeat::Program(Box::new(bot))
            }
        });
    }
    let records = play_ants(&mut m, &mut players, limits, false, |_| {
        std::ops::ControlFlow::Continue(())
    });
    drop(players);
    let names: Vec<String> = bots.iter().map(|(n, _)| n.to_string()).collect();
    let result = m
        .result()
        .ok_or_else(|| ArenaError::Invalid("the game did not finish".into()))?;
    let stored = m
        .result_json(&names)
        .ok_or_else(|| ArenaError::Invalid("the game did not finish".into()))?;
    Ok((
        result,
        stored,
        records.into_iter().map(|r| r.detail).collect(),
    ))
}

impl AntsMatchRun {
    /// Each bot's standing so far, best conservative skill first.
    pub fn standings(&self) -> Vec<AntsStanding> {
        let mut v: Vec<AntsStanding> = self
            .plan
            .bots
            .iter()
            .enumerate()
            .map(|(b, e)| {
                let s = self.skills[b];
                AntsStanding {
                    name: e.name.clone(),
                    spec: e.spec_text.clone(),
                    games: self.games[b],
                    wins: self.wins[b],
                    mean_rank: if self.games[b] == 0 {
                        0.0
                    } else {
                        self.rank_sum[b] as f64 / f64::from(self.games[b]) + 1.0
                    },
                    mu: s.mu,
                    sigma: s.sigma,
                    skill: s.conservative(),
                }
            })
            .collect();
        v.sort_by(|a, b| b.skill.total_cmp(&a.skill));
        v
    }

    fn play_one(&mut self) -> Result<AntsMatchGame, ArenaError> {
        let g = self.next;
        self.next += 1;
        let n = self.plan.bots.len();
        // Seat s gets bot (s + g) mod n: each bot starts from every hill in turn.
        let seats: Vec<usize> = (0..n).map(|s| (s + g as usize) % n).collect();
        let settings = Settings {
            engine_seed: seed_i64(game_seed(self.plan.seed, g + 1, 0)),
            player_seed: seed_i64(game_seed(self.plan.seed, g + 1, 1)),
            ..self.plan.settings.clone()
        };
        let bots: Vec<(&str, &AntsSpec)> = seats
            .iter()
            .map(|&b| (self.plan.bots[b].name.as_str(), &self.plan.bots[b].spec))
            .collect();
        let (result, stored, details) = play_ants_game(
            &self.plan.map,
            settings,
            &bots,
            |s| u64::from(g) * 16 + s as u64,
            &self.plan.limits,
            &self.sandbox,
        )?;
        // TrueSkill on the full ranking, by bot.
        let skills: Vec<Skill> = seats.iter().map(|&b| self.skills[b]).collect();
        let rated = rate_game(&skills, &result.rank);
        for (s, &b) in seats.iter().enumerate() {
            self.skills[b] = rated[s];
            self.games[b] += 1;
            self.rank_sum[b] += u64::from(result.rank[s]);
            if result.rank[s] == 0 {
                self.wins[b] += 1;
            }
        }
        Ok(AntsMatchGame {
            number: g + 1,
            seats,
            result,
            stored,
            details,
        })
    }
}

impl Iterator for AntsMatchRun {
    type Item = Result<AntsMatchGame, ArenaError>;

    fn next(&mut self) -> Option<Self::Item> {
        (self.next < self.plan.games).then(|| self.play_one())
    }
}
