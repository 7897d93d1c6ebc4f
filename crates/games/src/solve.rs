//! Exact solving of one position, for the command line (`ply solve`) and anything else that
//! wants a proved result rather than a search's guess: one entry point over the games that
//! have an exact endgame solver, 8x8 Othello ([`crate::reversi::EndgameSolver`]) and
//! HackerEarth's Draughts ([`crate::draughts::EndgameSolver`]).

use std::time::{Duration, Instant};

use ply_core::{Budget, Game};

use crate::GameKind;

/// What was proved about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The position, in the game's one-line text.
    pub position: String,
    /// A best move, in the game's notation (as `ply bot` answers).
    pub best: String,
    /// The same move as Othello players write it (`a1` to `h8`, or `pass`); `None` for
    /// Draughts, whose notation is already its squares.
    pub best_name: Option<String>,
    /// For the side to move: the final difference (Othello: discs, the empty cells to the
    /// winner; Draughts: men) when `exact`, else its sign (win 1, draw 0, loss -1).
    pub score: i32,
    /// Whether `score` is the exact difference or only win/draw/loss.
    pub exact: bool,
    /// With `line` asked for and the score exact: the best play from the position to the
    /// end of the game, both sides' moves in turn starting with `best` (Othello players'
    /// names, `pass` included; Draughts' own notation), each proved by solving the position
    /// it is played in. Shorter than the game when the time ran out on the way
    /// (`line_complete` false).
    pub line: Vec<String>,
    /// Whether `line` reaches the end of the game (false also when no line was asked for).
    pub line_complete: bool,
    /// Positions visited (the line's solves not counted).
    pub nodes: u64,
    /// Time taken (the line's solves not counted).
    pub elapsed: Duration,
}

/// Why a position was not solved.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The game has no exact solver.
    #[error("{0} has no exact solver; `ply solve` takes othello and draughts")]
    NoSolver(GameKind),
    /// The position's text did not parse.
    #[error("the position {text:?}: {reason}")]
    Position {
        /// The text given.
        text: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The game is already over.
    #[error("the game is over in this position: there is nothing to solve")]
    Over,
    /// The time ran out first.
    #[error(
        "not solved within {} ms ({nodes} positions searched); allow more time with --time-ms, or ask only for win, draw or loss with --wld",
        limit.as_millis()
    )]
    OutOfTime {
        /// The time allowed.
        limit: Duration,
        /// Positions searched before it ran out.
        nodes: u64,
    },
}

/// Solves `position` (the game's one-line text) of `game` within `limit`: exactly, or only
/// win/draw/loss when `exact` is false (much faster); with `line` (and `exact`), the best
/// line of play to the end as well, in what is left of `limit` (each position's solve
/// continuing the first's table, so it costs little more).
///
/// ```
/// use std::time::Duration;
/// use ply_games::{GameKind, solve::solve};
/// // One empty corner: black takes it, turning over the two white discs next to it.
/// let p = "xxxxxxx./oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo x";
/// let s = solve(GameKind::Othello, p, true, true, Duration::from_secs(10)).unwrap();
/// assert_eq!((s.best.as_str(), s.score), ("0 7", 34 - 30));
/// assert_eq!((s.line, s.line_complete), (vec!["h1".to_string()], true));
/// ```
///
/// # Errors
/// A game without a solver, a position that does not parse or whose game is over, or the
/// time running out.
pub fn solve(
    game: GameKind,
    position: &str,
    exact: bool,
    line: bool,
    limit: Duration,
) -> Result<Solved, SolveError> {
    let deadline = Instant::now() + limit;
    let bad = |reason: String| SolveError::Position {
        text: position.to_string(),
        reason,
    };
    match game {
        GameKind::Othello => {
            use crate::reversi::{EndgameSolver, Othello, SolveMode};
            let state: Othello = position.parse().map_err(|e| bad(format!("{e}")))?;
            if state.outcome().is_some() {
                return Err(SolveError::Over);
            }
            let mode = if exact {
                SolveMode::Exact
            } else {
                SolveMode::WinLossDraw
            };
            let mut solver = EndgameSolver::new();
            let budget = Budget {
                deadline: Some(deadline),
                ..Budget::UNLIMITED
            };
            let s = solver
                .solve(&state, mode, budget)
                .ok_or(SolveError::OutOfTime {
                    limit,
                    nodes: solver.nodes(),
                })?;
            let name = |p: crate::reversi::Place| match p.cell() {
                Some((row, col)) => format!("{}{}", char::from(b'a' + col as u8), row + 1),
                None => "pass".to_string(),
            };
            let (moves, line_complete) = if line && exact {
                // Each position of the line is one the first solve went through: its
                // table answers much of it.
                best_line(state, s.best, |p| {
                    solver.solve_continuing(p, mode, budget).map(|c| c.best)
                })
            } else {
                (Vec::new(), false)
            };
            Ok(Solved {
                position: state.to_string(),
                best: s.best.to_string(),
                best_name: Some(name(s.best)),
                score: s.score,
                exact,
                line: moves.into_iter().map(name).collect(),
                line_complete,
                nodes: s.nodes,
                elapsed: s.elapsed,
            })
        }
        GameKind::Draughts => {
            use crate::draughts::{Draughts, EndgameSolver, SolveMode};
            let state: Draughts = position.parse().map_err(|e| bad(format!("{e}")))?;
            if state.outcome().is_some() {
                return Err(SolveError::Over);
            }
            let mode = if exact {
                SolveMode::Exact
            } else {
                SolveMode::WinLossDraw
            };
            let start = Instant::now();
            let mut solver = EndgameSolver::new();
            let s = solver
                .solve(&state, mode, Some(deadline))
                .ok_or(SolveError::OutOfTime {
                    limit,
                    nodes: solver.nodes(),
                })?;
            let elapsed = start.elapsed();
            let (moves, line_complete) = if line && exact {
                best_line(state, s.best, |p| {
                    solver
                        .solve_continuing(p, mode, Some(deadline))
                        .map(|c| c.best)
                })
            } else {
                (Vec::new(), false)
            };
            Ok(Solved {
                position: state.to_string(),
                best: s.best.to_string(),
                best_name: None,
                score: s.score,
                exact,
                line: moves.iter().map(ToString::to_string).collect(),
                line_complete,
                nodes: s.nodes,
                elapsed,
            })
        }
        other => Err(SolveError::NoSolver(other)),
    }
}

/// The best line from `state`, whose best move is `first`: each next move by `best` (a solve
/// of the position it is played in) until the game ends (`true`) or `best` gives up (`false`).
fn best_line<G: Game>(
    mut state: G,
    first: G::Move,
    mut best: impl FnMut(&G) -> Option<G::Move>,
) -> (Vec<G::Move>, bool) {
    let mut line = vec![first];
    state.play_unchecked(first);
    while state.outcome().is_none() {
        let Some(m) = best(&state) else {
            return (line, false);
        };
        line.push(m);
        state.play_unchecked(m);
    }
    (line, true)
}
