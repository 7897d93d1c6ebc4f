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

/// A seeded random local battle on a 16x16 scenario map with three players: hills in the
/// corners, a few water squares, 2 to 14 ants in the middle, and one random move per ant
/// (holding or one step onto land) with no two ants ending on one square. Returns the map
/// rows and every ant's (start, end, owner).
fn random_battle(seed: u64) -> (Vec<String>, Vec<(Loc, Loc, u8)>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let t = Torus { rows: 16, cols: 16 };
    let mut grid = vec![vec![b'.'; 16]; 16];
    grid[0][0] = b'0';
    grid[0][8] = b'1';
    grid[8][0] = b'2';
    let mut inner = || (rng.random_range(4..13usize), rng.random_range(4..13usize));
    let mut water = Vec::new();
    for _ in 0..6 {
        water.push(inner());
    }
    let mut ants: Vec<(Loc, u8)> = Vec::new();
    let count = 2 + (seed % 13) as usize;
    while ants.len() < count {
        let l = inner();
        if !water.contains(&l) && ants.iter().all(|&(a, _)| a != l) {
            ants.push((l, (ants.len() % 3) as u8));
        }
    }
    for &(r, c) in &water {
        grid[r][c] = b'%';
    }
    for &((r, c), o) in &ants {
        grid[r][c] = b'a' + o;
    }
    let mut ends: Vec<Loc> = ants
        .iter()
        .map(|&(a, _)| {
            let d = rng.random_range(0..5usize);
            let l = if d == 4 { a } else { t.step(a, Dir::ALL[d]) };
            if water.contains(&l) { a } else { l }
        })
        .collect();
    // while two ants end on one square, the later mover holds
    loop {
        let clash = (0..ends.len())
            .flat_map(|i| (0..ends.len()).map(move |j| (i, j)))
            .find(|&(i, j)| i < j && ends[i] == ends[j]);
        let Some((i, j)) = clash else { break };
        let k = if ends[j] != ants[j].0 { j } else { i };
        ends[k] = ants[k].0;
    }
    let rows = grid
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect();
    let out = ants
        .iter()
        .zip(ends)
        .map(|(&(a, o), e)| (a, e, o))
        .collect();
    (rows, out)
}

#[test]
fn battle_simulation_predicts_the_engines_deaths() {
    // the colony's battle model against the engine's own combat resolution: after the same
    // moves, the focus rule as the bot simulates it kills exactly the ants the engine kills
    let t = Torus { rows: 16, cols: 16 };
    let mut deaths = 0;
    for seed in 0..300 {
        let (rows, ants) = random_battle(seed);
        let mut text = "rows 16\ncols 16\nplayers 3\n".to_string();
        for r in &rows {
            text.push_str(&format!("m {r}\n"));
        }
        let map = AntsMap::parse(&text).unwrap();
        let settings = Settings {
            scenario: true,
            food: FoodMode::None,
            turns: 5,
            ..Settings::default()
        };
        let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
        m.play_turn(vec![Ok(Vec::new()); 3]);
        let mut orders = vec![Vec::new(); 3];
        for &(a, e, o) in &ants {
            if let Some(d) = Dir::ALL.into_iter().find(|&d| t.step(a, d) == e) {
                orders[usize::from(o)].push(format!("o {} {} {}", a.0, a.1, d.letter() as char));
            }
        }
        m.play_turn(orders.into_iter().map(Ok).collect());
        let after: Vec<(Loc, u8)> = ants.iter().map(|&(_, e, o)| (e, o)).collect();
        let predicted = battle::focus_deaths(t, 5, &after);
        for (k, &(a, e, _)) in ants.iter().enumerate() {
            let ant = m
                .game()
                .all_ants()
                .iter()
                .find(|x| x.initial_loc == a)
                .unwrap();
            assert_eq!(ant.loc, e, "seed {seed}: the engine moved {a:?} as ordered");
            assert_eq!(
                ant.die_turn.is_some(),
                predicted[k],
                "seed {seed}: ant at {e:?}\n{}",
                rows.join("\n")
            );
            deaths += usize::from(predicted[k]);
        }
    }
    // the positions are crowded enough that the rule is exercised, not only "nobody dies"
    assert!(deaths > 300, "{deaths} deaths");
}

/// A phalanx bot with the defaults.
fn phalanx_against(m: &mut AntsMatch, other: Box<dyn AntsBot>) {
    let mut bots: Vec<Box<dyn AntsBot>> = vec![Box::new(PhalanxBot::new(0)), other];
    play_in_process(m, &mut bots, |_, _| {});
}

#[test]
fn phalanx_does_not_walk_into_a_losing_fight() {
    // PAIR's two enemies hold; the lone ant wants the food behind them but must not walk
    // into range of both (the search sees the focus rule kill it)
    let mut m = scenario(&PAIR, 10);
    phalanx_against(&mut m, Box::new(HoldBot));
    assert_eq!(m.game().player_ants(0).len(), 1, "our ant lives");
    assert_eq!(m.game().player_ants(1).len(), 2);
}

#[test]
fn phalanx_walks_into_a_winning_fight() {
    // three of our ants against one enemy that holds: they close in and kill it, losing
    // none (the search sees every reply of the enemy)
    let mut rows = PAIR.map(str::to_string);
    rows[4] = "....a...b.....................".to_string();
    rows[5] = "....a.......*.................".to_string();
    rows[6] = "....a.........................".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 10);
    phalanx_against(&mut m, Box::new(HoldBot));
    assert_eq!(m.game().player_ants(1).len(), 0, "the enemy ant died");
    assert_eq!(m.game().player_ants(0).len(), 3, "none of ours died");
}

/// Plain max-min over our part's moves against every enemy reply (every square of
/// `reach`, no cut, no merging of idle moves), with the phalanx's score: the reference
/// the search must agree with.
fn plain_max_min(s: &mut phalanx::Search<'_>, all_theirs: &[Vec<Loc>]) -> i64 {
    fn ours(s: &mut phalanx::Search<'_>, th: &[Vec<Loc>], i: usize) -> i64 {
        if i == s.ours.len() {
            return theirs(s, th, 0);
        }
        let mut best = i64::MIN;
        for l in s.ours[i].clone() {
            if s.cur.contains(&l) || s.swaps(i, l) {
                continue;
            }
            s.cur.push(l);
            best = best.max(ours(s, th, i + 1));
            s.cur.pop();
        }
        best
    }
    fn theirs(s: &mut phalanx::Search<'_>, th: &[Vec<Loc>], j: usize) -> i64 {
        if j == th.len() {
            return s.score();
        }
        let mut worst = i64::MAX;
        for &q in &th[j] {
            if s.cur.contains(&q) || s.cur_theirs.contains(&q) {
                continue;
            }
            s.cur_theirs.push(q);
            worst = worst.min(theirs(s, th, j + 1));
            s.cur_theirs.pop();
        }
        if worst == i64::MAX {
            s.cur_theirs.push(s.theirs[j].0);
            worst = theirs(s, th, j + 1);
            s.cur_theirs.pop();
        }
        worst
    }
    ours(s, all_theirs, 0)
}

#[test]
fn phalanx_search_agrees_with_plain_max_min() {
    // seeded random local battles (two players, water, 2 to 8 ants): the search's cut
    // replies and merged idle moves give the same best worst case as the plain max-min,
    // and its chosen moves reach that value against every reply
    let t = Torus { rows: 16, cols: 16 };
    let mut fights = 0;
    for seed in 0..200u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut inner = || (rng.random_range(5..11usize), rng.random_range(5..11usize));
        let water: Vec<Loc> = (0..5).map(|_| inner()).collect();
        let count = 2 + (seed % 7) as usize;
        let mut ants: Vec<(Loc, u8)> = Vec::new();
        while ants.len() < count {
            let l = inner();
            if !water.contains(&l) && ants.iter().all(|&(a, _)| a != l) {
                ants.push((l, (ants.len() % 2) as u8));
            }
        }
        let land = |l: Loc| !water.contains(&l);
        let reach = |a: Loc| -> Vec<Loc> {
            std::iter::once(a)
                .chain(Dir::ALL.into_iter().map(|d| t.step(a, d)))
                .filter(|&l| l == a || land(l))
                .collect()
        };
        let ours: Vec<Loc> = ants.iter().filter(|a| a.1 == 0).map(|a| a.0).collect();
        let foes: Vec<Loc> = ants.iter().filter(|a| a.1 == 1).map(|a| a.0).collect();
        let opts: Vec<Vec<Loc>> = ours.iter().map(|&a| reach(a)).collect();
        let all_theirs: Vec<Vec<Loc>> = foes.iter().map(|&e| reach(e)).collect();
        let merged: Vec<Vec<Loc>> = foes
            .iter()
            .map(|&e| phalanx::enemy_options(t, 5, reach(e), e, &opts))
            .collect();
        let hills: Vec<Loc> = Vec::new();
        // closing in, keeping away and the threat field (a random one) in turn
        let distance = match seed % 3 {
            0 => phalanx::Distance::CloseIn,
            1 => phalanx::Distance::KeepAway,
            _ => phalanx::Distance::Threat,
        };
        let danger: Vec<u8> = (0..t.area()).map(|_| rng.random_range(0..3u8)).collect();
        let new = |theirs: &[Vec<Loc>]| phalanx::Search {
            t,
            r2: 5,
            homes: ours.clone(),
            ours: opts.clone(),
            theirs: foes
                .iter()
                .zip(theirs)
                .map(|(&e, o)| (e, 1, o.clone()))
                .collect(),
            fixed: Vec::new(),
            still: Vec::new(),
            enemy_hills: &hills,
            my_hills: &hills,
            home_worth: 0,
            prune: false,
            exact_cut: false,
            rally: &[],
            danger: &danger,
            kill: 512,
            loss: 768,
            distance,
            budget: u64::MAX,
            deadline: None,
            ticks: 0,
            stopped: false,
            best: i64::MIN,
            best_moves: Vec::new(),
            cur: Vec::new(),
            cur_theirs: Vec::new(),
        };
        let mut s = new(&merged);
        s.max(0);
        let mut plain = new(&all_theirs);
        let want = plain_max_min(&mut plain, &all_theirs);
        assert_eq!(s.best, want, "seed {seed}: {ants:?} water {water:?}");
        // the chosen moves, held fixed, are worth the same against every reply
        let mut check = new(&all_theirs);
        check.ours = s.best_moves.iter().map(|&l| vec![l]).collect();
        assert_eq!(plain_max_min(&mut check, &all_theirs), want, "seed {seed}");
        fights += usize::from(want.abs() >= 180);
        // replies pruned to the squares our ants hold: the same value and moves as good,
        // also with our last ant fixed where it stands (the fixed count for the pruning)
        for fix in [false, true] {
            if fix && ours.len() < 2 {
                continue;
            }
            let cut_fixed = |s: &mut phalanx::Search<'_>| {
                if fix {
                    s.ours.pop();
                    s.homes.pop();
                    s.fixed.push(*ours.last().unwrap());
                }
            };
            let mut plain = new(&all_theirs);
            cut_fixed(&mut plain);
            let want = plain_max_min(&mut plain, &all_theirs);
            let mut p = new(&merged);
            cut_fixed(&mut p);
            p.prune = true;
            p.max(0);
            assert_eq!(p.best, want, "seed {seed}, pruned, fixed {fix}");
            let mut check = new(&all_theirs);
            cut_fixed(&mut check);
            check.ours = p.best_moves.iter().map(|&l| vec![l]).collect();
            assert_eq!(plain_max_min(&mut check, &all_theirs), want, "seed {seed}");
        }
    }
    // some positions have kills or losses in their value, not only distances
    assert!(fights > 20, "{fights} fights");
}

