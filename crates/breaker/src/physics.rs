//! Ball movement with swept collisions, in whole units.
//!
//! Each step a ball's velocity (in sub-units) adds to its fractions, and the whole units
//! that come out are walked one at a time, x and y interleaved along the line (Bresenham).
//! Before each unit move the ball's box at the new place is tested against the walls, the
//! bricks, the paddle and the net; if it would overlap any of them the move is not made and
//! that axis of the velocity is reflected. So a ball never overlaps a solid at any moment,
//! and since every solid is thicker than one unit, no speed can carry it through one: the
//! work is proportional to the speed, never a skipped test. Everything is integer
//! arithmetic, so the same inputs give the same path on every machine (and in a port).

use crate::field::{
    BALL, BRICK_H, BRICK_W, FIELD_H, FIELD_W, GRID_COLS, GRID_TOP, NET_H, NET_Y, Rect, SUB,
};
use crate::level::Cell;

/// A ball stuck to the paddle (at the serve, or by the Sticky power-up).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Hold {
    /// The ball's left edge minus the paddle's.
    pub offset: i32,
    /// Steps until it launches by itself.
    pub timer: u32,
}

/// A ball: its box's top-left corner in units, the fractions of a unit it has travelled
/// beyond that, and its velocity in sub-units per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ball {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Fraction of a unit in x, `0..SUB`.
    pub fx: i32,
    /// Fraction of a unit in y, `0..SUB`.
    pub fy: i32,
    /// Velocity in x, sub-units per step.
    pub vx: i32,
    /// Velocity in y (positive is down), sub-units per step.
    pub vy: i32,
    /// Held on the paddle, if it is.
    pub hold: Option<Hold>,
    /// Steps since it last touched the paddle or broke a brick (to free a ball caught in a
    /// loop between steel bricks).
    pub idle: u32,
}

impl Ball {
    /// The ball's box.
    pub fn rect(&self) -> Rect {
        Rect {
            x: self.x,
            y: self.y,
            w: BALL,
            h: BALL,
        }
    }

    /// The centre's x.
    pub fn cx(&self) -> i32 {
        self.x + BALL / 2
    }
}

/// Something a ball touched during a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contact {
    /// A side wall or the ceiling.
    Wall,
    /// A breakable brick lost a hit point (`broken` when that was its last).
    Brick {
        /// Grid row.
        row: usize,
        /// Grid column.
        col: usize,
        /// It broke.
        broken: bool,
        /// The hit points it started with.
        max: u8,
        /// It always drops a power-up.
        bonus: bool,
    },
    /// An indestructible brick.
    Steel,
    /// The paddle's top: the ball bounced off at an angle set by `offset`, or stuck.
    Paddle {
        /// Ball centre minus paddle centre, in units.
        offset: i32,
    },
    /// The paddle's side or underside.
    PaddleEdge,
    /// The safety net.
    Net,
}

/// How a ball's step ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Travel {
    /// It moved its full distance (bouncing as needed).
    Moved,
    /// It touched the paddle's top and stops there for this step.
    Paddle,
    /// It fell out of the field.
    Lost,
    /// It reached the probe line (predictions only).
    Probe,
}

/// What a ball can hit, borrowed from the game state for one ball's step.
#[derive(Debug)]
pub struct World<'a> {
    /// The bricks; a broken brick becomes [`Cell::Empty`].
    pub grid: &'a mut [[Cell; GRID_COLS]],
    /// The paddle, if one takes part.
    pub paddle: Option<Rect>,
    /// The safety net is up.
    pub net: bool,
    /// Balls break breakable bricks without bouncing (Fireball).
    pub pierce: bool,
    /// Balls stick to the paddle's top (Sticky).
    pub sticky: bool,
    /// A prediction's line: the step ends when the ball's bottom would pass this y.
    pub probe: Option<i32>,
    /// The speed a ball leaves the paddle with, sub-units per step.
    pub speed: i32,
}

