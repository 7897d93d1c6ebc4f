//! Issue 13, items 9 and 9b: a contest player can get every game's first input
//! (`ply judge GAME --start`), try a bot on it, and read the formats in docs/formats.md;
//! `ply judge --json` always has the `outcome` field its help promises.

mod common;

const GAMES: [&str; 5] = ["tictactoe", "reversi", "othello", "draughts", "taunt"];

/// Runs ply with `stdin`; it must succeed. Its stdout.
fn ply(args: &[&str], stdin: &str) -> String {
    let out = common::ply(args, stdin);
    assert!(out.status.success(), "ply {args:?}: {out:?}");
    common::text(&out.stdout)
}

#[test]
fn the_first_input_of_every_game_gets_a_legal_answer_from_ply_bot() {
    let dir = tempfile::tempdir().unwrap();
    for game in GAMES {
        let start = ply(&["judge", game, "--start"], "");
        let answer = ply(&["bot", game, "--time-ms", "100"], &start);
        let state = dir.path().join(format!("{game}.txt"));
        std::fs::write(&state, &start).unwrap();
        let verdict = ply(
            &[
                "judge",
                game,
                "--state",
                state.to_str().unwrap(),
                "--move",
                "-",
                "--json",
            ],
            &answer,
        );
        let v: serde_json::Value = serde_json::from_str(&verdict).unwrap();
        assert_eq!(v["valid"], true, "{game}: {verdict}");
        // Present even while the game goes on.
        assert!(
            v.as_object().unwrap().contains_key("outcome"),
            "{game}: {verdict}"
        );
        assert_eq!(v["outcome"], serde_json::Value::Null, "{game}");
    }
}

#[test]
fn docs_formats_shows_each_game_s_real_first_input() {
    let docs = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/formats.md"
    ))
    .expect("docs/formats.md");
    for game in GAMES {
        let marker = format!("The first input (`ply judge {game} --start`):\n\n```text\n");
        let at = docs
            .find(&marker)
            .unwrap_or_else(|| panic!("docs/formats.md has no first input of {game}"));
        let block = &docs[at + marker.len()..];
        let block = &block[..block.find("```").unwrap()];
        assert_eq!(block, ply(&["judge", game, "--start"], ""), "{game}");
    }
}
