//! Tournaments (list, standings, rating history, head-to-head, games and their replays, live
//! progress, starting one of built-in bots) and replay files from the data directory.
//!
//! Everything is read through `ply_store::Store` and computed by `ply_arena`; the database is
//! opened per request (SQLite in WAL mode lets pages read while a tournament writes).

use std::convert::Infallible;
use std::path::{Path as FsPath, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::response::sse::{Event, KeepAlive, Sse};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio_stream::wrappers::ReceiverStream;

use ply_arena::{
    AntsLineup, Entrant, Format, Progress, TournamentPlan, head_to_head, rating_history,
};
use ply_referee::process::MemoryGuard;
use ply_referee::{Limits, PlayerSpec, Sandbox};
use ply_store::{GameRecord, SqliteStore, Standing, Store, StoreError, Tournament};

use super::{ApiError, ApiResult, Body, blocking};
use crate::AppState;

/// The most tournaments listed.
const LIST_LIMIT: usize = 200;
/// Limits on tournaments started from a page.
const MAX_BOTS: usize = 8;
const MAX_ROUNDS: u32 = 20;
const MAX_RUNNING: usize = 2;
/// The largest replay file served, in bytes.
const MAX_REPLAY_BYTES: u64 = 64 << 20;

fn store_error(e: StoreError) -> ApiError {
    match e {
        StoreError::NoTournament(id) => ApiError::not_found(format!("no tournament {id}")),
        other => ApiError::internal(format!("the arena database: {other}")),
    }
}

/// The database's `postgres://` URL, when `--db` named a PostgreSQL server.
fn postgres_url(db: &FsPath) -> Option<&str> {
    db.to_str().filter(|s| ply_store::is_postgres_url(s))
}

/// The database for reading; `None` when it does not exist yet. A SQLite file is opened
/// read-only (nothing is created); a PostgreSQL server is shared with the workers that play
/// a distributed tournament, so its pages show that tournament live too.
fn open_read(db: &FsPath) -> ApiResult<Option<Box<dyn Store + Send>>> {
    if let Some(url) = postgres_url(db) {
        return ply_store::open(url).map(Some).map_err(store_error);
    }
    if !db.exists() {
        return Ok(None);
    }
    SqliteStore::open_read_only(db)
        .map(|s| Some(Box::new(s) as Box<dyn Store + Send>))
        .map_err(store_error)
}

fn summary(t: &Tournament, played: usize) -> Value {
    let (total, rating) = match t.config.ants {
        // An Ants tournament's rounds depend on its maps' numbers of players.
        Some(_) => (
            AntsLineup::from_config(&t.config).map_or(0, |l| l.total(t.config.rounds)),
            "trueskill",
        ),
        None => (
            u64::from(t.config.rounds)
                * Format::RoundRobin.games_per_round(t.config.bots.len()) as u64,
            "glicko2",
        ),
    };
    json!({
        "id": t.id,
        "game": t.config.game,
        "rating": rating,
        "bots": t.config.bots,
        "rounds": t.config.rounds,
        "seed": t.config.seed,
        "finished": t.finished,
        "created": t.created,
        "played": played,
        "total": total,
    })
}

pub async fn list(State(app): State<Arc<AppState>>) -> ApiResult<Json<Value>> {
    let db = app.config.db.clone();
    blocking(move || {
        let Some(store) = open_read(&db)? else {
            return Ok(Json(json!([])));
        };
        let mut out = Vec::new();
        for t in store.tournaments(LIST_LIMIT).map_err(store_error)? {
            let played = store.games(t.id).map_err(store_error)?.len();
            out.push(summary(&t, played));
        }
        Ok(Json(json!(out)))
    })
    .await
}

/// Everything a tournament page shows.
fn details(store: &(dyn Store + Send), id: i64) -> ApiResult<Value> {
    let t = store.tournament(Some(id)).map_err(store_error)?;
    let games = store.games(id).map_err(store_error)?;
    let standings = store.standings(id).map_err(store_error)?;
    if t.config.ants.is_some() {
        return ants_details(&t, &games, &standings);
    }
    let bots = t.config.bots.len();
    let rounds_done = (1..=t.config.rounds)
        .take_while(|&r| {
            games.iter().filter(|g| g.round == r).count()
                == Format::RoundRobin.games_per_round(bots)
        })
        .count() as u32;
    let history: Vec<Vec<Value>> = rating_history(&games, bots, rounds_done)
        .iter()
        .map(|round| {
            round
                .iter()
                .map(|r| json!({"rating": r.rating, "deviation": r.deviation}))
                .collect()
        })
        .collect();
    let table: Vec<Vec<Value>> = head_to_head(&games, bots)
        .iter()
        .map(|row| {
            row.iter()
                .map(|&(points, games)| json!({"points": points, "games": games}))
                .collect()
        })
        .collect();
    let standings: Vec<Value> = standings
        .iter()
        .map(|s| {
            json!({
                "bot": s.bot, "spec": s.spec,
                "rating": s.rating.rating, "deviation": s.rating.deviation,
                "wins": s.wins, "draws": s.draws, "losses": s.losses,
            })
        })
        .collect();
    let list: Vec<Value> = games
        .iter()
        .map(|g| {
            json!({
                "round": g.round, "slot": g.slot, "first": g.first, "second": g.second,
                "first_score": g.first_score, "result": g.result,
            })
        })
        .collect();
    Ok(json!({
        "tournament": summary(&t, games.len()),
        "standings": standings,
        "history": history,
        "head_to_head": table,
        "games": list,
    }))
}

/// What an Ants tournament's page shows: TrueSkill standings (mu, sigma, mu - 3 sigma, games,
/// how often each bot finished in each place), mu and sigma after every complete round, and
/// every game's seats; no head-to-head table (a game has more than two sides).
fn ants_details(t: &Tournament, games: &[GameRecord], standings: &[Standing]) -> ApiResult<Value> {
    let lineup = AntsLineup::from_config(&t.config)
        .map_err(|e| ApiError::internal(format!("the stored tournament does not read: {e}")))?;
    let rounds_done = (1..=t.config.rounds)
        .take_while(|&r| games.iter().filter(|g| g.round == r).count() == lineup.round(r).len())
        .count() as u32;
    let history: Vec<Vec<Value>> = (1..=rounds_done)
        .map(|round| {
            lineup
                .rate(games, round)
                .iter()
                .map(|r| json!({"mu": r.rating, "sigma": r.deviation}))
                .collect()
        })
        .collect();
    let seats = lineup.maps.iter().map(|m| m.players).max().unwrap_or(2);
    let entry = |name: &str| t.config.bots.iter().position(|b| b.name == name);
    let standings: Vec<Value> = standings
        .iter()
        .enumerate()
        .map(|(place, s)| {
            let mut places = vec![0u32; seats];
            let mut rank_sum = 0u64;
            let mut played = 0u32;
            let e = entry(&s.bot);
            for seat in games.iter().flat_map(|g| &g.seats) {
                if Some(seat.entry) == e {
                    played += 1;
                    rank_sum += u64::from(seat.rank) + 1;
                    if let Some(p) = places.get_mut(seat.rank as usize) {
                        *p += 1;
                    }
                }
            }
            let (mu, sigma) = (s.rating.rating, s.rating.deviation);
            json!({
                "rank": place + 1, "bot": s.bot, "spec": s.spec,
                "mu": mu, "sigma": sigma, "skill": mu - 3.0 * sigma,
                "games": played, "wins": s.wins, "losses": s.losses,
                "places": places,
                "mean_place": if played == 0 { 0.0 } else { rank_sum as f64 / f64::from(played) },
            })
        })
        .collect();
    let list: Vec<Value> = games
        .iter()
        .map(|g| {
            json!({
                "round": g.round, "slot": g.slot, "first": g.first, "second": g.second,
                "first_score": g.first_score, "result": g.result, "seats": g.seats,
            })
        })
        .collect();
    Ok(json!({
        "tournament": summary(t, games.len()),
        "standings": standings,
        "history": history,
        "head_to_head": [],
        "games": list,
    }))
}

pub async fn show(State(app): State<Arc<AppState>>, Path(id): Path<i64>) -> ApiResult<Json<Value>> {
    let db = app.config.db.clone();
    let running = app.running.lock().map(|r| r.contains(&id)).unwrap_or(false);
    blocking(move || {
        let store =
            open_read(&db)?.ok_or_else(|| ApiError::not_found(format!("no tournament {id}")))?;
        let mut d = details(&*store, id)?;
        d["running"] = json!(running);
        Ok(Json(d))
    })
    .await
}

/// One stored game: its replay as stored, and its frames for the viewer (an Ants game: its
/// seats instead, the Ants viewer draws its replay).
pub async fn game(
    State(app): State<Arc<AppState>>,
    Path((id, round, slot)): Path<(i64, u32, u32)>,
) -> ApiResult<Json<Value>> {
    let db = app.config.db.clone();
    blocking(move || {
        let store =
            open_read(&db)?.ok_or_else(|| ApiError::not_found(format!("no tournament {id}")))?;
        let g = store
            .games(id)
            .map_err(store_error)?
            .into_iter()
            .find(|g| g.round == round && g.slot == slot)
            .ok_or_else(|| {
                ApiError::not_found(format!("tournament {id} has no game {round}:{slot}"))
            })?;
        let replay: Value = serde_json::from_str(&g.replay)
            .map_err(|e| ApiError::internal(format!("the stored replay is unreadable: {e}")))?;
        if !g.seats.is_empty() {
            // An Ants game: the original's stored game, which the Ants viewer draws itself.
            return Ok(Json(
                json!({"replay": replay, "frames": null, "result": g.result, "seats": g.seats}),
            ));
        }
        let expanded = super::play::expand_json(&replay)?;
        Ok(Json(
            json!({"replay": replay, "frames": expanded["frames"], "result": g.result}),
        ))
    })
    .await
}

/// Progress of a tournament as server-sent events: an `update` event (the details, as
/// `GET /api/tournaments/{id}`) whenever a game is stored, until it is finished. The store is
/// polled, so a tournament run by `ply tournament` in another process shows live too.
pub async fn events(State(app): State<Arc<AppState>>, Path(id): Path<i64>) -> impl IntoResponse {
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Event, Infallible>>(4);
    let db = app.config.db.clone();
    tokio::spawn(async move {
        let mut last = None;
        // At most an hour per connection; the page reconnects if it is still open.
        for _ in 0..7200 {
            let db = db.clone();
            let polled = blocking(move || {
                let store =
                    open_read(&db)?.ok_or_else(|| ApiError::not_found("no database yet"))?;
                details(&*store, id)
            })
            .await;
            let (event, key, done) = match polled {
                Ok(d) => {
                    let key = (
                        d["tournament"]["played"].clone(),
                        d["tournament"]["finished"].clone(),
                    );
                    let done = d["tournament"]["finished"] == json!(true);
                    (
                        Event::default().event("update").data(d.to_string()),
                        Some(key),
                        done,
                    )
                }
                Err(e) => (
                    Event::default()
                        .event("problem")
                        .data(json!({"error": e.1}).to_string()),
                    None,
                    false,
                ),
            };
            if key.is_none() || key != last {
                if tx.send(Ok(event)).await.is_err() {
                    return;
                }
                last = key;
            }
            if done {
                return;
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
        }
    });
    Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::default())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotRequest {
    name: String,
    /// `builtin:NAME[:k=v,...]`: only built-in bots can be started from a page.
    spec: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    game: String,
    bots: Vec<BotRequest>,
    rounds: Option<u32>,
    seed: Option<u64>,
}

/// Starts a tournament of built-in bots in the background; answers with its id once it is
/// stored.
pub async fn start_tournament(
    State(app): State<Arc<AppState>>,
    Body(req): Body<StartRequest>,
) -> ApiResult<Json<Value>> {
    let rounds = req.rounds.unwrap_or(2);
    if !(1..=MAX_ROUNDS).contains(&rounds) {
        return Err(ApiError::bad(format!("rounds must be 1 to {MAX_ROUNDS}")));
    }
    if !(2..=MAX_BOTS).contains(&req.bots.len()) {
        return Err(ApiError::bad(format!(
            "a tournament needs 2 to {MAX_BOTS} bots"
        )));
    }
    let mut bots = Vec::new();
    for b in &req.bots {
        let name = b.name.trim();
        if name.is_empty() || name.len() > 40 || name.chars().any(char::is_control) {
            return Err(ApiError::bad(format!(
                "bot name {:?}: 1 to 40 printable characters",
                b.name
            )));
        }
        if bots.iter().any(|e: &Entrant| e.name == name) {
            return Err(ApiError::bad(format!("two bots are named {name:?}")));
        }
        let spec: PlayerSpec = b
            .spec
            .parse()
            .map_err(|e| ApiError::bad(format!("bot {name}: {e}")))?;
        if !matches!(spec, PlayerSpec::Builtin(..)) {
            return Err(ApiError::bad(format!(
                "bot {name}: only built-in bots (builtin:NAME) can be started from the browser; \
                 run programs with `ply tournament`"
            )));
        }
        bots.push(Entrant {
            name: name.to_string(),
            spec,
        });
    }
    let plan = TournamentPlan {
        game: req.game.clone(),
        bots,
        rounds,
        format: Format::RoundRobin,
        seed: req.seed.unwrap_or_else(|| u64::from(rand::random::<u32>())),
        limits: Limits {
            time: Duration::from_secs(2),
            memory: 256 << 20,
            output: 64 << 10,
            cpus: 1,
        },
        concurrency: 1,
        new: true,
    };
    plan.check().map_err(|e| ApiError::bad(e.to_string()))?;
    if app.running.lock().map(|r| r.len()).unwrap_or(0) >= MAX_RUNNING {
        return Err(ApiError(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            format!("{MAX_RUNNING} tournaments are running already; wait for one to finish"),
        ));
    }
    let db = app.config.db.clone();
    let (tx, rx) = tokio::sync::oneshot::channel::<ApiResult<i64>>();
    let app2 = Arc::clone(&app);
    tokio::task::spawn_blocking(move || run(&db, &plan, &app2, tx));
    let id = rx
        .await
        .map_err(|_| ApiError::internal("the tournament stopped before it started"))??;
    Ok(Json(json!({"id": id})))
}

fn run(
    db: &FsPath,
    plan: &TournamentPlan,
    app: &AppState,
    tx: tokio::sync::oneshot::Sender<ApiResult<i64>>,
) {
    let mut tx = Some(tx);
    let opened = match postgres_url(db) {
        Some(url) => ply_store::open(url).map_err(store_error),
        None => db
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|e| ApiError::internal(format!("creating {}: {e}", db.display())))
            .and_then(|()| {
                SqliteStore::open(db)
                    .map(|s| Box::new(s) as Box<dyn Store + Send>)
                    .map_err(store_error)
            }),
    };
    let mut store = match opened {
        Ok(s) => s,
        Err(e) => {
            let _ = tx.take().map(|t| t.send(Err(e)));
            return;
        }
    };
    let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
    let mut id = None;
    let result = ply_arena::run_tournament(&mut *store, plan, &sandbox, |p| {
        if let Progress::Started { tournament, .. } = p {
            id = Some(tournament.id);
            if let Ok(mut r) = app.running.lock() {
                r.insert(tournament.id);
            }
            let _ = tx.take().map(|t| t.send(Ok(tournament.id)));
        }
    });
    if let Some(id) = id
        && let Ok(mut r) = app.running.lock()
    {
        r.remove(&id);
    }
    if let Err(e) = result {
        let _ = tx.take().map(|t| t.send(Err(ApiError::bad(e.to_string()))));
    }
}

/// The replay folder of the data directory.
fn replay_dir(app: &AppState) -> PathBuf {
    app.config.data_dir.join("replays")
}

/// A replay file's name: letters, digits, `.`, `-` and `_`, not starting with a dot, so that
/// it names a file directly inside the replay folder and nothing else.
pub fn check_replay_name(name: &str) -> ApiResult<()> {
    let ok = !name.is_empty()
        && name.len() <= 200
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if ok {
        Ok(())
    } else {
        Err(ApiError::bad(format!(
            "replay name {name:?}: only letters, digits, `.`, `-` and `_`, not starting with `.`"
        )))
    }
}

pub async fn replay_files(State(app): State<Arc<AppState>>) -> ApiResult<Json<Value>> {
    let dir = replay_dir(&app);
    blocking(move || {
        let mut names = Vec::new();
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if check_replay_name(&name).is_ok() && e.file_type().is_ok_and(|t| t.is_file()) {
                    names.push(name);
                }
            }
        }
        names.sort();
        Ok(Json(json!(names)))
    })
    .await
}

pub async fn replay_file(
    State(app): State<Arc<AppState>>,
    Path(name): Path<String>,
) -> ApiResult<impl IntoResponse> {
    check_replay_name(&name)?;
    let dir = replay_dir(&app);
    let text = blocking(move || {
        let path = dir.join(&name);
        // The name cannot leave the folder; a link inside it could, so the real path is
        // checked too.
        let real_dir = dir
            .canonicalize()
            .map_err(|_| ApiError::not_found(format!("no replay {name:?}")))?;
        let real = path
            .canonicalize()
            .map_err(|_| ApiError::not_found(format!("no replay {name:?}")))?;
        if real.parent() != Some(real_dir.as_path()) || !real.is_file() {
            return Err(ApiError::not_found(format!("no replay {name:?}")));
        }
        let len = real.metadata().map(|m| m.len()).unwrap_or(0);
        if len > MAX_REPLAY_BYTES {
            return Err(ApiError::bad(format!(
                "replay {name:?} is larger than {MAX_REPLAY_BYTES} bytes"
            )));
        }
        std::fs::read_to_string(&real)
            .map_err(|e| ApiError::internal(format!("reading {name:?}: {e}")))
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], text))
}