/// The velocity a ball leaves the paddle with when it meets it `offset` units right of its
/// centre (negative: left): straight up at the centre, up to 60 degrees from the vertical
/// at the edges, at `speed` sub-units per step.
///
/// ```
/// use ply_breaker::physics::paddle_bounce;
/// assert_eq!(paddle_bounce(0, 200, 5120), (0, -5120));
/// let (vx, vy) = paddle_bounce(100, 200, 5120);
/// assert!(vx > 0 && vy < 0);
/// ```
pub fn paddle_bounce(offset: i32, reach: i32, speed: i32) -> (i32, i32) {
    let reach = i64::from(reach.max(1));
    let dx = (i64::from(offset) * 1732 / reach).clamp(-1732, 1732);
    let dy = -1000i64;
    let len = ((dx * dx + dy * dy) as u64).isqrt() as i64;
    let s = i64::from(speed);
    let vx = (s * dx / len) as i32;
    let vy = ((s * dy / len) as i32).min(-1);
    (vx, vy)
}

/// Sets a velocity's length to `speed`, keeping its direction, and keeps it at least 30
/// degrees away from the horizontal so that no ball crawls from wall to wall.
pub fn with_speed(vx: i32, vy: i32, speed: i32) -> (i32, i32) {
    let (x, y) = (i64::from(vx), i64::from(vy));
    let len = ((x * x + y * y) as u64).isqrt() as i64;
    let s = i64::from(speed);
    let (mut nx, mut ny) = if len == 0 {
        (0, -s)
    } else {
        (x * s / len, y * s / len)
    };
    if 2 * ny.abs() < s {
        let sign_y = if ny > 0 { 1 } else { -1 };
        let sign_x = if nx < 0 { -1 } else { 1 };
        ny = sign_y * ((s + 1) / 2);
        nx = sign_x * ((s * s - ny * ny).max(0) as u64).isqrt() as i64;
    }
    (nx as i32, ny as i32)
}

/// Rotates a velocity by a small fixed angle (about 25 degrees, or about 8 with `small`)
/// to the left (`sign` < 0) or right, then restores its speed and the 30-degree rule.
pub fn rotate(vx: i32, vy: i32, sign: i32, small: bool, speed: i32) -> (i32, i32) {
    // cos and sin in 1/1024: 25 degrees (928, 433), 8 degrees (1014, 143).
    let (c, s) = if small { (1014i64, 143i64) } else { (928, 433) };
    let s = s * i64::from(sign.signum());
    let (x, y) = (i64::from(vx), i64::from(vy));
    let nx = (x * c - y * s) / 1024;
    let ny = (x * s + y * c) / 1024;
    with_speed(nx as i32, ny as i32, speed)
}

/// Moves a free ball one step through `world`, reporting what it touched in `contacts`.
pub fn advance(ball: &mut Ball, world: &mut World<'_>, contacts: &mut Vec<Contact>) -> Travel {
    let tx = ball.fx + ball.vx;
    let ty = ball.fy + ball.vy;
    let dx = tx.div_euclid(SUB);
    let dy = ty.div_euclid(SUB);
    ball.fx = tx.rem_euclid(SUB);
    ball.fy = ty.rem_euclid(SUB);
    let (nx, ny) = (i64::from(dx.abs()), i64::from(dy.abs()));
    let (mut sx, mut sy) = (dx.signum(), dy.signum());
    let (mut mx, mut my) = (0i64, 0i64);
    while mx < nx || my < ny {
        let along_x = if my >= ny {
            true
        } else if mx >= nx {
            false
        } else {
            (2 * mx + 1) * ny <= (2 * my + 1) * nx
        };
        if along_x {
            mx += 1;
            match unit_move(ball, world, sx, 0, contacts) {
                Unit::Free => {}
                Unit::Blocked => {
                    sx = -sx;
                    ball.vx = -ball.vx;
                }
                Unit::End(t) => return t,
            }
        } else {
            my += 1;
            match unit_move(ball, world, 0, sy, contacts) {
                Unit::Free => {}
                Unit::Blocked => {
                    sy = -sy;
                    ball.vy = -ball.vy;
                }
                Unit::End(t) => return t,
            }
            if ball.y >= FIELD_H {
                return Travel::Lost;
            }
        }
    }
    Travel::Moved
}

