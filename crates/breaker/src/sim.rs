//! The game state and its fixed time step: one call to [`Sim::step`] is 1/60 s of play.
//!
//! Order within a step: the paddle moves (stopping at any ball it would overlap) and held
//! balls ride on it; a launch releases held balls; the paddle grows or shrinks towards its
//! power-up width when it has room; each ball moves in turn (see [`crate::physics`]);
//! lost balls go, and with the last one a life; capsules fall and are caught or lost;
//! timers run down; a ball idle for 25 s gets a small deterministic nudge; and the level is
//! cleared when no breakable brick is left. Chance (drops, serves, nudges) comes only
//! from the seeded [`Rng`].

use crate::field::{
    BALL, BASE_SPEED, CAPSULE_FALL, CAPSULE_H, CAPSULE_W, FIELD_H, FIELD_W, GRID_COLS, PADDLE_H,
    PADDLE_NARROW, PADDLE_NORMAL, PADDLE_SPEED, PADDLE_WIDE, PADDLE_Y, Rect,
};
use crate::level::{Cell, Level};
use crate::physics::{self, Ball, Contact, Hold, Travel, World};
use crate::powerup::PowerUp;
use crate::rng::Rng;

/// Steps a ball stuck by the Sticky power-up waits before it launches by itself.
pub const STICKY_HOLD: u32 = 180;
/// Steps a served ball waits before it launches by itself.
pub const SERVE_HOLD: u32 = 300;
/// Balls in play at most.
pub const MAX_BALLS: usize = 8;
/// Lives at most.
pub const MAX_LIVES: u32 = 9;
/// The fastest a placed ball may move per step, in sub-units: 1000 times the standard
/// speed, 20,000 units, six times the field's width (the physics has no limit of its own
/// but the cost, which grows with the speed).
pub const MAX_PLACED_SPEED: i32 = 1000 * BASE_SPEED;
/// Steps a ball may go without touching the paddle or a breakable brick before a nudge.
pub const IDLE_NUDGE: u32 = 1500;

/// What the player does during one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Action {
    /// Keep the paddle still.
    #[default]
    Stay,
    /// Move the paddle left.
    Left,
    /// Move the paddle right.
    Right,
    /// Launch every ball held on the paddle.
    Launch,
}

impl Action {
    /// Every action, in the order of their indices (for discrete-action learners).
    pub const ALL: [Action; 4] = [Action::Stay, Action::Left, Action::Right, Action::Launch];

    /// The action's letter in traces.
    pub fn letter(self) -> char {
        match self {
            Action::Stay => 's',
            Action::Left => 'l',
            Action::Right => 'r',
            Action::Launch => 'f',
        }
    }

    /// The action for a trace letter.
    pub fn from_letter(c: char) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.letter() == c)
    }
}

/// Where a level is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Being played.
    Playing,
    /// Every breakable brick is gone.
    Cleared,
    /// The last life is lost.
    GameOver,
}

/// Something that happened during a step, for front ends and rewards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A brick lost a hit point but stands.
    BrickHit,
    /// A brick broke.
    BrickBroken,
    /// A broken brick dropped a power-up.
    Dropped(PowerUp),
    /// The paddle caught a power-up.
    Caught(PowerUp),
    /// A timed effect ran out.
    Expired(PowerUp),
    /// A ball left the field (others remain).
    BallLost,
    /// The last ball left the field: a life is gone.
    LifeLost,
    /// The net returned a ball and tore.
    NetUsed,
    /// The level is cleared.
    Cleared,
    /// No lives are left.
    GameOver,
}

/// A falling power-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Capsule {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// What it gives.
    pub kind: PowerUp,
}

impl Capsule {
    /// Its box.
    pub fn rect(&self) -> Rect {
        Rect {
            x: self.x,
            y: self.y,
            w: CAPSULE_W,
            h: CAPSULE_H,
        }
    }
}