/// `phalanx` (seat 0) plays a whole 300-turn game against the hunter on a generated
/// 24x48 map, every order it gives accepted by the engine and orders on over 50 turns; the
/// bot as the game left it, for its work counters.
fn whole_game_against_the_hunter(mut phalanx: PhalanxBot) -> PhalanxBot {
    let p = crate::mapgen::MapGenParams {
        players: 2,
        rows: 24,
        cols: 48,
        ..crate::mapgen::MapGenParams::default()
    };
    let map = crate::mapgen::generate(&p, 2).unwrap();
    let settings = Settings {
        turns: 300,
        engine_seed: 1,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut hunter = HunterBot::new(1);
    let mut moving = 0;
    while !m.is_over() {
        let a = if m.expects_answer(0) {
            phalanx.answer(m.pending(0))
        } else {
            Vec::new()
        };
        let b = if m.expects_answer(1) {
            hunter.answer(m.pending(1))
        } else {
            Vec::new()
        };
        moving += usize::from(!a.is_empty());
        let reports = m.play_turn(vec![Ok(a), Ok(b)]);
        if let Some(Some(r)) = reports.first() {
            assert!(r.invalid.is_empty() && r.ignored.is_empty(), "{r:?}");
        }
    }
    assert!(moving > 50, "{moving} turns with orders");
    phalanx
}

/// A whole game of the phalanx with `params` against the hunter: every order accepted (by
/// `whole_game_against_the_hunter`), some battle searched, and no turn's battles over the
/// node budget (the bound that keeps a turn inside its time).
fn assert_a_whole_game_stays_in_budget(params: PhalanxParams) {
    let phalanx = whole_game_against_the_hunter(PhalanxBot::with_params(0, params));
    assert!(phalanx.most_battle_work() > 0, "some battle was searched");
    assert!(phalanx.most_battle_work() <= phalanx::BATTLE_BUDGET);
}

#[test]
fn phalanx_orders_are_legal_and_its_battles_stay_in_budget() {
    // a whole game of phalanx against hunter on a generated map: every order the engine
    // receives from the phalanx is accepted, and no turn's battles spend more than the
    // node budget (the bound that keeps a turn inside its time)
    assert_a_whole_game_stays_in_budget(PhalanxParams::default());
}

#[test]
fn phalanx_comes_first_among_four() {
    // a 4-player generated map: phalanx, hunter, random and hold; the phalanx ends with
    // the most ants and no fewer points than any other
    let p = crate::mapgen::MapGenParams {
        players: 4,
        rows: 36,
        cols: 36,
        ..crate::mapgen::MapGenParams::default()
    };
    let map = crate::mapgen::generate(&p, 5).unwrap();
    let settings = Settings {
        turns: 300,
        engine_seed: 1,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let mut bots: Vec<Box<dyn AntsBot>> = vec![
        Box::new(PhalanxBot::new(0)),
        Box::new(HunterBot::new(1)),
        Box::new(RandomBot::new(2)),
        Box::new(HoldBot),
    ];
    play_in_process(&mut m, &mut bots, |_, _| {});
    let g = m.game();
    let ants: Vec<usize> = (0..4).map(|p| g.player_ants(p).len()).collect();
    let scores = g.scores();
    assert!(
        ants[0] > ants[1..].iter().copied().max().unwrap(),
        "{ants:?}"
    );
    assert!(
        scores[0] >= scores[1..].iter().copied().max().unwrap(),
        "{scores:?}"
    );
}

/// A seeded random torus for the economy's differential tests: 12 to 27 rows and columns,
/// about one square in six water.
fn random_torus(rng: &mut ChaCha8Rng) -> (Torus, Vec<bool>) {
    let t = Torus {
        rows: rng.random_range(12..28),
        cols: rng.random_range(12..28),
    };
    let water = (0..t.area()).map(|_| rng.random_range(0..6) == 0).collect();
    (t, water)
}

/// Plain BFS distances from one square over land (u32::MAX: unreachable).
fn plain_bfs(t: Torus, water: &[bool], from: Loc) -> Vec<u32> {
    let mut d = vec![u32::MAX; t.area()];
    d[t.index(from)] = 0;
    let mut q = std::collections::VecDeque::from([from]);
    while let Some(c) = q.pop_front() {
        for dir in Dir::ALL {
            let n = t.step(c, dir);
            let i = t.index(n);
            if !water[i] && d[i] == u32::MAX {
                d[i] = d[t.index(c)] + 1;
                q.push_back(n);
            }
        }
    }
    d
}

/// A random land square.
fn random_land(rng: &mut ChaCha8Rng, t: Torus, water: &[bool]) -> Loc {
    loop {
        let l = (rng.random_range(0..t.rows), rng.random_range(0..t.cols));
        if !water[t.index(l)] {
            return l;
        }
    }
}

#[test]
fn owned_area_agrees_with_a_bfs_from_each_ant() {
    // seeded random maps with water and 2 to 12 ants of both sides (some on one square):
    // the one multi-source BFS gives each square the same owner as a plain BFS from each
    // ant (the nearest, the first in order among equally near ones), so the area's worth
    // is the same
    let mut marks = economy::Marks::default();
    let mut nonzero = 0;
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (t, water) = random_torus(&mut rng);
        let count = rng.random_range(2..13);
        let mut sources: Vec<(Loc, bool)> = Vec::new();
        for _ in 0..count {
            let l = if !sources.is_empty() && rng.random_range(0..8) == 0 {
                sources[0].0
            } else {
                random_land(&mut rng, t, &water)
            };
            sources.push((l, rng.random_range(0..2) == 0));
        }
        let depth = rng.random_range(3..12u32);
        let fields: Vec<Vec<u32>> = sources
            .iter()
            .map(|&(s, _)| plain_bfs(t, &water, s))
            .collect();
        // each square's owner: the nearest ant, the first among equally near ones
        let worth = |i: usize| {
            let best = (0..sources.len())
                .min_by_key(|&k| (fields[k][i], k))
                .unwrap();
            let d = fields[best][i];
            let ours = sources[best].1 && d >= 1 && d <= depth;
            if ours {
                10 + i64::from(depth) - i64::from(d)
            } else {
                0
            }
        };
        let want: i64 = (0..t.area()).map(worth).sum();
        let (got, work) = economy::owned_area(t, &water, &sources, depth, &mut marks);
        assert_eq!(got, want, "seed {seed}: {sources:?} depth {depth}");
        assert!(work > 0 && work <= t.area() as u64);
        nonzero += usize::from(want > 0);
    }
    assert!(nonzero > 200, "{nonzero} maps with owned area");
}

#[test]
fn horizon_values_agree_with_a_bfs_from_each_step() {
    // seeded random maps with water and random explore values: each first step's sum is
    // the sum over the squares exactly HORIZON steps from the ant that are HORIZON - 1
    // steps from that step (a plain BFS from the ant and from each neighbour)
    let mut marks = economy::Marks::default();
    let mut split = 0;
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (t, water) = random_torus(&mut rng);
        let values: Vec<i64> = (0..t.area()).map(|_| rng.random_range(0..50)).collect();
        let a = random_land(&mut rng, t, &water);
        let (got, horizon, _) = economy::horizon_values(t, &water, a, |i| values[i], &mut marks);
        let from_ant = plain_bfs(t, &water, a);
        let h = economy::HORIZON;
        let mut want = [0i64; 4];
        for (j, d) in Dir::ALL.into_iter().enumerate() {
            let n = t.step(a, d);
            if water[t.index(n)] {
                continue;
            }
            let from_step = plain_bfs(t, &water, n);
            want[j] = (0..t.area())
                .filter(|&i| from_ant[i] == h && from_step[i] == h - 1)
                .map(|i| values[i])
                .sum();
        }
        assert_eq!(got, want, "seed {seed}: ant {a:?}");
        let on_horizon = (0..t.area()).filter(|&i| from_ant[i] == h).count();
        assert_eq!(horizon.len(), on_horizon, "seed {seed}");
        // squares reached by more than one first step count for each
        split +=
            usize::from(want.iter().sum::<i64>() > horizon.iter().map(|&(i, _)| values[i]).sum());
    }
    assert!(
        split > 200,
        "{split} maps with squares shared between steps"
    );
}

/// Phalanx parameters with the whole economy switched on (explore values, distribution
/// and xathis's raiders; distribution is off by default).
fn economy_params() -> PhalanxParams {
    PhalanxParams {
        explore: true,
        distribute: true,
        raiders: true,
        ..PhalanxParams::default()
    }
}

/// Squares in view of player 0's ants, summed over turns `from..` of a game on `rows` in
/// which player 0 is `bot` and player 1 holds.
fn squares_in_view(rows: &[&str], turns: u32, from: u32, bot: Box<dyn AntsBot>) -> usize {
    let mut m = scenario(rows, turns);
    let t = m.game().torus();
    let view = t.neighbourhood(m.game().settings().viewradius2);
    let mut bots: Vec<Box<dyn AntsBot>> = vec![bot, Box::new(HoldBot)];
    let mut total = 0;
    play_in_process(&mut m, &mut bots, |m, _| {
        if m.game().turn() >= from {
            let mut seen = vec![false; t.area()];
            for a in m.game().player_ants(0) {
                seen[t.index(a)] = true;
                for &o in &view {
                    seen[t.index(t.add(a, o))] = true;
                }
            }
            total += seen.iter().filter(|&&s| s).count();
        }
    });
    total
}

