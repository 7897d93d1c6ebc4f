//! The process layer: start a bot program under limits, talk to it through pipes, and make
//! sure that it and everything it started are gone afterwards.
//!
//! A [`BotProcess`] is one running program. The per-move exchange starts one per move, writes
//! the state, closes stdin and waits for the exit ([`run_once`]); a persistent exchange (the
//! AI Challenge) keeps one for the whole game, writing a turn and reading until its `go`
//! through the same [`BotProcess::write`] and [`BotProcess::next_event`].
//!
//! Limits:
//! * wall time: the caller's deadline, after which the whole process group is killed;
//! * memory: a cgroup (v2, else v1) per process when one can be created, which also catches
//!   children that leave the process group; otherwise `RLIMIT_AS`;
//! * output: stdout beyond the limit kills the process; stderr keeps only its tail.
//!
//! Every bot runs in a process group of its own, and [`BotProcess::kill`] kills the group and
//! the cgroup, so a child the bot forked never outlives it.

use std::io::{Read, Write};
use std::os::unix::fs::DirBuilderExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Resource, Rlimit, Signal};

/// How many bytes of a bot's stderr a replay keeps.
pub const STDERR_TAIL: usize = 2048;

/// The limits of one bot process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall time for one move (per-move exchange) or one turn (persistent).
    pub time: Duration,
    /// Memory of the bot and its children, in bytes.
    pub memory: u64,
    /// Most bytes the bot may write on stdout in one move.
    pub output: usize,
}

impl Default for Limits {
    /// HackerEarth's: 1 s per move and 256 MB; 64 KiB of output.
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(1),
            memory: 256 << 20,
            output: 64 << 10,
        }
    }
}

/// A command line that runs a bot: the program and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// The program, found through `PATH` when it has no slash.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// A bot's program that cannot be started: no such file, not executable, or not on `PATH`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot run {program:?}: {reason}")]
pub struct MissingProgramError {
    /// The program as given.
    pub program: String,
    /// What is wrong, and how to fix it.
    pub reason: String,
}

impl CommandLine {
    /// Checks, before any game starts, that the program can be started: a name with a slash
    /// must be an executable file; a bare name must be one in a folder of `path` (the
    /// caller's `PATH`, since a library does not read the environment).
    ///
    /// # Errors
    /// A [`MissingProgramError`] saying what is wrong.
    pub fn check_program(&self, path: Option<&std::ffi::OsStr>) -> Result<(), MissingProgramError> {
        use std::os::unix::fs::PermissionsExt;
        let err = |reason: String| MissingProgramError {
            program: self.program.clone(),
            reason,
        };
        let executable = |p: &std::path::Path| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        };
        if self.program.contains('/') {
            let p = std::path::Path::new(&self.program);
            return match std::fs::metadata(p) {
                Err(e) => Err(err(format!(
                    "{e}; check the path (relative paths start from the current folder)"
                ))),
                Ok(m) if !m.is_file() => Err(err("it is not a file".into())),
                Ok(_) if !executable(p) => Err(err(format!(
                    "it is not executable; run `chmod +x {}` or name its interpreter (`python3 {}`)",
                    self.program, self.program
                ))),
                Ok(_) => Ok(()),
            };
        }
        let found = path
            .map(|p| std::env::split_paths(p).any(|dir| executable(&dir.join(&self.program))))
            .unwrap_or(false);
        if found {
            Ok(())
        } else {
            Err(err(format!(
                "no program of that name on PATH; give its path (`./{}`) or install it",
                self.program
            )))
        }
    }
}

/// A command line with an unbalanced quote, or none at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read the command line {text:?}: {reason}")]
pub struct ParseCommandError {
    /// The text as given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl std::str::FromStr for CommandLine {
    type Err = ParseCommandError;

    /// Splits into words as a POSIX shell does (`shlex`): `'...'` and `"..."` group words,
    /// a backslash escapes; no variables, globs or pipes (the program runs directly).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason: &str| ParseCommandError {
            text: text.to_string(),
            reason: reason.to_string(),
        };
        let words = shlex::split(text)
            .ok_or_else(|| err("a quote is not closed, or a backslash ends it"))?;
        let mut words = words.into_iter();
        let program = words.next().ok_or_else(|| err("it is empty"))?;
        Ok(CommandLine {
            program,
            args: words.collect(),
        })
    }
}

