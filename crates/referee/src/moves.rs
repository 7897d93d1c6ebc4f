//! The moves of a per-move bot (HackerEarth's exchange: a new process per move) in one game.
//!
//! With a jail and a launcher ([`Sandbox::with_launcher`]), the bot's jail is made once, at
//! its first move, and kept until the game ends: its namespaces, its cgroup (memory,
//! processes, one CPU, freezer: the limits hold for the game's whole tree, launcher
//! included) and its scratch folder, which is its `HOME` for the whole game. The launcher,
//! the jail's pid 1 (`crate::launcher`), starts each move's process with the pipes the
//! referee passes it, and kills every process of the move when the move ends, whether it
//! ended by itself, ran out of time, flooded or ran out of memory; the next move starts
//! only once the launcher says nothing of the last one is left. Verdicts are the same as
//! with a process per move. Without a jail, the launcher runs directly, as the subreaper
//! and keeper of the bot's processes for the game (`crate::launcher`). Without a launcher,
//! every move is a process (and a jail) of its own ([`crate::process::run_once`]).

use std::io::Write;
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use crate::cgroup::Cgroup;
use crate::launcher::{number, send, send_with_fds};
use crate::process::{
    CommandLine, Limits, Run, RunEnd, STDERR_TAIL, Sandbox, before_exec, inherit, next_id, pump,
    run_process,
};

/// How long a jail may take to start (bubblewrap and the launcher; 20 ms when idle).
pub(crate) const START_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the launcher may take to kill a move's processes before the whole jail is torn
/// down (the next move then gets a new one).
const CLEAN_TIMEOUT: Duration = Duration::from_secs(2);
/// How long the end of a move's output is waited for once its processes are gone. The end
/// (both pipes closed) normally comes as soon as the reader threads run, so this costs
/// nothing; it is long because on a loaded machine those threads can wait over 100 ms for a
/// core: at 50 ms, two CI runs at load 10 lost a whole move's output ("no output" from a
/// bot that had answered). Only a pipe held open by a process that escaped the move
/// (possible without a cgroup) makes the referee wait this long, and not on the bot's clock.
pub(crate) const LAST_OUTPUT: Duration = Duration::from_secs(1);

/// A per-move bot's moves in one game: under one launcher for the whole game (in one
/// jail where the sandbox has a jail) where the sandbox has a launcher, else a process per
/// move. Dropping it (or
/// [`MoveRunner::finish`]) ends the game: nothing of the bot is left when it returns.
#[derive(Debug, Default)]
pub struct MoveRunner {
    jail: Option<GameJail>,
}

impl MoveRunner {
    /// A runner with no jail yet.
    pub fn new() -> MoveRunner {
        MoveRunner::default()
    }

    /// Runs one move: `command` with `input` on stdin under `limits`, as
    /// [`crate::process::run_once`] does. Never panics on anything the bot does, and
    /// returns only when every process of the move is dead.
    pub fn run(
        &mut self,
        sandbox: &Sandbox,
        command: &CommandLine,
        input: &[u8],
        limits: &Limits,
    ) -> Run {
        if sandbox.launcher().is_none() {
            return run_process(sandbox, command, input, limits);
        }
        if let Some(jail) = &mut self.jail {
            // A jail that died between moves (its launcher is bound to the thread that
            // started it: a game moved to another thread) is replaced, not held against
            // the bot.
            jail.take_stale();
        }
        if self
            .jail
            .as_ref()
            .is_some_and(|j| j.broken || j.command != *command || j.memory != limits.memory)
        {
            self.jail = None;
        }
        for _ in 0..2 {
            if self.jail.is_none() {
                match GameJail::start(sandbox, command, limits) {
                    Ok(jail) => self.jail = Some(jail),
                    // No bot code ran yet: the failure is the machine's (bubblewrap, the
                    // launcher), so the move gets a jail of its own, as without a launcher;
                    // the sandbox says so once.
                    Err(e) => {
                        sandbox.game_jail_failed(&e);
                        break;
                    }
                }
            }
            match self
                .jail
                .as_mut()
                .expect("started above")
                .run(input, limits)
            {
                Some(run) => return run,
                // The jail was gone before the move started: a new one.
                None => self.jail = None,
            }
        }
        run_process(sandbox, command, input, limits)
    }

    /// Ends the game: the jail and everything in it are gone when this returns.
    pub fn finish(&mut self) {
        self.jail = None;
    }

    /// Whether the game's launcher is up, waiting for the next move (in the bot's jail, or
    /// without a jail as the keeper of the bot's processes).
    pub fn has_jail(&self) -> bool {
        self.jail.as_ref().is_some_and(|j| !j.broken)
    }
}

