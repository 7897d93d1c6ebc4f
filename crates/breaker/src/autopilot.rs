//! The autopilot: a player that knows the physics. It predicts where each ball will meet
//! the paddle's line by running the same integer physics on a copy of the bricks, picks
//! the ball that lands first, and chooses where on the paddle to meet it: for each of a
//! fan of offsets it simulates the rebound and prefers the one that reaches a breakable
//! brick soonest, avoiding spots where a bad power-up falls at the same time. When the ball
//! is far off it fetches good power-ups it can reach and still be back in time. Held balls
//! (the serve, Sticky) are carried to the launch spot that aims best.
//!
//! It reads the state only through [`Sim`]'s public view, like any other player would.

use crate::field::{
    BALL, CAPSULE_FALL, CAPSULE_H, CAPSULE_W, FIELD_W, PADDLE_H, PADDLE_SPEED, PADDLE_Y, Rect,
};
use crate::level::Cell;
use crate::physics::{self, Ball, Contact, Travel, World};
use crate::rng::Rng;
use crate::sim::{Action, Sim};

/// Steps a rebound is followed before the autopilot gives up on it reaching a brick.
const HORIZON: u32 = 900;
/// Steps ahead the autopilot looks for bad power-ups falling onto the paddle (enough to
/// get a normal paddle out from under one).
const DODGE_AHEAD: i32 = 14;
/// Offsets tried across the paddle.
const FAN: i32 = 15;

/// Where and when a ball will meet the paddle's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Landing {
    /// Absolute step at which it arrives.
    pub step: u64,
    /// The ball's left edge then.
    pub x: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AimKey {
    landing: Landing,
    bricks: usize,
    width: i32,
    speed: i32,
    bad: usize,
}

/// The autopilot's memory between steps (predictions are cached until a ball changes
/// course or a brick breaks).
#[derive(Clone, Debug)]
pub struct Autopilot {
    seen: Vec<(i32, i32, usize)>,
    landings: Vec<Option<Landing>>,
    aim: Option<(AimKey, i32)>,
    launch: Option<((i32, usize, i32), i32)>,
    rng: Rng,
}

impl Default for Autopilot {
    fn default() -> Self {
        Self::new()
    }
}

impl Autopilot {
    /// A fresh autopilot (its own choices are seeded too, so runs replay).
    pub fn new() -> Self {
        Autopilot {
            seen: Vec::new(),
            landings: Vec::new(),
            aim: None,
            launch: None,
            rng: Rng::new(0x0b1e_b1e5),
        }
    }

    /// The action to take in `sim`'s current state.
    pub fn act(&mut self, sim: &Sim) -> Action {
        self.refresh_landings(sim);
        let paddle = sim.paddle();
        let now = sim.steps();
        // The free ball that arrives first.
        let first = self
            .landings
            .iter()
            .enumerate()
            .filter_map(|(i, l)| l.map(|l| (l.step, i, l)))
            .min();
        let mut target = None;
        let mut launch_when_there = false;
        if let Some((_, _, landing)) = first {
            target = Some(self.aim(sim, landing));
        } else if let Some(held) = sim.balls().iter().find(|b| b.hold.is_some()) {
            let offset = held.hold.map(|h| h.offset).unwrap_or(0);
            target = Some(self.launch_spot(sim, offset));
            launch_when_there = true;
        }
        let deadline = first.map(|(s, _, _)| s.saturating_sub(now));
        if let Some(px) = self.fetch(sim, target, deadline) {
            target = Some(px);
            launch_when_there = false;
        }
        let Some(px) = target else {
            return Action::Stay;
        };
        let diff = px - paddle.x;
        let action = if diff.abs() <= PADDLE_SPEED / 2 {
            if launch_when_there {
                Action::Launch
            } else {
                Action::Stay
            }
        } else if diff < 0 {
            Action::Left
        } else {
            Action::Right
        };
        // A bad power-up about to land on the paddle: step aside if the ball allows.
        let urgent = deadline.is_some_and(|d| d < 12);
        if !urgent && catches_bad(sim, action, DODGE_AHEAD) {
            let dodge = [Action::Left, Action::Right, Action::Stay]
                .into_iter()
                .filter(|&a| !catches_bad(sim, a, DODGE_AHEAD))
                .min_by_key(|&a| {
                    let x = paddle.x + shift(a);
                    ((x - px).abs(), a as u8)
                });
            if let Some(a) = dodge {
                return a;
            }
        }
        action
    }

