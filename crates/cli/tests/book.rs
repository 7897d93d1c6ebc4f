//! `ply book` and the book in `ply bot othello`: a small build is reproducible, a damaged
//! book is bad input (exit 2), and the bot plays the book's move unless told not to.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use ply_core::Game;
use ply_games::HackerEarth;
use ply_games::reversi::Othello;
use ply_games::reversi::book::{self, Book};

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
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
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
                (&["bot", "othello"][..], book::committed()),
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
    flipped[20] ^= 1;
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
