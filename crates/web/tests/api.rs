//! The API through the whole router (`tower::ServiceExt::oneshot`): answers to good requests,
//! and a clear 4xx for every bad one (malformed JSON, unknown game, illegal move, oversized
//! body, traversal in replay names, a missing token), with nothing written outside the data
//! directory.

use axum::Router;
use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

use ply_web::{Config, router};

struct Server {
    dir: tempfile::TempDir,
    app: Router,
}

fn server(token: Option<&str>) -> Server {
    server_on(token, None)
}

/// A server on `db` (a `postgres://` URL), or on a SQLite file in its data directory.
fn server_on(token: Option<&str>, db: Option<String>) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("replays")).unwrap();
    std::fs::write(dir.path().join("secret.json"), "{\"secret\": true}").unwrap();
    std::fs::write(
        data.join("replays").join("ok.json"),
        "{\"game\": \"tictactoe\"}",
    )
    .unwrap();
    let app = router(Config {
        addr: if token.is_some() {
            "0.0.0.0:0"
        } else {
            "127.0.0.1:0"
        }
        .parse()
        .unwrap(),
        db: db.map_or_else(|| data.join("arena.sqlite3"), Into::into),
        data_dir: data,
        token: token.map(str::to_string),
    });
    Server { dir, app }
}

impl Server {
    async fn send(&self, req: Request<Body>) -> (StatusCode, Value) {
        let res = self.app.clone().oneshot(req).await.unwrap();
        let status = res.status();
        let bytes = res.into_body().collect().await.unwrap().to_bytes();
        let value = serde_json::from_slice(&bytes)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()));
        (status, value)
    }

    async fn get(&self, uri: &str) -> (StatusCode, Value) {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    async fn post(&self, uri: &str, body: impl Into<Body>) -> (StatusCode, Value) {
        let req = Request::post(uri)
            .header(header::CONTENT_TYPE, "application/json")
            .body(body.into())
            .unwrap();
        self.send(req).await
    }

    async fn post_json(&self, uri: &str, body: Value) -> (StatusCode, Value) {
        self.post(uri, body.to_string()).await
    }

    /// Every file under the temporary directory, relative to it.
    fn files(&self) -> Vec<String> {
        fn walk(dir: &std::path::Path, base: &std::path::Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap().flatten() {
                let p = e.path();
                if p.is_dir() {
                    walk(&p, base, out);
                } else {
                    out.push(p.strip_prefix(base).unwrap().display().to_string());
                }
            }
        }
        let mut out = Vec::new();
        walk(self.dir.path(), self.dir.path(), &mut out);
        out.sort();
        out
    }
}

const PUZZLE: &str =
    "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..";

#[tokio::test]
async fn games_lists_games_and_puzzles() {
    let s = server(None);
    let (status, v) = s.get("/api/games").await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    for n in [
        "tictactoe",
        "othello",
        "reversi",
        "draughts",
        "taunt",
        "hanoi",
        "sudoku",
    ] {
        assert!(names.contains(&n), "{n} in {names:?}");
    }
}

