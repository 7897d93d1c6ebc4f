//! `ply breaker`: the terminal game driven in tmux (start, move, pause, quit, Ctrl-C, a
//! panic, game over and the high-score file), and the autoplay/replay/check commands.

mod common;

use std::path::Path;
use std::process::Command;
use std::thread::sleep;
use std::time::{Duration, Instant};

use common::{ply, text};

const PLY: &str = env!("CARGO_BIN_EXE_ply");

/// A tmux session running one shell command in a 100x30 window, killed when dropped. Each
/// runs on a tmux server of its own (`-L`): with one shared server, a session started just
/// as another test killed the last one could meet the server on its way out.
struct Tmux {
    name: String,
}

impl Tmux {
    /// A tmux command for this session's own server.
    fn tmux(name: &str) -> Command {
        let mut cmd = Command::new("tmux");
        cmd.args(["-L", name]);
        cmd
    }

    fn start(tag: &str, command: &str, data: &Path) -> Tmux {
        assert!(
            Command::new("tmux")
                .arg("-V")
                .output()
                .is_ok_and(|o| o.status.success()),
            "tmux is missing: run scripts/install-test-deps"
        );
        let name = format!("ply-breaker-{tag}-{}", std::process::id());
        let status = Tmux::tmux(&name)
            .args(["new-session", "-d", "-s", &name, "-x", "100", "-y", "30"])
            .arg(format!(
                "env RUST_BACKTRACE=0 XDG_DATA_HOME={} HOME={} LANG=C.UTF-8 {command}; echo \"EXIT $?\"; stty -a; sleep 60",
                data.display(),
                data.display()
            ))
            .status()
            .unwrap();
        assert!(status.success());
        Tmux { name }
    }

    fn keys(&self, keys: &[&str]) {
        for k in keys {
            let ok = Tmux::tmux(&self.name)
                .args(["send-keys", "-t", &self.name, k])
                .status()
                .unwrap();
            assert!(ok.success());
            sleep(Duration::from_millis(30));
        }
    }

    fn screen(&self) -> String {
        let out = Tmux::tmux(&self.name)
            .args(["capture-pane", "-p", "-t", &self.name])
            .output()
            .unwrap();
        text(&out.stdout)
    }

    /// The screen with up to 500 lines that scrolled off it.
    fn history(&self) -> String {
        let out = Tmux::tmux(&self.name)
            .args(["capture-pane", "-p", "-S", "-500", "-t", &self.name])
            .output()
            .unwrap();
        text(&out.stdout)
    }

    fn alternate_screen(&self) -> bool {
        let out = Tmux::tmux(&self.name)
            .args(["display-message", "-p", "-t", &self.name, "#{alternate_on}"])
            .output()
            .unwrap();
        text(&out.stdout).trim() == "1"
    }

    /// Waits (up to 20 s) until the screen satisfies `want`.
    fn wait(&self, what: &str, want: impl Fn(&str) -> bool) -> String {
        let until = Instant::now() + Duration::from_secs(20);
        loop {
            let s = self.screen();
            if want(&s) {
                return s;
            }
            assert!(
                Instant::now() < until,
                "waited for {what}; the screen:\n{s}"
            );
            sleep(Duration::from_millis(50));
        }
    }

    /// After the game exits: its status, and the terminal is back in cooked mode with echo
    /// on the normal screen.
    fn assert_exited_cleanly(&self, code: &str) {
        let s = self.wait("the game to exit", |s| {
            s.contains("EXIT ") && s.contains("icanon")
        });
        assert!(s.contains(&format!("EXIT {code}")), "{s}");
        assert!(
            !self.alternate_screen(),
            "still on the alternate screen:\n{s}"
        );
        let words: Vec<&str> = s.split_whitespace().collect();
        for mode in ["icanon", "echo", "isig", "icrnl", "opost"] {
            assert!(words.contains(&mode), "terminal left without {mode}:\n{s}");
        }
        assert!(
            !s.contains("BLOCK BREAKER"),
            "the game's screen is still shown:\n{s}"
        );
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Tmux::tmux(&self.name).arg("kill-server").status();
    }
}

/// The paddle's column on the screen.
fn paddle(s: &str) -> usize {
    s.lines()
        .find_map(|l| l.find("=======").map(|b| l[..b].chars().count()))
        .unwrap_or_else(|| panic!("no paddle on the screen:\n{s}"))
}

