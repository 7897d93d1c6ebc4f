//! The persistent-bot exchange of the 2011 AI Challenge: one process per bot for the whole
//! game, paused between its turns, answering each message with order lines ended by `go`.
//!
//! The reference is the original worker (aichallenge/aichallenge, branch epsilon,
//! `worker/engine.py` and `worker/sandbox.py`); what it does, and what ply does:
//!
//! * **Start.** `run_game` starts every bot, then `sandbox.pause()`s it at once, so nothing a
//!   bot does before its first message is charged to anybody. [`PersistentBot::start`] does
//!   the same: spawn, then pause. A program that cannot be started at all made the
//!   original's `Popen` raise and the whole game fail with an error; ply refuses it before
//!   the game starts (the caller reports it). (The original also marks a bot whose process
//!   is already dead right after `Popen` as `crashed 0`, a status string of its own; ply
//!   finds such a bot dead during turn 0 and reports the usual `crashed`, turn 0.)
//! * **Pause and resume.** `get_moves` resumes every live bot (`SIGCONT`), starts the clock
//!   only then ("don't start timing until the bots are started"), and pauses them again
//!   (`SIGSTOP`) when every bot has said `go` or the time is up. ply freezes the bot's whole
//!   cgroup (the original's insecure `House` signalled only the main process; its `Jail`
//!   signalled every process of the jail user, which the cgroup stands for, `setsid`
//!   helpers included), or, without a freezer or when it does not confirm, stops its
//!   process group and every process of its cgroups by signals; and starts each
//!   bot's clock when it is thawed, so a bot's time is its own: the referee's work and the
//!   other bots' turns are not counted.
//! * **Time.** Turn 0 (the setup block ending in `ready`) has `loadtime`, every later turn
//!   `turntime`. The original polls every 10 ms; ply waits on events, to the microsecond.
//!   All live bots play each turn at once (the original's default, without `--serial`); the
//!   original shuffles their order first with its global `random`, a draw that matters only
//!   to its own random number stream (ply's engine draws from ChaCha8 and never reproduced
//!   Python's), since bots that run at once have no order.
//! * **Lines.** Each stdout line is stripped (`line.strip()`); a line that is `go` in any
//!   case ends the turn; every other line, blank ones included, is an order line for the
//!   engine to judge. Lines that came after `go` stay queued and are read at the start of
//!   the bot's next turn, as the original's stdout queue kept them. Bytes are read as UTF-8
//!   with replacement (`errors="replace"`).
//! * **Timeout.** When the time is up the bot is paused, then the lines already received are
//!   read (the original reads what its queue holds, up to 40 000 lines; ply what reaches it
//!   within 2 ms of each other, 50 ms at most); a `go` among them still counts. Otherwise the status is `timeout`, the orders of that turn are dropped,
//!   the engine's `kill_player` ends the bot's orders for good (its ants stay on the map),
//!   and the process is killed.
//! * **Crash.** The original checks `is_alive` before reading a bot's lines, so a process
//!   found dead before its `go` is `crashed`, with that turn's lines dropped. ply reads the
//!   events in the order they happen: a `go` read before the exit counts, an exit before
//!   the `go` is a crash.
//! * **End.** At the end of the game (and when a bot is eliminated during it) the original
//!   writes the `end` block (`players`, `score`, `status`, `playerturns`, the last state,
//!   `go`) to the paused bot and, with its default `--end_wait 0`, kills it without resuming
//!   it: the bot gets no time after `end`. With `end_wait` it resumes the bots and sleeps
//!   that long before killing them. [`PersistentBot::finish`] does both.
//! * **Limits the original did not have.** A bot that writes more than the output cap in one
//!   turn is killed at once and ends as `timeout`: the original would have waited for its
//!   `go` while reading the flood 100 lines per 10 ms, and recorded it as timed out when an
//!   endless flood never reached one. A bot past its memory limit (cgroup or `RLIMIT_AS`,
//!   see [`crate::process`]) dies and ends as `crashed`, the original's status for a dead
//!   process. Both keep their own [`Fault`] (`OutputLimit`, `MemoryLimit`), which the Ants
//!   engine turns into those statuses.
//!
//! Input is written by a thread of the bot's own (the original's `_child_writer`), so a
//! stopped bot that does not read its stdin can never block the referee.

use std::io::Write;
use std::process::ChildStdin;
use std::sync::mpsc::{self, Sender};
use std::thread;
use std::time::{Duration, Instant};

use ply_core::{Fault, TurnOutcome};
use ply_protocol::ai_challenge::TurnReader;

use crate::bot::ALLOCATION_FAILURES;
use crate::process::{BotProcess, CommandLine, Event, Limits, STDERR_TAIL, Sandbox};

/// The limits of a persistent bot, the AI Challenge's by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PersistentLimits {
    /// Time for the setup (turn 0): the original's `loadtime`, 3000 ms.
    pub load: Duration,
    /// Time for every later turn: the original's `turntime`, 1000 ms.
    pub turn: Duration,
    /// Time a bot may run after the `end` block before it is killed: the original's
    /// `--end_wait`, 0 by default.
    pub end_wait: Duration,
    /// Memory of the bot and its children, in bytes.
    pub memory: u64,
    /// Most bytes the bot may write on stdout in one turn.
    pub output: usize,
}

