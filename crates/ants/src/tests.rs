//! Facts the engine must satisfy: the spec's battle examples, collisions, razing, scoring,
//! spawning order, gathering and order validation.

use super::*;

fn scenario(rows: &[&str]) -> AntsGame {
    scenario_with(rows, Settings::default())
}

fn scenario_with(rows: &[&str], settings: Settings) -> AntsGame {
    let players = rows
        .iter()
        .flat_map(|r| r.chars())
        .filter_map(|c| match c {
            'a'..='j' => Some(c as u8 - b'a'),
            'A'..='J' => Some(c as u8 - b'A'),
            '0'..='9' => Some(c as u8 - b'0'),
            _ => None,
        })
        .max()
        .unwrap_or(1)
        .max(1)
        + 1;
    let mut text = format!(
        "rows {}\ncols {}\nplayers {players}\n",
        rows.len(),
        rows[0].len()
    );
    for r in rows {
        text.push_str(&format!("m {r}\n"));
    }
    let map = AntsMap::parse(&text).unwrap();
    let settings = Settings {
        scenario: true,
        food: FoodMode::None,
        ..settings
    };
    AntsGame::new(&map, settings).unwrap()
}

/// Plays one turn with the given orders per player.
fn turn(g: &mut AntsGame, orders: &[&[&str]]) {
    g.start_turn();
    for (p, o) in orders.iter().enumerate() {
        g.set_orders(p, o);
    }
    g.finish_turn();
}

fn alive(g: &AntsGame) -> Vec<(Loc, u8)> {
    let mut v: Vec<(Loc, u8)> = (0..g.players())
        .flat_map(|p| g.player_ants(p).into_iter().map(move |l| (l, p as u8)))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn one_versus_one_both_die() {
    let mut g = scenario(&[".........", "..a.b....", "........."]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g), []);
}

#[test]
fn out_of_range_ants_do_not_fight() {
    // distance² 9 > attackradius2 5
    let mut g = scenario(&["..........", "..a..b....", ".........."]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g).len(), 2);
}

#[test]
fn two_versus_one_the_single_ant_dies() {
    let mut g = scenario(&["..........", "..a.b.....", "....b.....", ".........."]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g), [((1, 4), 1), ((2, 4), 1)]);
}

#[test]
fn abc_sandwich_only_the_middle_dies() {
    // A.B.C: B fights two enemies, A and C one each, so only B dies.
    let mut g = scenario(&["...........", "..a.b.c....", "..........."]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g), [((1, 2), 0), ((1, 6), 2)]);
}

#[test]
fn bob_and_bill_versus_roy_and_ralph_one_of_each_dies() {
    // Bob(a) Roy(b) Bill(a) Ralph(b) in a row, 2 apart: Roy and Bill each face two enemies,
    // one of which faces only one, so Roy and Bill die; Bob and Ralph live.
    let mut g = scenario(&["............", ".a.b.a.b....", "............"]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g), [((1, 1), 0), ((1, 7), 1)]);
}

#[test]
fn focus_rule_wraps_around_the_torus() {
    let mut g = scenario(&["b.......a", "........."]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g), []);
}

#[test]
fn collisions_kill_every_ant_on_the_square_even_friends() {
    let mut g = scenario(&[".......", ".a.a...", ".......", "....b.b", "......."]);
    turn(&mut g, &[&["o 1 1 e", "o 1 3 w"], &["o 3 4 e", "o 3 6 w"]]);
    assert_eq!(alive(&g), []);
    let dead: Vec<_> = g.all_ants().iter().map(|a| a.die_turn).collect();
    assert_eq!(dead, [Some(1); 4]);
    // the dead ants are reported at the square they collided on
    let s = g.player_state(0);
    assert!(s.contains("d 1 2 0\nd 1 2 0\n"), "{s}");
}

#[test]
fn swapping_places_does_not_collide() {
    let mut g = scenario(&["..........", ".aa.......", "..........", "......b..."]);
    turn(&mut g, &[&["o 1 1 e", "o 1 2 w"]]);
    assert_eq!(alive(&g).len(), 3);
}

