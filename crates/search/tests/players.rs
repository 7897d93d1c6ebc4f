//! MCTS, random and greedy players: determinism and basic competence.

use ply_core::{Budget, Game, Player, Seat};
use ply_games::tictactoe::{Cell, Lines, TicTacToe};
use ply_search::{GreedyPlayer, Mcts, MctsConfig, MctsPlayer, RandomPlayer};

fn play_out<'a>(p1: &'a mut dyn Player<TicTacToe>, p2: &'a mut dyn Player<TicTacToe>) -> Vec<Cell> {
    let mut s = TicTacToe::start();
    let mut line = Vec::new();
    while !s.is_terminal() {
        let p = if s.to_move() == Seat::FIRST {
            &mut *p1
        } else {
            &mut *p2
        };
        let mv = p.choose(&s, Budget::nodes(500)).unwrap();
        s.play(mv).unwrap();
        line.push(mv);
    }
    line
}

#[test]
fn same_seeds_same_game() {
    let a = play_out(
        &mut RandomPlayer::new(5),
        &mut MctsPlayer::new(MctsConfig::default(), 9, None, None),
    );
    let b = play_out(
        &mut RandomPlayer::new(5),
        &mut MctsPlayer::new(MctsConfig::default(), 9, None, None),
    );
    assert_eq!(a, b);
    let c = play_out(
        &mut RandomPlayer::new(6),
        &mut MctsPlayer::new(MctsConfig::default(), 9, None, None),
    );
    assert_ne!(a, c, "another seed should give another game");
}

#[test]
fn mcts_takes_a_win_and_blocks_a_loss() {
    let win: TicTacToe = "xx./oo./...".parse().unwrap();
    let r = Mcts::new(MctsConfig::default(), 1).search(&win, Budget::nodes(3000));
    assert_eq!(r.best, Cell::at(0, 2));
    // O to move must block X's top row.
    let block: TicTacToe = "xx./o../...".parse().unwrap();
    let r = Mcts::new(MctsConfig::default(), 1).search(&block, Budget::nodes(5000));
    assert_eq!(r.best, Cell::at(0, 2));
    assert_eq!(r.nodes, 5000);
}

#[test]
fn mcts_beats_random_most_of_the_time() {
    let mut wins = 0;
    for seed in 0..20 {
        let mut mcts = MctsPlayer::new(MctsConfig::default(), seed, None, None);
        let mut rnd = RandomPlayer::new(1000 + seed);
        let line = play_out(&mut mcts, &mut rnd);
        let mut s = TicTacToe::start();
        for mv in line {
            s.play_unchecked(mv);
        }
        if s.outcome().unwrap().winner() == Some(Seat::FIRST) {
            wins += 1;
        }
    }
    assert!(wins >= 16, "mcts won {wins} of 20 as X against random");
}

#[test]
fn greedy_takes_an_immediate_win() {
    let s: TicTacToe = "xx./oo./...".parse().unwrap();
    let mv = GreedyPlayer::new(Lines, 0)
        .choose(&s, Budget::UNLIMITED)
        .unwrap();
    assert_eq!(mv, Cell::at(0, 2).unwrap());
}

#[test]
fn a_parallel_search_solves_tictactoe_and_counts_every_thread_s_nodes() {
    use ply_search::{AlphaBeta, Config};
    let one = AlphaBeta::with(Lines, ply_core::NoOrdering, Config::default())
        .search_parallel(&TicTacToe::start(), Budget::UNLIMITED);
    for threads in [2, 4] {
        let config = Config {
            threads,
            ..Config::default()
        };
        let mut search = AlphaBeta::with(Lines, ply_core::NoOrdering, config);
        let r = search.search_parallel(&TicTacToe::start(), Budget::UNLIMITED);
        assert_eq!(r.score, ply_core::Score::DRAW, "{threads} threads");
        assert!(r.exact);
        assert!(r.nodes > 0 && r.best.is_some());
        // A position with one winning move: every thread count finds it.
        let win: TicTacToe = "xx./oo./...".parse().unwrap();
        let r = search.search_parallel(&win, Budget::depth(3));
        assert_eq!(r.best, Cell::at(0, 2), "{threads} threads");
    }
    assert!(one.exact);
}
