//! Ants games between built-in bots and programs: the loop of the original `engine.py`, with
//! [`AntsMatch`] for the rules and the text, and [`PersistentBot`] for the processes.
//!
//! Every turn, every seat the match expects an answer from gets its text and answers at the
//! same time as the others (the original's default, without `--serial`): one thread per
//! seat, each program with a clock of its own that starts at its `SIGCONT`. A seat whose
//! orders end (eliminated, crashed, timed out, invalid in strict mode) is sent its `end`
//! block when the match has one for it and is killed at once; at the end of the game every
//! remaining seat gets its `end` block and every process is killed, so none outlives the
//! game, whatever happened.

use std::ops::ControlFlow;
use std::thread;
use std::time::{Duration, Instant};

use ply_ants::AntsMatch;
use ply_ants::bot::AntsBot;
use ply_core::Fault;

use crate::persistent::{PersistentBot, PersistentLimits, Reply};

/// Who holds a seat.
pub enum AntsSeat {
    /// An in-process bot (`builtin:NAME`).
    Builtin(Box<dyn AntsBot>),
    /// A program, started and paused.
    Program(Box<PersistentBot>),
}

impl std::fmt::Debug for AntsSeat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AntsSeat::Builtin(_) => f.write_str("Builtin"),
            AntsSeat::Program(p) => f.debug_tuple("Program").field(p).finish(),
        }
    }
}

/// What the referee saw of one seat during a game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatRecord {
    /// Why its orders ended early, in words (`exit code 1`, `no go within 1000 ms`,
    /// `output flood: ...`, `out of memory`); `None` when it answered every turn.
    pub detail: Option<String>,
    /// The turn at which that happened.
    pub failed_turn: Option<u32>,
    /// Its own time over the game.
    pub time: Duration,
    /// Its longest turn.
    pub longest: Duration,
    /// Every byte sent to it (when recording).
    pub sent: Vec<u8>,
    /// Every byte it wrote on stdout (when recording; a built-in's lines and `go`).
    pub received: Vec<u8>,
    /// Its stderr (when recording; programs only).
    pub stderr: Vec<u8>,
}

/// Where a game's per-seat logs go as they are made: every byte sent to a seat, every byte
/// it wrote on stdout, and its stderr (the first MiB). `ply ants play --log-dir` writes
/// them to files as the game goes, so nothing a bot writes accumulates in memory.
pub trait SeatLogs {
    /// Bytes sent to `seat`.
    fn sent(&mut self, seat: usize, bytes: &[u8]);
    /// Bytes `seat` wrote on stdout (a built-in's lines and `go`).
    fn received(&mut self, seat: usize, bytes: &[u8]);
    /// Bytes `seat` wrote on stderr (programs only).
    fn stderr(&mut self, seat: usize, bytes: &[u8]);
}

/// Keeps the logs in the [`SeatRecord`]s (what [`play_ants`] does with `record`).
struct InMemory<'a>(&'a mut [SeatRecord]);

impl SeatLogs for InMemory<'_> {
    fn sent(&mut self, seat: usize, bytes: &[u8]) {
        self.0[seat].sent.extend_from_slice(bytes);
    }
    fn received(&mut self, seat: usize, bytes: &[u8]) {
        self.0[seat].received.extend_from_slice(bytes);
    }
    fn stderr(&mut self, seat: usize, bytes: &[u8]) {
        self.0[seat].stderr.extend_from_slice(bytes);
    }
}

/// Plays `m` to its end with one seat per player. `on_turn` is called after every turn; when
/// it breaks, the game ends there ([`AntsMatch::interrupt`]: the scores as they stand, every
/// program sent its end block and stopped), as `ply ants play` does on Ctrl-C.
/// With `record`, each [`SeatRecord`] keeps every byte sent and received (in memory: use
/// [`play_ants_logged`] for long games with bots that may write a lot).
///
/// # Panics
/// If `seats` does not have one entry per player, or a built-in bot panics.
pub fn play_ants(
    m: &mut AntsMatch,
    seats: &mut [AntsSeat],
    limits: &PersistentLimits,
    record: bool,
    on_turn: impl FnMut(&AntsMatch) -> ControlFlow<()>,
) -> Vec<SeatRecord> {
    if !record {
        return play::<InMemory>(m, seats, limits, None, on_turn);
    }
    let mut logs = vec![SeatRecord::default(); seats.len()];
    let mut records = play(m, seats, limits, Some(&mut InMemory(&mut logs)), on_turn);
    for (r, l) in records.iter_mut().zip(logs) {
        r.sent = l.sent;
        r.received = l.received;
        r.stderr = l.stderr;
    }
    records
}

