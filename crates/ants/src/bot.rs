//! Built-in Ants bots that run in-process and speak the same text protocol as external ones:
//! they read exactly what the engine sends a seat and answer order lines, so they know only
//! what their ants see (no peeking at the engine's state).
//!
//! * [`HoldBot`]: never moves (a baseline and a test fixture).
//! * [`RandomBot`]: a random legal-looking step for every ant, avoiding known water.
//! * [`HunterBot`]: gathers food by breadth-first search, explores what it has not seen
//!   lately, attacks enemy hills it knows, defends its own, keeps its hills free for
//!   spawning, and does not step into fights the focus rule says it would lose.
//! * [`PhalanxBot`]: the hunter's food and hill defence, with xathis's way of fighting
//!   (the 2011 winner): ants near an enemy close in on it, and every ant that an enemy
//!   could reach this turn moves by a max-min over its group's moves against every enemy
//!   reply, scored by the focus rule (`bot/phalanx.rs`, `bot/battle.rs`); and with his
//!   economy: idle ants explore by explore value, and only the nearest few raid an enemy
//!   hill (`bot/economy.rs`).
//!
//! # How the hunter chooses its orders
//!
//! Each turn, deterministically (ties broken by a hash of the seat's salt, the turn and the
//! square; no random numbers), in this order:
//!
//! 1. **Food**: a BFS from every visible food (around known water, unknown squares count as
//!    land, up to 30 steps) finds its 4 nearest ants; all (distance, food, ant) pairs are
//!    sorted and matched nearest first, so no two ants chase one food and no ant two. The
//!    first version took the foods in square order, each with its nearest free ant, which
//!    sent an ant to a far food when a nearer one was behind it (the
//!    `pairs_ants_with_food_nearest_pair_first` test). An ant already next to its food
//!    holds: it gathers at the end of the turn.
//! 2. **Defence**: enemies within distance² 100 of an own hill draw every free ant within 15
//!    steps.
//! 3. **Attack**: a known enemy hill draws every free ant within 25 steps, and two in three
//!    of the others (the rest keep exploring). The first version sent only two in three of
//!    all ants, so a lone ant next to an undefended hill never razed it.
//! 4. **Exploration**: the squares not seen for 10 turns, then (early in the game) the
//!    squares never seen, within 60 steps; the last resort is stepping off an own hill so it
//!    can spawn. Trying never-seen squares first sent the ants deep into enemy land on large
//!    maps, where they gathered less food: against the first version on 60x90 maps (5 maps,
//!    both seats) that order won 5 games of 10 and ended with 36% of the ants, the
//!    stale-first order won 7 of 10 with 56% (docs/benchmarks.md).
//! 5. **Battle**: for every square, the number of enemies that could have it within
//!    attackradius2 after their next move (holding, or one step onto land) is the number an
//!    ant there may face. Its support is the own ants within distance² 10 that can
//!    themselves move within attack range of where one of those enemies may stand. A move
//!    is taken if the threat is 0, or smaller than the support plus the ant itself, or equal
//!    to it when we outnumber the visible enemies two to one (even trades then favour us), or
//!    if the square is an enemy hill. Otherwise the ant tries its next wanted square, then
//!    holds, and if holding is itself unsafe it steps to its least threatened free
//!    neighbour. Counting every ant within distance² 10 as support (the first form) let two
//!    ants walk in single file into a one-against-one trade; counting only ants that can
//!    reach range, with the detours of step 6, brings them up side by side
//!    (`defends_its_hill_against_an_intruder`), and lifted the score against the first
//!    version on 60x90 maps from 7 wins in 10 (56% of the ants) to 9 wins and a draw (81%).
//! 6. **Collisions**: ants are resolved one by one, each trying its wanted squares in order:
//!    the steps down its distance field, the sidesteps that keep the distance, and, only
//!    when an own ant blocks the way, the detours one step farther. A square is taken by an
//!    ant that stays or arrives, and an own ant's square becomes free only once that ant has
//!    moved away, so the hunter never kills its own ants by collision.
//!
//! Cost: a few BFS over the map per turn, well under a millisecond per turn on a 60x90 map
//! (docs/benchmarks.md, "Built-in bot strength").

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
    /// xathis's way of fighting (approach, then a max-min over each engaged group's
    /// moves) and his economy (explore values, a few raiders).
    Phalanx,
}