    fn refresh_landings(&mut self, sim: &Sim) {
        let bricks = sim.breakable_left();
        let now: Vec<(i32, i32, usize)> =
            sim.balls().iter().map(|b| (b.vx, b.vy, bricks)).collect();
        if now.len() != self.seen.len() {
            self.seen.clear();
            self.landings.clear();
        }
        for (i, (key, ball)) in now.iter().zip(sim.balls()).enumerate() {
            if self.seen.get(i) == Some(key) {
                // Same course: the landing stands, unless it has passed.
                if let Some(Some(l)) = self.landings.get(i)
                    && l.step >= sim.steps()
                {
                    continue;
                }
            }
            let landing = if ball.hold.is_some() {
                None
            } else {
                predict(sim, ball)
            };
            if i < self.seen.len() {
                self.seen[i] = *key;
                self.landings[i] = landing;
            } else {
                self.seen.push(*key);
                self.landings.push(landing);
            }
        }
    }

    /// The paddle position to meet `landing` with.
    fn aim(&mut self, sim: &Sim, landing: Landing) -> i32 {
        let bad = bad_capsules(sim);
        let key = AimKey {
            landing,
            bricks: sim.breakable_left(),
            width: sim.paddle().w,
            speed: sim.speed(),
            bad: bad.len(),
        };
        if let Some((k, px)) = self.aim
            && k == key
        {
            return px;
        }
        let paddle = sim.paddle();
        let w = paddle.w;
        let reach = w / 2 + BALL / 2;
        let time = landing.step.saturating_sub(sim.steps()) as i64;
        let centre = landing.x + BALL / 2;
        let mut scored = Vec::new();
        for k in 0..FAN {
            let want = -reach * 9 / 10 + (reach * 18 / 10) * k / (FAN - 1);
            let px = reachable_spot(paddle.x, centre - want - w / 2, w);
            let rect = Rect { x: px, ..paddle };
            let ball_rect = Rect {
                x: landing.x,
                y: PADDLE_Y - BALL + 1,
                w: BALL,
                h: BALL,
            };
            if !ball_rect.overlaps(&rect) {
                continue;
            }
            let reachable = i64::from((px - paddle.x).abs()) <= i64::from(PADDLE_SPEED) * time + 18;
            let offset = centre - (px + w / 2);
            let (vx, vy) = physics::paddle_bounce(offset, reach, sim.speed());
            let mut value = rebound_value(sim, landing.x, vx, vy);
            // The paddle waits at `px` from when it gets there until the ball arrives.
            let there = i64::from((px - paddle.x).abs()) / i64::from(PADDLE_SPEED);
            let lands_bad = bad.iter().any(|&(c, from, to)| {
                c.x < px + w && px < c.x + CAPSULE_W && from <= time + 10 && to >= there.min(time)
            });
            if lands_bad {
                value -= 2_000_000;
            }
            if !reachable {
                value -= 4_000_000;
            }
            value -= i64::from((px - paddle.x).abs()) / 64;
            scored.push((value, px));
        }
        let px = match scored.iter().max() {
            Some(&(v, px)) if v > 0 => px,
            Some(&(_, best)) => {
                // Nothing reaches a brick in one rebound. Mostly take the one that passes
                // closest to a brick, but now and then a random one: a fixed rule can lock
                // ball and paddle into a cycle that never reaches the last brick.
                let ok: Vec<_> = scored.iter().filter(|(v, _)| *v > -1_000_000).collect();
                if !ok.is_empty() && self.rng.below(3) == 0 {
                    ok[self.rng.below(ok.len() as u32) as usize].1
                } else {
                    best
                }
            }
            None => (centre - w / 2).clamp(0, FIELD_W - w),
        };
        self.aim = Some((key, px));
        px
    }

