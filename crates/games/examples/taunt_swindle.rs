//! Reads Taunt replays (`ply match taunt ... --replays DIR`) and shows, for every position
//! of ply's with at most `L` moves left to move 100 (default 10), what the last moves'
//! exact search ([`Swindle`], `ply bot taunt --endgame true`) makes of it:
//!
//! ```text
//! taunt_swindle [--left L] DIR...
//! ```
//!
//! Per position: the ply, material (ours minus theirs), the exact value with best play (win,
//! draw or loss for ply), the solver's choice (a win, or a drawn move with its trap share:
//! the share of the entry-like replies that lose), the move played and its own trap share.
//! Per game and in total: how many drawn positions had a trap to set, how many of the moves
//! played set one, and how often the reply played then lost.

use std::process::ExitCode;

use ply_core::Game;
use ply_games::taunt::{Choice, MOVE_LIMIT, Swindle, Taunt, model_replies};

#[path = "common/options.rs"]
mod options;
#[path = "common/taunt_replays.rs"]
mod replays;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The leading `--key value` pairs, then the folders.
    let (opts, dirs) = replays::split(&args);
    let left = match options::Options::parse(opts).and_then(|o| o.num("left", 10u32)) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("taunt_swindle: {e}");
            return ExitCode::from(2);
        }
    };
    let files = match replays::files(dirs) {
        Ok(f) => f,
        Err(e) => return bad(e),
    };
    let mut solver = Swindle::new();
    // Drawn positions, those with a trap to set, moves played that set one, replies that fell.
    let mut total = [0u32; 4];
    for f in files {
        let replays::Replay { ours, line, played } = match replays::game(&f) {
            Ok(g) => g,
            Err(e) => return bad(e),
        };
        let last = *line.last().expect("a position");
        let diff = |s: &Taunt| s.count(ours) as i32 - s.count(ours.next(2)) as i32;
        println!("{} ours {:?}, end {:+}", f.display(), ours, diff(&last));
        let mut game = [0u32; 4];
        for (i, s) in line.iter().enumerate().take(played.len()) {
            if s.to_move() != ours || MOVE_LIMIT - s.moves_played() > left {
                continue;
            }
            let value = solver.value(s).expect("no deadline");
            let choice = solver.choose(s, None);
            let child = line[i + 1];
            let replies = model_replies(&child);
            let lost = replies
                .iter()
                .filter(|r| {
                    (r.outcome().is_none() && solver.value(r) == Some(1))
                        || (r.outcome().is_some() && diff(r) > 0)
                })
                .count();
            let share = if child.outcome().is_some() {
                0.0
            } else {
                lost as f64 / replies.len().max(1) as f64
            };
            let fell = line.get(i + 2).is_some_and(|r| {
                (r.outcome().is_none() && solver.value(r) == Some(1))
                    || (r.outcome().is_some() && diff(r) > 0)
            });
            let chosen = match choice {
                Some(Choice::Win(mv)) => format!("win {mv}"),
                Some(Choice::Trap(mv, p)) => format!("trap {mv} {p:.2}"),
                None => "none".to_string(),
            };
            println!(
                "  ply {}: {:+} value {value:+} solver {chosen}; played {} share {share:.2}{}",
                i + 1,
                diff(s),
                played[i],
                if value == 0 && fell { " FELL" } else { "" }
            );
            if value == 0 {
                game[0] += 1;
                game[1] += u32::from(matches!(choice, Some(Choice::Trap(..))));
                game[2] += u32::from(share > 0.0);
                game[3] += u32::from(fell);
            }
        }
        println!(
            "  drawn {} with a trap {} set {} fell {}",
            game[0], game[1], game[2], game[3]
        );
        for (t, g) in total.iter_mut().zip(game) {
            *t += g;
        }
    }
    println!(
        "total: drawn positions {} with a trap {} trap set {} reply fell {}",
        total[0], total[1], total[2], total[3]
    );
    ExitCode::SUCCESS
}

/// Reports bad input (a replay folder or file) and gives exit code 2.
fn bad(what: String) -> ExitCode {
    eprintln!("taunt_swindle: {what}");
    ExitCode::from(2)
}
