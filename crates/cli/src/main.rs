//! The `ply` binary: parse the command line, run, map the result to an exit code.
//! Everything else lives in the library crates; see docs/architecture.md.

#[macro_use]
mod out;
mod args;
mod cmd;
mod exit;
mod input;
mod players;
mod ranges;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Inside a bot's jail, ply is the launcher that starts each move (issue 18).
    ply_referee::launcher::serve_if_asked();
    let args = args::Cli::parse();
    out::init(out::Settings {
        colour: out::decide_colour(args.color),
        quiet: args.quiet,
    });
    let level = match (args.quiet, args.verbose) {
        (true, _) => tracing::Level::WARN,
        (false, 0) => tracing::Level::INFO,
        (false, 1) => tracing::Level::DEBUG,
        (false, _) => tracing::Level::TRACE,
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_max_level(level)
        .event_format(out::Diagnostics)
        .init();
    match cmd::run(args) {
        Ok(code) => code,
        Err(err) => exit::report(&err),
    }
}