    /// Where to carry a held ball before launching it.
    fn launch_spot(&mut self, sim: &Sim, hold_offset: i32) -> i32 {
        let paddle = sim.paddle();
        let key = (hold_offset, sim.breakable_left(), paddle.w);
        if let Some((k, px)) = self.launch
            && k == key
        {
            return px;
        }
        let w = paddle.w;
        let mut best = (i64::MIN, paddle.x);
        for k in 0..17 {
            let px = reachable_spot(paddle.x, (FIELD_W - w) * k / 16, w);
            let bx = px + hold_offset;
            let offset = bx + BALL / 2 - (px + w / 2);
            let (vx, vy) = physics::paddle_bounce(offset, w / 2 + BALL / 2, sim.speed());
            let value = rebound_value(sim, bx, vx, vy) - i64::from((px - paddle.x).abs()) / 8;
            if value > best.0 {
                best = (value, px);
            }
        }
        self.launch = Some((key, best.1));
        best.1
    }

    /// A paddle position that catches a good power-up and still meets the ball in time.
    fn fetch(&self, sim: &Sim, target: Option<i32>, deadline: Option<u64>) -> Option<i32> {
        let paddle = sim.paddle();
        let w = paddle.w;
        let speed = i64::from(PADDLE_SPEED);
        let mut best: Option<(i64, i32)> = None;
        for c in sim.capsules() {
            if !c.kind.is_good() {
                continue;
            }
            let Some((from, to)) = capsule_window(c.y) else {
                continue;
            };
            // The paddle positions that overlap the capsule, nearest the ball's spot.
            // (With a margin wider than the half step the paddle stops within.)
            let lo = (c.x - w + PADDLE_SPEED).max(0);
            let hi = (c.x + CAPSULE_W - PADDLE_SPEED).min(FIELD_W - w);
            let goal = target.unwrap_or(paddle.x);
            let px = reachable_spot(paddle.x, goal.clamp(lo, hi), w);
            if px < lo - PADDLE_SPEED / 2 || px > hi + PADDLE_SPEED / 2 {
                continue;
            }
            let reach_by = i64::from((px - paddle.x).abs());
            if reach_by > speed * to {
                continue;
            }
            let arrive = (reach_by / speed).max(from);
            if let (Some(d), Some(t)) = (deadline, target) {
                let back = i64::from((t - px).abs()) / speed + 2;
                if arrive + back > d as i64 {
                    continue;
                }
            }
            if best.is_none_or(|(a, _)| arrive < a) {
                best = Some((arrive, px));
            }
        }
        best.map(|(_, px)| px)
    }
}

/// The paddle position nearest `want` that the paddle at `from` can stop at exactly: it
/// moves [`PADDLE_SPEED`] units a step, or up to a wall. Aiming at these, the autopilot's
/// predictions are the game's, to the unit.
fn reachable_spot(from: i32, want: i32, w: i32) -> i32 {
    let max = FIELD_W - w;
    let want = want.clamp(0, max);
    let steps = (want - from + PADDLE_SPEED / 2).div_euclid(PADDLE_SPEED);
    let spot = from + steps * PADDLE_SPEED;
    if spot < 0 {
        0
    } else if spot > max {
        max
    } else {
        spot
    }
}

fn shift(a: Action) -> i32 {
    match a {
        Action::Left => -PADDLE_SPEED,
        Action::Right => PADDLE_SPEED,
        _ => 0,
    }
}

/// Whether, moving by `a` for the next `k` + 1 steps, the paddle would overlap a bad
/// power-up as it falls.
fn catches_bad(sim: &Sim, a: Action, k: i32) -> bool {
    let p = sim.paddle();
    (0..=k).any(|j| {
        let x = (p.x + shift(a) * (j + 1)).clamp(0, FIELD_W - p.w);
        let r = Rect { x, ..p };
        sim.capsules().iter().any(|c| {
            let fell = Rect {
                y: c.y + CAPSULE_FALL * (j + 1),
                ..c.rect()
            };
            !c.kind.is_good() && fell.overlaps(&r)
        })
    })
}

/// The steps from now during which a capsule at height `y` overlaps the paddle's rows,
/// or `None` if it has passed them.
fn capsule_window(y: i32) -> Option<(i64, i64)> {
    let fall = i64::from(CAPSULE_FALL);
    let top = i64::from(y);
    // It overlaps once y + CAPSULE_H > PADDLE_Y and until y >= PADDLE_Y + PADDLE_H.
    let from = (i64::from(PADDLE_Y - CAPSULE_H) - top + fall).max(0) / fall;
    let to = (i64::from(PADDLE_Y + PADDLE_H) - top - 1) / fall;
    (to >= 0).then_some((from, to))
}

