//! Reads Taunt replays (`ply match taunt ... --replays DIR`) and shows, at ply's positions
//! every `E` plies from ply `F` to ply `T`, what the model stage (`ply bot taunt --model
//! true`, `ply_search::modelled`) makes of them without a clock: the main search at fixed
//! depth `D`, then the stage to depth `S` below the entry's modelled replies:
//!
//! ```text
//! taunt_model [--depth D] [--stage S] [--every E] [--from F] [--to T] DIR...
//! ```
//!
//! Per position: the ply, material (ours minus theirs), the main search's score and move,
//! the stage's choice, and each one's minimax value and mean over the modelled replies; the
//! best mean among all moves within the margin. In total: how many positions, how many the
//! stage changed, and the spread of the means.

use std::process::ExitCode;

use ply_core::{Budget, Game};
use ply_games::taunt::{CapturesFirst, Taunt, TauntEval, model_replies};
use ply_search::modelled::{MODEL_MARGIN, model_choice};
use ply_search::{AlphaBeta, Config};

#[path = "common/options.rs"]
mod options;
#[path = "common/taunt_replays.rs"]
mod replays;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (opts, dirs) = replays::split(&args);
    let parsed = options::Options::parse(opts).and_then(|o| {
        let depth = o.num("depth", 7u32)?;
        Ok((
            depth,
            o.num("stage", depth.saturating_sub(3).max(1))?,
            o.num("every", 10usize)?,
            o.num("from", 10usize)?,
            o.num("to", 90usize)?,
        ))
    });
    let (depth, stage, every, from, to) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("taunt_model: {e}");
            return ExitCode::from(2);
        }
    };
    let files = match replays::files(dirs) {
        Ok(f) => f,
        Err(e) => return bad(e),
    };
    let (mut positions, mut changed) = (0u32, 0u32);
    for f in files {
        let replays::Replay { ours, line, .. } = match replays::game(&f) {
            Ok(g) => g,
            Err(e) => return bad(e),
        };
        let diff = |s: &Taunt| s.count(ours) as i32 - s.count(ours.next(2)) as i32;
        println!(
            "{} ours {:?}, end {:+}",
            f.display(),
            ours,
            diff(line.last().unwrap())
        );
        let mut next = from;
        for (i, s) in line.iter().enumerate() {
            if i < next || i > to || s.to_move() != ours || s.is_terminal() {
                continue;
            }
            next = i + every;
            let mut search = AlphaBeta::with(TauntEval::Fitted, CapturesFirst, Config::default());
            let main = search.search(s, Budget::depth(depth));
            let Some(mv) = main.best else { continue };
            let report = model_choice(&mut search, s, mv, None, stage, model_replies);
            let rated = |m| {
                report
                    .rated
                    .iter()
                    .find(|r| r.mv == m)
                    .map(|r| (r.value, r.expected))
            };
            let top = report.rated.iter().map(|r| r.value).max().unwrap_or(0);
            let best_mean = report
                .rated
                .iter()
                .filter(|r| r.value >= top - MODEL_MARGIN)
                .map(|r| r.expected)
                .max()
                .unwrap_or(0);
            positions += 1;
            changed += u32::from(report.best != mv);
            println!(
                "  ply {i}: {:+} main {} {mv} {:?} stage {} {:?} best mean in margin {best_mean}{}",
                diff(s),
                main.score,
                rated(mv),
                report.best,
                rated(report.best),
                if report.best != mv { " CHANGED" } else { "" }
            );
            if report.best != mv {
                println!("    position {s}");
            }
        }
    }
    println!("total: positions {positions} changed {changed}");
    ExitCode::SUCCESS
}

/// Reports bad input (a replay folder or file) and gives exit code 2.
fn bad(what: String) -> ExitCode {
    eprintln!("taunt_model: {what}");
    ExitCode::from(2)
}
