//! Issue 13, items 11 and 12: one `--color` flag that honours NO_COLOR, bot text that can
//! never send escape sequences to the terminal, and global `-q`/`-v`.

use std::path::Path;
use std::process::{Command, Output, Stdio};

mod common;

fn ply(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// An Ants replay in `dir`, `game.replay`.
fn ants_replay(dir: &Path) {
    assert!(
        ply(
            &[
                "ants",
                "mapgen",
                "--players",
                "2",
                "--rows",
                "24",
                "--cols",
                "24",
                "-o",
                "m.map"
            ],
            dir
        )
        .status
        .success()
    );
    let out = ply(
        &[
            "ants",
            "play",
            "--map",
            "m.map",
            "--turns",
            "20",
            "--engine-seed",
            "1",
            "--player-seed",
            "1",
            "--replay",
            "game.replay",
            "builtin:hunter",
            "builtin:random",
        ],
        dir,
    );
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn color_always_and_never_decide_and_always_beats_no_color() {
    let dir = tempfile::tempdir().unwrap();
    ants_replay(dir.path());
    let always = ply(
        &["replay", "game.replay", "--turn", "5", "--color", "always"],
        dir.path(),
    );
    assert!(
        text(&always.stdout).contains('\u{1b}'),
        "no colour with --color always"
    );
    let never = ply(
        &["replay", "game.replay", "--turn", "5", "--color", "never"],
        dir.path(),
    );
    assert!(!text(&never.stdout).contains('\u{1b}'));
    // Not a terminal: auto means no colour.
    let auto = ply(&["replay", "game.replay", "--turn", "5"], dir.path());
    assert!(!text(&auto.stdout).contains('\u{1b}'));
    // The flag is global: it may stand before the command.
    let global = ply(
        &["--color", "always", "replay", "game.replay", "--turn", "5"],
        dir.path(),
    );
    assert_eq!(global.stdout, always.stdout);
}

/// Runs `command` in a tmux pane (a real terminal) and returns the screen with its escape
/// sequences, or None when tmux is missing.
fn in_terminal(dir: &Path, env: &str, command: &str) -> Option<String> {
    if Command::new("tmux").arg("-V").output().is_err() {
        return None;
    }
    // A tmux server of its own per call (`-L`): the server of the last call may still be on
    // its way out after its only session was killed.
    static CALLS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let session = format!("ply-colour-{}-{n}", std::process::id());
    let tmux = || {
        let mut cmd = Command::new("tmux");
        cmd.args(["-L", &session]);
        cmd
    };
    let bin = env!("CARGO_BIN_EXE_ply");
    let script = format!(
        "cd '{}' && {env} '{bin}' {command}; sleep 30",
        dir.display()
    );
    let status = tmux()
        .args([
            "new-session",
            "-d",
            "-s",
            &session,
            "-x",
            "120",
            "-y",
            "40",
            &script,
        ])
        .status()
        .unwrap();
    assert!(status.success());
    let mut screen = String::new();
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(50));
        let out = tmux()
            .args(["capture-pane", "-p", "-e", "-t", &session])
            .output()
            .unwrap();
        screen = text(&out.stdout);
        if screen.contains("turn 5") {
            break;
        }
    }
    let _ = tmux().arg("kill-server").status();
    Some(screen)
}

#[test]
fn in_a_terminal_auto_colours_unless_no_color_is_set() {
    let dir = tempfile::tempdir().unwrap();
    ants_replay(dir.path());
    let Some(coloured) = in_terminal(dir.path(), "env -u NO_COLOR", "replay game.replay --turn 5")
    else {
        eprintln!("skipped: tmux is not installed (scripts/install-test-deps installs it)");
        return;
    };
    assert!(
        coloured.contains("\u{1b}["),
        "auto in a terminal should colour: {coloured}"
    );
    let plain = in_terminal(dir.path(), "env NO_COLOR=1", "replay game.replay --turn 5").unwrap();
    assert!(plain.contains("turn 5"), "{plain}");
    assert!(
        !plain.contains("\u{1b}[38") && !plain.contains("\u{1b}[1;38"),
        "NO_COLOR ignored: {plain:?}"
    );
}

#[test]
fn a_bot_cannot_send_escape_sequences_to_the_person_watching() {
    let dir = tempfile::tempdir().unwrap();
    // Clears the screen from stderr and answers with an escape sequence.
    let bot = dir.path().join("evil.sh");
    common::write_script(
        &bot,
        "#!/bin/sh\nprintf '\\033[2J\\033]0;owned\\007' >&2\nprintf '\\033[31m0 0\\n'\n",
    );
    let out = ply(
        &[
            "match",
            "tictactoe",
            "--p1",
            bot.to_str().unwrap(),
            "--p2",
            "builtin:random",
            "--replays",
            "r",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{out:?}");
    assert!(
        !out.stdout.contains(&0x1b),
        "match output: {}",
        text(&out.stdout)
    );
    let shown = ply(&["replay", "r/game-0001.json"], dir.path());
    assert!(shown.status.success(), "{shown:?}");
    let screen = text(&shown.stdout);
    assert!(
        !screen.contains('\u{1b}') && !screen.contains('\u{7}'),
        "{screen:?}"
    );
    assert!(
        screen.contains("\\u{1b}[2J"),
        "the bot's stderr is shown escaped: {screen}"
    );
}

#[test]
fn quiet_hides_summaries_and_verbose_shows_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let normal = ply(&["hanoi", "solve", "--discs", "3", "--count"], dir.path());
    assert!(
        text(&normal.stderr).contains("optimality proven"),
        "{normal:?}"
    );
    let quiet = ply(
        &["-q", "hanoi", "solve", "--discs", "3", "--count"],
        dir.path(),
    );
    assert_eq!(text(&quiet.stdout), "7\n");
    assert_eq!(text(&quiet.stderr), "");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["-v", "bot", "tictactoe", "--time-ms", "100"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 1 0\n2 2 0\n0 0 0\n1\n")
        .unwrap();
    let verbose = child.wait_with_output().unwrap();
    assert_eq!(text(&verbose.stdout), "0 2\n");
    assert!(
        text(&verbose.stderr).starts_with("debug: depth"),
        "{verbose:?}"
    );
}
