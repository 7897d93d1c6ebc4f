//! Tournaments across many machines: queue a tournament's games in a shared store
//! ([`enqueue_tournament`], [`enqueue_ants_tournament`]) and let any number of worker
//! processes play them ([`run_pool`]), two-player games and Ants games alike (each
//! tournament's [`Lineup`] plays and rates its own).
//!
//! ```text
//!  organiser:  enqueue_tournament ──► store (PostgreSQL): queue, games, ratings, workers
//!                                        ▲  claim (SKIP LOCKED) / renew / complete_rated
//!  machine k:  run_pool ── thread 1..N ──┘  play with the local referee
//!                 └── heartbeat thread: renews every held lease, reports the worker
//! ```
//!
//! A worker plays a bot only when its own copy of the program has the hash stored with the
//! tournament ([`program_hash`]); it skips the games of the bots it lacks and says which (of
//! an Ants tournament, every game: the queue names only seats 0 and 1).
//! Each result is posted with [`Store::complete_rated`], so that the round's last result
//! rates the round, once, whichever machine posts it. A worker told to stop finishes the
//! games it holds, posts them and exits.
//!
//! Isolation: bots run in the [`Sandbox`] the caller gives; with
//! [`PoolOptions::require_jail`] (what `ply worker` sets) a sandbox without the referee's
//! whole jail is refused before anything is claimed.

use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sha2::{Digest, Sha256};

use ply_referee::process::CommandLine;
use ply_referee::spec::AntsSpec;
use ply_referee::{PlayerSpec, Sandbox};
use ply_store::{
    Completion, Lease, QueuedGame, Recorded, Store, StoreError, Tournament, TournamentConfig,
    WorkerStatus,
};

use crate::ants_tournament::{AntsLineup, AntsTournamentPlan};
use crate::worker::{Lineup, now_ms};
use crate::{ArenaError, TournamentPlan};

/// The program a command line runs, for hashing: its last word that names an existing file
/// or folder (`python3 bot.py` is `bot.py`, `./bot` is `./bot`, `java -cp dir Main` is
/// `dir`), relative to the working folder. `None` for built-ins and for commands that name no
/// file (a program found on `PATH`).
pub fn program_of(spec: &PlayerSpec) -> Option<PathBuf> {
    match spec {
        PlayerSpec::Command(c) => program_of_command(c),
        PlayerSpec::Builtin(..) => None,
    }
}

/// [`program_of`] for any command line (an Ants bot's too).
pub fn program_of_command(c: &CommandLine) -> Option<PathBuf> {
    // A program without a slash is found on PATH: an interpreter, not the bot.
    let program = c.program.contains('/').then_some(&c.program);
    c.args
        .iter()
        .rev()
        .chain(program)
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// The SHA-256 of a program, `sha256:` and 64 hex digits: of the file's bytes, or of a
/// folder's files (each relative path and content, in sorted order).
///
/// # Errors
/// The I/O error reading it.
pub fn program_hash(path: &Path) -> std::io::Result<String> {
    let mut h = Sha256::new();
    if path.is_dir() {
        let mut files = Vec::new();
        collect_files(path, path, &mut files)?;
        files.sort();
        for rel in files {
            h.update(rel.to_string_lossy().as_bytes());
            h.update([0]);
            let bytes = std::fs::read(path.join(&rel))?;
            h.update((bytes.len() as u64).to_le_bytes());
            h.update(&bytes);
        }
    } else {
        let mut f = std::fs::File::open(path)?;
        let mut buf = vec![0; 64 << 10];
        loop {
            let n = f.read(&mut buf)?;
            if n == 0 {
                break;
            }
            h.update(&buf[..n]);
        }
    }
    let digest = h.finalize();
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    Ok(format!("sha256:{hex}"))
}

fn collect_files(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_type()?.is_dir() {
            collect_files(root, &path, out)?;
        } else if let Ok(rel) = path.strip_prefix(root) {
            out.push(rel.to_path_buf());
        }
    }
    Ok(())
}

