//! Reading what the user gives: text files and standard input, whole or line by line.
//!
//! Every input ply reads is text of modest size (a puzzle set, a board, a map, a replay, a
//! contest state, a typed move). Read with `read_to_string` or `lines()`, two kinds of wrong
//! input went badly: a stream with no end (`ply sudoku solve /dev/zero`, or stdin from it)
//! made ply allocate until the machine ran out of memory, and a binary file ended with
//! "stream did not contain valid UTF-8" and exit code 1, as if the work had failed. Here a
//! file is read to at most [`MAX_TEXT`] bytes and a line to at most [`MAX_LINE`], and both
//! kinds are bad input (exit code 2) with a message that says what, where, and what to do.

use crate::bad_input;
use anyhow::{Context, Result};
use std::io::{BufRead, Read};
use std::path::Path;

/// The most ply reads of one input: 256 MiB, about three million 9x9 puzzles or a hundred
/// times the largest Ants replay of the 2011 maps.
pub const MAX_TEXT: u64 = 256 << 20;

/// The longest line an interactive command reads (a move, a command): 64 KiB.
pub const MAX_LINE: u64 = 64 << 10;

/// The text of the file at `path`; `what` names it in errors ("the replay", "the map").
///
/// A file that cannot be opened keeps its `io::Error` as the cause, so a missing or
/// unreadable path is bad input like any other (see `exit.rs`).
pub fn read_file(path: &Path, what: &str) -> Result<String> {
    let name = if what.is_empty() {
        path.display().to_string()
    } else {
        format!("{what} {}", path.display())
    };
    let file = std::fs::File::open(path).with_context(|| format!("reading {name}"))?;
    read_capped(file, &name)
}

/// Standard input, whole, named `what` in errors.
pub fn read_stdin(what: &str) -> Result<String> {
    read_capped(std::io::stdin().lock(), what)
}

/// At most [`MAX_TEXT`] bytes of `reader`, which must be all of it and UTF-8.
pub fn read_capped(reader: impl Read, name: &str) -> Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(MAX_TEXT + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {name}"))?;
    if bytes.len() as u64 > MAX_TEXT {
        return Err(bad_input!(
            "{name}: longer than {} MiB, the most ply reads of one input (is it an endless \
             stream such as /dev/zero, or the wrong file?); give the right file, or split it",
            MAX_TEXT >> 20
        ));
    }
    text(bytes, name)
}

/// `bytes` as text, or where the first byte that is not UTF-8 is.
fn text(bytes: Vec<u8>, name: &str) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let before = &e.as_bytes()[..at];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = at
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        bad_input!(
            "{name}: not text: byte {:#04x} at line {line}, column {column} is not UTF-8; \
             ply reads text files (ASCII or UTF-8): is it the right file?",
            e.as_bytes()[at]
        )
    })
}

/// The lines of `reader` (without their `\n` or `\r\n`), each at most [`MAX_LINE`] bytes:
/// what `BufRead::lines` gives, but a line with no end is an error instead of a hang.
pub fn lines<R: BufRead>(reader: R, name: &'static str) -> Lines<R> {
    Lines { reader, name }
}

/// The iterator of [`lines`].
pub struct Lines<R> {
    reader: R,
    name: &'static str,
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = Result<String>;

    fn next(&mut self) -> Option<Result<String>> {
        let mut line = Vec::new();
        let read = (&mut self.reader)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut line);
        match read {
            Err(e) => Some(Err(e).with_context(|| format!("reading {}", self.name))),
            Ok(0) => None,
            Ok(_) if line.last() != Some(&b'\n') && line.len() as u64 > MAX_LINE => {
                Some(Err(bad_input!(
                    "{}: a line longer than {} KiB; type one move or command a line",
                    self.name,
                    MAX_LINE >> 10
                )))
            }
            Ok(_) => {
                if line.last() == Some(&b'\n') {
                    line.pop();
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                }
                Some(text(line, self.name))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_endless_stream_is_cut_at_the_cap_and_refused() {
        let err = read_capped(std::io::repeat(b'0'), "stdin").unwrap_err();
        assert!(err.is::<crate::exit::BadInput>(), "{err}");
        assert!(err.to_string().contains("longer than 256 MiB"), "{err}");
    }

    #[test]
    fn a_binary_file_is_refused_with_where_its_first_bad_byte_is() {
        let err = read_capped(&b"ab\ncd\xffe"[..], "f.txt").unwrap_err();
        assert!(err.is::<crate::exit::BadInput>(), "{err}");
        assert!(
            err.to_string()
                .starts_with("f.txt: not text: byte 0xff at line 2, column 3"),
            "{err}"
        );
    }

    #[test]
    fn text_within_the_cap_is_read_whole() {
        let text = "x".repeat(1 << 20) + "\nlast";
        assert_eq!(read_capped(text.as_bytes(), "f").unwrap(), text);
    }

    #[test]
    fn lines_are_what_bufread_lines_gives() {
        let input = "a\r\nbc\n\nd";
        let ours: Vec<String> = lines(input.as_bytes(), "stdin")
            .map(Result::unwrap)
            .collect();
        let std: Vec<String> = input.as_bytes().lines().map(Result::unwrap).collect();
        assert_eq!(ours, std);
    }

    #[test]
    fn a_line_with_no_end_is_refused_and_one_at_the_limit_is_not() {
        let endless = std::io::BufReader::new(std::io::repeat(b'x'));
        let mut it = lines(endless, "stdin");
        let err = it.next().unwrap().unwrap_err();
        assert!(err.is::<crate::exit::BadInput>(), "{err}");
        assert!(err.to_string().contains("longer than 64 KiB"), "{err}");
        let exact = "y".repeat(MAX_LINE as usize) + "\n";
        let mut it = lines(exact.as_bytes(), "stdin");
        assert_eq!(it.next().unwrap().unwrap().len(), MAX_LINE as usize);
        assert!(it.next().is_none());
    }
}