#[test]
fn distributed_ants_see_more_than_the_hunters() {
    // eight ants bunched on an open 40x40 map with no food: once the map has been seen,
    // the hunter sends every ant to its nearest stale square, so they move about in
    // bunches; distributed ants stand apart and keep more of the map in view
    let mut rows = vec!["........................................".to_string(); 40];
    rows[10] = "..........aaaa..........................".to_string();
    rows[11] = "..........aaaa..........................".to_string();
    rows[12] = "..........0.............................".to_string();
    rows[30] = "..............................1b........".to_string();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let hunter = squares_in_view(&rows, 80, 40, Box::new(HunterBot::new(0)));
    let spread = squares_in_view(
        &rows,
        80,
        40,
        Box::new(PhalanxBot::with_params(0, economy_params())),
    );
    assert!(
        spread > hunter + hunter / 10,
        "spread {spread}, hunter {hunter}"
    );
}

#[test]
fn phalanx_economy_orders_are_legal_and_stay_in_budget() {
    // a whole game of the phalanx with its economy against the hunter on a generated map:
    // every order is accepted, and no turn's economy visits more squares than its budget
    let phalanx = whole_game_against_the_hunter(PhalanxBot::with_params(0, economy_params()));
    let work = phalanx.most_economy_work();
    // the budget is checked before each ant, so one ant's search may pass it
    assert!(work > 0, "the economy ran");
    assert!(work <= phalanx::ECONOMY_BUDGET + 20_000, "{work}");
}

#[test]
fn raiders_are_the_nearest_few() {
    // an enemy hill known to twelve of our ants at 2 to 24 steps from it, on a map all in
    // view (nothing to explore, so idle ants hold; the enemy's one ant is far from ours):
    // with xathis's raiders only the four nearest step towards it, with the hunter's rush
    // all twelve do
    let mut rows = vec!["..............................".to_string(); 30];
    rows[2] = ".........................1....".to_string();
    for (r, row) in rows.iter_mut().enumerate().skip(4).take(12) {
        let mut b = row.clone().into_bytes();
        b[25 - (r - 4)] = b'a';
        *row = String::from_utf8(b).unwrap();
    }
    rows[18] = "............................b.".to_string();
    rows[28] = "....0.........................".to_string();
    let mut text = "rows 30\ncols 30\nplayers 2\n".to_string();
    for r in &rows {
        text.push_str(&format!("m {r}\n"));
    }
    let map = AntsMap::parse(&text).unwrap();
    let settings = Settings {
        scenario: true,
        food: FoodMode::None,
        turns: 3,
        viewradius2: 2000,
        ..Settings::default()
    };
    let towards = |mut bot: Box<dyn AntsBot>| {
        let mut m = AntsMatch::new(AntsGame::new(&map, settings.clone()).unwrap());
        bot.answer(m.pending(0));
        m.play_turn(vec![Ok(Vec::new()); 2]);
        let orders = bot.answer(m.pending(0));
        orders
            .iter()
            .filter(|o| {
                let w: Vec<&str> = o.split(' ').collect();
                let (r, c): (i64, i64) = (w[1].parse().unwrap(), w[2].parse().unwrap());
                let (dr, dc) = Dir::from_letter(w[3]).unwrap().delta();
                let far = |r: i64, c: i64| (r - 2).abs() + (c - 25).abs();
                far(r + i64::from(dr), c + i64::from(dc)) < far(r, c)
            })
            .count()
    };
    let only = |raiders| PhalanxParams {
        explore: false,
        distribute: false,
        raiders,
        ..PhalanxParams::default()
    };
    let raid = PhalanxBot::with_params(0, only(true));
    assert_eq!(towards(Box::new(raid)), 4, "raiders");
    let rush = PhalanxBot::with_params(0, only(false));
    assert_eq!(towards(Box::new(rush)), 12, "rush");
    // the larger raid: half of our twelve ants, the nearest within 20 steps; all twelve
    // within 30 steps
    let share = |raid_share, raid_reach| PhalanxParams {
        raid_share,
        raid_reach,
        ..only(true)
    };
    let half = PhalanxBot::with_params(0, share(50, 20));
    assert_eq!(towards(Box::new(half)), 6, "half");
    let all = PhalanxBot::with_params(0, share(100, 30));
    assert_eq!(towards(Box::new(all)), 12, "all");
    // ... but at most the ten within 20 steps (2 to 20)
    let near = PhalanxBot::with_params(0, share(100, 20));
    assert_eq!(towards(Box::new(near)), 10, "within 20 steps");
    // the muster: of the four raiders (2 to 8 steps from the hill, within the stage's 10),
    // those at 2 and 4 steps have six and seven of ours in their 11x11 box, those at 6 and
    // 8 eight and nine: with a muster of eight the first two hold for the others
    let muster = |raid_muster| PhalanxParams {
        raid_muster,
        ..only(true)
    };
    let eight = PhalanxBot::with_params(0, muster(8));
    assert_eq!(towards(Box::new(eight)), 2, "muster of eight");
    let six = PhalanxBot::with_params(0, muster(6));
    assert_eq!(towards(Box::new(six)), 4, "muster of six");
}

#[test]
fn near_an_enemy_hill_a_small_part_closes_in_with_raid_fight() {
    // two of ours at (20, 20) and (21, 20), the first within distance² 100 of the enemy
    // hill at (20, 30), one enemy at (20, 24) between them and it; four of ours east of
    // the hill are the raiders (nearer it), so the two have nothing to do but the battle
    // (the economy off, the whole map in view), and two are a weak part (fewer than five
    // in their box, our hill far): they hold, out of reach. As strong near an enemy hill
    // they close in (stepping east is safe: the enemy cannot reach one without the other)
    let mut things = vec![(5, 5, b'0'), (20, 30, b'1'), (20, 24, b'b')];
    things.extend([(20, 20), (21, 20)].map(|(r, c)| (r, c, b'a')));
    things.extend([(19, 38), (20, 38), (21, 38), (22, 38)].map(|(r, c)| (r, c, b'a')));
    let pair = |raid_fight| {
        let params = PhalanxParams {
            raid_fight,
            ..lone_params(0, false)
        };
        orders_in_full_view(&open_map(&things), PhalanxBot::with_params(0, params))
            .into_iter()
            .filter(|o| o.starts_with("o 20 20 ") || o.starts_with("o 21 20 "))
            .collect::<Vec<_>>()
    };
    assert!(pair(false).is_empty(), "{:?}", pair(false));
    let strong = pair(true);
    assert!(!strong.is_empty(), "the pair closes in");
    assert!(strong.iter().all(|o| o.ends_with(" e")), "{strong:?}");
}

#[test]
fn raid_orders_are_legal_and_stay_in_budget() {
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        raid_share: 33,
        raid_reach: 40,
        raid_fight: true,
        raid_muster: 5,
        ..PhalanxParams::default()
    });
}

/// The orders `bot` gives on turn 1 (player 0) of a scenario on `rows` with the whole map
/// in view and no food, sorted.
fn orders_in_full_view(rows: &[String], mut bot: PhalanxBot) -> Vec<String> {
    answer_turn_one(rows, &mut bot)
}

/// The same, leaving the bot for its traces.
fn answer_turn_one(rows: &[String], bot: &mut PhalanxBot) -> Vec<String> {
    let mut text = format!("rows {}\ncols {}\nplayers 2\n", rows.len(), rows[0].len());
    for r in rows {
        text.push_str(&format!("m {r}\n"));
    }
    let map = AntsMap::parse(&text).unwrap();
    let settings = Settings {
        scenario: true,
        food: FoodMode::None,
        turns: 3,
        viewradius2: 2000,
        ..Settings::default()
    };
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    bot.answer(m.pending(0));
    m.play_turn(vec![Ok(Vec::new()); 2]);
    let mut orders = bot.answer(m.pending(0));
    orders.sort();
    orders
}

/// A 40x40 map with `(row, col, symbol)` put on open land.
fn open_map(things: &[(usize, usize, u8)]) -> Vec<String> {
    let mut rows = vec![vec![b'.'; 40]; 40];
    for &(r, c, s) in things {
        rows[r][c] = s;
    }
    rows.into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect()
}

/// Phalanx parameters with the economy off (idle ants with nothing to explore hold) and
/// the given regrouping and keeping away.
fn lone_params(regroup_reach: u32, keep_away: bool) -> PhalanxParams {
    PhalanxParams {
        explore: false,
        distribute: false,
        regroup_reach,
        keep_away,
        ..PhalanxParams::default()
    }
}

#[test]
fn a_lone_ant_near_an_enemy_falls_back_to_its_group() {
    // our lone ant at (8, 15), 6 steps below two enemies at (2, 15) and (2, 16); five of
    // ours 14 steps behind it (out of the enemies' 12 steps, so they do not approach), our
    // hill behind them; the whole map in view, nothing to explore: regrouping within 8
    // steps, the lone ant steps south towards the group; without it holds, as idle ants
    // with nothing to explore do; with a reach of 5 the enemies are too far, and against
    // one enemy it is not outnumbered: it holds
    let mut things = vec![(8, 15, b'a'), (28, 15, b'0'), (2, 38, b'1')];
    things.extend([(22, 14), (22, 15), (22, 16), (23, 14), (23, 15)].map(|(r, c)| (r, c, b'a')));
    let lone = |enemies: &[(usize, usize)], params| {
        let mut all = things.clone();
        all.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 8 15 "))
    };
    let two = [(2, 15), (2, 16)];
    assert_eq!(
        lone(&two, lone_params(8, false)).as_deref(),
        Some("o 8 15 s")
    );
    assert_eq!(lone(&two, lone_params(0, false)), None);
    assert_eq!(lone(&two, lone_params(5, false)), None);
    assert_eq!(lone(&[(2, 15)], lone_params(8, false)), None);
}

