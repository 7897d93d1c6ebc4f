//! An Ants tournament: rounds of games on one map among any number of bots (at least as many
//! as the map has players), stored in the same [`Store`] as every other tournament, rated
//! with TrueSkill on each game's full ranking, resumable after a kill.
//!
//! # The schedule
//! With `B` bots and a map of `P` players, a round is every combination of `P` bots (in
//! lexicographic order of their entries), each played in its `P` cyclic rotations: game
//! `c * P + k` of the round seats bot `combo[(s + k) % P]` in seat `s`. So in every round
//! each bot starts from every hill equally often, every bot meets every other bot equally
//! often, and each game's place fixes its seats (a resumed round plays exactly the games an
//! unbroken one would). With `B == P` that is `P` games a round, one per rotation; with more
//! bots it is `P * C(B, P)` games (2 players and 4 bots: 12), which grows fast: fair rather
//! than short, and a field too large for it is better split.
//!
//! # The store
//! Each game is queued as a [`QueuedGame`] whose `first` and `second` are the entries of
//! seats 0 and 1, claimed with a lease and completed once, like a two-player game; its
//! [`GameRecord::seats`] keeps every seat's entry, rank and score next to the replay (the
//! original's stored-game JSON). The configuration ([`TournamentConfig::ants`]) holds the
//! map's text and the turn limit, so the same command finds the same tournament again.
//!
//! # Ratings
//! TrueSkill ([`ply_rating::trueskill::rate_game`]) on each game's ranks, the games taken in
//! (round, slot) order; after each round every bot's skill is recomputed from the stored games
//! alone and stored in the ratings table as mu (in `rating`) and sigma (in `deviation`, with
//! `volatility` 0), so a resumed tournament rates exactly as an unbroken one. Standings are
//! sorted by mu - 3 sigma.

use std::sync::Arc;
use std::time::Duration;

use ply_ants::{AntsMap, Settings};
use ply_rating::Rating;
use ply_rating::trueskill::{Skill, rate_game};
use ply_referee::Sandbox;
use ply_referee::persistent::PersistentLimits;
use ply_referee::spec::AntsSpec;
use ply_store::{
    AntsSetup, BotEntry, Completion, GameRecord, QueuedGame, SeatResult, Store, TournamentConfig,
};

use crate::ants_match::{AntsEntrant, play_ants_game, seed_i64};
use crate::tournament::{Progress, TournamentRun};
use crate::worker::{Worker, now_ms};
use crate::{ArenaError, game_seed};

/// The game name of Ants tournaments in the store.
pub const ANTS: &str = "ants";

/// What an Ants tournament is.
#[derive(Clone, Debug)]
pub struct AntsTournamentPlan {
    /// The map's text (stored: it is part of the tournament's identity).
    pub map_text: String,
    /// The bots, at least as many as the map has players, in entry order.
    pub bots: Vec<AntsEntrant>,
    /// Rounds to play, at least one.
    pub rounds: u32,
    /// The turn limit of every game.
    pub turns: u32,
    /// The seed every game's seeds derive from.
    pub seed: u64,
    /// Time, memory and output limits of the programs.
    pub limits: PersistentLimits,
    /// Start a new tournament even when one with this configuration exists.
    pub new: bool,
}

impl AntsTournamentPlan {
    /// The map, parsed.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] when the map does not parse.
    pub fn map(&self) -> Result<AntsMap, ArenaError> {
        AntsMap::parse(&self.map_text).map_err(|e| ArenaError::Invalid(format!("the map: {e}")))
    }

    /// Checks the plan without touching any store: a map, enough bots with distinct names,
    /// a round and a turn.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`].
    pub fn check(&self) -> Result<AntsMap, ArenaError> {
        let map = self.map()?;
        if self.bots.len() < map.players.max(2) {
            return Err(ArenaError::Invalid(format!(
                "the map is for {} players: an Ants tournament needs at least that many bots \
                 ({} given)",
                map.players,
                self.bots.len()
            )));
        }
        let mut names = std::collections::HashSet::new();
        for b in &self.bots {
            if b.name.trim().is_empty() {
                return Err(ArenaError::Invalid("a bot's name is empty".into()));
            }
            if !names.insert(b.name.as_str()) {
                return Err(ArenaError::Invalid(format!(
                    "two bots are named {:?}",
                    b.name
                )));
            }
        }
        if self.rounds == 0 || self.turns == 0 {
            return Err(ArenaError::Invalid(
                "a tournament needs at least one round of at least one turn".into(),
            ));
        }
        Ok(map)
    }

