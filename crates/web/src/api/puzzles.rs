//! Sudoku and the Tower of Hanoi: the solvers of `ply_puzzles` behind JSON.

use axum::Json;
use axum::extract::Query;
use axum::http::header;
use axum::response::IntoResponse;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Deserialize;
use serde_json::{Value, json};

use ply_puzzles::hanoi::solve::SolveLimits;
use ply_puzzles::hanoi::{Move, Peg, Position, graph, solve};
use ply_puzzles::sudoku::{self, Ending, Grade, Grid, ReadOptions, Shape};

use super::{ApiError, ApiResult, Body, blocking};

/// The most solutions `/sudoku/count` counts.
const MAX_COUNT: u64 = 10_000;
/// The most moves `/hanoi/solve` lists.
const MAX_HANOI_MOVES: u64 = 1 << 16;
/// The largest side `/sudoku/generate` makes (bigger ones take seconds to minutes).
const MAX_GENERATE_SIDE: usize = 16;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SudokuRequest {
    puzzle: String,
    /// Box shape `RxC`, for sides with several.
    #[serde(rename = "box")]
    box_shape: Option<String>,
    /// For `/count`: stop at this many.
    limit: Option<u64>,
}

fn parse_shape(text: &str) -> ApiResult<Shape> {
    let bad = || ApiError::bad(format!("box {text:?}: expected ROWSxCOLS, such as 2x3"));
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(bad)?;
    let (r, c) = (
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    );
    Shape::new(r, c).map_err(|e| ApiError::bad(format!("box {text:?}: {e}")))
}

/// One puzzle from the request, its clues checked: errors name the line and column, or the
/// clashing cells as rNcM.
fn read_grid(req: &SudokuRequest) -> ApiResult<Grid> {
    let shape = req.box_shape.as_deref().map(parse_shape).transpose()?;
    let opts = ReadOptions {
        shape,
        layout: None,
    };
    let mut entries = sudoku::read_puzzles(&req.puzzle, opts)
        .map_err(|e| ApiError::bad(format!("puzzle: {e}")))?;
    if entries.len() != 1 {
        return Err(ApiError::bad(format!(
            "puzzle: expected one puzzle, found {}",
            entries.len()
        )));
    }
    let grid = entries.remove(0).grid;
    grid.check()
        .map_err(|e| ApiError::bad(format!("puzzle: {e}")))?;
    Ok(grid)
}

fn shape_json(grid: &Grid) -> Value {
    let s = grid.shape();
    json!({"side": s.side(), "box_rows": s.box_rows(), "box_cols": s.box_cols()})
}

pub async fn sudoku_solve(Body(req): Body<SudokuRequest>) -> ApiResult<Json<Value>> {
    blocking(move || {
        let grid = read_grid(&req)?;
        let found = sudoku::solve(&grid, 2);
        Ok(Json(json!({
            "solution": found.first.map(|g| g.to_line()),
            "unique": found.count == 1,
            "solutions_seen": found.count,
            "guesses": found.guesses,
            "shape": shape_json(&grid),
        })))
    })
    .await
}

pub async fn sudoku_count(Body(req): Body<SudokuRequest>) -> ApiResult<Json<Value>> {
    let limit = req.limit.unwrap_or(1000);
    if !(1..=MAX_COUNT).contains(&limit) {
        return Err(ApiError::bad(format!("limit must be 1 to {MAX_COUNT}")));
    }
    blocking(move || {
        let grid = read_grid(&req)?;
        let found = sudoku::solve(&grid, limit);
        Ok(Json(json!({
            "count": found.count,
            "limit": limit,
            "at_least": found.count == limit,
        })))
    })
    .await
}

