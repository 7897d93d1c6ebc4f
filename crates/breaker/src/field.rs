//! The playing field's geometry, in integer units. The units are square: a terminal column
//! is [`COL`] units wide and a row [`ROW`] units tall, since a character cell is about twice
//! as tall as it is wide. Positions are whole units; velocities are in 1/[`SUB`] units per
//! step and a ball keeps the fractions, so slow and steep angles are exact.
//!
//! ```text
//!  x=0                                        x=FIELD_W
//!  +------------------------------------------+  y=0      ceiling (row 0)
//!  |                                          |
//!  |  [brick][brick][brick] ... 13 a row      |  y=GRID_TOP, up to 12 rows
//!  |                                          |
//!  |                    o  ball               |
//!  |               =========  paddle          |  y=PADDLE_Y (row 20)
//!  |  ~~~~~~~~~~~~~~~~ net (a power-up) ~~~~~~ |  y=NET_Y    (row 21)
//!  +                                          +  y=FIELD_H  open floor: a ball lost
//! ```

/// Units per terminal column.
pub const COL: i32 = 64;
/// Units per terminal row.
pub const ROW: i32 = 128;
/// Sub-units per unit, for velocities.
pub const SUB: i32 = 256;
/// Columns of bricks.
pub const GRID_COLS: usize = 13;
/// Rows of bricks at most.
pub const GRID_MAX_ROWS: usize = 12;
/// A brick's width (4 columns).
pub const BRICK_W: i32 = 4 * COL;
/// A brick's height (1 row).
pub const BRICK_H: i32 = ROW;
/// The field's width in terminal columns.
pub const FIELD_COLS: i32 = GRID_COLS as i32 * 4;
/// The field's height in terminal rows.
pub const FIELD_ROWS: i32 = 22;
/// The field's width.
pub const FIELD_W: i32 = FIELD_COLS * COL;
/// The field's height: a ball whose top passes it is lost.
pub const FIELD_H: i32 = FIELD_ROWS * ROW;
/// The top of the first row of bricks.
pub const GRID_TOP: i32 = 2 * ROW;
/// The top of the paddle.
pub const PADDLE_Y: i32 = 20 * ROW;
/// The paddle's thickness.
pub const PADDLE_H: i32 = ROW / 2;
/// The top of the safety net.
pub const NET_Y: i32 = 21 * ROW + ROW / 2;
/// The net's thickness.
pub const NET_H: i32 = ROW / 4;
/// The ball's side (it is a square).
pub const BALL: i32 = COL / 2;
/// A falling power-up's width (3 columns) and height.
pub const CAPSULE_W: i32 = 3 * COL;
/// A falling power-up's height.
pub const CAPSULE_H: i32 = ROW / 2;
/// How far a power-up falls per step.
pub const CAPSULE_FALL: i32 = 8;
/// The standard ball speed, in sub-units per step (20 units).
pub const BASE_SPEED: i32 = 20 * SUB;
/// How far the paddle moves per step: faster than any ball moves sideways.
pub const PADDLE_SPEED: i32 = 36;
/// The paddle's usual width (7 columns).
pub const PADDLE_NORMAL: i32 = 7 * COL;
/// The paddle's width with the Wide power-up (11 columns).
pub const PADDLE_WIDE: i32 = 11 * COL;
/// The paddle's width with the Shrink power-down (4 columns).
pub const PADDLE_NARROW: i32 = 4 * COL;
/// Simulation steps per second of game time.
pub const STEPS_PER_SECOND: u32 = 60;

/// An axis-aligned box: `x..x+w`, `y..y+h` (half-open).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rect {
    /// Left edge.
    pub x: i32,
    /// Top edge.
    pub y: i32,
    /// Width.
    pub w: i32,
    /// Height.
    pub h: i32,
}

impl Rect {
    /// Whether the two boxes share any area.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// The box of brick cell (`row`, `col`).
    pub fn brick(row: usize, col: usize) -> Rect {
        Rect {
            x: col as i32 * BRICK_W,
            y: GRID_TOP + row as i32 * BRICK_H,
            w: BRICK_W,
            h: BRICK_H,
        }
    }
}
