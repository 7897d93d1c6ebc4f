//! Block Breaker (the seed's arcade game): a deterministic simulation with six levels
//! stored as text, power-ups, an autopilot and an environment API for AI research.
//!
//! Boundaries: this crate never prints, reads files or the clock. It is integer
//! arithmetic and one seeded SplitMix64 throughout, so a level, a seed and the list of
//! actions fix every frame, on any machine and in a WebAssembly build. Front ends (the
//! terminal game in `ply breaker play`) draw a [`Sim`] and feed it [`Action`]s at 60 steps
//! a second.
//!
//! - [`field`]: the geometry and units; [`physics`]: swept ball movement;
//! - [`level`]: the level file format and the six built-in levels;
//! - [`sim`]: the state and its fixed step; [`powerup`]: the power-ups;
//! - [`autopilot`]: a player that predicts landings and aims at bricks;
//! - [`env`](mod@env): reset/step/observation/reward for learners; [`trace`]: recorded runs that
//!   replay exactly; [`scores`]: the high-score table.

pub mod autopilot;
pub mod env;
pub mod field;
pub mod level;
pub mod physics;
pub mod powerup;
pub mod rng;
pub mod scores;
pub mod sim;
pub mod trace;

pub use autopilot::Autopilot;
pub use env::{Env, Observation};
pub use level::{Cell, Level, ParseLevelError, builtin_levels};
pub use powerup::PowerUp;
pub use sim::{Action, Event, Sim, Start, Status};
pub use trace::Trace;