enum Unit {
    Free,
    Blocked,
    End(Travel),
}

fn unit_move(
    ball: &mut Ball,
    world: &mut World<'_>,
    ux: i32,
    uy: i32,
    contacts: &mut Vec<Contact>,
) -> Unit {
    let next = Rect {
        x: ball.x + ux,
        y: ball.y + uy,
        w: BALL,
        h: BALL,
    };
    if let Some(line) = world.probe
        && uy > 0
        && next.y + BALL > line
    {
        return Unit::End(Travel::Probe);
    }
    let mut blocked = false;
    if next.x < 0 || next.x + BALL > FIELD_W || next.y < 0 {
        blocked = true;
        contacts.push(Contact::Wall);
    }
    // The bricks the box would overlap: at most two columns and two rows, since the ball is
    // smaller than a brick.
    let rows = world.grid.len() as i32;
    let r0 = (next.y - GRID_TOP).div_euclid(BRICK_H).max(0);
    let r1 = (next.y + BALL - 1 - GRID_TOP)
        .div_euclid(BRICK_H)
        .min(rows - 1);
    let c0 = next.x.div_euclid(BRICK_W).max(0);
    let c1 = (next.x + BALL - 1)
        .div_euclid(BRICK_W)
        .min(GRID_COLS as i32 - 1);
    for r in r0..=r1 {
        for c in c0..=c1 {
            let (ru, cu) = (r as usize, c as usize);
            let cell = &mut world.grid[ru][cu];
            match *cell {
                Cell::Empty => {}
                Cell::Solid => {
                    blocked = true;
                    contacts.push(Contact::Steel);
                }
                Cell::Brick { hp, max, bonus } => {
                    let broken = hp <= 1 || world.pierce;
                    *cell = if broken {
                        Cell::Empty
                    } else {
                        Cell::Brick {
                            hp: hp - 1,
                            max,
                            bonus,
                        }
                    };
                    if !world.pierce {
                        blocked = true;
                    }
                    contacts.push(Contact::Brick {
                        row: ru,
                        col: cu,
                        broken,
                        max,
                        bonus,
                    });
                }
            }
        }
    }
    if world.net {
        let net = Rect {
            x: 0,
            y: NET_Y,
            w: FIELD_W,
            h: NET_H,
        };
        if next.overlaps(&net) {
            blocked = true;
            contacts.push(Contact::Net);
        }
    }
    if let Some(p) = world.paddle
        && next.overlaps(&p)
    {
        let from_above = uy > 0 && ball.y + BALL <= p.y;
        if from_above && !blocked {
            let offset = next.x + BALL / 2 - (p.x + p.w / 2);
            contacts.push(Contact::Paddle { offset });
            if world.sticky {
                ball.hold = Some(Hold {
                    offset: ball.x - p.x,
                    timer: crate::sim::STICKY_HOLD,
                });
                ball.vx = 0;
                ball.vy = 0;
            } else {
                let (vx, vy) = paddle_bounce(offset, p.w / 2 + BALL / 2, world.speed);
                ball.vx = vx;
                ball.vy = vy;
            }
            ball.fx = 0;
            ball.fy = 0;
            return Unit::End(Travel::Paddle);
        }
        blocked = true;
        contacts.push(Contact::PaddleEdge);
    }
    if blocked {
        Unit::Blocked
    } else {
        ball.x = next.x;
        ball.y = next.y;
        Unit::Free
    }
}
