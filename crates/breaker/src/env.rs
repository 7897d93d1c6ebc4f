//! An environment for learning agents, in the usual reset/step shape: [`Env::reset`] with
//! a seed starts a level, [`Env::step`] plays one of four discrete [`Action`]s and returns
//! the observation, the reward and whether the episode is done.
//!
//! Observations come two ways: [`Observation::features`], a fixed-length vector of numbers
//! scaled to about -1..1 (named by [`FEATURE_NAMES`]), and [`Observation::grid`], the
//! field as the terminal shows it, one code per character cell (see [`codes`]).
//!
//! The reward is the score gained during the step (bricks, power-ups, the clearing bonus)
//! minus [`LIFE_PENALTY`] for a lost life. An episode ends when the level is cleared, the
//! last life is lost, or after the step limit.
//!
//! ```
//! use ply_breaker::{Action, Env, builtin_levels};
//! let mut env = Env::new(builtin_levels()[0].clone()).with_max_steps(2_000);
//! let mut obs = env.reset(42);
//! let mut total = 0.0;
//! loop {
//!     // A simple policy: follow the lowest ball.
//!     let (paddle, ball) = (obs.features[0], obs.features[3]);
//!     let action = if obs.features[7] > 0.5 { Action::Launch }
//!         else if ball < paddle - 0.02 { Action::Left }
//!         else if ball > paddle + 0.02 { Action::Right }
//!         else { Action::Stay };
//!     let step = env.step(action);
//!     total += step.reward;
//!     obs = step.observation;
//!     if step.done { break; }
//! }
//! assert!(total > 0.0);
//! ```

use crate::field::{
    BASE_SPEED, CAPSULE_W, COL, FIELD_COLS, FIELD_H, FIELD_ROWS, FIELD_W, GRID_TOP, ROW,
};
use crate::level::{Cell, Level};
use crate::sim::{Action, Event, Sim, Start, Status};

/// Reward taken away for each life lost.
pub const LIFE_PENALTY: f32 = 200.0;
/// Balls described in the feature vector (the lowest first).
pub const BALLS_SEEN: usize = 3;

/// What each entry of [`Observation::features`] means.
pub const FEATURE_NAMES: [&str; 3 + 5 * BALLS_SEEN + 4 + 3] = [
    "paddle centre x / width of field",
    "paddle width / width of field",
    "balls in play / 8",
    "ball 1 centre x / field width",
    "ball 1 centre y / field height",
    "ball 1 vx / standard speed",
    "ball 1 vy / standard speed",
    "ball 1 held on the paddle (0 or 1)",
    "ball 2 centre x / field width",
    "ball 2 centre y / field height",
    "ball 2 vx / standard speed",
    "ball 2 vy / standard speed",
    "ball 2 held on the paddle (0 or 1)",
    "ball 3 centre x / field width",
    "ball 3 centre y / field height",
    "ball 3 vx / standard speed",
    "ball 3 vy / standard speed",
    "ball 3 held on the paddle (0 or 1)",
    "lowest power-up present (0 or 1)",
    "lowest power-up centre x / field width",
    "lowest power-up y / field height",
    "lowest power-up is good (1) or bad (-1)",
    "breakable bricks left / 100",
    "lives / 9",
    "steps played / step limit",
];

/// Codes of [`Observation::grid`].
pub mod codes {
    /// Nothing.
    pub const EMPTY: u8 = 0;
    // 1..=9: a brick with that many hit points left.
    /// An indestructible brick.
    pub const STEEL: u8 = 10;
    /// The paddle.
    pub const PADDLE: u8 = 11;
    /// A ball.
    pub const BALL: u8 = 12;
    /// A good power-up.
    pub const GOOD: u8 = 13;
    /// A bad power-up.
    pub const BAD: u8 = 14;
    /// The safety net.
    pub const NET: u8 = 15;
}

/// What the agent sees.
#[derive(Clone, Debug, PartialEq)]
pub struct Observation {
    /// The state as numbers (see [`FEATURE_NAMES`]).
    pub features: Vec<f32>,
    /// The field, [`FIELD_ROWS`] rows of [`FIELD_COLS`] cells, row by row.
    pub grid: Vec<u8>,
}

/// The result of one step.
#[derive(Clone, Debug, PartialEq)]
pub struct StepResult {
    /// The state after the step.
    pub observation: Observation,
    /// Score gained, less [`LIFE_PENALTY`] per life lost.
    pub reward: f32,
    /// Whether the episode is over.
    pub done: bool,
    /// What happened.
    pub events: Vec<Event>,
}

/// One level as an environment.
#[derive(Clone, Debug)]
pub struct Env {
    level: Level,
    start: Start,
    max_steps: u64,
    sim: Sim,
}

impl Env {
    /// An environment on `level` with 3 lives and a limit of 50,000 steps.
    pub fn new(level: Level) -> Env {
        let sim = Sim::new(&level, 0, Start::default());
        Env {
            level,
            start: Start::default(),
            max_steps: 50_000,
            sim,
        }
    }

    /// The same with another step limit (at least 1).
    pub fn with_max_steps(mut self, max_steps: u64) -> Env {
        self.max_steps = max_steps.max(1);
        self
    }

    /// Starts a new episode; the same seed and actions give the same episode.
    pub fn reset(&mut self, seed: u64) -> Observation {
        self.sim = Sim::new(&self.level, seed, self.start);
        self.observe()
    }

