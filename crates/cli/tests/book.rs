//! `ply book` and the book in `ply bot othello`: a small build is reproducible, a damaged
//! book is bad input (exit 2), the bot plays the book's move unless told not to (with a
//! warning when another evaluation made it), and a book of format 1 converts only when this
//! build's evaluation gives its leaves' values.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use ply_core::Game;
use ply_games::HackerEarth;
use ply_games::reversi::Othello;
use ply_games::reversi::book::{self, Book, Labels};

fn ply(args: &[&str], dir: &Path, stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    // ply may exit before reading its input (an error found first): a broken pipe is
    // fine then, and the output says what happened (as tests/common's `ply` does).
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const TINY: &[&str] = &[
    "book",
    "build",
    "othello",
    "--depth",
    "2",
    "--full-plies",
    "2",
    "--positions",
    "40",
];

#[test]
fn a_small_build_is_the_same_twice_whatever_the_threads_and_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let a = ply(&[TINY, &["--out", "a.book"]].concat(), dir.path(), "");
    assert!(a.status.success(), "{}", stderr(&a));
    assert!(stdout(&a).contains("a.book"), "{}", stdout(&a));
    let b = ply(
        &[TINY, &["--out", "b.book", "--threads", "2"]].concat(),
        dir.path(),
        "",
    );
    assert!(b.status.success(), "{}", stderr(&b));
    let a = std::fs::read(dir.path().join("a.book")).unwrap();
    assert_eq!(a, std::fs::read(dir.path().join("b.book")).unwrap());
    let tiny = Book::from_bytes(&a).unwrap();
    assert!(tiny.len() > 10 && tiny.len() <= 40, "{}", tiny.len());
    let look = ply(
        &["book", "lookup", "othello", "--book-file", "a.book"],
        dir.path(),
        "",
    );
    assert!(look.status.success(), "{}", stderr(&look));
    let expected = tiny.book_move(&Othello::start()).unwrap().to_string();
    assert!(
        stdout(&look).starts_with(&format!("move {expected},")),
        "{}",
        stdout(&look)
    );
}