impl BuiltinBot {
    /// Every built-in bot.
    pub const ALL: [BuiltinBot; 4] = [
        BuiltinBot::Hold,
        BuiltinBot::Random,
        BuiltinBot::Hunter,
        BuiltinBot::Phalanx,
    ];

    /// Its name.
    pub const fn name(self) -> &'static str {
        match self {
            BuiltinBot::Hold => "hold",
            BuiltinBot::Random => "random",
            BuiltinBot::Hunter => "hunter",
            BuiltinBot::Phalanx => "phalanx",
        }
    }

    /// A fresh bot of this kind; `salt` varies the random ones between seats.
    pub fn create(self, salt: u64) -> Box<dyn AntsBot> {
        match self {
            BuiltinBot::Hold => Box::new(HoldBot),
            BuiltinBot::Random => Box::new(RandomBot::new(salt)),
            BuiltinBot::Hunter => Box::new(HunterBot::new(salt)),
            BuiltinBot::Phalanx => Box::new(PhalanxBot::new(salt)),
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
#[error("unknown built-in ants bot {0:?}; the bots are: hold, random, hunter, phalanx")]
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
    /// The turn's time limit in milliseconds from the setup (0: not told).
    turntime: u64,
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
                Some("turntime") => self.turntime = num(1) as u64,
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

/// Food by BFS, exploration, hill attack and defence, and battle awareness: see the module
/// docs for how each turn's orders are chosen.
#[derive(Clone, Debug)]
pub struct HunterBot {
    k: Knowledge,
    salt: u64,
}

/// An ant's wanted squares, best first; `true` marks a detour, taken only when an own ant
/// blocks the way.
type Wanted = Vec<(Loc, bool)>;

/// What a bot built on the hunter's plan changes in it.
#[derive(Clone, Copy, Debug, Default)]
struct PlanHooks<'a> {
    /// Per ant, squares tried after the hill attack and before exploring (the phalanx's
    /// approach to a nearby enemy).
    extra: Option<&'a [Option<Wanted>]>,
    /// Per ant, whether it goes for a known enemy hill; `None`: the hunter's rule, every
    /// ant within [`HILL_RUSH`] steps and two in three of the others.
    raiders: Option<&'a [bool]>,
}

/// BFS steps within which an ant is sent to a food.
const FOOD_REACH: u32 = 30;
/// Ants considered per food (the nearest ones), before the nearest pairs are matched.
const FOOD_CANDIDATES: usize = 4;
/// BFS steps within which every free ant goes for a known enemy hill (beyond it, two in
/// three do, the others explore).
const HILL_RUSH: u32 = 25;
/// Enemies within this squared distance of an own hill are threats to it.
const DEFENCE_RADIUS2: usize = 100;
/// BFS steps within which free ants go for such a threat.
const DEFENCE_REACH: u32 = 15;
/// BFS steps within which ants look for unseen, then stale, squares.
const EXPLORE_REACH: u32 = 60;
/// Squares not in view for this many turns are worth seeing again.
const STALE_TURNS: u32 = 10;
/// Own ants within this squared distance of a square can fight beside an ant there.
const SUPPORT_RADIUS2: usize = 10;

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

    /// For every square, how many enemies could have it within attack range after their
    /// next move (holding or one step onto land): the focus rule's count of enemies an ant
    /// there may face.
    fn threats(&self, t: Torus) -> Vec<u8> {
        let n = t.area();
        let mut threat = vec![0u8; n];
        if self.k.enemies.is_empty() {
            return threat;
        }
        let mut attack = t.neighbourhood(self.k.attackradius2);
        attack.push((0, 0));
        attack.sort_unstable();
        attack.dedup();
        let mut stamp = vec![usize::MAX; n];
        for (k, &(e, _)) in self.k.enemies.iter().enumerate() {
            for p in self.reach(t, e) {
                for &o in &attack {
                    let i = t.index(t.add(p, o));
                    if stamp[i] != k {
                        stamp[i] = k;
                        threat[i] = threat[i].saturating_add(1);
                    }
                }
            }
        }
        threat
    }

    /// The squares an ant at `a` may stand on after its move: `a` and its land neighbours.
    fn reach(&self, t: Torus, a: Loc) -> impl Iterator<Item = Loc> + '_ {
        std::iter::once(a).chain(
            Dir::ALL
                .into_iter()
                .map(move |d| t.step(a, d))
                .filter(move |&s| !self.k.water[t.index(s)]),
        )
    }

    /// Own ants other than the one at `me` that can fight beside an ant at `loc`: those
    /// that can move within attack range of a square where one of the enemies threatening
    /// `loc` may stand (an ant following in single file cannot).
    fn support(&self, t: Torus, loc: Loc, me: Loc) -> usize {
        let r2 = self.k.attackradius2;
        let near = |a: Loc, b: Loc| t.distance(a, b) <= r2;
        let foes: Vec<Loc> = self
            .k
            .enemies
            .iter()
            .map(|&(e, _)| e)
            .filter(|&e| self.reach(t, e).any(|p| near(p, loc)))
            .flat_map(|e| self.reach(t, e))
            .collect();
        self.k
            .my_ants
            .iter()
            .filter(|&&a| {
                a != me
                    && t.distance(a, loc) <= SUPPORT_RADIUS2
                    && self
                        .reach(t, a)
                        .any(|s| s != loc && foes.iter().any(|&e| near(s, e)))
            })
            .count()
    }

    /// Each food's nearest ants by BFS (around known water), matched nearest pair first so
    /// that no two ants chase one food and no ant two; returns each matched ant's first
    /// step (its own square when it is already next to the food: it gathers by staying).
    fn food_steps(&self, t: Torus, ant_at: &[u32]) -> Vec<Option<Loc>> {
        let n = t.area();
        let mut food = self.k.food.clone();
        food.sort_unstable();
        let mut candidates: Vec<(u32, usize, usize, Loc)> = Vec::new();
        let mut parent = vec![u32::MAX; n];
        let mut touched: Vec<usize> = Vec::new();
        for (fi, &f) in food.iter().enumerate() {
            for &i in &touched {
                parent[i] = u32::MAX;
            }
            touched.clear();
            let fidx = t.index(f);
            parent[fidx] = fidx as u32;
            touched.push(fidx);
            let mut q = VecDeque::from([(f, 0u32)]);
            let mut found = 0;
            while let Some((c, dist)) = q.pop_front() {
                let ci = t.index(c);
                let k = ant_at[ci];
                if k != u32::MAX {
                    let step = if dist <= 1 {
                        c
                    } else {
                        t.loc(parent[ci] as usize)
                    };
                    candidates.push((dist, fi, k as usize, step));
                    found += 1;
                    if found == FOOD_CANDIDATES {
                        break;
                    }
                }
                if dist >= FOOD_REACH {
                    continue;
                }
                for dir in Dir::ALL {
                    let nb = t.step(c, dir);
                    let i = t.index(nb);
                    if parent[i] == u32::MAX && !self.k.water[i] {
                        parent[i] = ci as u32;
                        touched.push(i);
                        q.push_back((nb, dist + 1));
                    }
                }
            }
        }
        candidates.sort_unstable();
        let mut taken = vec![false; food.len()];
        let mut steps = vec![None; self.k.my_ants.len()];
        for (_, fi, k, step) in candidates {
            if !taken[fi] && steps[k].is_none() {
                taken[fi] = true;
                steps[k] = Some(step);
            }
        }
        steps
    }
}

