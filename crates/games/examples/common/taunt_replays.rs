//! The replay folders the Taunt replay readers (`taunt_standoff`, `taunt_swindle`,
//! `taunt_model`) take: the leading `--key value` options, the folders' `.json` files in
//! order, and each file's game. Included by `#[path]`, not an example.

use std::{fs, path::Path, path::PathBuf};

use ply_core::{Game, Seat};
use ply_games::taunt::{Move, Taunt};

/// One replayed game.
pub struct Replay {
    /// ply's seat: the one whose player spec names ply or a built-in player.
    pub ours: Seat,
    /// Every position from the start, the last one after the last move.
    pub line: Vec<Taunt>,
    /// The moves played, `played[i]` in `line[i]`.
    #[allow(dead_code)] // read by `taunt_swindle` only
    pub played: Vec<Move>,
}

/// The game in the replay file `path`, or an error naming the file and what is wrong.
pub fn game(path: &Path) -> Result<Replay, String> {
    let text = read(path)?;
    let specs = strings(&text, "spec");
    let start = strings(&text, "start");
    let (Some(spec), Some(start)) = (specs.first(), start.first()) else {
        return Err(format!(
            "{}: no \"spec\" or \"start\" field; give ply's Taunt replays (`ply match taunt --replays DIR`)",
            path.display()
        ));
    };
    let ours = if spec.contains("ply") || spec.contains("builtin") {
        Seat::FIRST
    } else {
        Seat::SECOND
    };
    let mut state: Taunt = start.parse().map_err(|_| {
        format!(
            "{}: the start {start:?} is not a Taunt position",
            path.display()
        )
    })?;
    let mut line = vec![state];
    let mut played = Vec::new();
    for m in strings(&text, "move") {
        let mv = state
            .parse_move(&m)
            .map_err(|_| format!("{}: the move {m:?} is not legal there", path.display()))?;
        state.play_unchecked(mv);
        played.push(mv);
        line.push(state);
    }
    Ok(Replay { ours, line, played })
}

/// Splits `args` into the leading `--key value` pairs and the folders after them.
pub fn split(args: &[String]) -> (&[String], &[String]) {
    let mut k = 0;
    while args.get(k).is_some_and(|a| a.starts_with("--")) {
        k += 2;
    }
    args.split_at(k.min(args.len()))
}

/// The `.json` files of the folders `dirs`, sorted; an error names the folder or entry.
pub fn files(dirs: &[String]) -> Result<Vec<PathBuf>, String> {
    if let Some(bad) = dirs.iter().find(|a| !Path::new(a).is_dir()) {
        return Err(format!("{bad:?} is not a folder of replays"));
    }
    let mut files = Vec::new();
    for dir in dirs {
        let entries = fs::read_dir(dir).map_err(|e| format!("{dir:?}: {e}"))?;
        for e in entries {
            let p = e
                .map_err(|_| format!("{dir:?}: an entry could not be read"))?
                .path();
            if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The text of a replay file, or an error naming it.
fn read(path: &Path) -> Result<String, String> {
    fs::read_to_string(path).map_err(|_| format!("{}: not readable as text", path.display()))
}

/// The values of `"key": "..."` in the order they appear (the replay's JSON is flat enough).
fn strings(text: &str, key: &str) -> Vec<String> {
    let pat = format!("\"{key}\": \"");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&pat) {
        rest = &rest[i + pat.len()..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push(rest[..end].to_string());
        rest = &rest[end..];
    }
    out
}
