//! `ply ladder`: the challenger against each opponent in pairs from seeded openings, with Elo
//! intervals and an SPRT. Facts checked: perfect tic-tac-toe draws itself from the start and
//! never loses to anyone from there; a pair shares its opening; the SPRT stops only at a pair
//! boundary and only past its bound; bad input exits 2 with the option named.

use std::process::{Command, Output};

fn ply(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = ply(&all);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn perfect_play_draws_itself_and_never_loses_from_the_start() {
    let v = json(&[
        "ladder",
        "tictactoe",
        "--bot=p=builtin:perfect",
        "--bot=self=builtin:perfect",
        "--bot=rand=builtin:random",
        "--pairs=15",
        "--opening-plies=0",
    ]);
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["opponent"], "self");
    assert_eq!(rows[0]["wdl"]["draws"], 30, "{}", rows[0]);
    assert_eq!(rows[0]["estimate"]["elo"], 0.0);
    assert_eq!(rows[1]["wdl"]["losses"], 0, "{}", rows[1]);
    assert!(
        rows[1]["estimate"]["low"].as_f64().unwrap() > 0.0,
        "{}",
        rows[1]
    );
}

#[test]
fn the_sprt_stops_at_a_pair_boundary_past_its_bound() {
    let v = json(&[
        "ladder",
        "othello",
        "--bot=new=builtin:alphabeta:depth=3",
        "--bot=old=builtin:random",
        "--pairs=200",
        "--sprt=0,50",
    ]);
    let row = &v["rows"][0];
    let w = &row["wdl"];
    let games = ["wins", "draws", "losses"]
        .iter()
        .map(|k| w[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(row["verdict"], "accept_h1", "{row}");
    assert!(games < 400 && games % 2 == 0, "{row}");
    // ln(0.95 / 0.05)
    assert!(row["llr"].as_f64().unwrap() >= 2.944, "{row}");
}

#[test]
fn the_markdown_table_names_the_command_and_every_opponent() {
    let out = ply(&[
        "ladder",
        "tictactoe",
        "--bot",
        "ab=builtin:alphabeta:depth=2",
        "--bot",
        "rand=builtin:random",
        "--bot",
        "greedy=builtin:greedy",
        "--pairs",
        "3",
        "--opening-plies",
        "0",
        "--markdown",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("```sh\nply ladder tictactoe --bot ab=builtin:alphabeta:depth=2"),
        "{text}"
    );
    assert!(text.contains("| rand (`builtin:random`) | 6 |"), "{text}");
    assert!(text.contains("| greedy (`builtin:greedy`) | 6 |"), "{text}");
    assert!(text.contains("\nNo game was lost by a fault"), "{text}");
    // Each side's move times, per opponent: in six colour-swapped games from the empty
    // board a side moves 3 to 5 times as X and 2 to 4 times as O, so 15 to 27 times.
    for opponent in ["rand", "greedy"] {
        for (who, other) in [("ab", opponent), (opponent, "ab")] {
            let line = text
                .lines()
                .find(|l| l.starts_with(&format!("- {who} against {other}: ")))
                .unwrap_or_else(|| panic!("no time line for {who} against {other}: {text}"));
            let moves: u32 = line
                .split(": ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!((15..=30).contains(&moves), "{line}");
            assert!(
                line.contains("99% within") && line.contains("slowest"),
                "{line}"
            );
        }
    }
}

#[test]
fn bad_input_exits_2_and_names_what_is_wrong() {
    for (args, needle) in [
        (
            vec!["ladder", "tictactoe", "--bot=a=builtin:random"],
            "at least one opponent",
        ),
        (
            vec![
                "ladder",
                "tictactoe",
                "--bot=a=builtin:random",
                "--bot=b=builtin:greedy",
                "--sprt=10",
            ],
            "--sprt \"10\"",
        ),
        (
            vec![
                "ladder",
                "tictactoe",
                "--bot=a=builtin:random",
                "--bot=b=builtin:greedy",
                "--sprt=10,0",
            ],
            "elo0 < elo1",
        ),
        (
            vec![
                "ladder",
                "tictactoe",
                "--bot=a=builtin:random",
                "--bot=a=builtin:greedy",
            ],
            "two bots are named",
        ),
        (
            vec![
                "ladder",
                "chess",
                "--bot=a=builtin:random",
                "--bot=b=builtin:greedy",
            ],
            "ply games",
        ),
        (
            vec![
                "ladder",
                "tictactoe",
                "--bot=a=builtin:random",
                "--bot=b=builtin:greedy",
                "--pairs=0",
            ],
            "--pairs",
        ),
    ] {
        let out = ply(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn a_match_with_openings_shares_one_per_pair_and_its_replays_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let replays = dir.path().join("r");
    let out = ply(&[
        "match",
        "tictactoe",
        "--p1=builtin:perfect",
        "--p2=builtin:perfect",
        "--games=4",
        "--swap",
        "--opening-plies=2",
        "--replays",
        replays.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let opening = |g: &serde_json::Value| {
        assert_eq!(g["opening"], 2, "{g}");
        (g["moves"][0]["move"].clone(), g["moves"][1]["move"].clone())
    };
    let mut files: Vec<_> = std::fs::read_dir(&replays)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 4);
    let by_number: Vec<serde_json::Value> = files
        .iter()
        .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap())
        .collect();
    assert_eq!(opening(&by_number[0]), opening(&by_number[1]));
    assert_eq!(opening(&by_number[2]), opening(&by_number[3]));
    assert_eq!(by_number[0]["moves"][0]["micros"], 0);
}

#[test]
fn the_markdown_says_who_lost_by_which_fault_in_which_pairing() {
    // A bot program that answers garbage loses each of its games by an unreadable move.
    let out = ply(&[
        "ladder",
        "tictactoe",
        "--bot=ab=builtin:alphabeta:depth=2",
        "--bot=junk=sh -c 'read line; echo nonsense'",
        "--pairs=2",
        "--opening-plies=0",
        "--time-ms=10000",
        "--markdown",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("| junk (`sh -c 'read line; echo nonsense'`) | 4 | 4 | 0 | 0 |"),
        "{text}"
    );
    let line = text
        .lines()
        .find(|l| l.starts_with("Games lost by a fault: "))
        .unwrap_or_else(|| panic!("no fault line: {text}"));
    assert!(line.contains("junk lost 4 games by "), "{line}");
    assert!(line.ends_with(" (ab against junk)."), "{line}");
    assert!(text.contains("\n- junk against ab: "), "{text}");
}