#[test]
fn a_lone_engaged_ant_keeps_away() {
    // our lone ant at (10, 10) and two holding enemies at (10, 14) and (11, 14), engaged
    // (one step each brings them within attack range): every square but the step east is
    // out of their reach; keeping away, the ant steps west (distance² 25 to the nearest,
    // the farthest); without, it holds, its wanted square, as safe as any; against one
    // enemy it is not outnumbered and holds too
    let lone = |enemies: &[(usize, usize)], params| {
        let mut all = vec![(10, 10, b'a'), (30, 10, b'0'), (30, 30, b'1')];
        all.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 10 10 "))
    };
    let two = [(10, 14), (11, 14)];
    assert_eq!(
        lone(&two, lone_params(0, true)).as_deref(),
        Some("o 10 10 w")
    );
    assert_eq!(lone(&two, lone_params(0, false)), None);
    assert_eq!(lone(&[(10, 14)], lone_params(0, true)), None);
}

#[test]
fn regrouping_orders_are_legal_and_stay_in_budget() {
    // whole games with regrouping and keeping away, and with regrouping and rallying,
    // against the hunter: every order is accepted and no turn's battles spend more than
    // the node budget
    for (keep_away, rally) in [(true, false), (false, true)] {
        let params = PhalanxParams {
            regroup_reach: 8,
            keep_away,
            rally,
            ..PhalanxParams::default()
        };
        assert_a_whole_game_stays_in_budget(params);
    }
}

#[test]
fn a_hunted_ant_runs_to_its_group() {
    // our lone ant at (10, 10), two holding enemies east of it at (10, 14) and (11, 14),
    // five of ours 8 steps south: rallying, the ant steps south towards them (safe: the
    // nearest enemy can come no nearer than distance² 9); keeping away it steps west,
    // farthest from the enemies; rallying against one enemy it is not outnumbered and holds
    let lone = |enemies: &[(usize, usize)], params| {
        let mut all = vec![(10, 10, b'a'), (30, 10, b'0'), (30, 30, b'1')];
        all.extend([(18, 9), (18, 10), (18, 11), (19, 9), (19, 10)].map(|(r, c)| (r, c, b'a')));
        all.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 10 10 "))
    };
    let rally = PhalanxParams {
        rally: true,
        ..lone_params(0, true)
    };
    let two = [(10, 14), (11, 14)];
    assert_eq!(lone(&two, rally).as_deref(), Some("o 10 10 s"));
    assert_eq!(
        lone(&two, lone_params(0, true)).as_deref(),
        Some("o 10 10 w")
    );
    assert_eq!(lone(&[(10, 14)], rally), None);
}

#[test]
fn threat_counts_agree_with_a_bfs_from_each_ant() {
    // seeded random maps with water and 1 to 10 ants (some on one square): the count of
    // ants that can stand within attack range (distance² 5) of each square after 0 to 3
    // steps equals the count from a plain BFS from each ant, and the threat field is the
    // excess of enemies over ours where two or more enemies can come and they outnumber
    // ours by the margin (1 or 2)
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    let mut excess = 0;
    for _ in 0..200 {
        let (t, water) = random_torus(&mut rng);
        let steps = rng.random_range(0..4u32);
        let side = |rng: &mut ChaCha8Rng| -> Vec<Loc> {
            let n = rng.random_range(1..6);
            (0..n).map(|_| random_land(rng, t, &water)).collect()
        };
        let foes = side(&mut rng);
        let ours = side(&mut rng);
        let plain = |ants: &[Loc]| -> Vec<u8> {
            let fields: Vec<Vec<u32>> = ants.iter().map(|&a| plain_bfs(t, &water, a)).collect();
            (0..t.area())
                .map(|i| {
                    let s = (i / t.cols, i % t.cols);
                    fields
                        .iter()
                        .filter(|f| {
                            (0..t.area()).any(|j| {
                                f[j] <= steps && t.distance((j / t.cols, j % t.cols), s) <= 5
                            })
                        })
                        .count() as u8
                })
                .collect()
        };
        let (theirs, mine) = (plain(&foes), plain(&ours));
        assert_eq!(phalanx::reach_counts(t, &water, 5, &foes, steps), theirs);
        assert_eq!(phalanx::reach_counts(t, &water, 5, &ours, steps), mine);
        let margin = rng.random_range(1..3u8);
        let field = phalanx::threat_field(t, &water, 5, (&foes, &ours), steps, margin);
        for i in 0..t.area() {
            let want = if theirs[i] >= 2 && theirs[i] >= mine[i] + margin {
                theirs[i] - mine[i]
            } else {
                0
            };
            assert_eq!(field[i], want);
            excess += usize::from(want > 0);
        }
    }
    // some squares are threatened, not only empty fields
    assert!(excess > 1000, "{excess} squares in excess");
}

/// Phalanx parameters with the economy off and the threat field over `steps` moves.
fn threat_params(steps: u32) -> PhalanxParams {
    PhalanxParams {
        threat_steps: steps,
        ..lone_params(0, false)
    }
}

#[test]
fn a_lone_ant_does_not_step_where_two_enemies_can_come() {
    // our lone ant at (10, 10) goes for the food at (10, 13); two enemies at (10, 15) and
    // (11, 15), not engaged (one move each leaves them out of attack range) and no threat
    // to the step east in one move: the hunter's rule and the battle search let it step
    // east. Both enemies can stand within attack range of (10, 11) after two steps and
    // only our one ant can: with the threat field over two moves it does not step east
    // (holding is out of their reach in two steps); against one enemy it steps east,
    // as it does without the field; with the field moving only idle ants (scope 1) the ant
    // going for food steps east, and with it moving only the battle search (scope 0) too
    let east = |enemies: &[(usize, usize)], params| {
        let mut all = vec![
            (10, 10, b'a'),
            (10, 13, b'*'),
            (30, 10, b'0'),
            (30, 30, b'1'),
        ];
        all.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 10 10 "))
    };
    let two = [(10, 15), (11, 15)];
    assert_eq!(east(&two, threat_params(0)).as_deref(), Some("o 10 10 e"));
    let with = east(&two, threat_params(2));
    assert_ne!(with.as_deref(), Some("o 10 10 e"));
    assert_eq!(
        east(&[(10, 15)], threat_params(2)).as_deref(),
        Some("o 10 10 e")
    );
    for scope in [0, 1] {
        let params = PhalanxParams {
            threat_scope: scope,
            ..threat_params(2)
        };
        assert_eq!(east(&two, params).as_deref(), Some("o 10 10 e"), "{scope}");
    }
}

#[test]
fn a_weak_engaged_ant_leaves_where_two_enemies_can_come() {
    // our lone ant at (10, 10), engaged with enemies at (10, 14) and (14, 10): holding,
    // stepping north and stepping west are all out of their reach this turn, and the
    // search without the field holds (its wanted square among equally safe ones). After
    // two steps both enemies can stand within attack range of (10, 10), only one of them
    // of (9, 10) or (10, 9): with the field (in the search only) the ant steps north or
    // west; against one enemy nothing is outnumbered and it holds
    let order = |enemies: &[(usize, usize)], params| {
        let mut all = vec![(10, 10, b'a'), (30, 10, b'0'), (30, 30, b'1')];
        all.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 10 10 "))
    };
    let search_only = PhalanxParams {
        threat_scope: 0,
        ..threat_params(2)
    };
    let two = [(10, 14), (14, 10)];
    assert_eq!(order(&two, threat_params(0)), None);
    let with = order(&two, search_only);
    assert!(
        matches!(with.as_deref(), Some("o 10 10 n" | "o 10 10 w")),
        "{with:?}"
    );
    assert_eq!(order(&[(10, 14)], search_only), None);
}

#[test]
fn threat_field_orders_are_legal_and_stay_in_budget() {
    // whole games with the threat field over two and three moves against the hunter:
    // every order is accepted and no turn's battles spend more than the node budget
    for steps in [2, 3] {
        let params = PhalanxParams {
            threat_steps: steps,
            ..PhalanxParams::default()
        };
        assert_a_whole_game_stays_in_budget(params);
    }
}

#[test]
fn a_lone_ant_in_a_closing_standoff_keeps_a_way_out() {
    // our lone ant at (10, 10), engaged with enemies 4 steps north, east and south: holding
    // and stepping west are out of their reach this turn (north, east and south are not),
    // and the search holds (its wanted square among equally safe ones). After their
    // second move two or more of them can reach attack range of every square the ant can
    // take from (10, 10) (the ring closes), while from (10, 9) the ant can still step to
    // (10, 8), which none of them can reach: seeing two moves ahead the ant steps west.
    // It holds when a square is counted closed only at four enemies (none is), and
    // against the north and south enemies alone ((10, 9) then is out of their reach)
    let order = |enemies: &[(usize, usize)], standoff_steps, standoff_foes| {
        let mut all = vec![(10, 10, b'a'), (30, 10, b'0'), (30, 30, b'1')];
        all.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        let params = PhalanxParams {
            standoff_steps,
            standoff_foes,
            ..lone_params(0, false)
        };
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 10 10 "))
    };
    let three = [(6, 10), (10, 14), (14, 10)];
    assert_eq!(order(&three, 0, 2), None);
    assert_eq!(order(&three, 2, 2).as_deref(), Some("o 10 10 w"));
    assert_eq!(order(&three, 3, 2).as_deref(), Some("o 10 10 w"));
    assert_eq!(order(&three, 2, 4), None);
    assert_eq!(order(&[(6, 10), (14, 10)], 2, 2), None);
}

#[test]
fn standoff_five_moves_and_exact_cut_orders_are_legal_and_stay_in_budget() {
    // whole games with the standoff seen five moves ahead and with cut parts keeping only
    // fully scored moves (session 48's candidates) against the hunter: every order is
    // accepted and no turn's battles spend more than the node budget
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        standoff_steps: 5,
        ..PhalanxParams::default()
    });
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        exact_cut: true,
        ..PhalanxParams::default()
    });
}

#[test]
fn standoff_orders_are_legal_and_stay_in_budget() {
    // whole games with the standoff seen two and three moves ahead against the hunter:
    // every order is accepted and no turn's battles spend more than the node budget
    for standoff_steps in [2, 3] {
        assert_a_whole_game_stays_in_budget(PhalanxParams {
            standoff_steps,
            ..PhalanxParams::default()
        });
    }
}

/// Phalanx parameters with the economy off and xathis's escape and attack on detached
/// enemies as given.
fn xathis_params(escape: bool, detached: bool) -> PhalanxParams {
    PhalanxParams {
        escape,
        detached,
        ..lone_params(0, false)
    }
}

