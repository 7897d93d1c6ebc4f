//! What `ply match`, `ply tournament`, `ply leaderboard` and `ply replay` share: limits, player
//! specs, the database's place, arena errors as exit codes.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use ply_arena::ArenaError;
use ply_referee::{Limits, PlayerSpec, Sandbox};
use ply_store::{SqliteStore, Store};

use crate::bad_input;

/// The limits of every external bot's move.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Wall time per move, in milliseconds (HackerEarth: 1000), 1 to 3600000.
    #[arg(long, default_value_t = 1000, value_parser = crate::ranges::millis())]
    pub time_ms: u64,
    /// Memory per bot process, in MB (HackerEarth: 256), 1 to 1048576.
    #[arg(long, default_value_t = 256, value_parser = crate::ranges::megabytes())]
    pub memory_mb: u64,
    /// Output per move, in KB, 1 to 1048576; more loses the game.
    #[arg(long, default_value_t = 64, value_parser = crate::ranges::kilobytes_flag())]
    pub output_kb: u64,
    /// CPUs each bot program may use at once, 1 to 64 (where cgroups can limit them: the
    /// game's jail). 1, the default, gives a bot of two threads one CPU between them; give 2
    /// to match bots that search on two cores, as `ply bot --threads 2` does.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub cpus: u32,
    /// A variable every bot program sees, as KEY=VALUE (repeatable). Bots get only PATH,
    /// LANG, HOME (a fresh folder of their own) and these: nothing else of ply's environment.
    #[arg(long = "bot-env", value_name = "KEY=VALUE")]
    pub bot_env: Vec<String>,
    /// Refuse to run unless every bot program can be jailed (namespaces through bubblewrap,
    /// memory and pids cgroups, the freezer); without it, ply says what is missing and runs.
    #[arg(long)]
    pub require_jail: bool,
    /// Run bot programs without the jail (cgroups and the clean environment stay): only for
    /// trusted programs that must write outside their own folder.
    #[arg(long, conflicts_with = "require_jail")]
    pub no_jail: bool,
}

/// Whether bots must, may or must not run in the jail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JailMode {
    /// In the jail where this machine allows it; what is missing is said once.
    Default,
    /// In the jail, or not at all (`--require-jail`).
    Required,
    /// Without the jail (`--no-jail`).
    Off,
}

impl JailMode {
    /// The mode the two flags ask for (clap keeps them apart).
    pub fn from_flags(require_jail: bool, no_jail: bool) -> JailMode {
        match (require_jail, no_jail) {
            (true, _) => JailMode::Required,
            (false, true) => JailMode::Off,
            (false, false) => JailMode::Default,
        }
    }
}

/// The sandbox bots run in: the jail and the best memory guard here, and a clean environment
/// (this PATH, so that interpreters are found; LANG; the user's `--bot-env` variables);
/// `hidden` paths (the database) are out of every bot's sight. What protection is missing
/// is said once, as a warning, or is an error with [`JailMode::Required`].
pub fn sandbox(bot_env: &[String], jail: JailMode, hidden: &[&Path]) -> Result<Sandbox> {
    let mut vars = vec![(
        "PATH".to_string(),
        std::env::var("PATH").unwrap_or_else(|_| ply_referee::process::DEFAULT_BOT_PATH.into()),
    )];
    for item in bot_env {
        let Some((key, value)) = item.split_once('=') else {
            return Err(bad_input!("--bot-env {item:?}: give KEY=VALUE"));
        };
        if key.is_empty() || key.contains('\0') || value.contains('\0') {
            return Err(bad_input!(
                "--bot-env {item:?}: the name must be non-empty, without NUL bytes"
            ));
        }
        vars.push((key.to_string(), value.to_string()));
    }
    // ply is its own jail launcher (main calls serve_if_asked): one jail per game and seat
    // for per-move bots. Where /proc/self/exe cannot be opened, a jail per move.
    let launcher = ply_referee::launcher::Launcher::this_program().ok();
    let mut sandbox = Sandbox::detect().with_env(vars).with_launcher(launcher);
    for path in hidden {
        sandbox = sandbox.hide(path);
    }
    if jail == JailMode::Off {
        return Ok(sandbox.with_jail(None));
    }
    if jail == JailMode::Required {
        sandbox.require_jail()?;
    } else if !sandbox.report().is_complete() {
        for line in sandbox.report().to_string().lines() {
            tracing::warn!("{}", line.trim_start());
        }
    }
    Ok(sandbox)
}

impl LimitArgs {
    /// The jail the flags ask for.
    pub fn jail(&self) -> JailMode {
        JailMode::from_flags(self.require_jail, self.no_jail)
    }

    /// The limits, checked.
    pub fn limits(&self) -> Result<Limits> {
        // The flags' ranges (crate::ranges) keep these shifts far from overflowing.
        Ok(Limits {
            time: Duration::from_millis(self.time_ms),
            memory: self.memory_mb << 20,
            output: crate::ranges::kilobytes(self.output_kb),
            cpus: self.cpus,
        })
    }
}

/// Refuses a program a jailed bot could not reach (`Sandbox::check_reachable`), naming
/// the option it came from.
pub fn check_reachable(sandbox: &Sandbox, option: &str, spec: &PlayerSpec) -> Result<()> {
    if let PlayerSpec::Command(command) = spec {
        sandbox
            .check_reachable(command, std::env::var_os("PATH").as_deref())
            .map_err(|e| bad_input!("{option}: {e}"))?;
    }
    Ok(())
}

