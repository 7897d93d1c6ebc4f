//! Playing back replays in the original's JSON format (revision 3), turn by turn.
//!
//! [`Playback::parse`] reads what the original engine and its visualizer read: a bare
//! `replaydata` object, or the whole stored game (`challenge`, `replayformat`, `replaydata`,
//! `status`, `score`, `playernames`, `game_id`, ...) into the one replay model of
//! [`crate::replay`] (unknown keys kept there, ignored here as the visualizer does). It checks the data once (every square on the map, every owner a
//! player, every order string as long as its ant lived) and then rebuilds any turn as a
//! [`Frame`]: the live ants with their squares and owners, the food on the map, the unrazed
//! hills, the ants that died that turn, the scores and hive food.
//!
//! # What a turn means
//!
//! Turn `T` is the state after the engine's turn `T` (turn 0: the start), which is what the
//! bots are told at the start of turn `T + 1`, and what the visualizer's `counts` list uses:
//!
//! * an ant `[row, col, spawn, die, owner, orders]` is on the map for `spawn <= T < die`;
//!   `orders[k]` (`n`, `e`, `s`, `w` or `-`) is its move on turn `spawn + 1 + k`, so an ant
//!   that died has `die - spawn` letters and one alive at the end `die - spawn - 1` (the
//!   visualizer accepts exactly these two lengths); it died on the square its last letter
//!   took it to;
//! * food `[row, col, start, end, owner?]` lies on the map for `start <= T < end`;
//! * a hill `[row, col, owner, end]` stands for `T < end` (razed on turn `end`; hills left
//!   at the end have `end` one past the last turn);
//! * `scores[p][T]` and `hive_history[p][T]` are the values after turn `T`; a dead player's
//!   list stops early, and its last value holds (the visualizer's rule). The lone survivor's
//!   `bonus` is added only to the final score.
//!
//! The last turn is the largest one any of these lists reaches, as the visualizer's
//! `duration`.
//!
//! # A player's view (the seed's "green filter")
//!
//! [`PlayerView`] is what one player saw at a turn: the squares within `viewradius2` of its
//! live ants (squared Euclidean distance on the torus, `<=`, water does not block sight, as
//! in the engine), and the squares it saw on some earlier turn (the bot was told their
//! water once and may remember it). This is the original visualizer's fog option
//! (`getFog`), which covers every square out of view at that turn, plus the memory.
//!
//! Pure functions only: the cli draws the frames.

use serde_json::Value;

use super::geometry::{Dir, Torus};
use super::map::Loc;
use super::replay::{ReplayData, StoredGame, Whole};

/// Why a replay could not be played back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseReplayError {
    /// Not JSON at all.
    #[error("line {line}, column {column}: not JSON: {message}")]
    Json {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        column: usize,
        /// What the JSON reader said.
        message: String,
    },
    /// JSON, but not an Ants replay the original visualizer would play.
    #[error("{path}: {message}")]
    Field {
        /// Where in the document, e.g. `replaydata.ants[3][5]`.
        path: String,
        /// What is wrong and how to fix it.
        message: String,
    },
}

fn field(path: impl Into<String>, message: impl Into<String>) -> ParseReplayError {
    ParseReplayError::Field {
        path: path.into(),
        message: message.into(),
    }
}

/// One ant of the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayAnt {
    /// Where it appeared.
    pub start: Loc,
    /// The turn it appeared (0: on the map at the start).
    pub spawn_turn: u32,
    /// The turn it died, or one past the last turn if it lived to the end.
    pub die_turn: u32,
    /// Its player.
    pub owner: u8,
    /// Its move on each turn it lived after the first: `None` for `-` (held).
    pub orders: Vec<Option<Dir>>,
}

/// One food item of the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayFood {
    /// Its square.
    pub loc: Loc,
    /// The turn it appeared.
    pub start_turn: u32,
    /// The turn it was gathered or destroyed (one past the last turn if still there).
    pub end_turn: u32,
    /// Who gathered it (none: destroyed, or never gathered).
    pub owner: Option<u8>,
}

