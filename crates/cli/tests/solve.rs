//! `ply solve`: proved results from the command line, checked against published results
//! (FFO #40) and an independent method (Draughts' endgame tables), and its bad inputs.

mod common;
use common::{ply, text};

use ply_games::draughts::{Draughts, Tables};

/// FFO endgame test #40 (20 empties, black to move): black wins by 38 with a2.
const FFO_40: &str = "o..oooox/.oooooox/ooxxooox/ooxoooxx/ooooooxx/...oooox/....o..x/........ x";

fn json(args: &[&str]) -> serde_json::Value {
    let out = ply(args, "");
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn othello_ffo_40_is_a_win_and_a_corner_grab_is_exact() {
    let v = json(&["solve", "othello", "--wld", "--json", FFO_40]);
    assert_eq!(v["result"], "win");
    assert_eq!(v["score"], serde_json::Value::Null);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    let out = ply(
        &[
            "solve",
            "othello",
            "xxxxxxx./oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo x",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "result win\nscore +4\nbest 0 7 (h1)\n");
}

/// The best line of FFO #40, played out by the game's own rules, ends with black 38 discs
/// ahead (the empty cells to the winner): the published score, reached move by move. A
/// Draughts line ends the game with its proved result.
#[test]
fn the_best_line_reaches_the_proved_score() {
    use ply_core::{Game, Outcome};
    use ply_games::reversi::{Othello, Place};
    let v = json(&["solve", "othello", "--line", "--json", FFO_40]);
    assert_eq!(
        (v["score"].as_i64(), v["line_complete"].as_bool()),
        (Some(38), Some(true))
    );
    let line: Vec<&str> = v["line"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert_eq!(line[0], "a2");
    let mut state: Othello = FFO_40.parse().unwrap();
    for name in &line {
        let m = match name.as_bytes() {
            b"pass" => Place::PASS,
            [c, r] => Place::at(usize::from(r - b'1'), usize::from(c - b'a')),
            _ => panic!("a move name: {name}"),
        };
        state
            .play(m)
            .unwrap_or_else(|e| panic!("{name} in {state}: {e}"));
    }
    assert!(state.outcome().is_some(), "the line ends the game: {state}");
    let (black, white) = state.counts();
    let (black, white) = (black as i64, white as i64);
    let empty = 64 - black - white;
    assert_eq!(
        black - white + (black - white).signum() * empty,
        38,
        "{state}"
    );

    // Draughts: a drawn position's line ends the game drawn.
    let p = ".x.x..../......../......../......../......../......../.o...o../........ o";
    let v = json(&["solve", "draughts", "--line", "--json", p]);
    assert_eq!(
        (v["result"].as_str(), v["line_complete"].as_bool()),
        (Some("draw"), Some(true))
    );
    let mut state: Draughts = p.parse().unwrap();
    for m in v["line"].as_array().unwrap() {
        let m = m.as_str().unwrap().parse().unwrap();
        state.play(m).unwrap();
    }
    assert_eq!(state.outcome(), Some(Outcome::Draw));
}

/// The solver's exact answer equals the endgame tables' value, computed the other way
/// (every position below, memoised), on small Draughts positions.
#[test]
fn draughts_exact_scores_match_the_endgame_tables() {
    let positions = [
        ".x.x..../......../......../......../......../......../.o...o../........ o",
        "......../..x...x./......../......../......../..o.o.../......../........ o",
        "...x..../......../...o.x../......../......../......../......../........ x",
        "......../......../.x...x../......../...o..../......../.....o../........ x",
        "......../x......./......../......../......../......../.o.o..../........ x",
    ];
    for p in positions {
        let v = json(&["solve", "draughts", "--json", p]);
        let state: Draughts = p.parse().unwrap();
        let table = Tables::shared()
            .value(&state)
            .expect("at most 3 men a side");
        assert_eq!(v["score"], table, "{p}");
        let result = match table.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        };
        assert_eq!(v["result"], result, "{p}");
    }
}

#[test]
fn bad_inputs_are_explained_with_exit_code_2_and_time_outs_with_1() {
    // A position that does not parse names where.
    let out = ply(&["solve", "othello", "xxq"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the position \"xxq\""),
        "{}",
        text(&out.stderr)
    );
    // A game without a solver.
    let out = ply(&["solve", "taunt", "x"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("othello and draughts"));
    // A finished game.
    let full = "xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/oooooooo/oooooooo/oooooooo/oooooooo x";
    let out = ply(&["solve", "othello", full], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the game is over"));
    // A man on a light square (once a panic in the endgame tables).
    let light = ".x....../......../......../......../......../......../......o./........ x";
    let out = ply(&["solve", "draughts", light], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("light square (row 6, column 6)"));
    // The start of Othello cannot be solved in 50 ms: exit 1, with what to do.
    let start = "......../......../......../...ox.../...xo.../......../......../........ x";
    let out = ply(&["solve", "othello", "--time-ms", "50", start], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("not solved within 50 ms") && err.contains("--time-ms"),
        "{err}"
    );
    // The time is range-checked.
    let out = ply(&["solve", "othello", "--time-ms", "0", start], "");
    assert_eq!(out.status.code(), Some(2));
}
