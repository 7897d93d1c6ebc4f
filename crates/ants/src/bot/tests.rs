//! The hunter's claims, each on a small hand-made scenario played by the engine: food by
//! BFS around water, one ant per food with the nearest pairs first, no walking into a
//! losing fight (but into a winning one), razing an undefended hill, exploring, defending
//! its hill.

use super::*;
use crate::{AntsGame, AntsMap, AntsMatch, FoodMode, Settings};

/// A scenario game (the map's ants and food exactly, no food spawning).
fn scenario(rows: &[&str], turns: u32) -> AntsMatch {
    let players = 2;
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
        turns,
        ..Settings::default()
    };
    AntsMatch::new(AntsGame::new(&map, settings).unwrap())
}

/// The hunter's orders on turn 1 (player 0).
fn first_orders(m: &mut AntsMatch) -> Vec<String> {
    let mut bot = HunterBot::new(0);
    bot.answer(m.pending(0));
    m.play_turn(vec![Ok(Vec::new()); 2]);
    let mut o = bot.answer(m.pending(0));
    o.sort();
    o
}

/// Plays the game to its end: hunter as player 0, a bot that holds as player 1.
fn play_out(m: &mut AntsMatch) {
    let mut bots: Vec<Box<dyn AntsBot>> = vec![Box::new(HunterBot::new(0)), Box::new(HoldBot)];
    play_in_process(m, &mut bots, |_, _| {});
}

/// Food gathered by player 0 so far (each becomes hive food, then an ant).
fn gathered(m: &AntsMatch) -> usize {
    let g = m.game();
    g.foods.iter().filter(|f| f.owner == Some(0)).count()
}

// 20x30, player 0's ant at (5, 2) behind a wall of water at column 4; player 1 far away.
const WALL: [&str; 20] = [
    "..............................",
    "..............................",
    "....%.........................",
    "....%.........................",
    "....%.........................",
    "..a.%.*.......................",
    "....%.........................",
    "....%.........................",
    "....%.........................",
    "..............................",
    "..*...........................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "...................1..........",
    "..0.....................b.....",
    "..............................",
    "..............................",
    "..............................",
];

#[test]
fn takes_the_food_nearest_by_path_not_by_straight_line() {
    // the food at (5, 6) is 4 squares away in a straight line but 12 steps round the
    // water; the one at (10, 2) is 5 away both ways
    let mut m = scenario(&WALL, 8);
    assert_eq!(first_orders(&mut m), ["o 5 2 s"]);
    let mut m = scenario(&WALL, 5);
    play_out(&mut m);
    let g = m.game();
    let food = &g.foods;
    assert_eq!(
        food.iter().find(|f| f.loc == (10, 2)).unwrap().owner,
        Some(0)
    );
    assert_eq!(
        food.iter().find(|f| f.loc == (10, 2)).unwrap().end_turn,
        Some(4)
    );
}

#[test]
fn pairs_ants_with_food_nearest_pair_first() {
    // ants at columns 3 and 10, food at columns 7 and 12 of one row: the ant at 10 takes
    // the food at 12 (2 away) and the ant at 3 the food at 7 (4 away); taking the food in
    // square order instead would send the ant at 10 to column 7 and the other 9 squares
    let mut rows = vec!["..............................".to_string(); 20];
    rows[5] = "...a...*..a.*.................".to_string();
    rows[15] = "...................1..........".to_string();
    rows[16] = "..0.....................b.....".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 8);
    assert_eq!(first_orders(&mut m), ["o 5 10 e", "o 5 3 e"]);
    let mut m = scenario(&rows, 3);
    play_out(&mut m);
    assert_eq!(gathered(&m), 2, "both food gathered by turn 3");
}

// Player 0's ant at (5, 4) wants the food at (5, 12); two enemy ants hold at (4, 8) and
// (6, 8), one step from attack range of (5, 5).
const PAIR: [&str; 20] = [
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "........b.....................",
    "....a.......*.................",
    "........b.....................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "..............................",
    "...................1..........",
    "..0...........................",
    "..............................",
    "..............................",
    "..............................",
];