/// The largest bot program kept in the database (`--store-programs`): 4 MiB.
pub const MAX_STORED_PROGRAM: usize = 4 << 20;

/// Where workers find the bots' programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Programs {
    /// On each worker machine, at the path of the command line (the hash is checked).
    OnWorkers,
    /// Also kept in the database (one file each, up to [`MAX_STORED_PROGRAM`]): a worker
    /// whose copy is missing or differs takes the stored one.
    Stored,
}

/// Queues every game of the tournament `plan` describes in `store`, without playing any:
/// the tournament found again (or created), each bot's program hashed and stored with it, and
/// all its rounds queued (a round robin's pairings do not depend on results). Returns the
/// tournament and how many games were added.
///
/// # Errors
/// [`ArenaError::Invalid`] or [`ArenaError::Bot`] for a plan that cannot be played, or a
/// program that cannot be read; [`ArenaError::Store`] when the store fails.
pub fn enqueue_tournament<S: Store + ?Sized>(
    store: &mut S,
    plan: &TournamentPlan,
    programs: Programs,
) -> Result<(Tournament, usize), ArenaError> {
    plan.check()?;
    let config = hashed_config(plan)?;
    let games: Vec<QueuedGame> = (1..=plan.rounds)
        .flat_map(|round| plan.format.round(round, plan.bots.len(), &[]))
        .collect();
    enqueue_all(store, &config, &bot_programs(plan), programs, &games)
}

/// Queues every game of the Ants tournament `plan` describes, as [`enqueue_tournament`]
/// does: its maps, seats and seeds are in the stored configuration, so a worker needs only
/// the database (and the bots' programs) to play any of them.
///
/// # Errors
/// As [`enqueue_tournament`].
pub fn enqueue_ants_tournament<S: Store + ?Sized>(
    store: &mut S,
    plan: &AntsTournamentPlan,
    programs: Programs,
) -> Result<(Tournament, usize), ArenaError> {
    plan.check()?;
    let config = hashed_ants_config(plan)?;
    let lineup = AntsLineup::from_config(&config)?;
    let games: Vec<QueuedGame> = (1..=plan.rounds).flat_map(|r| lineup.round(r)).collect();
    enqueue_all(store, &config, &ants_bot_programs(plan), programs, &games)
}

/// Each bot's name and the program its command line runs, by entry.
fn bot_programs(plan: &TournamentPlan) -> Vec<(String, Option<PathBuf>)> {
    let program = |b: &crate::Entrant| program_of(&b.spec);
    plan.bots
        .iter()
        .map(|b| (b.name.clone(), program(b)))
        .collect()
}

/// [`bot_programs`] of an Ants tournament.
fn ants_bot_programs(plan: &AntsTournamentPlan) -> Vec<(String, Option<PathBuf>)> {
    let program = |b: &crate::AntsEntrant| match &b.spec {
        AntsSpec::Command(c) => program_of_command(c),
        AntsSpec::Builtin(_) => None,
    };
    plan.bots
        .iter()
        .map(|b| (b.name.clone(), program(b)))
        .collect()
}