/// The order the phalanx (player 0, whole map in view) gives the ant at `at` on turn 1,
/// with `things` on an open 40x40 map besides our hill at (30, 10) and theirs at (30, 30).
fn order_of(at: Loc, things: &[(usize, usize, u8)], params: PhalanxParams) -> Option<String> {
    let mut all = vec![(30, 10, b'0'), (30, 30, b'1')];
    all.extend(things);
    let prefix = format!("o {} {} ", at.0, at.1);
    orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
        .into_iter()
        .find(|o| o.starts_with(&prefix))
}

#[test]
fn a_dangered_lone_ant_escapes_towards_its_friends() {
    // our lone ant at (10, 10), enemies at (11, 13) (Manhattan 4: dangered) and (10, 14):
    // holding and stepping south are within their reach, north and west are not. Four of
    // ours hold at (9..13, 3), 7 to 8 steps west, out of the ant's 11x11 box (it is weak,
    // alone in its part). Escaping, xathis's BFS values weigh them: the ant steps west.
    // Without the escape the search takes the first safe square (north); with the four
    // to the north instead, escaping it steps north
    let enemies = [(11, 13, b'b'), (10, 14, b'b')];
    let with = |friends: &[(usize, usize)], params| {
        let mut things: Vec<(usize, usize, u8)> = vec![(10, 10, b'a')];
        things.extend(enemies);
        things.extend(friends.iter().map(|&(r, c)| (r, c, b'a')));
        order_of((10, 10), &things, params)
    };
    let west = [(9, 3), (10, 3), (11, 3), (12, 3)];
    let north = [(3, 9), (3, 10), (3, 11), (3, 12)];
    assert_eq!(
        with(&west, xathis_params(true, false)).as_deref(),
        Some("o 10 10 w")
    );
    assert_eq!(
        with(&west, xathis_params(false, false)).as_deref(),
        Some("o 10 10 n")
    );
    assert_eq!(
        with(&north, xathis_params(true, false)).as_deref(),
        Some("o 10 10 n")
    );
}

#[test]
fn a_lone_ant_with_food_and_no_danger_does_not_escape() {
    // our lone ant at (10, 10) goes for the food at (10, 13); an enemy at (14, 11) is
    // engaged with it (one step each) but not within Manhattan 4: the ant is not dangered
    // and steps east for the food, escape or not. With the enemy at (13, 9) (Manhattan 4:
    // dangered) the step east is still out of its reach, and the ant keeps its food step;
    // at (12, 12) the enemy can reach attack range of (10, 11) and the ant escapes north
    // or west
    let order = |enemy: (usize, usize), params| {
        let things = [(10, 10, b'a'), (10, 13, b'*'), (enemy.0, enemy.1, b'b')];
        order_of((10, 10), &things, params)
    };
    for escape in [false, true] {
        let params = xathis_params(escape, false);
        assert_eq!(order((14, 11), params).as_deref(), Some("o 10 10 e"));
        assert_eq!(order((13, 9), params).as_deref(), Some("o 10 10 e"));
    }
    let escaped = order((12, 12), xathis_params(true, false));
    assert!(
        matches!(escaped.as_deref(), Some("o 10 10 n" | "o 10 10 w")),
        "{escaped:?}"
    );
}

#[test]
fn a_detached_enemy_is_attacked_by_three_and_not_by_two() {
    // an enemy alone at (10, 20); our ants at (10, 12), (8, 13) and (12, 13) within
    // distance² 81 of it, not engaged, too few to approach (3 in their box, fewer than 5)
    // and with nothing to explore: with the attack on detached enemies each steps east
    // towards it (out of its reach); without it they hold; with only two of ours near it
    // is not a target and they hold; with a second enemy at (12, 22) it is not detached
    let orders = |ours: &[(usize, usize)], theirs: &[(usize, usize)], detached| {
        let mut things: Vec<(usize, usize, u8)> = ours.iter().map(|&(r, c)| (r, c, b'a')).collect();
        things.extend(theirs.iter().map(|&(r, c)| (r, c, b'b')));
        let mut all = vec![(30, 10, b'0'), (30, 30, b'1')];
        all.extend(things);
        let mut o: Vec<String> = orders_in_full_view(
            &open_map(&all),
            PhalanxBot::with_params(0, xathis_params(false, detached)),
        )
        .into_iter()
        .filter(|o| !o.starts_with("o 30 "))
        .collect();
        o.sort();
        o
    };
    let three = [(10, 12), (8, 13), (12, 13)];
    let one = [(10, 20)];
    assert_eq!(
        orders(&three, &one, true),
        ["o 10 12 e", "o 12 13 e", "o 8 13 e"]
    );
    assert!(orders(&three, &one, false).is_empty());
    assert!(orders(&three[..2], &one, true).is_empty());
    assert!(orders(&three, &[(10, 20), (12, 22)], true).is_empty());
}

#[test]
fn escape_and_detached_attack_orders_are_legal_and_stay_in_budget() {
    // whole games with the escape, the attack on detached enemies, and both, against the
    // hunter: every order is accepted and no turn's battles spend more than the budget
    for (escape, detached) in [(true, false), (false, true), (true, true)] {
        let params = PhalanxParams {
            escape,
            detached,
            ..PhalanxParams::default()
        };
        assert_a_whole_game_stays_in_budget(params);
    }
}

#[test]
fn tracing_names_what_moved_each_ant() {
    // the escape position of `a_dangered_lone_ant_escapes_towards_its_friends`, with a
    // food at (16, 3) for one of the four friends: tracing, the lone ant is moved by the
    // escape (by the battle search without it), the friend nearest the food by the food,
    // the other three explore (hold); the orders are the same as without tracing
    let mut things = vec![
        (10, 10, b'a'),
        (11, 13, b'b'),
        (10, 14, b'b'),
        (13, 3, b'a'),
        (16, 3, b'*'),
        (30, 10, b'0'),
        (30, 30, b'1'),
    ];
    things.extend([(9, 3), (10, 3), (11, 3)].map(|(r, c)| (r, c, b'a')));
    let rows = open_map(&things);
    for (escape, lone) in [
        (true, phalanx::Mover::Escape),
        (false, phalanx::Mover::Battle),
    ] {
        let params = xathis_params(escape, false);
        let mut bot = PhalanxBot::with_params(0, params).tracing();
        let orders = answer_turn_one(&rows, &mut bot);
        assert_eq!(
            orders,
            orders_in_full_view(&rows, PhalanxBot::with_params(0, params))
        );
        let mut movers = bot.movers().to_vec();
        movers.sort_unstable_by_key(|&(l, _)| l);
        use phalanx::Mover::{Explore, Food};
        assert_eq!(
            movers,
            [
                ((9, 3), Explore),
                ((10, 3), Explore),
                ((10, 10), lone),
                ((11, 3), Explore),
                ((13, 3), Food),
            ]
        );
    }
}

#[test]
fn a_fitted_part_takes_an_ant_only_with_all_its_enemies() {
    // own ant 0 is engaged with enemies 0 and 1, own ant 1 with 1 and 2, own ant 2 with
    // 0. Parts of two from ant 0: with ant 2 free, both ways take ants 0 and 2 (ant 2's
    // enemy is the part's); with ant 2 in another part already, the cut part takes ant 1
    // and leaves out enemy 2, which ant 1 fights; the fitted part with room for two
    // enemies leaves ant 1 for a part of its own, and with room for three takes it with
    // enemy 2
    let foes_of = vec![vec![0, 1], vec![1, 2], vec![0]];
    let ours_of = vec![vec![0, 2], vec![0, 1], vec![1]];
    let done = vec![false; 3];
    let (part, foes) = phalanx::cut_part(0, (&foes_of, &ours_of), &done, (2, 2));
    assert_eq!((part, foes), (vec![0, 2], vec![0, 1]));
    let mut p = PhalanxParams {
        part: 2,
        part_foes: 2,
        fit: true,
        ..PhalanxParams::default()
    };
    let (part, foes) = phalanx::fitted_part(0, (&foes_of, &ours_of), &done, p);
    assert_eq!((part, foes), (vec![0, 2], vec![0, 1]));
    let taken = vec![false, false, true];
    let (part, _) = phalanx::fitted_part(0, (&foes_of, &ours_of), &taken, p);
    assert_eq!(part, vec![0]);
    let (part, _) = phalanx::cut_part(0, (&foes_of, &ours_of), &taken, (2, 2));
    assert_eq!(part, vec![0, 1], "the cut part takes ant 1 without enemy 2");
    // with room for three enemies (`cut_foes`) the cut part takes ant 1 with enemy 2
    let (part, foes) = phalanx::cut_part(0, (&foes_of, &ours_of), &taken, (2, 3));
    assert_eq!((part, foes), (vec![0, 1], vec![0, 1, 2]));
    p.part_foes = 3;
    let (part, foes) = phalanx::fitted_part(0, (&foes_of, &ours_of), &taken, p);
    assert_eq!((part, foes), (vec![0, 1], vec![0, 1, 2]));
}

#[test]
fn an_engaged_enemy_left_out_of_a_part_is_counted_when_parts_fit() {
    // our ant at (10, 10); enemies at (10, 14), (13, 10) and (13, 11), all engaged with it
    // (one step each brings them within attack range). Holding, the two to the south can
    // both reach it (it dies, killing none); north is out of everyone's reach. Parts of one
    // enemy, cut, the search sees only the first, (10, 14), and the ant holds; fitted, with
    // room for three enemies, it sees all and steps north; the default parts of five see
    // all three too
    let things = [
        (10, 10, b'a'),
        (10, 14, b'b'),
        (13, 10, b'b'),
        (13, 11, b'b'),
    ];
    // (the standoff look ahead counts every enemy, not only the part's: off here; and the
    // cut part keeps to `part` enemies, as before `cut_foes` was on by default)
    let base = PhalanxParams {
        part: 1,
        cut_foes: 0,
        standoff_steps: 0,
        ..lone_params(0, false)
    };
    let fitted = PhalanxParams {
        fit: true,
        part_foes: 3,
        ..base
    };
    assert_eq!(order_of((10, 10), &things, base), None);
    assert_eq!(
        order_of((10, 10), &things, fitted).as_deref(),
        Some("o 10 10 n")
    );
    assert_eq!(
        order_of((10, 10), &things, lone_params(0, false)).as_deref(),
        Some("o 10 10 n")
    );
}

