//! `ply worker` and `ply workers`: play the games of tournaments queued in a shared
//! database (`ply tournament --enqueue`), and list the workers doing so. The pool itself is
//! `ply_arena::run_pool`; this reads the arguments, handles signals and logs.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use ply_arena::worker::now_ms;
use ply_arena::{PoolEvent, PoolOptions, run_pool};
use ply_store::{Completion, Store};

use super::arena::{open_any_store, postgres_url, shown_url};
use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply tournament tictactoe --bot a=builtin:random --bot b='python3 b.py' \\\n    \
--db postgres://ply@db.example/arena --enqueue\n  \
ply worker --db postgres://ply@db.example/arena --concurrency 4   # on every machine\n  \
ply tournament tictactoe ... --db postgres://ply@db.example/arena --watch\n\n\
A worker claims queued games, plays them with the local referee and stores each result once.\n\
It plays a bot only if its copy of the bot's program has the hash the tournament was queued\n\
with, and says which bots it lacks. SIGTERM or Ctrl-C: it finishes the games it holds, then\n\
exits; a worker killed outright loses its games when their lease runs out, and others play\n\
them again.")]
pub struct WorkerArgs {
    /// The shared database: a PostgreSQL URL (or PLY_DB); a SQLite file works on one machine.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Games played at once, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::concurrency)]
    pub concurrency: usize,
    /// This worker's name in `ply workers` (default: HOSTNAME-PID).
    #[arg(long)]
    pub name: Option<String>,
    /// Exit once nothing is left to play (no game it can claim, none held by another worker).
    #[arg(long)]
    pub exit_when_idle: bool,
    /// Seconds a claimed game stays this worker's without a heartbeat, 1 to 3600 (the
    /// heartbeat renews it every third of that): how soon a vanished worker's games return.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub lease_secs: u64,
    /// A variable every bot program sees, as KEY=VALUE (repeatable).
    #[arg(long = "bot-env", value_name = "KEY=VALUE")]
    pub bot_env: Vec<String>,
    /// Where programs kept in the database (`ply tournament --store-programs`) are written
    /// (default: programs/ in the platform's data directory).
    #[arg(long, value_name = "DIR")]
    pub programs_dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  ply workers --db postgres://ply@db.example/arena\n  \
ply workers --db postgres://ply@db.example/arena --silent-after 30 --json"
)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct WorkersArgs {
    /// The shared database: a PostgreSQL URL (or PLY_DB), or a SQLite file.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// A worker that is not `stopped` but has sent no heartbeat for this many seconds is shown
    /// as `silent` (killed, frozen or cut off; its games return when their lease runs out).
    /// A worker's heartbeat comes every third of its `--lease-secs` (default 30).
    #[arg(long, default_value_t = 60, value_name = "SECS", value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub silent_after: u64,
    #[command(flatten)]
    pub json: crate::out::Json,
}

fn default_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "worker".into());
    format!("{host}-{}", std::process::id())
}

fn programs_dir(args: &WorkerArgs) -> Result<PathBuf> {
    if let Some(dir) = &args.programs_dir {
        return Ok(dir.clone());
    }
    let dirs = directories::ProjectDirs::from("", "", "ply").ok_or_else(|| {
        bad_input!("cannot find a home directory for stored programs; give --programs-dir")
    })?;
    Ok(dirs.data_dir().join("programs"))
}

