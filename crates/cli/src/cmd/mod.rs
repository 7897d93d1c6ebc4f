//! One module per subcommand: validate the arguments, do the work, print.

pub mod ants;
mod ants_replay;
mod arena;
pub mod book;
mod bot;
pub mod breaker;
mod breaker_tui;
mod docs;
mod games;
pub mod hanoi;
pub mod judge;
pub mod ladder;
pub mod leaderboard;
pub mod matches;
pub mod peg;
mod perft;
mod play;
pub mod replay;
pub mod serve;
pub mod solve;
pub mod sort;
pub mod sudoku;
pub mod tournament;
pub mod worker;

use std::process::ExitCode;

use anyhow::Result;

use ply_games::GameKind;

use crate::args::{Cli, Command};
use crate::bad_input;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Games(a) => games::run(&a),
        Command::Completions(a) => docs::completions(&a),
        Command::Man(a) => docs::man(&a),
        Command::Play(a) => play::run(&a),
        Command::Perft(a) => perft::run(&a),
        Command::Solve(a) => solve::run(&a),
        Command::Bot(a) => bot::run(&a),
        Command::Match(a) => matches::run(&a),
        Command::Tournament(a) => tournament::run(&a),
        Command::Ladder(a) => ladder::run(&a),
        Command::Leaderboard(a) => leaderboard::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Sort(a) => sort::run(&a),
        Command::Judge(a) => judge::run(&a),
        Command::Ants(a) => ants::run(&a),
        Command::Sudoku(a) => sudoku::run(&a),
        Command::Peg(a) => peg::run(&a),
        Command::Hanoi(a) => hanoi::run(&a),
        Command::Breaker(a) => breaker::run(&a),
        Command::Worker(a) => worker::run(&a),
        Command::Workers(a) => worker::list(&a),
        Command::Serve(a) => serve::run(&a),
        Command::Book(a) => book::run(&a),
    }
}

/// Reads a game name, with the list of games in the error.
pub fn game_kind(name: &str) -> Result<GameKind> {
    name.parse::<GameKind>()
        .map_err(|e| bad_input!("{e}; `ply games` lists them"))
}