#[test]
fn razing_scores_two_for_the_razer_and_minus_one_for_the_owner() {
    let mut g = scenario(&["..........", ".0b.......", "..........", ".......1a."]);
    assert_eq!(g.scores(), [1, 1]);
    turn(&mut g, &[&[], &["o 1 2 w"]]);
    assert_eq!(g.scores(), [0, 3]);
    assert_eq!(g.hills()[0].killed_by, Some(1));
    assert_eq!(g.hills()[0].end_turn, Some(1));
    // standing on it again changes nothing
    turn(&mut g, &[&[], &[]]);
    assert_eq!(g.scores(), [0, 3]);
}

#[test]
fn own_ant_on_own_hill_does_not_raze() {
    let mut g = scenario(&["..........", ".0a.......", "..........", "......1b.."]);
    turn(&mut g, &[&["o 1 2 w"]]);
    assert_eq!(g.scores(), [1, 1]);
    assert_eq!(g.hills()[0].killed_by, None);
}

#[test]
fn a_crash_forfeits_every_own_hill_at_once() {
    let mut g = scenario(&["0........2", ".a.......c", "..........", "1........."]);
    g.kill_player(1);
    assert_eq!(g.scores(), [1, 0, 1]);
    assert!(!g.is_alive(1));
    // the hill still stands and the ants stay
    assert_eq!(g.hills()[1].killed_by, None);
}

#[test]
fn lone_survivor_takes_the_remaining_hills() {
    let mut g = scenario(&["0.........", ".a........", "..........", ".....1...."]);
    assert!(g.game_over());
    assert_eq!(g.cutoff(), Some(Cutoff::LoneSurvivor));
    g.finish_game();
    assert_eq!(g.scores(), [3, 0]);
}

#[test]
fn gathering_one_owner_feeds_the_hive_and_spawns_next_turn() {
    let mut g = scenario(&[
        "....................",
        ".A*.................",
        "....................",
        "..........1.b.......",
    ]);
    turn(&mut g, &[&["o 1 1 s"]]);
    // spawning comes before gathering: the food gathered this turn waits in the hive
    assert_eq!(g.hive(), [0, 0]);
    // the ant moved to (2,1), out of reach; step back next to the food
    turn(&mut g, &[&["o 2 1 e"]]);
    assert_eq!(g.hive(), [1, 0]);
    turn(&mut g, &[]);
    assert_eq!(g.hive(), [0, 0]);
    assert_eq!(g.player_ants(0), [(1, 1), (2, 2)]);
}

#[test]
fn contested_food_is_destroyed() {
    // With the default radii two enemies next to one food always fight first (distance² at
    // most 4 <= 5) and the focus rule leaves at most one of them, so a contest needs a
    // smaller attack radius.
    let small = Settings {
        attackradius2: 1,
        ..Settings::default()
    };
    let mut g = scenario_with(&["...........", ".a.*.b.....", "..........."], small);
    turn(&mut g, &[&["o 1 1 e"], &["o 1 5 w"]]);
    assert_eq!(alive(&g).len(), 2);
    assert_eq!(g.food_locs(), []);
    assert_eq!(g.hive(), [0, 0]);
    assert_eq!(g.foods[0].end_turn, Some(1));
    assert_eq!(g.foods[0].owner, None);
}

#[test]
fn least_recently_touched_hill_spawns_first() {
    // player 0 has hills X (1,1) with an ant on it and Y (1,8); food gathered at turn 1.
    let mut g = scenario(&[
        "...............",
        ".A.*....0......",
        "...............",
        "...............",
        "...........1..b",
    ]);
    // turn 1: the ant on X stays (X touched at turn 1)
    turn(&mut g, &[&[]]);
    // turn 2: an ant next to the food? none: move towards it
    turn(&mut g, &[&["o 1 1 e"]]);
    assert_eq!(g.hive(), [1, 0]);
    // turn 3: X was touched at turn 1, Y never (0): Y spawns
    turn(&mut g, &[&[]]);
    assert_eq!(g.player_ants(0), [(1, 2), (1, 8)]);
}

