//! Issue 13, item 10: shell completions and a man page generated from the clap definitions.

use std::process::Command;

fn ply(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "ply {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// What bash completes for the words `line`, the last one being completed.
fn bash_complete(script: &std::path::Path, line: &[&str]) -> String {
    let words = line
        .iter()
        .map(|w| format!("'{w}'"))
        .collect::<Vec<_>>()
        .join(" ");
    let program = format!(
        "source '{}'; COMP_WORDS=({words}); COMP_CWORD={}; COMP_LINE='{}'; COMP_POINT=${{#COMP_LINE}}; \
         _ply ply '{}' '{}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display(),
        line.len() - 1,
        line.join(" "),
        line[line.len() - 1],
        line[line.len() - 2],
    );
    let out = Command::new("bash")
        .arg("-c")
        .arg(program)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bash_completes_subcommands_and_flags() {
    if Command::new("bash").arg("--version").output().is_err() {
        eprintln!("skipped: no bash on this machine");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("ply.bash");
    std::fs::write(&script, ply(&["completions", "bash"])).unwrap();
    let sub = bash_complete(&script, &["ply", "sud"]);
    assert_eq!(sub.trim(), "sudoku");
    let nested = bash_complete(&script, &["ply", "hanoi", "so"]);
    assert_eq!(nested.trim(), "solve");
    let flags = bash_complete(&script, &["ply", "hanoi", "solve", "--dis"]);
    assert_eq!(flags.trim(), "--discs");
}

#[test]
fn zsh_and_fish_scripts_name_every_command() {
    let zsh = ply(&["completions", "zsh"]);
    let fish = ply(&["completions", "fish"]);
    for command in [
        "sudoku",
        "hanoi",
        "tournament",
        "completions",
        "man",
        "breaker",
    ] {
        assert!(zsh.contains(command), "zsh lacks {command}");
        assert!(fish.contains(command), "fish lacks {command}");
    }
}

#[test]
fn the_man_page_lists_every_command_and_one_page_per_command_is_written() {
    let page = ply(&["man"]);
    assert!(
        page.starts_with(".ie") || page.contains(".TH ply 1"),
        "{}",
        &page[..200]
    );
    let help = ply(&["--help"]);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| *l != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l.starts_with("   ")) // a wrapped description
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() > 10);
    for c in &commands {
        assert!(
            page.contains(&format!("ply\\-{c}")) || page.contains(c),
            "man page lacks {c}"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    ply(&["man", "--out-dir", dir.path().to_str().unwrap()]);
    for c in &commands {
        assert!(
            dir.path().join(format!("ply-{c}.1")).is_file(),
            "no page for {c}"
        );
    }
    assert!(dir.path().join("ply-sudoku-solve.1").is_file());
    // The page renders where man is installed.
    if Command::new("man").arg("--version").output().is_ok() {
        let out = Command::new("man")
            .args(["-l", dir.path().join("ply-hanoi-solve.1").to_str().unwrap()])
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("--discs"));
    } else {
        eprintln!("man not installed: the rendering check is skipped");
    }
}
