//! `ply bot` and `ply judge` on the HackerEarth samples of Taunt, Draughts and Reversi, run
//! as the real binary.

use std::process::Output;

mod common;
use common::ply;

const TAUNT: &str = "000 000 000 000\n000 000 000 111\n000 000 111 130\n000 000 000 000\n000 000 000 000\n000 220 000 000\n131 000 000 000\n121 000 210 000\n000 210 131 000\n000 210 000 000\n58\n1\n";
const TAUNT_NEXT: &str = "000 000 000 000\n000 000 000 111\n000 000 111 130\n000 000 000 000\n000 000 000 000\n000 220 000 000\n131 000 000 000\n121 000 210 000\n130 210 000 000\n000 000 000 000\n59\n2\n";
const DRAUGHTS: &str = "0 1 0 1 0 1 0 1\n1 0 1 0 1 0 0 0\n0 0 0 0 0 1 0 0\n0 0 0 0 2 0 0 0\n0 0 0 0 0 0 0 0\n0 0 2 0 0 0 0 0\n0 0 0 2 0 0 0 2\n2 0 2 0 2 0 2 0\n1\n";
const REVERSI: &str = "0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 3 0 0 0 0 0\n0 0 0 3 2 1 3 0 0 0\n0 0 0 0 2 2 0 0 0 0\n0 0 0 3 1 1 2 3 0 0\n0 0 0 1 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n1\n";
const REVERSI_NEXT: &str = "0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n0 0 0 3 0 3 0 0 0 0\n0 0 0 1 1 1 0 0 0 0\n0 0 0 3 1 2 0 0 0 0\n0 0 0 3 1 1 2 0 0 0\n0 0 0 1 0 3 0 0 0 0\n0 0 3 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0 0 0\n2\n";

fn judge(game: &str, state: &str, answer: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("state.txt");
    std::fs::write(&path, state).unwrap();
    ply(
        &[
            "judge",
            game,
            "--state",
            path.to_str().unwrap(),
            "--move",
            "-",
        ],
        answer,
    )
}

#[test]
fn judge_produces_the_published_next_states() {
    let out = judge("taunt", TAUNT, "8 2\n8 0\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), TAUNT_NEXT);
    let out = judge("reversi", REVERSI, "4 3\n");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), REVERSI_NEXT);
}

#[test]
fn judge_reports_invalid_moves_with_exit_1() {
    let out = judge("draughts", DRAUGHTS, "2 5\n1\n4 3\n");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("invalid move:"), "{text}");
    assert!(text.contains("another jump is possible"), "{text}");
    let out = judge("taunt", TAUNT, "garbage\n");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn judge_rejects_a_malformed_state_with_exit_2() {
    let out = judge("taunt", &TAUNT.replace("131 000", "141 000"), "8 2\n8 0\n");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 7, column 1"), "{err}");
}

#[test]
fn bots_answer_legal_moves_that_the_judge_accepts() {
    for (game, state) in [
        ("taunt", TAUNT),
        ("draughts", DRAUGHTS),
        ("reversi", REVERSI),
    ] {
        // One thread, and two sharing a table (lazy SMP) either way of dividing the work:
        // each answers legally.
        for threads in ["1", "2 --smp ahead", "2 --smp defer"] {
            let args: Vec<&str> = ["bot", game, "--time-ms", "150", "--threads"]
                .into_iter()
                .chain(threads.split(' '))
                .collect();
            let out = ply(&args, state);
            assert!(out.status.success(), "{game}: {out:?}");
            let answer = String::from_utf8(out.stdout).unwrap();
            let verdict = judge(game, state, &answer);
            assert!(
                verdict.status.success(),
                "{game}, {threads} threads: {answer:?} judged {verdict:?}"
            );
        }
    }
    // With the opponent-model stage (Taunt's only, on by default) and without it, the
    // answer is legal; its share is a fraction.
    for model in ["true", "false"] {
        let out = ply(
            &["bot", "taunt", "--time-ms", "300", "--model", model],
            TAUNT,
        );
        assert!(out.status.success(), "--model {model}: {out:?}");
        let answer = String::from_utf8(out.stdout).unwrap();
        assert!(
            judge("taunt", TAUNT, &answer).status.success(),
            "--model {model}: {answer:?}"
        );
    }
    let out = ply(
        &["bot", "taunt", "--model", "true", "--model-share", "1.5"],
        TAUNT,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = ply(&["bot", "taunt", "--threads", "0"], TAUNT);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let out = ply(
        &["bot", "taunt", "--threads", "2", "--smp", "abdada"],
        TAUNT,
    );
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--smp"),
        "{out:?}"
    );
}

