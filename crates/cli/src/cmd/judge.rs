//! `ply judge GAME --state FILE --move FILE`: one step of a HackerEarth judge. Reads the
//! state a bot was fed and the bot's answer, and prints the state the other bot is fed next
//! (exactly as the contest writes it), or why the move is invalid (exit 1: an invalid move
//! loses on HackerEarth).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use serde::Serialize;

use ply_games::{HackerEarth, with_hackerearth_game};

use crate::bad_input;

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts: `valid`, `next_state` or `reason`, and `outcome` (null while the game goes on)")))]
pub struct JudgeArgs {
    /// The game (`taunt`, `draughts`, `reversi`, `othello`, ...; see `ply games`).
    pub game: String,
    /// Print the input the first player's bot is fed at the start of a game, and stop: a
    /// state to try a bot on (`ply judge reversi --start | ply bot reversi`).
    #[arg(long, conflicts_with_all = ["state", "mv"])]
    pub start: bool,
    /// The state the bot was fed, in the contest's input format.
    #[arg(long, value_name = "FILE", required_unless_present = "start")]
    pub state: Option<PathBuf>,
    /// The bot's answer, in the contest's output format (`-` reads stdin).
    #[arg(long = "move", value_name = "FILE", required_unless_present = "start")]
    pub mv: Option<PathBuf>,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Serialize)]
struct Verdict {
    valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next_state: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// Always present: null while the game goes on.
    outcome: Option<String>,
}

pub fn run(args: &JudgeArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    with_hackerearth_game!(kind, G => judge::<G>(args)).unwrap_or_else(|| {
        Err(bad_input!(
            "{kind} has no HackerEarth format; `ply games` marks the games that have one"
        ))
    })
}

fn read(path: &Path) -> Result<String> {
    if path.as_os_str() == "-" {
        crate::input::read_stdin("the move on stdin")
    } else {
        crate::input::read_file(path, "")
    }
}

fn judge<G: HackerEarth>(args: &JudgeArgs) -> Result<ExitCode> {
    let (Some(state_path), Some(move_path)) = (&args.state, &args.mv) else {
        // clap requires both unless --start.
        out!("{}", G::start().write_input());
        return Ok(ExitCode::SUCCESS);
    };
    let text = read(state_path)?;
    let mut state =
        G::read_input(&text).map_err(|e| bad_input!("{}, {e}", state_path.display()))?;
    if let Some(outcome) = state.outcome() {
        return Err(bad_input!(
            "{}: the game is already over ({outcome}); there is no move to judge",
            state_path.display()
        ));
    }
    let answer = read(move_path)?;
    let played = state
        .read_move(&answer)
        .map_err(|e| e.to_string())
        .and_then(|mv| state.play(mv).map_err(|e| e.to_string()));
    let verdict = match played {
        Err(reason) => Verdict {
            valid: false,
            next_state: None,
            reason: Some(reason),
            outcome: None,
        },
        Ok(()) => Verdict {
            valid: true,
            next_state: Some(state.write_input()),
            reason: None,
            outcome: state.outcome().map(|o| o.to_string()),
        },
    };
    if args.json.on {
        outln!("{}", serde_json::to_string_pretty(&verdict)?);
    } else if let Some(next) = &verdict.next_state {
        out!("{next}");
        if let Some(o) = &verdict.outcome {
            tracing::info!("game over: {o}");
        }
    } else {
        outln!(
            "invalid move: {}",
            verdict.reason.as_deref().unwrap_or_default()
        );
    }
    Ok(if verdict.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
