//! A tournament from its configuration to its standings, on one machine.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use ply_games::{HackerEarth, Heuristics, with_hackerearth_game};
use ply_rating::{GameResult, Rating, rate_period};
use ply_referee::process::MemoryGuard;
use ply_referee::{Limits, PlayerSpec, Sandbox};
use ply_store::{
    BotEntry, Completion, GameRecord, QueuedGame, Standing, Store, Tournament, TournamentConfig,
};

use crate::worker::{Lineup, PairLineup, Worker};
use crate::{ArenaError, Format, bot_game};

/// A bot entered in a tournament.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// Its name on the leaderboard (unique in the tournament).
    pub name: String,
    /// How to run it.
    pub spec: PlayerSpec,
}

/// What a tournament is and how to run it.
#[derive(Clone, Debug)]
pub struct TournamentPlan {
    /// The game's name (`tictactoe`); it needs a bot format.
    pub game: String,
    /// The bots, at least two, in entry order.
    pub bots: Vec<Entrant>,
    /// Rounds to play, at least one.
    pub rounds: u32,
    /// Who plays whom.
    pub format: Format,
    /// The seed every game's seed derives from.
    pub seed: u64,
    /// The limits of every move.
    pub limits: Limits,
    /// Games played at once (0 counts as 1).
    pub concurrency: usize,
    /// Start a new tournament even when one with this configuration exists.
    pub new: bool,
}

/// What happened so far, reported as it happens.
#[derive(Clone, Debug)]
pub enum Progress {
    /// The tournament is open: `played` of its `total` games were stored by earlier runs.
    Started {
        /// The tournament.
        tournament: Tournament,
        /// Games already stored (more than zero: this run resumes it).
        played: usize,
        /// Games in the whole tournament.
        total: u64,
    },
    /// A game ended and is stored.
    GameStored(GameRecord),
    /// Every game of `round` is stored and the ratings after it too.
    RoundRated {
        /// The round.
        round: u32,
    },
}

/// How a tournament run ended.
#[derive(Clone, Debug)]
pub struct TournamentRun {
    /// The tournament, finished.
    pub tournament: Tournament,
    /// Its standings, best rating first.
    pub standings: Vec<Standing>,
    /// The tournament had been completed by an earlier run: nothing was played.
    pub already_complete: bool,
}

impl TournamentPlan {
    /// The stored configuration: everything that makes the tournament what it is (the game,
    /// bots, rounds, limits, seed), not how fast it is played.
    pub fn config(&self) -> Result<TournamentConfig, ArenaError> {
        let kind = bot_game(&self.game)?;
        Ok(TournamentConfig {
            game: kind.to_string(),
            bots: self
                .bots
                .iter()
                .map(|b| BotEntry {
                    name: b.name.clone(),
                    spec: b.spec.to_string(),
                    hash: None,
                })
                .collect(),
            rounds: self.rounds,
            time_ms: u64::try_from(self.limits.time.as_millis()).unwrap_or(u64::MAX),
            memory: self.limits.memory,
            output: self.limits.output,
            cpus: self.limits.cpus,
            seed: self.seed,
            ants: None,
        })
    }

    /// Checks the plan without touching any store: at least two bots with distinct names, a
    /// round, a game with a bot format, and every built-in able to play it.
    ///
    /// # Errors
    /// [`ArenaError::Invalid`] or [`ArenaError::Bot`].
    pub fn check(&self) -> Result<(), ArenaError> {
        if self.bots.len() < 2 {
            return Err(ArenaError::Invalid(
                "a tournament needs at least two bots".into(),
            ));
        }
        let mut names = HashSet::new();
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
        if self.rounds == 0 {
            return Err(ArenaError::Invalid(
                "a tournament needs at least one round".into(),
            ));
        }
        let kind = bot_game(&self.game)?;
        with_hackerearth_game!(kind, G => self.probe::<G>())
            .unwrap_or_else(|| Err(ArenaError::Invalid(format!("{kind} has no bot format"))))
    }

