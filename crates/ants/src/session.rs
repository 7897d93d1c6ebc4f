//! One whole game as the original `worker/engine.py` runs it, without processes: what each
//! seat is sent when, how answers become orders, statuses and the `end` blocks.

use std::fmt;

use ply_core::{Fault, Outcome, Seat, SimultaneousGame, TurnOutcome};

use super::game::{AntsGame, Cutoff};
use super::orders::OrderReport;

/// A bot's standing, with the original's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BotStatus {
    /// Still playing, or played to the end.
    Survived,
    /// Lost all its ants.
    Eliminated,
    /// Its process died.
    Crashed,
    /// It did not answer in time.
    Timeout,
    /// It sent an invalid order in strict mode.
    Invalid,
}

impl BotStatus {
    /// The original's word.
    pub const fn as_str(self) -> &'static str {
        match self {
            BotStatus::Survived => "survived",
            BotStatus::Eliminated => "eliminated",
            BotStatus::Crashed => "crashed",
            BotStatus::Timeout => "timeout",
            BotStatus::Invalid => "invalid",
        }
    }
}

impl fmt::Display for BotStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What a seat did with its turn: the lines it sent before `go` (the `go` itself excluded),
/// or the fault that ended its orders ([`Fault`], the vocabulary every bot speaks). The
/// original engine knows two ends: `timeout` (no `go` in time, and ply's output flood, which
/// the original would have waited out) and `crashed` (every other fault: the process died).
pub type Answer = TurnOutcome<Vec<String>>;

/// The AI Challenge's status for a seat whose turn ended in `fault`.
pub fn status_of(fault: &Fault) -> BotStatus {
    match fault {
        Fault::TimeLimit | Fault::OutputLimit => BotStatus::Timeout,
        _ => BotStatus::Crashed,
    }
}

/// The final result, as the original's game result (`status`, `playerturns`, `score`,
/// `rank`, `game_length`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// Each seat's status.
    pub status: Vec<BotStatus>,
    /// The last turn each seat played.
    pub player_turns: Vec<u32>,
    /// Final scores.
    pub score: Vec<i64>,
    /// Ranks: the number of seats with a strictly higher score.
    pub rank: Vec<u32>,
    /// The last turn played.
    pub game_length: u32,
    /// Why the game ended.
    pub cutoff: Cutoff,
}

/// A game with its referee bookkeeping, advanced one turn per [`AntsMatch::play_turn`].
///
/// After construction and after each turn, [`AntsMatch::pending`] holds the text to send
/// each seat (the setup block, a turn's state, or an `end` block); the caller sends it,
/// collects each live seat's answer, and calls `play_turn` again until
/// [`AntsMatch::is_over`].
#[derive(Clone, Debug)]
pub struct AntsMatch {
    game: AntsGame,
    turn: u32,
    status: Vec<BotStatus>,
    player_turns: Vec<u32>,
    pending: Vec<String>,
    output_log: Vec<String>,
    strict: bool,
    over: bool,
}

impl AntsMatch {
    /// Starts the game (starting food) and prepares every live seat's setup block.
    pub fn new(mut game: AntsGame) -> AntsMatch {
        let n = game.players();
        let strict = game.settings().strict;
        game.start_game();
        let mut m = AntsMatch {
            turn: 0,
            status: vec![BotStatus::Survived; n],
            player_turns: vec![0; n],
            pending: vec![String::new(); n],
            output_log: vec![String::new(); n],
            strict,
            over: false,
            game,
        };
        let start = m.game.player_start();
        for b in 0..n {
            if m.game.is_alive(b) {
                m.pending[b] = format!("{start}ready\n");
            }
        }
        m
    }

    /// The game.
    pub fn game(&self) -> &AntsGame {
        &self.game
    }

    /// The turn whose answers `play_turn` expects next (0: the answers to the setup).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The text to send `seat` now (empty when it is sent nothing).
    pub fn pending(&self, seat: usize) -> &str {
        &self.pending[seat]
    }

    /// Whether `seat` is expected to answer this turn.
    pub fn expects_answer(&self, seat: usize) -> bool {
        !self.over && self.game.is_alive(seat)
    }

    /// The original's `-O` log of `seat` for the turn just played: `# turn N` and the order
    /// lines with their classes (empty when its orders were not processed). Only the last
    /// turn's is kept, so that a bot writing junk orders cannot grow the match's memory: a
    /// caller wanting the whole log appends this after every [`AntsMatch::play_turn`].
    pub fn output_log(&self, seat: usize) -> &str {
        &self.output_log[seat]
    }