/// Reads a player spec, naming the option it came from.
pub fn player_spec(option: &str, text: &str) -> Result<PlayerSpec> {
    let spec = text
        .parse::<PlayerSpec>()
        .map_err(|e| bad_input!("{option} {text:?}: {e}"))?;
    if let PlayerSpec::Command(command) = &spec {
        // Before any game: a missing program would otherwise lose every game it is in.
        command
            .check_program(std::env::var_os("PATH").as_deref())
            .map_err(|e| bad_input!("{option} {text:?}: {e}"))?;
    }
    Ok(spec)
}

/// `--bot NAME=SPEC` options as entrants: names non-empty and distinct, specs checked.
pub fn parse_entrants(texts: &[String]) -> Result<Vec<ply_arena::Entrant>> {
    let mut bots: Vec<ply_arena::Entrant> = Vec::new();
    for text in texts {
        let (name, spec) = text.split_once('=').ok_or_else(|| {
            bad_input!("--bot {text:?}: write NAME=SPEC, e.g. --bot ab=builtin:alphabeta")
        })?;
        let name = name.trim();
        if name.is_empty() {
            return Err(bad_input!("--bot {text:?}: the name before `=` is empty"));
        }
        if bots.iter().any(|b| b.name == name) {
            return Err(bad_input!("--bot {text:?}: two bots are named {name:?}"));
        }
        bots.push(ply_arena::Entrant {
            name: name.to_string(),
            spec: player_spec("--bot", spec)?,
        });
    }
    Ok(bots)
}

/// `--db`, or else the `PLY_DB` variable: a file's path or a `postgres://` URL.
fn db_value(db: Option<&PathBuf>) -> Option<PathBuf> {
    db.cloned()
        .or_else(|| std::env::var_os("PLY_DB").map(PathBuf::from))
        .filter(|p| !p.as_os_str().is_empty())
}

/// The PostgreSQL URL that `--db` (or `PLY_DB`) gives, if it gives one.
pub fn postgres_url(db: Option<&PathBuf>) -> Option<String> {
    db_value(db)
        .and_then(|p| p.to_str().map(str::to_string))
        .filter(|s| ply_store::is_postgres_url(s))
}

/// A URL without its password, for messages.
pub fn shown_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            let user = userinfo.split(':').next().unwrap_or("");
            format!("{}{user}{}", &url[..scheme + 3], &url[at..])
        }
        _ => url.to_string(),
    }
}

/// The arena database, SQLite file or PostgreSQL server, created or migrated if needed; and
/// how to name it in messages.
pub fn open_any_store(db: Option<&PathBuf>) -> Result<(Box<dyn Store + Send>, String)> {
    if let Some(url) = postgres_url(db) {
        let shown = shown_url(&url);
        let store = ply_store::PostgresStore::open(&url)
            .with_context(|| format!("opening the arena database {shown}"))?;
        return Ok((Box::new(store), shown));
    }
    let (store, path) = open_store(db)?;
    Ok((Box::new(store), path.display().to_string()))
}

/// Where the arena database is: `--db` (or `PLY_DB`) or `arena.sqlite3` in the platform's
/// data directory (`~/.local/share/ply` on Linux).
pub fn store_path(db: Option<&PathBuf>) -> Result<PathBuf> {
    Ok(match db_value(db) {
        Some(p) if p.is_dir() => {
            return Err(bad_input!(
                "the database {} is a folder; name a file, such as {}",
                p.display(),
                p.join("arena.sqlite3").display()
            ));
        }
        Some(p) => p,
        None => {
            let dirs = directories::ProjectDirs::from("", "", "ply").ok_or_else(|| {
                bad_input!("cannot find a home directory for the database; give --db PATH")
            })?;
            dirs.data_dir().join("arena.sqlite3")
        }
    })
}

/// The arena database for reading only (nothing is created or written: it works in a
/// read-only directory), `None` when there is no database file yet; and its path.
pub fn open_store_read_only(db: Option<&PathBuf>) -> Result<(Option<SqliteStore>, PathBuf)> {
    let path = store_path(db)?;
    if !path.exists() {
        return Ok((None, path));
    }
    let store = SqliteStore::open_read_only(&path)
        .with_context(|| format!("opening the arena database {}", path.display()))?;
    Ok((Some(store), path))
}

/// The arena database for reading only, SQLite file or PostgreSQL server: `None` when there
/// is no database file yet (nothing is created); and how to name it in messages.
pub fn open_any_store_read_only(
    db: Option<&PathBuf>,
) -> Result<(Option<Box<dyn Store + Send>>, String)> {
    if postgres_url(db).is_some() {
        let (store, shown) = open_any_store(db)?;
        return Ok((Some(store), shown));
    }
    let (store, path) = open_store_read_only(db)?;
    Ok((
        store.map(|s| Box::new(s) as Box<dyn Store + Send>),
        path.display().to_string(),
    ))
}

/// The arena database, created if needed.
pub fn open_store(db: Option<&PathBuf>) -> Result<(SqliteStore, PathBuf)> {
    let path = store_path(db)?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating the directory {}", parent.display()))?;
    }
    let store = SqliteStore::open(&path)
        .with_context(|| format!("opening the arena database {}", path.display()))?;
    Ok((store, path))
}

/// An arena error for the exit code: what the user asked for (bad configuration, a bot that
/// cannot play the game) is bad input; `option` names the flag of the bots (`--bot`).
pub fn arena_error(e: ArenaError, option: &str) -> anyhow::Error {
    match e {
        ArenaError::Invalid(text) => bad_input!("{text}"),
        ArenaError::Bot { bot, source } => bad_input!("{option} {bot}: {source}"),
        other => anyhow::Error::new(other),
    }
}