#[tokio::test]
async fn sudoku_solves_and_names_the_position_of_a_bad_cell() {
    let s = server(None);
    let (status, v) = s
        .post_json("/api/sudoku/solve", json!({"puzzle": PUZZLE}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["unique"], true);
    assert_eq!(v["solution"].as_str().unwrap().len(), 81);
    assert!(v["solution"].as_str().unwrap().starts_with("483921657"));

    let bad = format!("{}x{}", &PUZZLE[..10], &PUZZLE[11..]);
    let (status, v) = s
        .post_json("/api/sudoku/solve", json!({"puzzle": bad}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("column 11"), "{v}");

    let clash = format!("33{}", &PUZZLE[2..]);
    let (status, v) = s
        .post_json("/api/sudoku/solve", json!({"puzzle": clash}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("r1c2"), "{v}");

    // A 4x4 and a count.
    let (status, v) = s
        .post_json(
            "/api/sudoku/count",
            json!({"puzzle": "................", "limit": 50}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["count"], 50);
    assert_eq!(v["at_least"], true);
}

#[tokio::test]
async fn sudoku_explains_and_generates() {
    let s = server(None);
    let (status, v) = s
        .post_json("/api/sudoku/explain", json!({"puzzle": PUZZLE}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ending"], "solved");
    assert!(!v["steps"][0]["reason"].as_str().unwrap().is_empty());
    let (status, v) = s
        .post_json("/api/sudoku/generate", json!({"size": 4, "seed": 3}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["puzzle"].as_str().unwrap().len(), 16);
    let (status, _) = s
        .post_json("/api/sudoku/generate", json!({"size": 25}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn hanoi_solves_from_any_position_with_pegs_from_one() {
    let s = server(None);
    let (status, v) = s
        .post_json("/api/hanoi/solve", json!({"pegs": 3, "discs": 3}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["moves"].as_array().unwrap().len(), 7);
    assert_eq!(v["moves"][0], json!([1, 3]));
    assert_eq!(v["optimal"], true);
    let (status, v) = s
        .post_json(
            "/api/hanoi/solve",
            json!({"pegs": 4, "discs": 3, "from": "123", "to": 1}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["moves"].as_array().unwrap().len(),
        v["length"].as_u64().unwrap() as usize
    );
    let (status, v) = s
        .post_json(
            "/api/hanoi/solve",
            json!({"pegs": 3, "discs": 3, "from": "193"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("from"), "{v}");
    let (status, _) = s
        .post_json("/api/hanoi/solve", json!({"pegs": 3, "discs": 40}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, v) = s.get("/api/hanoi/graph?discs=3&from=111&to=333").await;
    assert_eq!(status, StatusCode::OK);
    assert!(v.as_str().unwrap().starts_with("<svg") || v.as_str().unwrap().contains("<svg"));
}

#[tokio::test]
async fn a_game_against_the_perfect_ai_and_bad_moves() {
    let s = server(None);
    let (status, v) = s
        .post_json("/api/play/tictactoe/new", json!({"ai": "perfect"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let mut view = v["view"].clone();
    assert_eq!(view["legal"].as_array().unwrap().len(), 9);
    assert!(view["legal"][0]["to"].is_array());
    // Always take the first legal move: the perfect AI never loses.
    while view["outcome"].is_null() {
        let mv = view["legal"][0]["move"].as_str().unwrap().to_string();
        let state = view["state"].as_str().unwrap().to_string();
        let (status, v) = s
            .post_json(
                "/api/play/tictactoe/move",
                json!({"state": state, "move": mv, "ai": "perfect"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if !v["ai"].is_null() {
            assert!(v["ai"]["report"]["depth"].is_u64());
        }
        view = v["view"].clone();
    }
    assert_ne!(view["outcome"]["winner"], json!(1), "{view}");

    let (status, v) = s
        .post_json(
            "/api/play/tictactoe/move",
            json!({"state": "x../.../...", "move": "1"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("move"), "{v}");
    let (status, _) = s
        .post_json(
            "/api/play/tictactoe/move",
            json!({"state": "x../.../...", "move": "banana"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = s
        .post_json(
            "/api/play/tictactoe/move",
            json!({"state": "not a board", "move": "5"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, v) = s.post_json("/api/play/chess/new", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("unknown game"), "{v}");
    let (status, _) = s
        .post_json("/api/play/othello/new", json!({"ai": "perfect"}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    // Every game starts, with its legal moves.
    for g in ["othello", "reversi", "draughts", "taunt"] {
        let (status, v) = s
            .post_json(&format!("/api/play/{g}/new"), json!({"ai": "random"}))
            .await;
        assert_eq!(status, StatusCode::OK, "{g}: {v}");
        assert!(!v["view"]["legal"].as_array().unwrap().is_empty(), "{g}");
    }
}

#[tokio::test]
async fn the_othello_ai_plays_the_endgame_solver_s_proven_best_move() {
    use ply_core::{Budget, Game};
    use ply_games::reversi::{EndgameSolver, Othello, SolveMode};
    let s = server(None);
    let first = |state: &Othello| {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves[0]
    };
    // Positions with 11 empties reached by different openings, the person to move.
    let mut checked = 0;
    for opening in 0..6 {
        let mut state = Othello::start();
        let mut ply = 0;
        while state.outcome().is_none() && state.to_string().matches('.').count() > 11 {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            let mv = moves[if ply < 4 {
                (opening + ply) % moves.len()
            } else {
                0
            }];
            state.play_unchecked(mv);
            ply += 1;
        }
        if state.outcome().is_some() {
            continue;
        }
        let mine = first(&state);
        let mut after = state;
        after.play_unchecked(mine);
        if after.outcome().is_some() {
            continue;
        }
        let (status, v) = s
            .post_json(
                "/api/play/othello/move",
                json!({"state": state.to_string(), "move": mine.to_string(), "ai": "alphabeta", "ms": 3000}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["ai"]["report"]["solved"], true, "{v}");
        let ai = after.parse_move(v["ai"]["move"].as_str().unwrap()).unwrap();
        let mut next = after;
        next.play_unchecked(ai);
        if next.outcome().is_some() {
            continue;
        }
        // The move the AI played is worth what the position is worth: it is a best move.
        let mut solver = EndgameSolver::new();
        let best = solver
            .solve(&after, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        let reply = solver
            .solve(&next, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        let value = if next.to_move() == after.to_move() {
            reply.score
        } else {
            -reply.score
        };
        assert_eq!(value, best.score, "{after}: the AI played {ai}");
        checked += 1;
    }
    assert!(checked >= 3, "only {checked} positions checked");
}

#[tokio::test]
async fn the_othello_ai_plays_the_opening_book_s_move_when_othello_plays_it_by_default() {
    use ply_core::Game;
    use ply_games::reversi::{Othello, book};
    use ply_games::{BookChoice, Heuristics};
    let s = server(None);
    let by_default = Othello::book_by_default();
    // Every position of 4 plies, reached by the person's move after 3: where Othello plays
    // its book by default (as `ply bot othello` then does), the AI answers the committed
    // book's move, even at 1 ms a move, where its own search would not reach the book's
    // searches to 21 plies; otherwise its search answers (a book is on by default only once
    // it has shown a gain: docs/strength.md).
    let mut checked = 0;
    for state in book::positions_after(3) {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        for mine in moves {
            let mut after = state;
            after.play_unchecked(mine);
            let expected = BookChoice::<Othello>::Committed
                .book_move(&after)
                .expect("the book holds every position of 4 plies");
            let (status, v) = s
                .post_json(
                    "/api/play/othello/move",
                    json!({"state": state.to_string(), "move": mine.to_string(), "ai": "alphabeta", "ms": 1}),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{v}");
            if by_default {
                assert_eq!(v["ai"]["report"]["book"], true, "{after}: {v}");
                assert_eq!(v["ai"]["move"], expected.to_string(), "{after}: {v}");
            } else {
                assert!(v["ai"]["report"]["book"].is_null(), "{after}: {v}");
                let mut legal = Vec::new();
                after.legal_moves(&mut legal);
                let legal: Vec<String> = legal.iter().map(ToString::to_string).collect();
                assert!(
                    legal.contains(&v["ai"]["move"].as_str().unwrap_or_default().to_string()),
                    "{after}: {v}"
                );
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 244, "the lines of 4 plies (perft 4)");
}

#[tokio::test]
async fn malformed_and_oversized_bodies_are_clear_4xx() {
    let s = server(None);
    let (status, v) = s.post("/api/sudoku/solve", "{\"puzzle\": ").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].is_string(), "{v}");
    let (status, v) = s
        .post_json("/api/sudoku/solve", json!({"puzzel": PUZZLE}))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("puzzel"), "{v}");
    let huge = json!({"puzzle": ".".repeat(200_000)}).to_string();
    let (status, _) = s.post("/api/sudoku/solve", huge).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    let req = Request::post("/api/sudoku/solve")
        .body(Body::from("{}"))
        .unwrap();
    let (status, _) = s.send(req).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    let (status, _) = s
        .get(&format!(
            "/api/hanoi/graph?discs=3&from={}",
            "1".repeat(5000)
        ))
        .await;
    assert_eq!(status, StatusCode::URI_TOO_LONG);
    let (status, v) = s.get("/api/nothing").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(v["error"].is_string());
    // Still up.
    let (status, _) = s.get("/api/games").await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn replay_names_cannot_leave_the_replay_folder() {
    let s = server(None);
    let (status, v) = s.get("/api/replays/ok.json").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v["game"], "tictactoe");
    let (status, v) = s.get("/api/replays").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v, json!(["ok.json"]));
    for bad in [
        "/api/replays/..",
        "/api/replays/..%2F..%2Fsecret.json",
        "/api/replays/%2e%2e%2fsecret.json",
        "/api/replays/%2E%2E%2F%2E%2E%2Fsecret.json",
        "/api/replays/..%5csecret.json",
        "/api/replays/.hidden",
        "/api/replays/%00",
        "/api/replays/a%2Fb",
    ] {
        let (status, v) = s.get(bad).await;
        assert!(status.is_client_error(), "{bad}: {status}");
        assert!(!v.to_string().contains("secret\":true"), "{bad}: {v}");
    }
    // Plain `../` is resolved by the router before it reaches the handler: still nothing.
    let (status, _) = s.get("/api/replays/../../secret.json").await;
    assert!(status.is_client_error());
    let (status, _) = s.get("/api/replays/missing.json").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn with_a_token_every_post_needs_it() {
    let s = server(Some("s3cret-token"));
    let (status, v) = s
        .post_json("/api/sudoku/solve", json!({"puzzle": PUZZLE}))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert!(v["error"].as_str().unwrap().contains("token"));
    let body = json!({"game": "tictactoe", "bots": [
        {"name": "a", "spec": "builtin:random"}, {"name": "b", "spec": "builtin:greedy"}]});
    let (status, _) = s.post_json("/api/tournaments", body.clone()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let req = Request::post("/api/tournaments")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, "Bearer wrong-token")
        .body(Body::from(body.to_string()))
        .unwrap();
    assert_eq!(s.send(req).await.0, StatusCode::UNAUTHORIZED);
    assert!(
        !s.dir.path().join("data/arena.sqlite3").exists(),
        "nothing written"
    );
    // Reads need no token.
    assert_eq!(s.get("/api/games").await.0, StatusCode::OK);
    let req = Request::post("/api/sudoku/solve")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::AUTHORIZATION, "Bearer s3cret-token")
        .body(Body::from(json!({"puzzle": PUZZLE}).to_string()))
        .unwrap();
    assert_eq!(s.send(req).await.0, StatusCode::OK);
}

#[test]
fn a_non_loopback_address_needs_a_token() {
    let config = Config {
        addr: "0.0.0.0:8080".parse().unwrap(),
        db: "x".into(),
        data_dir: ".".into(),
        token: None,
    };
    assert!(config.check().unwrap_err().to_string().contains("token"));
    let short = Config {
        token: Some("abc".into()),
        ..config.clone()
    };
    assert!(short.check().is_err());
    let ok = Config {
        token: Some(ply_web::generate_token()),
        ..config
    };
    assert!(ok.check().is_ok());
}

#[tokio::test]
async fn tournaments_refuse_programs_and_run_built_ins() {
    let s = server(None);
    let (status, v) = s.get("/api/tournaments").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v, json!([]));
    let body = json!({"game": "tictactoe", "bots": [
        {"name": "a", "spec": "builtin:random"}, {"name": "b", "spec": "touch /tmp/pwned"}]});
    let (status, v) = s.post_json("/api/tournaments", body).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().contains("built-in"), "{v}");
    let body = json!({"game": "nogame", "bots": [
        {"name": "a", "spec": "builtin:random"}, {"name": "b", "spec": "builtin:random"}]});
    assert_eq!(
        s.post_json("/api/tournaments", body).await.0,
        StatusCode::BAD_REQUEST
    );
    assert_eq!(
        s.files(),
        vec!["data/replays/ok.json", "secret.json"],
        "nothing written"
    );

    let body = json!({"game": "tictactoe", "rounds": 1, "seed": 5, "bots": [
        {"name": "rand", "spec": "builtin:random"}, {"name": "greedy", "spec": "builtin:greedy"}]});
    let (status, v) = s.post_json("/api/tournaments", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_i64().unwrap();
    let mut d = Value::Null;
    for _ in 0..200 {
        d = s.get(&format!("/api/tournaments/{id}")).await.1;
        if d["tournament"]["finished"] == json!(true) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(d["tournament"]["finished"], true, "{d}");
    assert_eq!(d["standings"].as_array().unwrap().len(), 2);
    assert_eq!(d["history"].as_array().unwrap().len(), 1);
    assert_eq!(d["games"].as_array().unwrap().len(), 2);
    let (status, g) = s.get(&format!("/api/tournaments/{id}/games/1/0")).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert!(g["frames"].as_array().unwrap().len() >= 6);
    let (status, _) = s.get(&format!("/api/tournaments/{id}/games/9/9")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = s.get("/api/tournaments/999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let list = s.get("/api/tournaments").await.1;
    assert_eq!(list[0]["id"], id);
    for f in s.files() {
        assert!(
            f.starts_with("data/") || f == "secret.json",
            "{f} written outside the data directory"
        );
    }
}

/// Plays a small Ants tournament (a 2-player and a 3-player map, three built-ins) into `db`.
fn ants_tournament(db: &std::path::Path) -> Vec<ply_store::Standing> {
    use ply_ants::mapgen::{MapGenParams, generate};
    use ply_arena::{AntsEntrant, AntsTournamentPlan, RotationMap, run_ants_tournament};
    let map = |players, seed| RotationMap {
        name: format!("{players}.map"),
        text: generate(
            &MapGenParams {
                players,
                rows: 18,
                cols: 36,
                ..MapGenParams::default()
            },
            seed,
        )
        .unwrap()
        .to_text(),
    };
    let bot = |name: &str, spec: &str| AntsEntrant {
        name: name.into(),
        spec_text: spec.into(),
        spec: spec.parse().unwrap(),
    };
    let plan = AntsTournamentPlan {
        maps: vec![map(2, 3), map(3, 4)],
        bots: vec![
            bot("hunter", "builtin:hunter"),
            bot("random", "builtin:random"),
            bot("hold", "builtin:hold"),
        ],
        rounds: 2,
        turns: 30,
        seed: 2,
        limits: ply_referee::persistent::PersistentLimits::default(),
        concurrency: 2,
        new: false,
    };
    let mut store = ply_store::SqliteStore::open(db).unwrap();
    let sandbox = std::sync::Arc::new(ply_referee::Sandbox::with_guard(
        ply_referee::process::MemoryGuard::Rlimit,
    ));
    run_ants_tournament(&mut store, &plan, &sandbox, |_| {})
        .unwrap()
        .standings
}

#[tokio::test]
async fn an_ants_tournament_shows_trueskill_places_and_seats_instead_of_glicko() {
    let s = server(None);
    let stored = ants_tournament(&s.dir.path().join("data/arena.sqlite3"));
    let (status, d) = s.get("/api/tournaments/1").await;
    assert_eq!(status, StatusCode::OK, "{d}");
    let t = &d["tournament"];
    assert_eq!(t["rating"], "trueskill");
    // Round 1 on the 2-player map (3 pairs x 2 seatings), round 2 on the 3-player one (3).
    assert_eq!(
        (t["played"].as_u64(), t["total"].as_u64()),
        (Some(9), Some(9))
    );
    assert_eq!(d["head_to_head"], json!([]));
    let games = d["games"].as_array().unwrap();
    assert_eq!(games.len(), 9);
    let rows = d["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for (i, (row, st)) in rows.iter().zip(&stored).enumerate() {
        assert_eq!(row["rank"], i + 1);
        assert_eq!(row["bot"], st.bot);
        let (mu, sigma) = (row["mu"].as_f64().unwrap(), row["sigma"].as_f64().unwrap());
        assert_eq!((mu, sigma), (st.rating.rating, st.rating.deviation));
        assert!((row["skill"].as_f64().unwrap() - (mu - 3.0 * sigma)).abs() < 1e-9);
        // Every bot is in 4 of the 2-player games and in all 3 of the 3-player ones.
        assert_eq!(row["games"], 7, "{row}");
        let places: Vec<u64> = row["places"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_u64().unwrap())
            .collect();
        assert_eq!(places.len(), 3);
        assert_eq!(places.iter().sum::<u64>(), 7, "{row}");
        assert_eq!(row["wins"].as_u64(), Some(places[0]));
    }
    let skills: Vec<f64> = rows.iter().map(|r| r["skill"].as_f64().unwrap()).collect();
    assert!(skills.windows(2).all(|w| w[0] >= w[1]), "{skills:?}");
    // mu and sigma after each round; the last is the standings'.
    let history = d["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    for st in &stored {
        let entry = t["bots"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b["name"] == st.bot)
            .unwrap();
        assert_eq!(history[1][entry]["mu"].as_f64(), Some(st.rating.rating));
        // Round 2's games made every bot's skill surer (a three-way tie may leave mu alone).
        let sigma = |r: usize| history[r][entry]["sigma"].as_f64().unwrap();
        assert!(sigma(1) < sigma(0), "{history:?}");
    }
    // A game of three: its seats, and the original's replay for the Ants viewer.
    let (status, g) = s.get("/api/tournaments/1/games/2/0").await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["seats"].as_array().unwrap().len(), 3);
    assert!(g["replay"]["replaydata"].is_object(), "{g}");
}

#[tokio::test]
async fn a_tournament_on_postgresql_is_listed_and_followed_like_one_on_sqlite() {
    // The database workers share: what they store shows on the pages as it happens.
    let Some(cluster) = ply_testkit::postgres::Cluster::shared() else {
        return;
    };
    let s = server_on(None, Some(cluster.database("web_api")));
    let body = json!({"game": "tictactoe", "rounds": 1, "seed": 5, "bots": [
        {"name": "rand", "spec": "builtin:random"}, {"name": "greedy", "spec": "builtin:greedy"}]});
    let (status, v) = s.post_json("/api/tournaments", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let id = v["id"].as_i64().unwrap();
    let mut d = Value::Null;
    for _ in 0..400 {
        d = s.get(&format!("/api/tournaments/{id}")).await.1;
        if d["tournament"]["finished"] == json!(true) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(d["tournament"]["finished"], true, "{d}");
    assert_eq!(d["games"].as_array().unwrap().len(), 2);
    let list = s.get("/api/tournaments").await.1;
    assert_eq!(list[0]["id"], id, "{list}");
    assert_eq!(
        s.files(),
        vec!["data/replays/ok.json", "secret.json"],
        "no SQLite file made"
    );
}

#[tokio::test]
async fn pages_and_assets_are_served() {
    let s = server(None);
    for p in [
        "/",
        "/play",
        "/hanoi",
        "/sudoku",
        "/peg",
        "/breaker",
        "/static/breaker-sim.js",
        "/tournaments",
        "/replay",
        "/static/common.js",
        "/static/style.css",
    ] {
        let (status, _) = s.get(p).await;
        assert_eq!(status, StatusCode::OK, "{p}");
    }
    assert_eq!(
        s.get("/static/../Cargo.toml").await.0,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn peg_solitaire_solves_from_a_position_and_refuses_bad_ones() {
    let s = server(None);
    let (status, v) = s
        .post_json("/api/peg/setup", json!({"board": "english"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["holes"].as_array().unwrap().len(), 33);
    assert_eq!(v["pegs"].as_array().unwrap().len(), 32);
    let (status, v) = s
        .post_json("/api/peg/solve", json!({"board": "english"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["jumps"].as_array().unwrap().len(), 31);
    let (status, v) = s
        .post_json("/api/peg/solve", json!({"board": "french"}))
        .await;
    assert_eq!(status, StatusCode::OK);
    assert!(
        v["jumps"].is_null() && v["reason"].as_str().unwrap().contains("class"),
        "{v}"
    );
    let (status, v) = s
        .post_json(
            "/api/peg/solve",
            json!({"matrix": "[-1 1 1; 1 0 2]", "objective": "score"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["score"].is_u64());
    for bad in [
        json!({"board": "chess"}),
        json!({"board": "english", "matrix": "[1 0]"}),
        json!({"matrix": "[1 0; 1"}),
        json!({"board": "english", "pegs": [[0, 0]]}),
        json!({"board": "english", "objective": "fun"}),
    ] {
        let (status, v) = s.post_json("/api/peg/solve", bad.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}

#[tokio::test]
async fn breaker_levels_are_the_crate_s_six_files() {
    let s = server(None);
    let (status, v) = s.get("/api/breaker/levels").await;
    assert_eq!(status, StatusCode::OK);
    let levels = v.as_array().unwrap();
    assert_eq!(levels.len(), 6);
    for (l, (file, text)) in levels.iter().zip(ply_breaker::level::BUILTIN) {
        assert_eq!(l["file"], file);
        assert_eq!(l["text"], text);
    }
}

#[tokio::test]
async fn a_replay_file_expands_into_frames_and_a_bad_one_is_refused() {
    let s = server(None);
    let replay = json!({"game": "tictactoe", "start": ".../.../...",
        "moves": [{"move": "5"}, {"move": "1"}, {"move": "9"}]});
    let (status, v) = s.post_json("/api/replay/expand", replay).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let frames = v["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[3]["move"], "9");
    let bad = json!({"game": "tictactoe", "start": ".../.../...",
        "moves": [{"move": "5"}, {"move": "5"}]});
    let (status, v) = s.post_json("/api/replay/expand", bad).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(v["error"].as_str().unwrap().starts_with("move 2"), "{v}");
}
