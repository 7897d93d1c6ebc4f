//! Processes that carry a marker: how the tests prove that nothing of a bot outlives its
//! move, its game or a killed referee. A test puts a unique marker in a bot's command line
//! (or environment) and scans `/proc` for it.

use std::fmt;
use std::time::{Duration, Instant};

/// A live process, not this test's own, that carries the marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    /// Its pid as this test sees it.
    pub pid: u32,
    /// Its command line, the NUL separators shown as spaces.
    pub cmdline: String,
}

impl fmt::Display for Marked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.pid, self.cmdline)
    }
}

/// Where to look for the marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// The command line only.
    CommandLine,
    /// The command line or the environment (a helper that rewrote its arguments still
    /// carries its parent's environment).
    CommandLineOrEnvironment,
}

/// The live processes (zombies aside, and this test process aside) with `marker` where
/// `look` says.
pub fn marked(marker: &str, look: Look) -> Vec<Marked> {
    let me = std::process::id();
    let files: &[&str] = match look {
        Look::CommandLine => &["cmdline"],
        Look::CommandLineOrEnvironment => &["cmdline", "environ"],
    };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == me || !running(pid) {
            continue;
        }
        let hit = files.iter().any(|file| {
            std::fs::read(entry.path().join(file))
                .is_ok_and(|bytes| String::from_utf8_lossy(&bytes).contains(marker))
        });
        if hit {
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            found.push(Marked {
                pid,
                cmdline: String::from_utf8_lossy(&cmdline).replace('\0', " "),
            });
        }
    }
    found
}

/// Waits up to `wait` for no process to carry `marker`; what is left then.
pub fn marked_after(marker: &str, look: Look, wait: Duration) -> Vec<Marked> {
    let until = Instant::now() + wait;
    loop {
        let left = marked(marker, look);
        if left.is_empty() || Instant::now() >= until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` exists and is not a zombie.
pub fn running(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        let state = s.rsplit_once(')').map(|(_, r)| r.trim_start());
        !state.is_some_and(|r| r.starts_with('Z') || r.starts_with('X'))
    })
}