/// Stores the programs when asked, finds or creates the tournament and queues `games`.
fn enqueue_all<S: Store + ?Sized>(
    store: &mut S,
    config: &TournamentConfig,
    bots: &[(String, Option<PathBuf>)],
    programs: Programs,
    games: &[QueuedGame],
) -> Result<(Tournament, usize), ArenaError> {
    if programs == Programs::Stored {
        for (entry, (bot, path)) in config.bots.iter().zip(bots) {
            let (Some(hash), Some(path)) = (&entry.hash, path) else {
                continue;
            };
            let unreadable = |why: String| {
                ArenaError::Invalid(format!(
                    "bot {bot:?}: cannot store its program {}: {why}",
                    path.display()
                ))
            };
            if path.is_dir() {
                return Err(unreadable(
                    "it is a folder; only a single file is stored (copy folders to every \
                     worker)"
                        .into(),
                ));
            }
            let bytes = std::fs::read(path).map_err(|e| unreadable(e.to_string()))?;
            if bytes.len() > MAX_STORED_PROGRAM {
                return Err(unreadable(format!(
                    "{} bytes, more than the {} a stored program may have",
                    bytes.len(),
                    MAX_STORED_PROGRAM
                )));
            }
            let name = path
                .file_name()
                .map_or_else(|| "program".into(), |n| n.to_string_lossy().into_owned());
            store.put_program(hash, &name, &bytes)?;
        }
    }
    let t = match store.find_tournament(config)? {
        Some(t) => t,
        None => store.create_tournament(config)?,
    };
    let added = store.enqueue(t.id, games)?;
    Ok((t, added))
}

/// The configuration of a tournament played by workers: [`TournamentPlan::config`] with the
/// hash of every bot's program, as [`enqueue_tournament`] stores it.
///
/// # Errors
/// [`ArenaError::Invalid`] for a program that cannot be read.
pub fn hashed_config(plan: &TournamentPlan) -> Result<TournamentConfig, ArenaError> {
    with_hashes(plan.config()?, &bot_programs(plan))
}

/// [`hashed_config`] of an Ants tournament, as [`enqueue_ants_tournament`] stores it.
///
/// # Errors
/// [`ArenaError::Invalid`] for a program that cannot be read.
pub fn hashed_ants_config(plan: &AntsTournamentPlan) -> Result<TournamentConfig, ArenaError> {
    with_hashes(plan.config(), &ants_bot_programs(plan))
}

fn with_hashes(
    mut config: TournamentConfig,
    bots: &[(String, Option<PathBuf>)],
) -> Result<TournamentConfig, ArenaError> {
    for (entry, (bot, path)) in config.bots.iter_mut().zip(bots) {
        if let Some(path) = path {
            entry.hash = Some(program_hash(path).map_err(|e| {
                ArenaError::Invalid(format!(
                    "bot {bot:?}: cannot read its program {}: {e}",
                    path.display()
                ))
            })?);
        }
    }
    Ok(config)
}

/// How a pool of workers runs.
#[derive(Clone, Debug)]
pub struct PoolOptions {
    /// The worker's name in the store (unique among live workers).
    pub name: String,
    /// Games played at once, each on its own thread and connection (0 counts as 1).
    pub concurrency: usize,
    /// How long a claim lasts without a heartbeat: a worker that vanishes loses its games
    /// this long after its last heartbeat.
    pub lease: Duration,
    /// Stop once nothing is left to play: no game this worker can claim and none held by
    /// another worker (whose lease could still run out and come back).
    pub exit_when_idle: bool,
    /// How long to wait before looking again when nothing can be claimed.
    pub poll: Duration,
    /// Bots must run in the referee's whole jail (`--require-jail`): [`run_pool`] refuses a
    /// sandbox that lacks any part of it, before it claims a game.
    pub require_jail: bool,
    /// Where programs taken from the database are written (one folder per hash); `None`:
    /// never take them, only play the bots whose programs are here.
    pub programs_dir: Option<PathBuf>,
}

impl Default for PoolOptions {
    fn default() -> Self {
        PoolOptions {
            name: "worker".into(),
            concurrency: 1,
            lease: Duration::from_secs(30),
            exit_when_idle: false,
            poll: Duration::from_secs(1),
            require_jail: false,
            programs_dir: None,
        }
    }
}