/// Why [`Sim::place_ball`] refused a ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlaceBallError {
    /// Both velocity components are zero.
    #[error("the ball does not move")]
    Still,
    /// A velocity component beyond [`MAX_PLACED_SPEED`].
    #[error("a velocity of ({vx}, {vy}) is beyond {MAX_PLACED_SPEED} sub-units a step")]
    TooFast {
        /// Asked for.
        vx: i32,
        /// Asked for.
        vy: i32,
    },
    /// The ball would start below the field.
    #[error("a ball at y {y} is below the field (its top must be above {})", FIELD_H - BALL)]
    Below {
        /// Asked for.
        y: i32,
    },
    /// The ball's box overlaps something solid.
    #[error("a ball at ({x}, {y}) overlaps a wall, a brick, the paddle or the net")]
    Overlaps {
        /// Left edge asked for.
        x: i32,
        /// Top edge asked for.
        y: i32,
    },
}

/// Lives and score a level starts with (a run carries them from level to level).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Start {
    /// Lives, 1..=9.
    pub lives: u32,
    /// Score so far.
    pub score: u64,
}

impl Default for Start {
    fn default() -> Self {
        Start { lives: 3, score: 0 }
    }
}

/// Steps left of each timed effect (0: off).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct Timers {
    wide: u32,
    shrink: u32,
    slow: u32,
    fast: u32,
    sticky: u32,
    fire: u32,
    net: u32,
}

/// One level being played: the whole state, deterministic given the level, the seed and
/// the actions.
///
/// ```
/// use ply_breaker::{Action, Sim, Start, Status, builtin_levels};
/// let levels = builtin_levels();
/// let mut sim = Sim::new(&levels[0], 7, Start::default());
/// sim.step(Action::Launch);
/// for _ in 0..100 {
///     sim.step(Action::Stay);
/// }
/// assert_eq!(sim.status(), Status::Playing);
/// assert!(sim.balls()[0].vy != 0);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Sim {
    name: String,
    base_speed: i32,
    drops: u32,
    grid: Vec<[Cell; GRID_COLS]>,
    paddle: Rect,
    balls: Vec<Ball>,
    capsules: Vec<Capsule>,
    timers: Timers,
    lives: u32,
    score: u64,
    steps: u64,
    status: Status,
    rng: Rng,
}

impl Sim {
    /// The level's start: paddle centred, a ball held on it, `start`'s lives and score.
    pub fn new(level: &Level, seed: u64, start: Start) -> Sim {
        let mut sim = Sim {
            name: level.name.clone(),
            // Clamped again: `Level`'s fields are public, so it may not come from `parse`.
            base_speed: BASE_SPEED * level.speed.clamp(50, 200) as i32 / 100,
            drops: level.drops.min(100),
            grid: level.rows.clone(),
            paddle: Rect {
                x: (FIELD_W - PADDLE_NORMAL) / 2,
                y: PADDLE_Y,
                w: PADDLE_NORMAL,
                h: PADDLE_H,
            },
            balls: Vec::new(),
            capsules: Vec::new(),
            timers: Timers::default(),
            lives: start.lives.clamp(1, MAX_LIVES),
            score: start.score,
            steps: 0,
            status: Status::Playing,
            rng: Rng::new(seed),
        };
        sim.serve();
        sim
    }