impl Default for PersistentLimits {
    /// The original's times; 1 GiB of memory; 1 MiB of output per turn (a bot moving ten
    /// thousand ants writes about 120 KB).
    fn default() -> Self {
        PersistentLimits {
            load: Duration::from_millis(3000),
            turn: Duration::from_millis(1000),
            end_wait: Duration::ZERO,
            memory: 1 << 30,
            output: 1 << 20,
        }
    }
}

/// How a bot's turn ended: the lines before its `go`, stripped; or the fault
/// ([`Fault::RuntimeError`] or [`Fault::MemoryLimit`] when its process died before `go`,
/// [`Fault::TimeLimit`] without a `go` in time, [`Fault::OutputLimit`] for a flood).
pub type Reply = TurnOutcome<Vec<String>>;

/// One turn of a persistent bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// What it answered.
    pub reply: Reply,
    /// Its own time: from its `SIGCONT` to its `go` (or to the deadline).
    pub elapsed: Duration,
}

/// Most bytes of stderr kept for the error log.
pub(crate) const STDERR_LOG: usize = 1 << 20;

/// How long the referee waits, once a bot is paused at its deadline, for bytes the bot wrote
/// before the pause but the reader threads had not yet passed on.
const LAST_WORDS: Duration = Duration::from_millis(2);

/// The longest the referee reads those last words.
const LAST_WORDS_AT_MOST: Duration = Duration::from_millis(50);

/// Everything that went through a bot's pipes, when recording.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    /// Every byte written to its stdin.
    pub sent: Vec<u8>,
    /// Every byte read from its stdout.
    pub received: Vec<u8>,
    /// Its stderr (the first MiB).
    pub stderr: Vec<u8>,
}

/// One bot program for a whole game.
#[derive(Debug)]
pub struct PersistentBot {
    process: BotProcess,
    input: Option<Sender<Vec<u8>>>,
    /// Stdout bytes not yet split into lines (or left after a `go`).
    buffer: Vec<u8>,
    stderr_tail: Vec<u8>,
    output_cap: usize,
    record: Option<Transcript>,
    dead: bool,
}

impl PersistentBot {
    /// Starts `command` in `sandbox` under `limits` and pauses it at once. With `record`,
    /// every byte through its pipes is kept for [`PersistentBot::transcript`].
    ///
    /// # Errors
    /// The I/O error when the program cannot be started.
    pub fn start(
        sandbox: &Sandbox,
        command: &CommandLine,
        limits: &PersistentLimits,
        record: bool,
    ) -> std::io::Result<PersistentBot> {
        let process_limits = Limits {
            time: limits.turn,
            memory: limits.memory,
            output: limits.output,
            // One CPU for the game, as before `Limits::cpus` existed: the persistent limits
            // carry no CPU count (`ply tournament ants` refuses `--cpus`).
            cpus: 1,
        };
        let mut process = sandbox.spawn(command, &process_limits)?;
        process.pause();
        let input = process.take_stdin().map(writer);
        Ok(PersistentBot {
            process,
            input,
            buffer: Vec::new(),
            stderr_tail: Vec::new(),
            output_cap: limits.output,
            record: record.then(Transcript::default),
            dead: false,
        })
    }

    /// Takes what went through its pipes since the last call, when started with `record`,
    /// leaving the transcript empty: a caller that streams logs keeps memory bounded.
    pub fn take_transcript(&mut self) -> Option<Transcript> {
        self.record.as_mut().map(std::mem::take)
    }

    /// Queues `text` for the bot's stdin (never blocks).
    pub fn send(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if let Some(t) = &mut self.record {
            t.sent.extend_from_slice(text.as_bytes());
        }
        if let Some(input) = &self.input
            && input.send(text.as_bytes().to_vec()).is_err()
        {
            self.input = None;
        }
    }

