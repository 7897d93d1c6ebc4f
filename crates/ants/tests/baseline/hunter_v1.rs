//! The hunter bot as it was before the strength work (ply commit 2b2d011), frozen here as
//! a sparring partner so that `ants_strength` can measure the current hunter against it.
//! Not used anywhere else; do not improve it.

#![allow(dead_code)]

use std::collections::VecDeque;

use ply_ants::Loc;
use ply_ants::bot::AntsBot;
use ply_ants::geometry::{Dir, Torus};

/// What a bot has been told, accumulated over the game.
#[derive(Clone, Debug, Default)]
struct Knowledge {
    torus: Option<Torus>,
    player_seed: i64,
    attackradius2: usize,
    viewradius2: usize,
    turn: u32,
    water: Vec<bool>,
    /// Last turn each square was in view (0: never).
    seen: Vec<u32>,
    my_ants: Vec<Loc>,
    enemies: Vec<(Loc, u8)>,
    food: Vec<Loc>,
    my_hills: Vec<Loc>,
    enemy_hills: Vec<Loc>,
    view: Vec<ply_ants::geometry::Offset>,
}

impl Knowledge {
    /// Reads one message; returns whether it asks for orders (ends with `go` after a turn).
    fn read(&mut self, message: &str) -> bool {
        let mut turn_msg = false;
        let mut hills_seen: Vec<(Loc, u8)> = Vec::new();
        for line in message.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            let num = |i: usize| w.get(i).and_then(|x| x.parse::<usize>().ok()).unwrap_or(0);
            match w.first().copied() {
                Some("turn") => {
                    self.turn = num(1) as u32;
                    if self.turn > 0 {
                        turn_msg = true;
                        self.my_ants.clear();
                        self.enemies.clear();
                        self.food.clear();
                    }
                }
                Some("end") => return false,
                Some("rows") => {
                    self.torus = Some(Torus {
                        rows: num(1),
                        cols: 1,
                    })
                }
                Some("cols") => {
                    let rows = self.torus.map_or(1, |t| t.rows);
                    let t = Torus { rows, cols: num(1) };
                    self.torus = Some(t);
                    self.water = vec![false; t.area()];
                    self.seen = vec![0; t.area()];
                }
                Some("player_seed") => {
                    self.player_seed = w.get(1).and_then(|x| x.parse().ok()).unwrap_or(0);
                }
                Some("attackradius2") => self.attackradius2 = num(1),
                Some("viewradius2") => self.viewradius2 = num(1),
                Some("w") => {
                    if let Some(t) = self.torus {
                        self.water[t.index((num(1), num(2)))] = true;
                    }
                }
                Some("a") => {
                    let loc = (num(1), num(2));
                    match num(3) {
                        0 => self.my_ants.push(loc),
                        o => self.enemies.push((loc, o as u8)),
                    }
                }
                Some("f") => self.food.push((num(1), num(2))),
                Some("h") => hills_seen.push(((num(1), num(2)), num(3) as u8)),
                _ => {}
            }
        }
        if !turn_msg {
            return false;
        }
        let Some(t) = self.torus else { return false };
        if self.view.is_empty() {
            self.view = t.neighbourhood(self.viewradius2);
            self.view.push((0, 0));
        }
        for &a in &self.my_ants {
            for &o in &self.view {
                let l = t.add(a, o);
                self.seen[t.index(l)] = self.turn;
            }
        }
        // hills: forget remembered ones now in view but not reported (razed)
        let turn = self.turn;
        let seen = &self.seen;
        let visible_now = |l: Loc| seen[t.index(l)] == turn;
        self.my_hills.retain(|&l| !visible_now(l));
        self.enemy_hills.retain(|&l| !visible_now(l));
        for (l, o) in hills_seen {
            let list = if o == 0 {
                &mut self.my_hills
            } else {
                &mut self.enemy_hills
            };
            if !list.contains(&l) {
                list.push(l);
            }
        }
        true
    }
}

