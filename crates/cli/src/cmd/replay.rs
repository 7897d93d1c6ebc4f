//! `ply replay FILE`: a replay played back in the terminal. Board-game replays (ply's own
//! JSON) are shown here; Ants replays in the original format, recognised by their content
//! (`replaydata`, `replayformat` or a bare `replaydata` object), go to `ants_replay`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;

use ply_core::Game;
use ply_games::with_game;
use ply_referee::Replay;

use super::arena::open_any_store_read_only;
use crate::bad_input;
use crate::out::untrusted;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  ply replay replays/game-0001.json\n  \
ply replay replays/game-0001.json --step     # Enter for the next move\n  \
ply replay --game 2:1                        # round 2, slot 1 of the newest stored tournament\n\n\
Replay files come from `ply match --replays DIR`; every tournament game is in the database.\n\n\
Ants replays (the 2011 AI Challenge's format, from `ply ants play --replay` or the original engine):\n  \
ply replay game.replay --turn 20                  # one turn\n  \
ply replay game.replay --player b --step          # as player b saw it, Enter for the next turn\n  \
ply replay game.replay --window 0,0,40,80         # rows 0..39, columns 0..79\n  \
ply replay game.replay --json                     # per-turn scores, ants and food")]
#[command(mut_arg("json", |a| a.help("Ants: print the per-turn summary (scores, ants, hive, food) as JSON")))]
pub struct ReplayArgs {
    /// The replay file (JSON); or give --game to read a tournament game from the database.
    #[arg(required_unless_present = "game", conflicts_with = "game")]
    pub file: Option<PathBuf>,
    /// A stored tournament game, as ROUND:SLOT (slots count from 0 in schedule order).
    #[arg(long, value_name = "ROUND:SLOT")]
    pub game: Option<String>,
    /// Which tournament, with --game (default: the newest).
    #[arg(long, requires = "game")]
    pub tournament: Option<i64>,
    /// The database file, with --game (default: arena.sqlite3 in the platform's data directory).
    #[arg(long, requires = "game")]
    pub db: Option<PathBuf>,
    /// Wait for Enter after each move (each turn for Ants).
    #[arg(long)]
    pub step: bool,
    /// Ants: show only this turn (0 is the start).
    #[arg(long, value_name = "N")]
    pub turn: Option<u32>,
    /// Ants: the game as this player saw it (letter a..j or number from 0).
    #[arg(long, value_name = "P")]
    pub player: Option<String>,
    /// Ants: draw only this part of the map (wrapping); default: clipped to the terminal.
    #[arg(long, value_name = "ROW,COL,H,W")]
    pub window: Option<String>,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &ReplayArgs) -> Result<ExitCode> {
    let (source, text) = match (&args.file, &args.game) {
        (Some(file), _) => (
            file.display().to_string(),
            crate::input::read_file(file, "the replay")?,
        ),
        (None, Some(game)) => stored(args, game)?,
        (None, None) => return Err(bad_input!("give a replay FILE or --game ROUND:SLOT")),
    };
    let doc: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        bad_input!(
            "{source}: line {}, column {}: not a JSON replay: {e}",
            e.line(),
            e.column()
        )
    })?;
    if ply_ants::playback::is_ants_replay(&doc) {
        return super::ants_replay::run(args, &source, &doc);
    }
    if args.turn.is_some() || args.player.is_some() || args.window.is_some() || args.json.on {
        return Err(bad_input!(
            "--turn, --player, --window and --json are for Ants replays; {source} is a board-game replay"
        ));
    }
    let replay: Replay = serde_json::from_str(&text).map_err(|e| {
        bad_input!(
            "{source}: line {}, column {}: not a ply replay: {e}",
            e.line(),
            e.column()
        )
    })?;
    let kind = super::game_kind(&replay.game)?;
    with_game!(kind, G => show::<G>(args, &replay))
}

/// The replay of a stored tournament game, with a name for messages.
fn stored(args: &ReplayArgs, game: &str) -> Result<(String, String)> {
    let parsed = game
        .split_once(':')
        .and_then(|(r, s)| Some((r.trim().parse::<u32>().ok()?, s.trim().parse::<u32>().ok()?)));
    let Some((round, slot)) = parsed else {
        return Err(bad_input!(
            "--game {game:?}: write ROUND:SLOT, e.g. --game 1:0"
        ));
    };
    let (store, path) = open_any_store_read_only(args.db.as_ref())?;
    let Some(store) = store else {
        return Err(bad_input!(
            "{path}: no tournaments yet (no such file); run `ply tournament` first"
        ));
    };
    let t = store
        .tournament(args.tournament)
        .map_err(|e| bad_input!("{path}: {e}"))?;
    let record = store
        .games(t.id)?
        .into_iter()
        .find(|g| g.round == round && g.slot == slot)
        .ok_or_else(|| {
            bad_input!(
                "tournament #{} has no stored game {round}:{slot} (rounds from 1, slots from 0)",
                t.id
            )
        })?;
    Ok((
        format!("tournament #{} game {round}:{slot}", t.id),
        record.replay,
    ))
}

fn show<G: Game>(args: &ReplayArgs, replay: &Replay) -> Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let stdin = std::io::stdin();
    let mut input = crate::input::lines(stdin.lock(), "stdin");
    writeln!(out, "{} (seed {})", G::info().title, replay.seed)?;
    for (i, p) in replay.players.iter().enumerate() {
        writeln!(
            out,
            "player {}: {} ({})",
            i + 1,
            untrusted(&p.name),
            untrusted(&p.spec)
        )?;
    }
    let mut state: G = replay
        .start
        .parse()
        .map_err(|e| bad_input!("the replay's start position: {e}"))?;
    writeln!(out, "\n{}", state.diagram())?;
    for m in &replay.moves {
        let who = replay
            .players
            .get(usize::from(m.seat).saturating_sub(1))
            .map_or("?".to_string(), |p| untrusted(&p.name));
        match &m.mv {
            Some(text) if m.verdict.is_ok() => {
                let mv = state
                    .parse_move(text)
                    .map_err(|e| bad_input!("the replay's ply {}: {e}", m.ply))?;
                state
                    .play(mv)
                    .map_err(|e| bad_input!("the replay's ply {}: {e}", m.ply))?;
                writeln!(
                    out,
                    "\nply {}: player {} ({who}) plays {text} in {:.1} ms",
                    m.ply,
                    m.seat,
                    m.micros as f64 / 1000.0
                )?;
                writeln!(out, "{}", state.diagram())?;
            }
            _ => writeln!(
                out,
                "\nply {}: player {} ({who}): {} after {:.1} ms",
                m.ply,
                m.seat,
                untrusted(&m.verdict.to_string()),
                m.micros as f64 / 1000.0
            )?,
        }
        if args.step {
            out.flush()?;
            if input.next().is_none() {
                break;
            }
        }
    }
    // Everything a bot wrote (its stderr, its answers in fault reasons) and every name in a
    // replay file is shown with control characters escaped: no escape sequence from a bot
    // reaches the terminal.
    writeln!(out, "\nresult: {}", untrusted(&replay.result))?;
    for (i, tail) in replay.stderr.iter().enumerate() {
        if !tail.trim().is_empty() {
            writeln!(out, "\nstderr of player {} (last lines):", i + 1)?;
            for line in tail
                .lines()
                .rev()
                .take(10)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                writeln!(out, "  {}", untrusted(line))?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
