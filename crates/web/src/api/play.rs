//! Playing the built-in AIs, and replays of turn-based games expanded into frames.
//!
//! Stateless: the page sends the position in the game's one-line text form with each move,
//! so the server keeps no sessions and a reload loses nothing. Each legal move comes with
//! the cells it touches (found by playing it and comparing boards), so that the page can
//! offer "click a piece, then its target" for any game without knowing its notation.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::Path;
use serde::Deserialize;
use serde_json::{Value, json};

use ply_core::{Budget, Game};
use ply_games::{BookChoice, GameKind, Heuristics, with_game};
use ply_puzzles::PuzzleKind;
use ply_referee::spec::{BuiltinKind, BuiltinOptions, builtin_player, strongest_builtin};
use ply_search::{AlphaBeta, Config};

use super::{ApiError, ApiResult, Body, blocking};

/// The longest an AI may think per move, in milliseconds.
const MAX_THINK_MS: u64 = 3000;

pub async fn games() -> Json<Value> {
    let games: Vec<Value> = GameKind::ALL
        .iter()
        .map(|&k| {
            let info = k.info();
            let ais: Vec<&str> = with_game!(k, G => ais::<G>());
            json!({
                "name": info.name,
                "kind": "game",
                "title": info.title,
                "summary": info.summary,
                "seats": info.seats,
                "max_plies": info.max_plies,
                "ais": ais,
                "tournaments": k.has_hackerearth_format(),
            })
        })
        .chain(
            PuzzleKind::ALL
                .iter()
                .map(|&p| json!({"name": p.name(), "kind": "puzzle", "summary": p.summary()})),
        )
        .collect();
    Json(json!(games))
}

/// The AIs that can play `G`, strongest first.
fn ais<G: Heuristics>() -> Vec<&'static str> {
    let mut v = vec!["alphabeta", "mcts", "greedy", "random"];
    if strongest_builtin::<G>() == BuiltinKind::Perfect {
        v.insert(0, "perfect");
    }
    v
}