/// One hill of the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayHill {
    /// Its square.
    pub loc: Loc,
    /// Its player.
    pub owner: u8,
    /// The turn it was razed (one past the last turn if it stood to the end).
    pub end_turn: u32,
}

/// A live ant in a [`Frame`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct FrameAnt {
    /// Its square.
    pub loc: Loc,
    /// Its player.
    pub owner: u8,
    /// Its index in [`Playback::ants`].
    pub id: usize,
}

/// The state after one turn, rebuilt from a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The turn (0: the start).
    pub turn: u32,
    /// Live ants, sorted by square.
    pub ants: Vec<FrameAnt>,
    /// Ants that died this turn, where they died, sorted.
    pub dead: Vec<(Loc, u8)>,
    /// Food on the map, sorted.
    pub food: Vec<Loc>,
    /// Unrazed hills `(square, owner)`, sorted.
    pub hills: Vec<(Loc, u8)>,
    /// Each player's score after this turn (without the final bonus).
    pub scores: Vec<i64>,
    /// Each player's hive food after this turn.
    pub hive: Vec<i64>,
}

impl Frame {
    /// Live ants per player.
    pub fn ant_counts(&self, players: usize) -> Vec<usize> {
        let mut n = vec![0; players];
        for a in &self.ants {
            if let Some(c) = n.get_mut(usize::from(a.owner)) {
                *c += 1;
            }
        }
        n
    }
}

/// What occupies a square in a [`Frame`], for drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Square {
    /// Land.
    Land,
    /// Water.
    Water,
    /// Food.
    Food,
    /// A live ant.
    Ant(u8),
    /// An unrazed hill without an ant.
    Hill(u8),
    /// An ant on an unrazed hill (always its own: an enemy razes it on arrival).
    AntOnHill(u8),
    /// An ant that died on this square this turn (`!` in the original's letters).
    Dead(u8),
}

impl Square {
    /// The original map letter: `.`, `%`, `*`, `a`-`j`, `0`-`9`, `A`-`J`, `!`.
    pub fn letter(self) -> char {
        let l = |base: u8, o: u8| char::from(base + o.min(25));
        match self {
            Square::Land => '.',
            Square::Water => '%',
            Square::Food => '*',
            Square::Ant(o) => l(b'a', o),
            Square::Hill(o) => char::from_digit(u32::from(o), 36).unwrap_or('?'),
            Square::AntOnHill(o) => l(b'A', o),
            Square::Dead(_) => '!',
        }
    }
}

/// A replay ready to be played back.
#[derive(Clone, Debug, PartialEq)]
pub struct Playback {
    torus: Torus,
    players: usize,
    viewradius2: usize,
    water: Vec<bool>,
    ants: Vec<ReplayAnt>,
    food: Vec<ReplayFood>,
    hills: Vec<ReplayHill>,
    scores: Vec<Vec<i64>>,
    hive: Vec<Vec<i64>>,
    bonus: Vec<i64>,
    last_turn: u32,
    cutoff: Option<String>,
    names: Vec<String>,
    status: Option<Vec<String>>,
    final_score: Option<Vec<i64>>,
    seeds: (Option<i64>, Option<i64>),
}

/// Whether a JSON document looks like an Ants replay (rather than a ply board-game replay,
/// which has `format` and `game` instead): the stored format's `replaydata`,
/// `replayformat` or `challenge`, or a bare `replaydata` object (`revision`, or `ants` with
/// `map`).
pub fn is_ants_replay(doc: &Value) -> bool {
    ["replaydata", "replayformat", "challenge", "revision"]
        .iter()
        .any(|k| doc.get(k).is_some())
        || (doc.get("ants").is_some() && doc.get("map").is_some())
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Turns `serde`'s answer into a [`ParseReplayError::Field`]: a missing field is reported
/// at its own path (`replaydata.players`), as the hand-written reader did.
fn serde_error((path, message): (String, String)) -> ParseReplayError {
    if let Some(rest) = message.strip_prefix("missing field `")
        && let Some(name) = rest.strip_suffix('`')
    {
        let at = if path == "." || path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        };
        return field(at, "is missing (is this an Ants replay?)");
    }
    let path = if path == "." || path.is_empty() {
        "the replay".to_string()
    } else {
        path
    };
    field(path, message)
}