#[test]
fn fitted_parts_orders_are_legal_and_stay_in_budget() {
    for part_foes in [5, 8] {
        assert_a_whole_game_stays_in_budget(PhalanxParams {
            fit: true,
            part_foes,
            ..PhalanxParams::default()
        });
    }
}

#[test]
fn tracing_names_the_enemies_a_part_left_out() {
    // the position of `an_engaged_enemy_left_out_of_a_part_is_counted_when_parts_fit`:
    // tracing, the one part of the cut search has our ant and the first enemy, the other
    // two left out; fitted, it has all three and leaves none out; both are weak (no own
    // ant or hill near)
    let mut all = vec![(30, 10, b'0'), (30, 30, b'1')];
    all.extend([
        (10, 10, b'a'),
        (10, 14, b'b'),
        (13, 10, b'b'),
        (13, 11, b'b'),
    ]);
    let rows = open_map(&all);
    let seen = |fit: bool| {
        let params = PhalanxParams {
            part: 1,
            part_foes: 3,
            cut_foes: 0,
            fit,
            ..lone_params(0, false)
        };
        let mut bot = PhalanxBot::with_params(0, params).tracing();
        answer_turn_one(&rows, &mut bot);
        bot.parts_seen().to_vec()
    };
    let cut = PartTrace {
        ours: vec![(10, 10)],
        foes: vec![(10, 14)],
        left_out: vec![(13, 10), (13, 11)],
        fixed: 0,
        strength: 0,
        cut: false,
    };
    assert_eq!(seen(false), [cut]);
    let fitted = PartTrace {
        ours: vec![(10, 10)],
        foes: vec![(10, 14), (13, 10), (13, 11)],
        left_out: Vec::new(),
        fixed: 0,
        strength: 0,
        cut: false,
    };
    assert_eq!(seen(true), [fitted]);
}

/// Phalanx parameters with the economy off (idle ants with nothing to explore hold) and
/// support for hunted ants within `reach` steps (0: off).
fn support_params(reach: u32) -> PhalanxParams {
    PhalanxParams {
        support_reach: reach,
        ..lone_params(0, false)
    }
}

#[test]
fn an_idle_ant_goes_to_support_an_ant_engaged_with_two_enemies() {
    // our ant at (10, 10) is engaged with enemies at (10, 14) and (13, 10) (one step each
    // brings them within attack range), alone in its 11x11 box, far from our hill. Our
    // idle ant at (10, 4), 6 steps west, holds without support (nothing to explore) and
    // steps east towards it with support within 10 steps; not with support within 5
    // steps, nor against one enemy (only (10, 14))
    let order = |enemies: &[(usize, usize)], params| {
        let mut things = vec![(10, 10, b'a'), (10, 4, b'a')];
        things.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
        order_of((10, 4), &things, params)
    };
    let two = [(10, 14), (13, 10)];
    assert_eq!(order(&two, support_params(0)), None);
    assert_eq!(order(&two, support_params(10)).as_deref(), Some("o 10 4 e"));
    assert_eq!(order(&two, support_params(5)), None);
    assert_eq!(order(&[(10, 14)], support_params(10)), None);
}

#[test]
fn support_calls_as_many_ants_as_enemies_nearest_first() {
    // the same hunted ant at (10, 10) with two enemies; four idle ants of ours to its west
    // at 6, 7, 8 and 9 steps ((10, 4), (10, 3), (10, 2), (10, 1)): the two nearest step
    // east (the second behind the first, a detour if it must wait), the other two hold.
    // Tracing names the two as support and the orders are the same as without tracing
    let mut things = vec![(10, 10, b'a'), (10, 14, b'b'), (13, 10, b'b')];
    things.extend([(10, 4), (10, 3), (10, 2), (10, 1)].map(|(r, c)| (r, c, b'a')));
    let all = [(30, 10, b'0'), (30, 30, b'1')];
    let mut map_things = all.to_vec();
    map_things.extend(&things);
    let rows = open_map(&map_things);
    let mut bot = PhalanxBot::with_params(0, support_params(10)).tracing();
    let mut orders = answer_turn_one(&rows, &mut bot);
    assert_eq!(
        orders,
        orders_in_full_view(&rows, PhalanxBot::with_params(0, support_params(10)))
    );
    orders.retain(|o| !o.starts_with("o 10 10 "));
    orders.sort();
    assert_eq!(orders, ["o 10 3 e", "o 10 4 e"]);
    let mut movers = bot.movers().to_vec();
    movers.sort_unstable_by_key(|&(l, _)| l);
    use phalanx::Mover::{Battle, Explore, Support};
    assert_eq!(
        movers,
        [
            ((10, 1), Explore),
            ((10, 2), Explore),
            ((10, 3), Support),
            ((10, 4), Support),
            ((10, 10), Battle),
        ]
    );
}

#[test]
fn support_orders_are_legal_and_stay_in_budget() {
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        support_reach: 10,
        ..PhalanxParams::default()
    });
}

/// Phalanx parameters with the economy off (idle ants with nothing to explore hold) and
/// xathis's hill defence within `reach` steps (0: off).
fn guard_params(reach: u32) -> PhalanxParams {
    PhalanxParams {
        guard_reach: reach,
        ..lone_params(0, false)
    }
}

/// The orders of our three idle ants at (29..=31, 5), 5 columns west of our hill at
/// (30, 10), the enemy's hill at (10, 30), with enemies at `enemies` (the whole map in
/// view, nothing to explore), and what moved each of our ants (tracing).
fn guard_orders(enemies: &[(usize, usize)], reach: u32) -> (Vec<String>, Vec<(Loc, Mover)>) {
    // the enemy hill out of the raiders' 20 steps of our ants (the map wraps)
    let mut things = vec![(30, 10, b'0'), (10, 30, b'1')];
    things.extend([(29, 5), (30, 5), (31, 5)].map(|(r, c)| (r, c, b'a')));
    things.extend(enemies.iter().map(|&(r, c)| (r, c, b'b')));
    let rows = open_map(&things);
    let mut bot = PhalanxBot::with_params(0, guard_params(reach)).tracing();
    let orders = answer_turn_one(&rows, &mut bot);
    assert_eq!(
        orders,
        orders_in_full_view(&rows, PhalanxBot::with_params(0, guard_params(reach))),
        "tracing changes no order"
    );
    let mut movers = bot.movers().to_vec();
    movers.sort_unstable_by_key(|&(l, _)| l);
    (orders, movers)
}

#[test]
fn enemies_near_our_hill_each_pull_one_guard_onto_their_path() {
    // three enemies at (29..=31, 21), 11 to 12 steps east of our hill at (30, 10): beyond
    // the hunter's defence (distance² 121 or more) and 16 or more steps from our idle ants
    // at (29..=31, 5) (out of the approach's 12), so without the guard our ants hold.
    // Guarding within 14 steps, each enemy gets one of them: all three step, none west
    // (away from the path), and tracing names them as guards
    let three = [(29, 21), (30, 21), (31, 21)];
    let (orders, _) = guard_orders(&three, 0);
    assert!(orders.is_empty(), "{orders:?}");
    let (orders, movers) = guard_orders(&three, 14);
    assert_eq!(orders.len(), 3, "{orders:?}");
    assert!(orders.iter().all(|o| !o.ends_with(" w")), "{orders:?}");
    assert!(movers.iter().all(|&(_, m)| m == Mover::Guard), "{movers:?}");
    // one enemy: only the nearest ant (on the hill's row) goes, straight east
    let (orders, movers) = guard_orders(&[(30, 21)], 14);
    assert_eq!(orders, ["o 30 5 e"]);
    assert_eq!(
        movers,
        [
            ((29, 5), Mover::Explore),
            ((30, 5), Mover::Guard),
            ((31, 5), Mover::Explore)
        ]
    );
    // the enemies 16 steps from the hill, beyond the 14: nobody goes; within 20, all three
    let far = [(29, 26), (30, 26), (31, 26)];
    assert!(guard_orders(&far, 14).0.is_empty());
    assert_eq!(guard_orders(&far, 20).0.len(), 3);
}

#[test]
fn guard_orders_are_legal_and_stay_in_budget() {
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        guard_reach: 14,
        ..PhalanxParams::default()
    });
}

#[test]
fn with_the_hill_worth_a_lost_game_an_ant_blocks_it_at_its_own_cost() {
    // our hill at (30, 10), our ant beside it at (30, 11); his ants at (29, 10), next to
    // the hill, and (28, 11). Whatever ours does, two of his can reach it: it dies. Without
    // the hill's worth it keeps out of reach; with it (above a loss) it steps onto the hill
    // so that no enemy can stand there (one left alive on it would raze it)
    let things = [(30, 11, b'a'), (29, 10, b'b'), (28, 11, b'b')];
    let home = |worth| {
        let mut all = vec![(30, 10, b'0'), (10, 30, b'1')];
        all.extend(things);
        let params = PhalanxParams {
            home_worth: worth,
            ..lone_params(0, false)
        };
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
    };
    assert_ne!(home(0), ["o 30 11 w"]);
    assert_eq!(home(4096), ["o 30 11 w"]);
}

#[test]
fn home_worth_orders_are_legal_and_stay_in_budget() {
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        home_worth: 4096,
        ..PhalanxParams::default()
    });
}

/// The first order of player 0's ant at (20, 20) on a 50x40 open map in turn 1, with an
/// enemy ant 8 rows north of it (in view), our hill 12 south (out of view, so not yet
/// known) and the enemy's 25 south: nothing to fetch or fight, so the ant explores.
fn explore_with_an_enemy_north(explore_avoid: u32) -> Vec<String> {
    let mut rows = vec![vec![b'.'; 40]; 50];
    rows[20][20] = b'a';
    rows[12][20] = b'b';
    rows[32][20] = b'0';
    rows[45][20] = b'1';
    let rows: Vec<String> = rows
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect();
    let rows: Vec<&str> = rows.iter().map(String::as_str).collect();
    let mut m = scenario(&rows, 3);
    let mut bot = PhalanxBot::with_params(
        0,
        PhalanxParams {
            explore_avoid,
            ..PhalanxParams::default()
        },
    );
    bot.answer(m.pending(0));
    m.play_turn(vec![Ok(Vec::new()); 2]);
    bot.answer(m.pending(0))
}

