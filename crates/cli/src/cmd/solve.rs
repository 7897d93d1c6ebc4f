//! `ply solve GAME POSITION`: a position's exact value and a best move, proved by the
//! game's endgame solver (`ply_games::solve`).

use std::process::ExitCode;
use std::time::Duration;

use anyhow::Result;
use clap::Args;

use ply_games::solve::{SolveError, solve};

use crate::bad_input;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply solve othello \\\n    \
'xxxxxxx./oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo x' \\\n    \
# prints: best 0 7 (h1)\n  \
ply solve othello --wld \\\n    \
'o..oooox/.oooooox/ooxxooox/ooxoooxx/ooooooxx/...oooox/....o..x/........ x' \\\n    \
# prints: result win\n  \
ply solve othello --line \\\n    \
'oooo.xxx/o.oxxx../oxxxxxxo/oxxxoxxo/ooxxooxo/oooxxxxo/..oxx.xo/.ooooo.. x' \\\n    \
# prints: line b2 h8 g8 f7 a8 h2 g2 e1 b7 a7\n\n\
The second is FFO endgame test #40 (Gunnar Andersson's suite; 20 empty cells, black to\n\
move): without --wld it proves black wins by 38 discs with a2, in about 1 s on one core\n\
in a release build (with --wld the move shown is a winning one, not always the best).\n\
The third, 10 empties, is lost by 16 whatever black does; --line shows both sides' best\n\
play to the end, each move proved by a solve of its own that starts from the table the\n\
first solve left (so the line adds little: a few percent to FFO #40's solve).\n\
Othello (8x8) and Draughts have exact solvers; the time they need grows two to three\n\
times an empty cell (Othello) from about 20 empties, so --time-ms caps it. Positions are\n\
the games' one-line text (`ply perft GAME 0 --json` shows the start's). Exit code 1 when\n\
the time runs out, 2 for a bad position.")]
pub struct SolveArgs {
    /// The game: othello or draughts.
    pub game: String,
    /// The position, in the game's one-line text.
    pub position: String,
    /// Prove only win, draw or loss (a null window around 0: much faster than the exact score).
    #[arg(long)]
    pub wld: bool,
    /// Also print the best line of play to the end of the game (needs the exact score; each
    /// of its moves is proved by a solve starting from the first solve's table: a little
    /// more time).
    #[arg(long, conflicts_with = "wld")]
    pub line: bool,
    /// Give up after this many milliseconds (1 to 86,400,000).
    #[arg(long, default_value_t = 60_000, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
    pub time_ms: u64,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &SolveArgs) -> Result<ExitCode> {
    let game = super::game_kind(&args.game)?;
    let limit = Duration::from_millis(args.time_ms);
    let s = match solve(game, &args.position, !args.wld, args.line, limit) {
        Ok(s) => s,
        Err(e @ SolveError::OutOfTime { .. }) => return Err(anyhow::Error::new(e)),
        Err(e) => return Err(bad_input!("{e}")),
    };
    let result = match s.score.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    if args.json.on {
        let v = serde_json::json!({
            "game": game.name(), "position": s.position, "result": result,
            "score": s.exact.then_some(s.score), "best": s.best, "best_name": s.best_name,
            "nodes": s.nodes, "seconds": s.elapsed.as_secs_f64(),
            "line": args.line.then_some(&s.line),
            "line_complete": args.line.then_some(s.line_complete),
        });
        outln!("{v}");
    } else {
        outln!("result {result}");
        if s.exact {
            outln!("score {:+}", s.score);
        }
        match &s.best_name {
            Some(name) => outln!("best {} ({name})", s.best),
            None => outln!("best {}", s.best),
        }
        if args.line {
            let cut = if s.line_complete {
                ""
            } else {
                " (cut short: the time ran out; allow more with --time-ms)"
            };
            outln!("line {}{cut}", s.line.join(" "));
        }
        tracing::info!("{} positions in {:.3} s", s.nodes, s.elapsed.as_secs_f64());
    }
    Ok(ExitCode::SUCCESS)
}
