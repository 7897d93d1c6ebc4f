//! Exit codes and error reports.
//!
//! * 0: success.
//! * 1: the work failed (a puzzle had no solution, a bot lost by fault, an I/O error).
//! * 2: the input was wrong (bad arguments, a malformed file or position); clap also uses 2.

use std::fmt;
use std::process::ExitCode;

/// An error caused by what the user gave; exits with code 2.
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Shorthand for returning a [`BadInput`] error.
#[macro_export]
macro_rules! bad_input {
    ($($arg:tt)*) => {
        anyhow::Error::new($crate::exit::BadInput(format!($($arg)*)))
    };
}

/// Prints `err` with its causes on stderr and picks the exit code.
pub fn report(err: &anyhow::Error) -> ExitCode {
    if crate::out::is_closed_pipe(err) {
        // The reader has all it wanted (`| head`): a normal end, nothing to say.
        return ExitCode::SUCCESS;
    }
    eprintln!("error: {err}");
    for cause in err.chain().skip(1) {
        eprintln!("  caused by: {cause}");
    }
    if err.chain().any(|c| c.is::<BadInput>()) {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}
