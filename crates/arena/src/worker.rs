//! The worker's side of the game queue: claim a game, play it, post its result.
//!
//! A worker needs no more than a [`Store`] and a [`Sandbox`]: the claimed game names its
//! tournament, whose stored configuration (game, bots, limits, seed; an Ants tournament's
//! maps too) is the [`Lineup`] that plays and rates it: a [`PairLineup`] for a two-player
//! game, an [`AntsLineup`] for Ants. [`run_tournament`](crate::run_tournament) and
//! [`run_ants_tournament`](crate::run_ants_tournament) run their games through workers like
//! this one on threads of their own; a worker on another machine runs the same loop against
//! a shared store.

use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ply_core::{Game, Seat};
use ply_games::{GameKind, HackerEarth, Heuristics, with_hackerearth_game};
use ply_rating::Rating;
use ply_referee::process::CommandLine;
use ply_referee::spec::AntsSpec;
use ply_referee::{Limits, PlayerSpec, Sandbox, play_game};
use ply_store::{Completion, GameRecord, Lease, QueuedGame, Store, TournamentConfig};

use crate::ants_tournament::AntsLineup;
use crate::tournament::ratings_after;
use crate::{ArenaError, bot_game, game_seed};

/// Everything that plays and rates any game of one tournament, whatever its game.
#[derive(Clone, Debug)]
pub enum Lineup {
    /// A two-player game with a bot format, rated with Glicko-2.
    Pair(PairLineup),
    /// Ants, rated with TrueSkill.
    Ants(AntsLineup),
}

impl Lineup {
    /// The lineup a stored configuration describes: Ants when it has an Ants setup.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] for a game without a bot format, a spec or a map that does
    /// not parse.
    pub fn from_config(config: &TournamentConfig) -> Result<Lineup, ArenaError> {
        if config.ants.is_some() {
            AntsLineup::from_config(config).map(Lineup::Ants)
        } else {
            PairLineup::from_config(config).map(Lineup::Pair)
        }
    }

    /// How long a lease on one of its games lasts.
    pub fn lease(&self) -> Duration {
        match self {
            Lineup::Pair(l) => l.lease(),
            Lineup::Ants(l) => l.lease(),
        }
    }

    /// The number of bots.
    pub fn bots(&self) -> usize {
        match self {
            Lineup::Pair(l) => l.names.len(),
            Lineup::Ants(l) => l.names.len(),
        }
    }

    /// Plays `game` in `sandbox` and returns its record.
    ///
    /// # Errors
    /// As [`PairLineup::play`] and [`AntsLineup::play`].
    pub fn play(
        &self,
        game: &QueuedGame,
        sandbox: &Arc<Sandbox>,
    ) -> Result<GameRecord, ArenaError> {
        match self {
            Lineup::Pair(l) => l.play(game, sandbox),
            Lineup::Ants(l) => l.play(game, sandbox),
        }
    }

    /// Every bot's rating after `round`, from the stored games alone: Glicko-2
    /// ([`ratings_after`]) or TrueSkill's mu and sigma
    /// ([`trueskill_after`](crate::ants_tournament::trueskill_after)).
    pub fn rate(&self, games: &[GameRecord], round: u32) -> Vec<Rating> {
        match self {
            Lineup::Pair(l) => ratings_after(games, l.names.len(), round),
            Lineup::Ants(l) => l.rate(games, round),
        }
    }

    /// The command line of entry `entry`, when it runs a program.
    pub fn command(&self, entry: usize) -> Option<&CommandLine> {
        match self {
            Lineup::Pair(l) => match l.specs.get(entry)? {
                PlayerSpec::Command(c) => Some(c),
                PlayerSpec::Builtin(..) => None,
            },
            Lineup::Ants(l) => match l.specs.get(entry)? {
                AntsSpec::Command(c) => Some(c),
                AntsSpec::Builtin(_) => None,
            },
        }
    }

    /// Runs entry `entry` with `command` instead (a program taken from the database).
    pub fn set_command(&mut self, entry: usize, command: CommandLine) {
        match self {
            Lineup::Pair(l) => {
                if let Some(s) = l.specs.get_mut(entry) {
                    *s = PlayerSpec::Command(command);
                }
            }
            Lineup::Ants(l) => {
                if let Some(s) = l.specs.get_mut(entry) {
                    *s = AntsSpec::Command(command);
                }
            }
        }
    }
}

/// Everything that plays any game of one two-player tournament: the game, the bots (by
/// entry), their limits and the tournament's seed.
#[derive(Clone, Debug)]
pub struct PairLineup {
    /// The game.
    pub game: GameKind,
    /// The bots' names, by entry.
    pub names: Vec<String>,
    /// How to run each bot, by entry.
    pub specs: Vec<PlayerSpec>,
    /// The limits of every move.
    pub limits: Limits,
    /// The tournament's seed, from which each game's derives ([`game_seed`]).
    pub seed: u64,
}

impl PairLineup {
    /// The lineup a stored configuration describes.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] for a game without a bot format or a spec that does not parse.
    pub fn from_config(config: &TournamentConfig) -> Result<PairLineup, ArenaError> {
        let specs = config
            .bots
            .iter()
            .map(|b| {
                b.spec
                    .parse::<PlayerSpec>()
                    .map_err(|e| ArenaError::Invalid(format!("stored bot {:?}: {e}", b.name)))
            })
            .collect::<Result<_, _>>()?;
        Ok(PairLineup {
            game: bot_game(&config.game)?,
            names: config.bots.iter().map(|b| b.name.clone()).collect(),
            specs,
            limits: Limits {
                time: Duration::from_millis(config.time_ms),
                memory: config.memory,
                output: config.output,
                cpus: config.cpus,
            },
            seed: config.seed,
        })
    }

