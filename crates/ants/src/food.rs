//! Food spawning, with the original's modes: `none`, `random`, `sections`, `symmetric`
//! (and the symmetric "visible" sets placed at the start).
//!
//! Every random choice is drawn from [`PyRandom`], CPython's generator, in the original's
//! order, and every order the original takes from a Python container is reproduced (the
//! pending-food dict's insertion order, each symmetric set in Python's set order), so the
//! same engine seed places the same food on the same turns as the original.

use std::collections::VecDeque;

use super::FoodMode;
use super::game::{AntsGame, Cell};
use super::geometry::Dir;
use super::map::Loc;
use super::pyrandom::set_order;

/// A symmetry: for each hill of the chosen orientation set, its square and its aim (one of
/// the eight rotations and reflections of `offset_aim`).
type Orientation = Vec<(Loc, u8)>;

/// Why a game cannot be set up: the original places food through the map's symmetry
/// whenever food is on, and refuses maps whose starts do not look alike.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("this map is not symmetric ({0}); food needs a symmetric map, or use food `none`")]
pub struct NewGameError(pub String);

/// The food planner's state: pending food and the symmetric sets.
#[derive(Clone, Debug, Default)]
pub struct FoodPlanner {
    /// Squares waiting for food, in the order the original's dict keeps them.
    pending: Vec<(usize, u32)>,
    /// The squares each player reaches first at the start (`sections`).
    access: Vec<Vec<Loc>>,
    symmetry: Option<Orientation>,
    sets: Option<VecDeque<Option<Vec<Loc>>>>,
    visible_sets: Option<VecDeque<Option<Vec<Loc>>>>,
}

impl FoodPlanner {
    pub(crate) fn new(g: &AntsGame) -> FoodPlanner {
        FoodPlanner {
            access: if g.settings.food == FoodMode::Sections {
                access_map(g)
            } else {
                Vec::new()
            },
            ..FoodPlanner::default()
        }
    }
}

/// `offset_aim`: one of eight orientations of an offset.
fn offset_aim((r, c): (i64, i64), aim: u8) -> (i64, i64) {
    match aim {
        0 => (r, c),
        1 => (-r, c),
        2 => (r, -c),
        3 => (-r, -c),
        4 => (c, r),
        5 => (-c, r),
        6 => (c, -r),
        _ => (-c, -r),
    }
}

fn dest(g: &AntsGame, (r, c): Loc, (dr, dc): (i64, i64)) -> Loc {
    let t = g.torus;
    (
        (r as i64 + dr).rem_euclid(t.rows as i64) as usize,
        (c as i64 + dc).rem_euclid(t.cols as i64) as usize,
    )
}

/// The original's integer code of a square: owner for ants, -2 land, -3 food, -4 water.
fn ilk(g: &AntsGame, loc: Loc) -> i32 {
    match g.grid[g.torus.index(loc)] {
        Cell::Ant(o) => i32::from(o),
        Cell::Land => -2,
        Cell::Food => -3,
        Cell::Water => -4,
    }
}

/// `map_similar`: whether the map seen from `loc2` with `aim` looks like the map seen from
/// `loc1`, `player` standing for player 0; gives the player translation.
fn map_similar(g: &AntsGame, loc1: Loc, loc2: Loc, aim: u8, player: i32) -> Option<Vec<i32>> {
    let t = g.torus;
    let mut enemy = vec![-1; g.players];
    for row in 0..t.rows as i64 {
        for col in 0..t.cols as i64 {
            let i0 = ilk(g, dest(g, loc1, (row, col)));
            let i1 = ilk(g, dest(g, loc2, offset_aim((row, col), aim)));
            if (i0 == 0 && i1 != player)
                || (i0 > 0 && (i1 < 0 || i1 == player))
                || (i0 < 0 && i1 != i0)
            {
                return None;
            }
            if i0 >= 0 {
                enemy[i0 as usize] = i1;
            }
        }
    }
    Some(enemy)
}