    /// Refuses a built-in that cannot play this game before anything is stored.
    fn probe<G: HackerEarth + Heuristics>(&self) -> Result<(), ArenaError> {
        let probe = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
        for b in &self.bots {
            b.spec
                .build::<G>(&b.name, 0, &probe, &self.limits)
                .map_err(|source| ArenaError::Bot {
                    bot: b.name.clone(),
                    source,
                })?;
        }
        Ok(())
    }

    fn lineup(&self) -> Result<PairLineup, ArenaError> {
        Ok(PairLineup {
            game: bot_game(&self.game)?,
            names: self.bots.iter().map(|b| b.name.clone()).collect(),
            specs: self.bots.iter().map(|b| b.spec.clone()).collect(),
            limits: self.limits,
            seed: self.seed,
        })
    }
}

/// Runs the tournament `plan` describes, stored in `store`, with programs in `sandbox`.
///
/// The tournament with the same configuration is found again: unfinished, it resumes (only
/// the games missing are played, and every round is re-rated from the stored games, so that a
/// resumed tournament ends exactly as an unbroken one); finished, nothing is played and its
/// standings are returned with [`TournamentRun::already_complete`]. With
/// [`TournamentPlan::new`], a new tournament starts whatever is stored.
///
/// Each round is queued in the store, then `concurrency` [`Worker`]s claim its games, play
/// them and post them; every result is stored the moment its game ends. `on_progress` is
/// called on this thread, in order.
///
/// # Errors
/// [`ArenaError::Invalid`] or [`ArenaError::Bot`] before anything is stored; a store error
/// or a game that cannot be played stops the run (what was stored stays stored).
pub fn run_tournament<S: Store + Send + ?Sized>(
    store: &mut S,
    plan: &TournamentPlan,
    sandbox: &Arc<Sandbox>,
    on_progress: impl FnMut(Progress),
) -> Result<TournamentRun, ArenaError> {
    plan.check()?;
    let config = plan.config()?;
    let bots = plan.bots.len();
    let total = u64::from(plan.rounds) * plan.format.games_per_round(bots) as u64;
    drive(
        store,
        &config,
        plan.new,
        total,
        &Lineup::Pair(plan.lineup()?),
        |round, store, id| Ok(plan.format.round(round, bots, &store.games(id)?)),
        plan.concurrency,
        sandbox,
        on_progress,
    )
}

