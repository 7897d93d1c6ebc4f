//! `ply serve`: the browser front end. An axum server whose pages, styles and scripts are
//! embedded in the binary ([`assets`]), and a JSON API under `/api` ([`api`]) that calls the
//! solvers, the games' AIs, the arena and the store: nothing is computed here that a library
//! already offers, and nothing here prints (the binary does).
//!
//! Safety rules, all enforced in this crate:
//! * loopback by default; a non-loopback address needs a token ([`Config::check`]), and with a
//!   token every request that is not a `GET` must carry it (`Authorization: Bearer T` or
//!   `X-Ply-Token: T`);
//! * request bodies are limited to [`BODY_LIMIT`] bytes and queries to [`QUERY_LIMIT`];
//! * tournaments started from a page only use built-in bots (never a command line);
//! * replay files are read only from `<data dir>/replays`, by names that cannot leave it.

pub mod api;
pub mod assets;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};

/// The largest request body accepted, in bytes (a 32x32 Sudoku is about 1 KiB).
pub const BODY_LIMIT: usize = 64 * 1024;

/// The longest query string accepted, in bytes.
pub const QUERY_LIMIT: usize = 2048;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The arena database: a SQLite file (created on the first tournament started from a
    /// page) or a `postgres://` URL.
    pub db: PathBuf,
    /// The data directory: replay files are read from its `replays` folder only.
    pub data_dir: PathBuf,
    /// The token state-changing requests must carry; required off the loopback address.
    pub token: Option<String>,
}

/// A configuration that must not be served.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A non-loopback address without a token.
    #[error("{addr} is not a loopback address: give a token (--token) to serve on it")]
    TokenNeeded {
        /// The address asked for.
        addr: SocketAddr,
    },
    /// A token too short to guess hard.
    #[error("the token must be at least 8 characters")]
    TokenTooShort,
}

/// Why the server stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The configuration was refused.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Binding or serving failed.
    #[error("serving on {addr}: {source}")]
    Io {
        /// The address.
        addr: SocketAddr,
        /// The cause.
        source: std::io::Error,
    },
}

impl Config {
    /// Checks the rules that do not depend on the network: a token off the loopback address.
    ///
    /// # Errors
    /// [`ConfigError`] naming the rule broken.
    pub fn check(&self) -> Result<(), ConfigError> {
        if let Some(t) = &self.token
            && t.len() < 8
        {
            return Err(ConfigError::TokenTooShort);
        }
        if !self.addr.ip().is_loopback() && self.token.is_none() {
            return Err(ConfigError::TokenNeeded { addr: self.addr });
        }
        Ok(())
    }
}

/// A fresh random token of 32 hex digits, for a non-loopback address given none.
pub fn generate_token() -> String {
    use rand::Rng;
    let mut rng = rand::rng();
    (0..16)
        .map(|_| format!("{:02x}", rng.random::<u8>()))
        .collect()
}

/// What every handler shares.
#[derive(Debug)]
pub struct AppState {
    /// The configuration served.
    pub config: Config,
    /// Tournaments started from pages and still running, by id.
    pub running: std::sync::Mutex<std::collections::BTreeSet<i64>>,
}

/// The whole application: pages, API, limits and the token check.
pub fn router(config: Config) -> Router {
    let state = Arc::new(AppState {
        config,
        running: Default::default(),
    });
    Router::new()
        .nest("/api", api::routes())
        .merge(assets::routes())
        .layer(middleware::from_fn_with_state(Arc::clone(&state), guard))
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

/// Serves until the process is stopped; `ready` is called with the bound address (port 0
/// picks a free one).
///
/// # Errors
/// [`ServeError`] when the configuration is refused or the address cannot be bound.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    config.check()?;
    let addr = config.addr;
    let io = |source| ServeError::Io { addr, source };
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(io)?;
    ready(listener.local_addr().map_err(io)?);
    axum::serve(listener, router(config))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(io)
}

/// The limits every request passes first: the query's length and, when a token is set, the
/// token on every request that is not a `GET` or `HEAD`.
async fn guard(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if request.uri().query().is_some_and(|q| q.len() > QUERY_LIMIT) {
        return api::error(
            StatusCode::URI_TOO_LONG,
            format!("the query is longer than {QUERY_LIMIT} bytes"),
        );
    }
    let reads = matches!(*request.method(), Method::GET | Method::HEAD);
    if let Some(token) = &state.config.token
        && !reads
    {
        let headers = request.headers();
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .or_else(|| headers.get("x-ply-token").and_then(|v| v.to_str().ok()));
        if !given.is_some_and(|g| constant_time_eq(g.as_bytes(), token.as_bytes())) {
            return (
                StatusCode::UNAUTHORIZED,
                [(header::WWW_AUTHENTICATE, "Bearer")],
                axum::Json(serde_json::json!({
                    "error": "this server needs its token: send `Authorization: Bearer TOKEN` \
                              (pages: open them with ?token=TOKEN)"
                })),
            )
                .into_response();
        }
    }
    next.run(request).await
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// [`serve`] on a runtime of its own, for a caller without one (the `ply` binary).
///
/// # Errors
/// As [`serve`], and when the runtime cannot start.
pub fn run(config: Config, ready: impl FnOnce(SocketAddr)) -> Result<(), ServeError> {
    let addr = config.addr;
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|source| ServeError::Io { addr, source })?
        .block_on(serve(config, ready))
}
