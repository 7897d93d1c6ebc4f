//! `ply replay` for Ants replays in the original format: the board turn by turn, whole or as
//! one player saw it (the seed's "green filter"), or a per-turn summary as JSON.
//!
//! Drawing choices: the map's own letters (`a`-`j` ants, `0`-`9` hills, `A`-`J` an ant on
//! its own hill, `*` food, `%` water, `.` land, `!` an ant that died there this turn), in
//! each player's colour when stdout is a terminal (or `--color always`). With `--player`,
//! squares out of that player's view are drawn as it knew them: `?` never seen, and, seen
//! before, `~` water or `,` land (dimmed `%` and `.` in colour). Maps wider than the terminal
//! are clipped to its width; `--window ROW,COL,H,W` picks any part (wrapping on the torus).

use std::io::{IsTerminal, Write};

use anstyle::Style;
use anyhow::Result;
use serde_json::{Value, json};

use ply_ants::playback::{Sight, Square};
use ply_ants::{Frame, Playback, PlayerView};

use super::replay::ReplayArgs;
use crate::bad_input;

/// The part of the map to draw: top-left square and size, wrapping on the torus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    row: usize,
    col: usize,
    height: usize,
    width: usize,
}

/// The players' colours (ANSI 256-colour codes), in player order.
const COLOURS: [u8; 10] = [196, 33, 40, 226, 201, 51, 208, 135, 218, 136];

fn parse_window(text: &str, rows: usize, cols: usize) -> Result<Window> {
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let nums: Option<Vec<usize>> = parts.iter().map(|p| p.parse().ok()).collect();
    match nums.as_deref() {
        Some(&[row, col, height, width]) if height > 0 && width > 0 => {
            if row >= rows || col >= cols {
                return Err(bad_input!(
                    "--window {text:?}: the top-left square ({row}, {col}) is off the \
                     {rows}x{cols} map"
                ));
            }
            Ok(Window {
                row,
                col,
                height: height.min(rows),
                width: width.min(cols),
            })
        }
        _ => Err(bad_input!(
            "--window {text:?}: write ROW,COL,HEIGHT,WIDTH with a positive size, e.g. --window 0,0,40,80"
        )),
    }
}

fn parse_player(text: &str, players: usize) -> Result<u8> {
    let t = text.trim();
    let p = match t.chars().next() {
        Some(c @ 'a'..='z') if t.len() == 1 => Some(c as usize - 'a' as usize),
        _ => t.parse::<usize>().ok(),
    };
    match p {
        Some(p) if p < players => Ok(p as u8),
        _ => Err(bad_input!(
            "--player {t:?}: give the player's letter or number, a..{} or 0..{}",
            char::from(b'a' + (players as u8 - 1).min(25)),
            players - 1
        )),
    }
}

fn letter(p: usize) -> char {
    char::from(b'a' + (p as u8).min(25))
}

