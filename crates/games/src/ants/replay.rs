//! Replays in the original's revision-3 JSON format, which its JavaScript visualizer reads.

use serde_json::{Value, json};

use super::game::AntsGame;
use super::session::{AntsMatch, MatchResult};

impl AntsGame {
    /// The original `get_replay`: settings, the map, every ant with its order string, every
    /// food and hill with its lifetime, score and hive histories, and why the game ended.
    pub fn replay(&self) -> Value {
        let s = &self.settings;
        let end = self.turn + 1;
        let food: Vec<Value> = self
            .foods
            .iter()
            .map(|f| {
                let mut v = vec![
                    json!(f.loc.0),
                    json!(f.loc.1),
                    json!(f.start_turn),
                    json!(f.end_turn.unwrap_or(end)),
                ];
                if let Some(o) = f.owner {
                    v.push(json!(o));
                }
                Value::Array(v)
            })
            .collect();
        let ants: Vec<Value> = self
            .ants
            .iter()
            .map(|a| {
                json!([
                    a.initial_loc.0,
                    a.initial_loc.1,
                    a.spawn_turn,
                    a.die_turn.unwrap_or(end),
                    a.owner,
                    String::from_utf8_lossy(&a.orders)
                ])
            })
            .collect();
        let hills: Vec<Value> = self
            .hills
            .iter()
            .map(|h| json!([h.loc.0, h.loc.1, h.owner, h.end_turn.unwrap_or(end)]))
            .collect();
        let data = match &self.original_map {
            Some(rows) => rows.clone(),
            None => self.render_rows(true),
        };
        json!({
            "revision": 3,
            "players": self.players,
            "loadtime": s.loadtime,
            "turntime": s.turntime,
            "turns": s.turns,
            "viewradius2": s.viewradius2,
            "attackradius2": s.attackradius2,
            "spawnradius2": s.spawnradius2,
            "engine_seed": s.engine_seed,
            "player_seed": s.player_seed,
            "food_rate": self.food_rate,
            "food_turn": self.food_turn,
            "food_start": self.food_start,
            "map": {"rows": self.torus.rows, "cols": self.torus.cols, "data": data},
            "food": food,
            "ants": ants,
            "hills": hills,
            "scores": self.score_history,
            "bonus": self.bonus,
            "hive_history": self.hive_history,
            "winning_turn": self.winning_turn,
            "ranking_turn": self.ranking_turn,
            "cutoff": self.cutoff.map(|c| c.as_str()),
        })
    }
}

impl AntsMatch {
    /// The whole game result as the original's `playgame.py` writes it (`challenge`,
    /// `status`, `playerturns`, `score`, `rank`, `game_length`, `replaydata`, ...), once the
    /// game is over.
    pub fn result_json(&self, player_names: &[String]) -> Option<Value> {
        let r: MatchResult = self.result()?;
        Some(json!({
            "challenge": "ants",
            "location": "localhost",
            "game_id": 0,
            "status": r.status.iter().map(|s| s.as_str()).collect::<Vec<_>>(),
            "playerturns": r.player_turns,
            "score": r.score,
            "rank": r.rank,
            "replayformat": "json",
            "replaydata": self.game().replay(),
            "game_length": r.game_length,
            "playernames": player_names,
        }))
    }
}
