//! Issue 13, item 6: every example in `--help` (of every command, recursively) and in the
//! README's code blocks runs as written, so that they cannot drift again.
//!
//! An example is a help line indented by two spaces that starts with `ply ` or pipes into
//! `ply`, continued by a trailing `\`. A comment after two spaces and `#` may say what it
//! prints: `# last line: X` (the last line of stdout is X), `# prints: X` (some line is X),
//! `# ... exit N` (the exit code is N; otherwise 0). The examples run in order in one
//! folder with the files they name, through `sh`, with this build's `ply` first on PATH and
//! HOME in the folder. The few that are interactive or take minutes are listed in `SKIP`
//! with the reason, and printed.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Examples not run, by a piece of their text, and why.
const SKIP: &[(&str, &str)] = &[
    (
        "db.example",
        "needs a PostgreSQL server (run against one by issue19_workers.rs)",
    ),
    ("--step", "waits for Enter between moves"),
    ("--watch", "draws in a terminal until q"),
    (
        "breaker play",
        "needs a terminal (tested in tmux by breaker.rs)",
    ),
    ("--objective moves", "about a minute in a release build"),
    (
        "peg count --board english",
        "release build only (tens of seconds)",
    ),
    ("peg bench", "times release builds"),
    (
        "ply serve",
        "a server that runs until stopped (driven in a browser by crates/web/e2e)",
    ),
    ("--size 25", "seconds to minutes"),
    (
        "--book-file old.book",
        "needs a book of format 1 (converting one is tested in book.rs)",
    ),
    (
        "--out othello-book.bin",
        "the committed opening book: tens of minutes of deep searches",
    ),
    ("--discs 15", "Korf's search: 10 s in release, minutes here"),
    ("--sizes 10,100,1000,10000,100000", "a benchmark"),
    (
        "--turns 500",
        "500 turns of four hunters: a benchmark in a debug build",
    ),
];

const PUZZLES: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\n\
    ..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..\n";
const TAUNT: &str = "000 000 000 000\n000 000 000 111\n000 000 111 130\n000 000 000 000\n000 000 000 000\n000 220 000 000\n131 000 000 000\n121 000 210 000\n000 210 131 000\n000 210 000 000\n58\n1\n";
/// A tic-tac-toe bot: the first empty cell.
const TTT_BOT: &str = "import sys\nrows = sys.stdin.read().split('\\n')[:3]\nfor r, row in enumerate(rows):\n    for c, v in enumerate(row.split()):\n        if v == '0':\n            print(r, c)\n            sys.exit(0)\n";
/// An Ants bot that never moves.
const ANTS_BOT: &str = "import sys\nfor line in sys.stdin:\n    line = line.strip()\n    if line in ('ready', 'go'):\n        print('go', flush=True)\n    elif line == 'end':\n        break\n";
const WEIGHTED: &str = "-1 -1 1 1 1 -1 -1\n-1 -1 1 1 1 -1 -1\n1 1 1 1 1 1 1\n1 1 1 0 1 1 1\n1 1 1 1 1 1 1\n-1 -1 1 1 1 -1 -1\n-1 -1 1 1 1 -1 -1\n";

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