    /// Plays one turn of the engine's loop with each seat's answer (answers of seats not
    /// expected to answer are ignored). Returns the order reports of the seats whose
    /// orders were processed.
    ///
    /// # Panics
    /// If the game is over or `answers` does not have one entry per seat.
    pub fn play_turn(&mut self, answers: Vec<Answer>) -> Vec<Option<OrderReport>> {
        assert!(!self.over, "the game is over");
        let n = self.game.players();
        assert_eq!(answers.len(), n, "one answer per seat");
        for p in &mut self.pending {
            p.clear();
        }
        for l in &mut self.output_log {
            l.clear();
        }
        let t = self.turn;
        if t > 0 {
            self.game.start_turn();
        }
        // The engine loop shuffles the list of live bots every turn (`random.shuffle`), from
        // the game's generator: the order does not matter here, the draws do.
        self.game.engine_shuffle();
        let mut moves: Vec<Option<Vec<String>>> = vec![None; n];
        for (b, a) in answers.into_iter().enumerate() {
            if !self.game.is_alive(b) {
                continue;
            }
            match a {
                Ok(lines) => moves[b] = Some(lines),
                Err(fault) => {
                    self.status[b] = status_of(&fault);
                    self.player_turns[b] = t;
                    self.game.kill_player(b);
                }
            }
        }
        let alive_before: Vec<bool> = (0..n).map(|b| self.game.is_alive(b)).collect();
        let mut reports = vec![None; n];
        if t > 0 && !self.game.game_over() {
            for (b, lines) in moves.into_iter().enumerate() {
                if !self.game.is_alive(b) {
                    continue;
                }
                let report = self.game.set_orders(b, &lines.unwrap_or_default());
                let log = &mut self.output_log[b];
                log.push_str("# turn ");
                log.push_str(&t.to_string());
                log.push('\n');
                for l in &report.valid {
                    log.push_str(l);
                    log.push('\n');
                }
                for (l, why) in &report.ignored {
                    log.push_str(&format!("{l} # {why}\n"));
                }
                for (l, why) in &report.invalid {
                    log.push_str(&format!("{l} # {why}\n"));
                }
                if self.strict && !report.invalid.is_empty() {
                    self.game.kill_player(b);
                    self.status[b] = BotStatus::Invalid;
                    self.player_turns[b] = t;
                }
                reports[b] = Some(report);
            }
        }
        if t > 0 {
            self.game.finish_turn();
        }
        for (b, &was_alive) in alive_before.iter().enumerate() {
            if was_alive && !self.game.is_alive(b) {
                if self.status[b] == BotStatus::Survived {
                    self.status[b] = BotStatus::Eliminated;
                    self.player_turns[b] = t;
                }
                let end = self.end_block(b);
                self.pending[b].push_str(&end);
            }
        }
        if self.game.game_over() || t >= self.game.settings().turns {
            self.game.finish_game();
            self.send_end_blocks();
        } else {
            self.turn = t + 1;
            for b in 0..n {
                if self.game.is_alive(b) {
                    let state = self.game.player_state(b);
                    self.pending[b].push_str(&format!("turn {}\n{state}go\n", t + 1));
                    self.player_turns[b] = t + 1;
                }
            }
        }
        reports
    }

    /// Ends the game now, between turns (the referee was asked to stop): the scores as they
    /// stand, the cutoff [`Cutoff::Interrupted`], and every live seat's pending text replaced
    /// by its end block, so that a program is told the game is over instead of its next turn.
    /// Nothing happens once the game is over.
    pub fn interrupt(&mut self) {
        if self.over {
            return;
        }
        // `turn` is already the next turn, which is not played: the game ends at the last.
        let played = self.turn.saturating_sub(1);
        self.turn = played;
        for b in 0..self.game.players() {
            if self.game.is_alive(b) {
                self.player_turns[b] = played;
            }
        }
        self.game.interrupt();
        for p in &mut self.pending {
            p.clear();
        }
        self.send_end_blocks();
    }

    /// The end block for every live seat, and the game over.
    fn send_end_blocks(&mut self) {
        for b in 0..self.game.players() {
            if self.game.is_alive(b) {
                let end = self.end_block(b);
                self.pending[b].push_str(&end);
            }
        }
        self.over = true;
    }

    fn end_block(&mut self, b: usize) -> String {
        let join = |v: Vec<Option<String>>| {
            v.into_iter()
                .map(|x| x.unwrap_or_else(|| "None".into()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let scores: Vec<String> = self.game.scores().iter().map(i64::to_string).collect();
        let status: Vec<String> = self.status.iter().map(|s| s.to_string()).collect();
        let turns: Vec<String> = self.player_turns.iter().map(u32::to_string).collect();
        let head = format!(
            "end\nplayers {}\nscore {}\nstatus {}\nplayerturns {}\n",
            self.game.players(),
            join(self.game.order_for_player(b, &scores)),
            join(self.game.order_for_player(b, &status)),
            join(self.game.order_for_player(b, &turns)),
        );
        let state = self.game.player_state(b);
        format!("{head}{state}go\n")
    }

    /// The result, once the game is over.
    pub fn result(&self) -> Option<MatchResult> {
        if !self.over {
            return None;
        }
        let score = self.game.scores().to_vec();
        Some(MatchResult {
            status: self.status.clone(),
            player_turns: self.player_turns.clone(),
            rank: score
                .iter()
                .map(|&s| score.iter().filter(|&&o| o > s).count() as u32)
                .collect(),
            score,
            game_length: self.turn,
            cutoff: self.game.cutoff().unwrap_or(Cutoff::TurnLimit),
        })
    }
}

impl SimultaneousGame for AntsMatch {
    type Orders = Vec<String>;
    type Observation = String;

    fn seats(&self) -> usize {
        self.game.players()
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn is_alive(&self, seat: Seat) -> bool {
        self.expects_answer(seat.index())
    }

    fn observe(&self, seat: Seat) -> String {
        self.pending[seat.index()].clone()
    }

    fn step(&mut self, orders: Vec<Vec<String>>) {
        self.play_turn(orders.into_iter().map(Ok).collect());
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result().map(|r| Outcome::Ranking(r.rank))
    }
}

#[cfg(test)]
mod fault_tests {
    use super::*;

    #[test]
    fn a_turn_s_fault_becomes_the_original_s_timeout_or_crashed() {
        assert_eq!(status_of(&Fault::TimeLimit), BotStatus::Timeout);
        // An output flood: the original would have waited for a `go` that never came.
        assert_eq!(status_of(&Fault::OutputLimit), BotStatus::Timeout);
        assert_eq!(status_of(&Fault::MemoryLimit), BotStatus::Crashed);
        let exit = Fault::RuntimeError {
            detail: "exit code 1".into(),
        };
        assert_eq!(status_of(&exit), BotStatus::Crashed);
    }
}
