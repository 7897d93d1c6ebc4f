//! Issue 18, item 2 (a first part of the jail): a bot sees a clean environment (PATH, LANG,
//! HOME in a fresh folder of its own, and the user's --bot-env), no descriptor of its
//! referee's besides 0, 1 and 2, and its folder is gone after the game.

use std::path::Path;
use std::process::{Command, Stdio};

mod common;

/// A tic-tac-toe bot that records what it sees in `report.*` files and plays the first
/// empty cell.
fn spy(dir: &Path) -> String {
    let r = dir.join("report").display().to_string();
    let bot = dir.join("spy.sh");
    let script = [
        "#!/bin/sh".to_string(),
        // `ls` lists its own descriptors: 0, 1, 2, 3 (the folder it reads) and any the bot
        // inherited (the shell's own, 10 and up, are close-on-exec).
        format!("ls /proc/self/fd > '{r}.fds'"),
        format!("env > '{r}.env'"),
        format!("echo \"$HOME\" > '{r}.home'"),
        format!("touch \"$HOME/mine\" && echo yes > '{r}.writable'"),
        "awk 'NR<=3 { for (i=1;i<=NF;i++) if ($i==\"0\" && !done) { print NR-1, i-1; done=1 } }'"
            .to_string(),
    ];
    common::write_script(&bot, &(script.join("\n") + "\n"));
    bot.to_str().unwrap().to_owned()
}

#[test]
fn a_bot_sees_only_the_contest_s_environment_and_no_inherited_descriptor() {
    let dir = tempfile::tempdir().unwrap();
    let bot = spy(dir.path());
    // A secret in ply's environment, and a descriptor its parent leaves open (fd 7).
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "exec 7</etc/hostname; exec '{}' match tictactoe --no-jail --p1 '{bot}' --p2 builtin:random \
             --bot-env TEAM=blue",
            env!("CARGO_BIN_EXE_ply")
        ))
        .env("PLY_SECRET_TOKEN", "hunter2")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let read =
        |ext: &str| std::fs::read_to_string(dir.path().join(format!("report.{ext}"))).unwrap();
    let env = read("env");
    // `sh` adds PWD (and may add SHLVL, _, OLDPWD) itself; nothing else comes from ply.
    for line in env.lines() {
        let name = line.split('=').next().unwrap();
        assert!(
            [
                "HOME", "LANG", "PATH", "TEAM", "PWD", "SHLVL", "_", "OLDPWD"
            ]
            .contains(&name),
            "a bot saw {name}: {env}"
        );
    }
    assert!(env.lines().any(|l| l == "TEAM=blue"), "{env}");
    assert!(!env.contains("hunter2"), "{env}");
    // Nothing inherited: fd 7 was open in ply.
    let fds = read("fds");
    assert_eq!(
        fds.lines().collect::<Vec<_>>(),
        ["0", "1", "2", "3"],
        "inherited descriptors"
    );
    // HOME is a folder of its own, writable, and removed after the game.
    let home = read("home");
    let home = home.trim();
    assert!(home.contains("ply-bots-"), "{home}");
    assert_eq!(read("writable"), "yes\n");
    assert!(
        !Path::new(home).exists(),
        "the bot's HOME outlived its game: {home}"
    );
}

#[test]
fn a_malformed_bot_env_is_bad_input() {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "match",
            "tictactoe",
            "--p1",
            "builtin:random",
            "--p2",
            "builtin:random",
        ])
        .args(["--bot-env", "NOEQUALS"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give KEY=VALUE"));
}

/// Issue 18, item 5: a link planted where the referee writes a replay or a log cannot
/// redirect the write; an existing file is refused unless --force, which replaces the
/// entry itself.
#[test]
fn a_planted_link_in_the_replay_or_log_folder_redirects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("arena.sqlite3");
    std::fs::write(&victim, "precious").unwrap();
    let replays = dir.path().join("replays");
    std::fs::create_dir(&replays).unwrap();
    std::os::unix::fs::symlink(&victim, replays.join("game-0001.json")).unwrap();
    let play = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_ply"))
            .args([
                "match",
                "tictactoe",
                "--p1",
                "builtin:random",
                "--p2",
                "builtin:random",
            ])
            .arg("--replays")
            .arg(&replays)
            .args(extra)
            .output()
            .unwrap()
    };
    let out = play(&[]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("--force"),
        "{out:?}"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    // --force replaces the link itself, never what it points to.
    let out = play(&["--force"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let replay = replays.join("game-0001.json");
    assert!(!replay.symlink_metadata().unwrap().file_type().is_symlink());
    assert!(
        std::fs::read_to_string(&replay)
            .unwrap()
            .contains("\"moves\"")
    );

    // The same for Ants logs.
    let map = dir.path().join("m.map");
    std::fs::write(&map, "rows 1\ncols 4\nplayers 2\nm A.B.\n").unwrap();
    let logs = dir.path().join("logs");
    std::fs::create_dir(&logs).unwrap();
    std::os::unix::fs::symlink(&victim, logs.join("bot0.input")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["ants", "play", "--map"])
        .arg(&map)
        .args([
            "--turns",
            "3",
            "--engine-seed",
            "1",
            "--player-seed",
            "1",
            "--log-dir",
        ])
        .arg(&logs)
        .args(["builtin:hold", "builtin:hold"])
        .output()
        .unwrap();
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
}
