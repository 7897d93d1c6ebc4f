//! Playing replays back agrees with the engine: each recorded case (ply's own under
//! `tests/data/ants/`, and the original engine's under `../shared/ants-conformance/cases`
//! when present) is played by the engine from the recorded orders, its board is recorded
//! after every turn, and the frames rebuilt from the replay must equal those boards turn by
//! turn: every ant's square and owner, the food, the unrazed hills, the scores.

mod common;

use std::fs;
use std::path::Path;

use common::{answers_by_turn, settings_from_command};
use ply_ants::playback::FrameAnt;
use ply_ants::{AntsGame, AntsMap, AntsMatch, Loc, Playback};

/// The engine's board after one turn, in the frame's terms.
#[derive(Debug, PartialEq, Eq)]
struct Board {
    turn: u32,
    ants: Vec<(Loc, u8)>,
    food: Vec<Loc>,
    hills: Vec<(Loc, u8)>,
    scores: Vec<i64>,
}

fn engine_board(g: &AntsGame) -> Board {
    let mut ants: Vec<(Loc, u8)> = (0..g.players())
        .flat_map(|p| g.player_ants(p).into_iter().map(move |l| (l, p as u8)))
        .collect();
    ants.sort_unstable();
    let mut hills: Vec<(Loc, u8)> = g
        .hills()
        .iter()
        .filter(|h| h.end_turn.is_none_or(|e| e > g.turn()))
        .map(|h| (h.loc, h.owner))
        .collect();
    hills.sort_unstable();
    Board {
        turn: g.turn(),
        ants,
        food: g.food_locs(),
        hills,
        scores: g.scores().to_vec(),
    }
}

/// Plays a case with the engine; returns its board after every turn and its stored result.
fn play_case(dir: &Path) -> (Vec<Board>, String) {
    let map = AntsMap::parse(&fs::read_to_string(dir.join("scenario.map")).unwrap()).unwrap();
    let settings = settings_from_command(&fs::read_to_string(dir.join("command.txt")).unwrap());
    let n = map.players;
    let answers: Vec<_> = (0..n)
        .map(|b| answers_by_turn(&fs::read_to_string(dir.join(format!("bot{b}.output"))).unwrap()))
        .collect();
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut boards = vec![engine_board(m.game())];
    while !m.is_over() {
        let t = m.turn();
        m.play_turn(
            (0..n)
                .map(|b| Ok(answers[b].get(&t).cloned().unwrap_or_default()))
                .collect(),
        );
        let b = engine_board(m.game());
        if b.turn == boards.last().unwrap().turn {
            // the setup answers, or the end of the game: the board of that turn, updated
            *boards.last_mut().unwrap() = b;
        } else {
            assert_eq!(b.turn, boards.len() as u32);
            boards.push(b);
        }
    }
    let names: Vec<String> = (0..n).map(|b| format!("bot{b}")).collect();
    (boards, m.result_json(&names).unwrap().to_string())
}

fn check(name: &str, pb: &Playback, boards: &[Board], bonus_in_last: bool) {
    assert_eq!(pb.last_turn() as usize + 1, boards.len(), "{name}: turns");
    let frames: Vec<_> = pb.frames().collect();
    assert_eq!(frames.len(), boards.len(), "{name}: frames");
    for (f, b) in frames.iter().zip(boards) {
        let ants: Vec<(Loc, u8)> = f.ants.iter().map(|a: &FrameAnt| (a.loc, a.owner)).collect();
        let last = f.turn == pb.last_turn();
        let scores: Vec<i64> = if last && bonus_in_last {
            pb.final_scores()
        } else {
            f.scores.clone()
        };
        let got = Board {
            turn: f.turn,
            ants,
            food: f.food.clone(),
            hills: f.hills.clone(),
            scores,
        };
        assert_eq!(&got, b, "{name}: turn {}", f.turn);
        // random access rebuilds the same frame as stepping
        if f.turn % 7 == 0 || last {
            assert_eq!(&pb.frame(f.turn), f, "{name}: frame({})", f.turn);
        }
    }
}

fn check_case(dir: &Path, original: bool) {
    let name = dir.file_name().unwrap().to_string_lossy().to_string();
    let (boards, ply_replay) = play_case(dir);
    assert!(boards.len() >= 2, "{name}: no turn played");
    let pb = Playback::parse(&ply_replay).unwrap();
    check(&name, &pb, &boards, true);
    if original {
        // the original engine's own replay of the same game
        let text = fs::read_to_string(dir.join("replay.json")).unwrap();
        let pb = Playback::parse(&text).unwrap();
        check(&format!("{name} (original replay)"), &pb, &boards, true);
    }
}