#[test]
fn order_validation_classes() {
    let mut g = scenario(&["...%......", ".a.a*.....", "..........", ".........b"]);
    let r = g.set_orders(
        0,
        &[
            "o 1 1 E",
            "o 1 1 s",
            "o 9 9 n",
            "o 3 9 n",
            "o 1 3 e",
            "o -3 1 n",
            "o -3 -9 n",
            "o 0 0 n",
            "go 1 1 n",
        ],
    );
    assert_eq!(r.valid, ["o 1 1 e"]);
    assert_eq!(
        r.ignored,
        [("o 1 3 e".to_string(), IgnoredOrder::MoveBlocked)]
    );
    let kinds: Vec<_> = r.invalid.iter().map(|(l, k)| (l.as_str(), *k)).collect();
    assert_eq!(
        kinds,
        [
            ("go 1 1 n", InvalidOrder::UnknownAction),
            ("o 1 1 s", InvalidOrder::Duplicate),
            ("o 9 9 n", InvalidOrder::OutOfBounds),
            ("o 3 9 n", InvalidOrder::NotPlayerAnt),
            // -3 wraps to row 1, as Python's negative indexing does, then is refused
            ("o -3 1 n", InvalidOrder::OutOfBounds),
            ("o -3 -9 n", InvalidOrder::OutOfBounds),
            ("o 0 0 n", InvalidOrder::NotPlayerAnt),
        ]
    );
}

#[test]
fn bots_see_owners_renumbered_in_order_of_first_sighting() {
    let mut g = scenario(&[".....c....", "a......b..", "..........", ".........."]);
    let s = g.player_state(1);
    // b (player 1) sees itself as 0, then c (first in the row-major scan of its vision) as
    // 1, then a as 2
    assert_eq!(s, "a 0 5 1\na 1 0 2\na 1 7 0\n");
    assert_eq!(
        g.order_for_player(1, &[10, 11, 12]),
        [Some(11), Some(12), Some(10)]
    );
}

#[test]
fn map_errors_name_line_and_column() {
    let e = AntsMap::parse("rows 1\ncols 3\nplayers 2\nm .?.\n").unwrap_err();
    assert_eq!((e.line, e.column), (4, 4));
    let e = AntsMap::parse("rows 1\ncols 3\nm ...\n").unwrap_err();
    assert_eq!(e.line, 3);
    assert!(e.message.contains("players"));
    let e = AntsMap::parse("rows 1\ncols 3\nplayers 2\nm ....\n").unwrap_err();
    assert!(e.message.contains("cols"), "{e}");
    let e = AntsMap::parse("rows 1\ncols 3\nplayers 2\nm .c.\n").unwrap_err();
    assert_eq!((e.line, e.column), (4, 4));
    let e = AntsMap::parse("rows 1\ncols 3\nplayers 11\n").unwrap_err();
    assert_eq!(e.line, 3);
    let e = AntsMap::parse("rows 2\ncols 3\nplayers 2\nm ...\n").unwrap_err();
    assert!(e.message.contains("rows"));
}

#[test]
fn map_round_trips_through_text() {
    let text = "rows 2\ncols 4\nplayers 2\nm a0*%\nm .B1.\n";
    let m = AntsMap::parse(text).unwrap();
    assert_eq!(m.to_text(), text);
}

#[test]
fn neighbourhood_sizes() {
    let t = Torus { rows: 60, cols: 90 };
    assert_eq!(t.neighbourhood(1).len(), 4);
    assert_eq!(t.neighbourhood(5).len(), 20);
    // squares within radius² 77 other than the centre: 4 * (sum over dr of the dc) ...
    let brute = (-8i32..=8)
        .flat_map(|r| (-8i32..=8).map(move |c| r * r + c * c))
        .filter(|&d| d > 0 && d <= 77)
        .count();
    assert_eq!(t.neighbourhood(77).len(), brute);
    // on a map narrower than the diameter the offsets alias, as in the original
    let small = Torus { rows: 3, cols: 3 };
    assert_eq!(small.neighbourhood(5).len(), 20);
}