impl HunterBot {
    /// The steps from `a` down a distance `field`, best first, then the sidesteps that keep
    /// the distance, then the detours one step farther (so that an ant blocked behind
    /// another comes up beside it); none if no step gets nearer. Ties are broken by a hash
    /// of the seat's salt, the turn and the square.
    fn descend(&self, t: Torus, field: &[u32], a: Loc) -> Option<Vec<(Loc, bool)>> {
        let salt = self.salt.wrapping_add(u64::from(self.k.turn));
        let here = field[t.index(a)];
        let mut better = Vec::new();
        let mut level = Vec::new();
        let mut detour = Vec::new();
        for (j, dir) in Dir::ALL.into_iter().enumerate() {
            let nb = t.step(a, dir);
            let d = field[t.index(nb)];
            let tie = (salt ^ (a.0 * 131 + a.1 * 7 + j) as u64).wrapping_mul(0x2545_F491_4F6C_DD1D);
            if d < here {
                better.push((d, tie, nb));
            } else if d == here && d != u32::MAX {
                level.push((d, tie, nb));
            } else if d == here.saturating_add(1) && d != u32::MAX {
                detour.push((d, tie, nb));
            }
        }
        if better.is_empty() {
            return None;
        }
        better.sort_unstable();
        level.sort_unstable();
        detour.sort_unstable();
        Some(
            better
                .into_iter()
                .chain(level)
                .map(|(_, _, l)| (l, false))
                .chain(detour.into_iter().map(|(_, _, l)| (l, true)))
                .collect(),
        )
    }

