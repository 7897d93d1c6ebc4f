//! The `ply` binary: parse the command line, run, map the result to an exit code.
//! Everything else lives in the library crates; see docs/architecture.md.

#[macro_use]
mod out;
mod args;
mod cmd;
mod exit;
mod players;
mod ranges;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let args = args::Cli::parse();
    match cmd::run(args) {
        Ok(code) => code,
        Err(err) => exit::report(&err),
    }
}