/// The help text of `ply ARGS --help`.
fn help(args: &[String]) -> String {
    let out = ply().args(args).arg("--help").output().unwrap();
    assert!(out.status.success(), "ply {args:?} --help: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The subcommands a help text lists.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// Every command path, depth first: `[]`, `["games"]`, `["sudoku"]`, `["sudoku", "solve"]`...
fn command_paths(prefix: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let text = help(&prefix);
    let subs = subcommands(&text);
    out.push((prefix.clone(), text));
    for s in subs {
        let mut p = prefix.clone();
        p.push(s);
        command_paths(p, out);
    }
}

/// The examples of a text: (command, comment).
fn examples(text: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(body) = line.strip_prefix("  ") else {
            continue;
        };
        let first = body.trim_start();
        let piped = ["printf ", "echo ", "cat "]
            .iter()
            .any(|p| first.starts_with(p));
        if !(first.starts_with("ply ") || first == "ply" || (piped && first.contains("| ply "))) {
            continue;
        }
        let mut full = body.trim().to_string();
        while full.ends_with('\\') {
            full.pop();
            full.push(' ');
            full.push_str(lines.next().unwrap_or("").trim());
        }
        let (command, comment) = match full.find("  #") {
            Some(i) => (
                full[..i].trim().to_string(),
                full[i + 3..].trim().to_string(),
            ),
            None => (full.trim().to_string(), String::new()),
        };
        found.push((command, comment));
    }
    found
}

/// The README's runnable commands: the lines of ```sh blocks, and `$ ` lines of ```text
/// blocks with the output that follows them as the expected whole output.
fn readme_examples(readme: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    let mut block = None;
    let mut lines = readme.lines().peekable();
    while let Some(line) = lines.next() {
        if let Some(kind) = line.strip_prefix("```") {
            block = if block.is_some() {
                None
            } else {
                Some(kind.to_string())
            };
            continue;
        }
        match block.as_deref() {
            Some("sh") if !line.trim().is_empty() => {
                let command = line.replace("cargo run --release -p ply-cli --", "ply");
                if command.starts_with("ply ") {
                    found.push((command, String::new()));
                }
            }
            Some("text") => {
                if let Some(command) = line.strip_prefix("$ ") {
                    let mut output = Vec::new();
                    while let Some(next) = lines.peek() {
                        if next.starts_with("$ ") || next.starts_with("```") {
                            break;
                        }
                        output.push(lines.next().unwrap().to_string());
                    }
                    found.push((
                        command.to_string(),
                        format!("output: {}", output.join("\n")),
                    ));
                }
            }
            _ => {}
        }
    }
    found
}

fn fixtures(dir: &Path) {
    let write = |name: &str, text: &str| std::fs::write(dir.join(name), text).unwrap();
    write("puzzles.txt", PUZZLES);
    write("state.txt", TAUNT);
    write("mybot.py", TTT_BOT);
    write("bot.py", TTT_BOT);
    write("MyBot.py", ANTS_BOT);
    write("weighted.txt", WEIGHTED);
    write("answer.txt", "2 4 4 4\n");
    write("block.txt", "[1 0 0 -1;-1 1 1 1;-1 1 1 1]\n");
    write("goal.txt", "[1 0 0 -1;-1 0 0 0;-1 0 0 0]\n");
    let level = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../breaker/levels/01_first_light.txt"
    );
    std::fs::copy(level, dir.join("my_level.txt")).unwrap();
    // An Ants replay for `ply replay game.replay ...`, which comes before `ply ants`.
    let out = ply()
        .current_dir(dir)
        .args([
            "ants",
            "mapgen",
            "--players",
            "2",
            "--rows",
            "24",
            "--cols",
            "24",
            "-o",
            "r.map",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let out = ply()
        .current_dir(dir)
        .args([
            "ants",
            "play",
            "--map",
            "r.map",
            "--turns",
            "150",
            "--engine-seed",
            "1",
        ])
        .args([
            "--player-seed",
            "1",
            "--replay",
            "game.replay",
            "builtin:hunter",
            "builtin:random",
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
}

/// Runs `command` in `dir` through sh; returns what went wrong, if anything.
fn check(dir: &Path, command: &str, comment: &str) -> Option<String> {
    let bin = Path::new(env!("CARGO_BIN_EXE_ply")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir.join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            return Some("still running after 120 s".into());
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let expected_code = comment
        .split("exit ")
        .nth(1)
        .and_then(|t| t.trim_end_matches(')').trim().parse::<i32>().ok())
        .unwrap_or(0);
    if out.status.code() != Some(expected_code) {
        return Some(format!(
            "exit {:?}, expected {expected_code}; stderr: {}",
            out.status.code(),
            stderr.lines().take(4).collect::<Vec<_>>().join(" | ")
        ));
    }
    if let Some(want) = comment.strip_prefix("last line: ") {
        let last = stdout.lines().last().unwrap_or("");
        if last != want {
            return Some(format!("last line {last:?}, expected {want:?}"));
        }
    }
    if let Some(want) = comment.strip_prefix("prints: ")
        && !stdout.lines().any(|l| l == want)
    {
        return Some(format!("no line {want:?} in {stdout:?}"));
    }
    if let Some(want) = comment.strip_prefix("output: ")
        && stdout.trim_end() != want.trim_end()
    {
        return Some(format!("output {stdout:?}, expected {want:?}"));
    }
    None
}

#[test]
fn every_example_in_help_and_the_readme_runs_as_written() {
    let dir = tempfile::tempdir().unwrap();
    fixtures(dir.path());
    let mut paths = Vec::new();
    command_paths(Vec::new(), &mut paths);
    let mut all: Vec<(String, String, String)> = Vec::new();
    for (path, text) in &paths {
        let place = format!("ply {} --help", path.join(" "));
        // A wrapped example breaks copy and paste: every example line must fit.
        for line in text.lines() {
            if line.starts_with("  ply ") || line.starts_with("  printf ") {
                assert!(
                    line.len() <= 100,
                    "{place}: an example line too long to stay unwrapped: {line}"
                );
            }
        }
        for (command, comment) in examples(text) {
            all.push((place.clone(), command, comment));
        }
    }
    assert!(
        paths
            .iter()
            .all(|(p, text)| p.is_empty() || !examples(text).is_empty()),
        "commands without an example: {:?}",
        paths
            .iter()
            .filter(|(p, t)| !p.is_empty() && examples(t).is_empty())
            .map(|(p, _)| p.join(" "))
            .collect::<Vec<_>>()
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    for (command, comment) in readme_examples(&readme) {
        all.push(("README.md".into(), command, comment));
    }
    assert!(all.len() > 60, "only {} examples found", all.len());
    let mut failures = Vec::new();
    for (place, command, comment) in &all {
        if let Some((_, why)) = SKIP
            .iter()
            .find(|(key, _)| command.contains(key) || comment.contains(key))
        {
            eprintln!("skipped ({why}): {command}");
            continue;
        }
        if let Some(problem) = check(dir.path(), command, comment) {
            failures.push(format!("{place}: `{command}`: {problem}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