/// Something a move's process, or the launcher, did.
#[derive(Debug)]
enum Ev {
    Stdout(Vec<u8>),
    StdoutClosed,
    Stderr(Vec<u8>),
    StderrClosed,
    /// The move's main process ended (and its CPU time).
    Exited(ExitStatus, Duration),
    NotStarted(String),
    /// Every process of the move is gone.
    Clean,
    /// The launcher is gone (the jail died or was torn down).
    Gone,
}

/// An event for every move.
const ANY: u64 = u64::MAX;

/// One bot's jail for a whole game.
#[derive(Debug)]
struct GameJail {
    command: CommandLine,
    memory: u64,
    /// bubblewrap's outer process, the launcher's parent.
    monitor: Child,
    /// The referee's end of the launcher's socket.
    control: Arc<OwnedFd>,
    tx: Sender<(u64, Ev)>,
    events: Receiver<(u64, Ev)>,
    cgroup: Option<Cgroup>,
    scratch: PathBuf,
    moves: u64,
    /// The launcher is gone or did not answer: the jail is torn down.
    broken: bool,
}

impl GameJail {
    fn start(sandbox: &Sandbox, command: &CommandLine, limits: &Limits) -> std::io::Result<Self> {
        let Some(launcher) = sandbox.launcher() else {
            return Err(std::io::Error::other("no launcher"));
        };
        let n = next_id();
        let veil = sandbox.veil()?;
        let scratch = sandbox.new_scratch(&veil, n)?;
        let cgroup = sandbox.new_cgroup(n, limits.memory, Some(limits.cpus));
        let cleanup = |cgroup: Option<Cgroup>| {
            if let Some(cg) = cgroup {
                cg.remove();
            }
            let _ = std::fs::remove_dir_all(&scratch);
        };
        let made = (|| {
            // In the jail, bubblewrap runs the launcher as the jail's pid 1, bound from its
            // descriptor; without one, the launcher runs directly as the bot's keeper.
            let (mut cmd, inherited) = match sandbox.jail() {
                Some(jail) => {
                    let file = launcher.file()?;
                    let (mut cmd, setup) = jail.command(
                        &veil,
                        Some(&scratch),
                        sandbox.hidden(),
                        Some(file.as_raw_fd()),
                    )?;
                    cmd.arg(crate::jail::launcher_path(&veil));
                    (cmd, Some((setup, file)))
                }
                None => (std::process::Command::new(launcher.name()), None),
            };
            let (ours, theirs) = crate::launcher::control_pair()?;
            cmd.args(launcher.args())
                .arg(&command.program)
                .args(&command.args)
                .env_clear()
                .envs(sandbox.env().iter().map(|(k, v)| (k, v)))
                .env("HOME", &scratch)
                .stdin(Stdio::from(theirs))
                .stdout(Stdio::null())
                .stderr(Stdio::piped());
            let procs = match &cgroup {
                Some(cg) => cg.procs_files()?,
                None => Vec::new(),
            };
            let jailed = inherited.is_some();
            before_exec(
                &mut cmd,
                procs,
                cgroup.is_none().then_some(limits.memory),
                jailed,
            );
            if let Some((setup, file)) = inherited {
                inherit(&mut cmd, setup);
                inherit(&mut cmd, file);
            }
            let monitor = cmd.spawn()?;
            // The command holds the launcher's end of the socket: without it, the end of
            // file reaches the referee when the launcher is gone.
            drop(cmd);
            Ok::<_, std::io::Error>((monitor, ours))
        })();
        let (mut monitor, control) = match made {
            Ok(m) => m,
            Err(e) => {
                cleanup(cgroup);
                return Err(e);
            }
        };
        let stderr = monitor.stderr.take();
        if let Err(why) = hello(&control) {
            let _ = monitor.kill();
            let _ = monitor.wait();
            let mut text = String::new();
            if let Some(mut stderr) = stderr {
                let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
            }
            cleanup(cgroup);
            let text = text.trim();
            return Err(std::io::Error::other(if text.is_empty() {
                why
            } else {
                format!("{why}: {text}")
            }));
        }
        if let Some(mut stderr) = stderr {
            std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        }
        let control = Arc::new(control);
        let (tx, events) = mpsc::channel();
        read_replies(Arc::clone(&control), tx.clone());
        Ok(GameJail {
            command: command.clone(),
            memory: limits.memory,
            monitor,
            control,
            tx,
            events,
            cgroup,
            scratch,
            moves: 0,
            broken: false,
        })
    }

