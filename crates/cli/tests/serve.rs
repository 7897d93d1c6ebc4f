//! `ply serve` from the command line: it refuses an unguarded non-loopback address before
//! binding anything, and on the loopback address it prints where it serves and answers.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn ply() -> Command {
    Command::new(env!("CARGO_BIN_EXE_ply"))
}

#[test]
fn a_token_too_short_for_a_non_loopback_address_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = ply()
        .args(["serve", "--addr", "0.0.0.0:0", "--token", "short", "--db"])
        .arg(dir.path().join("a.sqlite3"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 8 characters"));
    assert!(!dir.path().join("a.sqlite3").exists());
}

#[test]
fn it_serves_on_a_free_loopback_port_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = ply()
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(dir.path().join("a.sqlite3"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("serving on http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("first line: {line:?}"))
        .to_string();
    let mut s = TcpStream::connect(&addr).unwrap();
    write!(
        s,
        "GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    s.read_to_string(&mut answer).unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("\"tictactoe\""));
}
