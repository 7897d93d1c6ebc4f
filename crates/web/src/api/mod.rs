//! The JSON API under `/api`: one module per subject, each a thin adapter from JSON to a
//! library call. Every failure is a JSON object `{"error": "..."}` with a 4xx or 5xx status.

mod arena;
mod peg;
mod play;
mod puzzles;

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::AppState;

/// The API's routes, to be nested under `/api`.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/games", get(play::games))
        .route("/sudoku/solve", post(puzzles::sudoku_solve))
        .route("/sudoku/count", post(puzzles::sudoku_count))
        .route("/sudoku/explain", post(puzzles::sudoku_explain))
        .route("/sudoku/generate", post(puzzles::sudoku_generate))
        .route("/hanoi/solve", post(puzzles::hanoi_solve))
        .route("/hanoi/graph", get(puzzles::hanoi_graph))
        .route("/breaker/levels", get(breaker_levels))
        .route("/peg/setup", post(peg::peg_setup))
        .route("/peg/solve", post(peg::peg_solve))
        .route("/play/{game}/new", post(play::new_game))
        .route("/play/{game}/move", post(play::play_move))
        .route("/replay/expand", post(play::expand_replay))
        .route(
            "/tournaments",
            get(arena::list).post(arena::start_tournament),
        )
        .route("/tournaments/{id}", get(arena::show))
        .route("/tournaments/{id}/events", get(arena::events))
        .route("/tournaments/{id}/games/{round}/{slot}", get(arena::game))
        .route("/replays", get(arena::replay_files))
        .route("/replays/{name}", get(arena::replay_file))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such API endpoint") })
}

/// Block Breaker's six levels as text (the page runs them in its JavaScript port of the
/// simulation, `assets/breaker-sim.js`).
async fn breaker_levels() -> Json<serde_json::Value> {
    let levels: Vec<_> = ply_breaker::level::BUILTIN
        .iter()
        .enumerate()
        .map(|(i, (file, text))| json!({"number": i + 1, "file": file, "text": text}))
        .collect();
    Json(json!(levels))
}

/// A JSON error response.
pub fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

/// An API failure: a status and a message.
#[derive(Debug)]
pub struct ApiError(pub StatusCode, pub String);

impl ApiError {
    /// A 400 with `message`.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, message.into())
    }

    /// A 404 with `message`.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::NOT_FOUND, message.into())
    }

    /// A 500 with `message`.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError(StatusCode::INTERNAL_SERVER_ERROR, message.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error(self.0, self.1)
    }
}

/// A handler's result.
pub type ApiResult<T> = Result<T, ApiError>;

/// A JSON body whose rejections (malformed JSON, wrong fields, too large, wrong content
/// type) are answered as JSON errors with axum's status.
#[derive(Debug)]
pub struct Body<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        match Json::<T>::from_request(req, state).await {
            Ok(Json(v)) => Ok(Body(v)),
            Err(rejection) => {
                let status = match &rejection {
                    JsonRejection::JsonDataError(_) | JsonRejection::JsonSyntaxError(_) => {
                        StatusCode::BAD_REQUEST
                    }
                    other => other.status(),
                };
                Err(ApiError(status, rejection.body_text()))
            }
        }
    }
}

/// Runs blocking work (a solver, a search, the database) off the async threads.
async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> ApiResult<T> + Send + 'static,
) -> ApiResult<T> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::internal(format!("the worker thread failed: {e}")))?
}