    /// The squares each ant would like to step to, best first (`true` marks a detour, taken
    /// only when an own ant blocks the way): its food, then a threat to our hill, an enemy
    /// hill, the `hooks`' extra squares if given (the phalanx's approach to a nearby
    /// enemy), squares not seen lately, squares never seen, and stepping off our hill.
    /// Also which ants had nothing before the exploration to do (the idle ones, whose
    /// steps a bot built on this plan may choose otherwise).
    fn plan(
        &self,
        t: Torus,
        ants: &[Loc],
        ant_at: &[u32],
        hooks: PlanHooks<'_>,
    ) -> (Vec<Vec<(Loc, bool)>>, Vec<bool>) {
        let extra = hooks.extra;
        let n = t.area();

        // 1. food, nearest pairs first
        // per ant, the squares it would like to step to, best first; `true` marks a detour
        // (one step farther), taken only when an own ant blocks the way
        let mut wanted: Vec<Vec<(Loc, bool)>> = self
            .food_steps(t, ant_at)
            .into_iter()
            .map(|s| s.into_iter().map(|l| (l, false)).collect())
            .collect();

        // 2. distance fields for the others: threats near our hills, enemy hills, squares
        //    never seen, squares not seen lately
        let threats: Vec<Loc> = self
            .k
            .enemies
            .iter()
            .map(|&(e, _)| e)
            .filter(|&e| {
                self.k
                    .my_hills
                    .iter()
                    .any(|&h| t.distance(e, h) <= DEFENCE_RADIUS2)
            })
            .collect();
        let defence_field =
            (!threats.is_empty()).then(|| self.distances(t, &threats, DEFENCE_REACH));
        let hills_field = (!self.k.enemy_hills.is_empty())
            .then(|| self.distances(t, &self.k.enemy_hills, 2 * EXPLORE_REACH));
        let unseen: Vec<Loc> = (0..n)
            .filter(|&i| self.k.seen[i] == 0 && !self.k.water[i])
            .map(|i| t.loc(i))
            .collect();
        let unseen_field = self.distances(t, &unseen, EXPLORE_REACH);
        let mut stale_field: Option<Vec<u32>> = None;
        let pick = |field: &[u32], a: Loc| self.descend(t, field, a);
        let mut idle = vec![false; ants.len()];
        for (k, &a) in ants.iter().enumerate() {
            if !wanted[k].is_empty() {
                continue;
            }
            let i = t.index(a);
            let raider = match hooks.raiders {
                Some(r) => r[k],
                None => k % 3 != 0 || hills_field.as_deref().is_some_and(|f| f[i] <= HILL_RUSH),
            };
            let busy = defence_field
                .as_deref()
                .and_then(|f| pick(f, a))
                .or_else(|| {
                    hills_field
                        .as_deref()
                        .filter(|_| raider)
                        .and_then(|f| pick(f, a))
                })
                .or_else(|| extra.and_then(|x| x[k].clone()));
            idle[k] = busy.is_none();
            let choice = busy
                .or_else(|| {
                    let f = stale_field.get_or_insert_with(|| {
                        let stale: Vec<Loc> = (0..n)
                            .filter(|&i| {
                                !self.k.water[i]
                                    && self.k.turn.saturating_sub(self.k.seen[i]) > STALE_TURNS
                            })
                            .map(|i| t.loc(i))
                            .collect();
                        self.distances(t, &stale, EXPLORE_REACH)
                    });
                    pick(f, a)
                })
                .or_else(|| pick(&unseen_field, a))
                .or_else(|| {
                    // nothing to do: step off our own hill so it can spawn
                    self.k.my_hills.contains(&a).then(|| {
                        Dir::ALL
                            .into_iter()
                            .map(|d| t.step(a, d))
                            .filter(|&l| !self.k.water[t.index(l)])
                            .map(|l| (l, false))
                            .collect()
                    })
                });
            wanted[k] = choice.unwrap_or_default();
        }

        (wanted, idle)
    }

