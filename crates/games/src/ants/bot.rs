//! Built-in Ants bots that run in-process and speak the same text protocol as external ones:
//! they read exactly what the engine sends a seat and answer order lines, so they know only
//! what their ants see (no peeking at the engine's state).
//!
//! * [`HoldBot`]: never moves (a baseline and a test fixture).
//! * [`RandomBot`]: a random legal-looking step for every ant, avoiding known water.
//! * [`HunterBot`]: gathers food by breadth-first search, explores what it has not seen
//!   lately, attacks enemy hills it knows, keeps its hills free for spawning, and steps away
//!   from fights the focus rule says it would lose.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::geometry::{Dir, Torus};
use super::map::Loc;

/// An in-process bot: one call per message the engine sends (setup, turn or end block).
pub trait AntsBot: Send {
    /// Reads one message and returns the order lines to send back (without `go`).
    fn answer(&mut self, message: &str) -> Vec<String>;
}

/// The built-in bots, by name (`builtin:NAME` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinBot {
    /// Never moves.
    Hold,
    /// Random steps.
    Random,
    /// Food, exploration, hills and battle awareness.
    Hunter,
}

impl BuiltinBot {
    /// Every built-in bot.
    pub const ALL: [BuiltinBot; 3] = [BuiltinBot::Hold, BuiltinBot::Random, BuiltinBot::Hunter];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            BuiltinBot::Hold => "hold",
            BuiltinBot::Random => "random",
            BuiltinBot::Hunter => "hunter",
        }
    }

    /// A fresh bot of this kind; `salt` varies the random ones between seats.
    pub fn create(self, salt: u64) -> Box<dyn AntsBot> {
        match self {
            BuiltinBot::Hold => Box::new(HoldBot),
            BuiltinBot::Random => Box::new(RandomBot::new(salt)),
            BuiltinBot::Hunter => Box::new(HunterBot::new(salt)),
        }
    }
}

impl fmt::Display for BuiltinBot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no built-in bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown built-in ants bot {0:?}; the bots are: hold, random, hunter")]
pub struct UnknownBotError(pub String);

impl FromStr for BuiltinBot {
    type Err = UnknownBotError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        BuiltinBot::ALL
            .into_iter()
            .find(|b| b.name() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| UnknownBotError(s.to_string()))
    }
}

/// Never moves.
#[derive(Clone, Copy, Debug, Default)]
pub struct HoldBot;

impl AntsBot for HoldBot {
    fn answer(&mut self, _message: &str) -> Vec<String> {
        Vec::new()
    }
}

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
    view: Vec<super::geometry::Offset>,
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

/// Random steps, avoiding known water; seeded by the game's `player_seed` and the seat salt.
#[derive(Clone, Debug)]
pub struct RandomBot {
    k: Knowledge,
    salt: u64,
    rng: Option<ChaCha8Rng>,
}

impl RandomBot {
    /// A random bot; `salt` distinguishes seats sharing one player seed.
    pub fn new(salt: u64) -> RandomBot {
        RandomBot {
            k: Knowledge::default(),
            salt,
            rng: None,
        }
    }
}

impl AntsBot for RandomBot {
    fn answer(&mut self, message: &str) -> Vec<String> {
        if !self.k.read(message) {
            return Vec::new();
        }
        let Some(t) = self.k.torus else {
            return Vec::new();
        };
        let seed = (self.k.player_seed as u64) ^ self.salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let rng = self
            .rng
            .get_or_insert_with(|| ChaCha8Rng::seed_from_u64(seed));
        let mut out = Vec::new();
        let mut taken: Vec<Loc> = Vec::new();
        for &a in &self.k.my_ants {
            let start = rng.random_range(0..4);
            for k in 0..4 {
                let d = Dir::ALL[(start + k) % 4];
                let n = t.step(a, d);
                if !self.k.water[t.index(n)] && !taken.contains(&n) {
                    taken.push(n);
                    out.push(format!("o {} {} {}", a.0, a.1, d.letter() as char));
                    break;
                }
            }
        }
        out
    }
}

/// Food by BFS, exploration, hill attack and defence, and battle awareness.
#[derive(Clone, Debug)]
pub struct HunterBot {
    k: Knowledge,
    salt: u64,
}

impl HunterBot {
    /// A hunter bot; `salt` only varies tie-breaks between seats.
    pub fn new(salt: u64) -> HunterBot {
        HunterBot {
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

impl AntsBot for HunterBot {
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

/// Plays a whole game with in-process bots, one per seat: sends each seat its pending text
/// and feeds back its orders, turn after turn. `on_turn` sees the match after every turn
/// (for progress bars and logs). External bots are the referee's business.
///
/// # Panics
/// If `bots` does not have one bot per seat.
pub fn play_in_process(
    m: &mut super::AntsMatch,
    bots: &mut [Box<dyn AntsBot>],
    mut on_turn: impl FnMut(&super::AntsMatch, &[Vec<String>]),
) {
    let n = m.game().players();
    assert_eq!(bots.len(), n, "one bot per seat");
    while !m.is_over() {
        let answers: Vec<Vec<String>> = (0..n)
            .map(|b| {
                if m.expects_answer(b) {
                    bots[b].answer(m.pending(b))
                } else {
                    Vec::new()
                }
            })
            .collect();
        m.play_turn(answers.iter().cloned().map(super::Answer::Orders).collect());
        on_turn(m, &answers);
    }
    // the end blocks
    for (b, bot) in bots.iter_mut().enumerate() {
        if !m.pending(b).is_empty() {
            bot.answer(m.pending(b));
        }
    }
}