impl Playback {
    /// Reads a replay file's text (JSON).
    ///
    /// # Errors
    /// [`ParseReplayError::Json`] with line and column when the text is not JSON,
    /// [`ParseReplayError::Field`] naming the field when it is not an Ants replay.
    pub fn parse(text: &str) -> Result<Playback, ParseReplayError> {
        let doc: Value = serde_json::from_str(text).map_err(|e| ParseReplayError::Json {
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        Playback::from_json(&doc)
    }

    /// Reads a parsed replay document: the stored format or a bare `replaydata` object.
    ///
    /// # Errors
    /// [`ParseReplayError::Field`] naming the first field that is missing or wrong.
    pub fn from_json(doc: &Value) -> Result<Playback, ParseReplayError> {
        if !doc.is_object() {
            return Err(field(
                "the replay",
                format!("expected an object, found {}", kind(doc)),
            ));
        }
        if let Some(c) = doc.get("challenge").and_then(Value::as_str)
            && c != "ants"
        {
            return Err(field("challenge", format!("is {c:?}, not \"ants\"")));
        }
        if let Some(f) = doc.get("replayformat").and_then(Value::as_str)
            && f != "json"
        {
            return Err(field(
                "replayformat",
                format!("is {f:?}; only \"json\" replays (revision 3) can be played back"),
            ));
        }
        let (data, stored, prefix) = if doc.get("replaydata").is_some() {
            let g = StoredGame::from_json(doc).map_err(serde_error)?;
            let data = g.replaydata.clone();
            (data, Some(g), "replaydata.")
        } else {
            (ReplayData::from_json(doc).map_err(serde_error)?, None, "")
        };
        Playback::from_model(&data, stored.as_ref(), prefix)
    }

    /// Checks a replay model once and builds the playback: every square on the map, every
    /// owner a player, every order string as long as its ant lived. `prefix` is put before
    /// the paths in errors (`replaydata.` when `data` came from a stored game).
    ///
    /// # Errors
    /// [`ParseReplayError::Field`] naming the first wrong field.
    pub fn from_model(
        data: &ReplayData,
        stored: Option<&StoredGame>,
        prefix: &str,
    ) -> Result<Playback, ParseReplayError> {
        let p = |k: &str| format!("{prefix}{k}");
        if data.revision != 3 {
            return Err(field(
                p("revision"),
                format!(
                    "is {}; only revision 3 (the final engine's) is supported",
                    data.revision
                ),
            ));
        }
        let players = data.players;
        if !(1..=26).contains(&players) {
            return Err(field(
                p("players"),
                format!("is {players}, expected 1 to 26"),
            ));
        }
        let viewradius2 = data.viewradius2;
        let rows = &data.map.data;
        let nrows = rows.len();
        let ncols = rows.first().map_or(0, |r| r.chars().count());
        if nrows == 0 || ncols == 0 {
            return Err(field(p("map.data"), "is empty"));
        }
        for (k, got, want) in [
            ("rows", data.map.rows, nrows),
            ("cols", data.map.cols, ncols),
        ] {
            if let Some(got) = got
                && got != want
            {
                return Err(field(
                    p(&format!("map.{k}")),
                    format!("is {got} but map.data has {want}"),
                ));
            }
        }
        let torus = Torus {
            rows: nrows,
            cols: ncols,
        };
        let mut water = vec![false; torus.area()];
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != ncols {
                return Err(field(
                    p(&format!("map.data[{r}]")),
                    format!("has {} squares, row 0 has {ncols}", row.chars().count()),
                ));
            }
            for (c, ch) in row.chars().enumerate() {
                if !(ch.is_ascii_alphanumeric() || "%*.!?".contains(ch)) {
                    return Err(field(
                        p(&format!("map.data[{r}]")),
                        format!("column {c}: {ch:?} is no map letter (. % * a-j A-J 0-9)"),
                    ));
                }
                water[torus.index((r, c))] = ch == '%';
            }
        }
        let loc = |r: usize, c: usize, path: &str| -> Result<Loc, ParseReplayError> {
            if r >= nrows || c >= ncols {
                return Err(field(
                    path,
                    format!("square ({r}, {c}) is off the {nrows}x{ncols} map"),
                ));
            }
            Ok((r, c))
        };
        let owner = |o: usize, path: String| -> Result<u8, ParseReplayError> {
            if o >= players {
                return Err(field(
                    path,
                    format!("player {o}, but the game has {players}"),
                ));
            }
            Ok(o as u8)
        };
        let mut last_turn: u32 = 0;

        let mut hills = Vec::with_capacity(data.hills.len());
        for (k, h) in data.hills.iter().enumerate() {
            let path = p(&format!("hills[{k}]"));
            last_turn = last_turn.max(h.3.saturating_sub(1));
            hills.push(ReplayHill {
                loc: loc(h.0, h.1, &path)?,
                owner: owner(h.2, format!("{path}[2]"))?,
                end_turn: h.3,
            });
        }
        let mut ants = Vec::with_capacity(data.ants.len());
        for (k, a) in data.ants.iter().enumerate() {
            let path = p(&format!("ants[{k}]"));
            let start = loc(a.0, a.1, &path)?;
            let (spawn_turn, die_turn) = (a.2, a.3);
            if die_turn <= spawn_turn {
                return Err(field(
                    &path,
                    format!("dies on turn {die_turn}, not after its spawn turn {spawn_turn}"),
                ));
            }
            let own = owner(a.4, format!("{path}[4]"))?;
            let text = &a.5;
            let lifespan = (die_turn - spawn_turn) as usize;
            if text.len() != lifespan && text.len() + 1 != lifespan {
                return Err(field(
                    format!("{path}[5]"),
                    format!(
                        "has {} orders; an ant living from turn {spawn_turn} to {die_turn} \
                         needs {lifespan} (died) or {} (alive at the end)",
                        text.len(),
                        lifespan - 1
                    ),
                ));
            }
            let mut orders = Vec::with_capacity(text.len());
            for (i, ch) in text.chars().enumerate() {
                orders.push(match ch.to_ascii_lowercase() {
                    '-' => None,
                    c => Some(Dir::from_letter(c.encode_utf8(&mut [0; 4])).ok_or_else(|| {
                        field(
                            format!("{path}[5]"),
                            format!("order {i} is {ch:?}; orders are n, e, s, w or -"),
                        )
                    })?),
                });
            }
            last_turn = last_turn.max(die_turn - 1);
            ants.push(ReplayAnt {
                start,
                spawn_turn,
                die_turn,
                owner: own,
                orders,
            });
        }
        let mut food = Vec::with_capacity(data.food.len());
        for (k, f) in data.food.iter().enumerate() {
            let path = p(&format!("food[{k}]"));
            let end_turn = f.end.unwrap_or(u32::MAX);
            if end_turn <= f.start {
                return Err(field(
                    &path,
                    format!(
                        "ends on turn {end_turn}, not after its start turn {}",
                        f.start
                    ),
                ));
            }
            if end_turn != u32::MAX {
                last_turn = last_turn.max(end_turn - 1);
            }
            food.push(ReplayFood {
                loc: loc(f.row, f.col, &path)?,
                start_turn: f.start,
                end_turn,
                owner: f
                    .owner
                    .map(|o| owner(o, format!("{path}[4]")))
                    .transpose()?,
            });
        }
        let histories = |lists: &[Vec<Whole>], name: &str| {
            let path = p(name);
            if lists.len() != players {
                return Err(field(
                    &path,
                    format!("has {} lists, one per player needs {players}", lists.len()),
                ));
            }
            lists
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    if l.is_empty() {
                        return Err(field(
                            format!("{path}[{i}]"),
                            "is empty: it needs at least the turn-0 value",
                        ));
                    }
                    Ok(l.iter().map(|w| w.0).collect::<Vec<i64>>())
                })
                .collect::<Result<Vec<_>, _>>()
        };
        let scores = histories(&data.scores, "scores")?;
        let hive = match &data.hive_history {
            Some(h) => histories(h, "hive_history")?,
            None => vec![vec![0]; players],
        };
        for l in scores.iter().chain(&hive) {
            last_turn = last_turn.max(l.len() as u32 - 1);
        }
        let bonus = match &data.bonus {
            None => vec![0; players],
            Some(b) if b.len() != players => {
                return Err(field(p("bonus"), format!("needs {players} values")));
            }
            Some(b) => b.iter().map(|w| w.0).collect(),
        };
        let mut names: Vec<String> = stored
            .and_then(|g| g.playernames.as_ref())
            .map(|a| {
                a.iter()
                    .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        names.resize_with(players.max(names.len()), String::new);
        for (i, n) in names.iter_mut().enumerate() {
            if n.is_empty() {
                *n = format!("player {}", i + 1);
            }
        }
        names.truncate(players);
        Ok(Playback {
            torus,
            players,
            viewradius2,
            water,
            ants,
            food,
            hills,
            scores,
            hive,
            bonus,
            last_turn,
            cutoff: data.cutoff.clone(),
            names,
            status: stored.and_then(|g| g.status.clone()),
            final_score: stored
                .and_then(|g| g.score.as_ref())
                .map(|s| s.iter().map(|w| w.0).collect()),
            seeds: (data.engine_seed, data.player_seed),
        })
    }

    /// The engine and player seeds the replay records (either may be absent in replays
    /// from elsewhere). With the map they give the game again: the engine seed also drew
    /// the food regime.
    pub fn seeds(&self) -> (Option<i64>, Option<i64>) {
        self.seeds
    }

    /// The moves `player`'s ants made on `turn` (1 or later), as the square each ant stood
    /// on before it moved and the direction, sorted by square. Ants that held have none.
    pub fn orders_on(&self, turn: u32, player: u8) -> Vec<(Loc, Dir)> {
        if turn == 0 {
            return Vec::new();
        }
        let mut v: Vec<(Loc, Dir)> = self
            .frame(turn - 1)
            .ants
            .iter()
            .filter(|a| a.owner == player)
            .filter_map(|a| {
                let ant = &self.ants[a.id];
                let k = (turn - 1 - ant.spawn_turn) as usize;
                ant.orders.get(k).copied().flatten().map(|d| (a.loc, d))
            })
            .collect();
        v.sort_unstable();
        v
    }

    /// The map's size.
    pub fn torus(&self) -> Torus {
        self.torus
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }

    /// The squared view radius.
    pub fn viewradius2(&self) -> usize {
        self.viewradius2
    }

    /// The last turn (the game's length).
    pub fn last_turn(&self) -> u32 {
        self.last_turn
    }

    /// Whether a square is water.
    pub fn is_water(&self, loc: Loc) -> bool {
        self.water[self.torus.index(loc)]
    }

    /// Every ant, in the replay's order.
    pub fn ants(&self) -> &[ReplayAnt] {
        &self.ants
    }

    /// Every food item, in the replay's order.
    pub fn food(&self) -> &[ReplayFood] {
        &self.food
    }

    /// Every hill, in the replay's order.
    pub fn hills(&self) -> &[ReplayHill] {
        &self.hills
    }

    /// Why the game ended, as the replay says (`turn limit reached`, ...).
    pub fn cutoff(&self) -> Option<&str> {
        self.cutoff.as_deref()
    }

    /// Player names (`player N` where the replay has none).
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The stored format's `status` per player, if present.
    pub fn status(&self) -> Option<&[String]> {
        self.status.as_deref()
    }

    /// The final scores: the stored format's `score` if present, else the last score of
    /// each history plus the lone survivor's bonus.
    pub fn final_scores(&self) -> Vec<i64> {
        match &self.final_score {
            Some(s) => s.clone(),
            None => (0..self.players)
                .map(|p| self.history_at(&self.scores[p], self.last_turn) + self.bonus[p])
                .collect(),
        }
    }

    /// The lone survivor's bonus per player (zeros if none).
    pub fn bonus(&self) -> &[i64] {
        &self.bonus
    }

    fn history_at(&self, h: &[i64], turn: u32) -> i64 {
        h[(turn as usize).min(h.len() - 1)]
    }

    /// The state after `turn` (clamped to the last turn). Replays the ants' orders from
    /// their spawn; to walk a whole game use [`Playback::frames`], which steps.
    pub fn frame(&self, turn: u32) -> Frame {
        let turn = turn.min(self.last_turn);
        let t = self.torus;
        let mut ants = Vec::new();
        let mut dead = Vec::new();
        for (id, a) in self.ants.iter().enumerate() {
            if a.spawn_turn > turn || a.die_turn < turn {
                continue;
            }
            let steps = (turn - a.spawn_turn) as usize;
            let loc = a.orders.iter().take(steps).fold(a.start, |l, d| match d {
                Some(d) => t.step(l, *d),
                None => l,
            });
            if a.die_turn == turn {
                dead.push((loc, a.owner));
            } else {
                ants.push(FrameAnt {
                    loc,
                    owner: a.owner,
                    id,
                });
            }
        }
        self.finish_frame(turn, ants, dead)
    }

    fn finish_frame(&self, turn: u32, mut ants: Vec<FrameAnt>, mut dead: Vec<(Loc, u8)>) -> Frame {
        ants.sort_unstable();
        dead.sort_unstable();
        let mut food: Vec<Loc> = self
            .food
            .iter()
            .filter(|f| f.start_turn <= turn && turn < f.end_turn)
            .map(|f| f.loc)
            .collect();
        food.sort_unstable();
        let mut hills: Vec<(Loc, u8)> = self
            .hills
            .iter()
            .filter(|h| turn < h.end_turn)
            .map(|h| (h.loc, h.owner))
            .collect();
        hills.sort_unstable();
        Frame {
            turn,
            ants,
            dead,
            food,
            hills,
            scores: self
                .scores
                .iter()
                .map(|h| self.history_at(h, turn))
                .collect(),
            hive: self.hive.iter().map(|h| self.history_at(h, turn)).collect(),
        }
    }

    /// Every turn from 0 to the last, each computed from the previous one.
    pub fn frames(&self) -> Frames<'_> {
        Frames {
            pb: self,
            turn: 0,
            loc: self.ants.iter().map(|a| a.start).collect(),
        }
    }