/// How memory is limited on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemoryGuard {
    /// A cgroup v2 per process, created under this directory.
    CgroupV2(PathBuf),
    /// A cgroup v1 (memory controller) per process, created under this directory.
    CgroupV1(PathBuf),
    /// `RLIMIT_AS` on the bot's own address space (children get their own).
    Rlimit,
}

/// Where bot processes are started: the memory guard in force, found once.
#[derive(Debug)]
pub struct Sandbox {
    guard: MemoryGuard,
    /// The whole environment a bot gets: nothing of the referee's is inherited.
    env: Vec<(String, String)>,
    /// Where each bot process gets its own fresh HOME folder, removed when it ends.
    scratch_root: PathBuf,
}

/// A bot's PATH when the caller gives none.
pub const DEFAULT_BOT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Numbers the cgroups of this process: unique across sandboxes, which may run at once.
static NEXT_CGROUP: AtomicU64 = AtomicU64::new(0);

impl Sandbox {
    /// Finds the best memory guard this machine allows: a cgroup v2 directory where the
    /// memory controller is delegated, else a cgroup v1 memory hierarchy this process may
    /// write, else rlimits.
    pub fn detect() -> Sandbox {
        let guard = probe_v2()
            .map(MemoryGuard::CgroupV2)
            .or_else(|| probe_v1().map(MemoryGuard::CgroupV1))
            .unwrap_or(MemoryGuard::Rlimit);
        if let MemoryGuard::CgroupV1(base) | MemoryGuard::CgroupV2(base) = &guard {
            remove_stale_cgroups(base);
        }
        Sandbox::with_guard(guard)
    }

    /// A sandbox with the given guard (tests use [`MemoryGuard::Rlimit`] to check the fallback).
    pub fn with_guard(guard: MemoryGuard) -> Sandbox {
        mark_inherited_descriptors_close_on_exec();
        Sandbox {
            guard,
            env: vec![
                ("PATH".into(), DEFAULT_BOT_PATH.into()),
                ("LANG".into(), "C.UTF-8".into()),
            ],
            scratch_root: PathBuf::from("/tmp"),
        }
    }

    /// Sets the variables bots see, besides `HOME` (their scratch folder): the contest's
    /// (`PATH`, `LANG`) and the ones the user passed (`--bot-env`). A later entry of the
    /// same name replaces an earlier one; nothing else of the referee's environment (its
    /// tokens, its database path) reaches a bot.
    pub fn with_env(mut self, vars: impl IntoIterator<Item = (String, String)>) -> Sandbox {
        for (key, value) in vars {
            self.env.retain(|(k, _)| *k != key);
            self.env.push((key, value));
        }
        self
    }

    /// Puts the bots' scratch folders under `root` instead of `/tmp`.
    pub fn with_scratch_root(mut self, root: PathBuf) -> Sandbox {
        self.scratch_root = root;
        self
    }

    /// The memory guard in force.
    pub fn guard(&self) -> &MemoryGuard {
        &self.guard
    }

    /// Whether memory is limited by cgroups (exact out-of-memory verdicts) rather than rlimits.
    pub fn has_cgroup(&self) -> bool {
        !matches!(self.guard, MemoryGuard::Rlimit)
    }

