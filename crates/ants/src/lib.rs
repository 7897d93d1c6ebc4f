//! Ants, the 2011 Google AI Challenge: a rule-exact engine, the original bot protocol and
//! replays in the original's revision-3 format.
//!
//! # The rules (as the original engine runs them)
//!
//! The reference is the original engine, aichallenge/aichallenge branch `epsilon`
//! (`ants/ants.py`, `worker/engine.py`, `ants/playgame.py`); where its spec pages and its
//! code disagree, ply follows the code. Every choice below names the function it copies.
//!
//! * **Map** ([`AntsMap::parse`], `parse_map`): `rows`, `cols`, `players` (2..=10, before
//!   the first `m` line), then `m` lines of exactly `cols` characters: `.` land, `%` water,
//!   `*` food, `a`-`j` ants, `0`-`9` hills, `A`-`J` an ant on its own hill; only the letters
//!   and digits of the map's players are accepted, `?` and `!` are rejected; `#` comments and
//!   unknown keys (`score`, `hive`) are ignored. The map is a torus.
//! * **Geometry** ([`geometry`]): distances are squared Euclidean with wrap; radii compare with
//!   `<=`; neighbourhoods are precomputed offset lists in the original's order (rows then
//!   columns from `-sqrt(r2)`), not deduplicated, so on maps narrower than a radius's
//!   diameter one ant can count twice, as in `neighbourhood_offsets`. Water blocks only
//!   movement: vision and attacks pass over it.
//! * **Defaults** ([`Settings::default`]): viewradius2 77, attackradius2 5, spawnradius2 1,
//!   loadtime 3000 ms, turntime 1000 ms, 1000 turns, cutoff after 150 turns at 85%, food
//!   `symmetric`, food_rate 5..=11, food_turn 19..=37, food_start 75..=175, food_visible 3..=5
//!   (each drawn once per game from the engine seed, as the constructor does).
//! * **Start**: outside scenario mode, the map's ants and food are ignored and one ant is put
//!   on every hill; in scenario mode the map is followed exactly (ants on hills only if the map
//!   has no ants). Every player starts with *player 0's* hill count as score
//!   (`[len(map_data['hills'][0])] * num_players`), which equals its own on fair maps.
//! * **A turn** (`finish_turn`), in this order:
//!   1. *orders and moves* (`do_orders`): every ant moves by its order or holds (`-`); two or
//!      more ants ending on one square all die, whoever owns them;
//!   2. *battle by the focus rule* (`do_attack_focus`): an ant with enemies within
//!      attackradius2 dies if one of those enemies has no more enemies in range than it has
//!      (1 vs 1 both die; 2 vs 1 the single ant dies, ...);
//!   3. *hill razing* (`do_raze_hills`): an enemy ant on an unrazed hill razes it, +2 to the
//!      razer, -1 to the owner (once per hill); an own ant on a hill marks it touched;
//!   4. *spawning* (`do_spawn`): per player, unrazed free hills least recently touched first
//!      (ties at random), one ant per hill while the hive has food; a dead (crashed) player's
//!      hive still spawns, as in the original;
//!   5. *gathering* (`do_gather`): food with ants of exactly one player within spawnradius2
//!      goes to that player's hive; with several players it is destroyed;
//!   6. *food spawning* (`do_food_*`): `food_rate * players / food_turn` per turn, accumulated
//!      exactly; modes `none`, `random`, `sections` (each player's BFS-nearest squares) and
//!      `symmetric` (sets of squares at the same oriented offset from every start, cycled
//!      in shuffled rounds; food that cannot be placed waits for its square). Whenever food is
//!      on, the start also gets `food_visible` food per player in view of the hills, and the
//!      map must be symmetric (the original raises otherwise).
//! * **Cutoff** (`finish_turn`): when one player's ants plus hive food (hive counted once per
//!   remaining hill, as the original's loop does), or the food on the map, make up at least
//!   85% of everything for `cutoff_turn` turns in a row, the game ends ("ants not razing
//!   hills", "food not being gathered"); a turn in which an ant dies on a hill not owned by the
//!   majority holder does not count.
//! * **End** (`game_over`, checked before orders are processed and after each turn): no
//!   player alive ("extermination"), one player alive ("lone survivor": it is credited +2 for
//!   every hill left and their owners -1, `finish_game`), the cutoff, "rank stabilized" (no
//!   player with hills can change rank any more), or the turn limit ("turn limit reached").
//!   A player is alive while it has ants and has not crashed or timed out; a crash or timeout
//!   costs it 1 point per hill not yet razed, at once, and its ants stay on the map, holding.
//! * **Beta scoring** ([`Scoring::Beta`], the rules of the seed's era, from the engine before
//!   commit 06ee62c6): 1 point per ant spawned, 2 points per ant killed in battle shared
//!   equally among the enemies in range of it, 1 point per ant lost in a collision shared among
//!   the enemies in range; no hill points and no rank-stabilised end; scores are exact
//!   fractions, reported rounded down; a player dead at the start of a turn scores nothing.
//!   ply keeps the hill-era spawning (the beta spawned ants where food was gathered).
//!
//! # The protocol ([`AntsMatch`], `worker/engine.py`)
//!
//! Each seat gets the setup block (`turn 0`, `loadtime`, ..., `player_seed`, `ready`) and
//! answers `go`; then each turn `turn N`, newly seen water (`w`), visible hills (`h`), ants
//! (`a`), food (`f`) and dead ants (`d`, its own dead always), each group sorted, owners
//! renumbered for the seat (itself 0, the others in the order it first saw them), then `go`.
//! Orders are `o ROW COL N|E|S|W`, case-insensitive, then `go`. Invalid lines ("unknown
//! action", "incorrectly formatted order", "invalid row or col", "invalid direction",
//! "duplicate order", "not player ant", "out of bounds") and ignored ones ("move blocked" by
//! water or food) are reported as [`InvalidOrder`] and [`IgnoredOrder`]. At the end, or when
//! eliminated, a seat gets `end`, `players`, `score`, `status`, `playerturns` (with `None` for
//! players it never saw) and the last state.
//!
//! # Layout
//!
//! Ants is not a [`ply_core::Game`] (no side to move, hidden information), so its folder
//! differs from tic-tac-toe's: [`map`](AntsMap) (the file format), [`geometry`] (the torus
//! and precomputed neighbourhoods), `game` ([`AntsGame`]: state and turn phases, the
//! original `Ants` class), `orders` (parsing and validation classes), `view` (what each bot
//! is told), `food` (spawning modes and map symmetry), `session` ([`AntsMatch`], the
//! original `engine.py` loop, which implements [`ply_core::SimultaneousGame`]), [`replay`]
//! (the revision-3 JSON model, one set of `serde` types for writing and reading), [`playback`] (reading such replays back, turn by turn, whole or as
//! one player saw it), [`mapgen`] (symmetric maze maps) and [`bot`] (in-process built-in
//! bots that read the same text as external ones). Processes, time limits and
//! `SIGSTOP`/`SIGCONT` belong to the referee, which drives an [`AntsMatch`] the same way.
//!
//! # Performance
//!
//! Vision is kept incrementally per player as the original does (a count per square,
//! updated by the squares an ant's step gains and loses), newly seen water comes from the
//! squares whose count left zero instead of a scan of the map, the sorted state lines are
//! built once per turn and filtered per player, and duplicate orders are found with a stamp
//! per square. A 1000-turn 4-player game on a 60x90 maze runs in a few hundred
//! milliseconds, bots excluded (docs/benchmarks.md).
//!
//! # Randomness (the same game as the original for the same seed)
//!
//! The original draws every random choice from CPython's global `random`, seeded once
//! with the engine seed; ply draws from [`pyrandom::PyRandom`], the same Mersenne Twister
//! seeded the same way (`init_by_array` over the 32-bit words of `abs(seed)`), with
//! CPython 3.11's `_randbelow`, `random()`, `choice` and `shuffle`. The draws, in the
//! original's order:
//!
//! 1. `AntsGame::new` (the constructor): `randrange(lo, hi + 1)` for `food_rate`,
//!    `food_turn`, `food_start`, `food_visible`, in that order;
//! 2. the start (`start_game`, only with food on): `choice` of the map symmetry (the list
//!    of orientation sets built as `get_map_symmetry` does), then `shuffle` of the visible
//!    food sets, then the mode's starting food;
//! 3. every turn of the engine loop, turn 0 included: `shuffle` of the list of live bots
//!    (`worker/engine.py`; the order is irrelevant to ply, the draws are not);
//! 4. in `finish_turn`: one `random()` per unrazed hill of every player for spawn ties
//!    (drawn even for a single hill, as `sorted(key=...)` calls the key for every item), then
//!    the food of the turn: `random` draws `randrange(rows)`, `randrange(cols)` until land;
//!    `sections` draws `choice` over each player's access squares; `symmetric` reshuffles
//!    its sets after each full rotation.
//!
//! Where the original takes an order from a Python container, ply reproduces it: each
//! symmetric food set is listed in CPython's set order ([`pyrandom::set_order`], which
//! decides the "too close" check and the order food is added), and pending food is kept in
//! the dict's insertion order. The shared `cases-random` games (food `random`, `sections`,
//! `symmetric`, engine seed 1) are identical to the original's byte for byte, in process
//! and live. Built-in bots and `ply ants mapgen` keep their own ChaCha8 streams: they are
//! not part of the original.

