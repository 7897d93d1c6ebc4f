//! Refereed games between in-process players: outcomes, faults and replays.

use std::time::Duration;

use ply_core::{Budget, Fault, Game, Outcome, Player, Seat};
use ply_games::tictactoe::{Cell, TicTacToe};
use ply_referee::bot::{Bot, BuiltinBot};
use ply_referee::spec::{BuiltinKind, BuiltinOptions, builtin_player};
use ply_referee::{Replay, Verdict, play_game};

/// Always plays the top-left cell, legal or not.
struct Stubborn;

impl Player<TicTacToe> for Stubborn {
    fn name(&self) -> String {
        "stubborn".into()
    }

    fn choose(&mut self, _: &TicTacToe, _: Budget) -> Result<Cell, Fault> {
        Ok(Cell::at(0, 0).unwrap())
    }
}

fn builtin(kind: BuiltinKind, seed: u64) -> Box<dyn Bot<TicTacToe>> {
    let player = builtin_player::<TicTacToe>(kind, BuiltinOptions::default(), seed).unwrap();
    Box::new(BuiltinBot::new(
        kind.name().into(),
        player,
        Duration::from_secs(1),
    ))
}

fn specs() -> Vec<String> {
    vec!["a".into(), "b".into()]
}

#[test]
fn perfect_play_against_itself_is_a_draw() {
    let mut bots = vec![
        builtin(BuiltinKind::Perfect, 1),
        builtin(BuiltinKind::Perfect, 2),
    ];
    let replay = play_game::<TicTacToe>(&mut bots, &specs(), 0);
    assert_eq!(replay.outcome, Outcome::Draw);
    assert_eq!(replay.moves.len(), 9);
    assert!(replay.moves.iter().all(|m| m.verdict == Verdict::Ok));
}

#[test]
fn an_illegal_move_loses_at_once_and_the_replay_says_why() {
    let mut bots: Vec<Box<dyn Bot<TicTacToe>>> = vec![
        Box::new(BuiltinBot::new(
            "stubborn".into(),
            Box::new(Stubborn),
            Duration::from_secs(1),
        )),
        builtin(BuiltinKind::Random, 3),
    ];
    let replay = play_game::<TicTacToe>(&mut bots, &specs(), 0);
    // Ply 1 takes 0 0; ply 3 repeats it.
    assert_eq!(replay.moves.len(), 3);
    assert_eq!(replay.outcome, Outcome::Win(Seat::SECOND));
    let (seat, verdict) = replay.fault().unwrap();
    assert_eq!(seat, Seat::FIRST);
    assert!(
        matches!(verdict, Verdict::Fault(Fault::InvalidMove { .. })),
        "{verdict:?}"
    );
    assert!(replay.result.contains("stubborn"), "{}", replay.result);
}

#[test]
fn replays_round_trip_through_json_and_replay_exactly() {
    let mut bots = vec![
        builtin(BuiltinKind::Random, 5),
        builtin(BuiltinKind::Mcts, 6),
    ];
    let replay = play_game::<TicTacToe>(&mut bots, &specs(), 42);
    let text = serde_json::to_string_pretty(&replay).unwrap();
    let back: Replay = serde_json::from_str(&text).unwrap();
    assert_eq!(back, replay);
    let mut state: TicTacToe = back.start.parse().unwrap();
    for m in &back.moves {
        let mv = state.parse_move(m.mv.as_deref().unwrap()).unwrap();
        state.play(mv).unwrap();
    }
    assert_eq!(state.outcome(), Some(back.outcome));
    // The verdict sits flat in each move, as scripts read it.
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["moves"][0]["verdict"], "ok");
}