/// Food by BFS, exploration, hill attack and defence, and battle awareness.
#[derive(Clone, Debug)]
pub struct HunterV1 {
    k: Knowledge,
    salt: u64,
}

impl HunterV1 {
    /// A hunter bot; `salt` only varies tie-breaks between seats.
    pub fn new(salt: u64) -> HunterV1 {
        HunterV1 {
            k: Knowledge::default(),
            salt,
        }
    }

    /// Multi-source BFS distances over known non-water squares (unknown squares count as
    /// land), up to `limit` steps.
    fn distances(&self, t: Torus, sources: &[Loc], limit: u32) -> Vec<u32> {
        let mut d = vec![u32::MAX; t.area()];
        let mut q = VecDeque::new();
        for &s in sources {
            let i = t.index(s);
            if d[i] == u32::MAX {
                d[i] = 0;
                q.push_back(s);
            }
        }
        while let Some(c) = q.pop_front() {
            let dc = d[t.index(c)];
            if dc >= limit {
                continue;
            }
            for dir in Dir::ALL {
                let n = t.step(c, dir);
                let i = t.index(n);
                if d[i] == u32::MAX && !self.k.water[i] {
                    d[i] = dc + 1;
                    q.push_back(n);
                }
            }
        }
        d
    }

    /// Enemies that could reach attack range of `loc` next turn, and own ants (other than
    /// the one moving there) that could support it.
    fn fight_odds(&self, t: Torus, loc: Loc, me: Loc) -> (usize, usize) {
        // one step each way: range grows from sqrt(r2) to about sqrt(r2) + 1 (+1 for us)
        let reach = {
            let r = (self.k.attackradius2 as f64).sqrt() + 2.0;
            (r * r) as usize
        };
        let enemies = self
            .k
            .enemies
            .iter()
            .filter(|(e, _)| t.distance(*e, loc) <= reach)
            .count();
        let friends = self
            .k
            .my_ants
            .iter()
            .filter(|&&a| a != me && t.distance(a, loc) <= reach)
            .count();
        (enemies, friends)
    }
}