    /// One turn: sends `text`, lets the bot run for at most `limit`, and returns its lines up
    /// to `go`. The bot is paused again afterwards, or killed when it crashed, timed out or
    /// flooded.
    pub fn exchange(&mut self, text: &str, limit: Duration) -> Exchange {
        self.send(text);
        if self.dead {
            return Exchange {
                reply: Err(Fault::RuntimeError {
                    detail: "the process was already killed".into(),
                }),
                elapsed: Duration::ZERO,
            };
        }
        self.process.resume();
        let start = Instant::now();
        let deadline = start + limit;
        let mut reader = TurnReader::new();
        // Lines left from the last turn come first.
        if let Some(reply) = self.take_lines(&mut reader, 0) {
            let elapsed = start.elapsed();
            return self.conclude(reply, elapsed);
        }
        loop {
            // Checked here too: a bot that never stops writing (to stderr, say) must not
            // keep the queue busy past its deadline.
            let event = if Instant::now() < deadline {
                self.process.next_event(deadline)
            } else {
                None
            };
            match event {
                Some(event) => {
                    if let Some(reply) = self.absorb(event, &mut reader) {
                        let elapsed = start.elapsed();
                        return self.conclude(reply, elapsed);
                    }
                }
                None => {
                    let elapsed = start.elapsed().min(limit);
                    self.process.pause();
                    // What the bot wrote before it was stopped still counts (read for a
                    // bounded time: a child that escaped the group may still be writing).
                    let until = Instant::now() + LAST_WORDS_AT_MOST;
                    while Instant::now() < until {
                        let wait = (Instant::now() + LAST_WORDS).min(until);
                        let Some(event) = self.process.next_event(wait) else {
                            break;
                        };
                        if let Some(reply) = self.absorb(event, &mut reader) {
                            return self.conclude(reply, elapsed);
                        }
                    }
                    return self.conclude(Err(Fault::TimeLimit), elapsed);
                }
            }
        }
    }

    /// Pauses a bot that answered, kills one that did not.
    fn conclude(&mut self, reply: Reply, elapsed: Duration) -> Exchange {
        if reply.is_ok() {
            self.process.pause();
        } else {
            self.kill();
        }
        Exchange { reply, elapsed }
    }

    /// Takes one event; `Some` when the turn is decided.
    fn absorb(&mut self, event: Event, reader: &mut TurnReader) -> Option<Reply> {
        match event {
            Event::Stdout(bytes) => {
                if let Some(t) = &mut self.record {
                    t.received.extend_from_slice(&bytes);
                }
                let from = self.buffer.len();
                self.buffer.extend_from_slice(&bytes);
                self.take_lines(reader, from)
            }
            Event::Stderr(bytes) => {
                if let Some(t) = &mut self.record {
                    let room = STDERR_LOG.saturating_sub(t.stderr.len());
                    t.stderr.extend_from_slice(&bytes[..bytes.len().min(room)]);
                }
                self.stderr_tail.extend_from_slice(&bytes);
                if self.stderr_tail.len() > STDERR_TAIL {
                    let cut = self.stderr_tail.len() - STDERR_TAIL;
                    self.stderr_tail.drain(..cut);
                }
                None
            }
            Event::Exited(status) => Some(Err(
                if self.process.out_of_memory() || self.allocation_failed() {
                    Fault::MemoryLimit
                } else {
                    Fault::RuntimeError {
                        detail: crate::process::describe_status(status),
                    }
                },
            )),
            Event::StdoutClosed(()) | Event::StderrClosed => None,
        }
    }

    fn allocation_failed(&self) -> bool {
        if self.process.has_cgroup() {
            return false;
        }
        let stderr = String::from_utf8_lossy(&self.stderr_tail);
        ALLOCATION_FAILURES.iter().any(|m| stderr.contains(m))
    }

    /// Reads the turn's complete lines from the buffer (new bytes from `from`) up to `go`,
    /// against the output cap: the AI Challenge framing, `ply_protocol::ai_challenge`.
    fn take_lines(&mut self, reader: &mut TurnReader, from: usize) -> Option<Reply> {
        reader.take_orders(&mut self.buffer, from, self.output_cap)
    }

    /// Sends the `end` block, lets the bot read it for `wait` (the original's `end_wait`;
    /// zero: not resumed at all), then kills it.
    pub fn finish(&mut self, text: &str, wait: Duration) {
        self.send(text);
        if !wait.is_zero() && !self.dead {
            self.process.resume();
            let deadline = Instant::now() + wait;
            while let Some(event) = self.process.next_event(deadline) {
                let exited = matches!(event, Event::Exited(_));
                // What it writes after the end is read and dropped.
                let _ = self.absorb(event, &mut TurnReader::new());
                if exited {
                    break;
                }
            }
        }
        self.kill();
    }

    /// Kills the bot's process group and everything in its cgroup.
    pub fn kill(&mut self) {
        if !self.dead {
            self.dead = true;
            self.process.kill();
            self.input = None;
        }
    }

    /// Whether the process has been killed.
    pub fn is_dead(&self) -> bool {
        self.dead
    }

    /// Whether a pause freezes the bot's whole cgroup (else it is stopped by signals).
    pub fn freezes(&self) -> bool {
        self.process.freezes()
    }

    /// The last bytes of its stderr.
    pub fn stderr_tail(&self) -> &[u8] {
        &self.stderr_tail
    }

    /// Everything through its pipes, when started with `record`.
    pub fn transcript(&self) -> Option<&Transcript> {
        self.record.as_ref()
    }
}

/// A thread that writes whatever it is sent to `stdin`, until the bot closes it or the
/// sender is dropped (which closes the bot's stdin).
fn writer(mut stdin: ChildStdin) -> Sender<Vec<u8>> {
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    thread::spawn(move || {
        for bytes in rx {
            if stdin
                .write_all(&bytes)
                .and_then(|()| stdin.flush())
                .is_err()
            {
                return;
            }
        }
    });
    tx
}