pub mod bot;
mod food;
mod game;
pub mod geometry;
mod map;
pub mod mapgen;
mod orders;
pub mod playback;
pub mod pyrandom;
pub mod replay;
mod session;
mod view;

#[cfg(test)]
mod tests;

pub use food::NewGameError;
pub use game::{Ant, AntsGame, Cutoff, Food, HILL_POINTS, Hill, RAZE_POINTS};
pub use geometry::{Dir, Torus};
pub use map::{AntsMap, Loc, ParseMapError};
pub use orders::{IgnoredOrder, InvalidOrder, OrderReport};
pub use playback::{Frame, ParseReplayError, Playback, PlayerView};
pub use replay::{ReplayData, StoredGame};
pub use session::{Answer, AntsMatch, BotStatus, MatchResult, status_of};

/// How food appears.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FoodMode {
    /// No food beyond the map's (scenario mode).
    None,
    /// Anywhere on free land.
    Random,
    /// In each player's starting section (squares it reaches first).
    Sections,
    /// At the same oriented offset from every player's start (the original's default).
    Symmetric,
}

/// Which scoring rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The final rules: hills (+2 razing, -1 razed).
    Hills,
    /// The beta rules of the seed's era: 1 per spawned ant, 2 per kill shared.
    Beta,
}