    /// The level's name.
    pub fn name(&self) -> &str {
        &self.name
    }
    /// The bricks, top row first.
    pub fn grid(&self) -> &[[Cell; GRID_COLS]] {
        &self.grid
    }
    /// The paddle's box.
    pub fn paddle(&self) -> Rect {
        self.paddle
    }
    /// The balls in play.
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }
    /// The falling power-ups.
    pub fn capsules(&self) -> &[Capsule] {
        &self.capsules
    }
    /// Lives left (the ball in play included).
    pub fn lives(&self) -> u32 {
        self.lives
    }
    /// The score; it never goes down.
    pub fn score(&self) -> u64 {
        self.score
    }
    /// Steps played.
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// Playing, cleared or over.
    pub fn status(&self) -> Status {
        self.status
    }
    /// Whether the safety net is up.
    pub fn net(&self) -> bool {
        self.timers.net > 0
    }
    /// Bricks still to break.
    pub fn breakable_left(&self) -> usize {
        self.grid
            .iter()
            .flatten()
            .filter(|c| c.is_breakable())
            .count()
    }
    /// Lives and score to start the next level with.
    pub fn carry(&self) -> Start {
        Start {
            lives: self.lives.max(1),
            score: self.score,
        }
    }

    /// The timed effects in force and the steps each has left.
    pub fn effects(&self) -> Vec<(PowerUp, u32)> {
        let t = &self.timers;
        [
            (PowerUp::Wide, t.wide),
            (PowerUp::Shrink, t.shrink),
            (PowerUp::Slow, t.slow),
            (PowerUp::Fast, t.fast),
            (PowerUp::Sticky, t.sticky),
            (PowerUp::Fireball, t.fire),
            (PowerUp::Net, t.net),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 0)
        .collect()
    }

    /// The speed balls move at now, in sub-units per step.
    pub fn speed(&self) -> i32 {
        if self.timers.slow > 0 {
            self.base_speed * 60 / 100
        } else if self.timers.fast > 0 {
            self.base_speed * 140 / 100
        } else {
            self.base_speed
        }
    }

    /// The paddle's width as its power-ups want it.
    pub fn target_width(&self) -> i32 {
        if self.timers.wide > 0 {
            PADDLE_WIDE
        } else if self.timers.shrink > 0 {
            PADDLE_NARROW
        } else {
            PADDLE_NORMAL
        }
    }

    /// Whether balls break bricks without bouncing now.
    pub fn pierce(&self) -> bool {
        self.timers.fire > 0
    }

    /// Whether balls stick to the paddle now.
    pub fn sticky(&self) -> bool {
        self.timers.sticky > 0
    }

    /// A world for one ball's movement: the bricks and the paddle as they are.
    fn world(&mut self) -> World<'_> {
        World {
            paddle: Some(self.paddle),
            net: self.timers.net > 0,
            pierce: self.timers.fire > 0,
            sticky: self.timers.sticky > 0,
            probe: None,
            speed: self.speed(),
            grid: &mut self.grid,
        }
    }

    /// Replaces the balls with one free ball at (`x`, `y`) moving at (`vx`, `vy`)
    /// sub-units per step: for tests and experiments.
    ///
    /// # Errors
    /// The ball would overlap a wall, a brick or the paddle, or not move at all.
    pub fn place_ball(&mut self, x: i32, y: i32, vx: i32, vy: i32) -> Result<(), PlaceBallError> {
        let ball = Ball {
            x,
            y,
            fx: 0,
            fy: 0,
            vx,
            vy,
            hold: None,
            idle: 0,
        };
        if vx == 0 && vy == 0 {
            return Err(PlaceBallError::Still);
        }
        if vx.unsigned_abs() > MAX_PLACED_SPEED as u32
            || vy.unsigned_abs() > MAX_PLACED_SPEED as u32
        {
            return Err(PlaceBallError::TooFast { vx, vy });
        }
        if y > FIELD_H - BALL {
            return Err(PlaceBallError::Below { y });
        }
        if self.overlaps_solid(&ball.rect()) {
            return Err(PlaceBallError::Overlaps { x, y });
        }
        self.balls = vec![ball];
        Ok(())
    }

    /// Adds a falling power-up with its left edge at `x` and top at `y`: for tests and
    /// experiments.
    pub fn drop_capsule(&mut self, kind: PowerUp, x: i32, y: i32) {
        self.capsules.push(Capsule {
            x: x.clamp(0, FIELD_W - CAPSULE_W),
            y,
            kind,
        });
    }

    /// Whether `r` overlaps a wall, a brick that stands, the paddle or the net.
    pub fn overlaps_solid(&self, r: &Rect) -> bool {
        if r.x < 0 || r.x + r.w > FIELD_W || r.y < 0 || r.overlaps(&self.paddle) {
            return true;
        }
        if self.net() && r.overlaps(&net_rect()) {
            return true;
        }
        self.grid.iter().enumerate().any(|(ri, row)| {
            row.iter()
                .enumerate()
                .any(|(ci, c)| c.is_present() && r.overlaps(&Rect::brick(ri, ci)))
        })
    }

    /// Plays one step.
    pub fn step(&mut self, action: Action) -> Vec<Event> {
        let mut events = Vec::new();
        if self.status != Status::Playing {
            return events;
        }
        self.steps += 1;
        self.move_paddle(action);
        let speed = self.speed();
        for i in 0..self.balls.len() {
            let launch = match &mut self.balls[i].hold {
                Some(h) => {
                    h.timer = h.timer.saturating_sub(1);
                    action == Action::Launch || h.timer == 0
                }
                None => false,
            };
            if launch {
                self.launch(i, speed);
            }
        }
        self.resize_paddle();
        self.move_balls(&mut events);
        self.move_capsules(&mut events);
        self.tick_timers(&mut events);
        if self.status == Status::Playing && self.breakable_left() == 0 {
            self.status = Status::Cleared;
            self.score += 1000 + 250 * u64::from(self.lives);
            events.push(Event::Cleared);
        }
        events
    }

    fn serve(&mut self) {
        let w = self.paddle.w;
        let jitter = self.rng.below((w / 2) as u32) as i32 - w / 4;
        let offset = (w / 2 - BALL / 2 + jitter).clamp(0, w - BALL);
        self.balls.push(Ball {
            x: self.paddle.x + offset,
            y: PADDLE_Y - BALL,
            fx: 0,
            fy: 0,
            vx: 0,
            vy: 0,
            hold: Some(Hold {
                offset,
                timer: SERVE_HOLD,
            }),
            idle: 0,
        });
    }

    fn launch(&mut self, i: usize, speed: i32) {
        let p = self.paddle;
        let b = &mut self.balls[i];
        let offset = b.cx() - (p.x + p.w / 2);
        let (vx, vy) = physics::paddle_bounce(offset, p.w / 2 + BALL / 2, speed);
        b.vx = vx;
        b.vy = vy;
        b.fx = 0;
        b.fy = 0;
        b.hold = None;
        b.idle = 0;
    }

    fn free_ball_in(&self, r: &Rect) -> bool {
        self.balls
            .iter()
            .any(|b| b.hold.is_none() && b.rect().overlaps(r))
    }

    fn move_paddle(&mut self, action: Action) {
        let dir = match action {
            Action::Left => -1,
            Action::Right => 1,
            _ => return,
        };
        for _ in 0..PADDLE_SPEED {
            let next = Rect {
                x: self.paddle.x + dir,
                ..self.paddle
            };
            if next.x < 0 || next.x + next.w > FIELD_W || self.free_ball_in(&next) {
                break;
            }
            self.paddle = next;
        }
        self.sync_held();
    }

    fn sync_held(&mut self) {
        let p = self.paddle;
        for b in &mut self.balls {
            if let Some(h) = &mut b.hold {
                h.offset = h.offset.clamp(0, p.w - BALL);
                b.x = p.x + h.offset;
                b.y = p.y - BALL;
            }
        }
    }

    fn resize_paddle(&mut self) {
        let w = self.target_width();
        if w == self.paddle.w {
            return;
        }
        let centre = self.paddle.x + self.paddle.w / 2;
        let next = Rect {
            x: (centre - w / 2).clamp(0, FIELD_W - w),
            w,
            ..self.paddle
        };
        if !self.free_ball_in(&next) {
            self.paddle = next;
            self.sync_held();
        }
    }

    fn move_balls(&mut self, events: &mut Vec<Event>) {
        let mut contacts = Vec::new();
        let mut balls = std::mem::take(&mut self.balls);
        let mut kept = Vec::with_capacity(balls.len());
        let mut lost = 0;
        for mut ball in balls.drain(..) {
            if ball.hold.is_some() {
                kept.push(ball);
                continue;
            }
            contacts.clear();
            let travel = physics::advance(&mut ball, &mut self.world(), &mut contacts);
            ball.idle += 1;
            for c in &contacts {
                self.score_contact(*c, &mut ball, events);
            }
            if travel == Travel::Lost {
                lost += 1;
                continue;
            }
            if ball.idle >= IDLE_NUDGE && ball.hold.is_none() {
                let sign = if self.rng.below(2) == 0 { -1 } else { 1 };
                (ball.vx, ball.vy) = physics::rotate(ball.vx, ball.vy, sign, true, self.speed());
                ball.idle = 0;
            }
            kept.push(ball);
        }
        self.balls = kept;
        if self.balls.is_empty() {
            self.lose_life(events);
        } else {
            events.extend(std::iter::repeat_n(Event::BallLost, lost));
        }
    }

    fn score_contact(&mut self, c: Contact, ball: &mut Ball, events: &mut Vec<Event>) {
        match c {
            Contact::Brick {
                row,
                col,
                broken,
                max,
                bonus,
            } => {
                ball.idle = 0;
                if broken {
                    self.score += 10 + 20 * u64::from(max) + if bonus { 50 } else { 0 };
                    events.push(Event::BrickBroken);
                    if bonus || self.rng.below(100) < self.drops {
                        let kind = PowerUp::from_draw(self.rng.below(100));
                        let b = Rect::brick(row, col);
                        self.drop_capsule(kind, b.x + (b.w - CAPSULE_W) / 2, b.y);
                        events.push(Event::Dropped(kind));
                    }
                } else {
                    self.score += 10;
                    events.push(Event::BrickHit);
                }
            }
            Contact::Paddle { .. } => ball.idle = 0,
            Contact::Net => {
                if self.timers.net > 0 {
                    self.timers.net = 0;
                    events.push(Event::NetUsed);
                }
            }
            Contact::Wall | Contact::Steel | Contact::PaddleEdge => {}
        }
    }

    fn lose_life(&mut self, events: &mut Vec<Event>) {
        self.lives -= 1;
        let net = self.timers.net;
        self.timers = Timers {
            net,
            ..Timers::default()
        };
        if self.lives == 0 {
            self.status = Status::GameOver;
            events.push(Event::GameOver);
        } else {
            events.push(Event::LifeLost);
            self.resize_paddle();
            self.serve();
        }
    }

    fn move_capsules(&mut self, events: &mut Vec<Event>) {
        let mut caught = Vec::new();
        let paddle = self.paddle;
        self.capsules.retain_mut(|c| {
            c.y += CAPSULE_FALL;
            if c.rect().overlaps(&paddle) {
                caught.push(c.kind);
                false
            } else {
                c.y < FIELD_H
            }
        });
        for kind in caught {
            self.score += 25;
            events.push(Event::Caught(kind));
            self.apply(kind);
        }
    }

    /// Gives the effect of a power-up as if it had been caught.
    pub fn apply(&mut self, kind: PowerUp) {
        let old_speed = self.speed();
        let d = kind.duration();
        let t = &mut self.timers;
        match kind {
            PowerUp::Wide => (t.wide, t.shrink) = (d, 0),
            PowerUp::Shrink => (t.shrink, t.wide) = (d, 0),
            PowerUp::Slow => (t.slow, t.fast) = (d, 0),
            PowerUp::Fast => (t.fast, t.slow) = (d, 0),
            PowerUp::Sticky => t.sticky = d,
            PowerUp::Fireball => t.fire = d,
            PowerUp::Net => t.net = d,
            PowerUp::Life => self.lives = (self.lives + 1).min(MAX_LIVES),
            PowerUp::Multi => self.split_balls(),
        }
        if self.speed() != old_speed {
            self.rescale_balls();
        }
    }

    fn split_balls(&mut self) {
        let speed = self.speed();
        let p = self.paddle;
        let mut extra = Vec::new();
        for b in &self.balls {
            let (vx, vy) = if b.hold.is_some() {
                physics::paddle_bounce(b.cx() - (p.x + p.w / 2), p.w / 2 + BALL / 2, speed)
            } else {
                (b.vx, b.vy)
            };
            for sign in [-1, 1] {
                let (nx, ny) = physics::rotate(vx, vy, sign, false, speed);
                extra.push(Ball {
                    vx: nx,
                    vy: ny,
                    hold: None,
                    idle: 0,
                    ..*b
                });
            }
        }
        let room = MAX_BALLS.saturating_sub(self.balls.len());
        self.balls.extend(extra.into_iter().take(room));
    }

    fn rescale_balls(&mut self) {
        let speed = self.speed();
        for b in &mut self.balls {
            if b.hold.is_none() {
                (b.vx, b.vy) = physics::with_speed(b.vx, b.vy, speed);
            }
        }
    }

    fn tick_timers(&mut self, events: &mut Vec<Event>) {
        let old_speed = self.speed();
        let t = &mut self.timers;
        for (timer, kind) in [
            (&mut t.wide, PowerUp::Wide),
            (&mut t.shrink, PowerUp::Shrink),
            (&mut t.slow, PowerUp::Slow),
            (&mut t.fast, PowerUp::Fast),
            (&mut t.sticky, PowerUp::Sticky),
            (&mut t.fire, PowerUp::Fireball),
            (&mut t.net, PowerUp::Net),
        ] {
            if *timer > 0 {
                *timer -= 1;
                if *timer == 0 {
                    events.push(Event::Expired(kind));
                }
            }
        }
        if self.speed() != old_speed {
            self.rescale_balls();
        }
    }

    /// A 64-bit digest of the whole state (FNV-1a over its fields in a fixed order): two
    /// runs with equal digests after every step played the same frames.
    pub fn digest(&self) -> u64 {
        let mut h = Fnv::default();
        h.num(self.steps as i64);
        h.num(self.score as i64);
        h.num(i64::from(self.lives));
        h.num(self.status as i64);
        h.num(i64::from(self.paddle.x));
        h.num(i64::from(self.paddle.w));
        h.num(self.balls.len() as i64);
        for b in &self.balls {
            for v in [b.x, b.y, b.fx, b.fy, b.vx, b.vy] {
                h.num(i64::from(v));
            }
            match b.hold {
                Some(hold) => {
                    h.num(i64::from(hold.offset));
                    h.num(i64::from(hold.timer));
                }
                None => h.num(-1),
            }
            h.num(i64::from(b.idle));
        }
        h.num(self.capsules.len() as i64);
        for c in &self.capsules {
            h.num(i64::from(c.x));
            h.num(i64::from(c.y));
            h.num(c.kind as i64);
        }
        for cell in self.grid.iter().flatten() {
            h.num(match *cell {
                Cell::Empty => 0,
                Cell::Solid => -1,
                Cell::Brick { hp, .. } => i64::from(hp),
            });
        }
        let t = self.timers;
        for v in [t.wide, t.shrink, t.slow, t.fast, t.sticky, t.fire, t.net] {
            h.num(i64::from(v));
        }
        h.num(self.rng.state() as i64);
        h.0
    }
}

/// The net's box.
pub fn net_rect() -> Rect {
    Rect {
        x: 0,
        y: crate::field::NET_Y,
        w: FIELD_W,
        h: crate::field::NET_H,
    }
}

struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn num(&mut self, v: i64) {
        for byte in v.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