    /// Starts `command` under `limits`, in its own process group (and cgroup when there is
    /// one), with all three standard streams piped.
    ///
    /// # Errors
    /// The I/O error when the program cannot be started (not found, not executable).
    pub fn spawn(&self, command: &CommandLine, limits: &Limits) -> std::io::Result<BotProcess> {
        let cgroup = match &self.guard {
            MemoryGuard::Rlimit => None,
            guard => {
                let n = NEXT_CGROUP.fetch_add(1, Ordering::Relaxed);
                Cgroup::create(guard, n, limits.memory).ok()
            }
        };
        let n = NEXT_SCRATCH.fetch_add(1, Ordering::Relaxed);
        let scratch = self
            .scratch_root
            .join(format!("ply-bot-{}-{n}", std::process::id()));
        std::fs::DirBuilder::new().mode(0o700).create(&scratch)?;
        let mut cmd = Command::new(&command.program);
        cmd.args(&command.args)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("HOME", &scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let procs = match &cgroup {
            Some(cg) => Some(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(cg.dir.join("cgroup.procs"))?,
            ),
            None => None,
        };
        let address_space = cgroup.is_none().then_some(limits.memory);
        before_exec(&mut cmd, procs, address_space);
        let started = Instant::now();
        let mut child = match cmd.spawn() {
            Ok(child) => child,
            Err(e) => {
                if let Some(cg) = cgroup {
                    cg.remove();
                }
                let _ = std::fs::remove_dir_all(&scratch);
                return Err(e);
            }
        };
        let pid = Pid::from_raw(child.id() as i32).expect("a child's pid is positive");
        let (tx, rx) = mpsc::channel();
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr = child.stderr.take().expect("piped");
        pump(stdout, tx.clone(), Event::Stdout, Event::StdoutClosed);
        pump(stderr, tx.clone(), Event::Stderr, |_| Event::StderrClosed);
        wait_in_background(child, tx);
        Ok(BotProcess {
            pid,
            stdin,
            events: rx,
            cgroup,
            started,
            status: None,
            killed: false,
            scratch: Some(scratch),
        })
    }
}

/// Numbers the scratch folders of this process.
static NEXT_SCRATCH: AtomicU64 = AtomicU64::new(0);

/// Marks every descriptor above 2 that this process holds close-on-exec, so that no bot
/// inherits one its referee's own parent left open (a database, a socket). Descriptors Rust
/// opens are close-on-exec already; this covers the inherited ones, once per sandbox.
#[allow(unsafe_code)]
fn mark_inherited_descriptors_close_on_exec() {
    let Ok(entries) = std::fs::read_dir("/proc/self/fd") else {
        return;
    };
    let fds: Vec<i32> = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd > 2)
        .collect();
    for fd in fds {
        // SAFETY: the descriptor is only borrowed for one fcntl; a number that was the
        // read_dir's own (now closed) makes fcntl fail with EBADF, which is ignored.
        let fd = unsafe { rustix::fd::BorrowedFd::borrow_raw(fd) };
        if let Ok(flags) = rustix::io::fcntl_getfd(fd) {
            let _ = rustix::io::fcntl_setfd(fd, flags | rustix::io::FdFlags::CLOEXEC);
        }
    }
}

/// Sets the limits in the child between `fork` and `exec`.
///
/// This is the one place in ply that needs `unsafe`: `pre_exec` runs in the forked child,
/// where only async-signal-safe calls are allowed. The closure makes two raw system calls
/// through rustix (`write` on a descriptor opened before the fork, and `setrlimit`) and
/// allocates nothing. Joining the cgroup here, rather than after `spawn` returns, means the
/// bot never runs a single instruction outside its memory limit.
#[allow(unsafe_code)]
fn before_exec(cmd: &mut Command, procs: Option<std::fs::File>, address_space: Option<u64>) {
    // SAFETY: see above; `procs` moves into the closure and stays open until the parent drops
    // the command, after the fork.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(file) = &procs {
                // "0" moves the writing process, which is the child.
                rustix::io::write(file, b"0")?;
            }
            if let Some(bytes) = address_space {
                let limit = Rlimit {
                    current: Some(bytes),
                    maximum: Some(bytes),
                };
                rustix::process::setrlimit(Resource::As, limit)?;
            }
            let no_core = Rlimit {
                current: Some(0),
                maximum: Some(0),
            };
            rustix::process::setrlimit(Resource::Core, no_core)?;
            Ok(())
        });
    }
}

fn pump<R: Read + Send + 'static>(
    mut from: R,
    tx: Sender<Event>,
    data: fn(Vec<u8>) -> Event,
    closed: fn(()) -> Event,
) {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16 << 10];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(closed(()));
                    return;
                }
                Ok(n) => {
                    if tx.send(data(buf[..n].to_vec())).is_err() {
                        return;
                    }
                }
            }
        }
    });
}

fn wait_in_background(mut child: Child, tx: Sender<Event>) {
    std::thread::spawn(move || {
        if let Ok(status) = child.wait() {
            let _ = tx.send(Event::Exited(status));
        }
    });
}

/// Something a running bot did.
#[derive(Debug)]
pub enum Event {
    /// Bytes on stdout.
    Stdout(Vec<u8>),
    /// Stdout reached its end (every holder closed it).
    StdoutClosed(()),
    /// Bytes on stderr.
    Stderr(Vec<u8>),
    /// Stderr reached its end.
    StderrClosed,
    /// The bot's main process ended.
    Exited(ExitStatus),
}

/// One running bot program.
#[derive(Debug)]
pub struct BotProcess {
    pid: Pid,
    stdin: Option<ChildStdin>,
    events: Receiver<Event>,
    cgroup: Option<Cgroup>,
    started: Instant,
    status: Option<ExitStatus>,
    killed: bool,
    /// The bot's HOME, removed when the process is dropped.
    scratch: Option<PathBuf>,
}

