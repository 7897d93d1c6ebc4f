//! An Ants tournament: rounds of games on a rotation of maps among any number of bots (at
//! least as many as the largest map has players), stored in the same [`Store`] as every other
//! tournament, rated with TrueSkill on each game's full ranking, resumable after a kill,
//! played by local threads or by `ply worker`s.
//!
//! # The schedule
//! The maps are a rotation: round `r` is played on map `(r - 1) % M` (the maps in the order
//! given; a folder's are sorted by file name), so `--rounds` a multiple of `M` plays every map
//! equally often. With `B` bots and a map of `P` players, a round is every combination of `P`
//! bots (in lexicographic order of their entries), each played in its `P` cyclic rotations:
//! game `c * P + k` of the round seats bot `combo[(s + k) % P]` in seat `s`. So in every round
//! each bot starts from every hill equally often and meets every other bot (whatever the
//! map's number of players), and each game's place fixes its map and its seats (a resumed
//! round plays exactly the games an unbroken one would, and so does a worker on another
//! machine). With `B == P` that is `P` games a round, one per rotation; with more bots it is
//! `P * C(B, P)` games (2 players and 4 bots: 12), which grows fast: fair rather than short,
//! and a field too large for it is better split.
//!
//! # The store
//! Each game is queued as a [`QueuedGame`] whose `first` and `second` are the entries of
//! seats 0 and 1, claimed with a lease and completed once, like a two-player game; its
//! [`GameRecord::seats`] keeps every seat's entry, rank and score next to the replay (the
//! original's stored-game JSON, which holds the map the game was played on). The
//! configuration ([`TournamentConfig::ants`]) holds every map's text, in rotation order, and
//! the turn limit, so the same command finds the same tournament again wherever the map
//! files are, and a worker needs nothing but the database to play any game.
//!
//! # Ratings
//! TrueSkill ([`ply_rating::trueskill::rate_game`]) on each game's ranks, the games taken in
//! (round, slot) order; after each round every bot's skill is recomputed from the stored games
//! alone and stored in the ratings table as mu (in `rating`) and sigma (in `deviation`, with
//! `volatility` 0), so a resumed tournament, one played by several threads and one played by
//! workers all rate exactly as an unbroken one. Standings are sorted by mu - 3 sigma.

use std::sync::Arc;
use std::time::Duration;

use ply_ants::{AntsMap, Settings};
use ply_rating::Rating;
use ply_rating::trueskill::{Skill, rate_game};
use ply_referee::Sandbox;
use ply_referee::persistent::PersistentLimits;
use ply_referee::spec::AntsSpec;
use ply_store::{AntsSetup, BotEntry, GameRecord, QueuedGame, SeatResult, Store, TournamentConfig};

use crate::ants_match::{AntsEntrant, play_ants_game, seed_i64};
use crate::tournament::{Progress, TournamentRun, drive};
use crate::worker::Lineup;
use crate::{ArenaError, game_seed};

/// The game name of Ants tournaments in the store.
pub const ANTS: &str = "ants";

/// The most maps a rotation may have.
pub const MAX_MAPS: usize = 10_000;

/// A map of a tournament's rotation: where it came from and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RotationMap {
    /// Where it came from (a file's path), for messages only: the text is what is stored.
    pub name: String,
    /// The map's text.
    pub text: String,
}

/// What an Ants tournament is.
#[derive(Clone, Debug)]
pub struct AntsTournamentPlan {
    /// The rotation of maps, at least one, in order: round `r` plays map `(r - 1) % len`.
    pub maps: Vec<RotationMap>,
    /// The bots, at least as many as the largest map has players, in entry order.
    pub bots: Vec<AntsEntrant>,
    /// Rounds to play, at least one.
    pub rounds: u32,
    /// The turn limit of every game.
    pub turns: u32,
    /// The seed every game's seeds derive from.
    pub seed: u64,
    /// Time, memory and output limits of the programs.
    pub limits: PersistentLimits,
    /// Games played at once (0 counts as 1): each is a thread playing a whole game.
    pub concurrency: usize,
    /// Start a new tournament even when one with this configuration exists.
    pub new: bool,
}

