//! Replays in the original's revision-3 JSON format, which its JavaScript visualizer reads:
//! one model with `serde` derives, written by [`AntsGame::replay_data`] and
//! [`AntsMatch::stored_game`], read by [`crate::Playback`].
//!
//! # Decisions
//!
//! * **Unknown fields are kept**, not rejected: stored games from the contest's servers carry
//!   keys ply does not use (`user_ids`, `submission_ids`, `user_url`, ...), and the visualizer
//!   ignores them. They land in `extra` and are written back unchanged, so reading and
//!   writing a replay loses nothing.
//! * **Errors name the JSON path** (`replaydata.ants[3][5]`): the typed fields are read with
//!   `serde_path_to_error`; `extra` is filled afterwards from the same object (a
//!   `#[serde(flatten)]` map would make serde buffer the whole object and lose the paths).
//! * **Numbers**: scores and histories accept integral floats (`3.0`), which old replays
//!   (beta scoring) contain; everything else must be a whole number.
//! * Fields the visualizer does without are optional when read (`viewradius2` defaults to
//!   77, `hive_history`, `bonus`, `cutoff`, seeds, rates); the writer always writes them all.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use super::game::AntsGame;
use super::session::{AntsMatch, MatchResult};

/// A whole number that may be written `3.0` (old replays' scores).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Whole(pub i64);

impl Serialize for Whole {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(self.0)
    }
}