impl BotProcess {
    /// Writes `bytes` to the bot's stdin. A bot that exited or closed its stdin is not an
    /// error here: its verdict comes from what it did.
    pub fn write(&mut self, bytes: &[u8]) {
        if let Some(stdin) = &mut self.stdin
            && stdin.write_all(bytes).and_then(|()| stdin.flush()).is_err()
        {
            self.stdin = None;
        }
    }

    /// Takes the bot's stdin, for a caller that writes from a thread of its own (a
    /// persistent bot's input must never block the referee while the bot is stopped).
    pub fn take_stdin(&mut self) -> Option<ChildStdin> {
        self.stdin.take()
    }

    /// Stops the whole process group (`SIGSTOP`), as the AI Challenge paused bots between
    /// their turns.
    pub fn pause(&self) {
        let _ = rustix::process::kill_process_group(self.pid, Signal::STOP);
    }

    /// Lets a paused process group run again (`SIGCONT`).
    pub fn resume(&self) {
        let _ = rustix::process::kill_process_group(self.pid, Signal::CONT);
    }

    /// Closes the bot's stdin, so that it sees the end of its input.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Writes `bytes` and closes stdin, without ever blocking: input larger than a pipe
    /// surely holds is written by a thread of its own, so that a bot that never reads its
    /// stdin cannot stall the referee past its deadline.
    pub fn write_all_and_close(&mut self, bytes: &[u8]) {
        const SURELY_FITS: usize = 4096; // POSIX's PIPE_BUF; Linux pipes hold 64 KiB
        if bytes.len() <= SURELY_FITS {
            self.write(bytes);
            self.close_stdin();
        } else if let Some(mut stdin) = self.stdin.take() {
            let bytes = bytes.to_vec();
            std::thread::spawn(move || {
                let _ = stdin.write_all(&bytes);
            });
        }
    }

    /// The next event before `deadline`, or `None` when the deadline passed (or the bot is
    /// gone and every stream is closed).
    pub fn next_event(&mut self, deadline: Instant) -> Option<Event> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(event) => {
                if let Event::Exited(status) = &event {
                    self.status = Some(*status);
                }
                Some(event)
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Time since the process was started.
    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }

    /// The exit status, once the main process has ended.
    pub fn status(&self) -> Option<ExitStatus> {
        self.status
    }

    /// Whether the memory guard saw the bot run out of memory (cgroups only).
    pub fn out_of_memory(&self) -> bool {
        self.cgroup.as_ref().is_some_and(Cgroup::oom_killed)
    }

    /// Kills the process group and everything in the cgroup, then waits for the main process.
    pub fn kill(&mut self) {
        self.killed = true;
        let _ = rustix::process::kill_process_group(self.pid, Signal::KILL);
        if let Some(cg) = &self.cgroup {
            cg.kill_all();
        }
        while self.status.is_none() {
            match self.events.recv_timeout(Duration::from_secs(5)) {
                Ok(Event::Exited(status)) => self.status = Some(status),
                Ok(_) => {}
                Err(_) => break,
            }
        }
    }

