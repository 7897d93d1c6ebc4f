//! Exit codes and error reports.
//!
//! * 0: success.
//! * 1: the work failed or a check said no (a puzzle had no solution, an invalid move or
//!   jump, a bot lost by fault, a failed write).
//! * 2: the input was wrong (bad arguments, a malformed file or position, a file that cannot
//!   be opened); clap also uses 2.
//!
//! The README states the same rule; `tests/issue13_exit_codes.rs` checks it per command.

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
    if err
        .chain()
        .any(|c| c.is::<BadInput>() || is_bad_path(c) || is_bad_store(c))
    {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

/// A database path that names no database (another kind of file, a folder).
fn is_bad_store(cause: &(dyn std::error::Error + 'static)) -> bool {
    cause
        .downcast_ref::<ply_store::StoreError>()
        .is_some_and(ply_store::StoreError::is_bad_input)
}

/// A path the user named that cannot be opened (missing, not allowed, a folder where a file
/// belongs): bad input, like any other wrong argument.
fn is_bad_path(cause: &(dyn std::error::Error + 'static)) -> bool {
    use std::io::ErrorKind::{IsADirectory, NotADirectory, NotFound, PermissionDenied};
    cause.downcast_ref::<std::io::Error>().is_some_and(|e| {
        matches!(
            e.kind(),
            NotFound | PermissionDenied | IsADirectory | NotADirectory
        )
    })
}
