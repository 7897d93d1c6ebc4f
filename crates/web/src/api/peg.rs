//! Peg solitaire: a board's layout, and the solver's answer from any position (one peg
//! left), or the weighted contest's best score from the start.

use axum::Json;
use serde::Deserialize;
use serde_json::{Value, json};

use ply_puzzles::peg_solitaire::{
    self as peg, Goal, Hole, ScoreSearch, Setup, SolveError, Standard, replay_jumps,
};

use super::{ApiError, ApiResult, Body, blocking};

/// Beam width of the weighted search (the command line's default).
const WEIGHTED_WIDTH: usize = 2000;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PegRequest {
    /// A standard board: english, french, wiegleb, diamond, triangle.
    board: Option<String>,
    /// Or a board as a matrix (`[-1 1 1; 1 0 2]`: -1 no hole, 0 empty, n a peg of weight n).
    matrix: Option<String>,
    /// The pegs now, as 0-based `[row, col]`; default the start.
    pegs: Option<Vec<[usize; 2]>>,
    /// `pegs` (one peg left, the default) or `score` (the weighted contest, from the start).
    objective: Option<String>,
}

fn setup(req: &PegRequest) -> ApiResult<Setup> {
    match (&req.board, &req.matrix) {
        (Some(name), None) => {
            let std: Standard = name
                .parse()
                .map_err(|e| ApiError::bad(format!("board: {e}")))?;
            Setup::standard(std, std.default_start())
                .map_err(|e| ApiError::bad(format!("board: {e}")))
        }
        (None, Some(m)) => {
            Setup::parse("matrix", m).map_err(|e| ApiError::bad(format!("matrix: {e}")))
        }
        _ => Err(ApiError::bad("give either board or matrix")),
    }
}

fn layout(s: &Setup) -> Value {
    let b = &s.board;
    let holes: Vec<[u8; 2]> = (0..64u8)
        .filter(|&bit| b.holes() & (1 << bit) != 0)
        .map(|bit| {
            let h = b.hole(bit);
            [h.row, h.col]
        })
        .collect();
    let pegs: Vec<[u64; 3]> = (0..64u8)
        .filter(|&bit| s.pegs & (1 << bit) != 0)
        .map(|bit| {
            let h = b.hole(bit);
            [
                u64::from(h.row),
                u64::from(h.col),
                u64::from(s.weights[bit as usize]),
            ]
        })
        .collect();
    json!({
        "rows": b.rows(), "cols": b.cols(),
        "geometry": match b.geometry() {
            ply_puzzles::peg_solitaire::Geometry::Square => "square",
            ply_puzzles::peg_solitaire::Geometry::Triangular => "triangular",
        },
        "holes": holes, "pegs": pegs,
    })
}

pub async fn peg_setup(Body(req): Body<PegRequest>) -> ApiResult<Json<Value>> {
    blocking(move || Ok(Json(layout(&setup(&req)?)))).await
}

pub async fn peg_solve(Body(req): Body<PegRequest>) -> ApiResult<Json<Value>> {
    blocking(move || {
        let mut s = setup(&req)?;
        let objective = req.objective.as_deref().unwrap_or("pegs");
        let holes = |jumps: &[ply_puzzles::peg_solitaire::Jump]| -> Vec<[u8; 4]> {
            jumps
                .iter()
                .map(|j| {
                    let (f, t) = (s.board.hole(j.from), s.board.hole(j.to));
                    [f.row, f.col, t.row, t.col]
                })
                .collect()
        };
        let objective = match objective {
            "score" => peg::Objective::Score(ScoreSearch::Beam {
                width: WEIGHTED_WIDTH,
            }),
            "pegs" => {
                if let Some(pegs) = &req.pegs {
                    let mut bits = 0u64;
                    for &[r, c] in pegs {
                        let bit = s
                            .board
                            .bit(Hole {
                                row: r.min(255) as u8,
                                col: c.min(255) as u8,
                            })
                            .ok_or_else(|| {
                                ApiError::bad(format!(
                                    "pegs: row {}, column {} is not a hole",
                                    r + 1,
                                    c + 1
                                ))
                            })?;
                        bits |= 1 << bit;
                    }
                    s.pegs = bits;
                }
                peg::Objective::Pegs(Goal::OnePeg)
            }
            other => return Err(ApiError::bad(format!("objective {other:?}: pegs or score"))),
        };
        match peg::solve_for(&s, &objective, |_| true) {
            Ok(answer) => {
                let r = replay_jumps(&s, &answer.jumps).map_err(|e| {
                    ApiError::internal(format!("the answer failed the scorer: {e}"))
                })?;
                Ok(Json(json!({
                    "jumps": holes(&answer.jumps), "score": r.score, "pegs_left": r.pegs_left,
                    "optimal": answer.optimal, "nodes": answer.nodes,
                })))
            }
            Err(SolveError::NoSolution(why)) => Ok(Json(json!({"jumps": null, "reason": why}))),
            Err(SolveError::Refused(why)) => Err(ApiError::bad(why)),
        }
    })
    .await
}