fn game_kind(name: &str) -> ApiResult<GameKind> {
    name.parse::<GameKind>()
        .map_err(|e| ApiError::not_found(e.to_string()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRequest {
    /// `perfect`, `alphabeta`, `mcts`, `greedy` or `random`; default the strongest.
    ai: Option<String>,
    /// Thinking time per move for alphabeta and mcts, in milliseconds.
    ms: Option<u64>,
    /// The seat the person takes: 1 (moves first) or 2.
    you: Option<u32>,
    seed: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The position, in the game's one-line text form.
    state: String,
    /// The person's move, in the game's notation.
    #[serde(rename = "move")]
    mv: String,
    ai: Option<String>,
    ms: Option<u64>,
    seed: Option<u64>,
}

/// Who answers for the computer.
#[derive(Clone, Copy)]
struct Ai {
    kind: BuiltinKind,
    ms: u64,
    seed: u64,
}

fn ai<G: Heuristics>(name: Option<&str>, ms: Option<u64>, seed: Option<u64>) -> ApiResult<Ai> {
    let kind = match name {
        None => strongest_builtin::<G>(),
        Some(n) => BuiltinKind::ALL
            .iter()
            .find(|(name, _)| *name == n)
            .map(|&(_, k)| k)
            .ok_or_else(|| ApiError::bad(format!("ai {n:?}: one of {}", ais::<G>().join(", "))))?,
    };
    if kind == BuiltinKind::Perfect && strongest_builtin::<G>() != BuiltinKind::Perfect {
        return Err(ApiError::bad(format!(
            "ai \"perfect\" searches to the end of the game, which {} is too long for",
            G::info().name
        )));
    }
    let ms = ms.unwrap_or(300);
    if !(1..=MAX_THINK_MS).contains(&ms) {
        return Err(ApiError::bad(format!("ms must be 1 to {MAX_THINK_MS}")));
    }
    Ok(Ai {
        kind,
        ms,
        seed: seed.unwrap_or(1),
    })
}

/// The AI's move and, for the alpha-beta searches, what it saw.
fn ai_move<G: Heuristics>(state: &G, ai: Ai) -> ApiResult<(G::Move, Value)> {
    match ai.kind {
        BuiltinKind::Alphabeta | BuiltinKind::Perfect => {
            // As `ply bot` and `builtin:alphabeta` play in a match: the game's opening book
            // where it holds the position if the game plays it by default (no game does now:
            // 8x8 Othello's lost to the bot without it), through the lookup they share;
            // then the endgame solver, when it proves a move within the same time; the search
            // gets what it left.
            if ai.kind == BuiltinKind::Alphabeta
                && G::book_by_default()
                && let Some(mv) = BookChoice::<G>::Committed.book_move(state)
            {
                return Ok((mv, json!({"name": ai.kind.name(), "book": true})));
            }
            let deadline = Instant::now() + Duration::from_millis(ai.ms);
            if ai.kind == BuiltinKind::Alphabeta
                && G::endgame_by_default()
                && let Some(mut solver) = G::endgame()
                && let Some(mv) = solver.solve(state, deadline)
            {
                return Ok((mv, json!({"name": ai.kind.name(), "solved": true})));
            }
            let mut search = AlphaBeta::<G::Searched, _, _>::with(
                G::Eval::default(),
                G::Ordering::default(),
                Config::default(),
            );
            let budget = if ai.kind == BuiltinKind::Perfect {
                Budget::UNLIMITED
            } else {
                Budget::time(
                    deadline
                        .saturating_duration_since(Instant::now())
                        .max(Duration::from_millis(1)),
                )
            };
            let r = search.search(&G::Searched::from(state.clone()), budget);
            let best = r
                .best
                .ok_or_else(|| ApiError::internal("the search found no move"))?;
            Ok((
                best,
                json!({
                    "name": ai.kind.name(),
                    "depth": r.depth,
                    "score": r.score.to_string(),
                    "exact": r.exact,
                    "nodes": r.nodes,
                    "pv": r.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
                    "ms": r.elapsed.as_millis() as u64,
                }),
            ))
        }
        kind => {
            let options = BuiltinOptions {
                ms: Some(ai.ms),
                ..BuiltinOptions::default()
            };
            let mut player = builtin_player::<G>(kind, options, ai.seed ^ state.key())
                .map_err(|e| ApiError::bad(e.to_string()))?;
            let mv = player
                .choose(state, Budget::time(Duration::from_millis(ai.ms)))
                .map_err(|f| ApiError::internal(format!("the AI failed: {f}")))?;
            Ok((mv, json!({ "name": kind.name() })))
        }
    }
}

/// The board's cells, row by row, from the one-line text form (`x.o/...` or, for Taunt,
/// comma-separated codes).
fn cells<G: Game>(state: &G) -> Vec<Vec<String>> {
    let text = state.to_string();
    let grid = text.split(' ').next().unwrap_or("");
    grid.split('/')
        .map(|row| {
            if row.contains(',') {
                row.split(',').map(str::to_string).collect()
            } else {
                row.chars().map(|c| c.to_string()).collect()
            }
        })
        .collect()
}

fn is_empty(cell: &str) -> bool {
    cell == "." || cell.bytes().all(|b| b == b'0')
}

/// A state as the pages draw it: cells, side to move, outcome, and every legal move with
/// the cells it empties (`from`) and fills (`to`).
fn view<G: Game>(state: &G) -> Value {
    let before = cells(state);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let legal: Vec<Value> = moves
        .iter()
        .map(|&mv| {
            let mut next = state.clone();
            next.play_unchecked(mv);
            let after = cells(&next);
            let mut from = Vec::new();
            let mut to = None;
            for (r, (a, b)) in before.iter().zip(&after).enumerate() {
                for (c, (x, y)) in a.iter().zip(b).enumerate() {
                    if !is_empty(x) && is_empty(y) {
                        from.push((r, c, x.clone()));
                    } else if is_empty(x) && !is_empty(y) {
                        to = Some((r, c, y.clone()));
                    }
                }
            }
            // A capture empties the captured pieces too: the mover's own square is the one
            // whose piece now stands on the target.
            let from = match &to {
                Some((_, _, piece)) => from
                    .iter()
                    .find(|f| &f.2 == piece)
                    .or(from.first())
                    .map(|f| [f.0, f.1]),
                None => None,
            };
            json!({
                "move": mv.to_string(),
                "from": from,
                "to": to.map(|t| [t.0, t.1]),
            })
        })
        .collect();
    let outcome = state.outcome().map(|o| {
        json!({
            "winner": o.winner().map(|s| s.number()),
            "text": o.to_string(),
        })
    });
    json!({
        "state": state.to_string(),
        "cells": before,
        "to_move": state.to_move().number(),
        "diagram": state.diagram(),
        "outcome": outcome,
        "legal": legal,
    })
}

pub async fn new_game(
    Path(game): Path<String>,
    Body(req): Body<NewRequest>,
) -> ApiResult<Json<Value>> {
    let kind = game_kind(&game)?;
    blocking(move || with_game!(kind, G => new_game_of::<G>(&req))).await
}

fn new_game_of<G: Heuristics>(req: &NewRequest) -> ApiResult<Json<Value>> {
    let ai = ai::<G>(req.ai.as_deref(), req.ms, req.seed)?;
    let you = req.you.unwrap_or(1);
    if !(1..=2).contains(&you) {
        return Err(ApiError::bad("you must be 1 (move first) or 2"));
    }
    let mut state = G::start();
    let mut reply = Value::Null;
    if state.to_move().number() != you && state.outcome().is_none() {
        let before = cells(&state);
        let (mv, report) = ai_move(&state, ai)?;
        state.play_unchecked(mv);
        let changed = changed(&before, &cells(&state));
        reply = json!({"move": mv.to_string(), "report": report, "changed": changed});
    }
    Ok(Json(
        json!({"game": G::info().name, "you": you, "ai": reply, "view": view(&state)}),
    ))
}

pub async fn play_move(
    Path(game): Path<String>,
    Body(req): Body<MoveRequest>,
) -> ApiResult<Json<Value>> {
    let kind = game_kind(&game)?;
    blocking(move || with_game!(kind, G => play_move_of::<G>(&req))).await
}

fn play_move_of<G: Heuristics>(req: &MoveRequest) -> ApiResult<Json<Value>> {
    let ai = ai::<G>(req.ai.as_deref(), req.ms, req.seed)?;
    let mut state: G = req
        .state
        .parse()
        .map_err(|e| ApiError::bad(format!("state: {e}")))?;
    if state.outcome().is_some() {
        return Err(ApiError::bad("the game is over"));
    }
    let mv = state
        .parse_move(&req.mv)
        .map_err(|e| ApiError::bad(format!("move {:?}: {e}", req.mv)))?;
    state
        .play(mv)
        .map_err(|e| ApiError::bad(format!("move {:?}: {e}", req.mv)))?;
    let mut reply = Value::Null;
    // The AI answers, and keeps answering while the person has to pass.
    while state.outcome().is_none() {
        let before = cells(&state);
        let (mv, report) = ai_move(&state, ai)?;
        state.play_unchecked(mv);
        let changed = changed(&before, &cells(&state));
        reply = json!({"move": mv.to_string(), "report": report, "changed": changed});
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        if moves.len() != 1 || state.outcome().is_some() || !is_pass(&state, moves[0]) {
            break;
        }
        state.play_unchecked(moves[0]);
    }
    Ok(Json(json!({"ai": reply, "view": view(&state)})))
}

/// The cells that differ between two boards, as `[row, col]`: what a move did.
fn changed(before: &[Vec<String>], after: &[Vec<String>]) -> Vec<[usize; 2]> {
    let mut out = Vec::new();
    for (r, (a, b)) in before.iter().zip(after).enumerate() {
        for (c, (x, y)) in a.iter().zip(b).enumerate() {
            if x != y {
                out.push([r, c]);
            }
        }
    }
    out
}

/// A move that changes no cell: a pass.
fn is_pass<G: Game>(state: &G, mv: G::Move) -> bool {
    let mut next = state.clone();
    next.play_unchecked(mv);
    cells(&next) == cells(state)
}

#[derive(Deserialize)]
pub struct ExpandRequest {
    game: String,
    start: String,
    moves: Vec<ExpandMove>,
}

#[derive(Deserialize)]
pub struct ExpandMove {
    #[serde(rename = "move")]
    mv: Option<String>,
}

/// A replay of a turn-based game (the referee's JSON) as one frame per move.
pub async fn expand_replay(Body(req): Body<ExpandRequest>) -> ApiResult<Json<Value>> {
    let kind = game_kind(&req.game)?;
    blocking(move || with_game!(kind, G => expand::<G>(&req.start, &req.moves)).map(Json)).await
}

/// The frames of a game: the start, then the position after each move.
pub fn expand<G: Game>(start: &str, moves: &[ExpandMove]) -> ApiResult<Value> {
    let mut state: G = start
        .parse()
        .map_err(|e| ApiError::bad(format!("start: {e}")))?;
    let frame = |s: &G, mv: Option<&str>| json!({"move": mv, "cells": cells(s), "to_move": s.to_move().number(), "diagram": s.diagram()});
    let mut frames = vec![frame(&state, None)];
    for (i, m) in moves.iter().enumerate() {
        let Some(text) = &m.mv else { break };
        let mv = state
            .parse_move(text)
            .map_err(|e| ApiError::bad(format!("move {}: {e}", i + 1)))?;
        state
            .play(mv)
            .map_err(|e| ApiError::bad(format!("move {}: {e}", i + 1)))?;
        frames.push(frame(&state, Some(text)));
    }
    Ok(json!({"game": G::info().name, "frames": frames}))
}

/// Expands a stored replay's JSON (the referee's format).
pub fn expand_json(replay: &Value) -> ApiResult<Value> {
    let req: ExpandRequest = serde_json::from_value(replay.clone())
        .map_err(|e| ApiError::internal(format!("the stored replay is unreadable: {e}")))?;
    let kind = game_kind(&req.game)?;
    with_game!(kind, G => expand::<G>(&req.start, &req.moves))
}