impl AntsTournamentPlan {
    /// The maps, parsed, in rotation order.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] naming every map that does not parse, and the problem.
    pub fn parsed_maps(&self) -> Result<Vec<AntsMap>, ArenaError> {
        if self.maps.is_empty() {
            return Err(ArenaError::Invalid(
                "an Ants tournament needs at least one map".into(),
            ));
        }
        if self.maps.len() > MAX_MAPS {
            return Err(ArenaError::Invalid(format!(
                "{} maps: a rotation may have at most {MAX_MAPS}",
                self.maps.len()
            )));
        }
        let mut parsed = Vec::with_capacity(self.maps.len());
        let mut problems = Vec::new();
        for m in &self.maps {
            match AntsMap::parse(&m.text) {
                Ok(map) => parsed.push(map),
                Err(e) => problems.push(format!("{}: {e}", m.name)),
            }
        }
        if problems.is_empty() {
            Ok(parsed)
        } else {
            Err(ArenaError::Invalid(problems.join("; ")))
        }
    }

    /// Checks the plan without touching any store: maps that parse, enough bots with
    /// distinct names for the largest map, a round and a turn.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`].
    pub fn check(&self) -> Result<Vec<AntsMap>, ArenaError> {
        let maps = self.parsed_maps()?;
        let too_many: Vec<String> = self
            .maps
            .iter()
            .zip(&maps)
            .filter(|(_, m)| self.bots.len() < m.players.max(2))
            .map(|(r, m)| format!("{} is for {} players", r.name, m.players))
            .collect();
        if !too_many.is_empty() {
            return Err(ArenaError::Invalid(format!(
                "{}: an Ants tournament needs at least as many bots as each map has players \
                 ({} given); add bots or leave such maps out",
                too_many.join(", "),
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
        Ok(maps)
    }

    /// The stored configuration: the maps' texts, bots, rounds, turns, limits and seed.
    pub fn config(&self) -> TournamentConfig {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let mut texts = self.maps.iter().map(|m| m.text.clone());
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
            cpus: 1,
            seed: self.seed,
            ants: Some(AntsSetup {
                map: texts.next().unwrap_or_default(),
                turns: self.turns,
                more_maps: texts.collect(),
            }),
        }
    }
}

/// Everything that plays any game of one Ants tournament, from its stored configuration
/// alone: what a local run and a `ply worker` both play with.
#[derive(Clone, Debug)]
pub struct AntsLineup {
    /// The rotation of maps.
    pub maps: Vec<AntsMap>,
    /// The bots' names, by entry.
    pub names: Vec<String>,
    /// How to run each bot, by entry.
    pub specs: Vec<AntsSpec>,
    /// The turn limit of every game.
    pub turns: u32,
    /// The programs' limits.
    pub limits: PersistentLimits,
    /// The tournament's seed.
    pub seed: u64,
}

impl AntsLineup {
    /// The lineup a stored Ants configuration describes.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] for a configuration without an Ants setup, or a map or spec
    /// that does not parse.
    pub fn from_config(config: &TournamentConfig) -> Result<AntsLineup, ArenaError> {
        let Some(setup) = &config.ants else {
            return Err(ArenaError::Invalid(format!(
                "tournament of {} is not an Ants tournament",
                config.game
            )));
        };
        let maps = setup
            .maps()
            .enumerate()
            .map(|(i, text)| {
                AntsMap::parse(text)
                    .map_err(|e| ArenaError::Invalid(format!("stored map {}: {e}", i + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let specs = config
            .bots
            .iter()
            .map(|b| {
                b.spec
                    .parse::<AntsSpec>()
                    .map_err(|e| ArenaError::Invalid(format!("stored bot {:?}: {e}", b.name)))
            })
            .collect::<Result<_, _>>()?;
        Ok(AntsLineup {
            maps,
            names: config.bots.iter().map(|b| b.name.clone()).collect(),
            specs,
            turns: setup.turns,
            limits: PersistentLimits {
                turn: Duration::from_millis(config.time_ms),
                memory: config.memory,
                output: config.output,
                ..PersistentLimits::default()
            },
            seed: config.seed,
        })
    }

    /// The map of `round` (1-based): the rotation's `(round - 1) % maps`.
    pub fn map_of(&self, round: u32) -> Option<(usize, &AntsMap)> {
        let i = (round.max(1) - 1) as usize % self.maps.len().max(1);
        self.maps.get(i).map(|m| (i, m))
    }

    /// The seatings of `round`, by slot (see the module's docs).
    pub fn seatings(&self, round: u32) -> Vec<Vec<usize>> {
        self.map_of(round)
            .map_or_else(Vec::new, |(_, m)| seatings(self.names.len(), m.players))
    }

    /// The games of `round`, to queue.
    pub fn round(&self, round: u32) -> Vec<QueuedGame> {
        self.seatings(round)
            .iter()
            .enumerate()
            .map(|(slot, s)| QueuedGame {
                round,
                slot: slot as u32,
                first: s[0],
                second: s[1],
            })
            .collect()
    }

    /// The number of games in rounds 1 to `rounds`.
    pub fn total(&self, rounds: u32) -> u64 {
        let per_map: Vec<u64> = self
            .maps
            .iter()
            .map(|m| seatings(self.names.len(), m.players).len() as u64)
            .collect();
        (0..u64::from(rounds))
            .map(|r| per_map[(r % per_map.len() as u64) as usize])
            .sum()
    }

    /// How long a lease on one game lasts: every turn at the time limit with a second of
    /// slack, the setup, and a minute for starting and storing.
    pub fn lease(&self) -> Duration {
        self.limits.load
            + (self.limits.turn + Duration::from_secs(1)) * (self.turns + 1)
            + Duration::from_secs(60)
    }

    /// Every bot's TrueSkill after `round` as the ratings table keeps it.
    pub fn rate(&self, games: &[GameRecord], round: u32) -> Vec<Rating> {
        trueskill_after(games, self.names.len(), round)
            .into_iter()
            .map(skill_as_rating)
            .collect()
    }

    /// Plays the queued game `game` (its map and seats from its place) in `sandbox`.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] when the game is not in this tournament's schedule, or a
    /// program cannot start.
    pub fn play(
        &self,
        game: &QueuedGame,
        sandbox: &Arc<Sandbox>,
    ) -> Result<GameRecord, ArenaError> {
        let seats = self.seatings(game.round);
        let order = seats
            .get(game.slot as usize)
            .filter(|o| o[0] == game.first && o[1] == game.second)
            .ok_or_else(|| {
                ArenaError::Invalid(format!(
                    "game {}:{} is not in this tournament's schedule",
                    game.round, game.slot
                ))
            })?;
        let (index, map) = self
            .map_of(game.round)
            .ok_or_else(|| ArenaError::Invalid("the tournament has no map".into()))?;
        let seed = game_seed(self.seed, game.round, game.slot);
        let settings = Settings {
            turns: self.turns,
            engine_seed: seed_i64(seed),
            player_seed: seed_i64(ply_core::seed::derive(seed, 1)),
            ..Settings::default()
        };
        let bots: Vec<(&str, &AntsSpec)> = order
            .iter()
            .map(|&b| (self.names[b].as_str(), &self.specs[b]))
            .collect();
        let (result, stored, _) = play_ants_game(
            map,
            settings,
            &bots,
            |s| ply_core::seed::derive(seed, 2 + s as u64),
            &self.limits,
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
            .map(|(&b, score)| format!("{} {score}", self.names[b]))
            .collect();
        let on_map = if self.maps.len() > 1 {
            format!(", map {} of {}", index + 1, self.maps.len())
        } else {
            String::new()
        };
        Ok(GameRecord {
            round: game.round,
            slot: game.slot,
            first: order[0],
            second: order[1],
            first_score: if result.rank[0] == 0 { 1.0 } else { 0.0 },
            result: format!(
                "{} ({} turns, {}{on_map})",
                text.join(", "),
                result.game_length,
                result.cutoff.as_str()
            ),
            replay: serde_json::to_string(&stored)?,
            seats,
        })
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
/// found again and resumed when unfinished, shown when finished, each round queued, its games
/// played by [`AntsTournamentPlan::concurrency`] threads and rated, as
/// [`run_tournament`](crate::run_tournament) does (the same driver). `on_progress` is called
/// on this thread, in order.
///
/// # Errors
/// [`ArenaError::Invalid`] before anything is stored; a store error or a game that cannot be
/// played stops the run (what was stored stays stored).
pub fn run_ants_tournament<S: Store + Send + ?Sized>(
    store: &mut S,
    plan: &AntsTournamentPlan,
    sandbox: &Arc<Sandbox>,
    on_progress: impl FnMut(Progress),
) -> Result<TournamentRun, ArenaError> {
    plan.check()?;
    let config = plan.config();
    // Played from the stored configuration, as a worker plays it.
    let lineup = AntsLineup::from_config(&config)?;
    let total = lineup.total(plan.rounds);
    drive(
        store,
        &config,
        plan.new,
        total,
        &Lineup::Ants(lineup.clone()),
        |round, _, _| Ok(lineup.round(round)),
        plan.concurrency,
        sandbox,
        on_progress,
    )
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