    /// Plays one step (a step after the end changes nothing and is done).
    pub fn step(&mut self, action: Action) -> StepResult {
        let before = self.sim.score();
        let events = self.sim.step(action);
        let lost = events
            .iter()
            .filter(|e| matches!(e, Event::LifeLost | Event::GameOver))
            .count();
        let reward = (self.sim.score() - before) as f32 - LIFE_PENALTY * lost as f32;
        let done = self.sim.status() != Status::Playing || self.sim.steps() >= self.max_steps;
        StepResult {
            observation: self.observe(),
            reward,
            done,
            events,
        }
    }

    /// The simulation, for anything the observation leaves out.
    pub fn sim(&self) -> &Sim {
        &self.sim
    }

    /// The current observation.
    pub fn observe(&self) -> Observation {
        Observation {
            features: features(&self.sim, self.max_steps),
            grid: grid(&self.sim),
        }
    }
}

fn features(sim: &Sim, max_steps: u64) -> Vec<f32> {
    let w = FIELD_W as f32;
    let h = FIELD_H as f32;
    let s = BASE_SPEED as f32;
    let p = sim.paddle();
    let mut f = vec![
        (p.x + p.w / 2) as f32 / w,
        p.w as f32 / w,
        sim.balls().len() as f32 / 8.0,
    ];
    let mut balls: Vec<_> = sim.balls().iter().collect();
    balls.sort_by_key(|b| std::cmp::Reverse(b.y));
    for i in 0..BALLS_SEEN {
        match balls.get(i) {
            Some(b) => f.extend([
                b.cx() as f32 / w,
                (b.y + crate::field::BALL / 2) as f32 / h,
                b.vx as f32 / s,
                b.vy as f32 / s,
                f32::from(u8::from(b.hold.is_some())),
            ]),
            None => f.extend([0.0; 5]),
        }
    }
    match sim.capsules().iter().max_by_key(|c| c.y) {
        Some(c) => f.extend([
            1.0,
            (c.x + CAPSULE_W / 2) as f32 / w,
            c.y as f32 / h,
            if c.kind.is_good() { 1.0 } else { -1.0 },
        ]),
        None => f.extend([0.0; 4]),
    }
    f.push(sim.breakable_left() as f32 / 100.0);
    f.push(sim.lives() as f32 / 9.0);
    f.push(sim.steps() as f32 / max_steps as f32);
    f
}

/// The field as character cells: what the terminal game draws, as codes.
pub fn grid(sim: &Sim) -> Vec<u8> {
    let (cols, rows) = (FIELD_COLS as usize, FIELD_ROWS as usize);
    let mut g = vec![codes::EMPTY; cols * rows];
    let mut put = |x: i32, y: i32, code: u8| {
        let (c, r) = (x.div_euclid(COL), y.div_euclid(ROW));
        if (0..FIELD_COLS).contains(&c) && (0..FIELD_ROWS).contains(&r) {
            g[r as usize * cols + c as usize] = code;
        }
    };
    for (r, row) in sim.grid().iter().enumerate() {
        for (c, cell) in row.iter().enumerate() {
            let code = match *cell {
                Cell::Empty => continue,
                Cell::Solid => codes::STEEL,
                Cell::Brick { hp, .. } => hp.min(9),
            };
            for k in 0..4 {
                put((c as i32 * 4 + k) * COL, GRID_TOP + r as i32 * ROW, code);
            }
        }
    }
    if sim.net() {
        for c in 0..FIELD_COLS {
            put(c * COL, crate::field::NET_Y, codes::NET);
        }
    }
    let p = sim.paddle();
    let mut x = p.x + COL / 2;
    while x < p.x + p.w {
        put(x, p.y, codes::PADDLE);
        x += COL;
    }
    for c in sim.capsules() {
        let code = if c.kind.is_good() {
            codes::GOOD
        } else {
            codes::BAD
        };
        for k in 0..3 {
            put(c.x + k * COL + COL / 2, c.y, code);
        }
    }
    for b in sim.balls() {
        put(b.cx(), b.y + crate::field::BALL / 2, codes::BALL);
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin_levels;

    #[test]
    fn features_have_their_names_and_the_grid_its_size() {
        let mut env = Env::new(builtin_levels()[0].clone());
        let obs = env.reset(1);
        assert_eq!(obs.features.len(), FEATURE_NAMES.len());
        assert_eq!(obs.grid.len(), (FIELD_COLS * FIELD_ROWS) as usize);
        assert_eq!(obs.features[7], 1.0, "the served ball is held");
        assert_eq!(obs.grid.iter().filter(|&&c| c == codes::PADDLE).count(), 7);
        assert_eq!(obs.grid.iter().filter(|&&c| c == codes::BALL).count(), 1);
    }

    #[test]
    fn a_lost_life_costs_the_penalty() {
        let mut env = Env::new(builtin_levels()[0].clone()).with_max_steps(100_000);
        env.reset(3);
        let mut saw = false;
        for _ in 0..5_000 {
            let r = env.step(Action::Launch);
            if r.events.contains(&Event::LifeLost) {
                assert!(r.reward <= -LIFE_PENALTY + 100.0);
                saw = true;
                break;
            }
        }
        assert!(saw, "a paddle that never moves loses a life");
    }
}