    /// The events still queued, up to `grace` (streams held open by escaped children are
    /// not waited for longer).
    pub fn drain(&mut self, grace: Duration) -> Vec<Event> {
        let deadline = Instant::now() + grace;
        let mut out = Vec::new();
        while let Some(e) = self.next_event(deadline) {
            out.push(e);
        }
        out
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        if !self.killed || self.status.is_none() {
            self.kill();
        } else {
            // Children forked after the last kill.
            let _ = rustix::process::kill_process_group(self.pid, Signal::KILL);
        }
        if let Some(cg) = self.cgroup.take() {
            cg.remove();
        }
        if let Some(dir) = self.scratch.take() {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// How a run of a per-move bot ended, before its output is judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// The process exited by itself with this status.
    Exited(ExitStatus),
    /// Still running at the deadline; killed.
    TimedOut,
    /// Wrote more than the output limit; killed.
    OutputFlood,
    /// Killed by the memory guard.
    OutOfMemory,
    /// Could not be started.
    NotStarted(String),
}

/// What one run of a per-move bot produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// How it ended.
    pub end: RunEnd,
    /// Everything it wrote on stdout (at most the output limit).
    pub stdout: Vec<u8>,
    /// The last [`STDERR_TAIL`] bytes of its stderr.
    pub stderr_tail: Vec<u8>,
    /// From start to exit (or to the kill).
    pub elapsed: Duration,
}

/// Runs `command` once with `input` on stdin, under `limits`: the per-move exchange.
/// Never panics on anything the bot does, and returns only when the bot and its children
/// are dead.
pub fn run_once(sandbox: &Sandbox, command: &CommandLine, input: &[u8], limits: &Limits) -> Run {
    let mut process = match sandbox.spawn(command, limits) {
        Ok(p) => p,
        Err(e) => {
            return Run {
                end: RunEnd::NotStarted(e.to_string()),
                stdout: Vec::new(),
                stderr_tail: Vec::new(),
                elapsed: Duration::ZERO,
            };
        }
    };
    let deadline = process.started + limits.time;
    process.write_all_and_close(input);
    let mut stdout = Vec::new();
    let mut stderr_tail = Vec::new();
    let mut end = None;
    while end.is_none() {
        match process.next_event(deadline) {
            None => end = Some(RunEnd::TimedOut),
            Some(event) => {
                if let Some(e) = absorb(event, limits, &mut stdout, &mut stderr_tail) {
                    end = Some(e);
                }
            }
        }
    }
    let elapsed = process.elapsed();
    process.kill();
    for event in process.drain(Duration::from_millis(50)) {
        absorb(event, limits, &mut stdout, &mut stderr_tail);
    }
    let mut end = end.expect("loop ends with an end");
    if process.out_of_memory() {
        end = RunEnd::OutOfMemory;
    }
    stdout.truncate(limits.output);
    Run {
        end,
        stdout,
        stderr_tail,
        elapsed,
    }
}

/// Takes one event into the buffers; `Some` when it ends the run.
fn absorb(
    event: Event,
    limits: &Limits,
    stdout: &mut Vec<u8>,
    stderr_tail: &mut Vec<u8>,
) -> Option<RunEnd> {
    match event {
        Event::Stdout(bytes) => {
            stdout.extend_from_slice(&bytes);
            (stdout.len() > limits.output).then_some(RunEnd::OutputFlood)
        }
        Event::Stderr(bytes) => {
            stderr_tail.extend_from_slice(&bytes);
            if stderr_tail.len() > STDERR_TAIL {
                let cut = stderr_tail.len() - STDERR_TAIL;
                stderr_tail.drain(..cut);
            }
            None
        }
        Event::Exited(status) => Some(RunEnd::Exited(status)),
        Event::StdoutClosed(()) | Event::StderrClosed => None,
    }
}

/// An exit status in words: `exit code 3`, `killed by signal 11 (SIGSEGV)`.
pub fn describe_status(status: ExitStatus) -> String {
    if let Some(code) = status.code() {
        format!("exit code {code}")
    } else if let Some(sig) = status.signal() {
        let name = match sig {
            4 => " (SIGILL)",
            6 => " (SIGABRT)",
            8 => " (SIGFPE)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            13 => " (SIGPIPE)",
            15 => " (SIGTERM)",
            _ => "",
        };
        format!("killed by signal {sig}{name}")
    } else {
        "ended without status".to_string()
    }
}

/// One cgroup holding one bot process and its children.
#[derive(Debug)]
struct Cgroup {
    dir: PathBuf,
    v2: bool,
}

impl Cgroup {
    fn create(guard: &MemoryGuard, n: u64, memory: u64) -> std::io::Result<Cgroup> {
        let (base, v2) = match guard {
            MemoryGuard::CgroupV2(b) => (b, true),
            MemoryGuard::CgroupV1(b) => (b, false),
            MemoryGuard::Rlimit => return Err(std::io::ErrorKind::Unsupported.into()),
        };
        let dir = base.join(format!("ply-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir)?;
        let cg = Cgroup { dir, v2 };
        let limit = memory.to_string();
        let written = if v2 {
            std::fs::write(cg.dir.join("memory.max"), &limit).map(|()| {
                // Without swap the limit is the limit; not every kernel has these files.
                let _ = std::fs::write(cg.dir.join("memory.swap.max"), "0");
                let _ = std::fs::write(cg.dir.join("memory.oom.group"), "1");
            })
        } else {
            std::fs::write(cg.dir.join("memory.limit_in_bytes"), &limit).map(|()| {
                let _ = std::fs::write(cg.dir.join("memory.memsw.limit_in_bytes"), &limit);
            })
        };
        match written {
            Ok(()) => Ok(cg),
            Err(e) => {
                cg.remove();
                Err(e)
            }
        }
    }

    fn oom_killed(&self) -> bool {
        let (file, key) = if self.v2 {
            ("memory.events", "oom_kill")
        } else {
            ("memory.oom_control", "oom_kill")
        };
        std::fs::read_to_string(self.dir.join(file))
            .ok()
            .and_then(|text| {
                text.lines().find_map(|l| {
                    let (k, v) = l.split_once(' ')?;
                    (k == key).then(|| v.trim().parse::<u64>().ok()).flatten()
                })
            })
            .is_some_and(|n| n > 0)
    }

    fn pids(&self) -> Vec<i32> {
        std::fs::read_to_string(self.dir.join("cgroup.procs"))
            .map(|t| t.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default()
    }

    fn kill_all(&self) {
        if self.v2 && std::fs::write(self.dir.join("cgroup.kill"), "1").is_ok() {
            return;
        }
        // A fork racing the kill can add a process, so go round until the group is empty.
        for _ in 0..100 {
            let pids = self.pids();
            if pids.is_empty() {
                return;
            }
            for pid in pids {
                if let Some(pid) = Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(pid, Signal::KILL);
                }
            }
        }
    }

    /// Removes the directory once its processes are gone (they leave it as they die).
    fn remove(self) {
        for attempt in 0..200 {
            if std::fs::remove_dir(&self.dir).is_ok() || !self.dir.exists() {
                return;
            }
            self.kill_all();
            std::thread::sleep(Duration::from_micros(50 * (attempt + 1)));
        }
    }
}

/// The directory of this process's own cgroup in the hierarchy mounted at `mount`, for the
/// `/proc/self/cgroup` line whose controllers satisfy `wanted`.
fn own_cgroup(mount: &Path, wanted: impl Fn(&str) -> bool) -> Option<PathBuf> {
    let text = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    text.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        wanted(controllers).then(|| mount.join(path.trim_start_matches('/')))
    })
}

/// Mount points of cgroup file systems: (type, mount point, super options).
fn cgroup_mounts() -> Vec<(String, PathBuf, String)> {
    let Ok(text) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let mount = left.split(' ').nth(4)?;
            let mut r = right.split(' ');
            let fstype = r.next()?;
            let _source = r.next()?;
            let options = r.next().unwrap_or("");
            fstype.starts_with("cgroup").then(|| {
                (
                    fstype.to_string(),
                    PathBuf::from(mount),
                    options.to_string(),
                )
            })
        })
        .collect()
}