/// `--eval` picks the evaluation (`tempo`: 8x8 Othello's patterns with the side to move's
/// tempo; `standoff`: Taunt's fitted evaluation with the standoff term); the bot still
/// answers legally, and an unknown name is bad input.
#[test]
fn the_bot_s_evaluation_is_chosen_by_eval() {
    let othello = "0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n0 0 0 3 0 0 0 0\n0 0 3 2 1 0 0 0\n0 0 0 1 2 3 0 0\n0 0 0 0 3 0 0 0\n0 0 0 0 0 0 0 0\n0 0 0 0 0 0 0 0\n1\n";
    let taunt = "131 131 131 121\n121 121 111 111\n111 000 000 000\n000 000 000 000\n000 000 000 000\n000 000 000 000\n000 000 000 000\n000 000 000 210\n210 210 220 220\n220 230 230 230\n0\n1\n";
    for (game, state) in [("othello", othello), ("reversi", REVERSI), ("taunt", taunt)] {
        for eval in ["best", "classic", "tempo", "standoff"] {
            let out = ply(&["bot", game, "--time-ms", "150", "--eval", eval], state);
            assert!(out.status.success(), "{game} {eval}: {out:?}");
            let answer = String::from_utf8(out.stdout).unwrap();
            let verdict = judge(game, state, &answer);
            assert!(
                verdict.status.success(),
                "{game} {eval}: {answer:?} judged {verdict:?}"
            );
        }
    }
    let out = ply(&["bot", "othello", "--eval", "fancy"], othello);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("tempo"),
        "{out:?}"
    );
}

/// 12 empties, player 1 (black) to move and lost whatever it plays: the exact endgame solver
/// picks the move that loses by the fewest discs, where the search, which only knows win,
/// draw or loss, may take any losing move.
const OTHELLO_12_EMPTIES: &str = "0 0 1 1 1 1 3 3\n2 0 1 2 2 2 2 1\n2 1 1 1 2 2 2 1\n2 1 1 2 1 2 1 1\n2 1 1 1 2 2 1 1\n2 2 1 2 1 1 1 1\n2 3 2 1 1 1 1 1\n0 3 3 0 1 0 0 1\n1\n";

/// The exact score (final disc difference for the side to move) after `answer` in `state`.
fn othello_score_after(state: &str, answer: &str) -> (i32, i32) {
    use ply_core::{Budget, Game};
    use ply_games::HackerEarth;
    use ply_games::reversi::{EndgameSolver, Othello, SolveMode};
    let position = Othello::read_input(state).unwrap();
    let mut solver = EndgameSolver::new();
    let best = solver
        .solve(&position, SolveMode::Exact, Budget::UNLIMITED)
        .unwrap()
        .score;
    let mv = position.read_move(answer).unwrap();
    let mut child = position;
    child.play(mv).unwrap();
    let after = solver
        .solve(&child, SolveMode::Exact, Budget::UNLIMITED)
        .unwrap()
        .score;
    let after = if child.to_move() == position.to_move() {
        after
    } else {
        -after
    };
    (best, after)
}

#[test]
fn othello_bot_plays_the_solvers_best_move_near_the_end() {
    // The solver is on by default.
    let out = ply(&["-v", "bot", "othello"], OTHELLO_12_EMPTIES);
    assert!(out.status.success(), "{}", common::text(&out.stderr));
    let answer = common::text(&out.stdout);
    assert!(
        common::text(&out.stderr).contains("the endgame solver chose"),
        "{}",
        common::text(&out.stderr)
    );
    let (best, after) = othello_score_after(OTHELLO_12_EMPTIES, &answer);
    assert!(best < 0, "the position is lost: {best}");
    assert_eq!(after, best, "{answer} is not a best move");

    // Without the solver the search answers.
    let out = ply(
        &["-v", "bot", "othello", "--endgame", "false"],
        OTHELLO_12_EMPTIES,
    );
    assert!(out.status.success());
    assert!(!common::text(&out.stderr).contains("the endgame solver chose"));
    let (_, after) = othello_score_after(OTHELLO_12_EMPTIES, &common::text(&out.stdout));
    assert!(after < 0, "every move loses");
}