    /// The stored configuration: the map, bots, rounds, turns, limits and seed.
    pub fn config(&self) -> TournamentConfig {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        TournamentConfig {
            game: ANTS.into(),
            bots: self
                .bots
                .iter()
                .map(|b| BotEntry {
                    name: b.name.clone(),
                    spec: b.spec_text.clone(),
                    hash: None,
                })
                .collect(),
            rounds: self.rounds,
            time_ms: ms(self.limits.turn),
            memory: self.limits.memory,
            output: self.limits.output,
            seed: self.seed,
            ants: Some(AntsSetup {
                map: self.map_text.clone(),
                turns: self.turns,
            }),
        }
    }

    /// How long a lease on one game lasts: every turn at the time limit with a second of
    /// slack, the setup, and a minute for starting and storing.
    fn lease(&self) -> Duration {
        self.limits.load
            + (self.limits.turn + Duration::from_secs(1)) * (self.turns + 1)
            + Duration::from_secs(60)
    }
}

/// The seatings of one round among `bots` bots on a map of `players` seats, by slot:
/// `seatings[slot][seat]` is the bot's entry (see the module's docs).
pub fn seatings(bots: usize, players: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if players == 0 || players > bots {
        return out;
    }
    let mut combo: Vec<usize> = (0..players).collect();
    loop {
        for k in 0..players {
            out.push((0..players).map(|s| combo[(s + k) % players]).collect());
        }
        // The next combination in lexicographic order.
        let Some(i) = (0..players).rev().find(|&i| combo[i] < bots - players + i) else {
            return out;
        };
        combo[i] += 1;
        for j in i + 1..players {
            combo[j] = combo[j - 1] + 1;
        }
    }
}

/// Every bot's TrueSkill after `last_round`, from the stored games alone: each game's full
/// ranking, in (round, slot) order.
pub fn trueskill_after(games: &[GameRecord], bots: usize, last_round: u32) -> Vec<Skill> {
    let mut skills = vec![Skill::default(); bots];
    let mut sorted: Vec<&GameRecord> = games
        .iter()
        .filter(|g| g.round <= last_round && g.seats.len() >= 2)
        .filter(|g| g.seats.iter().all(|s| s.entry < bots))
        .collect();
    sorted.sort_by_key(|g| (g.round, g.slot));
    for g in sorted {
        let before: Vec<Skill> = g.seats.iter().map(|s| skills[s.entry]).collect();
        let ranks: Vec<u32> = g.seats.iter().map(|s| s.rank).collect();
        for (seat, skill) in g.seats.iter().zip(rate_game(&before, &ranks)) {
            skills[seat.entry] = skill;
        }
    }
    skills
}

/// A TrueSkill as the ratings table keeps it: mu as the rating, sigma as the deviation.
pub fn skill_as_rating(s: Skill) -> Rating {
    Rating {
        rating: s.mu,
        deviation: s.sigma,
        volatility: 0.0,
    }
}

/// Runs the Ants tournament `plan` describes, stored in `store`, with programs in `sandbox`:
/// found again and resumed when unfinished, shown when finished (as
/// [`run_tournament`](crate::run_tournament) does), each round queued, its games claimed,
/// played and completed one at a time, then rated. `on_progress` is called as it goes.
///
/// # Errors
/// [`ArenaError::Invalid`] before anything is stored; a store error or a game that cannot be
/// played stops the run (what was stored stays stored).
pub fn run_ants_tournament<S: Store + ?Sized>(
    store: &mut S,
    plan: &AntsTournamentPlan,
    sandbox: &Arc<Sandbox>,
    mut on_progress: impl FnMut(Progress),
) -> Result<TournamentRun, ArenaError> {
    let map = plan.check()?;
    let config = plan.config();
    let existing = if plan.new {
        None
    } else {
        store.find_tournament(&config)?
    };
    let t = match existing {
        Some(t) if t.finished => {
            let standings = store.standings(t.id)?;
            return Ok(TournamentRun {
                tournament: t,
                standings,
                already_complete: true,
            });
        }
        Some(t) => t,
        None => store.create_tournament(&config)?,
    };
    // One local runner per tournament: a lease found now was left by a run that was killed.
    store.expire_leases(Some(t.id), u64::MAX)?;
    let bots = plan.bots.len();
    let seats = seatings(bots, map.players);
    on_progress(Progress::Started {
        tournament: t.clone(),
        played: store.games(t.id)?.len(),
        total: u64::from(plan.rounds) * seats.len() as u64,
    });
    let worker = Worker::new("local-0", Arc::clone(sandbox));
    let lease_ms = u64::try_from(plan.lease().as_millis()).unwrap_or(u64::MAX);
    for round in 1..=plan.rounds {
        let queued: Vec<QueuedGame> = seats
            .iter()
            .enumerate()
            .map(|(slot, s)| QueuedGame {
                round,
                slot: slot as u32,
                first: s[0],
                second: s[1],
            })
            .collect();
        store.enqueue(t.id, &queued)?;
        while let Some(lease) = store.claim(Some(t.id), &worker.name, now_ms(), lease_ms)? {
            let slot = lease.game.slot as usize;
            let Some(order) = seats.get(slot) else {
                return Err(ArenaError::Invalid(format!(
                    "game {}:{} is not in this tournament's schedule",
                    lease.game.round, lease.game.slot
                )));
            };
            let record = play(
                plan,
                &map,
                lease.game.round,
                lease.game.slot,
                order,
                sandbox,
            )?;
            match store.complete(&lease, &record, now_ms())? {
                Completion::Stored => on_progress(Progress::GameStored(record)),
                other => {
                    return Err(ArenaError::Stopped(format!(
                        "game {}:{} was not stored ({other:?}): is another run playing this \
                         tournament?",
                        lease.game.round, lease.game.slot
                    )));
                }
            }
        }
        let skills = trueskill_after(&store.games(t.id)?, bots, round);
        let ratings: Vec<Rating> = skills.into_iter().map(skill_as_rating).collect();
        store.record_ratings(t.id, round, &ratings)?;
        on_progress(Progress::RoundRated { round });
    }
    store.finish(t.id)?;
    let tournament = store.tournament(Some(t.id))?;
    let standings = store.standings(t.id)?;
    Ok(TournamentRun {
        tournament,
        standings,
        already_complete: false,
    })
}

