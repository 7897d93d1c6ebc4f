//! Facts tic-tac-toe must satisfy: published counts, the perfect AI's guarantees, formats.

use std::collections::{HashMap, HashSet};

use ply_core::{Budget, Game, Neutral, Outcome, Player, Seat};
use ply_search::{AlphaBeta, AlphaBetaPlayer, Config, negamax};

use super::hackerearth::{format_input, parse_input};
use super::*;
use crate::HackerEarth;

ply_testkit::conformance!(TicTacToe, games = 300);

#[test]
fn perft_matches_published_counts() {
    let path = ply_testkit::game_data("tictactoe.perft");
    assert_eq!(ply_testkit::run_perft_file::<TicTacToe>(path, u64::MAX), 10);
}

/// Counts complete games by their outcome.
fn count_games(state: &TicTacToe, tally: &mut HashMap<Option<Seat>, u64>) {
    if let Some(o) = state.outcome() {
        *tally.entry(o.winner()).or_default() += 1;
        return;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    for mv in moves {
        let mut child = *state;
        child.play_unchecked(mv);
        count_games(&child, tally);
    }
}

#[test]
fn there_are_255168_games() {
    let mut tally = HashMap::new();
    count_games(&TicTacToe::start(), &mut tally);
    assert_eq!(tally[&Some(Seat::FIRST)], 131_184);
    assert_eq!(tally[&Some(Seat::SECOND)], 77_904);
    assert_eq!(tally[&None], 46_080);
    assert_eq!(tally.values().sum::<u64>(), 255_168);
}

fn reachable() -> HashSet<TicTacToe> {
    let mut seen = HashSet::new();
    let mut stack = vec![TicTacToe::start()];
    let mut moves = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert(s) {
            continue;
        }
        s.legal_moves(&mut moves);
        for &mv in &moves {
            let mut c = s;
            c.play_unchecked(mv);
            stack.push(c);
        }
    }
    seen
}

#[test]
fn there_are_5478_positions_958_terminal_765_up_to_symmetry() {
    let all = reachable();
    assert_eq!(all.len(), 5478);
    assert_eq!(all.iter().filter(|s| s.is_terminal()).count(), 958);
    let classes: HashSet<u32> = all.iter().map(TicTacToe::canonical).collect();
    assert_eq!(classes.len(), 765);
}

#[test]
fn symmetries_preserve_the_game() {
    for s in reachable() {
        for image in s.symmetries() {
            assert_eq!(image.outcome(), s.outcome(), "{s} -> {image}");
            let (mut a, mut b) = (Vec::new(), Vec::new());
            s.legal_moves(&mut a);
            image.legal_moves(&mut b);
            assert_eq!(a.len(), b.len());
        }
    }
}

fn perfect() -> AlphaBetaPlayer<TicTacToe, Lines> {
    AlphaBetaPlayer::new(
        AlphaBeta::with(Lines, ply_core::NoOrdering, Config::default()),
        None,
        None,
    )
}

/// The perfect AI as `ai`, against every possible sequence of opponent replies: it never
/// loses.
fn never_loses(state: TicTacToe, ai_seat: Seat, ai: &mut dyn Player<TicTacToe>, games: &mut u64) {
    if let Some(o) = state.outcome() {
        *games += 1;
        assert!(
            o.winner().is_none() || o.winner() == Some(ai_seat),
            "the AI lost: {state} ({o})"
        );
        return;
    }
    if state.to_move() == ai_seat {
        let mv = ai.choose(&state, Budget::UNLIMITED).unwrap();
        let mut c = state;
        c.play(mv).expect("the AI plays legal moves");
        never_loses(c, ai_seat, ai, games);
    } else {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        for mv in moves {
            let mut c = state;
            c.play_unchecked(mv);
            never_loses(c, ai_seat, ai, games);
        }
    }
}

