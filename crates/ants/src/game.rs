//! The game state and its turn phases: the original `Ants` class, phase by phase.

use super::food::{FoodPlanner, NewGameError};
use super::geometry::{Dir, Offset, Torus, VisionStencil};
use super::map::{AntsMap, Loc};
use super::orders::{IgnoredOrder, InvalidOrder, OrderReport, parse_orders};
use super::pyrandom::PyRandom;
use super::{FoodMode, Scoring, Settings};

/// Points for razing a hill (`HILL_POINTS`).
pub const HILL_POINTS: i64 = 2;
/// Points a player loses per hill razed or forfeited (`RAZE_POINTS`).
pub const RAZE_POINTS: i64 = -1;

pub(crate) const NONE: u32 = u32::MAX;

/// What occupies a square in the engine's own map (which, as in the original, does not
/// track hills: they live apart).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cell {
    Land,
    Water,
    Food,
    Ant(u8),
}

/// Why a game ended, with the original's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cutoff {
    /// No player has ants left.
    Extermination,
    /// One player has ants left.
    LoneSurvivor,
    /// Food held 85% of the population for `cutoff_turn` turns.
    FoodNotGathered,
    /// One player held 85% of the population for `cutoff_turn` turns without razing.
    AntsNotRazing,
    /// No player with hills can change rank any more.
    RankStabilized,
    /// The turn limit was reached.
    TurnLimit,
    /// The referee was asked to stop (Ctrl-C): not an end of the original's, which wrote no
    /// replay then; ply ends the game between turns and keeps what was played.
    Interrupted,
}

impl Cutoff {
    /// The original's string, as written in replays.
    pub const fn as_str(self) -> &'static str {
        match self {
            Cutoff::Extermination => "extermination",
            Cutoff::LoneSurvivor => "lone survivor",
            Cutoff::FoodNotGathered => "food not being gathered",
            Cutoff::AntsNotRazing => "ants not razing hills",
            Cutoff::RankStabilized => "rank stabilized",
            Cutoff::TurnLimit => "turn limit reached",
            Cutoff::Interrupted => "interrupted",
        }
    }
}

/// Who holds the population majority, for the cutoff rule (`cutoff_bot`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Majority {
    Nobody,
    Food,
    Player(u8),
}

/// One ant, alive or dead, as the replay needs it.
#[derive(Clone, Debug)]
pub struct Ant {
    /// Where it appeared.
    pub initial_loc: Loc,
    /// Where it is (or died).
    pub loc: Loc,
    /// Its player.
    pub owner: u8,
    /// The turn it appeared.
    pub spawn_turn: u32,
    /// The turn it died, if it did.
    pub die_turn: Option<u32>,
    /// One letter per turn lived: `n`, `e`, `s`, `w` or `-`.
    pub orders: Vec<u8>,
}

/// One food item.
#[derive(Clone, Debug)]
pub struct Food {
    /// Where it lies.
    pub loc: Loc,
    /// The turn it appeared.
    pub start_turn: u32,
    /// The turn it was gathered or destroyed.
    pub end_turn: Option<u32>,
    /// Who gathered it.
    pub owner: Option<u8>,
}

/// One hill.
#[derive(Clone, Debug)]
pub struct Hill {
    /// Where it is.
    pub loc: Loc,
    /// Its player.
    pub owner: u8,
    /// The turn it was razed.
    pub end_turn: Option<u32>,
    /// Who razed it (or, at the end, the lone survivor credited with it).
    pub killed_by: Option<u8>,
    /// Whether its owner already lost its point.
    pub(crate) raze_points: bool,
    /// The last turn an own ant stood on it or spawned from it.
    pub(crate) last_touched: u32,
}

/// Exact rational score for the beta scoring rules (shares of kill points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ratio {
    num: i64,
    den: i64,
}