/// What every local tournament does, whatever its game: find the tournament `config`
/// describes (or start it), then for each round queue its games (`round_games`), play them
/// (given the store and the tournament's id), play them with `concurrency` workers, rate it from the stored games ([`Lineup::rate`]) and report.
/// A finished tournament is only shown; a resumed one re-rates every round from what is
/// stored, so it ends exactly as an unbroken one.
#[allow(clippy::too_many_arguments)]
pub(crate) fn drive<S: Store + Send + ?Sized>(
    store: &mut S,
    config: &TournamentConfig,
    new: bool,
    total: u64,
    lineup: &Lineup,
    mut round_games: impl FnMut(u32, &mut S, i64) -> Result<Vec<QueuedGame>, ArenaError>,
    concurrency: usize,
    sandbox: &Arc<Sandbox>,
    mut on_progress: impl FnMut(Progress),
) -> Result<TournamentRun, ArenaError> {
    let existing = if new {
        None
    } else {
        store.find_tournament(config)?
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
        None => store.create_tournament(config)?,
    };
    // One local runner per tournament: a lease found now was left by a run that was killed.
    store.expire_leases(Some(t.id), u64::MAX)?;
    on_progress(Progress::Started {
        tournament: t.clone(),
        played: store.games(t.id)?.len(),
        total,
    });
    for round in 1..=config.rounds {
        let games = round_games(round, store, t.id)?;
        store.enqueue(t.id, &games)?;
        play_queued(store, t.id, lineup, concurrency, sandbox, &mut on_progress)?;
        let ratings = lineup.rate(&store.games(t.id)?, round);
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

/// Plays every waiting game of `tournament` with `concurrency` workers, each claiming,
/// playing and posting on its own thread; results reach `on_progress` on this one.
fn play_queued<S: Store + Send + ?Sized>(
    store: &mut S,
    tournament: i64,
    lineup: &Lineup,
    concurrency: usize,
    sandbox: &Arc<Sandbox>,
    on_progress: &mut impl FnMut(Progress),
) -> Result<(), ArenaError> {
    let store = Mutex::new(store);
    let stop = AtomicBool::new(false);
    let lease = lineup.lease();
    let (tx, rx) = mpsc::channel::<Result<GameRecord, ArenaError>>();
    let mut failure = None;
    std::thread::scope(|scope| {
        for w in 0..concurrency.max(1) {
            let tx = tx.clone();
            let (store, stop) = (&store, &stop);
            let worker = Worker::new(format!("local-{w}"), Arc::clone(sandbox));
            scope.spawn(move || {
                let lock = || {
                    store
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                };
                while !stop.load(Ordering::Relaxed) {
                    let claimed = worker.claim(&mut **lock(), Some(tournament), lease);
                    let result = match claimed {
                        Ok(None) => return,
                        Ok(Some(l)) => worker.play(&l, lineup).and_then(|record| {
                            match worker.post(&mut **lock(), &l, &record)? {
                                Completion::Stored => Ok(record),
                                other => Err(ArenaError::Stopped(format!(
                                    "game {}:{} was not stored ({other:?}): is another run \
                                     playing this tournament?",
                                    l.game.round, l.game.slot
                                ))),
                            }
                        }),
                        Err(e) => Err(e),
                    };
                    if tx.send(result).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            match result {
                Ok(record) => on_progress(Progress::GameStored(record)),
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                }
            }
        }
    });
    failure.map_or(Ok(()), Err)
}

/// Every bot's rating after each round from 1 to `last_round` (`history[r - 1][bot]`), as
/// [`ratings_after`] computes them: what a rating-history plot draws.
pub fn rating_history(games: &[GameRecord], bots: usize, last_round: u32) -> Vec<Vec<Rating>> {
    (1..=last_round)
        .map(|round| ratings_after(games, bots, round))
        .collect()
}

/// Results between every pair of bots: `table[a][b]` is bot `a`'s points against bot `b`
/// and the number of games they played, over the games given.
pub fn head_to_head(games: &[GameRecord], bots: usize) -> Vec<Vec<(f64, u32)>> {
    let mut table = vec![vec![(0.0, 0u32); bots]; bots];
    for g in games.iter().filter(|g| g.first < bots && g.second < bots) {
        let (a, b) = (g.first, g.second);
        table[a][b].0 += g.first_score;
        table[a][b].1 += 1;
        table[b][a].0 += 1.0 - g.first_score;
        table[b][a].1 += 1;
    }
    table
}

/// Every bot's rating after `last_round`, from the stored games alone: one Glicko-2 period
/// per round, each game rated against the opponent's rating at the start of the round.
/// Recomputed from scratch, so that a resumed tournament rates exactly as an unbroken one.
pub fn ratings_after(games: &[GameRecord], bots: usize, last_round: u32) -> Vec<Rating> {
    let mut ratings = vec![Rating::default(); bots];
    for round in 1..=last_round {
        let mut results: Vec<Vec<GameResult>> = vec![Vec::new(); bots];
        for g in games.iter().filter(|g| g.round == round) {
            if g.first >= bots || g.second >= bots {
                continue;
            }
            results[g.first].push(GameResult {
                opponent: ratings[g.second],
                score: g.first_score,
            });
            results[g.second].push(GameResult {
                opponent: ratings[g.first],
                score: 1.0 - g.first_score,
            });
        }
        ratings = ratings
            .iter()
            .zip(&results)
            .map(|(&r, games)| rate_period(r, games))
            .collect();
    }
    ratings
}
