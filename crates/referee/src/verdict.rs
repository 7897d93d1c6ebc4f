//! The referee's judgement of one move: ok, or the fault ([`ply_core::Fault`], the one
//! vocabulary of how a turn fails).

use std::fmt;

use serde::{Deserialize, Serialize};

use ply_core::Fault;

/// How a bot's move went. Every verdict but [`Verdict::Ok`] loses the game, as on HackerEarth.
///
/// In a replay: `{"verdict": "ok"}`, or the fault's own fields
/// (`{"verdict": "runtime_error", "detail": "exit code 3"}`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// A legal move within the limits.
    Ok,
    /// The fault that loses the game.
    #[serde(untagged)]
    Fault(Fault),
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
            Verdict::Fault(f) => f.code(),
        }
    }

    /// The fault, unless the move stands.
    pub fn fault(&self) -> Option<&Fault> {
        match self {
            Verdict::Ok => None,
            Verdict::Fault(f) => Some(f),
        }
    }
}

impl From<Fault> for Verdict {
    fn from(f: Fault) -> Self {
        Verdict::Fault(f)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Ok => f.write_str("ok"),
            Verdict::Fault(fault) => fault.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_keep_the_replay_format_s_json() {
        let cases = [
            (Verdict::Ok, r#"{"verdict":"ok"}"#),
            (
                Verdict::Fault(Fault::TimeLimit),
                r#"{"verdict":"time_limit"}"#,
            ),
            (
                Verdict::Fault(Fault::RuntimeError {
                    detail: "exit code 3".into(),
                }),
                r#"{"verdict":"runtime_error","detail":"exit code 3"}"#,
            ),
            (
                Verdict::Fault(Fault::InvalidMove {
                    reason: "illegal move 0 0: taken".into(),
                }),
                r#"{"verdict":"invalid_move","reason":"illegal move 0 0: taken"}"#,
            ),
            (
                Verdict::Fault(Fault::NoOutput),
                r#"{"verdict":"no_output"}"#,
            ),
        ];
        for (verdict, json) in cases {
            assert_eq!(serde_json::to_string(&verdict).unwrap(), json);
            assert_eq!(serde_json::from_str::<Verdict>(json).unwrap(), verdict);
        }
        assert!(serde_json::from_str::<Verdict>(r#"{"verdict":"bribed"}"#).is_err());
    }

    #[test]
    fn a_move_record_reads_back_with_its_verdict_flattened() {
        let text =
            r#"{"ply":3,"seat":2,"verdict":"runtime_error","detail":"signal 9","micros":12}"#;
        let m: crate::MoveRecord = serde_json::from_str(text).unwrap();
        assert_eq!(
            m.verdict,
            Verdict::Fault(Fault::RuntimeError {
                detail: "signal 9".into()
            })
        );
        assert_eq!(serde_json::to_string(&m).unwrap(), text);
        let ok = r#"{"ply":1,"seat":1,"move":"1 1","verdict":"ok","micros":5}"#;
        let m: crate::MoveRecord = serde_json::from_str(ok).unwrap();
        assert!(m.verdict.is_ok());
        assert_eq!(serde_json::to_string(&m).unwrap(), ok);
    }
}