/// [`play_ants`] with the logs streamed to `logs` turn by turn; the returned
/// [`SeatRecord`]s keep no bytes.
///
/// # Panics
/// If `seats` does not have one entry per player, or a built-in bot panics.
pub fn play_ants_logged(
    m: &mut AntsMatch,
    seats: &mut [AntsSeat],
    limits: &PersistentLimits,
    logs: &mut dyn SeatLogs,
    on_turn: impl FnMut(&AntsMatch) -> ControlFlow<()>,
) -> Vec<SeatRecord> {
    play(m, seats, limits, Some(logs), on_turn)
}

/// Passes on what the programs' transcripts gathered since the last call, stderr cut at
/// its first MiB per seat.
fn drain<L: SeatLogs + ?Sized>(seats: &mut [AntsSeat], logs: &mut L, stderr_sent: &mut [usize]) {
    for (b, seat) in seats.iter_mut().enumerate() {
        if let AntsSeat::Program(p) = seat
            && let Some(t) = p.take_transcript()
        {
            logs.received(b, &t.received);
            let room = crate::persistent::STDERR_LOG.saturating_sub(stderr_sent[b]);
            let cut = t.stderr.len().min(room);
            logs.stderr(b, &t.stderr[..cut]);
            stderr_sent[b] += cut;
        }
    }
}

fn play<L: SeatLogs + ?Sized>(
    m: &mut AntsMatch,
    seats: &mut [AntsSeat],
    limits: &PersistentLimits,
    mut logs: Option<&mut L>,
    mut on_turn: impl FnMut(&AntsMatch) -> ControlFlow<()>,
) -> Vec<SeatRecord> {
    let n = m.game().players();
    assert_eq!(seats.len(), n, "one seat per player");
    let mut stderr_sent = vec![0; n];
    let mut records = vec![SeatRecord::default(); n];
    let mut finished = vec![false; n];
    while !m.is_over() {
        let turn = m.turn();
        let limit = if turn == 0 { limits.load } else { limits.turn };
        let texts: Vec<Option<&str>> = (0..n)
            .map(|b| m.expects_answer(b).then(|| m.pending(b)))
            .collect();
        if let Some(logs) = logs.as_deref_mut() {
            for (b, t) in texts.iter().enumerate() {
                logs.sent(b, t.unwrap_or("").as_bytes());
            }
        }
        let replies = exchange_all(seats, &texts, limit);
        let mut answers = Vec::with_capacity(n);
        for (b, reply) in replies.into_iter().enumerate() {
            let Some((reply, elapsed)) = reply else {
                answers.push(Ok(Vec::new()));
                continue;
            };
            let r = &mut records[b];
            r.time += elapsed;
            r.longest = r.longest.max(elapsed);
            match &reply {
                Ok(lines) => {
                    if let Some(logs) = logs.as_deref_mut()
                        && matches!(seats[b], AntsSeat::Builtin(_))
                    {
                        let mut text = Vec::new();
                        for l in lines {
                            text.extend_from_slice(l.as_bytes());
                            text.push(b'\n');
                        }
                        text.extend_from_slice(b"go\n");
                        logs.received(b, &text);
                    }
                }
                Err(fault) => {
                    r.detail = Some(describe(fault, limit, limits));
                    r.failed_turn = Some(turn);
                }
            }
            answers.push(reply);
        }
        m.play_turn(answers);
        // Seats whose orders ended this turn get their end block (if any) and are killed;
        // at the end of the game, all of them.
        let over = m.is_over();
        let ending: Vec<usize> = (0..n)
            .filter(|&b| !finished[b] && (over || !m.expects_answer(b)))
            .collect();
        finish(m, seats, logs.as_deref_mut(), &ending, limits.end_wait);
        for b in ending {
            finished[b] = true;
        }
        if let Some(logs) = logs.as_deref_mut() {
            drain(seats, logs, &mut stderr_sent);
        }
        if on_turn(m).is_break() && !m.is_over() {
            m.interrupt();
            let rest: Vec<usize> = (0..n).filter(|&b| !finished[b]).collect();
            finish(m, seats, logs.as_deref_mut(), &rest, limits.end_wait);
            break;
        }
    }
    if let Some(logs) = logs {
        drain(seats, logs, &mut stderr_sent);
    }
    records
}