/// What a pool did, reported as it happens (from any of its threads).
#[derive(Clone, Debug)]
pub enum PoolEvent {
    /// A game was claimed.
    Claimed(Lease),
    /// A game was played and its result posted.
    Posted {
        /// The lease it was played under.
        lease: Lease,
        /// The result, as the store took it.
        recorded: Recorded,
    },
    /// This worker lacks these bots of a tournament (missing, or another version) and does
    /// not claim their games.
    Lacking {
        /// The tournament.
        tournament: i64,
        /// The bots, with why.
        bots: Vec<String>,
    },
    /// A game could not be played (a bot that cannot start): given back to the queue.
    Failed {
        /// The lease given back.
        lease: Lease,
        /// Why.
        error: String,
    },
    /// Nothing to claim; waiting (reported once per idle spell).
    Idle,
}

/// How a pool ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PoolSummary {
    /// Results stored.
    pub stored: u64,
    /// Results refused because their lease was lost (the game is or will be played again).
    pub lost: u64,
}

/// What one machine knows of a tournament: its lineup and the entries it cannot play.
#[derive(Clone)]
struct Known {
    /// `None` when the stored configuration does not parse here.
    lineup: Option<Arc<Lineup>>,
    skip: Vec<usize>,
}

/// A lineup as this machine can play it (`None`: not at all), the entries it lacks, and why.
type Resolved = (Option<Lineup>, Vec<usize>, Vec<String>);

/// What this machine can play of `t`: its lineup, with each program whose copy here differs
/// taken from the database when allowed; the entries it lacks, with a line for each.
fn resolve(
    t: &Tournament,
    store: &dyn Store,
    programs_dir: Option<&Path>,
) -> Result<Resolved, ArenaError> {
    let Ok(mut lineup) = Lineup::from_config(&t.config) else {
        return Ok((
            None,
            Vec::new(),
            vec!["every bot (the stored game or specs do not parse here)".into()],
        ));
    };
    let mut skip = Vec::new();
    let mut why = Vec::new();
    for (entry, bot) in t.config.bots.iter().enumerate() {
        let Some(want) = &bot.hash else { continue };
        let program = lineup.command(entry).and_then(program_of_command);
        let here = match program.map(|p| (program_hash(&p), p)) {
            None => format!("no program of {:?} here", bot.spec),
            Some((Ok(have), _)) if &have == want => continue,
            Some((Ok(have), p)) => format!("{} is {have}, the tournament's is {want}", p.display()),
            Some((Err(e), p)) => format!("{}: {e}", p.display()),
        };
        if let Some(dir) = programs_dir
            && let Some(command) = lineup.command(entry)
            && let Some(command) = fetch(store, dir, want, command)?
        {
            lineup.set_command(entry, command);
            continue;
        }
        skip.push(entry);
        why.push(format!("{} ({here})", bot.name));
    }
    if matches!(lineup, Lineup::Ants(_)) && !skip.is_empty() {
        // The queue knows an Ants game's first two seats only: a worker that lacks any bot
        // plays none of the tournament's games rather than one it cannot finish.
        why.push("and so every game of this Ants tournament".into());
        return Ok((None, skip, why));
    }
    Ok((Some(lineup), skip, why))
}