/// Plays back an Ants replay document read from `source`.
pub fn run(args: &ReplayArgs, source: &str, doc: &Value) -> Result<std::process::ExitCode> {
    let pb = Playback::from_json(doc).map_err(|e| bad_input!("{source}: {e}"))?;
    let t = pb.torus();
    let last = pb.last_turn();
    if let Some(n) = args.turn
        && n > last
    {
        return Err(bad_input!(
            "--turn {n}: {source} has turns 0 to {last} (0 is the start)"
        ));
    }
    let player = args
        .player
        .as_deref()
        .map(|p| parse_player(p, pb.players()))
        .transpose()?;
    let terminal = std::io::stdout().is_terminal();
    let colour = crate::out::colour();
    let window = match &args.window {
        Some(w) => parse_window(w, t.rows, t.cols)?,
        None => {
            let width = if terminal {
                terminal_size::terminal_size().map_or(80, |(w, _)| usize::from(w.0))
            } else {
                usize::MAX
            };
            Window {
                row: 0,
                col: 0,
                height: t.rows,
                width: t.cols.min(width.max(1)),
            }
        }
    };
    let mut out = std::io::stdout().lock();

    if args.json.on {
        let mut turns = Vec::new();
        for (f, view) in shown(&pb, player, args.turn) {
            let mut entry = json!({
                "turn": f.turn,
                "scores": f.scores,
                "ants": f.ant_counts(pb.players()),
                "hive": f.hive,
                "food": f.food.len(),
            });
            if let Some(v) = &view {
                entry["visible_squares"] = json!(v.visible.iter().filter(|&&x| x).count());
            }
            turns.push(entry);
        }
        let doc = json!({
            "rows": t.rows,
            "cols": t.cols,
            "players": pb.players(),
            "names": pb.names(),
            "last_turn": last,
            "cutoff": pb.cutoff(),
            "final_scores": pb.final_scores(),
            "turns": turns,
        });
        writeln!(out, "{}", serde_json::to_string_pretty(&doc)?)?;
        return Ok(std::process::ExitCode::SUCCESS);
    }

    writeln!(
        out,
        "Ants replay: {} players, {}x{} map, turns 0 to {last}{}",
        pb.players(),
        t.rows,
        t.cols,
        pb.cutoff().map(|c| format!(" ({c})")).unwrap_or_default()
    )?;
    let finals = pb.final_scores();
    for (p, name) in pb.names().iter().enumerate() {
        let status = pb
            .status()
            .and_then(|s| s.get(p))
            .map(|s| format!(", {s}"))
            .unwrap_or_default();
        writeln!(
            out,
            "  {} {name}: final score {}{status}",
            paint(colour, Some(COLOURS[p % 10]), false, letter(p)),
            finals.get(p).copied().unwrap_or(0)
        )?;
    }
    if window.width < t.cols || window.height < t.rows {
        writeln!(
            out,
            "showing rows {}..{} and columns {}..{} of {}x{} (wrapping); choose with --window ROW,COL,H,W",
            window.row,
            (window.row + window.height - 1) % t.rows,
            window.col,
            (window.col + window.width - 1) % t.cols,
            t.rows,
            t.cols
        )?;
    }
    if let Some(p) = player {
        writeln!(
            out,
            "as player {} saw it: squares within viewradius2 {} of its ants; {}",
            letter(usize::from(p)),
            pb.viewradius2(),
            if colour {
                "dimmed: seen before, blank: never seen"
            } else {
                "? never seen, ~ water and , land seen before but out of view"
            }
        )?;
    }
    let stdin = std::io::stdin();
    let mut input = crate::input::lines(stdin.lock(), "stdin");
    for (f, view) in shown(&pb, player, args.turn) {
        writeln!(out)?;
        writeln!(out, "{}", summary(&pb, &f, colour))?;
        out.write_all(draw(&pb, &f, view.as_ref(), window, colour).as_bytes())?;
        if f.turn == last && pb.bonus().iter().any(|&b| b != 0) {
            let bonus: Vec<String> = pb
                .bonus()
                .iter()
                .enumerate()
                .map(|(p, b)| format!("{} {b:+}", letter(p)))
                .collect();
            writeln!(out, "lone survivor bonus: {}", bonus.join(", "))?;
        }
        if args.step && args.turn.is_none() && f.turn < last {
            out.flush()?;
            if input.next().is_none() {
                break;
            }
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// `turn 12/500 | a: score 1, 5 ants, hive 0 | ... | food 7`
/// The frames to show (every turn, or only `turn`), each with what `player` saw by then:
/// the view is carried from turn to turn, since a player remembers what it once saw.
fn shown<'a>(
    pb: &'a Playback,
    player: Option<u8>,
    turn: Option<u32>,
) -> impl Iterator<Item = (Frame, Option<PlayerView>)> + 'a {
    pb.frames()
        .take(turn.map_or(usize::MAX, |n| n as usize + 1))
        .scan(None::<PlayerView>, move |view, f| {
            if let Some(p) = player {
                *view = Some(PlayerView::new(pb, &f, p, view.as_ref()));
            }
            Some((f, view.clone()))
        })
        .filter(move |(f, _)| turn.is_none_or(|n| n == f.turn))
}

fn summary(pb: &Playback, f: &Frame, colour: bool) -> String {
    let counts = f.ant_counts(pb.players());
    let mut s = format!("turn {}/{}", f.turn, pb.last_turn());
    for p in 0..pb.players() {
        s.push_str(&format!(
            " | {}: score {}, {} ants, hive {}",
            paint(colour, Some(COLOURS[p % 10]), false, letter(p)),
            f.scores[p],
            counts[p],
            f.hive[p]
        ));
    }
    s.push_str(&format!(" | food {}", f.food.len()));
    s
}

/// One character, in a 256-colour foreground when `colour` (dimmed if asked).
fn paint(colour: bool, fg: Option<u8>, dim: bool, c: char) -> String {
    match (colour, fg) {
        (true, Some(code)) => {
            let style = Style::new().fg_color(colour256(code));
            let style = if dim { style.dimmed() } else { style.bold() };
            format!("{style}{c}{style:#}")
        }
        _ => c.to_string(),
    }
}

/// The board of one frame, inside `window`, optionally through one player's view. In
/// colour, an escape sequence is written only where the style changes.
fn draw(
    pb: &Playback,
    f: &Frame,
    view: Option<&PlayerView>,
    window: Window,
    colour: bool,
) -> String {
    let t = pb.torus();
    let squares = pb.squares(f);
    let mut s = String::new();
    for dr in 0..window.height {
        let r = (window.row + dr) % t.rows;
        let mut current: Option<Style> = None;
        for dc in 0..window.width {
            let c = (window.col + dc) % t.cols;
            let i = t.index((r, c));
            let sq = squares[i];
            let sight = view.map_or(Sight::Visible, |v| v.sight(i));
            let water = pb.is_water((r, c));
            let (style, ch): (Option<Style>, char) = match (sight, colour) {
                (Sight::Unknown, false) => (None, '?'),
                (Sight::Unknown, true) => (None, ' '),
                (Sight::Remembered, false) => (None, if water { '~' } else { ',' }),
                (Sight::Remembered, true) => (
                    Some(Style::new().dimmed().fg_color(colour256(240))),
                    if water { '%' } else { '.' },
                ),
                (Sight::Visible, false) => (None, sq.letter()),
                (Sight::Visible, true) => (Some(style_of(sq)), sq.letter()),
            };
            if style != current {
                if let Some(old) = current {
                    s.push_str(&format!("{old:#}"));
                }
                if let Some(st) = style {
                    s.push_str(&format!("{st}"));
                }
                current = style;
            }
            s.push(ch);
        }
        if let Some(old) = current {
            s.push_str(&format!("{old:#}"));
        }
        s.push('\n');
    }
    s
}

/// The SGR parameters of a visible square.
fn style_of(sq: Square) -> Style {
    let player = |o: u8| colour256(COLOURS[usize::from(o) % 10]);
    match sq {
        Square::Land => Style::new().fg_color(colour256(238)),
        Square::Water => Style::new().fg_color(colour256(27)).bg_color(colour256(17)),
        Square::Food => Style::new().bold().fg_color(colour256(230)),
        Square::Ant(o) => Style::new().bold().fg_color(player(o)),
        Square::Dead(o) => Style::new().dimmed().fg_color(player(o)),
        Square::Hill(o) | Square::AntOnHill(o) => Style::new()
            .bold()
            .fg_color(colour256(16))
            .bg_color(player(o)),
    }
}

fn colour256(code: u8) -> Option<anstyle::Color> {
    Some(anstyle::Ansi256Color(code).into())
}