/// Removes the empty cgroups left by a referee that was killed (`kill -9`) before it could
/// remove them: `ply-PID-N` where no process PID runs any more.
fn remove_stale_cgroups(base: &Path) {
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("ply-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            // Fails, harmlessly, while a process is still inside.
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

fn probe(base: PathBuf, limit_file: &str) -> Option<PathBuf> {
    let dir = base.join(format!("ply-probe-{}", std::process::id()));
    std::fs::create_dir(&dir).ok()?;
    let ok = std::fs::write(dir.join(limit_file), (64u64 << 20).to_string()).is_ok();
    let _ = std::fs::remove_dir(&dir);
    ok.then_some(base)
}

fn probe_v2() -> Option<PathBuf> {
    cgroup_mounts()
        .into_iter()
        .filter(|(t, _, _)| t == "cgroup2")
        .find_map(|(_, mount, _)| {
            let base = own_cgroup(&mount, |c| c.is_empty())?;
            let controls = std::fs::read_to_string(base.join("cgroup.subtree_control")).ok()?;
            if !controls.split_whitespace().any(|c| c == "memory") {
                return None;
            }
            probe(base, "memory.max")
        })
}

fn probe_v1() -> Option<PathBuf> {
    cgroup_mounts()
        .into_iter()
        .filter(|(t, _, opts)| t == "cgroup" && opts.split(',').any(|o| o == "memory"))
        .find_map(|(_, mount, _)| {
            let base = own_cgroup(&mount, |c| c.split(',').any(|x| x == "memory"))?;
            probe(base, "memory.limit_in_bytes")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        let c: CommandLine = "python3 'my bot.py' \"a \\\"b\\\"\" --x".parse().unwrap();
        assert_eq!(c.program, "python3");
        assert_eq!(c.args, vec!["my bot.py", "a \"b\"", "--x"]);
        assert!("python3 'open".parse::<CommandLine>().is_err());
        assert!("   ".parse::<CommandLine>().is_err());
    }
}