pub fn run(args: &WorkerArgs) -> Result<ExitCode> {
    let name = args.name.clone().unwrap_or_else(default_name);
    if name.trim().is_empty() {
        return Err(bad_input!("--name is empty"));
    }
    // Opened once here so that a wrong URL or a newer schema is reported before any thread.
    let (_, shown) = open_any_store(args.db.as_ref())?;
    let url = postgres_url(args.db.as_ref());
    let db = args.db.clone();
    let open = || -> Result<Box<dyn Store + Send>, ply_store::StoreError> {
        match &url {
            Some(u) => Ok(Box::new(ply_store::PostgresStore::open(u)?)),
            None => open_any_store(db.as_ref())
                .map(|(s, _)| s)
                .map_err(|e| ply_store::StoreError::Database(format!("{e:#}"))),
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(signal, Arc::clone(&stop))
            .context("installing the signal handlers")?;
    }
    let options = PoolOptions {
        name: name.clone(),
        concurrency: args.concurrency,
        lease: Duration::from_secs(args.lease_secs),
        exit_when_idle: args.exit_when_idle,
        poll: Duration::from_secs(1),
        // A worker plays other people's programs: the whole jail or nothing (issue 18).
        require_jail: true,
        programs_dir: Some(programs_dir(args)?),
    };
    let sandbox = Arc::new(super::arena::sandbox(
        &args.bot_env,
        super::arena::JailMode::Required,
        &[],
    )?);
    tracing::info!(worker = %name, db = %shown, concurrency = args.concurrency, "worker started");
    let summary = run_pool(open, &options, &sandbox, &stop, |event| log(&event))
        .context("running the worker")?;
    tracing::info!(
        worker = %name,
        stored = summary.stored,
        lost = summary.lost,
        "worker stopped: {} results stored, {} refused (lease lost)",
        summary.stored,
        summary.lost
    );
    Ok(ExitCode::SUCCESS)
}

/// One log line per event, with the game's place as fields.
fn log(event: &PoolEvent) {
    match event {
        PoolEvent::Claimed(l) => tracing::debug!(
            tournament = l.tournament,
            round = l.game.round,
            slot = l.game.slot,
            attempt = l.attempt,
            "claimed game {}:{} of tournament #{}",
            l.game.round,
            l.game.slot,
            l.tournament
        ),
        PoolEvent::Posted { lease: l, recorded } => {
            match recorded.completion {
                Completion::Stored => tracing::info!(
                    tournament = l.tournament,
                    round = l.game.round,
                    slot = l.game.slot,
                    attempt = l.attempt,
                    "stored game {}:{} of tournament #{}",
                    l.game.round,
                    l.game.slot,
                    l.tournament
                ),
                other => tracing::warn!(
                    tournament = l.tournament,
                    round = l.game.round,
                    slot = l.game.slot,
                    attempt = l.attempt,
                    "game {}:{} of tournament #{} not stored: {other:?}",
                    l.game.round,
                    l.game.slot,
                    l.tournament
                ),
            }
            for round in &recorded.rounds_rated {
                tracing::info!(tournament = l.tournament, round, "round {round} rated");
            }
            if recorded.finished {
                tracing::info!(
                    tournament = l.tournament,
                    "tournament #{} finished",
                    l.tournament
                );
            }
        }
        PoolEvent::Lacking { tournament, bots } => tracing::warn!(
            tournament,
            "not playing the games of these bots of tournament #{tournament}: {}",
            bots.join("; ")
        ),
        PoolEvent::Failed { lease: l, error } => tracing::warn!(
            tournament = l.tournament,
            round = l.game.round,
            slot = l.game.slot,
            "game {}:{} of tournament #{} given back: {error}",
            l.game.round,
            l.game.slot,
            l.tournament
        ),
        PoolEvent::Idle => tracing::debug!("nothing to claim; waiting"),
    }
}

pub fn list(args: &WorkersArgs) -> Result<ExitCode> {
    let (store, shown) = open_any_store(args.db.as_ref())?;
    let workers = store.workers().context("reading the workers")?;
    let now = now_ms();
    // What the store says a worker was doing is its own last word; one that stopped talking
    // without saying `stopped` is shown as `silent`.
    let seen: Vec<(&ply_store::WorkerStatus, u64, &str)> = workers
        .iter()
        .map(|w| {
            let ago_ms = now.saturating_sub(w.heartbeat_ms);
            let state = if w.state != "stopped" && ago_ms > args.silent_after * 1000 {
                "silent"
            } else {
                w.state.as_str()
            };
            (w, ago_ms / 1000, state)
        })
        .collect();
    if args.json.on {
        let rows: Vec<serde_json::Value> = seen
            .iter()
            .map(|(w, ago, state)| {
                let mut row = serde_json::to_value(w).unwrap_or_default();
                row["reported_state"] = row["state"].take();
                row["state"] = (*state).into();
                row["seconds_since_heartbeat"] = (*ago).into();
                row
            })
            .collect();
        outln!("{}", serde_json::to_string_pretty(&rows)?);
        return Ok(ExitCode::SUCCESS);
    }
    if workers.is_empty() {
        outln!("no workers have reported to {}", shown_url(&shown));
        return Ok(ExitCode::SUCCESS);
    }
    outln!(
        "{:<24} {:<8} {:>6} {:>16}",
        "worker",
        "state",
        "games",
        "last heartbeat"
    );
    for (w, ago, state) in &seen {
        outln!(
            "{:<24} {:<8} {:>6} {:>16}",
            w.name,
            state,
            w.games,
            format!("{ago} s ago")
        );
    }
    Ok(ExitCode::SUCCESS)
}
