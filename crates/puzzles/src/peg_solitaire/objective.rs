//! One entry point for every way `ply peg solve` and the web page solve a position: leave
//! one peg (or a pattern), fewest moves, or the contest score by beam, package and purge, or
//! proof. The callers parse, call [`solve_for`], and print; progress comes back through
//! one callback, so a terminal's spinner and a server's node cap use the same code.

use super::board::{Geometry, Jump, Setup};
use super::fewest::fewest_moves;
use super::purge::{PackageTable, purge_search};
use super::solve::{Goal, Outcome, solve};
use super::weighted::{self, ProveOptions, ProveProgress};

/// What to optimise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Objective {
    /// Reach the goal (one peg, in a hole, or a pattern), by any jumps.
    Pegs(Goal),
    /// Reach the goal in the fewest moves (a move: jumps by one peg), proven minimal.
    Moves(Goal),
    /// The lowest contest score (weights left plus the moving peg's weight per move); the
    /// search chooses where to stop.
    Score(ScoreSearch),
}

/// How the contest score is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreSearch {
    /// A beam search keeping `width` states a layer; optimal only when nothing was dropped.
    Beam {
        /// States kept a layer.
        width: usize,
    },
    /// Seed 001's package and purge: a beam of `width` over whole packages (square boards).
    Packages {
        /// States kept a layer.
        width: usize,
    },
    /// Branch and bound from the beam's answer at `width`: exact unless `max_nodes` stops
    /// it first.
    Prove {
        /// The beam's width for the starting bound.
        width: usize,
        /// Stop (unproven) after this many nodes.
        max_nodes: u64,
        /// Entries of the transposition table (48 bytes each).
        table_entries: usize,
    },
}

/// Where a long search is, for a progress display.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// The fewest-moves solver finished a level of a phase ("enumerating", ...).
    Level {
        /// The phase.
        phase: &'a str,
        /// The level done.
        level: usize,
    },
    /// The proof's state (about every million nodes).
    Proving(&'a ProveProgress),
}

/// An answer of [`solve_for`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The jumps, ready for the scorer.
    pub jumps: Vec<Jump>,
    /// Whether no better answer exists for the objective (always for pegs and moves).
    pub optimal: bool,
    /// Positions (states) searched: expanded by the solver or the beam, enumerated by the
    /// fewest-moves solver, visited by the proof.
    pub nodes: u64,
    /// The proof's figures, for [`ScoreSearch::Prove`].
    pub proof: Option<weighted::Proof>,
    /// Package and purge's figures, for [`ScoreSearch::Packages`].
    pub purged: Option<PurgeFigures>,
    /// The beam's score, where a beam gave the answer or the proof's starting bound.
    pub beam_score: Option<u64>,
}

/// What package and purge's answer is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PurgeFigures {
    /// Packages (steps clearing two or more pegs at once) in the answer.
    pub packages: usize,
    /// Single jumps in the answer.
    pub singles: usize,
    /// Distinct (block, pattern) entries of the package table.
    pub table: usize,
}

/// Why [`solve_for`] has no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// The goal cannot be reached, with the proof.
    #[error("no solution: {0}")]
    NoSolution(String),
    /// The request does not fit the board (the caller's input is at fault).
    #[error("{0}")]
    Refused(String),
}

