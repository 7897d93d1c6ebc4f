//! Recorded runs that replay exactly. A trace is JSON: for each level played, the level's
//! text, the seed, the lives and score it started with, the actions run-length encoded
//! (`"30s1f12r"`: 30 stays, a launch, 12 steps right), and a digest of the whole state
//! every [`CHECK_EVERY`] steps and after the last. Replaying runs the actions through a
//! fresh [`Sim`] and compares every digest, so a trace proves the same frames came out,
//! and a change to the physics shows as the first step where they part.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::level::{Level, ParseLevelError};
use crate::sim::{Action, Sim, Start, Status};

/// The `format` field of every trace.
pub const FORMAT: &str = "ply-breaker-trace";
/// Steps between digests.
pub const CHECK_EVERY: u64 = 30;

/// A recorded run: one episode per level played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Trace {
    /// Always [`FORMAT`].
    pub format: String,
    /// 1.
    pub version: u32,
    /// The levels played, in order.
    pub episodes: Vec<Episode>,
}

/// One level played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Episode {
    /// The level's number in its run (for people; the text is what counts).
    pub level: usize,
    /// The level file's text.
    pub level_text: String,
    /// The simulation's seed.
    pub seed: u64,
    /// Lives at the start.
    pub lives: u32,
    /// Score at the start.
    pub score: u64,
    /// The actions, run-length encoded.
    pub actions: String,
    /// Digests of the state.
    pub checkpoints: Vec<Checkpoint>,
    /// How it ended.
    pub result: EpisodeResult,
}

/// A digest of the state after a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Steps played.
    pub step: u64,
    /// [`Sim::digest`] in 16 hex digits.
    pub digest: String,
}

/// The state at the end of an episode.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EpisodeResult {
    /// `playing` (stopped at a step limit), `cleared` or `game over`.
    pub status: String,
    /// Steps played.
    pub steps: u64,
    /// Score.
    pub score: u64,
    /// Lives left.
    pub lives: u32,
}

/// Why a trace does not replay.
#[derive(Debug, Error)]
pub enum ReplayError {
    /// Not JSON of the trace format.
    #[error("not a Block Breaker trace: {0}")]
    Format(String),
    /// An episode's level text does not parse.
    #[error("episode {episode}: its level does not parse: {source}")]
    Level {
        /// 1-based episode.
        episode: usize,
        /// The parse error.
        source: ParseLevelError,
    },
    /// The action string is malformed.
    #[error("episode {episode}: actions, character {at}: {message}")]
    Actions {
        /// 1-based episode.
        episode: usize,
        /// 1-based character.
        at: usize,
        /// What is wrong.
        message: String,
    },
    /// The replay parted from the record.
    #[error(
        "episode {episode}: after step {step} the state's digest is {found}, the trace says {expected}"
    )]
    Diverged {
        /// 1-based episode.
        episode: usize,
        /// The step.
        step: u64,
        /// Recorded digest.
        expected: String,
        /// Replayed digest.
        found: String,
    },
    /// The end differs from the recorded result.
    #[error("episode {episode}: ended {found:?}, the trace says {expected:?}")]
    Result {
        /// 1-based episode.
        episode: usize,
        /// Recorded.
        expected: EpisodeResult,
        /// Replayed.
        found: EpisodeResult,
    },
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Playing => "playing",
        Status::Cleared => "cleared",
        Status::GameOver => "game over",
    }
}

fn result_of(sim: &Sim) -> EpisodeResult {
    EpisodeResult {
        status: status_name(sim.status()).into(),
        steps: sim.steps(),
        score: sim.score(),
        lives: sim.lives(),
    }
}

/// Records one episode as it is played.
#[derive(Clone, Debug)]
pub struct Recorder {
    episode: Episode,
    run: Option<(Action, u64)>,
}

impl Recorder {
    /// Starts recording level number `level` (`text` is its file) from `sim`'s start.
    pub fn new(level: usize, text: &Level, seed: u64, start: Start) -> Recorder {
        Recorder {
            episode: Episode {
                level,
                level_text: text.to_text(),
                seed,
                lives: start.lives,
                score: start.score,
                actions: String::new(),
                checkpoints: Vec::new(),
                result: EpisodeResult {
                    status: "playing".into(),
                    steps: 0,
                    score: start.score,
                    lives: start.lives,
                },
            },
            run: None,
        }
    }

    /// Notes that `action` was played and `sim` is the state after it.
    pub fn record(&mut self, action: Action, sim: &Sim) {
        self.run = match self.run {
            Some((a, n)) if a == action => Some((a, n + 1)),
            Some((a, n)) => {
                self.flush(a, n);
                Some((action, 1))
            }
            None => Some((action, 1)),
        };
        if sim.steps().is_multiple_of(CHECK_EVERY) {
            self.checkpoint(sim);
        }
    }