/// `get_map_symmetry`: every orientation set under which all players' starts look alike.
pub(crate) fn map_symmetries(g: &mut AntsGame) -> Result<Vec<Orientation>, NewGameError> {
    let hills_of = |g: &AntsGame, p: usize| -> Vec<Loc> {
        g.hills
            .iter()
            .filter(|h| usize::from(h.owner) == p)
            .map(|h| h.loc)
            .collect()
    };
    let hills0 = hills_of(g, 0);
    let Some(&first) = hills0.first() else {
        return Err(NewGameError("player 0 has no hill".into()));
    };
    let mut orientations: Vec<(Orientation, Vec<Vec<i32>>)> =
        vec![(vec![(first, 0)], vec![(0..g.players as i32).collect()])];
    for p in 1..g.players {
        let ph = hills_of(g, p);
        if ph.len() != hills0.len() {
            return Err(NewGameError(format!(
                "player 0 has {} hills while player {p} has {}",
                hills0.len(),
                ph.len()
            )));
        }
        let mut next = Vec::new();
        for &h in &ph {
            for aim in 0..8 {
                if let Some(em) = map_similar(g, first, h, aim, p as i32) {
                    for (o, ems) in &orientations {
                        let mut o = o.clone();
                        let mut ems = ems.clone();
                        o.push((h, aim));
                        ems.push(em.clone());
                        next.push((o, ems));
                    }
                }
            }
        }
        orientations = next;
        if orientations.is_empty() {
            return Err(NewGameError(format!(
                "player {p} has no orientation that matches player 0"
            )));
        }
    }
    let mut valid = Vec::new();
    for (o, ems) in orientations {
        let mut fix = Vec::new();
        for &(loc, aim) in &o {
            let l = dest(g, loc, offset_aim((1, 2), aim));
            let i = g.torus.index(l);
            fix.push((i, g.grid[i]));
            g.grid[i] = Cell::Food;
        }
        let ok = o
            .iter()
            .zip(&ems)
            .all(|(&(loc, aim), em)| map_similar(g, o[0].0, loc, aim, em[0]).is_some());
        for &(i, c) in fix.iter().rev() {
            g.grid[i] = c;
        }
        if ok {
            valid.push(o);
        }
    }
    if valid.is_empty() {
        return Err(NewGameError("there are no valid orientation sets".into()));
    }
    Ok(valid)
}

/// Chooses one symmetry at random, as the original does on first use.
pub(crate) fn choose_symmetry(g: &mut AntsGame) -> Result<(), NewGameError> {
    let all = map_symmetries(g)?;
    let k = g.rng.choice_index(all.len());
    g.food_plan.symmetry = Some(all[k].clone());
    Ok(())
}

/// `get_initial_vision_squares`: squares reachable from a hill without leaving its view.
fn initial_vision_squares(g: &AntsGame) -> Vec<bool> {
    let t = g.torus;
    let mut seen = vec![false; t.area()];
    for h in &g.hills {
        let mut q = VecDeque::from([h.loc]);
        while let Some(c) = q.pop_front() {
            seen[t.index(c)] = true;
            for d in Dir::ALL {
                let n = t.step(c, d);
                if !seen[t.index(n)]
                    && g.grid[t.index(n)] != Cell::Water
                    && t.distance(h.loc, n) <= g.settings.viewradius2
                {
                    q.push_back(n);
                }
            }
        }
    }
    seen
}

/// `get_symmetric_food_sets`: each set listed in Python's set order (`list(set(...))`).
fn symmetric_sets(g: &AntsGame, starting: bool) -> Vec<Vec<Loc>> {
    let t = g.torus;
    let Some(sym) = &g.food_plan.symmetry else {
        return Vec::new();
    };
    let ant0 = sym[0].0;
    let vision = starting.then(|| initial_vision_squares(g));
    let mut visited = vec![false; t.area()];
    let mut sets = Vec::new();
    for row in 0..t.rows {
        for col in 0..t.cols {
            let i = t.index((row, col));
            if visited[i] || g.is_hill((row, col)) {
                continue;
            }
            if let Some(v) = &vision
                && !v[i]
            {
                continue;
            }
            let o = (row as i64 - ant0.0 as i64, col as i64 - ant0.1 as i64);
            let all: Vec<Loc> = sym
                .iter()
                .map(|&(loc, aim)| dest(g, loc, offset_aim(o, aim)))
                .collect();
            let locs = set_order(&all);
            if locs[1..].iter().any(|&l| t.distance(locs[0], l) == 1) {
                continue;
            }
            if !starting || locs.len() == g.players {
                for &l in &locs {
                    visited[t.index(l)] = true;
                }
                sets.push(locs);
            }
        }
    }
    sets
}

/// `place_food`: food goes on every pending square that is free land.
fn place_food(g: &mut AntsGame) {
    let mut pending = std::mem::take(&mut g.food_plan.pending);
    pending.retain_mut(|(i, n)| {
        let loc = g.torus.loc(*i);
        if g.is_land(loc) {
            g.add_food(loc);
            *n -= 1;
        }
        *n > 0
    });
    g.food_plan.pending = pending;
}