    /// What occupies every square in `frame`, row-major.
    pub fn squares(&self, frame: &Frame) -> Vec<Square> {
        let t = self.torus;
        let mut sq: Vec<Square> = self
            .water
            .iter()
            .map(|&w| if w { Square::Water } else { Square::Land })
            .collect();
        for &l in &frame.food {
            sq[t.index(l)] = Square::Food;
        }
        for &(l, o) in &frame.dead {
            sq[t.index(l)] = Square::Dead(o);
        }
        for &(l, o) in &frame.hills {
            sq[t.index(l)] = Square::Hill(o);
        }
        for a in &frame.ants {
            let i = t.index(a.loc);
            sq[i] = match sq[i] {
                Square::Hill(_) => Square::AntOnHill(a.owner),
                _ => Square::Ant(a.owner),
            };
        }
        sq
    }
}

/// The frames of a [`Playback`], turn by turn (see [`Playback::frames`]).
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    pb: &'a Playback,
    turn: u32,
    /// Every ant's square at the previous frame (its start before it spawns).
    loc: Vec<Loc>,
}

impl Iterator for Frames<'_> {
    type Item = Frame;

    fn next(&mut self) -> Option<Frame> {
        let turn = self.turn;
        if turn > self.pb.last_turn {
            return None;
        }
        self.turn += 1;
        let t = self.pb.torus;
        let mut ants = Vec::new();
        let mut dead = Vec::new();
        for (id, a) in self.pb.ants.iter().enumerate() {
            if a.spawn_turn > turn || a.die_turn < turn {
                continue;
            }
            if turn > a.spawn_turn
                && let Some(Some(d)) = a.orders.get((turn - a.spawn_turn - 1) as usize)
            {
                self.loc[id] = t.step(self.loc[id], *d);
            }
            let loc = self.loc[id];
            if a.die_turn == turn {
                dead.push((loc, a.owner));
            } else {
                ants.push(FrameAnt {
                    loc,
                    owner: a.owner,
                    id,
                });
            }
        }
        Some(self.pb.finish_frame(turn, ants, dead))
    }
}