    fn flush(&mut self, a: Action, n: u64) {
        self.episode.actions.push_str(&format!("{n}{}", a.letter()));
    }

    fn checkpoint(&mut self, sim: &Sim) {
        self.episode.checkpoints.push(Checkpoint {
            step: sim.steps(),
            digest: format!("{:016x}", sim.digest()),
        });
    }

    /// The finished episode; `sim` is the final state.
    pub fn finish(mut self, sim: &Sim) -> Episode {
        if let Some((a, n)) = self.run.take() {
            self.flush(a, n);
        }
        if self.episode.checkpoints.last().map(|c| c.step) != Some(sim.steps()) {
            self.checkpoint(sim);
        }
        self.episode.result = result_of(sim);
        self.episode
    }
}

impl Trace {
    /// A trace of these episodes.
    pub fn new(episodes: Vec<Episode>) -> Trace {
        Trace {
            format: FORMAT.into(),
            version: 1,
            episodes,
        }
    }

    /// Reads a trace from JSON.
    ///
    /// # Errors
    /// The text is not JSON of this format.
    pub fn from_json(text: &str) -> Result<Trace, ReplayError> {
        let t: Trace =
            serde_json::from_str(text).map_err(|e| ReplayError::Format(e.to_string()))?;
        if t.format != FORMAT || t.version != 1 {
            return Err(ReplayError::Format(format!(
                "format {:?} version {}, expected {FORMAT:?} version 1",
                t.format, t.version
            )));
        }
        Ok(t)
    }

    /// The trace as pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Replays every episode, checking every digest and the results; `frame` sees the
    /// state after each step (return `false` to stop early, which is not an error).
    ///
    /// # Errors
    /// The first problem: a level that does not parse, bad actions, a digest or a result
    /// that differs.
    pub fn replay(&self, mut frame: impl FnMut(usize, &Sim) -> bool) -> Result<u64, ReplayError> {
        let mut steps = 0;
        for (i, ep) in self.episodes.iter().enumerate() {
            let n = i + 1;
            let level = Level::parse(&ep.level_text)
                .map_err(|source| ReplayError::Level { episode: n, source })?;
            let actions = decode(&ep.actions).map_err(|(at, message)| ReplayError::Actions {
                episode: n,
                at,
                message,
            })?;
            let start = Start {
                lives: ep.lives,
                score: ep.score,
            };
            let mut sim = Sim::new(&level, ep.seed, start);
            let mut checks = ep.checkpoints.iter().peekable();
            for a in actions {
                sim.step(a);
                steps += 1;
                if let Some(c) = checks.peek()
                    && c.step == sim.steps()
                {
                    let found = format!("{:016x}", sim.digest());
                    if found != c.digest {
                        return Err(ReplayError::Diverged {
                            episode: n,
                            step: c.step,
                            expected: c.digest.clone(),
                            found,
                        });
                    }
                    checks.next();
                }
                if !frame(n, &sim) {
                    return Ok(steps);
                }
            }
            if let Some(c) = checks.next() {
                return Err(ReplayError::Actions {
                    episode: n,
                    at: ep.actions.chars().count(),
                    message: format!("the actions end before the checkpoint at step {}", c.step),
                });
            }
            let found = result_of(&sim);
            if found != ep.result {
                return Err(ReplayError::Result {
                    episode: n,
                    expected: ep.result.clone(),
                    found,
                });
            }
        }
        Ok(steps)
    }
}

/// Decodes a run-length action string; errors give the 1-based character.
pub fn decode(text: &str) -> Result<Vec<Action>, (usize, String)> {
    let mut out = Vec::new();
    let mut count: Option<u64> = None;
    for (i, ch) in text.chars().enumerate() {
        if let Some(d) = ch.to_digit(10) {
            let n = count.unwrap_or(0) * 10 + u64::from(d);
            if n > 10_000_000 {
                return Err((i + 1, "a run longer than 10,000,000 steps".into()));
            }
            count = Some(n);
        } else if let Some(a) = Action::from_letter(ch) {
            let n = count
                .take()
                .ok_or((i + 1, format!("{ch:?} has no count before it")))?;
            if out.len() as u64 + n > 10_000_000 {
                return Err((i + 1, "more than 10,000,000 steps".into()));
            }
            out.extend(std::iter::repeat_n(a, n as usize));
        } else {
            return Err((
                i + 1,
                format!("unknown action {ch:?} (s stay, l left, r right, f launch)"),
            ));
        }
    }
    if count.is_some() {
        return Err((
            text.chars().count(),
            "a count with no action after it".into(),
        ));
    }
    Ok(out)
}