impl<'de> Deserialize<'de> for Whole {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Whole, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Whole;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Whole, E> {
                Ok(Whole(v))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Whole, E> {
                i64::try_from(v)
                    .map(Whole)
                    .map_err(|_| E::custom(format!("{v} is too large")))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Whole, E> {
                if v.fract() == 0.0 && v.abs() < 1e15 {
                    Ok(Whole(v as i64))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// The map of a replay: its size and rows of letters (`%` water).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayMap {
    /// Rows (checked against `data` when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
    /// Columns (checked against `data` when present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cols: Option<usize>,
    /// One string per row.
    pub data: Vec<String>,
}

/// An ant: `[row, col, spawn turn, die turn, owner, orders]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AntRow(
    pub usize,
    pub usize,
    pub u32,
    pub u32,
    pub usize,
    pub String,
);

/// A hill: `[row, col, owner, end turn]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HillRow(pub usize, pub usize, pub usize, pub u32);

/// A food item: `[row, col, start turn, end turn?, gatherer?]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FoodRow {
    /// Its row.
    pub row: usize,
    /// Its column.
    pub col: usize,
    /// The turn it appeared.
    pub start: u32,
    /// The turn it went (absent in some hand-made replays: never).
    pub end: Option<u32>,
    /// Who gathered it.
    pub owner: Option<usize>,
}

impl Serialize for FoodRow {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n = 3 + usize::from(self.end.is_some()) + usize::from(self.owner.is_some());
        let mut seq = s.serialize_seq(Some(n))?;
        seq.serialize_element(&self.row)?;
        seq.serialize_element(&self.col)?;
        seq.serialize_element(&self.start)?;
        if let Some(e) = self.end {
            seq.serialize_element(&e)?;
            if let Some(o) = self.owner {
                seq.serialize_element(&o)?;
            }
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for FoodRow {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FoodRow, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FoodRow;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("[row, col, start, end, gatherer] (end and gatherer optional)")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<FoodRow, A::Error> {
                let need = |k: usize| de::Error::invalid_length(k, &self);
                let row = a.next_element()?.ok_or_else(|| need(0))?;
                let col = a.next_element()?.ok_or_else(|| need(1))?;
                let start = a.next_element()?.ok_or_else(|| need(2))?;
                let end = a.next_element()?;
                let owner = if end.is_some() {
                    a.next_element()?
                } else {
                    None
                };
                if a.next_element::<de::IgnoredAny>()?.is_some() {
                    return Err(de::Error::invalid_length(6, &self));
                }
                Ok(FoodRow {
                    row,
                    col,
                    start,
                    end,
                    owner,
                })
            }
        }
        d.deserialize_seq(V)
    }
}

fn default_viewradius2() -> usize {
    77
}

fn is_empty(m: &BTreeMap<String, Value>) -> bool {
    m.is_empty()
}

/// The `replaydata` object (revision 3), field for field as the original's `get_replay`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayData {
    /// Always 3.
    pub revision: u32,
    /// Number of players.
    pub players: usize,
    /// Setup time, ms.
    #[serde(default)]
    pub loadtime: Option<u64>,
    /// Turn time, ms.
    #[serde(default)]
    pub turntime: Option<u64>,
    /// Turn limit.
    #[serde(default)]
    pub turns: Option<u64>,
    /// Squared view radius.
    #[serde(default = "default_viewradius2")]
    pub viewradius2: usize,
    /// Squared attack radius.
    #[serde(default)]
    pub attackradius2: Option<u64>,
    /// Squared gathering radius.
    #[serde(default)]
    pub spawnradius2: Option<u64>,
    /// Engine seed.
    #[serde(default)]
    pub engine_seed: Option<i64>,
    /// Player seed.
    #[serde(default)]
    pub player_seed: Option<i64>,
    /// Food rate drawn for the game.
    #[serde(default)]
    pub food_rate: Option<i64>,
    /// Food turn drawn for the game.
    #[serde(default)]
    pub food_turn: Option<i64>,
    /// Food start drawn for the game.
    #[serde(default)]
    pub food_start: Option<i64>,
    /// The map.
    pub map: ReplayMap,
    /// Every food item.
    pub food: Vec<FoodRow>,
    /// Every ant.
    pub ants: Vec<AntRow>,
    /// Every hill.
    pub hills: Vec<HillRow>,
    /// Score after each turn, per player.
    pub scores: Vec<Vec<Whole>>,
    /// The lone survivor's bonus (null in some replays).
    #[serde(default)]
    pub bonus: Option<Vec<Whole>>,
    /// Hive food after each turn, per player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hive_history: Option<Vec<Vec<Whole>>>,
    /// The turn the winner took the lead for good.
    #[serde(default)]
    pub winning_turn: Option<u32>,
    /// The turn the ranking last changed.
    #[serde(default)]
    pub ranking_turn: Option<u32>,
    /// Why the game ended.
    #[serde(default)]
    pub cutoff: Option<String>,
    /// Fields ply does not know, kept as read.
    #[serde(flatten, skip_deserializing, skip_serializing_if = "is_empty")]
    pub extra: BTreeMap<String, Value>,
}

/// A stored game as the original's `playgame.py` writes it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredGame {
    /// `"ants"`.
    #[serde(default)]
    pub challenge: Option<String>,
    /// `"localhost"` for local games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    /// The game's number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_id: Option<Value>,
    /// Each player's final status (`survived`, `eliminated`, `crashed`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Vec<String>>,
    /// Turns each player played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playerturns: Option<Vec<u32>>,
    /// Final scores, bonus included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Vec<Whole>>,
    /// Final ranks (0 best, ties share).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<Vec<u32>>,
    /// `"json"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replayformat: Option<String>,
    /// The replay (old servers stored its JSON as a string: [`StoredGame::from_json`]
    /// reads that too; ply writes the object).
    pub replaydata: ReplayData,
    /// Turns played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_length: Option<u32>,
    /// The players' names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playernames: Option<Vec<Value>>,
    /// Fields ply does not know, kept as read.
    #[serde(flatten, skip_deserializing, skip_serializing_if = "is_empty")]
    pub extra: BTreeMap<String, Value>,
}

/// The names of a struct's fields as written, for telling known keys from extra ones.
const REPLAY_FIELDS: &[&str] = &[
    "revision",
    "players",
    "loadtime",
    "turntime",
    "turns",
    "viewradius2",
    "attackradius2",
    "spawnradius2",
    "engine_seed",
    "player_seed",
    "food_rate",
    "food_turn",
    "food_start",
    "map",
    "food",
    "ants",
    "hills",
    "scores",
    "bonus",
    "hive_history",
    "winning_turn",
    "ranking_turn",
    "cutoff",
];

const STORED_FIELDS: &[&str] = &[
    "challenge",
    "location",
    "game_id",
    "status",
    "playerturns",
    "score",
    "rank",
    "replayformat",
    "replaydata",
    "game_length",
    "playernames",
];