#[test]
fn own_cases_play_back_as_the_engine_played_them() {
    let root = ply_testkit::workspace_root().join("tests/data/ants");
    let cases = ply_testkit::ants_cases_in(&root);
    assert!(!cases.is_empty());
    for c in cases {
        // the recorded replay.json is ply's own, so the original check also applies
        check_case(&c, true);
    }
}

#[test]
fn original_replays_play_back_as_the_engine_played_them() {
    let Some(cases) = ply_testkit::ants_conformance_cases() else {
        return;
    };
    for c in cases {
        check_case(&c, true);
    }
}

#[test]
fn the_shared_original_replay_plays_back() {
    let Some(path) = ply_testkit::shared_data("ants/replays/json_r3.replay") else {
        eprintln!("skipping: ../shared/data is absent");
        return;
    };
    let pb = Playback::parse(&fs::read_to_string(path).unwrap()).unwrap();
    assert_eq!(
        (pb.torus().rows, pb.torus().cols, pb.players()),
        (96, 144, 3)
    );
    assert_eq!(pb.cutoff(), Some("turn limit reached"));
    let frames: Vec<_> = pb.frames().collect();
    assert_eq!(frames.len() as u32, pb.last_turn() + 1);
    // every live ant stands on land, never two on one square, and the ant counts are the
    // visualizer's (an ant counts for turns spawn..die)
    for f in &frames {
        let mut locs: Vec<Loc> = f.ants.iter().map(|a| a.loc).collect();
        locs.dedup();
        assert_eq!(
            locs.len(),
            f.ants.len(),
            "turn {}: two ants on a square",
            f.turn
        );
        for a in &f.ants {
            assert!(
                !pb.is_water(a.loc),
                "turn {}: ant in water at {:?}",
                f.turn,
                a.loc
            );
        }
        let counts = f.ant_counts(3);
        for (p, &c) in counts.iter().enumerate() {
            let want = pb
                .ants()
                .iter()
                .filter(|a| {
                    usize::from(a.owner) == p && a.spawn_turn <= f.turn && f.turn < a.die_turn
                })
                .count();
            assert_eq!(c, want);
        }
    }
    assert_eq!(frames[0].ants.len(), 3);
}

/// `Playback::orders_on` gives back the moves the engine took: a game between two built-in
/// bots (engine seed 2, the rich food regime), replayed from its own replay's orders turn by
/// turn, writes the same replay again; and the replay keeps the seeds that give the game.
#[test]
fn recorded_orders_replay_the_game() {
    use ply_ants::Settings;
    use ply_ants::bot::{AntsBot, HunterBot, PhalanxBot, play_in_process};
    use ply_ants::mapgen::{MapGenParams, generate};
    let map = generate(
        &MapGenParams {
            players: 2,
            rows: 36,
            cols: 36,
            ..MapGenParams::default()
        },
        7,
    )
    .unwrap();
    let settings = Settings {
        engine_seed: 2,
        player_seed: 5,
        turns: 150,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings.clone()).unwrap());
    let mut bots: Vec<Box<dyn AntsBot>> =
        vec![Box::new(PhalanxBot::new(0)), Box::new(HunterBot::new(1))];
    play_in_process(&mut m, &mut bots, |_, _| {});
    let recorded = m.game().replay();
    let pb = Playback::from_json(&recorded).unwrap();
    assert_eq!(pb.seeds(), (Some(2), Some(5)));
    let moved: usize = (1..=pb.last_turn())
        .map(|t| pb.orders_on(t, 0).len() + pb.orders_on(t, 1).len())
        .sum();
    assert!(
        moved > 1000,
        "only {moved} moves in {} turns",
        pb.last_turn()
    );
    let mut again = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    while !again.is_over() {
        let t = again.turn();
        let answers = (0..2u8)
            .map(|p| {
                Ok(pb
                    .orders_on(t, p)
                    .iter()
                    .map(|&((r, c), d)| format!("o {r} {c} {}", d.letter() as char))
                    .collect())
            })
            .collect();
        again.play_turn(answers);
    }
    assert_eq!(again.game().replay(), recorded);
}
