//! `ply perft GAME DEPTH`: leaf counts for checking move generators.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;

use ply_core::Game;
use ply_games::with_game;

use crate::args::PerftArgs;
use crate::bad_input;

pub fn run(args: &PerftArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    with_game!(kind, G => perft::<G>(args))
}

fn perft<G: Game>(args: &PerftArgs) -> Result<ExitCode> {
    let state = match &args.position {
        None => G::start(),
        Some(text) => text
            .parse::<G>()
            .map_err(|e| bad_input!("--position {text:?}: {e}"))?,
    };
    let start = Instant::now();
    // Counted first move by first move (the same sum as one perft), so that a long count
    // shows its progress on stderr.
    let bar = crate::out::progress(0, "first moves");
    let divide = ply_search::perft_divide_with(&state, args.depth, |done, of| {
        bar.set_length(of as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    let total: u64 = if args.depth == 0 {
        1
    } else {
        divide.iter().map(|(_, n)| n).sum()
    };
    let divide = if args.divide { divide } else { Vec::new() };
    let secs = start.elapsed().as_secs_f64();
    if args.json.on {
        let per_move: Vec<_> = divide
            .iter()
            .map(|(m, n)| serde_json::json!({"move": m.to_string(), "nodes": n}))
            .collect();
        let mut v = serde_json::json!({
            "game": G::info().name, "position": state.to_string(), "depth": args.depth,
            "nodes": total, "seconds": secs,
        });
        if args.divide {
            v["divide"] = serde_json::Value::Array(per_move);
        }
        outln!("{v}");
    } else {
        for (m, n) in &divide {
            outln!("{m}: {n}");
        }
        tracing::info!(
            "perft {} of {} in {:.3}s ({:.0} leaves/s)",
            args.depth,
            G::info().name,
            secs,
            total as f64 / secs.max(1e-9)
        );
        outln!("{total}");
    }
    Ok(ExitCode::SUCCESS)
}