impl AntsBot for HunterV1 {
    fn answer(&mut self, message: &str) -> Vec<String> {
        if !self.k.read(message) {
            return Vec::new();
        }
        let Some(t) = self.k.torus else {
            return Vec::new();
        };
        let n = t.area();
        let mut orders = Vec::new();
        // squares already claimed this turn (own ants that stay, or destinations)
        let mut claimed = vec![false; n];
        let mut moved = vec![false; self.k.my_ants.len()];
        let ant_index = |l: Loc| self.k.my_ants.iter().position(|&a| a == l);

        // 1. food: each food claims its nearest free ant (BFS from the food)
        let mut food: Vec<Loc> = self.k.food.clone();
        food.sort_unstable();
        let mut is_ant = vec![u32::MAX; n];
        for (k, &a) in self.k.my_ants.iter().enumerate() {
            is_ant[t.index(a)] = k as u32;
        }
        let mut plans: Vec<(usize, Loc)> = Vec::new(); // (ant, first step target)
        for &f in &food {
            let mut parent = vec![u32::MAX; n];
            let mut q = VecDeque::from([(f, 0u32)]);
            parent[t.index(f)] = t.index(f) as u32;
            while let Some((c, dist)) = q.pop_front() {
                let k = is_ant[t.index(c)];
                if k != u32::MAX && !moved[k as usize] {
                    moved[k as usize] = true;
                    plans.push((k as usize, t.loc(parent[t.index(c)] as usize)));
                    break;
                }
                if dist >= 25 {
                    continue;
                }
                for dir in Dir::ALL {
                    let nb = t.step(c, dir);
                    let i = t.index(nb);
                    if parent[i] == u32::MAX && !self.k.water[i] {
                        parent[i] = t.index(c) as u32;
                        q.push_back((nb, dist + 1));
                    }
                }
            }
        }
        // 2. distance fields for the other ants: enemy hills, enemies near our hills,
        //    and unexplored squares
        let hills_field =
            (!self.k.enemy_hills.is_empty()).then(|| self.distances(t, &self.k.enemy_hills, 60));
        let threats: Vec<Loc> = self
            .k
            .enemies
            .iter()
            .map(|&(e, _)| e)
            .filter(|&e| self.k.my_hills.iter().any(|&h| t.distance(e, h) <= 100))
            .collect();
        let defence_field = (!threats.is_empty()).then(|| self.distances(t, &threats, 15));
        let stale: Vec<Loc> = (0..n)
            .filter(|&i| !self.k.water[i] && self.k.turn.saturating_sub(self.k.seen[i]) > 10)
            .map(|i| t.loc(i))
            .collect();
        let explore_field = self.distances(t, &stale, 40);

        let mut wanted: Vec<Option<Loc>> = vec![None; self.k.my_ants.len()];
        for (k, target) in plans {
            wanted[k] = Some(target);
        }
        let pick = |field: &Vec<u32>, a: Loc, salt: u64| -> Option<Loc> {
            let here = field[t.index(a)];
            let mut best: Option<(u32, u64, Loc)> = None;
            for (j, dir) in Dir::ALL.into_iter().enumerate() {
                let nb = t.step(a, dir);
                let d = field[t.index(nb)];
                let tie =
                    (salt ^ (a.0 * 131 + a.1 * 7 + j) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
                if d < here && best.is_none_or(|(bd, bt, _)| (d, tie) < (bd, bt)) {
                    best = Some((d, tie, nb));
                }
            }
            best.map(|(_, _, l)| l)
        };
        for (k, &a) in self.k.my_ants.iter().enumerate() {
            if wanted[k].is_some() {
                continue;
            }
            let salt = self.salt.wrapping_add(u64::from(self.k.turn));
            wanted[k] = defence_field
                .as_ref()
                .and_then(|f| pick(f, a, salt))
                .or_else(|| {
                    hills_field
                        .as_ref()
                        .filter(|_| k % 3 != 0)
                        .and_then(|f| pick(f, a, salt))
                })
                .or_else(|| pick(&explore_field, a, salt))
                .or_else(|| {
                    // nothing to do: step off our own hill so it can spawn
                    self.k.my_hills.contains(&a).then(|| {
                        Dir::ALL
                            .into_iter()
                            .map(|d| t.step(a, d))
                            .find(|&l| !self.k.water[t.index(l)])
                            .unwrap_or(a)
                    })
                });
        }
        // 3. battle awareness and collision avoidance: resolve moves, losers hold or retreat
        let mut final_dest: Vec<Loc> = self.k.my_ants.clone();
        for (k, &a) in self.k.my_ants.iter().enumerate() {
            let Some(dest) = wanted[k] else {
                continue;
            };
            if dest == a || self.k.water[t.index(dest)] {
                continue;
            }
            let (enemies, friends) = self.fight_odds(t, dest, a);
            let attacking_hill = self.k.enemy_hills.contains(&dest);
            if enemies > 0 && friends < enemies && !attacking_hill {
                continue;
            }
            final_dest[k] = dest;
        }
        // ants that hold claim their square first; movers must not land on them or each other
        for (k, &a) in self.k.my_ants.iter().enumerate() {
            if final_dest[k] == a {
                claimed[t.index(a)] = true;
            }
        }
        for (k, &a) in self.k.my_ants.iter().enumerate() {
            let dest = final_dest[k];
            if dest == a {
                continue;
            }
            let i = t.index(dest);
            // never onto a square an own ant stands on now: if that ant ended up holding,
            // both would die
            if claimed[i] || ant_index(dest).is_some() {
                claimed[t.index(a)] = true;
                continue;
            }
            claimed[i] = true;
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| t.step(a, d) == dest)
                .unwrap_or(Dir::N);
            orders.push(format!("o {} {} {}", a.0, a.1, dir.letter() as char));
        }
        orders
    }
}