    /// How long a lease on one of its games lasts: every ply at the time limit, with a
    /// second of slack each, and a minute for starting and storing.
    pub fn lease(&self) -> Duration {
        let plies = with_hackerearth_game!(self.game, G => G::info().max_plies).unwrap_or(1000);
        (self.limits.time + Duration::from_secs(1)) * plies + Duration::from_secs(60)
    }

    /// Plays `game` (seats, round and slot from the queue) in `sandbox` and returns its record.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] when the game names an entry the lineup lacks;
    /// [`ArenaError::Bot`] when a bot cannot play this game.
    pub fn play(
        &self,
        game: &QueuedGame,
        sandbox: &Arc<Sandbox>,
    ) -> Result<GameRecord, ArenaError> {
        if game.first >= self.specs.len() || game.second >= self.specs.len() {
            return Err(ArenaError::Invalid(format!(
                "game {}:{} seats entries {} and {}, but the tournament has {} bots",
                game.round,
                game.slot,
                game.first,
                game.second,
                self.specs.len()
            )));
        }
        with_hackerearth_game!(self.game, G => self.play_as::<G>(game, sandbox)).unwrap_or_else(
            || {
                Err(ArenaError::Invalid(format!(
                    "{} has no bot format",
                    self.game
                )))
            },
        )
    }

    fn play_as<G: HackerEarth + Heuristics>(
        &self,
        job: &QueuedGame,
        sandbox: &Arc<Sandbox>,
    ) -> Result<GameRecord, ArenaError> {
        let seed = game_seed(self.seed, job.round, job.slot);
        let entries = [job.first, job.second];
        let mut bots = Vec::new();
        for (s, &e) in entries.iter().enumerate() {
            bots.push(
                self.specs[e]
                    .build::<G>(
                        &self.names[e],
                        seed.wrapping_add(s as u64),
                        sandbox,
                        &self.limits,
                    )
                    .map_err(|source| ArenaError::Bot {
                        bot: self.names[e].clone(),
                        source,
                    })?,
            );
        }
        let seat_specs: Vec<String> = entries.iter().map(|&e| self.specs[e].to_string()).collect();
        let replay = play_game::<G>(&mut bots, &seat_specs, seed);
        Ok(GameRecord {
            round: job.round,
            slot: job.slot,
            first: job.first,
            second: job.second,
            first_score: replay.outcome.payoff(Seat::FIRST, 2),
            result: replay.result.clone(),
            replay: serde_json::to_string(&replay)?,
            seats: Vec::new(),
        })
    }
}

/// A game a worker played, and what the store made of its result.
#[derive(Clone, Debug)]
pub struct Played {
    /// The lease it was played under.
    pub lease: Lease,
    /// The result.
    pub record: GameRecord,
    /// Stored, or refused because the lease was lost meanwhile.
    pub completion: Completion,
}

/// One player of queued games.
#[derive(Clone, Debug)]
pub struct Worker {
    /// Its name in the queue (which worker holds which game).
    pub name: String,
    sandbox: Arc<Sandbox>,
}

/// Milliseconds since the Unix epoch: the queue's clock.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

impl Worker {
    /// A worker named `name` that runs programs in `sandbox`.
    pub fn new(name: impl Into<String>, sandbox: Arc<Sandbox>) -> Worker {
        Worker {
            name: name.into(),
            sandbox,
        }
    }

    /// Claims the next waiting game of `tournament` (of any when `None`) for as long as
    /// `lease` (a [`Lineup::lease`]).
    ///
    /// # Errors
    /// [`ArenaError::Store`] when the store fails.
    pub fn claim<S: Store + ?Sized>(
        &self,
        store: &mut S,
        tournament: Option<i64>,
        lease: Duration,
    ) -> Result<Option<Lease>, ArenaError> {
        let ms = u64::try_from(lease.as_millis()).unwrap_or(u64::MAX);
        Ok(store.claim(tournament, &self.name, now_ms(), ms)?)
    }

    /// Plays a claimed game.
    ///
    /// # Errors
    /// As [`Lineup::play`].
    pub fn play(&self, lease: &Lease, lineup: &Lineup) -> Result<GameRecord, ArenaError> {
        lineup.play(&lease.game, &self.sandbox)
    }

    /// Posts a played game's result under its lease.
    ///
    /// # Errors
    /// [`ArenaError::Store`] when the store fails.
    pub fn post<S: Store + ?Sized>(
        &self,
        store: &mut S,
        lease: &Lease,
        record: &GameRecord,
    ) -> Result<Completion, ArenaError> {
        Ok(store.complete(lease, record, now_ms())?)
    }

    /// Claims, plays and posts one game of `tournament` (of any when `None`): the whole job
    /// of a worker that owns its store. `lineup` is the tournament's when known, else it is
    /// read from the store. `None` when no game is waiting.
    ///
    /// # Errors
    /// [`ArenaError`] when the store fails or the game cannot be played.
    pub fn work_one<S: Store + ?Sized>(
        &self,
        store: &mut S,
        tournament: Option<i64>,
        lineup: Option<&Lineup>,
    ) -> Result<Option<Played>, ArenaError> {
        // The lease of an unknown tournament's game: long enough for any game (a day).
        let lease_for = lineup.map_or(Duration::from_secs(86_400), Lineup::lease);
        let Some(lease) = self.claim(store, tournament, lease_for)? else {
            return Ok(None);
        };
        let stored;
        let lineup = match lineup {
            Some(l) => l,
            None => {
                stored = Lineup::from_config(&store.tournament(Some(lease.tournament))?.config)?;
                &stored
            }
        };
        let record = self.play(&lease, lineup)?;
        let completion = self.post(store, &lease, &record)?;
        Ok(Some(Played {
            lease,
            record,
            completion,
        }))
    }
}