fn schedule(g: &mut AntsGame, loc: Loc) {
    let i = g.torus.index(loc);
    match g.food_plan.pending.iter_mut().find(|(j, _)| *j == i) {
        Some((_, n)) => *n += 1,
        None => g.food_plan.pending.push((i, 1)),
    }
}

/// The set rotation shared by `do_food_symmetric` and `do_food_visible`: whole sets are
/// scheduled while they fit in `amount`; the rest is carried over.
fn from_sets(g: &mut AntsGame, mut amount: usize, visible: bool) -> usize {
    let slot = if visible {
        g.food_plan.visible_sets.take()
    } else {
        g.food_plan.sets.take()
    };
    let mut sets = match slot {
        Some(s) => s,
        None => {
            let mut d: VecDeque<Option<Vec<Loc>>> =
                symmetric_sets(g, visible).into_iter().map(Some).collect();
            d.push_back(None);
            d
        }
    };
    if sets.len() > 1 {
        loop {
            let mut s = sets.pop_back().flatten();
            if s.is_none() {
                g.rng.shuffle(sets.make_contiguous());
                sets.push_front(None);
                s = sets.pop_back().flatten();
            }
            let Some(s) = s else { break };
            if s.len() > amount {
                sets.push_back(Some(s));
                break;
            }
            amount -= s.len();
            for &l in &s {
                schedule(g, l);
            }
            sets.push_front(Some(s));
        }
    }
    if visible {
        g.food_plan.visible_sets = Some(sets);
    } else {
        g.food_plan.sets = Some(sets);
    }
    place_food(g);
    amount
}

/// Places the starting food in view of the hills (`do_food_visible`).
pub(crate) fn food_visible(g: &mut AntsGame, amount: usize) {
    from_sets(g, amount, true);
}

/// `do_food` for the game's mode; returns the amount carried over to the next turn.
pub(crate) fn do_food(g: &mut AntsGame, amount: usize) -> usize {
    match g.settings.food {
        FoodMode::None => amount,
        FoodMode::Random => {
            let t = g.torus;
            if g.grid.contains(&Cell::Land) {
                for _ in 0..amount {
                    loop {
                        let row = g.rng.randbelow(t.rows as u64) as usize;
                        let col = g.rng.randbelow(t.cols as u64) as usize;
                        let loc = (row, col);
                        if g.is_land(loc) {
                            schedule(g, loc);
                            break;
                        }
                    }
                }
            }
            place_food(g);
            0
        }
        FoodMode::Sections => {
            let n = g.players;
            for _ in 0..amount / n {
                for p in 0..n {
                    let squares = &g.food_plan.access[p];
                    if squares.is_empty() {
                        continue;
                    }
                    let loc = squares[g.rng.choice_index(squares.len())];
                    if g.is_land(loc) {
                        schedule(g, loc);
                    }
                }
            }
            place_food(g);
            amount % n
        }
        FoodMode::Symmetric => from_sets(g, amount, false),
    }
}

/// `access_map`: the squares each player reaches strictly first from its ants, by BFS.
fn access_map(g: &AntsGame) -> Vec<Vec<Loc>> {
    let t = g.torus;
    let mut dist: Vec<Option<u32>> = vec![None; t.area()];
    let mut who: Vec<u16> = vec![0; t.area()]; // bit set of players
    let mut order = Vec::new();
    let mut q = VecDeque::new();
    for i in 0..t.area() {
        if let Cell::Ant(o) = g.grid[i] {
            dist[i] = Some(0);
            who[i] |= 1 << o;
            q.push_back(i);
            order.push(i);
        }
    }
    while let Some(c) = q.pop_front() {
        let d = dist[c].unwrap_or(0);
        for dir in Dir::ALL {
            let n = t.index(t.step(t.loc(c), dir));
            if g.grid[n] == Cell::Water {
                continue;
            }
            match dist[n] {
                None => {
                    dist[n] = Some(d + 1);
                    who[n] |= who[c];
                    q.push_back(n);
                    order.push(n);
                }
                Some(x) if x == d + 1 => who[n] |= who[c],
                _ => {}
            }
        }
    }
    let mut out = vec![Vec::new(); g.players];
    for i in order {
        if who[i].count_ones() == 1 {
            out[who[i].trailing_zeros() as usize].push(t.loc(i));
        }
    }
    out
}
