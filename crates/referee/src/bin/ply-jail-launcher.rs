//! The jail launcher as a program of its own, for the referee's tests and benchmarks and for
//! programs other than `ply` that use the referee (`ply` serves as its own launcher:
//! `ply __ply-jail-launcher`). It runs only inside a jail, started by the referee.

fn main() {
    ply_referee::launcher::serve_if_asked();
    eprintln!(
        "ply-jail-launcher: the referee starts this inside a bot's jail as `ply-jail-launcher {} PROGRAM ARGS...`",
        ply_referee::launcher::ARG
    );
    std::process::exit(2);
}