/// Plays game `slot` of `round` with `order[seat]` in each seat and returns its record.
fn play(
    plan: &AntsTournamentPlan,
    map: &AntsMap,
    round: u32,
    slot: u32,
    order: &[usize],
    sandbox: &Arc<Sandbox>,
) -> Result<GameRecord, ArenaError> {
    let seed = game_seed(plan.seed, round, slot);
    let settings = Settings {
        turns: plan.turns,
        engine_seed: seed_i64(seed),
        player_seed: seed_i64(ply_core::seed::derive(seed, 1)),
        ..Settings::default()
    };
    let bots: Vec<(&str, &AntsSpec)> = order
        .iter()
        .map(|&b| (plan.bots[b].name.as_str(), &plan.bots[b].spec))
        .collect();
    let (result, stored, _) = play_ants_game(
        map,
        settings,
        &bots,
        |s| ply_core::seed::derive(seed, 2 + s as u64),
        &plan.limits,
        sandbox,
    )?;
    let seats: Vec<SeatResult> = order
        .iter()
        .zip(result.rank.iter().zip(&result.score))
        .map(|(&entry, (&rank, &score))| SeatResult {
            entry,
            rank,
            score: score as f64,
        })
        .collect();
    let text: Vec<String> = order
        .iter()
        .zip(&result.score)
        .map(|(&b, score)| format!("{} {score}", plan.bots[b].name))
        .collect();
    Ok(GameRecord {
        round,
        slot,
        first: order[0],
        second: order[1],
        first_score: if result.rank[0] == 0 { 1.0 } else { 0.0 },
        result: format!(
            "{} ({} turns, {})",
            text.join(", "),
            result.game_length,
            result.cutoff.as_str()
        ),
        replay: serde_json::to_string(&stored)?,
        seats,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_many_bots_as_seats_play_one_game_per_rotation() {
        assert_eq!(seatings(3, 3), [[0, 1, 2], [1, 2, 0], [2, 0, 1]]);
    }

    #[test]
    fn more_bots_than_seats_play_every_combination_in_every_rotation() {
        let s = seatings(4, 2);
        assert_eq!(s.len(), 12);
        for a in 0..4 {
            for b in 0..4 {
                let n = s.iter().filter(|g| g[..] == [a, b]).count();
                assert_eq!(n, usize::from(a != b), "{a} {b}");
            }
        }
        // Every bot in every seat equally often.
        let s = seatings(5, 3);
        assert_eq!(s.len(), 30);
        for bot in 0..5 {
            for seat in 0..3 {
                assert_eq!(s.iter().filter(|g| g[seat] == bot).count(), 6);
            }
        }
    }

    #[test]
    fn trueskill_follows_the_full_ranking() {
        let seat = |entry, rank| SeatResult {
            entry,
            rank,
            score: 0.0,
        };
        let g = |slot, seats| GameRecord {
            round: 1,
            slot,
            first: 0,
            second: 1,
            first_score: 0.0,
            result: String::new(),
            replay: String::new(),
            seats,
        };
        let games = [
            g(0, vec![seat(2, 0), seat(1, 1), seat(0, 2)]),
            g(1, vec![seat(0, 2), seat(2, 0), seat(1, 1)]),
        ];
        let s = trueskill_after(&games, 3, 1);
        assert!(s[2].mu > s[1].mu && s[1].mu > s[0].mu, "{s:?}");
        assert_eq!(trueskill_after(&games, 3, 0), vec![Skill::default(); 3]);
    }
}
