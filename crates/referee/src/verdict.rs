//! The referee's judgement of one move.

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::Fault;

/// How a bot's move went. Every verdict but [`Verdict::Ok`] loses the game, as on HackerEarth.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// A legal move within the limits.
    Ok,
    /// Still running at the time limit.
    TimeLimit,
    /// Ran past the memory limit.
    MemoryLimit,
    /// Exited with a non-zero code, was killed by a signal, or could not be started.
    RuntimeError {
        /// Exit code or signal, in words.
        detail: String,
    },
    /// Printed something that is not a legal move here.
    InvalidMove {
        /// What it printed and why that is not legal.
        reason: String,
    },
    /// Printed more than the output limit.
    OutputLimit,
    /// Exited cleanly without printing a move.
    NoOutput,
}

impl Verdict {
    /// Whether the move stands.
    pub fn is_ok(&self) -> bool {
        *self == Verdict::Ok
    }

    /// A short fixed name for tables and summaries (`time_limit`).
    pub fn code(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::TimeLimit => "time_limit",
            Verdict::MemoryLimit => "memory_limit",
            Verdict::RuntimeError { .. } => "runtime_error",
            Verdict::InvalidMove { .. } => "invalid_move",
            Verdict::OutputLimit => "output_limit",
            Verdict::NoOutput => "no_output",
        }
    }
}

impl From<Fault> for Verdict {
    fn from(f: Fault) -> Self {
        match f {
            Fault::TimeLimit => Verdict::TimeLimit,
            Fault::MemoryLimit => Verdict::MemoryLimit,
            Fault::RuntimeError { detail } => Verdict::RuntimeError { detail },
            Fault::InvalidMove { reason } => Verdict::InvalidMove { reason },
            Fault::OutputLimit => Verdict::OutputLimit,
            Fault::NoOutput => Verdict::NoOutput,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ok => f.write_str("ok"),
            Verdict::TimeLimit => f.write_str("time limit exceeded"),
            Verdict::MemoryLimit => f.write_str("memory limit exceeded"),
            Verdict::RuntimeError { detail } => write!(f, "runtime error ({detail})"),
            Verdict::InvalidMove { reason } => write!(f, "invalid move ({reason})"),
            Verdict::OutputLimit => f.write_str("output limit exceeded"),
            Verdict::NoOutput => f.write_str("no output"),
        }
    }
}