fn bad_capsules(sim: &Sim) -> Vec<(Rect, i64, i64)> {
    sim.capsules()
        .iter()
        .filter(|c| !c.kind.is_good())
        .filter_map(|c| capsule_window(c.y).map(|(a, b)| (c.rect(), a, b)))
        .collect()
}

/// Where a free ball will reach the paddle's line, if within 3000 steps.
pub fn predict(sim: &Sim, ball: &Ball) -> Option<Landing> {
    let mut grid = sim.grid().to_vec();
    let mut world = World {
        grid: &mut grid,
        paddle: None,
        net: false,
        pierce: sim.pierce(),
        sticky: false,
        probe: Some(PADDLE_Y),
        speed: sim.speed(),
    };
    let mut b = *ball;
    let mut contacts = Vec::new();
    for k in 1..=3000u64 {
        contacts.clear();
        match physics::advance(&mut b, &mut world, &mut contacts) {
            Travel::Probe => {
                return Some(Landing {
                    step: sim.steps() + k,
                    x: b.x,
                });
            }
            Travel::Lost => return None,
            Travel::Moved | Travel::Paddle => {}
        }
    }
    None
}

/// How good a rebound from the paddle's line at `x` with velocity (`vx`, `vy`) is: high
/// when it reaches a breakable brick soon, more for breaking it; otherwise minus the
/// closest it came to one (in units, x and y gaps added).
fn rebound_value(sim: &Sim, x: i32, vx: i32, vy: i32) -> i64 {
    let targets: Vec<Rect> = sim
        .grid()
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            row.iter()
                .enumerate()
                .filter(|(_, c)| matches!(c, Cell::Brick { .. }))
                .map(move |(c, _)| Rect::brick(r, c))
        })
        .collect();
    let mut closest = i64::from(crate::field::FIELD_W + crate::field::FIELD_H);
    let mut grid = sim.grid().to_vec();
    let mut world = World {
        grid: &mut grid,
        paddle: None,
        net: false,
        pierce: sim.pierce(),
        sticky: false,
        probe: Some(PADDLE_Y),
        speed: sim.speed(),
    };
    let mut b = Ball {
        x,
        y: PADDLE_Y - BALL,
        fx: 0,
        fy: 0,
        vx,
        vy,
        hold: None,
        idle: 0,
    };
    let mut contacts = Vec::new();
    for k in 1..=HORIZON {
        contacts.clear();
        let travel = physics::advance(&mut b, &mut world, &mut contacts);
        let mut value = 0;
        for c in &contacts {
            if let Contact::Brick { broken, .. } = c {
                value += if *broken { 150_000 } else { 100_000 };
            }
        }
        if value > 0 {
            return value - i64::from(k) * 10;
        }
        if travel != Travel::Moved {
            break;
        }
        if k % 4 == 0 {
            for t in &targets {
                let gx = (t.x - (b.x + BALL)).max(b.x - (t.x + t.w)).max(0);
                let gy = (t.y - (b.y + BALL)).max(b.y - (t.y + t.h)).max(0);
                closest = closest.min(i64::from(gx + gy));
            }
        }
    }
    -closest
}

/// Plays `level` with a fresh autopilot from `start` until it is cleared, lost, or
/// `max_steps` have passed; `observe` sees each action and the state after it and may
/// stop the run by returning `false`. Returns the final state.
///
/// ```
/// use ply_breaker::{Start, Status, autopilot, builtin_levels};
/// let sim = autopilot::run_level(&builtin_levels()[0], 1, Start::default(), 60_000, |_, _| true);
/// assert_eq!(sim.status(), Status::Cleared);
/// ```
pub fn run_level(
    level: &crate::Level,
    seed: u64,
    start: crate::Start,
    max_steps: u64,
    mut observe: impl FnMut(Action, &Sim) -> bool,
) -> Sim {
    let mut sim = Sim::new(level, seed, start);
    let mut pilot = Autopilot::new();
    while sim.status() == crate::Status::Playing && sim.steps() < max_steps {
        let action = pilot.act(&sim);
        sim.step(action);
        if !observe(action, &sim) {
            break;
        }
    }
    sim
}