#[test]
fn the_game_starts_moves_pauses_and_quits_leaving_the_terminal_usable() {
    let data = tempfile::tempdir().unwrap();
    let trace = data.path().join("game.json");
    let t = Tmux::start(
        "keys",
        &format!("{PLY} breaker play --seed 3 --trace {}", trace.display()),
        data.path(),
    );
    let s = t.wait("the game", |s| {
        s.contains("BLOCK BREAKER") && s.contains("First Light")
    });
    assert!(t.alternate_screen());
    let start = paddle(&s);
    t.keys(&["Right", "Right", "Right", "Right"]);
    t.wait("the paddle to move right", |s| paddle(s) > start);
    let right = paddle(&t.screen());
    t.keys(&["a", "a", "a", "a", "a", "a", "a", "a"]);
    t.wait("the paddle to move left with a", |s| paddle(s) < right);
    t.keys(&["Space"]);
    sleep(Duration::from_millis(300));
    t.keys(&["p"]);
    let paused = t.wait("the pause screen", |s| s.contains("PAUSED"));
    sleep(Duration::from_millis(400));
    assert_eq!(t.screen(), paused, "nothing moves while paused");
    t.keys(&["p"]);
    t.wait("play to go on", |s| !s.contains("PAUSED"));
    t.keys(&["q"]);
    t.assert_exited_cleanly("0");
    assert!(
        t.screen().contains("score "),
        "the summary is printed after the game"
    );
    // The game played by keys replays exactly.
    let out = ply(&["breaker", "replay", trace.to_str().unwrap()], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("state digests match"));
}

#[test]
fn autoplay_watch_shows_the_autopilot_and_stops_on_q() {
    let data = tempfile::tempdir().unwrap();
    let t = Tmux::start(
        "watch",
        &format!("{PLY} breaker autoplay --level 2 --watch --speed 10"),
        data.path(),
    );
    let s = t.wait("the autopilot", |s| {
        s.contains("AUTOPILOT x10") && s.contains("Pyramid")
    });
    let left = |s: &str| {
        s.lines()
            .find_map(|l| l.split("Bricks left ").nth(1))
            .map(|n| n.trim().parse::<usize>().unwrap())
            .unwrap()
    };
    let before = left(&s);
    t.wait("bricks to break", |s| left(s) < before);
    t.keys(&["q"]);
    t.assert_exited_cleanly("0");
    assert!(t.screen().contains("stopped by the viewer"));
}

#[test]
fn a_small_terminal_is_told_and_pauses_the_game() {
    let data = tempfile::tempdir().unwrap();
    let t = Tmux::start(
        "small",
        &format!("{PLY} breaker play --seed 9"),
        data.path(),
    );
    t.wait("the game", |s| s.contains("BLOCK BREAKER"));
    let resize = |w: &str, h: &str| {
        let ok = Tmux::tmux(&t.name)
            .args(["resize-window", "-t", &t.name, "-x", w, "-y", h])
            .status()
            .unwrap();
        assert!(ok.success());
    };
    resize("60", "20");
    t.wait("the size message", |s| {
        s.contains("terminal too small: need 78x24, have 60x20")
    });
    resize("100", "30");
    t.wait("the pause screen", |s| s.contains("PAUSED"));
    t.keys(&["p"]);
    t.wait("play to go on", |s| {
        !s.contains("PAUSED") && s.contains("BLOCK BREAKER")
    });
    t.keys(&["q"]);
    t.assert_exited_cleanly("0");
}

#[test]
fn ctrl_c_quits_cleanly() {
    let data = tempfile::tempdir().unwrap();
    let t = Tmux::start(
        "ctrlc",
        &format!("{PLY} breaker play --seed 4"),
        data.path(),
    );
    t.wait("the game", |s| s.contains("BLOCK BREAKER"));
    t.keys(&["C-c"]);
    t.assert_exited_cleanly("0");
}

#[test]
fn a_panic_restores_the_terminal() {
    let data = tempfile::tempdir().unwrap();
    let t = Tmux::start(
        "panic",
        &format!("{PLY} breaker play --seed 5 --panic-after 90"),
        data.path(),
    );
    t.assert_exited_cleanly("101");
    let h = t.history();
    assert!(h.contains("the panic the tests asked for"), "{h}");
}

