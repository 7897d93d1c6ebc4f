//! Standard output, the one way: `out!` and `outln!` write like `print!` and `println!`
//! but return a write error from the calling function instead of panicking.
//!
//! A reader that goes away (`ply ... | head -3`) makes the next write fail with
//! `BrokenPipe`; [`crate::exit::report`] treats that as a normal end: no message, exit 0,
//! as `ply hanoi solve | head` always did. Rust ignores SIGPIPE, so the error is what
//! arrives; restoring the signal instead would let a bot that closes its stdin kill the
//! referee.

/// `print!` that returns the write error (`?` in the caller).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `println!` that returns the write error (`?` in the caller).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// Whether `err` is a write to a reader that went away.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `n` and a noun, the noun in the plural unless `n` is 1: `Count(1, "peg")` shows
/// `1 peg`, `Count(3, "round")` shows `3 rounds` (regular nouns only).
pub struct Count<'a>(pub u64, pub &'a str);

impl std::fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = if self.0 == 1 { "" } else { "s" };
        write!(f, "{} {}{s}", self.0, self.1)
    }
}