#[test]
fn explorers_keep_off_the_ground_near_an_enemy() {
    // every square is unexplored and the four horizons are worth the same, so without
    // hostile ground the ant takes the first of the equals, north, towards the enemy; with
    // the squares within 8 steps of the enemy worth nothing, 11 of the 21 squares of the
    // north horizon are hostile, 5 of the east's and the west's, none of the south's: it
    // steps south, away
    assert_eq!(explore_with_an_enemy_north(0), ["o 20 20 n"]);
    assert_eq!(explore_with_an_enemy_north(8), ["o 20 20 s"]);
    // within 2 steps of the enemy the horizon (11 steps from our ant, 8 from the enemy at
    // the nearest) has no hostile square: north again
    assert_eq!(explore_with_an_enemy_north(2), ["o 20 20 n"]);
}

#[test]
fn phalanx_avoiding_hostile_ground_orders_are_legal_and_stay_in_budget() {
    // a whole game with explorers off the ground near enemies: every order accepted, the
    // economy (hostile marks included) within its budget, the battles within theirs
    let phalanx = whole_game_against_the_hunter(PhalanxBot::with_params(
        0,
        PhalanxParams {
            explore_avoid: 8,
            ..PhalanxParams::default()
        },
    ));
    let work = phalanx.most_economy_work();
    assert!(work > 0, "the economy ran");
    assert!(work <= phalanx::ECONOMY_BUDGET + 20_000, "{work}");
    assert!(phalanx.most_battle_work() <= phalanx::BATTLE_BUDGET);
}

/// Phalanx parameters with the economy off and the group approach as given (link 1: the
/// 8 neighbours, reach 12 steps).
fn group_params(group_size: usize, group_fight: bool) -> PhalanxParams {
    PhalanxParams {
        group_size,
        group_link: 1,
        group_reach: 12,
        group_fight,
        ..lone_params(0, false)
    }
}

/// Turn 1's orders of player 0 on an open 40x40 map with our hill at (30, 10), theirs at
/// (30, 30), one enemy at (10, 20) and our ants at `ours`.
fn group_orders(ours: &[(usize, usize)], params: PhalanxParams) -> Vec<String> {
    let mut all = vec![(30, 10, b'0'), (30, 30, b'1'), (10, 20, b'b')];
    all.extend(ours.iter().map(|&(r, c)| (r, c, b'a')));
    orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
}

#[test]
fn a_group_of_the_threshold_steps_towards_the_enemy_and_a_smaller_one_does_not() {
    // three of ours side by side 9-10 steps west of an enemy: fewer than the five in the
    // 11x11 box the approach needs, far from both hills, nothing to fetch and (the economy
    // off, the whole map in view) nothing to explore, so without the group approach they
    // hold
    let three = [(10, 10), (10, 11), (11, 10)];
    assert!(group_orders(&three, lone_params(0, false)).is_empty());
    // a group of three (8-neighbours) with a threshold of three: each steps nearer the
    // enemy (east, or north for the ant below, onto the square the first one leaves)
    let orders = group_orders(&three, group_params(3, false));
    assert_eq!(orders.len(), 3, "{orders:?}");
    for o in &orders {
        let f: Vec<&str> = o.split(' ').collect();
        let (r, c): (usize, usize) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let (nr, nc) = match f[3] {
            "n" => (r - 1, c),
            "s" => (r + 1, c),
            "e" => (r, c + 1),
            _ => (r, c - 1),
        };
        let before = r.abs_diff(10) + c.abs_diff(20);
        assert_eq!(nr.abs_diff(10) + nc.abs_diff(20), before - 1, "{o}");
    }
    // with the fight weighting too, the same steps (no ant engaged yet)
    assert_eq!(group_orders(&three, group_params(3, true)), orders);
    // two of ours (a group below the threshold) hold; so do three not linked (two apart)
    assert!(group_orders(&three[..2], group_params(3, false)).is_empty());
    let apart = [(10, 10), (10, 12), (12, 10)];
    assert!(group_orders(&apart, group_params(3, false)).is_empty());
    // ... which link within two rows and columns
    let linked = PhalanxParams {
        group_link: 2,
        ..group_params(3, false)
    };
    assert_eq!(group_orders(&apart, linked).len(), 3);
    // an enemy beyond the reach: none moves
    let short = PhalanxParams {
        group_reach: 8,
        ..group_params(3, false)
    };
    assert!(group_orders(&three, short).is_empty());
}

#[test]
fn group_sizes_count_linked_ants_transitively() {
    let t = Torus { rows: 20, cols: 20 };
    // a chain of three (each one step diagonal from the next), a pair across the edge
    // of the torus, one alone
    let ants = [(0, 0), (1, 1), (2, 2), (5, 19), (5, 0), (10, 10)];
    assert_eq!(PhalanxBot::groups(t, &ants, 1), vec![3, 3, 3, 2, 2, 1]);
    // within two rows and columns the chain and the pair stay apart (3 rows between)
    assert_eq!(PhalanxBot::groups(t, &ants, 2), vec![3, 3, 3, 2, 2, 1]);
    assert_eq!(PhalanxBot::groups(t, &ants, 3), vec![5, 5, 5, 5, 5, 1]);
}

#[test]
fn group_approach_orders_are_legal_and_stay_in_budget() {
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        group_size: 3,
        group_fight: true,
        ..PhalanxParams::default()
    });
}

/// Five of ours in a row at (10, 8..13) and five of his three rows south on an open 24x24
/// torus, every ant able to reach attack range of the line opposite: one battle part, with
/// replies unpruned, no deadline and an endless budget (each test sets what it tests).
fn line_of_five(hills: &[Loc]) -> phalanx::Search<'_> {
    let t = Torus { rows: 24, cols: 24 };
    let ours: Vec<Loc> = (8..13).map(|c| (10, c)).collect();
    let foes: Vec<Loc> = (8..13).map(|c| (13, c)).collect();
    let reach = |a: Loc| -> Vec<Loc> {
        std::iter::once(a)
            .chain(Dir::ALL.into_iter().map(|d| t.step(a, d)))
            .collect()
    };
    let opts: Vec<Vec<Loc>> = ours.iter().map(|&a| reach(a)).collect();
    let theirs: Vec<(Loc, u8, Vec<Loc>)> = foes
        .iter()
        .map(|&e| (e, 1, phalanx::enemy_options(t, 5, reach(e), e, &opts)))
        .collect();
    phalanx::Search {
        t,
        r2: 5,
        homes: ours,
        ours: opts,
        theirs,
        fixed: Vec::new(),
        still: Vec::new(),
        enemy_hills: hills,
        my_hills: hills,
        home_worth: 0,
        prune: false,
        exact_cut: false,
        rally: &[],
        danger: &[],
        kill: 512,
        loss: 768,
        distance: phalanx::Distance::CloseIn,
        budget: u64::MAX,
        deadline: None,
        ticks: 0,
        stopped: false,
        best: i64::MIN,
        best_moves: Vec::new(),
        cur: Vec::new(),
        cur_theirs: Vec::new(),
    }
}

#[test]
fn pruned_replies_search_a_line_of_five_against_five_within_its_budget() {
    // five of ours in a row, five of his three rows south, open ground: every ant can
    // reach attack range of the line opposite. With a part's share of the turn's budget
    // the search that tries each enemy's squares in range of any square we might take is
    // cut short and steps into a losing fight (its moves lose an ant to the best reply);
    // with replies pruned to the squares our ants hold it finishes inside the budget with
    // the full search's value: both lines closing to the edge of range, nobody dies
    let hills: Vec<Loc> = Vec::new();
    let new = |prune: bool, budget: u64| phalanx::Search {
        prune,
        budget,
        ..line_of_five(&hills)
    };
    // what chosen moves are worth against every reply
    let worth = |moves: &[Loc]| {
        let mut s = new(false, u64::MAX);
        s.ours = moves.iter().map(|&l| vec![l]).collect();
        s.max(0);
        s.best
    };
    let mut full = new(false, u64::MAX);
    full.max(0);
    assert_eq!(
        full.best, -80,
        "each of ours at distance² 16 of the enemies' squares"
    );
    let part_budget = phalanx::BATTLE_BUDGET / 4;
    let mut plain = new(false, part_budget);
    plain.max(0);
    assert_eq!(plain.budget, 0, "the search without pruning is cut short");
    assert!(
        worth(&plain.best_moves) <= -768,
        "and its moves lose an ant"
    );
    let mut pruned = new(true, part_budget);
    pruned.max(0);
    assert!(
        pruned.budget > part_budget / 2,
        "pruned: {} left",
        pruned.budget
    );
    assert_eq!(pruned.best, full.best);
    assert_eq!(worth(&pruned.best_moves), full.best);
}

#[test]
fn a_search_cut_short_keeps_only_fully_scored_moves_with_exact_cut() {
    // the line of five against five above, without pruned replies: with a part's share of
    // the turn's budget the search is cut short. Without `exact_cut` it steps into a
    // losing fight because it keeps a partly scored assignment; with it, the best fully
    // scored one (which loses nobody)
    let hills: Vec<Loc> = Vec::new();
    let new = |prune: bool, budget: u64| phalanx::Search {
        prune,
        budget,
        ..line_of_five(&hills)
    };
    // what chosen moves are worth against every reply
    let worth = |moves: &[Loc]| {
        let mut s = new(false, u64::MAX);
        s.ours = moves.iter().map(|&l| vec![l]).collect();
        s.max(0);
        s.best
    };
    let mut full = new(false, u64::MAX);
    full.max(0);
    let part_budget = phalanx::BATTLE_BUDGET / 4;
    // without the switch the search cut short keeps the assignment whose replies it was
    // trying when the budget ran out, scored only against those tried: it loses an ant
    let mut plain = new(false, part_budget);
    plain.max(0);
    assert_eq!(plain.budget, 0, "the search without pruning is cut short");
    assert!(
        plain.best > worth(&plain.best_moves),
        "a bound, not the worth"
    );
    assert!(
        worth(&plain.best_moves) <= -768,
        "and its moves lose an ant"
    );
    // with it the same budget keeps the best fully scored assignment: nobody dies
    let mut exact = new(false, part_budget);
    exact.exact_cut = true;
    exact.max(0);
    assert_eq!(exact.budget, 0, "cut short as well");
    assert_eq!(
        worth(&exact.best_moves),
        exact.best,
        "its value is the moves' worth"
    );
    assert!(exact.best > -768, "and they lose no ant: {}", exact.best);
    assert!(exact.best <= full.best);
}