/// The squares within `radius2` of any of `ants` on the torus (squared Euclidean distance
/// with wrap, `<=`, the ants' own squares included), row-major.
pub fn visible_squares(
    torus: Torus,
    radius2: usize,
    ants: impl IntoIterator<Item = Loc>,
) -> Vec<bool> {
    let mut offsets = torus.neighbourhood(radius2);
    offsets.push((0, 0));
    offsets.sort_unstable();
    offsets.dedup();
    let mut v = vec![false; torus.area()];
    for a in ants {
        for &o in &offsets {
            v[torus.index(torus.add(a, o))] = true;
        }
    }
    v
}

/// How one player saw the map at one turn: the green filter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerView {
    /// The player.
    pub player: u8,
    /// The turn.
    pub turn: u32,
    /// Squares in view of its live ants now, row-major.
    pub visible: Vec<bool>,
    /// Squares it has had in view on this or any earlier turn.
    pub seen: Vec<bool>,
}

/// What a player knows of a square at one turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sight {
    /// In view now.
    Visible,
    /// Out of view, seen before: the player knows whether it is water.
    Remembered,
    /// Never seen.
    Unknown,
}

impl PlayerView {
    /// The view of `player` at `frame`, given its view of the previous turn (`None` at the
    /// first turn shown: memory then starts from this turn's sight).
    pub fn new(
        pb: &Playback,
        frame: &Frame,
        player: u8,
        previous: Option<&PlayerView>,
    ) -> PlayerView {
        let visible = visible_squares(
            pb.torus,
            pb.viewradius2,
            frame
                .ants
                .iter()
                .filter(|a| a.owner == player)
                .map(|a| a.loc),
        );
        let seen = match previous {
            Some(p) => p.seen.iter().zip(&visible).map(|(&s, &v)| s || v).collect(),
            None => visible.clone(),
        };
        PlayerView {
            player,
            turn: frame.turn,
            visible,
            seen,
        }
    }