/// The program stored under `hash`, written to `dir/<hash>/<name>` (checked against the
/// hash), and `command` with its program word pointing there; `None` when none is stored.
fn fetch(
    store: &dyn Store,
    dir: &Path,
    hash: &str,
    command: &CommandLine,
) -> Result<Option<CommandLine>, ArenaError> {
    let Some((name, bytes)) = store.program(hash)? else {
        return Ok(None);
    };
    let io = |e: std::io::Error| ArenaError::Invalid(format!("writing a stored program: {e}"));
    if name.is_empty() || name.contains('/') || name == "." || name == ".." {
        return Ok(None);
    }
    let folder = dir.join(hash.trim_start_matches("sha256:"));
    let path = folder.join(&name);
    // Another thread may be running this very file: it is never rewritten in place, only
    // written beside it and renamed over it (and not at all when it is already right).
    if !program_hash(&path).is_ok_and(|have| have == hash) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::create_dir_all(&folder).map_err(io)?;
        let part = folder.join(format!(
            ".{name}.{}.{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::write(&part, &bytes).map_err(io)?;
        std::fs::set_permissions(&part, std::fs::Permissions::from_mode(0o755)).map_err(io)?;
        std::fs::rename(&part, &path).map_err(io)?;
        if program_hash(&path).map_err(io)? != hash {
            return Ok(None);
        }
    }
    // The word that named the program when it was queued: the last with this file name.
    let named = |w: &String| Path::new(w).file_name().is_some_and(|n| n == name.as_str());
    let mut command = command.clone();
    let shown = path.to_string_lossy().into_owned();
    if let Some(arg) = command.args.iter_mut().rev().find(|a| named(a)) {
        *arg = shown;
    } else if command.program.contains('/') && named(&command.program) {
        command.program = shown;
    } else {
        return Ok(None);
    }
    Ok(Some(command))
}

/// Runs a pool of `options.concurrency` workers on this machine until `stop` is set (or,
/// with [`PoolOptions::exit_when_idle`], until nothing is left), each thread with its own
/// store from `open`. `on_event` is called from the workers' threads.
///
/// A held game's lease is renewed every third of [`PoolOptions::lease`] by a heartbeat
/// thread, which also records the worker's line for `ply workers`. When `stop` is set, each
/// thread finishes and posts the game it holds, then returns.
///
/// # Errors
/// [`ArenaError::Store`] when a store cannot be opened or fails.
pub fn run_pool<O, E>(
    open: O,
    options: &PoolOptions,
    sandbox: &Arc<Sandbox>,
    stop: &AtomicBool,
    on_event: E,
) -> Result<PoolSummary, ArenaError>
where
    O: Fn() -> Result<Box<dyn Store + Send>, StoreError> + Sync,
    E: Fn(PoolEvent) + Sync,
{
    if options.require_jail {
        sandbox
            .require_jail()
            .map_err(|e| ArenaError::Invalid(e.to_string()))?;
    }
    let started = now_ms();
    let lease_ms = u64::try_from(options.lease.as_millis()).unwrap_or(u64::MAX);
    let held: Mutex<HashMap<usize, Lease>> = Mutex::new(HashMap::new());
    let stored = AtomicU64::new(0);
    let lost = AtomicU64::new(0);
    let finished = AtomicBool::new(false);
    let known: Mutex<HashMap<i64, Known>> = Mutex::new(HashMap::new());
    let mut heart = open()?;
    let status = |state: &str| WorkerStatus {
        name: options.name.clone(),
        started_ms: started,
        heartbeat_ms: now_ms(),
        games: stored.load(Ordering::Relaxed),
        state: state.into(),
    };
    heart.worker_seen(&status("working"))?;
    let result = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..options.concurrency.max(1))
            .map(|slot| {
                let (held, stored, lost, known, on_event, open) =
                    (&held, &stored, &lost, &known, &on_event, &open);
                let body = move || -> Result<(), ArenaError> {
                    let mut store = open()?;
                    let worker = format!("{}/{slot}", options.name);
                    let mut idle_reported = false;
                    let mut open = Vec::new();
                    while !stop.load(Ordering::Relaxed) {
                        let claimed = claim_next(
                            &mut *store,
                            &worker,
                            lease_ms,
                            known,
                            &mut open,
                            options.programs_dir.as_deref(),
                            on_event,
                        )?;
                        let Some((lease, lineup)) = claimed else {
                            let counts = store.queue_counts(None, now_ms())?;
                            if options.exit_when_idle && counts.leased == 0 {
                                return Ok(());
                            }
                            if !idle_reported {
                                on_event(PoolEvent::Idle);
                                idle_reported = true;
                            }
                            sleep_unless(stop, options.poll);
                            continue;
                        };
                        idle_reported = false;
                        lock(held).insert(slot, lease.clone());
                        on_event(PoolEvent::Claimed(lease.clone()));
                        let played = lineup.play(&lease.game, sandbox);
                        // The heartbeat may have renewed it meanwhile: post under the newest.
                        let current = lock(held).remove(&slot).unwrap_or(lease);
                        match played {
                            Ok(record) => {
                                let rate = |games: &[ply_store::GameRecord], round: u32| {
                                    lineup.rate(games, round)
                                };
                                let recorded =
                                    store.complete_rated(&current, &record, now_ms(), &rate)?;
                                match recorded.completion {
                                    Completion::Stored => stored.fetch_add(1, Ordering::Relaxed),
                                    Completion::LeaseLost => lost.fetch_add(1, Ordering::Relaxed),
                                    Completion::AlreadyStored => 0,
                                };
                                on_event(PoolEvent::Posted {
                                    lease: current,
                                    recorded,
                                });
                            }
                            Err(e) => {
                                store.release(&current)?;
                                on_event(PoolEvent::Failed {
                                    lease: current,
                                    error: e.to_string(),
                                });
                                sleep_unless(stop, options.poll);
                            }
                        }
                    }
                    Ok(())
                };
                scope.spawn(move || {
                    let result = body();
                    if result.is_err() {
                        // A failing thread stops the others at once; they finish their games.
                        stop.store(true, Ordering::Relaxed);
                    }
                    result
                })
            })
            .collect();
        // The heartbeat: renew what is held, report the worker, until every thread is done.
        // A failed beat is tried again at the next one (a lease lasts three beats): a
        // database that stays away makes the players' posts fail, and they stop the pool.
        let beat = scope.spawn(|| -> Result<(), ArenaError> {
            let every = (options.lease / 3).max(Duration::from_millis(50));
            while !finished.load(Ordering::Relaxed) {
                sleep_until_or(&finished, every);
                let leases: Vec<(usize, Lease)> =
                    lock(&held).iter().map(|(k, l)| (*k, l.clone())).collect();
                for (slot, lease) in leases {
                    if let Ok(Some(renewed)) = heart.renew(&lease, now_ms(), lease_ms) {
                        let mut h = lock(&held);
                        if h.get(&slot).is_some_and(|l| l.attempt == lease.attempt) {
                            h.insert(slot, renewed);
                        }
                    }
                }
                let state = if lock(&held).is_empty() {
                    "idle"
                } else {
                    "working"
                };
                let _ = heart.worker_seen(&status(state));
            }
            heart.worker_seen(&status("stopped"))?;
            Ok(())
        });
        let mut first_error = None;
        for t in threads {
            if let Err(e) = t
                .join()
                .unwrap_or_else(|_| Err(ArenaError::Stopped("a worker thread panicked".into())))
            {
                // One failing thread stops the others, which finish their games first.
                stop.store(true, Ordering::Relaxed);
                first_error.get_or_insert(e);
            }
        }
        finished.store(true, Ordering::Relaxed);
        let beat = beat
            .join()
            .unwrap_or_else(|_| Err(ArenaError::Stopped("the heartbeat panicked".into())));
        match first_error {
            Some(e) => Err(e),
            None => beat,
        }
    });
    result.map(|()| PoolSummary {
        stored: stored.load(Ordering::Relaxed),
        lost: lost.load(Ordering::Relaxed),
    })
}