#[test]
fn beta_scoring_shares_two_points_per_kill_among_the_killers() {
    let beta = Settings {
        scoring: Scoring::Beta,
        ..Settings::default()
    };
    // 2 vs 1: the single b dies, its two enemies share 2 points (1 each, both player 0)
    let mut g = scenario_with(
        &["..........", "..a.b.....", "....a.....", ".........."],
        beta.clone(),
    );
    assert_eq!(g.scores(), [0, 0]);
    turn(&mut g, &[]);
    assert_eq!(alive(&g), [((1, 2), 0), ((2, 4), 0)]);
    assert_eq!(g.scores(), [2, 0]);
    // 1 vs 1 plus a third player: each death gives its one killer 2
    let mut g = scenario_with(
        &["...........", "..a.b......", "...........", ".......c..."],
        beta.clone(),
    );
    turn(&mut g, &[]);
    assert_eq!(g.scores(), [2, 2, 0]);
    // without hills the hill rules' "rank stabilized" ends a game at once; the beta's does not
    let far = [".a........", "..........", "..........", "......b..."];
    assert!(scenario(&far).game_over());
    assert!(!scenario_with(&far, beta).game_over());
}

#[test]
fn beta_scoring_counts_spawned_ants() {
    let beta = Settings {
        scoring: Scoring::Beta,
        ..Settings::default()
    };
    let mut g = scenario_with(
        &[
            "....................",
            ".A*.................",
            "....................",
            "..........1.b.......",
        ],
        beta,
    );
    turn(&mut g, &[&["o 1 1 s"]]);
    turn(&mut g, &[&["o 2 1 e"]]);
    assert_eq!(g.scores(), [0, 0]);
    turn(&mut g, &[]);
    // the gathered food spawned an ant: 1 point
    assert_eq!(g.scores(), [1, 0]);
}

#[test]
fn symmetric_food_starts_with_food_visible_per_player_at_symmetric_squares() {
    let p = mapgen::MapGenParams {
        players: 4,
        rows: 36,
        cols: 36,
        ..mapgen::MapGenParams::default()
    };
    let map = mapgen::generate(&p, 5).unwrap();
    let settings = Settings {
        engine_seed: 3,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let g = m.game();
    let food = g.food_locs();
    let visible = food.len();
    assert!(visible > 0 && visible.is_multiple_of(4), "{visible}");
    // the generator's maps repeat every 18 squares: each food has its three images
    for &(r, c) in &food {
        for (dr, dc) in [(0, 18), (18, 0), (18, 18)] {
            assert!(food.contains(&((r + dr) % 36, (c + dc) % 36)), "{r} {c}");
        }
    }
    // and food keeps coming, a whole set at a time
    for _ in 0..60 {
        m.play_turn(vec![Ok(Vec::new()); 4]);
    }
    let later = m.game().food_locs().len() + m.game().hive().iter().sum::<i64>() as usize;
    assert!(later > visible && later.is_multiple_of(4), "{later}");
}

#[test]
fn hunter_outgrows_a_bot_that_holds() {
    let p = mapgen::MapGenParams {
        players: 2,
        rows: 24,
        cols: 48,
        ..mapgen::MapGenParams::default()
    };
    let map = mapgen::generate(&p, 2).unwrap();
    let settings = Settings {
        turns: 150,
        engine_seed: 1,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut bots = vec![
        bot::BuiltinBot::Hunter.create(0),
        bot::BuiltinBot::Hold.create(1),
    ];
    bot::play_in_process(&mut m, &mut bots, |_, _| {});
    let (hunter, hold) = (m.game().player_ants(0).len(), m.game().player_ants(1).len());
    assert!(
        hunter > 3 * hold.max(1),
        "hunter {hunter} ants, hold {hold}"
    );
}