/// A seat's fault in the words of the AI Challenge's error log (`no go within 1000 ms`,
/// `output flood: ...`, `out of memory`, `exit code 1`), with the turn's time `limit`.
fn describe(fault: &Fault, limit: Duration, limits: &PersistentLimits) -> String {
    match fault {
        Fault::TimeLimit => format!("no go within {} ms", limit.as_millis()),
        Fault::OutputLimit => format!(
            "output flood: more than {} bytes in one turn",
            limits.output
        ),
        Fault::MemoryLimit => "out of memory".to_string(),
        Fault::RuntimeError { detail } => detail.clone(),
        other => other.to_string(),
    }
}

/// One turn of every seat that has a text: the built-ins and then the last program on this
/// thread, the other programs each on a thread of their own meanwhile. A thread costs tens
/// of microseconds, so none is started that this one can do the work of; a program's clock
/// starts at its own `SIGCONT`, so running it after the built-ins costs it nothing.
fn exchange_all(
    seats: &mut [AntsSeat],
    texts: &[Option<&str>],
    limit: Duration,
) -> Vec<Option<(Reply, Duration)>> {
    let run = |seat: &mut AntsSeat, text: &str| match seat {
        AntsSeat::Builtin(bot) => {
            let start = Instant::now();
            let lines = bot.answer(text);
            (Ok(lines), start.elapsed())
        }
        AntsSeat::Program(p) => {
            let e = p.exchange(text, limit);
            (e.reply, e.elapsed)
        }
    };
    let inline_program = seats
        .iter()
        .zip(texts)
        .rposition(|(seat, text)| text.is_some() && matches!(seat, AntsSeat::Program(_)));
    let mut out: Vec<Option<(Reply, Duration)>> = vec![None; seats.len()];
    thread::scope(|s| {
        let mut handles = Vec::new();
        let mut here = Vec::new();
        for (b, (seat, text)) in seats.iter_mut().zip(texts).enumerate() {
            let Some(text) = *text else { continue };
            if matches!(seat, AntsSeat::Program(_)) && inline_program != Some(b) {
                handles.push((b, s.spawn(move || run(seat, text))));
            } else {
                here.push((b, seat, text));
            }
        }
        // Built-ins first, the program (if any) last.
        here.sort_by_key(|(_, seat, _)| matches!(seat, AntsSeat::Program(_)));
        for (b, seat, text) in here {
            out[b] = Some(run(seat, text));
        }
        for (b, h) in handles {
            out[b] = Some(h.join().expect("a program's exchange does not panic"));
        }
    });
    out
}

/// Sends the seats in `ending` their pending text (an `end` block, or nothing for a bot that
/// crashed or timed out), gives the programs `end_wait` together, and kills them.
fn finish<L: SeatLogs + ?Sized>(
    m: &AntsMatch,
    seats: &mut [AntsSeat],
    mut logs: Option<&mut L>,
    ending: &[usize],
    end_wait: Duration,
) {
    thread::scope(|s| {
        for (b, seat) in seats.iter_mut().enumerate() {
            if !ending.contains(&b) {
                continue;
            }
            let text = m.pending(b);
            if let Some(logs) = logs.as_deref_mut() {
                logs.sent(b, text.as_bytes());
            }
            s.spawn(move || match seat {
                AntsSeat::Builtin(bot) => {
                    if !text.is_empty() {
                        bot.answer(text);
                    }
                }
                AntsSeat::Program(p) => p.finish(text, end_wait),
            });
        }
    });
}