    /// Drops the events of earlier moves still queued, and notes a launcher that is gone.
    fn take_stale(&mut self) {
        while let Ok((_, ev)) = self.events.try_recv() {
            if matches!(ev, Ev::Gone) {
                self.broken = true;
            }
        }
    }

    /// One move; `None` when the jail was gone before the move started.
    fn run(&mut self, input: &[u8], limits: &Limits) -> Option<Run> {
        self.moves += 1;
        let n = self.moves;
        let pipes =
            (|| Ok::<_, std::io::Error>((std::io::pipe()?, std::io::pipe()?, std::io::pipe()?)))();
        let Ok(((in_r, in_w), (out_r, out_w), (err_r, err_w))) = pipes else {
            return Some(Run::not_started("cannot make pipes".into()));
        };
        let oom_before = self.cgroup.as_ref().map_or(0, Cgroup::oom_kills);
        let started = Instant::now();
        let sent = send_with_fds(
            self.control.as_fd(),
            format!("r{n}").as_bytes(),
            &[in_r.as_fd(), out_w.as_fd(), err_w.as_fd()],
        );
        drop((in_r, out_w, err_w));
        if sent.is_err() {
            self.teardown();
            return None;
        }
        pump(
            out_r,
            self.tx.clone(),
            move |b| (n, Ev::Stdout(b)),
            move || (n, Ev::StdoutClosed),
        );
        pump(
            err_r,
            self.tx.clone(),
            move |b| (n, Ev::Stderr(b)),
            move || (n, Ev::StderrClosed),
        );
        write_and_close(in_w, input);
        let deadline = started + limits.time;
        let mut out = Output::default();
        while out.end.is_none() {
            let wait = deadline.saturating_duration_since(Instant::now());
            match self.events.recv_timeout(wait) {
                Ok((m, ev)) if m == n || m == ANY => self.absorb(ev, limits, &mut out),
                Ok(_) => {}
                Err(_) => out.end = Some(RunEnd::TimedOut),
            }
        }
        let elapsed = started.elapsed();
        // Every process of the move dies, the main one too if it still runs.
        if !self.broken && send(self.control.as_fd(), format!("k{n}").as_bytes()).is_err() {
            self.broken = true;
        }
        let until = Instant::now() + CLEAN_TIMEOUT;
        while !out.clean && !self.broken {
            match self
                .events
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok((m, ev)) if m == n || m == ANY => self.absorb(ev, limits, &mut out),
                Ok(_) => {}
                Err(_) => self.broken = true,
            }
        }
        if self.broken {
            self.teardown();
        }
        let until = Instant::now() + LAST_OUTPUT;
        while out.closed < 2 {
            match self
                .events
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok((m, ev)) if m == n || m == ANY => self.absorb(ev, limits, &mut out),
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let mut end = out.end.expect("the loop ends with an end");
        if self.cgroup.as_ref().map_or(0, Cgroup::oom_kills) > oom_before {
            end = RunEnd::OutOfMemory;
        }
        out.stdout.truncate(limits.output);
        Some(Run {
            end,
            stdout: out.stdout,
            stderr_tail: out.stderr_tail,
            elapsed,
            cpu: out.cpu,
            cgroup: self.cgroup.is_some(),
        })
    }

    /// Takes one event in; the first that ends the move sets `out.end`.
    fn absorb(&mut self, ev: Ev, limits: &Limits, out: &mut Output) {
        let end = match ev {
            Ev::Stdout(bytes) => {
                out.stdout.extend_from_slice(&bytes);
                (out.stdout.len() > limits.output).then_some(RunEnd::OutputFlood)
            }
            Ev::Stderr(bytes) => {
                out.stderr_tail.extend_from_slice(&bytes);
                if out.stderr_tail.len() > STDERR_TAIL {
                    let cut = out.stderr_tail.len() - STDERR_TAIL;
                    out.stderr_tail.drain(..cut);
                }
                None
            }
            Ev::StdoutClosed | Ev::StderrClosed => {
                out.closed += 1;
                None
            }
            Ev::Exited(status, cpu) => {
                if out.end.is_none() {
                    out.cpu = Some(cpu);
                }
                Some(RunEnd::Exited(status))
            }
            Ev::NotStarted(why) => Some(RunEnd::NotStarted(why)),
            Ev::Clean => {
                out.clean = true;
                None
            }
            Ev::Gone => {
                // The launcher died (the memory controller killed the whole cgroup, or the
                // jail was torn down): the move's processes died with it.
                self.broken = true;
                Some(RunEnd::Exited(ExitStatus::from_raw(9)))
            }
        };
        if out.end.is_none() {
            out.end = end;
        }
    }