/// Solves `setup` for `objective`. `progress` may return `false` to stop a proof early
/// (its answer is then not proven).
///
/// # Errors
/// [`SolveError::NoSolution`] when the goal cannot be reached (with the proof);
/// [`SolveError::Refused`] for package and purge on the triangle, or a proof whose state
/// key or table does not fit.
pub fn solve_for(
    setup: &Setup,
    objective: &Objective,
    mut progress: impl FnMut(Progress<'_>) -> bool,
) -> Result<Answer, SolveError> {
    let board = &setup.board;
    let answer = |jumps, optimal, nodes| Answer {
        jumps,
        optimal,
        nodes,
        proof: None,
        purged: None,
        beam_score: None,
    };
    match objective {
        Objective::Pegs(goal) => {
            let report = solve(board, setup.pegs, *goal);
            match report.outcome {
                Outcome::Solved(jumps) => Ok(answer(jumps, true, report.nodes)),
                Outcome::Impossible(proof) => Err(SolveError::NoSolution(proof.to_string())),
            }
        }
        Objective::Moves(goal) => {
            let found = fewest_moves(board, setup.pegs, *goal, |phase, level| {
                progress(Progress::Level { phase, level });
            });
            found
                .map(|f| answer(f.jumps, true, f.reachable))
                .ok_or_else(|| {
                    SolveError::NoSolution(
                        "exhaustive search of every reachable position found none finished".into(),
                    )
                })
        }
        Objective::Score(ScoreSearch::Beam { width }) => {
            let w = weighted::weighted_search(setup, *width);
            Ok(Answer {
                beam_score: Some(w.score),
                ..answer(w.jumps, w.optimal, w.nodes)
            })
        }
        Objective::Score(ScoreSearch::Packages { width }) => {
            if board.geometry() != Geometry::Square {
                return Err(SolveError::Refused(
                    "package and purge: blocks are square-grid windows; the triangle's diagonal jumps leave them".into(),
                ));
            }
            let p = purge_search(setup, *width, &mut PackageTable::new());
            Ok(Answer {
                purged: Some(PurgeFigures {
                    packages: p.packages,
                    singles: p.singles,
                    table: p.table,
                }),
                ..answer(p.jumps, false, p.nodes)
            })
        }
        Objective::Score(ScoreSearch::Prove {
            width,
            max_nodes,
            table_entries,
        }) => {
            let w = weighted::weighted_search(setup, *width);
            let options = ProveOptions {
                incumbent: Some(w.jumps),
                max_nodes: *max_nodes,
                table_entries: *table_entries,
            };
            let p = weighted::prove_optimum(setup, &options, |s| progress(Progress::Proving(s)))
                .map_err(|e| SolveError::Refused(e.to_string()))?;
            Ok(Answer {
                jumps: p.jumps.clone(),
                optimal: p.proven,
                nodes: p.nodes,
                beam_score: Some(w.score),
                proof: Some(p),
                purged: None,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peg_solitaire::{Hole, Standard, replay_jumps};

    fn english() -> Setup {
        Setup::standard(Standard::English, Standard::English.default_start()).unwrap()
    }

    #[test]
    fn pegs_and_moves_answer_as_their_solvers_do() {
        let setup = english();
        let centre = Goal::Pattern(1 << 27);
        let pegs = solve_for(&setup, &Objective::Pegs(centre), |_| true).unwrap();
        let r = replay_jumps(&setup, &pegs.jumps).unwrap();
        assert!(pegs.optimal && centre.reached(r.pegs) && r.jumps == 31);
        // The whole triangle is enumerated in a moment; the English board's 18 is the
        // ignored test `english_fewest_moves_is_18`.
        let tri = Setup::standard(Standard::Triangle, Standard::Triangle.default_start()).unwrap();
        let mut levels = 0;
        let moves = solve_for(&tri, &Objective::Moves(Goal::OnePeg), |p| {
            levels += usize::from(matches!(p, Progress::Level { .. }));
            true
        })
        .unwrap();
        let plain = fewest_moves(&tri.board, tri.pegs, Goal::OnePeg, |_, _| {}).unwrap();
        let r = replay_jumps(&tri, &moves.jumps).unwrap();
        assert_eq!(r.moves as u32, plain.moves);
        assert!(moves.optimal && levels > 0);
    }

    #[test]
    fn an_unreachable_goal_is_no_solution_with_its_proof() {
        let setup = Setup::standard(Standard::French, Hole::new(3, 3)).unwrap();
        let err = solve_for(&setup, &Objective::Pegs(Goal::OnePeg), |_| true).unwrap_err();
        assert!(
            matches!(&err, SolveError::NoSolution(why) if why.contains("position-class")),
            "{err}"
        );
    }

    #[test]
    fn a_proof_stopped_by_its_node_cap_keeps_the_beam_answer_unproven() {
        let setup = english();
        let capped = Objective::Score(ScoreSearch::Prove {
            width: 50,
            max_nodes: 1000,
            table_entries: 1 << 12,
        });
        let a = solve_for(&setup, &capped, |_| true).unwrap();
        let p = a.proof.as_ref().unwrap();
        assert!(!a.optimal && !p.proven);
        let beam = solve_for(
            &setup,
            &Objective::Score(ScoreSearch::Beam { width: 50 }),
            |_| true,
        )
        .unwrap();
        assert_eq!(a.beam_score, beam.beam_score);
        assert!(replay_jumps(&setup, &a.jumps).unwrap().score <= beam.beam_score.unwrap());
    }

    #[test]
    fn package_and_purge_refuses_the_triangle() {
        let setup =
            Setup::standard(Standard::Triangle, Standard::Triangle.default_start()).unwrap();
        let err = solve_for(
            &setup,
            &Objective::Score(ScoreSearch::Packages { width: 10 }),
            |_| true,
        )
        .unwrap_err();
        assert!(matches!(err, SolveError::Refused(_)));
    }
}