/// The keys of `obj` not in `known`, with their values.
pub(crate) fn extra_fields(obj: &Value, known: &[&str]) -> BTreeMap<String, Value> {
    obj.as_object()
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !known.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// Reads `T` from a JSON value, naming the path of the first error (`ants[3][5]`).
pub(crate) fn from_value<T: de::DeserializeOwned>(v: &Value) -> Result<T, (String, String)> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        (path, e.into_inner().to_string())
    })
}

impl ReplayData {
    /// Reads a `replaydata` object, keeping unknown fields in `extra`.
    ///
    /// # Errors
    /// The JSON path of the first wrong field, and what is wrong.
    pub fn from_json(v: &Value) -> Result<ReplayData, (String, String)> {
        let mut d: ReplayData = from_value(v)?;
        d.extra = extra_fields(v, REPLAY_FIELDS);
        Ok(d)
    }
}

impl StoredGame {
    /// Reads a stored game, keeping unknown fields in `extra` (also those of an object
    /// `replaydata`).
    ///
    /// # Errors
    /// The JSON path of the first wrong field, and what is wrong.
    pub fn from_json(v: &Value) -> Result<StoredGame, (String, String)> {
        let unpacked;
        let v = match v.get("replaydata") {
            Some(Value::String(text)) => {
                let data: Value = serde_json::from_str(text).map_err(|_| {
                    (
                        "replaydata".to_string(),
                        "is a string but not JSON: the pre-JSON text replays are not supported"
                            .to_string(),
                    )
                })?;
                let mut whole = v.clone();
                whole["replaydata"] = data;
                unpacked = whole;
                &unpacked
            }
            _ => v,
        };
        let mut g: StoredGame = from_value(v)?;
        g.extra = extra_fields(v, STORED_FIELDS);
        if let Some(data) = v.get("replaydata") {
            g.replaydata.extra = extra_fields(data, REPLAY_FIELDS);
        }
        Ok(g)
    }
}

fn wholes(v: &[i64]) -> Vec<Whole> {
    v.iter().copied().map(Whole).collect()
}

impl AntsGame {
    /// The original `get_replay`: settings, the map, every ant with its order string, every
    /// food and hill with its lifetime, score and hive histories, and why the game ended.
    pub fn replay_data(&self) -> ReplayData {
        let s = &self.settings;
        let end = self.turn + 1;
        let food = self
            .foods
            .iter()
            .map(|f| FoodRow {
                row: f.loc.0,
                col: f.loc.1,
                start: f.start_turn,
                end: Some(f.end_turn.unwrap_or(end)),
                owner: f.owner.map(usize::from),
            })
            .collect();
        let ants = self
            .ants
            .iter()
            .map(|a| {
                AntRow(
                    a.initial_loc.0,
                    a.initial_loc.1,
                    a.spawn_turn,
                    a.die_turn.unwrap_or(end),
                    usize::from(a.owner),
                    String::from_utf8_lossy(&a.orders).into_owned(),
                )
            })
            .collect();
        let hills = self
            .hills
            .iter()
            .map(|h| {
                HillRow(
                    h.loc.0,
                    h.loc.1,
                    usize::from(h.owner),
                    h.end_turn.unwrap_or(end),
                )
            })
            .collect();
        let data = match &self.original_map {
            Some(rows) => rows.clone(),
            None => self.render_rows(true),
        };
        ReplayData {
            revision: 3,
            players: self.players,
            loadtime: Some(u64::from(s.loadtime)),
            turntime: Some(u64::from(s.turntime)),
            turns: Some(u64::from(s.turns)),
            viewradius2: s.viewradius2,
            attackradius2: Some(s.attackradius2 as u64),
            spawnradius2: Some(s.spawnradius2 as u64),
            engine_seed: Some(s.engine_seed),
            player_seed: Some(s.player_seed),
            food_rate: Some(i64::from(self.food_rate)),
            food_turn: Some(i64::from(self.food_turn)),
            food_start: Some(i64::from(self.food_start)),
            map: ReplayMap {
                rows: Some(self.torus.rows),
                cols: Some(self.torus.cols),
                data,
            },
            food,
            ants,
            hills,
            scores: self.score_history.iter().map(|h| wholes(h)).collect(),
            bonus: Some(wholes(&self.bonus)),
            hive_history: Some(self.hive_history.iter().map(|h| wholes(h)).collect()),
            winning_turn: Some(self.winning_turn),
            ranking_turn: Some(self.ranking_turn),
            cutoff: self.cutoff.map(|c| c.as_str().to_string()),
            extra: BTreeMap::new(),
        }
    }