    /// Ends the jail. A working launcher sees the end of its socket, kills everything and
    /// exits, and bubblewrap with it: bubblewrap's exit means the namespace is empty (its
    /// init, the launcher, ends only when every process of its namespace is gone).
    /// Otherwise, and after 200 ms at most, bubblewrap's outer process is killed, and the
    /// launcher, its child, dies of `--die-with-parent`, taking its namespace along.
    /// Everything in the cgroup is killed last.
    fn teardown(&mut self) {
        let graceful = !self.broken;
        self.broken = true;
        let _ = rustix::net::shutdown(self.control.as_fd(), rustix::net::Shutdown::Both);
        if graceful {
            let until = Instant::now() + Duration::from_millis(200);
            while matches!(self.monitor.try_wait(), Ok(None)) && Instant::now() < until {
                std::thread::sleep(Duration::from_micros(200));
            }
        }
        let _ = self.monitor.kill();
        let _ = self.monitor.wait();
        if let Some(cg) = &self.cgroup {
            cg.kill_all();
        }
    }
}

impl Drop for GameJail {
    fn drop(&mut self) {
        self.teardown();
        if let Some(cg) = self.cgroup.take() {
            cg.remove();
        }
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

/// What a move produced so far.
#[derive(Default)]
struct Output {
    end: Option<RunEnd>,
    stdout: Vec<u8>,
    stderr_tail: Vec<u8>,
    cpu: Option<Duration>,
    /// The launcher said that nothing of the move is left.
    clean: bool,
    /// How many of stdout and stderr reached their end.
    closed: u8,
}

/// Waits for the launcher's `h`.
pub(crate) fn hello(control: &OwnedFd) -> Result<(), String> {
    match reply_within(control, START_TIMEOUT)? {
        reply if reply == b"h" => Ok(()),
        _ => Err("the jail did not start".into()),
    }
}

/// The launcher's next message, waited for at most `timeout` (empty when it is gone).
pub(crate) fn reply_within(control: &OwnedFd, timeout: Duration) -> Result<Vec<u8>, String> {
    use rustix::event::{PollFd, PollFlags, poll};
    let until = Instant::now() + timeout;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err("the jail's launcher did not start in time".into());
        }
        let timeout = rustix::time::Timespec {
            tv_sec: left.as_secs() as i64,
            tv_nsec: i64::from(left.subsec_nanos()),
        };
        let mut fds = [PollFd::new(control, PollFlags::IN)];
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => break,
            Err(e) => return Err(format!("cannot wait for the jail: {e}")),
        }
    }
    let mut buf = [0u8; 512];
    match rustix::net::recv(control, &mut buf[..], rustix::net::RecvFlags::empty()) {
        Ok((len, _)) => Ok(buf[..len.min(buf.len())].to_vec()),
        Err(e) => Err(format!("cannot hear from the jail: {e}")),
    }
}

/// Passes the launcher's answers to `tx`, tagged with their move, until it is gone.
fn read_replies(control: Arc<OwnedFd>, tx: Sender<(u64, Ev)>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 512];
        loop {
            let len = match rustix::net::recv(
                control.as_fd(),
                &mut buf[..],
                rustix::net::RecvFlags::empty(),
            ) {
                Ok((len, _)) if len > 0 => len.min(buf.len()),
                Err(rustix::io::Errno::INTR) => continue,
                _ => {
                    let _ = tx.send((ANY, Ev::Gone));
                    return;
                }
            };
            let text = String::from_utf8_lossy(&buf[1..len]).into_owned();
            let m = number(text.as_bytes());
            let mut words = text.split(' ').skip(1);
            let ev = match buf[0] {
                b'x' => {
                    let status = words.next().and_then(|w| w.parse().ok()).unwrap_or(9);
                    let cpu = words.next().and_then(|w| w.parse().ok()).unwrap_or(0);
                    Ev::Exited(ExitStatus::from_raw(status), Duration::from_micros(cpu))
                }
                b'e' => Ev::NotStarted(text.split_once(' ').map_or("", |(_, w)| w).to_string()),
                b'c' => Ev::Clean,
                _ => continue,
            };
            if tx.send((m, ev)).is_err() {
                return;
            }
        }
    });
}

/// Writes the move's input and closes the pipe, without ever blocking the referee: input
/// larger than a pipe surely holds is written by a thread of its own.
fn write_and_close(mut stdin: std::io::PipeWriter, input: &[u8]) {
    const SURELY_FITS: usize = 4096;
    if input.len() <= SURELY_FITS {
        let _ = stdin.write_all(input);
    } else {
        let input = input.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
}
