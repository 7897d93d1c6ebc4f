//! Reads Taunt replays (`ply match taunt ... --replays DIR`) and reports, for each game that
//! did not end with a winner, where the standoff set in and what each side could do in it:
//!
//! ```text
//! taunt_standoff [--depth D] [--wait W] DIR...
//! ```
//!
//! Per drawn game: the ply from which material stays level to the end, and at every 10th ply
//! after it each side's waiting moves (legal moves that capture nothing and keep material
//! level against a material-only search `W` plies deep, default 3) and the bot's fitted
//! evaluation searched `D` plies (default 9) from the position, so a line that wins
//! material deeper than the bot's own search shows as a score of +100 or more.

use std::process::ExitCode;

use ply_core::{Budget, Game};
use ply_games::taunt::{CapturesFirst, Move, Taunt, TauntEval};
use ply_search::{AlphaBeta, Config};

#[path = "common/options.rs"]
mod options;
#[path = "common/taunt_replays.rs"]
mod replays;

/// Material for the side to move after a material-only negamax `depth` plies deep.
fn material(state: &Taunt, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let me = state.to_move();
    let here = state.count(me) as i32 - state.count(me.next(2)) as i32;
    if depth == 0 || state.is_over() {
        return here;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for mv in moves {
        let mut next = *state;
        next.play_unchecked(mv);
        let v = -material(&next, depth - 1, -beta, -alpha);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The moves of the side to move that capture nothing and lose nothing within `depth` plies.
fn waiting(state: &Taunt, depth: u32) -> usize {
    let me = state.to_move();
    let level = state.count(me) as i32 - state.count(me.next(2)) as i32;
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv: &Move| state.captures(mv) == 0)
        .filter(|&mv| {
            let mut next = *state;
            next.play_unchecked(mv);
            -material(&next, depth, -100, 100) >= level
        })
        .count()
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The leading `--key value` pairs, then the folders.
    let (opts, dirs) = replays::split(&args);
    let parsed = options::Options::parse(opts)
        .and_then(|o| Ok((o.num("depth", 9u32)?, o.num("wait", 3u32)?)));
    let (depth, wait) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("taunt_standoff: {e}");
            return ExitCode::from(2);
        }
    };
    let files = match replays::files(dirs) {
        Ok(f) => f,
        Err(e) => return bad(e),
    };
    for f in files {
        let replays::Replay { ours, line, .. } = match replays::game(&f) {
            Ok(g) => g,
            Err(e) => return bad(e),
        };
        let last = *line.last().expect("a position");
        let diff = |s: &Taunt| s.count(ours) as i32 - s.count(ours.next(2)) as i32;
        if diff(&last) != 0 {
            continue;
        }
        let level_from = line.iter().rposition(|s| diff(s) != 0).map_or(0, |i| i + 1);
        println!(
            "{} ours {:?}, level from ply {level_from} at {} v {}",
            f.display(),
            ours,
            line[level_from].count(ours),
            line[level_from].count(ours.next(2))
        );
        let mut changes = String::new();
        for (i, w) in line.windows(2).enumerate() {
            if diff(&w[0]) != diff(&w[1]) {
                changes += &format!(" {}:{:+}", i + 1, diff(&w[1]));
            }
        }
        println!("  material (ply: ours - theirs after it):{changes}");
        let mut ply = level_from.div_ceil(10) * 10;
        while ply < line.len() - 1 {
            let s = &line[ply];
            // The other side to move in the same position (the counter one move on; at move
            // 99 one back, which changes nobody's moves).
            let n = s.moves_played();
            let grid = s.to_string();
            let grid = grid.split_whitespace().next().expect("a grid");
            let other: Taunt = format!("{grid} {}", if n < 99 { n + 1 } else { n - 1 })
                .parse()
                .expect("the same grid");
            let (w_me, w_them) = (waiting(s, wait), waiting(&other, wait));
            let (ours_w, theirs_w) = if s.to_move() == ours {
                (w_me, w_them)
            } else {
                (w_them, w_me)
            };
            let mut search = AlphaBeta::with(TauntEval::Fitted, CapturesFirst, Config::default());
            let r = search.search(
                s,
                Budget {
                    max_depth: Some(depth),
                    ..Budget::UNLIMITED
                },
            );
            let for_ours = if s.to_move() == ours {
                r.score.0
            } else {
                -r.score.0
            };
            println!(
                "  ply {ply}: {} v {}, waiting ours {ours_w} theirs {theirs_w}, depth {depth} score for ours {for_ours}",
                s.count(ours),
                s.count(ours.next(2))
            );
            ply += 10;
        }
    }
    ExitCode::SUCCESS
}

/// Reports bad input (a replay folder or file) and gives exit code 2.
fn bad(what: String) -> ExitCode {
    eprintln!("taunt_standoff: {what}");
    ExitCode::from(2)
}