/// Claims the next game this worker can play, looking at every open tournament in turn.
///
/// `open` is this thread's list of open tournaments, read again only when none of them has
/// a game left for it: a queue of thousands of games costs one claim per game, not a listing
/// too. (Tournaments are tried oldest first, and a new one is always newer.)
fn claim_next(
    store: &mut dyn Store,
    worker: &str,
    lease_ms: u64,
    known: &Mutex<HashMap<i64, Known>>,
    open: &mut Vec<Tournament>,
    programs_dir: Option<&Path>,
    on_event: &(impl Fn(PoolEvent) + Sync),
) -> Result<Option<(Lease, Arc<Lineup>)>, ArenaError> {
    if !open.is_empty()
        && let Some(found) = claim_in(store, worker, lease_ms, known, open, programs_dir, on_event)?
    {
        return Ok(Some(found));
    }
    *open = store.open_tournaments()?;
    claim_in(store, worker, lease_ms, known, open, programs_dir, on_event)
}

/// Claims the first game this worker can play in one of `open`.
fn claim_in(
    store: &mut dyn Store,
    worker: &str,
    lease_ms: u64,
    known: &Mutex<HashMap<i64, Known>>,
    open: &[Tournament],
    programs_dir: Option<&Path>,
    on_event: &(impl Fn(PoolEvent) + Sync),
) -> Result<Option<(Lease, Arc<Lineup>)>, ArenaError> {
    for t in open {
        let cached = lock(known).get(&t.id).cloned();
        let k = match cached {
            Some(k) => k,
            None => {
                // Checked once per tournament and process: the hashes of what is here.
                let (lineup, skip, why) = resolve(t, &*store, programs_dir)?;
                if !why.is_empty() {
                    on_event(PoolEvent::Lacking {
                        tournament: t.id,
                        bots: why,
                    });
                }
                let k = Known {
                    lineup: lineup.map(Arc::new),
                    skip,
                };
                lock(known).entry(t.id).or_insert(k).clone()
            }
        };
        let Some(lineup) = k.lineup else { continue };
        if let Some(lease) = store.claim_skipping(t.id, &k.skip, worker, now_ms(), lease_ms)? {
            return Ok(Some((lease, lineup)));
        }
    }
    Ok(None)
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Sleeps for `d`, waking early when `flag` is set.
fn sleep_unless(flag: &AtomicBool, d: Duration) {
    sleep_until_or(flag, d);
}

fn sleep_until_or(flag: &AtomicBool, d: Duration) {
    let step = Duration::from_millis(20);
    let mut left = d;
    while !left.is_zero() && !flag.load(Ordering::Relaxed) {
        let s = left.min(step);
        std::thread::sleep(s);
        left -= s;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> PlayerSpec {
        text.parse().unwrap()
    }

    #[test]
    fn the_program_is_the_last_word_naming_a_file_and_never_a_bare_interpreter() {
        let dir = tempfile::tempdir().unwrap();
        let bot = dir.path().join("bot.py");
        std::fs::write(&bot, "print(1)").unwrap();
        let b = bot.display();
        assert_eq!(
            program_of(&spec(&format!("python3 {b} --fast"))),
            Some(bot.clone())
        );
        assert_eq!(program_of(&spec(&format!("{b}"))), Some(bot.clone()));
        assert_eq!(program_of(&spec("python3 -c 'print(1)'")), None);
        assert_eq!(program_of(&spec("builtin:random")), None);
    }

    #[test]
    fn a_folder_hashes_its_files_names_and_contents() {
        let dir = tempfile::tempdir().unwrap();
        let bot = dir.path().join("bot");
        std::fs::create_dir_all(bot.join("lib")).unwrap();
        std::fs::write(bot.join("main.py"), "import lib").unwrap();
        std::fs::write(bot.join("lib/x.py"), "x = 1").unwrap();
        let first = program_hash(&bot).unwrap();
        assert!(
            first.starts_with("sha256:") && first.len() == 7 + 64,
            "{first}"
        );
        assert_eq!(program_hash(&bot).unwrap(), first);
        std::fs::write(bot.join("lib/x.py"), "x = 2").unwrap();
        let changed = program_hash(&bot).unwrap();
        assert_ne!(changed, first);
        std::fs::rename(bot.join("lib/x.py"), bot.join("lib/y.py")).unwrap();
        assert_ne!(
            program_hash(&bot).unwrap(),
            changed,
            "a rename is another version"
        );
        // A file's hash is the plain SHA-256 of its bytes (`sha256sum` agrees).
        let file = dir.path().join("f");
        std::fs::write(&file, "abc").unwrap();
        assert_eq!(
            program_hash(&file).unwrap(),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