#[test]
fn perfect_ai_never_loses_against_any_opponent() {
    let mut ai = perfect();
    for seat in [Seat::FIRST, Seat::SECOND] {
        let mut games = 0;
        never_loses(TicTacToe::start(), seat, &mut ai, &mut games);
        // The opponent branched on every reply: at least its 8 (or 9) choices of first move.
        assert!(games >= 8, "{games} games explored as {seat}");
    }
}

#[test]
fn perfect_ai_takes_the_fastest_forced_win_everywhere() {
    let mut ai = perfect();
    for s in reachable().into_iter().filter(|s| !s.is_terminal()) {
        let best = negamax(&s, 9, 0, &Neutral);
        let mv = ai.choose(&s, Budget::UNLIMITED).unwrap();
        let mut c = s;
        c.play_unchecked(mv);
        let got = -negamax(&c, 9, 1, &Neutral);
        assert_eq!(
            got, best,
            "in {s} the AI played {mv}, worth {got}, not {best}"
        );
    }
}

#[test]
fn immediate_win_is_preferred_over_a_slower_one() {
    // X to move can win at once in the top row (cell 0 2); the bottom-left also wins later.
    let s: TicTacToe = "xx./oo./...".parse().unwrap();
    let mv = perfect().choose(&s, Budget::UNLIMITED).unwrap();
    assert_eq!(mv, Cell::at(0, 2).unwrap());
}

#[test]
fn text_form_rejects_unreachable_positions_with_a_column() {
    let bad = [
        ("xx./.../...", "cannot happen"),
        ("xxx/ooo/...", "both"),
        ("xxx/oo./o..", "moved after"),
        ("x.o/.x./..q", "column 11"),
        ("x.o/.x.", "expected 3 rows"),
        ("x.oo/.../...", "more than 3 cells"),
    ];
    for (text, needle) in bad {
        let err = text.parse::<TicTacToe>().unwrap_err().to_string();
        assert!(err.contains(needle), "{text}: {err}");
    }
}

#[test]
fn hackerearth_format_round_trips() {
    for s in reachable() {
        let text = format_input(&s);
        let (back, seat) = parse_input(&text).unwrap();
        assert_eq!(back, s);
        assert_eq!(seat, s.to_move());
    }
}

#[test]
fn hackerearth_input_errors_say_where() {
    let cases = [
        ("1 0 0\n0 2 0\n0 0\n1\n", "line 3"),
        ("1 0 0\n0 7 0\n0 0 0\n1\n", "line 2, column 3"),
        ("1 0 0\n0 2 0\n0 0 0\n3\n", "player id is 1 or 2"),
        ("1 0 0\n0 0 0\n0 0 0\n1\n", "so player 2 moves"),
        ("1 0 0\n0 2 0\n0 0 0\n", "expected the player id"),
    ];
    for (input, needle) in cases {
        let err = parse_input(input).unwrap_err().to_string();
        assert!(err.contains(needle), "{input:?}: {err}");
    }
}

#[test]
fn bot_answers_read_only_the_first_line() {
    let s = TicTacToe::start();
    assert_eq!(
        s.read_move("1 1\ndebug: thinking\n").unwrap(),
        Cell::at(1, 1).unwrap()
    );
    assert!(s.read_move("1\n1\n").is_err());
    assert!(s.read_move("").is_err());
    assert_eq!(s.write_move(Cell::at(2, 0).unwrap()), "2 0\n");
}

#[test]
fn illegal_moves_are_explained() {
    let mut s: TicTacToe = "x../.o./...".parse().unwrap();
    let err = s.play(Cell::at(1, 1).unwrap()).unwrap_err();
    assert_eq!(err.mv, Cell::at(1, 1).unwrap());
    assert!(err.reason.contains("already holds O"), "{}", err.reason);
    let mut won: TicTacToe = "xxx/oo./...".parse().unwrap();
    assert!(
        won.play(Cell::at(2, 2).unwrap())
            .unwrap_err()
            .reason
            .contains("over")
    );
    assert_eq!(won.outcome(), Some(Outcome::Win(Seat::FIRST)));
}

#[test]
fn playthrough_golden() {
    ply_testkit::assert_playthrough::<TicTacToe>(7);
}
