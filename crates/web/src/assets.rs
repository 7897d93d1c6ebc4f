//! The pages, styles and scripts, embedded in the binary: `cargo build` alone yields a
//! working server, and nothing is fetched at run time.

use std::sync::Arc;

use axum::Router;
use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::AppState;

/// Every embedded file: its name under `/static/` and its bytes.
const FILES: &[(&str, &str)] = &[
    ("style.css", include_str!("../assets/style.css")),
    ("common.js", include_str!("../assets/common.js")),
    ("index.js", include_str!("../assets/index.js")),
    ("play.js", include_str!("../assets/play.js")),
    ("hanoi.js", include_str!("../assets/hanoi.js")),
    ("sudoku.js", include_str!("../assets/sudoku.js")),
    ("tournaments.js", include_str!("../assets/tournaments.js")),
    ("replay.js", include_str!("../assets/replay.js")),
    ("ants.js", include_str!("../assets/ants.js")),
    ("peg.js", include_str!("../assets/peg.js")),
    ("breaker.js", include_str!("../assets/breaker.js")),
    ("breaker-sim.js", include_str!("../assets/breaker-sim.js")),
];

/// Every page: its path and its HTML.
const PAGES: &[(&str, &str)] = &[
    ("/", include_str!("../assets/index.html")),
    ("/play", include_str!("../assets/play.html")),
    ("/hanoi", include_str!("../assets/hanoi.html")),
    ("/sudoku", include_str!("../assets/sudoku.html")),
    ("/peg", include_str!("../assets/peg.html")),
    ("/breaker", include_str!("../assets/breaker.html")),
    ("/tournaments", include_str!("../assets/tournaments.html")),
    ("/replay", include_str!("../assets/replay.html")),
];

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("css") => "text/css; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("html") => "text/html; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// The routes of the pages and of `/static/`.
pub fn routes() -> Router<Arc<AppState>> {
    let mut router = Router::new().route("/static/{name}", get(file));
    for &(path, html) in PAGES {
        router = router.route(
            path,
            get(move || async move {
                (
                    [
                        (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                        (
                            header::CONTENT_SECURITY_POLICY,
                            "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'",
                        ),
                    ],
                    html,
                )
            }),
        );
    }
    router
}

async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(n, _)| *n == name) {
        Some(&(n, body)) => ([(header::CONTENT_TYPE, content_type(n))], body).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
