//! What `ply match`, `ply tournament` and `ply leaderboard` share: limits, player specs, the
//! database's place, seeds.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::{Context, Result};
use clap::Args;

use ply_referee::{Limits, PlayerSpec};
use ply_store::SqliteStore;

use crate::bad_input;

/// The limits of every external bot's move.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Wall time per move, in milliseconds (HackerEarth: 1000).
    #[arg(long, default_value_t = 1000)]
    pub time_ms: u64,
    /// Memory per bot process, in MB (HackerEarth: 256).
    #[arg(long, default_value_t = 256)]
    pub memory_mb: u64,
    /// Output per move, in KB; more loses the game.
    #[arg(long, default_value_t = 64)]
    pub output_kb: usize,
}

impl LimitArgs {
    /// The limits, checked.
    pub fn limits(&self) -> Result<Limits> {
        if self.time_ms == 0 || self.memory_mb == 0 || self.output_kb == 0 {
            return Err(bad_input!(
                "--time-ms, --memory-mb and --output-kb must be positive"
            ));
        }
        Ok(Limits {
            time: Duration::from_millis(self.time_ms),
            memory: self.memory_mb << 20,
            output: self.output_kb << 10,
        })
    }
}

/// Reads a player spec, naming the option it came from.
pub fn player_spec(option: &str, text: &str) -> Result<PlayerSpec> {
    text.parse::<PlayerSpec>()
        .map_err(|e| bad_input!("{option} {text:?}: {e}"))
}

/// The arena database: `--db` or `arena.sqlite3` in the platform's data directory
/// (`~/.local/share/ply` on Linux), created if needed.
pub fn open_store(db: Option<&PathBuf>) -> Result<(SqliteStore, PathBuf)> {
    let path = match db {
        Some(p) => p.clone(),
        None => {
            let dirs = directories::ProjectDirs::from("", "", "ply").ok_or_else(|| {
                bad_input!("cannot find a home directory for the database; give --db PATH")
            })?;
            dirs.data_dir().join("arena.sqlite3")
        }
    };
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating the directory {}", parent.display()))?;
    }
    let store = SqliteStore::open(&path)
        .with_context(|| format!("opening the arena database {}", path.display()))?;
    Ok((store, path))
}

/// A game's seed from a match or tournament seed and the game's place in it (SplitMix64),
/// so that every game differs yet replays exactly.
pub fn game_seed(seed: u64, round: u32, slot: u32) -> u64 {
    let mut z = seed ^ (u64::from(round) << 32 | u64::from(slot));
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