    /// The view of `player` at `turn`, with its memory of every turn before.
    pub fn at(pb: &Playback, player: u8, turn: u32) -> PlayerView {
        let mut view: Option<PlayerView> = None;
        for f in pb.frames().take(turn.min(pb.last_turn) as usize + 1) {
            view = Some(PlayerView::new(pb, &f, player, view.as_ref()));
        }
        view.unwrap_or_else(|| PlayerView::new(pb, &pb.frame(0), player, None))
    }

    /// What the player knows of the square at flat index `i`.
    pub fn sight(&self, i: usize) -> Sight {
        if self.visible[i] {
            Sight::Visible
        } else if self.seen[i] {
            Sight::Remembered
        } else {
            Sight::Unknown
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 5x12 game: player 0's ant walks east from (2, 1) for three turns, player 1's
    /// holds at (2, 9); view radius² 2.
    fn walk() -> Playback {
        Playback::parse(
            r#"{"revision": 3, "players": 2, "viewradius2": 2,
                "map": {"rows": 5, "cols": 12, "data": ["............", "............",
                        ".a.......b..", "............", "......%....."]},
                "ants": [[2, 1, 0, 4, 0, "eee"], [2, 9, 0, 4, 1, "---"]],
                "food": [[0, 5, 0, 2]], "hills": [],
                "scores": [[0, 0, 0, 0], [0, 0, 0, 0]]}"#,
        )
        .unwrap()
    }

    #[test]
    fn visible_squares_are_those_within_the_radius_on_the_torus() {
        let t = Torus { rows: 7, cols: 9 };
        let v = visible_squares(t, 5, [(0, 0)]);
        let mut got: Vec<Loc> = (0..t.area()).filter(|&i| v[i]).map(|i| t.loc(i)).collect();
        got.sort_unstable();
        // d_row² + d_col² <= 5: the 5x5 square around (0, 0) without its four corners,
        // wrapped onto rows 5, 6 and columns 7, 8
        let mut want = Vec::new();
        for dr in -2i32..=2 {
            for dc in -2i32..=2 {
                if dr * dr + dc * dc <= 5 {
                    want.push((dr.rem_euclid(7) as usize, dc.rem_euclid(9) as usize));
                }
            }
        }
        want.sort_unstable();
        assert_eq!(want.len(), 21);
        assert_eq!(got, want);
        assert!(v[t.index((1, 2))] && v[t.index((6, 7))]); // distance² 5
        assert!(!v[t.index((2, 2))] && !v[t.index((5, 7))]); // distance² 8
        assert!(!v[t.index((0, 3))] && !v[t.index((3, 0))]); // distance² 9
    }

    #[test]
    fn a_player_sees_near_its_ants_and_remembers_what_it_saw() {
        let pb = walk();
        assert_eq!(pb.last_turn(), 3);
        let view = PlayerView::at(&pb, 0, 3);
        let t = pb.torus();
        let visible: Vec<Loc> = (0..t.area())
            .filter(|&i| view.visible[i])
            .map(|i| t.loc(i))
            .collect();
        // the ant is at (2, 4): radius² 2 is the 3x3 block around it
        assert_eq!(
            visible,
            [
                (1, 3),
                (1, 4),
                (1, 5),
                (2, 3),
                (2, 4),
                (2, 5),
                (3, 3),
                (3, 4),
                (3, 5)
            ]
        );
        // columns 0..=2 were in view on turns 0 and 1
        assert_eq!(view.sight(t.index((2, 0))), Sight::Remembered);
        assert_eq!(view.sight(t.index((3, 2))), Sight::Remembered);
        assert_eq!(view.sight(t.index((2, 9))), Sight::Unknown);
        assert_eq!(view.sight(t.index((0, 4))), Sight::Unknown);
        // player 1 never moved: it sees only around (2, 9)
        let view = PlayerView::at(&pb, 1, 3);
        assert_eq!(view.visible.iter().filter(|&&v| v).count(), 9);
        assert_eq!(view.seen, view.visible);
    }

    #[test]
    fn frames_follow_the_orders_and_lifetimes() {
        let pb = walk();
        let f: Vec<Frame> = pb.frames().collect();
        assert_eq!(f.len(), 4);
        let locs = |fr: &Frame| fr.ants.iter().map(|a| (a.loc, a.owner)).collect::<Vec<_>>();
        assert_eq!(locs(&f[0]), [((2, 1), 0), ((2, 9), 1)]);
        assert_eq!(locs(&f[3]), [((2, 4), 0), ((2, 9), 1)]);
        assert_eq!(f[1].food, [(0, 5)]);
        assert!(f[2].food.is_empty());
        let sq = pb.squares(&f[3]);
        let row: String = (0..12)
            .map(|c| sq[pb.torus().index((2, c))].letter())
            .collect();
        assert_eq!(row, "....a....b..");
        assert_eq!(sq[pb.torus().index((4, 6))], Square::Water);
    }

    #[test]
    fn bad_replays_name_the_field() {
        let base = r#"{"revision": 3, "players": 2, "map": {"data": ["....", "...."]},
            "ants": [ANT], "food": [], "hills": [], "scores": [[0], [0]]}"#;
        let err = |ant: &str| {
            Playback::parse(&base.replace("ANT", ant))
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(r#"[0, 0, 0, 3, 0, "n"]"#),
            "replaydata.ants[0][5]: has 1 orders; an ant living from turn 0 to 3 needs 3 \
             (died) or 2 (alive at the end)"
                .replace("replaydata.", "")
        );
        assert_eq!(
            err(r#"[0, 0, 0, 2, 0, "nx"]"#),
            "ants[0][5]: order 1 is 'x'; orders are n, e, s, w or -"
        );
        assert_eq!(
            err(r#"[5, 0, 0, 2, 0, "n"]"#),
            "ants[0]: square (5, 0) is off the 2x4 map"
        );
        assert_eq!(
            err(r#"[0, 0, 0, 2, 2, "n"]"#),
            "ants[0][4]: player 2, but the game has 2"
        );
        assert_eq!(
            Playback::parse("{\"replaydata\": {\"revision\": 3}}")
                .unwrap_err()
                .to_string(),
            "replaydata.players: is missing (is this an Ants replay?)"
        );
        assert!(matches!(
            Playback::parse("{\n  \"ants\": [,]}"),
            Err(ParseReplayError::Json { line: 2, .. })
        ));
    }
}
