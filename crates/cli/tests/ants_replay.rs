//! `ply replay` on Ants replays: the binary end to end on ply's own recorded case
//! (`tests/data/ants/raze2`), plain text when stdout is not a terminal.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .unwrap()
}

fn case(file: &str) -> PathBuf {
    ply_testkit::workspace_root()
        .join("tests/data/ants/raze2")
        .join(file)
}

fn replay() -> String {
    case("replay.json").to_string_lossy().into_owned()
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The board lines of the first turn shown (rows of map letters after the `turn` line).
fn board(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("turn "))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn turn_zero_is_the_scenario_map_in_plain_letters() {
    let out = stdout(&ply(&["replay", &replay(), "--turn", "0"]));
    assert!(!out.contains('\x1b'), "no colours when not a terminal");
    let map = std::fs::read_to_string(case("scenario.map")).unwrap();
    let want: Vec<String> = map
        .lines()
        .filter_map(|l| l.strip_prefix("m "))
        .map(str::to_string)
        .collect();
    assert_eq!(board(&out), want);
    assert!(
        out.contains(
            "turn 0/200 | a: score 1, 4 ants, hive 0 | b: score 1, 4 ants, hive 0 | food 9"
        ),
        "{out}"
    );
    assert_eq!(out.matches("\nturn ").count(), 1, "only the one turn");
}

#[test]
fn the_whole_game_shows_every_turn_and_colours_on_request() {
    let out = stdout(&ply(&["replay", &replay()]));
    assert_eq!(out.matches("\nturn ").count(), 201);
    assert!(out.contains("(turn limit reached)"));
    let out = stdout(&ply(&[
        "replay",
        &replay(),
        "--turn",
        "3",
        "--color",
        "always",
    ]));
    // Bold red through anstyle: `ESC[1m ESC[38;5;196m a ESC[0m`.
    assert!(
        out.contains("\x1b[1m\x1b[38;5;196ma\x1b[0m"),
        "player a in red"
    );
}

#[test]
fn json_summary_per_turn() {
    let out = stdout(&ply(&["replay", &replay(), "--json"]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 201);
    assert_eq!(v["last_turn"], 200);
    assert_eq!(turns[0]["ants"], serde_json::json!([4, 4]));
    assert_eq!(turns[0]["food"], 9);
    assert_eq!(turns[0]["scores"], serde_json::json!([1, 1]));
    // the replay's own score history
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(case("replay.json")).unwrap()).unwrap();
    for (t, turn) in turns.iter().enumerate() {
        assert_eq!(turn["turn"], t);
        for p in 0..2 {
            let h = r["replaydata"]["scores"][p].as_array().unwrap();
            assert_eq!(turn["scores"][p], h[t.min(h.len() - 1)]);
        }
    }
    let one = stdout(&ply(&["replay", &replay(), "--json", "--turn", "7"]));
    let one: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!(one["turns"].as_array().unwrap().len(), 1);
    assert_eq!(one["turns"][0], turns[7]);
}

#[test]
fn player_view_hides_what_it_could_not_see() {
    let whole = board(&stdout(&ply(&["replay", &replay(), "--turn", "0"])));
    let out = stdout(&ply(&["replay", &replay(), "--turn", "0", "--player", "a"]));
    let seen = board(&out);
    assert_eq!(seen.len(), whole.len());
    // at turn 0 player a's ants are at (2,3), (2,4), (3,3), (4,3): a square is shown iff it
    // is within distance² 77 of one of them on the 16x24 torus, else it is never seen (?)
    let ants = [(2i64, 3i64), (2, 4), (3, 3), (4, 3)];
    for (r, (srow, wrow)) in seen.iter().zip(&whole).enumerate() {
        for (c, (s, w)) in srow.chars().zip(wrow.chars()).enumerate() {
            let near = ants.iter().any(|&(ar, ac)| {
                let dr = (r as i64 - ar).abs().min(16 - (r as i64 - ar).abs());
                let dc = (c as i64 - ac).abs().min(24 - (c as i64 - ac).abs());
                dr * dr + dc * dc <= 77
            });
            if near {
                assert_eq!(s, w, "square ({r}, {c})");
            } else {
                assert_eq!(s, '?', "square ({r}, {c})");
            }
        }
    }
    // the same by number, and later turns remember land and water seen before
    let by_number = stdout(&ply(&["replay", &replay(), "--turn", "0", "--player", "0"]));
    assert_eq!(board(&by_number), seen);
    let later = board(&stdout(&ply(&[
        "replay",
        &replay(),
        "--turn",
        "30",
        "--player",
        "b",
    ])));
    let text = later.concat();
    assert!(text.contains(',') && text.contains('~'), "{later:?}");
}

#[test]
fn window_wraps_on_the_torus() {
    let whole = board(&stdout(&ply(&["replay", &replay(), "--turn", "0"])));
    let out = stdout(&ply(&[
        "replay",
        &replay(),
        "--turn",
        "0",
        "--window",
        "14,20,4,6",
    ]));
    let part = board(&out);
    let want: Vec<String> = [14, 15, 0, 1]
        .iter()
        .map(|&r| {
            let row: Vec<char> = whole[r].chars().collect();
            [20, 21, 22, 23, 0, 1].iter().map(|&c| row[c]).collect()
        })
        .collect();
    assert_eq!(part, want);
    assert!(
        out.contains("showing rows 14..1 and columns 20..1"),
        "{out}"
    );
}

#[test]
fn bad_input_exits_2_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.replay");
    let text = std::fs::read_to_string(case("replay.json"))
        .unwrap()
        .replacen("\"revision\":3", "\"revision\":3,\"players\":\"two\"", 1);
    std::fs::write(&bad, text).unwrap();
    let check = |args: &[&str], want: &str| {
        let out = ply(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    };
    let bad = bad.to_string_lossy().into_owned();
    check(
        &["replay", &bad],
        "replaydata.players: invalid type: string \"two\", expected usize",
    );
    std::fs::write(
        dir.path().join("cut.replay"),
        "{\"replaydata\": {\"revision\": 3,",
    )
    .unwrap();
    check(
        &["replay", &dir.path().join("cut.replay").to_string_lossy()],
        "line 1, column 30",
    );
    check(
        &["replay", &replay(), "--turn", "201"],
        "has turns 0 to 200",
    );
    check(&["replay", &replay(), "--player", "c"], "--player \"c\"");
    check(
        &["replay", &replay(), "--window", "0,0,0,5"],
        "ROW,COL,HEIGHT,WIDTH",
    );
}

#[test]
fn step_waits_for_enter_between_turns() {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["replay", &replay(), "--step"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // two Enters, then end of input: turns 0, 1 and 2 are shown, then playback stops
    child.stdin.take().unwrap().write_all(b"\n\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert_eq!(text.matches("\nturn ").count(), 3, "{text}");
    assert!(text.contains("\nturn 2/200 "));
}
