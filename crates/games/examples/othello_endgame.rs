//! The exact endgame solver on many positions, for benchmarks (docs/benchmarks.md): positions
//! from the seeded self-play games the other Othello examples measure on
//! (`common/othello_games.rs`: random opening plies, then a depth-2 pattern search), each
//! game's first position with at most `--empties` empty cells, each solved exactly and then
//! by win/loss/draw with a fresh table, and then exactly again continuing the win/loss/draw
//! solve's table (`then_exact`: what the bot's plan costs after its WLD solve). Prints one
//! line per position and the totals: nodes are exact and repeatable, times depend on the
//! machine.
//!
//! ```text
//! cargo run --release -p ply-games --example othello_endgame -- --empties 18 --positions 20 --seed 1
//! ```
//!
//! Uses only the solver's public interface, so the same file built against an older commit
//! measures that commit's solver on the same positions (before session 44, without
//! `solve_continuing`: drop its lines).

use std::process::ExitCode;
use std::time::Duration;

use ply_core::Budget;
use ply_games::reversi::{EndgameSolver, Othello, SolveMode, empties};

#[path = "common/othello_games.rs"]
#[allow(dead_code)] // `on_threads` is for the other examples
mod games;
#[path = "common/options.rs"]
mod options;
use options::Options;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("othello_endgame: {e}");
            eprintln!(
                "usage: othello_endgame [--empties 4..=26] [--positions 1..=10000] [--seed N]"
            );
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let o = Options::parse(args)?;
    let target: u32 = o.num("empties", 18)?;
    let count: u64 = o.num("positions", 20)?;
    let seed: u64 = o.num("seed", 1)?;
    if !(4..=26).contains(&target) {
        return Err(format!("--empties {target}: from 4 to 26"));
    }
    if !(1..=10_000).contains(&count) {
        return Err(format!("--positions {count}: from 1 to 10000"));
    }
    let mut solver = EndgameSolver::new();
    let (mut exact_nodes, mut wld_nodes) = (0u64, 0u64);
    let (mut exact_time, mut wld_time) = (Duration::ZERO, Duration::ZERO);
    let (mut then_nodes, mut then_time) = (0u64, Duration::ZERO);
    let mut game = 0u64;
    let mut found = 0u64;
    println!(
        "position empties score best exact_nodes exact_ms wld wld_nodes wld_ms then_exact_nodes then_exact_ms"
    );
    while found < count {
        let Some(state) = position(seed, game, target) else {
            game += 1;
            continue;
        };
        game += 1;
        found += 1;
        let exact = solver
            .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
            .ok_or("an unfinished game has a solution")?;
        let wld = solver
            .solve(&state, SolveMode::WinLossDraw, Budget::UNLIMITED)
            .ok_or("an unfinished game has a solution")?;
        assert_eq!(wld.score, exact.score.signum(), "{state}");
        let then = solver
            .solve_continuing(&state, SolveMode::Exact, Budget::UNLIMITED)
            .ok_or("an unfinished game has a solution")?;
        assert_eq!(then.score, exact.score, "{state}");
        println!(
            "{state} {} {} {} {} {:.1} {} {} {:.1} {} {:.1}",
            empties(&state),
            exact.score,
            exact.best,
            exact.nodes,
            exact.elapsed.as_secs_f64() * 1e3,
            wld.score,
            wld.nodes,
            wld.elapsed.as_secs_f64() * 1e3,
            then.nodes,
            then.elapsed.as_secs_f64() * 1e3
        );
        then_nodes += then.nodes;
        then_time += then.elapsed;
        exact_nodes += exact.nodes;
        wld_nodes += wld.nodes;
        exact_time += exact.elapsed;
        wld_time += wld.elapsed;
    }
    println!(
        "total: {found} positions (from {game} games), exact {exact_nodes} nodes in {:.3} s, WLD {wld_nodes} nodes in {:.3} s, exact after WLD {then_nodes} nodes in {:.3} s",
        exact_time.as_secs_f64(),
        wld_time.as_secs_f64(),
        then_time.as_secs_f64()
    );
    Ok(())
}

/// Game `index` of the seeded self-play at its first position with at most `target`
/// empties (`None` if the game ends first).
fn position(seed: u64, index: u64, target: u32) -> Option<Othello> {
    let (positions, _) = games::play(seed, index);
    positions.into_iter().find(|p| empties(p) <= target)
}