    /// The focus rule as the hunter counts it: a square is safe if no enemy can reach attack
    /// range of it, or if more of us than of them can fight there; even trades are taken
    /// when we outnumber the visible enemies two to one; an enemy hill is worth any fight.
    fn safety<'a>(
        &'a self,
        t: Torus,
        ants: &[Loc],
        threat: &'a [u8],
    ) -> impl Fn(Loc, Loc) -> bool + 'a {
        let trade = ants.len() >= 10 && ants.len() >= 2 * self.k.enemies.len();
        move |dest: Loc, me: Loc| -> bool {
            let th = usize::from(threat[t.index(dest)]);
            if th == 0 || self.k.enemy_hills.contains(&dest) {
                return true;
            }
            let us = self.support(t, dest, me) + 1;
            us > th || (trade && us >= th)
        }
    }

    /// The orders that move each ant (taken in `order`) to its first wanted square that is
    /// free and `safe` (a square is taken by an ant that stays or arrives; an own ant's
    /// square is free only once that ant has moved away). An ant for which holding is
    /// itself unsafe steps to its least `threat`ened free neighbour. With `defer`, an ant
    /// whose first choice is held by an own ant not yet moved waits for a later pass (while
    /// passes make progress), so that ant can leave first.
    #[allow(clippy::too_many_arguments)]
    fn resolve(
        &self,
        t: Torus,
        ants: &[Loc],
        ant_at: &[u32],
        wanted: &[Vec<(Loc, bool)>],
        order: &[usize],
        defer: bool,
        threat: &[u8],
        safe: impl Fn(Loc, Loc) -> bool,
    ) -> Vec<String> {
        let n = t.area();
        let mut taken = vec![false; n];
        let mut left = vec![false; n];
        let mut done = vec![false; ants.len()];
        let mut orders = Vec::new();
        let free = |l: Loc, taken: &[bool], left: &[bool]| {
            let i = t.index(l);
            !self.k.water[i] && !taken[i] && (ant_at[i] == u32::MAX || left[i])
        };
        let mut pending: Vec<usize> = order.to_vec();
        let mut waiting = defer;
        while !pending.is_empty() {
            let before = pending.len();
            let mut later = Vec::new();
            for &k in &pending {
                let a = ants[k];
                if waiting && let Some(&(w, _)) = wanted[k].first() {
                    let i = t.index(w);
                    let held = ant_at[i] != u32::MAX && !done[ant_at[i] as usize];
                    if w != a && held && !left[i] && !taken[i] {
                        later.push(k);
                        continue;
                    }
                }
                let mut dest = a;
                // the first wanted square that is free and safe; an ant wanting its own
                // square (next to its food) holds
                let mut blocked = false;
                for &(w, detour) in &wanted[k] {
                    if w == a || (detour && !blocked) {
                        break;
                    }
                    if !free(w, &taken, &left) {
                        blocked = true;
                        continue;
                    }
                    if safe(w, a) {
                        dest = w;
                        break;
                    }
                }
                if dest == a && !safe(a, a) {
                    // in a losing fight where it stands: step to the least threatened square
                    let mut best = (threat[t.index(a)], a);
                    for d in Dir::ALL {
                        let s = t.step(a, d);
                        if free(s, &taken, &left) && threat[t.index(s)] < best.0 {
                            best = (threat[t.index(s)], s);
                        }
                    }
                    dest = best.1;
                }
                done[k] = true;
                taken[t.index(dest)] = true;
                if dest != a {
                    left[t.index(a)] = true;
                    let dir = Dir::ALL
                        .into_iter()
                        .find(|&d| t.step(a, d) == dest)
                        .unwrap_or(Dir::N);
                    orders.push(format!("o {} {} {}", a.0, a.1, dir.letter() as char));
                }
            }
            // no progress: the rest are waiting on each other, so they stop waiting
            waiting = waiting && later.len() < before;
            pending = later;
        }
        orders
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
        let ants = self.k.my_ants.clone();
        let mut ant_at = vec![u32::MAX; n];
        for (k, &a) in ants.iter().enumerate() {
            ant_at[t.index(a)] = k as u32;
        }
        let (wanted, _) = self.plan(t, &ants, &ant_at, PlanHooks::default());
        let threat = self.threats(t);
        let safe = self.safety(t, &ants, &threat);
        let order: Vec<usize> = (0..ants.len()).collect();
        self.resolve(t, &ants, &ant_at, &wanted, &order, false, &threat, safe)
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
        m.play_turn(answers.iter().cloned().map(Ok).collect());
        on_turn(m, &answers);
    }
    // the end blocks
    for (b, bot) in bots.iter_mut().enumerate() {
        if !m.pending(b).is_empty() {
            bot.answer(m.pending(b));
        }
    }
}

mod battle;
mod economy;
mod phalanx;
pub use phalanx::{Mover, PartTrace, PhalanxBot, PhalanxParams};

#[cfg(test)]
mod tests;
