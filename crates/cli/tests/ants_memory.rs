//! Issue 15: the referee's memory stays bounded whatever a bot writes. A bot that answers
//! every turn of a 1000-turn game with about 600 KB of junk order lines (under the 1 MiB
//! per-turn output limit, so it is never cut off) must leave `ply ants play` under 100 MB
//! of resident memory, measured from `/proc/PID/status` while the game runs. Before the fix
//! every order line of every turn was kept (600 MB here). Skips without python3 or /proc.

use std::fs;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const FLOODER: &str = r#"
import sys
junk = ("o 1 1 " + "x" * 994 + "\n") * 600
out = sys.stdout
while True:
    line = sys.stdin.readline()
    if not line:
        break
    if line.startswith("ready") or line.startswith("go"):
        out.write(junk)
        out.write("go\n")
        out.flush()
"#;

const MAP: &str = "rows 8\ncols 16\nplayers 2\n\
m ................\n\
m ..0.............\n\
m ................\n\
m ................\n\
m ................\n\
m ................\n\
m ..........1.....\n\
m ................\n";

fn rss_kb(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Plays the flooding bot against `builtin:hold` for 1000 turns; the peak resident memory
/// of ply in kB, or `None` when the test cannot run here.
fn flood(log_dir: bool) -> Option<u64> {
    if !std::path::Path::new("/proc/self/status").exists() {
        eprintln!("skipping: no /proc to measure memory");
        return None;
    }
    if Command::new("python3").arg("-c").arg("1").output().is_err() {
        eprintln!("skipping: no python3 for the flooding bot");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("flood.map");
    fs::write(&map, MAP).unwrap();
    let bot = dir.path().join("flood.py");
    fs::write(&bot, FLOODER).unwrap();
    let mut ply = Command::new(env!("CARGO_BIN_EXE_ply"));
    ply.args(["ants", "play"]);
    if log_dir {
        ply.arg("--log-dir").arg(dir.path().join("logs"));
    }
    let mut child = ply
        .arg("--map")
        .arg(&map)
        .arg(format!("python3 -S {}", bot.display()))
        .arg("builtin:hold")
        .args(["--turns", "1000", "--food", "none", "--json"])
        .args(["--turntime", "5000", "--loadtime", "5000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut peak = 0;
    loop {
        if let Some(kb) = rss_kb(pid) {
            peak = peak.max(kb);
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["game_length"], 1000, "{summary}");
    assert_eq!(summary["status"][0], "survived", "{summary}");
    if log_dir {
        let stdout = fs::metadata(dir.path().join("logs/bot0.stdout"))
            .unwrap()
            .len();
        let orders = fs::metadata(dir.path().join("logs/bot0.output"))
            .unwrap()
            .len();
        assert!(stdout > 500_000_000, "bot0.stdout has {stdout} bytes");
        assert!(orders > 500_000_000, "bot0.output has {orders} bytes");
    }
    Some(peak)
}

#[test]
fn issue15_a_bot_flooding_orders_for_1000_turns_keeps_ply_under_100_mb() {
    let Some(peak) = flood(false) else { return };
    eprintln!("peak resident memory of ply: {} MB", peak / 1024);
    assert!(peak < 100 * 1024, "ply peaked at {} MB", peak / 1024);
}

/// With `--log-dir` every byte is logged, streamed to the files as the game goes.
#[test]
fn issue15_with_a_log_dir_the_flood_goes_to_disk_not_memory() {
    let Some(peak) = flood(true) else { return };
    eprintln!(
        "peak resident memory of ply with --log-dir: {} MB",
        peak / 1024
    );
    assert!(peak < 100 * 1024, "ply peaked at {} MB", peak / 1024);
}
