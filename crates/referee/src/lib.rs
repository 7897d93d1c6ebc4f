//! ply's referee: seats bots, runs games under HackerEarth's rules (a process per move) or
//! the AI Challenge's (a process per game), and records them.
//!
//! * [`persistent`]: the AI Challenge's persistent bots (one process per game, paused between
//!   turns, `go`-terminated answers); [`ants`]: Ants games between programs and built-ins;
//! * [`process`]: bot programs under wall-time, memory and output limits, in their own process
//!   group and cgroup, killed with everything they started;
//! * [`jail`]: the bubblewrap jail around every bot program, and the report of what
//!   protection this machine lacks; [`launcher`]: the process inside a per-move bot's jail
//!   that starts each move, so the jail is made once per game; [`moves`]: a game's moves;
//! * [`bot`]: the [`Bot`] trait (one seat-holder), external per-move bots and built-in AIs;
//! * [`spec`]: `builtin:NAME[:opts]` or a command line, into a [`Bot`];
//! * [`game`]: one refereed game, its [`Replay`], and matches of several games;
//! * [`Verdict`]: the judgement of one move.
//!
//! Nothing here knows about storage or ratings: the command line joins the referee to the
//! store and the rating maths.

pub mod ants;
pub mod bot;
mod cgroup;
pub mod game;
pub mod jail;
pub mod launcher;
pub mod moves;
pub mod persistent;
pub mod process;
mod reaper;
pub mod spec;
mod verdict;

pub use bot::{Bot, Turn};
pub use game::{MoveRecord, Replay, play_game, play_game_from};
pub use process::{Limits, Sandbox};
pub use spec::PlayerSpec;
pub use verdict::Verdict;