    /// [`AntsGame::replay_data`] as a JSON value.
    pub fn replay(&self) -> Value {
        serde_json::to_value(self.replay_data()).unwrap_or(Value::Null)
    }
}

impl AntsMatch {
    /// The whole game as the original's `playgame.py` writes it (`challenge`, `status`,
    /// `playerturns`, `score`, `rank`, `game_length`, `replaydata`, ...), once the game is
    /// over.
    pub fn stored_game(&self, player_names: &[String]) -> Option<StoredGame> {
        let r: MatchResult = self.result()?;
        Some(StoredGame {
            challenge: Some("ants".into()),
            location: Some("localhost".into()),
            game_id: Some(Value::from(0)),
            status: Some(r.status.iter().map(|s| s.as_str().to_string()).collect()),
            playerturns: Some(r.player_turns.clone()),
            score: Some(wholes(&r.score)),
            rank: Some(r.rank.clone()),
            replayformat: Some("json".into()),
            replaydata: self.game().replay_data(),
            game_length: Some(r.game_length),
            playernames: Some(
                player_names
                    .iter()
                    .map(|n| Value::from(n.as_str()))
                    .collect(),
            ),
            extra: BTreeMap::new(),
        })
    }

    /// [`AntsMatch::stored_game`] as a JSON value.
    pub fn result_json(&self, player_names: &[String]) -> Option<Value> {
        self.stored_game(player_names)
            .map(|g| serde_json::to_value(g).unwrap_or(Value::Null))
    }
}

#[cfg(test)]
mod tests {
    use super::{ReplayData, StoredGame};
    use serde_json::{Value, json};

    fn replay() -> Value {
        json!({
            "revision": 3, "players": 2,
            "map": {"rows": 2, "cols": 4, "data": ["....", "...."]},
            "ants": [[0, 0, 0, 3, 0, "nn"]],
            "food": [[1, 1, 0, 4], [1, 2, 0, 2, 1], [1, 3, 1]],
            "hills": [[0, 1, 1, 4]],
            "scores": [[1, 2.0], [1, 1]],
            "bonus": null,
            "visualizer_hint": {"zoom": 2}
        })
    }

    #[test]
    fn unknown_fields_are_kept_through_a_round_trip() {
        let doc = json!({"challenge": "ants", "user_ids": [7, 8], "replaydata": replay()});
        let g = StoredGame::from_json(&doc).unwrap();
        assert_eq!(g.extra["user_ids"], json!([7, 8]));
        assert_eq!(g.replaydata.extra["visualizer_hint"], json!({"zoom": 2}));
        assert_eq!(g.replaydata.scores[0][1].0, 2);
        assert_eq!(g.replaydata.food[2].end, None);
        let back = serde_json::to_value(&g).unwrap();
        assert_eq!(back["user_ids"], doc["user_ids"]);
        assert_eq!(back["replaydata"]["visualizer_hint"], json!({"zoom": 2}));
        assert_eq!(back["replaydata"]["food"], doc["replaydata"]["food"]);
        assert_eq!(StoredGame::from_json(&back).unwrap(), g);
    }

    #[test]
    fn errors_name_the_json_path() {
        let mut r = replay();
        r["ants"][0][5] = json!(5);
        let (path, _) = ReplayData::from_json(&r).unwrap_err();
        assert_eq!(path, "ants[0][5]");
        let mut r = replay();
        r["food"][1] = json!([1, 2, 0, 2, 1, 9]);
        assert_eq!(ReplayData::from_json(&r).unwrap_err().0, "food[1]");
        let (path, _) =
            StoredGame::from_json(&json!({"replaydata": {"revision": "x"}})).unwrap_err();
        assert_eq!(path, "replaydata.revision");
    }

    #[test]
    fn a_replay_stored_as_a_string_is_read() {
        let text = serde_json::to_string(&replay()).unwrap();
        let g = StoredGame::from_json(&json!({"replaydata": text})).unwrap();
        assert_eq!(g.replaydata.players, 2);
    }
}
