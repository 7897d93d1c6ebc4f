//! One refereed game, its replay, and a pool that plays many games at once.

use std::sync::Mutex;
use std::sync::mpsc;

use serde::{Deserialize, Serialize};

use ply_core::{Game, Outcome, Seat};

use crate::bot::Bot;
use crate::verdict::Verdict;

/// The replay format's version, written into every file.
pub const REPLAY_FORMAT: u32 = 1;

/// One move of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// 1-based ply number.
    pub ply: u32,
    /// 1-based number of the seat that moved.
    pub seat: u8,
    /// The move in the game's notation; absent when the verdict is not ok.
    #[serde(rename = "move", skip_serializing_if = "Option::is_none", default)]
    pub mv: Option<String>,
    /// The referee's judgement.
    #[serde(flatten)]
    pub verdict: Verdict,
    /// Wall time the bot took, in microseconds (an integer, so that replays read back exactly).
    pub micros: u64,
}

/// A seat's player in a replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayPlayer {
    /// The name in tables.
    pub name: String,
    /// The spec that built it (`builtin:mcts:ms=100`, `python3 bot.py`).
    pub spec: String,
}

/// Everything needed to see a game again: one JSON file per game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// [`REPLAY_FORMAT`].
    pub format: u32,
    /// The game's command-line name.
    pub game: String,
    /// The players, by seat.
    pub players: Vec<ReplayPlayer>,
    /// The seed the built-in players were given.
    pub seed: u64,
    /// The starting position, in the game's one-line text.
    pub start: String,
    /// Every move, with its verdict; the last one may be a fault.
    pub moves: Vec<MoveRecord>,
    /// How many of the first moves were an opening the referee played for the bots (to vary
    /// the games between deterministic players: `ply match --opening-plies`, `ply ladder`);
    /// their time is 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening: u32,
    /// How the game ended.
    pub outcome: Outcome,
    /// The outcome in words, with the fault if there was one.
    pub result: String,
    /// The tail of each seat's stderr (empty for built-ins).
    pub stderr: Vec<String>,
}

impl Replay {
    /// The seat that lost by a fault, and the fault.
    pub fn fault(&self) -> Option<(Seat, &Verdict)> {
        self.moves
            .last()
            .filter(|m| !m.verdict.is_ok())
            .map(|m| (Seat::new(m.seat - 1), &m.verdict))
    }
}

/// Plays one game of `G` from the start between `bots` (indexed by seat), recording it.
/// A bot whose move is not ok loses at once; the referee never waits on a bot longer than
/// its limits.
pub fn play_game<G: Game>(bots: &mut [Box<dyn Bot<G>>], specs: &[String], seed: u64) -> Replay {
    play_game_from(bots, specs, seed, &[])
}

/// [`play_game`] after `opening`, moves the referee plays for the bots from the start (each
/// must be legal where it is played); the replay keeps them
/// as its first moves and says how many they were.
pub fn play_game_from<G: Game>(
    bots: &mut [Box<dyn Bot<G>>],
    specs: &[String],
    seed: u64,
    opening: &[G::Move],
) -> Replay {
    let seats = G::info().seats;
    assert_eq!(bots.len(), seats, "one bot per seat");
    for (seat, bot) in Seat::all(seats).zip(bots.iter_mut()) {
        bot.new_game(seat);
    }
    let mut state = G::start();
    let start = state.to_string();
    let mut moves = Vec::new();
    let mut fault = None;
    for &mv in opening {
        if state.outcome().is_some() {
            break;
        }
        moves.push(MoveRecord {
            ply: moves.len() as u32 + 1,
            seat: state.to_move().number() as u8,
            mv: Some(mv.to_string()),
            verdict: Verdict::Ok,
            micros: 0,
        });
        state.play_unchecked(mv);
    }
    let opening = moves.len() as u32;
    while state.outcome().is_none() && moves.len() < G::info().max_plies as usize {
        let seat = state.to_move();
        let turn = bots[seat.index()].turn(&state);
        let record = MoveRecord {
            ply: moves.len() as u32 + 1,
            seat: seat.number() as u8,
            mv: turn.mv.map(|m| m.to_string()),
            verdict: turn.verdict.clone(),
            micros: u64::try_from(turn.elapsed.as_micros()).unwrap_or(u64::MAX),
        };
        moves.push(record);
        match turn.mv {
            Some(mv) if turn.verdict.is_ok() => state.play_unchecked(mv),
            _ => {
                fault = Some((seat, turn.verdict));
                break;
            }
        }
    }
    for bot in bots.iter_mut() {
        bot.end_game();
    }
    let (outcome, result) = match fault {
        Some((seat, verdict)) => {
            let outcome = if seats == 2 {
                Outcome::Win(seat.next(2))
            } else {
                Outcome::Ranking(Seat::all(seats).map(|s| u32::from(s == seat)).collect())
            };
            let result = format!(
                "{outcome} ({seat} {}: {verdict})",
                bots[seat.index()].name()
            );
            (outcome, result)
        }
        None => {
            // The ply bound is every game's contract; a game that reaches it is a draw.
            let outcome = state.outcome().unwrap_or(Outcome::Draw);
            (outcome.clone(), outcome.to_string())
        }
    };
    Replay {
        format: REPLAY_FORMAT,
        game: G::info().name.to_string(),
        players: bots
            .iter()
            .zip(specs)
            .map(|(b, s)| ReplayPlayer {
                name: b.name(),
                spec: s.clone(),
            })
            .collect(),
        seed,
        start,
        moves,
        opening,
        outcome,
        result,
        stderr: bots.iter().map(|b| b.stderr_tail()).collect(),
    }
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// Runs `work` on every job with `concurrency` threads, handing each result to `done` on the
/// calling thread as soon as it is ready (so that it can be stored before the next one).
/// `done` returns `false` to stop: jobs not yet started are then skipped.
pub fn run_parallel<J, R, W, D>(jobs: Vec<J>, concurrency: usize, work: W, mut done: D)
where
    J: Send,
    R: Send,
    W: Fn(J) -> R + Sync,
    D: FnMut(R) -> bool,
{
    let queue = Mutex::new(jobs.into_iter());
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            let tx = tx.clone();
            let (queue, work, stop) = (&queue, &work, &stop);
            scope.spawn(move || {
                loop {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    let job = queue.lock().map(|mut q| q.next()).ok().flatten();
                    let Some(job) = job else { return };
                    if tx.send(work(job)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        for result in rx {
            if !done(result) {
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        }
    });
}