pub async fn sudoku_explain(Body(req): Body<SudokuRequest>) -> ApiResult<Json<Value>> {
    blocking(move || {
        let grid = read_grid(&req)?;
        let side = grid.shape().side();
        let cell = |i: usize| json!({"row": i / side + 1, "col": i % side + 1});
        let e = sudoku::explain(&grid).map_err(|e| ApiError::bad(format!("puzzle: {e}")))?;
        let steps: Vec<Value> = e
            .steps
            .iter()
            .map(|s| {
                json!({
                    "technique": s.technique.name(),
                    "reason": s.reason,
                    "placed": s.placed.iter().map(|&(c, v)| json!({"cell": cell(c), "value": sudoku::symbol(v).to_string()})).collect::<Vec<_>>(),
                    "removed": s.removed.len(),
                })
            })
            .collect();
        Ok(Json(json!({
            "steps": steps,
            "ending": match e.ending {
                Ending::Solved => "solved",
                Ending::Stuck => "stuck",
                Ending::Contradiction => "contradiction",
            },
            "grade": Grade::of(&e).name(),
            "grid": e.grid.to_line(),
        })))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GenerateRequest {
    size: Option<usize>,
    /// `easy`, `medium`, `hard`, `expert`, `beyond` or `any`.
    difficulty: Option<String>,
    seed: Option<u64>,
}

pub async fn sudoku_generate(Body(req): Body<GenerateRequest>) -> ApiResult<Json<Value>> {
    let side = req.size.unwrap_or(9);
    if side > MAX_GENERATE_SIDE {
        return Err(ApiError::bad(format!(
            "size {side}: the server generates up to {MAX_GENERATE_SIDE}x{MAX_GENERATE_SIDE} (`ply sudoku generate` makes larger ones)"
        )));
    }
    let shape = Shape::for_side(side).map_err(|e| ApiError::bad(format!("size {side}: {e}")))?;
    let wanted = req.difficulty.unwrap_or_else(|| "any".into());
    const GRADES: [&str; 5] = ["easy", "medium", "hard", "expert", "beyond"];
    if wanted != "any" && !GRADES.contains(&wanted.as_str()) {
        return Err(ApiError::bad(format!(
            "difficulty {wanted:?}: one of any, {}",
            GRADES.join(", ")
        )));
    }
    let seed = req.seed.unwrap_or_else(rand::random);
    blocking(move || {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut best = None;
        // Minimal puzzles mostly grade easy or medium; harder ones take several tries.
        for attempt in 1..=60 {
            let grid = sudoku::generate(shape, &mut rng);
            let grade = sudoku::grade(&grid)
                .map(|(g, _)| g.name())
                .unwrap_or("beyond");
            let hit = wanted == "any" || grade == wanted;
            if hit || best.is_none() {
                best = Some((grid, grade, attempt, hit));
            }
            if hit {
                break;
            }
        }
        let (grid, grade, attempts, hit) = best.expect("at least one attempt");
        Ok(Json(json!({
            "puzzle": grid.to_line(),
            "grade": grade,
            "matched": hit,
            "attempts": attempts,
            "seed": seed,
            "clues": grid.clues(),
        })))
    })
    .await
}

/// A Hanoi position: a perfect tower's peg (1-based) or the command line's text form.
#[derive(Deserialize)]
#[serde(untagged)]
pub enum PositionArg {
    Tower(usize),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HanoiRequest {
    pegs: usize,
    discs: usize,
    from: Option<PositionArg>,
    to: Option<PositionArg>,
}

fn position(
    arg: Option<&PositionArg>,
    default_peg: usize,
    r: &HanoiRequest,
    name: &str,
) -> ApiResult<Position> {
    match arg {
        None => Ok(Position::perfect(r.discs, r.pegs, Peg(default_peg as u8))),
        Some(PositionArg::Tower(p)) => {
            if !(1..=r.pegs).contains(p) {
                return Err(ApiError::bad(format!(
                    "{name}: peg {p} is not 1 to {}",
                    r.pegs
                )));
            }
            Ok(Position::perfect(r.discs, r.pegs, Peg((p - 1) as u8)))
        }
        Some(PositionArg::Text(t)) => {
            Position::parse(t, r.discs, r.pegs).map_err(|e| ApiError::bad(format!("{name}: {e}")))
        }
    }
}

pub async fn hanoi_solve(Body(r): Body<HanoiRequest>) -> ApiResult<Json<Value>> {
    let max_pegs = ply_puzzles::hanoi::position::MAX_PEGS;
    if !(3..=max_pegs).contains(&r.pegs) {
        return Err(ApiError::bad(format!(
            "pegs must be 3 to {max_pegs}, got {}",
            r.pegs
        )));
    }
    if !(1..=64).contains(&r.discs) {
        return Err(ApiError::bad(format!(
            "discs must be 1 to 64 here, got {}",
            r.discs
        )));
    }
    blocking(move || {
        let start = position(r.from.as_ref(), 0, &r, "from")?;
        let goal = position(r.to.as_ref(), r.pegs - 1, &r, "to")?;
        let s = solve(&start, &goal, SolveLimits::default())
            .map_err(|e| ApiError::bad(e.to_string()))?;
        let length: u64 = s.length.to_string().parse().unwrap_or(u64::MAX);
        if length > MAX_HANOI_MOVES {
            return Err(ApiError::bad(format!(
                "the solution has {} moves, more than the {MAX_HANOI_MOVES} this API lists; `ply hanoi solve` streams any length",
                s.length
            )));
        }
        let moves: Vec<[u32; 2]> = s
            .moves()
            .map(|m: Move| [u32::from(m.from.0) + 1, u32::from(m.to.0) + 1])
            .collect();
        Ok(Json(json!({
            "moves": moves,
            "optimal": s.optimality == ply_puzzles::hanoi::Optimality::Proven,
            "length": length,
            "method": s.method.to_string(),
        })))
    })
    .await
}

#[derive(Deserialize)]
pub struct GraphQuery {
    discs: usize,
    from: Option<String>,
    to: Option<String>,
}

/// The 3-peg state graph as SVG, with the shortest path from `from` to `to` in red.
pub async fn hanoi_graph(Query(q): Query<GraphQuery>) -> ApiResult<impl IntoResponse> {
    if !(1..=6).contains(&q.discs) {
        return Err(ApiError::bad(format!(
            "discs must be 1 to 6 for the graph, got {}",
            q.discs
        )));
    }
    let svg = blocking(move || {
        let parse = |t: &Option<String>, name: &str| {
            t.as_deref()
                .map(|t| {
                    Position::parse(t, q.discs, 3)
                        .map_err(|e| ApiError::bad(format!("{name}: {e}")))
                })
                .transpose()
        };
        let (from, to) = (parse(&q.from, "from")?, parse(&q.to, "to")?);
        Ok(match (from, to) {
            (Some(a), Some(b)) => {
                let s = solve(&a, &b, SolveLimits::default())
                    .map_err(|e| ApiError::bad(e.to_string()))?;
                let moves: Vec<Move> = s.moves().collect();
                graph::svg(q.discs, Some((&a, &moves)))
            }
            _ => graph::svg(q.discs, None),
        })
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg))
}
