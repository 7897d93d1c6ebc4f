//! `ply serve`: the browser front end (`ply_web`), on the loopback address by default.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::Args;

use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply serve                          # then open http://127.0.0.1:8080/\n  \
ply serve --addr 127.0.0.1:0       # any free port, printed\n  \
ply serve --addr 0.0.0.0:8080      # other machines: a token is generated and printed\n\n\
Off the loopback address every request that changes something must carry the token\n\
(`Authorization: Bearer TOKEN`; pages: open them with ?token=TOKEN). Tournaments started\n\
from a page use built-in bots only. The API is described in docs/web.md.")]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// The arena database: a SQLite file (default: arena.sqlite3 in the platform's data
    /// directory, or `PLY_DB`) or a `postgres://` URL, where workers' games show live.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// The data directory whose `replays` folder the replay viewer lists (default: the
    /// database's folder).
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// The token for state-changing requests; required off the loopback address (generated
    /// and printed when missing there).
    #[arg(long)]
    pub token: Option<String>,
}

pub fn run(args: &ServeArgs) -> Result<ExitCode> {
    // A `postgres://` URL (the database of a distributed tournament) is passed on as it is;
    // replays then default to the platform's data directory.
    let postgres = super::arena::postgres_url(args.db.as_ref());
    let file = match &postgres {
        Some(_) => super::arena::store_path(None)?,
        None => super::arena::store_path(args.db.as_ref())?,
    };
    let data_dir = match &args.data_dir {
        Some(d) => d.clone(),
        None => file
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), PathBuf::from),
    };
    let db = postgres.map_or(file, PathBuf::from);
    let mut token = args.token.clone();
    if token.is_none() && !args.addr.ip().is_loopback() {
        let t = ply_web::generate_token();
        outln!("token: {t}");
        token = Some(t);
    }
    let config = ply_web::Config {
        addr: args.addr,
        db,
        data_dir,
        token,
    };
    config.check().map_err(|e| bad_input!("{e}"))?;
    let with_token = config.token.clone();
    ply_web::run(config, |addr| {
        let query = with_token
            .map(|t| format!("?token={t}"))
            .unwrap_or_default();
        // The address line is what scripts (and the end-to-end tests) wait for.
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout().lock(), "serving on http://{addr}/{query}");
    })
    .context("running the web server")?;
    Ok(ExitCode::SUCCESS)
}