/// A game's parameters, with the original's defaults.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Turn limit.
    pub turns: u32,
    /// Time for the setup answer, in milliseconds (told to bots; enforced by the referee).
    pub loadtime: u32,
    /// Time per turn, in milliseconds.
    pub turntime: u32,
    /// Squared view radius.
    pub viewradius2: usize,
    /// Squared attack radius.
    pub attackradius2: usize,
    /// Squared gathering radius.
    pub spawnradius2: usize,
    /// Seed of the engine's random choices.
    pub engine_seed: i64,
    /// Seed told to the bots.
    pub player_seed: i64,
    /// Food spawning.
    pub food: FoodMode,
    /// Follow the map's ants and food exactly.
    pub scenario: bool,
    /// Turns the 85% majority must last to end the game.
    pub cutoff_turn: u32,
    /// The majority share, 0.85.
    pub cutoff_percent: f64,
    /// Range of the food rate numerator (per player).
    pub food_rate: (u32, u32),
    /// Range of the food rate denominator (turns).
    pub food_turn: (u32, u32),
    /// Range of land area per starting food.
    pub food_start: (u32, u32),
    /// Range of starting food per player in view of its hills.
    pub food_visible: (u32, u32),
    /// Scoring rules.
    pub scoring: Scoring,
    /// Strict mode: an invalid order eliminates the bot (status `invalid`).
    pub strict: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            turns: 1000,
            loadtime: 3000,
            turntime: 1000,
            viewradius2: 77,
            attackradius2: 5,
            spawnradius2: 1,
            engine_seed: 0,
            player_seed: 0,
            food: FoodMode::Symmetric,
            scenario: false,
            cutoff_turn: 150,
            cutoff_percent: 0.85,
            food_rate: (5, 11),
            food_turn: (19, 37),
            food_start: (75, 175),
            food_visible: (3, 5),
            scoring: Scoring::Hills,
            strict: false,
        }
    }
}
