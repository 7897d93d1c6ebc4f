//! One module per subcommand: validate the arguments, do the work, print.

mod bot;
mod games;
pub mod hanoi;
mod perft;
mod play;

use std::process::ExitCode;

use anyhow::Result;

use ply_games::GameKind;

use crate::args::{Cli, Command};
use crate::bad_input;

/// Runs the parsed command line.
pub fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Games(a) => games::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Perft(a) => perft::run(&a),
        Command::Bot(a) => bot::run(&a),
        Command::Hanoi(a) => hanoi::run(&a),
    }
}

/// Reads a game name, with the list of games in the error.
pub fn game_kind(name: &str) -> Result<GameKind> {
    name.parse::<GameKind>()
        .map_err(|e| bad_input!("{e}; `ply games` lists them"))
}