#[test]
fn does_not_walk_into_a_losing_fight() {
    let mut m = scenario(&PAIR, 10);
    let orders = first_orders(&mut m);
    assert!(!orders.contains(&"o 5 4 e".to_string()), "{orders:?}");
    let mut m = scenario(&PAIR, 10);
    play_out(&mut m);
    assert_eq!(m.game().player_ants(0).len(), 1, "the lone ant lives");
    assert_eq!(m.game().player_ants(1).len(), 2);
}

#[test]
fn walks_into_a_winning_fight() {
    // the same with three of our ants against one enemy: they advance and kill it
    let mut rows = PAIR.map(str::to_string);
    rows[4] = "....a...b.....................".to_string();
    rows[5] = "....a.......*.................".to_string();
    rows[6] = "....a..........................."
        .chars()
        .take(30)
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 10);
    play_out(&mut m);
    assert_eq!(m.game().player_ants(1).len(), 0, "the enemy ant died");
    assert!(m.game().player_ants(0).len() >= 2);
}

#[test]
fn razes_an_undefended_hill() {
    // one ant 5 squares from player 1's hill; player 1's only ant is far away
    let mut rows = vec!["..............................".to_string(); 20];
    rows[5] = ".....a....1...................".to_string();
    rows[15] = "........................b.....".to_string();
    rows[16] = "..0...........................".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 12);
    play_out(&mut m);
    let g = m.game();
    assert_eq!(
        g.hills().iter().find(|h| h.owner == 1).unwrap().killed_by,
        Some(0)
    );
    assert_eq!(g.scores()[0], 3);
}

#[test]
fn explores_what_it_has_not_seen() {
    // one ant on an open 40x40 map with nothing in view: it should keep finding new squares
    let mut rows = vec!["........................................".to_string(); 40];
    rows[5] = ".....a..................................".to_string();
    rows[6] = ".....0..................................".to_string();
    rows[30] = "........................1b..............".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 40);
    let start = m.game().revealed[0].iter().filter(|&&r| r).count();
    play_out(&mut m);
    let seen = m.game().revealed[0].iter().filter(|&&r| r).count();
    // one ant sees 241 squares; 40 turns of walking reveal far more
    assert_eq!(start, 241);
    assert!(
        seen > 3 * start,
        "saw {seen} squares (started with {start})"
    );
}

#[test]
fn defends_its_hill_against_an_intruder() {
    // an enemy ant 3 squares from our hill, 8 from our ants (in view): they leave exploring
    // to go for it and attack it side by side, two against one, so it dies and they live
    // (the first version, and this one before support meant "can reach attack range on
    // the same turn", came in single file and traded an ant for it)
    let mut rows = vec!["..............................".to_string(); 20];
    rows[2] = ".........................1....".to_string();
    rows[10] = ".....a....0..b................".to_string();
    rows[11] = ".....a........................".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 10);
    let orders = first_orders(&mut m);
    // both step closer to the intruder (no water: steps are Manhattan distance)
    assert_eq!(orders.len(), 2, "{orders:?}");
    for o in &orders {
        let w: Vec<&str> = o.split(' ').collect();
        let (r, c): (i64, i64) = (w[1].parse().unwrap(), w[2].parse().unwrap());
        let (dr, dc) = Dir::from_letter(w[3]).unwrap().delta();
        let far = |r: i64, c: i64| (r - 10).abs() + (c - 13).abs();
        assert!(far(r + i64::from(dr), c + i64::from(dc)) < far(r, c), "{o}");
    }
    let mut m = scenario(&rows, 10);
    play_out(&mut m);
    let g = m.game();
    assert_eq!(g.player_ants(1), [], "the intruder died");
    assert_eq!(g.player_ants(0).len(), 2, "both defenders live");
    let ours = g.hills().iter().find(|h| h.owner == 0).unwrap();
    assert_eq!(ours.killed_by, None, "our hill stands");
}