#[test]
fn the_bot_plays_the_book_s_move_and_not_with_the_book_off() {
    let dir = tempfile::tempdir().unwrap();
    let built = ply(&[TINY, &["--out", "tiny.book"]].concat(), dir.path(), "");
    assert!(built.status.success(), "{}", stderr(&built));
    let tiny = Book::from_bytes(&std::fs::read(dir.path().join("tiny.book")).unwrap()).unwrap();
    // Every position of two plies, as the contest feeds it: the bot answers the book's move
    // at once, from the committed book and from the file.
    let mut moves = Vec::new();
    let start = Othello::start();
    start.legal_moves(&mut moves);
    for &first in &moves {
        let mut s = start;
        s.play(first).unwrap();
        let mut replies = Vec::new();
        s.legal_moves(&mut replies);
        for &second in &replies {
            let mut state = s;
            state.play(second).unwrap();
            let input = state.write_input();
            for (args, book) in [
                (&["bot", "othello", "--book", "true"][..], book::committed()),
                (&["bot", "othello", "--book-file", "tiny.book"], &tiny),
            ] {
                let out = ply(args, dir.path(), &input);
                assert!(out.status.success(), "{}", stderr(&out));
                let mv = book.book_move(&state).unwrap();
                assert_eq!(stdout(&out), state.write_move(mv), "{args:?} {state}");
            }
        }
    }
    // With the book off the search answers: a legal move, in its own time.
    let out = ply(
        &["bot", "othello", "--book", "false", "--time-ms", "100"],
        dir.path(),
        &start.write_input(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(start.read_move(&stdout(&out)).is_ok(), "{}", stdout(&out));
}

#[test]
fn a_damaged_or_missing_book_and_a_game_without_books_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = book::committed().to_bytes();
    std::fs::write(dir.path().join("cut.book"), &bytes[..bytes.len() - 3]).unwrap();
    let mut flipped = bytes.clone();
    flipped[30] ^= 1; // in the first entry
    std::fs::write(dir.path().join("flipped.book"), &flipped).unwrap();
    let input = Othello::start().write_input();
    for (args, says) in [
        (
            &["bot", "othello", "--book-file", "cut.book"][..],
            "truncated",
        ),
        (
            &["book", "lookup", "othello", "--book-file", "cut.book"],
            "truncated",
        ),
        (
            &["bot", "othello", "--book-file", "flipped.book"],
            "corrupt",
        ),
        (
            &["bot", "othello", "--book-file", "missing.book"],
            "missing.book",
        ),
        (
            &["bot", "reversi", "--book-file", "cut.book"],
            "no opening book",
        ),
        (
            &["book", "build", "reversi", "--out", "r.book"],
            "only othello",
        ),
        (
            &[
                "book",
                "build",
                "othello",
                "--out",
                "o.book",
                "--positions",
                "10",
            ],
            "allow at least",
        ),
    ] {
        let stdin = if args[0] == "bot" && args[1] == "reversi" {
            ply_games::reversi::Reversi10::start().write_input()
        } else {
            input.clone()
        };
        let out = ply(args, dir.path(), &stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"), "{args:?}");
    }
}

/// A book's entries in a file of format 1 (session 34's: magic, count, entries, checksum).
fn format1(v2: &[u8]) -> Vec<u8> {
    let mut out = book::MAGIC_1.to_vec();
    out.extend_from_slice(&v2[20..v2.len() - 8]);
    let sum = book::fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn a_format_1_book_converts_when_its_leaves_check_and_another_evaluation_s_plays_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let built = ply(&[TINY, &["--out", "tiny.book"]].concat(), dir.path(), "");
    assert!(built.status.success(), "{}", stderr(&built));
    let v2 = std::fs::read(dir.path().join("tiny.book")).unwrap();
    let tiny = Book::from_bytes(&v2).unwrap();
    let old = format1(&v2);
    std::fs::write(dir.path().join("old.book"), &old).unwrap();
    let input = Othello::start().write_input();
    // Format 1 is refused by the bot, with what to do.
    let out = ply(
        &["bot", "othello", "--book-file", "old.book"],
        dir.path(),
        &input,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("ply book convert"),
        "{}",
        stderr(&out)
    );
    // Converted after every leaf is searched again: the same bytes as the build's.
    let convert = |from: &str| {
        ply(
            &[
                "book",
                "convert",
                "othello",
                "--book-file",
                from,
                "--out",
                "new.book",
                "--check",
                "1000",
            ],
            dir.path(),
            "",
        )
    };
    let out = convert("old.book");
    assert!(out.status.success(), "{}", stderr(&out));
    let leaves = tiny.entries().iter().filter(|e| !e.is_expanded()).count();
    assert!(
        stdout(&out).starts_with(&format!("{leaves} of {leaves} leaves")),
        "{}",
        stdout(&out)
    );
    assert_eq!(std::fs::read(dir.path().join("new.book")).unwrap(), v2);
    // A leaf whose value is not the search's: refused, the position named.
    let mut entries = tiny.entries().to_vec();
    let leaf = entries.iter().position(|e| !e.is_expanded()).unwrap();
    entries[leaf].value += 7;
    let changed = Book::new(entries, tiny.labels()).unwrap().to_bytes();
    std::fs::write(dir.path().join("changed.book"), format1(&changed)).unwrap();
    let out = convert("changed.book");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("1 of"), "{}", stderr(&out));
    let state = tiny.entries()[leaf].position(ply_core::Seat::FIRST);
    assert!(
        stderr(&out).contains(&state.to_string()),
        "{}",
        stderr(&out)
    );
    let out = convert("tiny.book");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("format 2 already"),
        "{}",
        stderr(&out)
    );
    // A book labelled by another evaluation is played, with a warning.
    let labels = Labels {
        evaluation: tiny.labels().evaluation ^ 1,
        ..tiny.labels()
    };
    let other = Book::new(tiny.entries().to_vec(), labels).unwrap();
    std::fs::write(dir.path().join("other.book"), other.to_bytes()).unwrap();
    for args in [
        &["bot", "othello", "--book-file", "other.book"][..],
        &["book", "lookup", "othello", "--book-file", "other.book"],
    ] {
        let out = ply(args, dir.path(), &input);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("another evaluation"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    let out = ply(
        &["bot", "othello", "--book-file", "other.book"],
        dir.path(),
        &input,
    );
    let start = Othello::start();
    assert_eq!(
        stdout(&out),
        start.write_move(other.book_move(&start).unwrap())
    );
    // The book of this build's evaluation plays without one.
    let out = ply(
        &["bot", "othello", "--book-file", "tiny.book"],
        dir.path(),
        &input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !stderr(&out).contains("another evaluation"),
        "{}",
        stderr(&out)
    );
}