impl Ratio {
    const fn int(v: i64) -> Ratio {
        Ratio { num: v, den: 1 }
    }
    fn add(self, o: Ratio) -> Ratio {
        let num = self.num * o.den + o.num * self.den;
        let den = self.den * o.den;
        let g = gcd(num.abs(), den).max(1);
        Ratio {
            num: num / g,
            den: den / g,
        }
    }
    fn floor(self) -> i64 {
        // Python's int() on a Fraction truncates toward zero.
        self.num / self.den
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// The state of a game of Ants: the original engine's `Ants` object.
#[derive(Clone, Debug)]
pub struct AntsGame {
    pub(crate) settings: Settings,
    pub(crate) torus: Torus,
    pub(crate) players: usize,
    pub(crate) turn: u32,
    pub(crate) grid: Vec<Cell>,
    pub(crate) ant_at: Vec<u32>,
    pub(crate) ants: Vec<Ant>,
    pub(crate) live: Vec<u32>,
    pub(crate) killed_ants: Vec<u32>,
    pub(crate) ant_count: Vec<u32>,
    pub(crate) foods: Vec<Food>,
    /// Food on the map, in the order it appeared (the original's dict order).
    pub(crate) current_food: Vec<u32>,
    pub(crate) food_at: Vec<u32>,
    pub(crate) hills: Vec<Hill>,
    pub(crate) hill_at: Vec<u32>,
    pub(crate) hive: Vec<i64>,
    pub(crate) hive_history: Vec<Vec<i64>>,
    pub(crate) score: Vec<i64>,
    beta_score: Vec<Ratio>,
    pub(crate) bonus: Vec<i64>,
    pub(crate) score_history: Vec<Vec<i64>>,
    pub(crate) cutoff: Option<Cutoff>,
    majority: Majority,
    pub(crate) cutoff_turns: u32,
    pub(crate) hill_kill: bool,
    pub(crate) winning_bot: Option<Vec<usize>>,
    pub(crate) winning_turn: u32,
    pub(crate) ranking_bots: Option<Vec<usize>>,
    pub(crate) ranking_turn: u32,
    pub(crate) killed: Vec<bool>,
    pub(crate) switch: Vec<Vec<Option<u8>>>,
    pub(crate) revealed: Vec<Vec<bool>>,
    pub(crate) vision: Vec<Vec<u16>>,
    pub(crate) revealed_water: Vec<Vec<usize>>,
    /// Squares that came into view of each player since the last `update_revealed` and
    /// were not revealed yet (candidates for newly seen water).
    pub(crate) newly_seen: Vec<Vec<usize>>,
    pub(crate) orders: Vec<Vec<(usize, Dir)>>,
    pub(crate) attack: Vec<Offset>,
    pub(crate) gather: Vec<Offset>,
    pub(crate) stencil: VisionStencil,
    pub(crate) rng: PyRandom,
    pub(crate) food_rate: u32,
    pub(crate) food_turn: u32,
    pub(crate) food_start: u32,
    pub(crate) food_visible: u32,
    /// `food_extra` of the original, times `food_turn`.
    pub(crate) food_extra: u64,
    pub(crate) original_map: Option<Vec<String>>,
    pub(crate) food_plan: FoodPlanner,
    pub(crate) scratch: Vec<u32>,
    order_stamp: Vec<u32>,
    order_epoch: u32,
    /// The sorted hills, ants, food and dead ants of `get_state_changes`, built once per
    /// state and filtered per player.
    pub(crate) changes: Option<Vec<super::view::Change>>,
}

impl AntsGame {
    /// Sets a game up from a parsed map, as the original constructor does.
    ///
    /// Outside scenario mode the map's ants and food are ignored and one ant is placed on
    /// every hill; in scenario mode the map is followed exactly (an ant on every hill only if
    /// the map has no ants at all).
    ///
    /// # Errors
    /// With food on, a [`NewGameError`] when the map is not symmetric.
    pub fn new(map: &AntsMap, settings: Settings) -> Result<AntsGame, NewGameError> {
        let torus = Torus {
            rows: map.rows,
            cols: map.cols,
        };
        let players = map.players;
        // `seed(engine_seed)` then `randrange(lo, hi + 1)` for each range, in this order
        let mut rng = PyRandom::new(i128::from(settings.engine_seed));
        let pick = |rng: &mut PyRandom, (lo, hi): (u32, u32)| {
            rng.randrange(i64::from(lo), i64::from(hi.max(lo)) + 1) as u32
        };
        let food_rate = pick(&mut rng, settings.food_rate);
        let food_turn = pick(&mut rng, settings.food_turn).max(1);
        let food_start = pick(&mut rng, settings.food_start);
        let food_visible = pick(&mut rng, settings.food_visible);
        let area = torus.area();
        let mut g = AntsGame {
            torus,
            players,
            turn: 0,
            grid: vec![Cell::Land; area],
            ant_at: vec![NONE; area],
            ants: Vec::new(),
            live: Vec::new(),
            killed_ants: Vec::new(),
            ant_count: vec![0; players],
            foods: Vec::new(),
            current_food: Vec::new(),
            food_at: vec![NONE; area],
            hills: Vec::new(),
            hill_at: vec![NONE; area],
            hive: vec![0; players],
            hive_history: vec![vec![0]; players],
            score: Vec::new(),
            beta_score: vec![Ratio::int(0); players],
            bonus: vec![0; players],
            score_history: Vec::new(),
            cutoff: None,
            majority: Majority::Nobody,
            cutoff_turns: 0,
            hill_kill: false,
            winning_bot: None,
            winning_turn: 0,
            ranking_bots: None,
            ranking_turn: 0,
            killed: vec![false; players],
            switch: Vec::new(),
            revealed: vec![vec![false; area]; players],
            vision: vec![vec![0; area]; players],
            revealed_water: vec![Vec::new(); players],
            newly_seen: vec![Vec::new(); players],
            orders: vec![Vec::new(); players],
            attack: torus.neighbourhood(settings.attackradius2),
            gather: torus.neighbourhood(settings.spawnradius2),
            stencil: VisionStencil::new(torus, settings.viewradius2),
            rng,
            food_rate,
            food_turn,
            food_start,
            food_visible,
            food_extra: 0,
            original_map: None,
            food_plan: FoodPlanner::default(),
            scratch: vec![0; area],
            order_stamp: vec![0; area],
            order_epoch: 0,
            changes: None,
            settings,
        };
        for &(r, c) in &map.water {
            g.grid[torus.index((r, c))] = Cell::Water;
        }
        let scenario = g.settings.scenario;
        let map_has_ants = map.ants.iter().any(|(_, l)| !l.is_empty());
        for (owner, locs) in &map.hills {
            for &loc in locs {
                let h = g.add_hill(loc, *owner);
                if !scenario || !map_has_ants {
                    g.spawn_on_hill(h);
                }
            }
        }
        if scenario {
            for (owner, locs) in &map.ants {
                for &loc in locs {
                    g.add_ant(loc, *owner);
                }
            }
            for &loc in &map.food {
                g.add_food(loc);
            }
            g.original_map = Some(g.render_rows(false));
        }
        // Every player starts with player 0's hill count (the original's
        // `[len(map_data['hills'][0])] * num_players`).
        let start = match g.settings.scoring {
            Scoring::Hills => map
                .hills
                .iter()
                .find(|(o, _)| *o == 0)
                .map_or(0, |(_, l)| l.len() as i64),
            Scoring::Beta => 0,
        };
        g.score = vec![start; players];
        g.score_history = g.score.iter().map(|&s| vec![s]).collect();
        g.switch = (0..players)
            .map(|p| {
                let mut s = vec![None; players];
                s[p] = Some(0);
                s
            })
            .collect();
        g.update_vision();
        g.update_revealed();
        g.food_plan = FoodPlanner::new(&g);
        if g.settings.food != FoodMode::None {
            super::food::choose_symmetry(&mut g)?;
        }
        Ok(g)
    }

    /// The map's size.
    pub fn torus(&self) -> Torus {
        self.torus
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The current turn (0 before the first).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The scores as the engine reports them.
    pub fn scores(&self) -> &[i64] {
        &self.score
    }

    /// Food waiting in each hive.
    pub fn hive(&self) -> &[i64] {
        &self.hive
    }

    /// Why the game ended, once it has.
    pub fn cutoff(&self) -> Option<Cutoff> {
        self.cutoff
    }

    /// Whether `player` still plays: not killed (crash, timeout) and with ants on the map.
    pub fn is_alive(&self, player: usize) -> bool {
        !self.killed[player] && self.ant_count[player] > 0
    }

    /// Every ant ever, in the original's order.
    pub fn all_ants(&self) -> &[Ant] {
        &self.ants
    }

    /// The live ants of `player`, sorted by square.
    pub fn player_ants(&self, player: usize) -> Vec<Loc> {
        let mut v: Vec<Loc> = self
            .live
            .iter()
            .map(|&id| &self.ants[id as usize])
            .filter(|a| usize::from(a.owner) == player)
            .map(|a| a.loc)
            .collect();
        v.sort_unstable();
        v
    }

    /// The hills, in the original's order.
    pub fn hills(&self) -> &[Hill] {
        &self.hills
    }

    /// Whether a square is water.
    pub fn is_water(&self, loc: Loc) -> bool {
        self.grid[self.torus.index(loc)] == Cell::Water
    }

    /// Food currently on the map, sorted.
    pub fn food_locs(&self) -> Vec<Loc> {
        let mut v: Vec<Loc> = self
            .current_food
            .iter()
            .map(|&f| self.foods[f as usize].loc)
            .collect();
        v.sort_unstable();
        v
    }

    /// The owner of the ant on `loc`, if any.
    pub fn ant_owner(&self, loc: Loc) -> Option<u8> {
        match self.grid[self.torus.index(loc)] {
            Cell::Ant(o) => Some(o),
            _ => None,
        }
    }

    fn add_hill(&mut self, loc: Loc, owner: u8) -> usize {
        let id = self.hills.len();
        self.hills.push(Hill {
            loc,
            owner,
            end_turn: None,
            killed_by: None,
            raze_points: false,
            last_touched: 0,
        });
        self.hill_at[self.torus.index(loc)] = id as u32;
        id
    }

    fn add_ant(&mut self, loc: Loc, owner: u8) -> u32 {
        let id = self.ants.len() as u32;
        let i = self.torus.index(loc);
        self.ants.push(Ant {
            initial_loc: loc,
            loc,
            owner,
            spawn_turn: self.turn,
            die_turn: None,
            orders: Vec::new(),
        });
        self.grid[i] = Cell::Ant(owner);
        self.ant_at[i] = id;
        self.live.push(id);
        self.ant_count[usize::from(owner)] += 1;
        id
    }

    fn spawn_on_hill(&mut self, hill: usize) {
        let (loc, owner) = (self.hills[hill].loc, self.hills[hill].owner);
        self.add_ant(loc, owner);
        self.hills[hill].last_touched = self.turn;
        if self.settings.scoring == Scoring::Beta {
            self.beta_add(owner, Ratio::int(1));
        }
    }

    pub(crate) fn add_food(&mut self, loc: Loc) {
        let i = self.torus.index(loc);
        debug_assert_eq!(self.grid[i], Cell::Land);
        self.grid[i] = Cell::Food;
        let id = self.foods.len() as u32;
        self.foods.push(Food {
            loc,
            start_turn: self.turn,
            end_turn: None,
            owner: None,
        });
        self.food_at[i] = id;
        self.current_food.push(id);
    }

    pub(crate) fn is_land(&self, loc: Loc) -> bool {
        self.grid[self.torus.index(loc)] == Cell::Land
    }

    pub(crate) fn is_hill(&self, loc: Loc) -> bool {
        self.hill_at[self.torus.index(loc)] != NONE
    }

    fn remove_food(&mut self, id: u32, owner: Option<u8>) {
        let f = &mut self.foods[id as usize];
        let i = self.torus.index(f.loc);
        f.end_turn = Some(self.turn);
        f.owner = owner;
        self.grid[i] = Cell::Land;
        self.food_at[i] = NONE;
        if let Some(o) = owner {
            self.hive[usize::from(o)] += 1;
        }
    }

    /// The original `kill_ant`: clears the square unless another ant now stands on it.
    fn kill_ant(&mut self, id: u32) {
        let ant = &mut self.ants[id as usize];
        ant.die_turn = Some(self.turn);
        let loc = ant.loc;
        let owner = ant.owner;
        let i = self.torus.index(loc);
        self.grid[i] = Cell::Land;
        self.killed_ants.push(id);
        self.ant_count[usize::from(owner)] -= 1;
        let h = self.hill_at[i];
        if h != NONE {
            let hill = &self.hills[h as usize];
            if Majority::Player(hill.owner) != self.majority && hill.killed_by.is_none() {
                self.hill_kill = true;
            }
        }
        if self.ant_at[i] == id {
            self.ant_at[i] = NONE;
        }
    }

    // ---- orders -----------------------------------------------------------------------

    /// The original `do_moves` (`parse_orders` then `validate_orders`): records `player`'s
    /// valid orders for this turn and reports every line's class.
    pub fn set_orders<S: AsRef<str>>(&mut self, player: usize, lines: &[S]) -> OrderReport {
        let mut report = OrderReport::default();
        let parsed = parse_orders(lines, &mut report);
        // squares with a valid order this call: a stamp per square instead of a set
        self.order_epoch = self.order_epoch.wrapping_add(1);
        if self.order_epoch == 0 {
            self.order_stamp.fill(0);
            self.order_epoch = 1;
        }
        let epoch = self.order_epoch;
        let mut valid = Vec::new();
        let (rows, cols) = (self.torus.rows as i64, self.torus.cols as i64);
        for o in parsed {
            let in_map = (0..rows).contains(&o.row) && (0..cols).contains(&o.col);
            if in_map && self.order_stamp[(o.row * cols + o.col) as usize] == epoch {
                report.invalid.push((o.line, InvalidOrder::Duplicate));
                continue;
            }
            // Python indexes self.map[row][col]: negative indices wrap, others raise
            // IndexError ("out of bounds"); a wrapped square must hold the player's ant,
            // and only then is a negative index refused as out of bounds.
            if !(-rows..rows).contains(&o.row) || !(-cols..cols).contains(&o.col) {
                report.invalid.push((o.line, InvalidOrder::OutOfBounds));
                continue;
            }
            let loc = (
                o.row.rem_euclid(rows) as usize,
                o.col.rem_euclid(cols) as usize,
            );
            if self.grid[self.torus.index(loc)] != Cell::Ant(player as u8) {
                report.invalid.push((o.line, InvalidOrder::NotPlayerAnt));
                continue;
            }
            if o.row < 0 || o.col < 0 {
                report.invalid.push((o.line, InvalidOrder::OutOfBounds));
                continue;
            }
            let dest = self.torus.step(loc, o.dir);
            if matches!(self.grid[self.torus.index(dest)], Cell::Food | Cell::Water) {
                report.ignored.push((o.line, IgnoredOrder::MoveBlocked));
                continue;
            }
            valid.push((self.torus.index(loc), o.dir));
            report.valid.push(o.line);
            self.order_stamp[self.torus.index(loc)] = epoch;
        }
        self.orders[player] = valid;
        report
    }

    /// The original `kill_player`: the player gives no more orders (its ants stay) and
    /// forfeits one point per hill not yet forfeited.
    pub fn kill_player(&mut self, player: usize) {
        self.killed[player] = true;
        for h in &mut self.hills {
            if usize::from(h.owner) == player && !h.raze_points {
                h.raze_points = true;
                if self.settings.scoring == Scoring::Hills {
                    self.score[player] += RAZE_POINTS;
                }
            }
        }
    }

    // ---- turn phases ------------------------------------------------------------------

    /// The original `start_game`: the starting food.
    pub fn start_game(&mut self) {
        if self.settings.food != FoodMode::None {
            let starting = if self.food_start > 0 {
                (self.land_area() / self.food_start as usize) as i64
                    - i64::from(self.food_visible) * self.players as i64
            } else {
                0
            };
            if self.food_visible > 0 {
                let n = self.food_visible as usize * self.players;
                super::food::food_visible(self, n);
            }
            super::food::do_food(self, starting.max(0) as usize);
        }
    }

    pub(crate) fn land_area(&self) -> usize {
        self.grid.iter().filter(|c| **c != Cell::Water).count()
    }

    /// The draws of the engine loop's `random.shuffle(bot_list)` over the live players,
    /// made once per turn before the bots are asked for orders.
    pub fn engine_shuffle(&mut self) {
        let mut live: Vec<usize> = (0..self.players).filter(|&p| self.is_alive(p)).collect();
        self.rng.shuffle(&mut live);
    }

    /// The original `start_turn`.
    pub fn start_turn(&mut self) {
        self.changes = None;
        self.turn += 1;
        self.killed_ants.clear();
        for w in &mut self.revealed_water {
            w.clear();
        }
        for o in &mut self.orders {
            o.clear();
        }
        self.hill_kill = false;
    }

    /// The original `finish_turn`: moves, battle, razing, spawning, gathering, food, then
    /// histories, vision and the cutoff counters.
    pub fn finish_turn(&mut self) {
        self.changes = None;
        let alive_at_start: Vec<bool> = (0..self.players).map(|p| self.is_alive(p)).collect();
        self.do_orders();
        self.do_attack();
        self.do_raze_hills();
        self.do_spawn();
        self.do_gather();
        self.food_extra += u64::from(self.food_rate) * self.players as u64;
        let food_now = self.food_extra / u64::from(self.food_turn);
        let left_over = super::food::do_food(self, food_now as usize) as u64;
        self.food_extra -= (food_now - left_over) * u64::from(self.food_turn);

        if self.settings.scoring == Scoring::Beta {
            // The beta engine froze the score of players dead at the start of the turn.
            for (p, &alive) in alive_at_start.iter().enumerate() {
                if alive {
                    self.score[p] = self.beta_score[p].floor();
                } else {
                    self.beta_score[p] = Ratio::int(self.score[p]);
                }
            }
        }
        for p in 0..self.players {
            let s = self.score[p];
            let alive = self.is_alive(p);
            push_history(&mut self.score_history[p], s, alive, self.turn);
            let f = self.hive[p];
            push_history(&mut self.hive_history[p], f, alive, self.turn);
        }
        self.update_vision();
        self.update_revealed();
        self.update_cutoff();
        self.calc_significant_turns();
    }

    fn do_orders(&mut self) {
        let t = self.torus;
        let mut dirs: Vec<u8> = vec![b'-'; self.live.len()];
        // Map each live ant to its slot in `live` through the scratch array.
        for (slot, &id) in self.live.iter().enumerate() {
            let i = t.index(self.ants[id as usize].loc);
            self.scratch[i] = slot as u32;
        }
        for orders in &self.orders {
            for &(i, d) in orders {
                dirs[self.scratch[i] as usize] = d.letter();
            }
        }
        for &id in &self.live {
            let i = t.index(self.ants[id as usize].loc);
            self.grid[i] = Cell::Land;
            self.ant_at[i] = NONE;
            self.scratch[i] = 0;
        }
        let live = std::mem::take(&mut self.live);
        for (slot, &id) in live.iter().enumerate() {
            let ant = &mut self.ants[id as usize];
            let d = dirs[slot];
            if d != b'-' {
                ant.loc = t.step(ant.loc, Dir::ALL[dir_index(d)]);
            }
            ant.orders.push(d);
            self.scratch[t.index(ant.loc)] += 1;
        }
        let mut survivors = Vec::with_capacity(live.len());
        let mut colliding = Vec::new();
        for &id in &live {
            let i = t.index(self.ants[id as usize].loc);
            if self.scratch[i] == 1 {
                survivors.push(id);
            } else {
                colliding.push(id);
            }
        }
        for &id in &live {
            self.scratch[t.index(self.ants[id as usize].loc)] = 0;
        }
        self.live = survivors;
        for &id in &self.live {
            let a = &self.ants[id as usize];
            let i = t.index(a.loc);
            self.grid[i] = Cell::Ant(a.owner);
            self.ant_at[i] = id;
        }
        if self.settings.scoring == Scoring::Beta {
            self.beta_collision_points(&colliding);
        }
        for id in colliding {
            self.kill_ant(id);
        }
    }

    /// Beta rules: 1 point per colliding ant, shared among the enemies in attack range
    /// (living ones and the other colliding ones).
    fn beta_collision_points(&mut self, colliding: &[u32]) {
        for &id in colliding {
            let ant = &self.ants[id as usize];
            let mut enemies: Vec<u8> = self
                .nearby(ant.loc, &self.attack)
                .filter(|&(_, o)| o != ant.owner)
                .map(|(_, o)| o)
                .collect();
            for &other in colliding {
                let b = &self.ants[other as usize];
                if b.owner != ant.owner
                    && self.torus.distance(ant.loc, b.loc) <= self.settings.attackradius2
                {
                    enemies.push(b.owner);
                }
            }
            let n = enemies.len() as i64;
            for e in enemies {
                self.beta_add(e, Ratio { num: 1, den: n });
            }
        }
    }

    fn beta_add(&mut self, p: u8, v: Ratio) {
        self.beta_score[usize::from(p)] = self.beta_score[usize::from(p)].add(v);
    }

    /// Ants within `offsets` of `loc` (the original `nearby_ants`): `(ant id, owner)`.
    fn nearby<'a>(
        &'a self,
        loc: Loc,
        offsets: &'a [Offset],
    ) -> impl Iterator<Item = (u32, u8)> + 'a {
        offsets.iter().filter_map(move |&o| {
            let i = self.torus.index(self.torus.add(loc, o));
            match self.grid[i] {
                Cell::Ant(owner) => Some((self.ant_at[i], owner)),
                _ => None,
            }
        })
    }

    /// The focus rule (`do_attack_focus`): an ant dies if some enemy in range has no more
    /// enemies in range than it has.
    fn do_attack(&mut self) {
        let n = self.live.len();
        let mut start = Vec::with_capacity(n + 1);
        let mut enemies: Vec<u32> = Vec::new();
        for &id in &self.live {
            start.push(enemies.len());
            let a = &self.ants[id as usize];
            enemies.extend(
                self.nearby(a.loc, &self.attack)
                    .filter(|&(_, o)| o != a.owner)
                    .map(|(e, _)| e),
            );
        }
        start.push(enemies.len());
        // weakness by ant id, through the scratch array indexed by square
        for (k, &id) in self.live.iter().enumerate() {
            let i = self.torus.index(self.ants[id as usize].loc);
            self.scratch[i] = (start[k + 1] - start[k]) as u32;
        }
        let mut doomed = Vec::new();
        for (k, &id) in self.live.iter().enumerate() {
            let weakness = (start[k + 1] - start[k]) as u32;
            if weakness == 0 {
                continue;
            }
            let min_enemy = enemies[start[k]..start[k + 1]]
                .iter()
                .map(|&e| self.scratch[self.torus.index(self.ants[e as usize].loc)])
                .min()
                .unwrap_or(u32::MAX);
            if min_enemy <= weakness {
                doomed.push((id, k));
            }
        }
        for &id in &self.live {
            let i = self.torus.index(self.ants[id as usize].loc);
            self.scratch[i] = 0;
        }
        if doomed.is_empty() {
            return;
        }
        if self.settings.scoring == Scoring::Beta {
            let kill_points = 2;
            for &(_, k) in &doomed {
                let share = (start[k + 1] - start[k]) as i64;
                for &e in &enemies[start[k]..start[k + 1]] {
                    let owner = self.ants[e as usize].owner;
                    self.beta_add(
                        owner,
                        Ratio {
                            num: kill_points,
                            den: share,
                        },
                    );
                }
            }
        }
        for &(id, _) in &doomed {
            self.kill_ant(id);
        }
        let ants = &self.ants;
        self.live.retain(|&id| ants[id as usize].die_turn.is_none());
    }

    fn do_raze_hills(&mut self) {
        for h in 0..self.hills.len() {
            let i = self.torus.index(self.hills[h].loc);
            let Cell::Ant(owner) = self.grid[i] else {
                continue;
            };
            if owner == self.hills[h].owner {
                self.hills[h].last_touched = self.turn;
            } else if self.hills[h].killed_by.is_none() {
                let hill = &mut self.hills[h];
                hill.end_turn = Some(self.turn);
                hill.killed_by = Some(owner);
                if self.settings.scoring == Scoring::Hills {
                    self.score[usize::from(owner)] += HILL_POINTS;
                    if !hill.raze_points {
                        self.score[usize::from(hill.owner)] += RAZE_POINTS;
                    }
                }
                hill.raze_points = true;
                self.cutoff_turns = 0;
            }
        }
    }

    /// Spawning: one ant per free unrazed hill while the hive has food, least recently
    /// touched hill first, ties broken at random (the original draws `random()` per hill).
    fn do_spawn(&mut self) {
        for p in 0..self.players {
            let mut hs: Vec<(u32, f64, usize)> = Vec::new();
            for (h, hill) in self.hills.iter().enumerate() {
                if usize::from(hill.owner) == p && hill.killed_by.is_none() {
                    hs.push((hill.last_touched, 0.0, h));
                }
            }
            for e in &mut hs {
                e.1 = self.rng.random();
            }
            hs.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
            for (_, _, h) in hs {
                let i = self.torus.index(self.hills[h].loc);
                if self.hive[p] > 0 && self.ant_at[i] == NONE {
                    self.hive[p] -= 1;
                    self.spawn_on_hill(h);
                }
            }
        }
    }

    fn do_gather(&mut self) {
        let foods = std::mem::take(&mut self.current_food);
        let mut keep = Vec::with_capacity(foods.len());
        for id in foods {
            let loc = self.foods[id as usize].loc;
            let mut owner: Option<u8> = None;
            let mut contested = false;
            for (_, o) in self.nearby(loc, &self.gather) {
                match owner {
                    None => owner = Some(o),
                    Some(x) if x != o => contested = true,
                    _ => {}
                }
            }
            match (owner, contested) {
                (None, _) => keep.push(id),
                (Some(o), false) => self.remove_food(id, Some(o)),
                (Some(_), true) => self.remove_food(id, None),
            }
        }
        self.current_food = keep;
    }

    fn update_vision(&mut self) {
        let t = self.torus;
        let (vision, ants, stencil) = (&mut self.vision, &self.ants, &self.stencil);
        let (revealed, newly) = (&self.revealed, &mut self.newly_seen);
        let add =
            |v: &mut Vec<u16>, new: &mut Vec<usize>, seen: &[bool], loc: Loc, offs: &[Offset]| {
                for &o in offs {
                    let i = t.index(t.add(loc, o));
                    v[i] += 1;
                    if v[i] == 1 && !seen[i] {
                        new.push(i);
                    }
                }
            };
        let sub = |v: &mut Vec<u16>, loc: Loc, offs: &[Offset]| {
            for &o in offs {
                v[t.index(t.add(loc, o))] -= 1;
            }
        };
        for &id in &self.live {
            let a = &ants[id as usize];
            let p = usize::from(a.owner);
            let v = &mut vision[p];
            match a.orders.last() {
                None => add(v, &mut newly[p], &revealed[p], a.loc, &stencil.full),
                Some(&b'-') => {}
                Some(&d) => {
                    let k = dir_index(d);
                    add(v, &mut newly[p], &revealed[p], a.loc, &stencil.gained[k]);
                    sub(v, a.loc, &stencil.lost[k]);
                }
            }
        }
        for &id in &self.killed_ants {
            let a = &ants[id as usize];
            let v = &mut vision[usize::from(a.owner)];
            match a.orders.last() {
                Some(&b'-') | None => sub(v, a.loc, &stencil.full),
                Some(&d) => sub(v, a.loc, &stencil.previous[dir_index(d)]),
            }
        }
    }

    /// The original `update_revealed`, which scans every visible square in row-major order:
    /// ply gets the same result from the squares that came into view (for water) and the
    /// visible ants of owners not numbered yet (for the renumbering, in row-major order).
    fn update_revealed(&mut self) {
        let t = self.torus;
        for p in 0..self.players {
            let water = &mut self.revealed_water[p];
            water.clear();
            let newly = &mut self.newly_seen[p];
            newly.sort_unstable();
            newly.dedup();
            let revealed = &mut self.revealed[p];
            let vision = &self.vision[p];
            for &i in newly.iter() {
                if vision[i] > 0 && !revealed[i] {
                    revealed[i] = true;
                    if self.grid[i] == Cell::Water {
                        water.push(i);
                    }
                }
            }
            newly.clear();
            let switch = &mut self.switch[p];
            if switch.iter().all(Option::is_some) {
                continue;
            }
            let mut sighted: Vec<(usize, u8)> = self
                .live
                .iter()
                .map(|&id| &self.ants[id as usize])
                .filter(|a| switch[usize::from(a.owner)].is_none())
                .map(|a| (t.index(a.loc), a.owner))
                .filter(|&(i, _)| vision[i] > 0)
                .collect();
            sighted.sort_unstable();
            for (_, o) in sighted {
                if switch[usize::from(o)].is_none() {
                    let next = switch.iter().filter(|s| s.is_some()).count() as u8;
                    switch[usize::from(o)] = Some(next);
                }
            }
        }
    }

    fn update_cutoff(&mut self) {
        let mut pop = vec![0i64; self.players];
        let mut present = vec![false; self.players];
        for &id in &self.live {
            let o = usize::from(self.ants[id as usize].owner);
            pop[o] += 1;
            present[o] = true;
        }
        // Hive food counts once per remaining hill, as in the original.
        for h in &self.hills {
            if h.killed_by.is_none() {
                let o = usize::from(h.owner);
                pop[o] += self.hive[o];
                present[o] = true;
            }
        }
        let food = self.current_food.len() as i64;
        let total: i64 = pop.iter().sum::<i64>() + food;
        let threshold = total as f64 * self.settings.cutoff_percent;
        // With a positive total at most one holder can reach 85%; with a zero total the
        // original picks the first key of its dict, which only happens without ants,
        // when the game ends anyway.
        let holder = (0..self.players)
            .find(|&p| present[p] && pop[p] as f64 >= threshold)
            .map(|p| Majority::Player(p as u8))
            .or_else(|| (food as f64 >= threshold).then_some(Majority::Food));
        match holder {
            Some(h) if h == self.majority => {
                if !self.hill_kill {
                    self.cutoff_turns += 1;
                }
            }
            Some(h) => {
                self.majority = h;
                self.cutoff_turns = 1;
            }
            None => {
                self.majority = Majority::Nobody;
                self.cutoff_turns = 0;
            }
        }
    }

    fn calc_significant_turns(&mut self) {
        let ranking: Vec<usize> = self
            .score
            .iter()
            .map(|&s| self.score.iter().filter(|&&o| o > s).count())
            .collect();
        if self.ranking_bots.as_ref() != Some(&ranking) {
            self.ranking_turn = self.turn;
        }
        self.ranking_bots = Some(ranking);
        let max = self.score.iter().copied().max().unwrap_or(0);
        let winning: Vec<usize> = (0..self.players)
            .filter(|&p| self.score[p] == max)
            .collect();
        if self.winning_bot.as_ref() != Some(&winning) {
            self.winning_turn = self.turn;
        }
        self.winning_bot = Some(winning);
    }

    // ---- end of game ------------------------------------------------------------------

    /// The players still alive.
    pub fn remaining_players(&self) -> Vec<usize> {
        (0..self.players).filter(|&p| self.is_alive(p)).collect()
    }

    fn has_hill(&self, p: usize) -> bool {
        self.hills
            .iter()
            .any(|h| h.killed_by.is_none() && usize::from(h.owner) == p)
    }

    fn is_rank_stabilized(&self) -> bool {
        for p in 0..self.players {
            if !(self.is_alive(p) && self.has_hill(p)) {
                continue;
            }
            let max_score = self
                .hills
                .iter()
                .filter(|h| h.killed_by.is_none() && usize::from(h.owner) != p)
                .count() as i64
                * HILL_POINTS
                + self.score[p];
            for o in 0..self.players {
                if o == p {
                    continue;
                }
                let min_score = self
                    .hills
                    .iter()
                    .filter(|h| h.killed_by.is_none() && usize::from(h.owner) == o)
                    .count() as i64
                    * RAZE_POINTS
                    + self.score[o];
                if (self.score[p] < self.score[o] && max_score >= min_score)
                    || (self.score[p] == self.score[o] && max_score > min_score)
                {
                    return false;
                }
            }
        }
        true
    }

    /// The original `game_over`, which also records why the game ended.
    pub fn game_over(&mut self) -> bool {
        let remaining = self.remaining_players().len();
        let cutoff = if remaining < 1 {
            Some(Cutoff::Extermination)
        } else if remaining == 1 {
            Some(Cutoff::LoneSurvivor)
        } else if self.cutoff_turns >= self.settings.cutoff_turn {
            Some(if self.majority == Majority::Food {
                Cutoff::FoodNotGathered
            } else {
                Cutoff::AntsNotRazing
            })
        } else if self.settings.scoring == Scoring::Hills && self.is_rank_stabilized() {
            // The beta rules had no hills, so no rank-stabilised cutoff.
            Some(Cutoff::RankStabilized)
        } else {
            None
        };
        if cutoff.is_some() {
            self.cutoff = cutoff;
        }
        cutoff.is_some()
    }

    /// Ends the game between turns because the referee was asked to stop: [`Self::finish_game`]
    /// with the cutoff [`Cutoff::Interrupted`], the scores as they stand.
    pub fn interrupt(&mut self) {
        if self.cutoff.is_none() {
            self.cutoff = Some(Cutoff::Interrupted);
        }
        self.finish_game();
    }

    /// The original `finish_game`: the lone survivor is credited with every hill left.
    pub fn finish_game(&mut self) {
        self.changes = None;
        let players = self.remaining_players();
        if players.len() == 1 && self.settings.scoring == Scoring::Hills {
            let w = players[0] as u8;
            for h in &mut self.hills {
                if h.owner != w {
                    if h.killed_by.is_none() {
                        self.bonus[usize::from(w)] += HILL_POINTS;
                        h.killed_by = Some(w);
                    }
                    if !h.raze_points {
                        self.bonus[usize::from(h.owner)] += RAZE_POINTS;
                        h.raze_points = true;
                    }
                }
            }
            for p in 0..self.players {
                self.score[p] += self.bonus[p];
            }
        }
        self.calc_significant_turns();
        if self.cutoff.is_none() {
            self.cutoff = Some(Cutoff::TurnLimit);
        }
    }

    /// The map rows in the original's letters (`get_map_output`); with `perspective`
    /// hills are drawn (`A`-`J` with an ant, `0`-`9`... as the original's arithmetic does).
    pub(crate) fn render_rows(&self, perspective: bool) -> Vec<String> {
        const RENDER: &[u8] = b"abcdefghijABCDEFGHIJ0123456789?%*.!";
        let t = self.torus;
        (0..t.rows)
            .map(|r| {
                (0..t.cols)
                    .map(|c| {
                        let i = t.index((r, c));
                        // The original's codes: ants 0-9, LAND -2, FOOD -3, WATER -4,
                        // indexed into MAP_RENDER with Python's negative indices.
                        let code: i32 = match self.grid[i] {
                            Cell::Ant(o) => i32::from(o),
                            Cell::Land => -2,
                            Cell::Food => -3,
                            Cell::Water => -4,
                        };
                        let code = if perspective && self.hill_at[i] != NONE {
                            if self.ant_at[i] != NONE {
                                code + 10
                            } else {
                                code + 20
                            }
                        } else {
                            code
                        };
                        RENDER[code.rem_euclid(RENDER.len() as i32) as usize] as char
                    })
                    .collect()
            })
            .collect()
    }
}

fn dir_index(d: u8) -> usize {
    match d {
        b'n' => Dir::N as usize,
        b'e' => Dir::E as usize,
        b's' => Dir::S as usize,
        _ => Dir::W as usize,
    }
}

/// The original's history bookkeeping: living players get a value per turn; a dead
/// player's history is only extended (padded to the turn) when its value changes.
fn push_history(h: &mut Vec<i64>, v: i64, alive: bool, turn: u32) {
    if alive {
        h.push(v);
    } else if Some(&v) != h.last() {
        let last = *h.last().unwrap_or(&0);
        while (h.len() as u32) < turn {
            h.push(last);
        }
        h.push(v);
    }
}