#[test]
fn the_clock_guard_stops_a_battle_search_past_its_deadline() {
    // five of ours against five of his, searched without pruning: the whole search takes
    // some 2.7 million pair checks. With the clock guard's deadline already past, the
    // search reads the clock after its first 2^18 pair checks, stops as if its budget were
    // spent and keeps the best moves found; with no deadline it goes on until its budget
    // of 2^21 pair checks is spent
    let budget = 1 << 21;
    let hills: Vec<Loc> = Vec::new();
    let new = |deadline: Option<std::time::Instant>| phalanx::Search {
        budget,
        deadline,
        ..line_of_five(&hills)
    };
    let mut free = new(None);
    free.max(0);
    assert!(!free.stopped);
    assert_eq!(
        free.budget, 0,
        "without the guard the whole budget is spent"
    );
    let mut guarded = new(Some(std::time::Instant::now()));
    guarded.max(0);
    assert!(guarded.stopped, "the guard stopped the search");
    assert_eq!(guarded.budget, 0);
    assert_eq!(
        guarded.best_moves.len(),
        5,
        "with the best moves found so far"
    );
}

#[test]
fn a_part_may_take_the_share_of_the_turns_budget_it_is_given() {
    // five of ours in a row, five of his three rows south, open ground: one battle part,
    // which searched without pruning takes some 7.9 million pair checks. With a turn's
    // budget of 16 million and a part's share of a quarter (the default) the part is cut
    // short; with a share of the whole budget it is searched to the end
    let mut things = vec![(30, 5, b'0'), (30, 35, b'1')];
    things.extend((8..13).map(|c| (10, c, b'a')));
    things.extend((8..13).map(|c| (13, c, b'b')));
    let parts = |part_share: u64| {
        let params = PhalanxParams {
            explore: false,
            prune_replies: false,
            budget: 16_000_000,
            part_share,
            ..PhalanxParams::default()
        };
        let mut bot = PhalanxBot::with_params(0, params);
        answer_turn_one(&open_map(&things), &mut bot);
        bot.parts_searched()
    };
    assert_eq!(parts(4), (1, 1), "a quarter: cut short");
    assert_eq!(parts(1), (1, 0), "the whole budget: searched to the end");
}

#[test]
fn an_enemy_left_out_of_a_part_stands_in_its_search() {
    // one of ours at (10, 10) engaged with an enemy five columns east (in the part) and
    // with one at (12, 12) left out of the part. Closing in, the part's search steps east
    // to (10, 11), safe from the part's enemy, but within attack range of the one left out
    // (distance² 5): with that enemy standing in the search (`still_foes`) the step costs
    // an ant and the search keeps out of its range; its death is not counted as a kill
    let t = Torus { rows: 24, cols: 24 };
    let a: Loc = (10, 10);
    let (e, left_out): (Loc, Loc) = ((10, 15), (12, 12));
    let reach = |a: Loc| -> Vec<Loc> {
        std::iter::once(a)
            .chain(Dir::ALL.into_iter().map(|d| t.step(a, d)))
            .collect()
    };
    let opts = vec![reach(a)];
    let theirs = vec![(e, 1, phalanx::enemy_options(t, 5, reach(e), e, &opts))];
    let hills: Vec<Loc> = Vec::new();
    let new = |still: Vec<(Loc, u8)>| phalanx::Search {
        t,
        r2: 5,
        homes: vec![a],
        ours: opts.clone(),
        theirs: theirs.clone(),
        fixed: Vec::new(),
        still,
        enemy_hills: &hills,
        my_hills: &hills,
        home_worth: 0,
        prune: false,
        exact_cut: false,
        rally: &[],
        danger: &[],
        kill: 512,
        loss: 768,
        distance: phalanx::Distance::CloseIn,
        budget: u64::MAX,
        deadline: None,
        ticks: 0,
        stopped: false,
        best: i64::MIN,
        best_moves: Vec::new(),
        cur: Vec::new(),
        cur_theirs: Vec::new(),
    };
    let mut blind = new(Vec::new());
    blind.max(0);
    assert_eq!(blind.best_moves, vec![(10, 11)], "without it: closes in");
    assert!(
        t.distance((10, 11), left_out) <= 5,
        "into the left-out enemy's range"
    );
    let mut seen = new(vec![(left_out, 1)]);
    seen.max(0);
    assert_eq!(seen.best_moves.len(), 1);
    assert!(
        t.distance(seen.best_moves[0], left_out) > 5,
        "with it: out of range ({:?})",
        seen.best_moves
    );
    assert!(seen.best > -768, "and no loss: {}", seen.best);
    // its death does not count: alone in range of two of ours (the part's on (11, 11), a
    // fixed one on (12, 14)) it dies by the focus rule and they live, worth 0, not a kill
    let mut two = new(vec![(left_out, 1)]);
    two.theirs.clear();
    two.fixed = vec![(12, 14)];
    two.ours = vec![vec![(11, 11)]];
    two.max(0);
    assert_eq!(two.best, 0, "no kill counted, no loss");
    let all = [((11, 11), 0), ((12, 14), 0), (left_out, 1)];
    assert_eq!(
        battle::focus_deaths(t, 5, &all),
        vec![false, false, true],
        "the left-out enemy dies"
    );
}

/// Turn 1's orders of player 0 on an open 40x40 map cut into two strips by water in
/// columns 0 and 26: both hills in the east strip, one enemy at (10, 20) in the west strip
/// with our ants at `ours`, the economy off and the whole map in view (nothing to explore
/// or fetch), and xathis's areas in the approach from `area` own ants (0: off).
fn area_orders(ours: &[(usize, usize)], area: usize) -> Vec<String> {
    let mut all: Vec<(usize, usize, u8)> = (0..40)
        .flat_map(|r| [(r, 0, b'%'), (r, 26, b'%')])
        .collect();
    all.extend([(5, 33, b'0'), (20, 33, b'1'), (10, 20, b'b')]);
    all.extend(ours.iter().map(|&(r, c)| (r, c, b'a')));
    let params = PhalanxParams {
        approach_area: area,
        ..lone_params(0, false)
    };
    orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
}

#[test]
fn an_ant_of_an_area_of_five_approaches_the_enemy_with_xathis_areas() {
    // five of ours spread over the west strip, no two within 5 rows and 5 columns (one in
    // each 11x11 box, so none has the five the approach needs); only (10, 10) is within 12
    // steps of the enemy (10 east). Their squares touch (one open strip), so with xathis's
    // areas from five they are an area of five and (10, 10) steps east; without the switch
    // all hold
    let five = [(10, 10), (10, 3), (3, 10), (17, 10), (24, 3)];
    assert!(area_orders(&five, 0).is_empty());
    assert_eq!(area_orders(&five, 5), vec!["o 10 10 e".to_string()]);
    // three of them are an area of three: below five they hold, from three (10, 10) steps
    assert!(area_orders(&five[..3], 5).is_empty());
    assert_eq!(area_orders(&five[..3], 3), vec!["o 10 10 e".to_string()]);
    // the enemy beyond the approach's 12 steps: none moves
    let far = [(10, 7), (10, 1), (3, 7), (17, 7), (24, 1)];
    assert!(area_orders(&far, 5).is_empty());
}

#[test]
fn area_approach_orders_are_legal_and_stay_in_budget() {
    assert_a_whole_game_stays_in_budget(PhalanxParams {
        approach_area: 5,
        ..PhalanxParams::default()
    });
}

#[test]
fn a_standoff_seen_five_moves_ahead_leaves_a_pocket_before_it_closes() {
    // a position of main's games against xathis (cell_maze_p02_08 with engine seed 11,
    // turn 183, ply in seat 0): our lone ant at (20, 20) with a block of water east of it
    // (columns 22-26) and eleven of his to the west, north-west and south. Seen three
    // moves ahead holding, north and east all keep a way out (three moves) and it holds,
    // as it did in the game; four moves later two of his could reach attack range of
    // every square left to it, and it died. Seen five moves ahead only north and east
    // keep a way out that long: the ant steps away while it still can
    let water = [
        (1, 3),
        (2, 4),
        (5, 5),
        (1, 2),
        (4, 4),
        (5, 4),
        (4, 3),
        (-1, 4),
        (0, 5),
        (3, 6),
        (-1, 3),
        (3, 5),
        (-1, 2),
        (2, 3),
        (3, 4),
        (1, 6),
        (2, 2),
        (1, 5),
        (1, 4),
        (4, 6),
        (0, 4),
        (4, 5),
        (0, 3),
        (0, 2),
        (3, 3),
        (2, 6),
        (3, 2),
        (2, 5),
    ];
    let enemies = [
        (-8, -4),
        (5, 0),
        (6, 1),
        (1, -4),
        (8, 2),
        (-6, -3),
        (-7, -3),
        (2, -6),
        (-5, -3),
        (-4, -4),
        (0, -4),
    ];
    let at = |(dr, dc): (i32, i32)| ((20 + dr) as usize, (20 + dc) as usize);
    let order = |standoff_steps| {
        let mut all = vec![(20, 20, b'a'), (38, 2, b'0'), (38, 38, b'1')];
        all.extend(water.iter().map(|&d| (at(d).0, at(d).1, b'%')));
        all.extend(enemies.iter().map(|&d| (at(d).0, at(d).1, b'b')));
        let params = PhalanxParams {
            standoff_steps,
            ..lone_params(0, false)
        };
        orders_in_full_view(&open_map(&all), PhalanxBot::with_params(0, params))
            .into_iter()
            .find(|o| o.starts_with("o 20 20 "))
    };
    assert_eq!(order(0), None);
    assert_eq!(order(3), None);
    let five = order(5);
    assert!(
        matches!(five.as_deref(), Some("o 20 20 n" | "o 20 20 e")),
        "{five:?}"
    );
}

#[test]
fn the_clock_guard_never_exceeds_a_third_of_the_turn() {
    // the contest's 500 ms turns: a guard of 500 ms would be no guard, so a third of it
    assert_eq!(phalanx::guard_ms(500, 500), 166);
    // the windows' 1500 ms: the guard as set
    assert_eq!(phalanx::guard_ms(500, 1500), 500);
    // no turntime in the setup: the guard as set; a guard of 0 stays off
    assert_eq!(phalanx::guard_ms(500, 0), 500);
    assert_eq!(phalanx::guard_ms(0, 500), 0);
}