#[test]
fn game_over_leads_to_the_high_score_table_saved_in_the_data_directory() {
    let data = tempfile::tempdir().unwrap();
    // A fast ball and bricks low over the paddle: a still paddle far left loses quickly.
    let level = data.path().join("quick.txt");
    std::fs::write(
        &level,
        "name: Quick\nspeed: 200\nbricks:\n3333333333333\n3333333333333\n",
    )
    .unwrap();
    let t = Tmux::start(
        "over",
        &format!(
            "{PLY} breaker play --seed 6 --name tester --level-file {}",
            level.display()
        ),
        data.path(),
    );
    t.wait("the game", |s| s.contains("Quick"));
    let until = Instant::now() + Duration::from_secs(120);
    while !t.screen().contains("GAME OVER") {
        assert!(Instant::now() < until, "no game over:\n{}", t.screen());
        // Launch from the left edge and leave the paddle there.
        t.keys(&["Left", "Left", "Left", "Left", "Space"]);
        sleep(Duration::from_millis(300));
    }
    t.keys(&["Space"]);
    let s = t.wait("the high scores", |s| s.contains("HIGH SCORES"));
    assert!(s.contains("tester"), "{s}");
    t.keys(&["q"]);
    t.assert_exited_cleanly("0");
    let saved = std::fs::read_to_string(data.path().join("ply/breaker-scores.json")).unwrap();
    assert!(saved.contains("\"name\": \"tester\""), "{saved}");
}

#[test]
fn a_damaged_high_score_file_is_kept_aside_not_overwritten() {
    let data = tempfile::tempdir().unwrap();
    let dir = data.path().join("ply");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("breaker-scores.json"), "not json").unwrap();
    let t = Tmux::start(
        "damaged",
        &format!("{PLY} breaker play --seed 8"),
        data.path(),
    );
    t.wait("the game", |s| s.contains("BLOCK BREAKER"));
    t.keys(&["q"]);
    t.assert_exited_cleanly("0");
    assert!(t.screen().contains("could not be read"), "{}", t.screen());
    let kept = std::fs::read_to_string(dir.join("breaker-scores.json.damaged")).unwrap();
    assert_eq!(kept, "not json");
}

#[test]
fn autoplay_json_clears_every_level() {
    let out = ply(&["breaker", "autoplay", "--json", "--seed", "2"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for (i, l) in lines.iter().enumerate() {
        assert_eq!(l["level"], i + 1);
        assert_eq!(l["cleared"], true);
        assert!(l["steps"].as_u64().unwrap() > 1000);
        assert!(l["lives_left"].as_u64().unwrap() >= 1);
    }
    let scores: Vec<u64> = lines.iter().map(|l| l["score"].as_u64().unwrap()).collect();
    assert!(
        scores.windows(2).all(|w| w[0] < w[1]),
        "the score carries over: {scores:?}"
    );
}

#[test]
fn an_autoplay_trace_replays_and_a_tampered_one_does_not() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("run.json");
    let trace_s = trace.to_str().unwrap();
    let out = ply(
        &[
            "breaker", "autoplay", "--level", "2", "--seed", "9", "--trace", trace_s,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = ply(&["breaker", "replay", trace_s], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("state digests match"),
        "{}",
        text(&out.stdout)
    );
    // One more step of "stay" at the start shifts everything after it.
    let json = std::fs::read_to_string(&trace).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let actions = v["episodes"][0]["actions"].as_str().unwrap().to_string();
    v["episodes"][0]["actions"] = format!("1s{actions}").into();
    std::fs::write(&trace, v.to_string()).unwrap();
    let out = ply(&["breaker", "replay", trace_s], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("after step 30 the state's digest is"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_input_is_reported_with_exit_code_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "name: Bad\nbricks:\n111\n").unwrap();
    let out = ply(&["breaker", "check", bad.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bad.txt:3:4: a row has 3 cells; it needs exactly 13"),
        "{}",
        text(&out.stderr)
    );
    let out = ply(&["breaker", "autoplay", "--level", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ply(&["breaker", "autoplay", "--max-steps", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let junk = dir.path().join("junk.json");
    std::fs::write(&junk, "{}").unwrap();
    let out = ply(&["breaker", "replay", junk.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a Block Breaker trace"),
        "{}",
        text(&out.stderr)
    );
    let levels = format!("{}/../breaker/levels", env!("CARGO_MANIFEST_DIR"));
    let out = ply(
        &["breaker", "check", &format!("{levels}/04_fortress.txt")],
        "",
    );
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("\"Fortress\", 8 rows, 49 bricks to break"),
        "{}",
        text(&out.stdout)
    );
}
