//! Bots: anything that takes a seat in a refereed game. External programs run under the
//! process layer's limits; built-in AIs run in process.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ply_core::{Budget, Fault, Game, Player, Seat};
use ply_games::HackerEarth;
use ply_protocol::hackerearth::{self, JudgeMoveError};

use crate::moves::MoveRunner;
use crate::process::{CommandLine, Limits, Run, RunEnd, Sandbox, describe_status};
use crate::verdict::Verdict;

/// One move as the referee saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn<M> {
    /// The judgement.
    pub verdict: Verdict,
    /// The move, when the verdict is [`Verdict::Ok`].
    pub mv: Option<M>,
    /// Wall time the bot took.
    pub elapsed: Duration,
}

/// A seat-holder in a refereed game.
///
/// The per-move exchange needs only [`Bot::turn`]; a persistent bot (the AI Challenge's)
/// starts its process in [`Bot::new_game`] and stops it in [`Bot::end_game`].
pub trait Bot<G: Game>: Send {
    /// The name shown in tables and replays.
    fn name(&self) -> String;

    /// Called before the game starts, with the bot's seat.
    fn new_game(&mut self, seat: Seat) {
        let _ = seat;
    }

    /// Asks for a move in `state`, which is not over and has this bot to move.
    fn turn(&mut self, state: &G) -> Turn<G::Move>;

    /// Called once the game is over.
    fn end_game(&mut self) {}

    /// The last bytes the bot wrote on stderr, for replays.
    fn stderr_tail(&self) -> String {
        String::new()
    }
}

/// An external program run afresh for every move (HackerEarth's exchange), in one jail for
/// the whole game where the sandbox has a launcher ([`MoveRunner`]).
pub struct PerMoveBot {
    name: String,
    command: CommandLine,
    sandbox: Arc<Sandbox>,
    limits: Limits,
    stderr_tail: Vec<u8>,
    moves: MoveRunner,
}

impl PerMoveBot {
    /// A bot named `name` that runs `command` under `limits` in `sandbox`.
    pub fn new(name: String, command: CommandLine, sandbox: Arc<Sandbox>, limits: Limits) -> Self {
        PerMoveBot {
            name,
            command,
            sandbox,
            limits,
            stderr_tail: Vec::new(),
            moves: MoveRunner::new(),
        }
    }
}

impl<G: HackerEarth> Bot<G> for PerMoveBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn turn(&mut self, state: &G) -> Turn<G::Move> {
        // A forced pass is the judge's, not the program's: the input the program would get
        // names the other player, so its answer would be judged as the wrong side's move.
        if let Some(mv) = state.forced_move() {
            return Turn {
                verdict: Verdict::Ok,
                mv: Some(mv),
                elapsed: Duration::ZERO,
            };
        }
        let input = hackerearth::request(state);
        let run = self
            .moves
            .run(&self.sandbox, &self.command, input.as_bytes(), &self.limits);
        if !run.stderr_tail.is_empty() {
            self.stderr_tail = run.stderr_tail.clone();
        }
        let elapsed = run.elapsed;
        let (verdict, mv) = judge_run(state, &run, &self.limits);
        Turn {
            verdict,
            mv,
            elapsed,
        }
    }

    fn new_game(&mut self, _seat: Seat) {
        // A jail left by a game that ended without end_game (a caller's panic, say).
        self.moves.finish();
    }

    fn end_game(&mut self) {
        self.moves.finish();
    }

    fn stderr_tail(&self) -> String {
        String::from_utf8_lossy(&self.stderr_tail).into_owned()
    }
}

/// Messages with which common runtimes report a failed allocation; under `RLIMIT_AS` (no
/// cgroup) a bot past its limit dies of one of these rather than of the OOM killer.
pub(crate) const ALLOCATION_FAILURES: &[&str] = &[
    "MemoryError",
    "memory allocation of",
    "bad_alloc",
    "out of memory",
    "Cannot allocate memory",
    "OutOfMemoryError",
];

/// The verdict of one per-move run and, when it is ok, the move.
pub fn judge_run<G: HackerEarth>(
    state: &G,
    run: &Run,
    limits: &Limits,
) -> (Verdict, Option<G::Move>) {
    let verdict = match &run.end {
        RunEnd::TimedOut => Verdict::Fault(Fault::TimeLimit),
        RunEnd::OutputFlood => Verdict::Fault(Fault::OutputLimit),
        RunEnd::OutOfMemory => Verdict::Fault(Fault::MemoryLimit),
        RunEnd::NotStarted(e) => Verdict::Fault(Fault::RuntimeError {
            detail: format!("cannot start: {e}"),
        }),
        RunEnd::Exited(status) if !status.success() => {
            let stderr = String::from_utf8_lossy(&run.stderr_tail);
            if !run.cgroup && ALLOCATION_FAILURES.iter().any(|m| stderr.contains(m)) {
                Verdict::Fault(Fault::MemoryLimit)
            } else {
                Verdict::Fault(Fault::RuntimeError {
                    detail: describe_status(*status),
                })
            }
        }
        RunEnd::Exited(_) => {
            // A run that took longer than the limit but exited before the referee noticed.
            if run.elapsed > limits.time {
                Verdict::Fault(Fault::TimeLimit)
            } else {
                let text = String::from_utf8_lossy(&run.stdout);
                return match hackerearth::judge(state, &text) {
                    Ok(mv) => (Verdict::Ok, Some(mv)),
                    Err(JudgeMoveError::Empty) => (Verdict::Fault(Fault::NoOutput), None),
                    Err(e @ JudgeMoveError::Unreadable { .. }) => (
                        Verdict::Fault(Fault::Unreadable {
                            reason: e.to_string(),
                        }),
                        None,
                    ),
                    Err(e) => (
                        Verdict::Fault(Fault::InvalidMove {
                            reason: e.to_string(),
                        }),
                        None,
                    ),
                };
            }
        }
    };
    (verdict, None)
}

/// An in-process AI ([`Player`]) in a seat; it never faults by design, but its answer is
/// still checked against the rules.
pub struct BuiltinBot<G: Game> {
    name: String,
    player: Box<dyn Player<G>>,
    cap: Duration,
}

impl<G: Game> BuiltinBot<G> {
    /// Seats `player` under `name`; each move it may think at most `cap` (its own budget,
    /// such as `ms=100`, may be shorter), so that it keeps to the same limit as programs.
    pub fn new(name: String, player: Box<dyn Player<G>>, cap: Duration) -> Self {
        BuiltinBot { name, player, cap }
    }
}

impl<G: Game> Bot<G> for BuiltinBot<G> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn turn(&mut self, state: &G) -> Turn<G::Move> {
        let start = Instant::now();
        let result = self.player.choose(state, Budget::time(self.cap));
        let elapsed = start.elapsed();
        let (verdict, mv) = match result {
            Err(fault) => (fault.into(), None),
            Ok(mv) => match state.check(mv) {
                Ok(()) => (Verdict::Ok, Some(mv)),
                Err(e) => (
                    Verdict::Fault(Fault::InvalidMove {
                        reason: format!("{mv}: {}", e.reason),
                    }),
                    None,
                ),
            },
        };
        Turn {
            verdict,
            mv,
            elapsed,
        }
    }
}
