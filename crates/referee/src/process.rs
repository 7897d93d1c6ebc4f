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
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Resource, Rlimit, Signal};

use crate::cgroup::{self, Cgroup, Controllers};
use crate::jail::{Jail, JailReport, JailRequiredError, Missing};
use crate::launcher::Launcher;
use crate::reaper::Reaper;

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
    /// CPUs the bot's whole process tree may use at once, where a game's cgroup can limit
    /// them (a game jail's, a persistent bot's; `Sandbox::limits_cpu`): a quota of this many
    /// periods per period, so a bot of two threads with 1 gets one CPU between them.
    pub cpus: u32,
}

impl Default for Limits {
    /// HackerEarth's: 1 s per move and 256 MB; 64 KiB of output; one CPU.
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(1),
            memory: 256 << 20,
            output: 64 << 10,
            cpus: 1,
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

/// Where bot processes are started: the memory guard, the cgroup controllers and the jail in
/// force, found once.
#[derive(Debug)]
pub struct Sandbox {
    guard: MemoryGuard,
    controllers: Controllers,
    jail: Option<Jail>,
    /// Why there is no jail, when there is none.
    no_jail: Option<String>,
    /// The whole environment a bot gets: nothing of the referee's is inherited.
    env: Vec<(String, String)>,
    /// Where each bot process gets its own fresh HOME folder, removed when it ends.
    scratch_root: PathBuf,
    /// Paths no jailed bot may see (the arena database and its journal).
    hidden: Vec<PathBuf>,
    /// Most processes (and threads) a bot may have at once, where a pids controller exists.
    pids_max: u64,
    /// Names this sandbox's cgroups apart from other sandboxes' of the same process.
    id: u64,
    /// The program that starts each move's process inside a per-move bot's jail, which is
    /// then made once per game (`crate::launcher`); without it, a jail per move.
    launcher: Option<Launcher>,
    /// A game jail (or keeper) failed to start, and a warning said so.
    warned: std::sync::atomic::AtomicBool,
    /// A bot's cgroup could not be made, and a warning said so.
    cgroup_warned: std::sync::atomic::AtomicBool,
    /// Kills this sandbox's bots if the referee dies without doing it (`crate::reaper`):
    /// started with the first cgroup where there is a launcher; `None` when it could not be.
    reaper: std::sync::OnceLock<Option<Reaper>>,
}

/// Numbers the sandboxes of this process.
static NEXT_SANDBOX: AtomicU64 = AtomicU64::new(0);

/// A bot's PATH when the caller gives none.
pub const DEFAULT_BOT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The default of [`Sandbox::with_pids_max`]: enough for a bot with a thread pool, few
/// enough that a fork bomb stops at once.
pub const DEFAULT_PIDS_MAX: u64 = 256;

/// Numbers the cgroups of this process: unique across sandboxes, which may run at once.
static NEXT_CGROUP: AtomicU64 = AtomicU64::new(0);

impl Sandbox {
    /// Finds the best protection this machine allows: a cgroup v2 directory where the
    /// memory controller is delegated, else cgroup v1 hierarchies (memory, pids, freezer)
    /// this process may write, else rlimits; and the bubblewrap jail when it works here.
    /// Cleans up first what a referee killed with -9 left: its cgroups (and the processes
    /// still in them) and its bots' scratch folders.
    pub fn detect() -> Sandbox {
        let guard = cgroup::probe_v2()
            .map(MemoryGuard::CgroupV2)
            .or_else(|| cgroup::probe_v1().map(MemoryGuard::CgroupV1))
            .unwrap_or(MemoryGuard::Rlimit);
        let mut sandbox = Sandbox::with_guard(guard);
        sandbox.controllers.remove_stale();
        remove_stale_scratch(&sandbox.scratch_root);
        match Jail::probe() {
            Ok(jail) => {
                sandbox.jail = Some(jail);
                sandbox.no_jail = None;
            }
            Err(reason) => sandbox.no_jail = Some(reason),
        }
        sandbox
    }

    /// A sandbox with the given guard and no jail (tests use [`MemoryGuard::Rlimit`] to
    /// check the fallback); [`Sandbox::with_jail`] adds one.
    pub fn with_guard(guard: MemoryGuard) -> Sandbox {
        mark_inherited_descriptors_close_on_exec();
        let controllers = match &guard {
            MemoryGuard::CgroupV2(base) => Controllers::v2(base.clone()),
            MemoryGuard::CgroupV1(base) => Controllers::v1(base.clone()),
            MemoryGuard::Rlimit => Controllers::default(),
        };
        Sandbox {
            guard,
            controllers,
            jail: None,
            no_jail: Some("not asked for".into()),
            env: vec![
                ("PATH".into(), DEFAULT_BOT_PATH.into()),
                ("LANG".into(), "C.UTF-8".into()),
            ],
            scratch_root: PathBuf::from("/tmp"),
            hidden: Vec::new(),
            pids_max: DEFAULT_PIDS_MAX,
            id: NEXT_SANDBOX.fetch_add(1, Ordering::Relaxed),
            launcher: None,
            warned: std::sync::atomic::AtomicBool::new(false),
            cgroup_warned: std::sync::atomic::AtomicBool::new(false),
            reaper: std::sync::OnceLock::new(),
        }
    }

    /// Runs a per-move bot's moves of one game in one jail, started once, whose launcher
    /// (`launcher`, [`Launcher::this_program`] for a program that calls
    /// [`crate::launcher::serve_if_asked`]) starts each move's process; `None` makes a jail
    /// per move. Without a jail, the launcher runs directly as the keeper of the bot's
    /// processes for the game: a per-move bot's, and a persistent bot's where there is no
    /// cgroup either (`crate::launcher`).
    pub fn with_launcher(mut self, launcher: Option<Launcher>) -> Sandbox {
        self.launcher = launcher;
        self
    }

    /// The launcher of per-move bots' game jails, if any.
    pub fn launcher(&self) -> Option<&Launcher> {
        self.launcher.as_ref()
    }

    /// Says once (a `tracing` warning, the first time for this sandbox) that a per-move
    /// bot's game jail, or its keeper without a jail, could not start, so that its moves
    /// fall back to a process (and a jail) each.
    pub(crate) fn game_jail_failed(&self, why: &std::io::Error) {
        if self.warned.swap(true, Ordering::Relaxed) {
            return;
        }
        let launcher = self
            .launcher
            .as_ref()
            .map_or_else(String::new, |l| format!(" ({})", l.name().display()));
        if self.jail.is_some() {
            tracing::warn!(
                "a bot's game jail could not start{launcher}: {why}; its moves run in a jail \
                 each, which costs 8-10 ms per move (said once)"
            );
        } else {
            tracing::warn!(
                "a bot's keeper could not start{launcher}: {why}; its moves run as processes \
                 of their own, and without a cgroup a helper that leaves a move's process \
                 group survives it (said once)"
            );
        }
    }

    /// The variables bots see, besides `HOME`.
    pub(crate) fn env(&self) -> &[(String, String)] {
        &self.env
    }

    /// The paths no jailed bot may see.
    pub(crate) fn hidden(&self) -> &[PathBuf] {
        &self.hidden
    }

    /// Runs every bot in `jail` (or in none).
    pub fn with_jail(mut self, jail: Option<Jail>) -> Sandbox {
        self.no_jail = jail.is_none().then(|| "turned off".into());
        self.jail = jail;
        self
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

    /// Puts the bots' scratch folders under `root` instead of `/tmp` (in a folder of this
    /// sandbox's own, `ply-bots-PID-N`, which jailed bots see empty but for their own).
    pub fn with_scratch_root(mut self, root: PathBuf) -> Sandbox {
        self.scratch_root = root;
        self
    }

    /// Hides `path` (a file or a folder; the arena database, say) from every jailed bot: it
    /// sees an empty file or folder there. A database's `-wal`, `-shm` and `-journal`
    /// companions are hidden with it.
    pub fn hide(mut self, path: &Path) -> Sandbox {
        let path = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let mut p = path.clone().into_os_string();
            p.push(suffix);
            self.hidden.push(PathBuf::from(p));
        }
        self
    }

    /// Sets the most processes and threads a bot may have at once (where a pids controller
    /// exists).
    pub fn with_pids_max(mut self, pids: u64) -> Sandbox {
        self.pids_max = pids;
        self
    }

    /// The memory guard in force.
    pub fn guard(&self) -> &MemoryGuard {
        &self.guard
    }

    /// The jail bots run in, if any.
    pub fn jail(&self) -> Option<&Jail> {
        self.jail.as_ref()
    }

    /// Whether a game's cgroup limits the bot's whole tree to one CPU (a game jail's, a
    /// persistent bot's; not a cgroup of one move).
    pub fn limits_cpu(&self) -> bool {
        self.has_cgroup() && self.controllers.can_limit_cpu()
    }

    /// Whether memory is limited by cgroups (exact out-of-memory verdicts) rather than rlimits.
    pub fn has_cgroup(&self) -> bool {
        !matches!(self.guard, MemoryGuard::Rlimit)
    }

    fn cgroup_prefix(&self) -> String {
        format!("ply-{}-{}-", std::process::id(), self.id)
    }

    /// The cgroups of this sandbox that still exist: none once every [`BotProcess`] it
    /// started is dropped (tests check that nothing is left behind).
    pub fn leftovers(&self) -> Vec<PathBuf> {
        self.controllers.children(&self.cgroup_prefix())
    }

    /// The protections bots do not get here, for the caller to print once.
    pub fn report(&self) -> JailReport {
        let mut missing = Vec::new();
        if let Some(reason) = &self.no_jail {
            missing.push(Missing::Jail {
                reason: reason.clone(),
            });
        } else if self.jail.as_ref().is_some_and(|j| j.user().is_none()) {
            missing.push(Missing::SeparateUser);
        }
        if !self.has_cgroup() {
            missing.push(Missing::MemoryCgroup);
            // Without a pid namespace and a cgroup, only the launcher as the keeper kills a
            // helper that left its bot's process group.
            if self.jail.is_none() && self.launcher.is_none() {
                missing.push(Missing::Keeper);
            }
        }
        if !self.controllers.can_limit_pids() {
            missing.push(Missing::PidsLimit);
        }
        if !self.controllers.can_freeze() {
            missing.push(Missing::Freezer);
        }
        if !self.limits_cpu() {
            missing.push(Missing::CpuLimit);
        }
        JailReport { missing }
    }

    /// Checks, before any game, that a jailed bot can reach its program and the files its
    /// arguments name: when the jail runs bots as `nobody` (the referee is root), each must
    /// be readable (the program executable) by others, and the folders above it
    /// searchable. A bare program name is looked for in `path` as the jail's `execvp` does.
    ///
    /// # Errors
    /// A [`MissingProgramError`] naming the file and how to fix it.
    pub fn check_reachable(
        &self,
        command: &CommandLine,
        path: Option<&std::ffi::OsStr>,
    ) -> Result<(), MissingProgramError> {
        if self.jail.as_ref().and_then(Jail::user).is_none() {
            return Ok(());
        }
        let err = |file: &Path| MissingProgramError {
            program: command.program.clone(),
            reason: format!(
                "bots run as nobody in their jail, and nobody cannot reach {}: make it and \
                 the folders above it readable by others (chmod o+rx), or run ply as an \
                 ordinary user",
                file.display()
            ),
        };
        if command.program.contains('/') {
            let program = Path::new(&command.program);
            if !reachable_by_others(program, 0o001) {
                return Err(err(program));
            }
        } else if let Some(path) = path {
            let found: Vec<PathBuf> = std::env::split_paths(path)
                .map(|dir| dir.join(&command.program))
                .filter(|p| p.is_file())
                .collect();
            if !found.is_empty() && !found.iter().any(|p| reachable_by_others(p, 0o001)) {
                return Err(err(&found[0]));
            }
        }
        for arg in &command.args {
            let file = Path::new(arg);
            if file.is_file() && !reachable_by_others(file, 0o004) {
                return Err(err(file));
            }
        }
        Ok(())
    }

    /// Refuses a sandbox whose jail is not complete (`--require-jail`).
    ///
    /// # Errors
    /// A [`JailRequiredError`] with what is missing.
    pub fn require_jail(&self) -> Result<(), JailRequiredError> {
        let report = self.report();
        if report.is_complete() {
            Ok(())
        } else {
            Err(JailRequiredError { report })
        }
    }

    /// This sandbox's folder of scratch folders: `ply-bots-PID-N` under the scratch root,
    /// owned by the referee, `0711` (bubblewrap, running as `nobody`, must pass through it),
    /// so that no bot can list it; each scratch folder has an unguessable name, and a
    /// jailed bot sees this folder empty but for its own.
    pub(crate) fn veil(&self) -> std::io::Result<PathBuf> {
        let veil = self.veil_path();
        match std::fs::DirBuilder::new().mode(0o711).create(&veil) {
            Ok(()) => Ok(veil),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                let m = std::fs::symlink_metadata(&veil)?;
                if m.is_dir()
                    && std::os::unix::fs::MetadataExt::uid(&m)
                        == rustix::process::geteuid().as_raw()
                {
                    Ok(veil)
                } else {
                    Err(std::io::Error::other(format!(
                        "{} is not this user's folder",
                        veil.display()
                    )))
                }
            }
            Err(e) => Err(e),
        }
    }

    /// Starts `command` under `limits`, in a session and process group of its own (and its
    /// cgroup and jail when there are), with all three standard streams piped. The process
    /// is meant to last a game (a persistent bot): its cgroup also limits its tree to one
    /// CPU where there is a cpu controller.
    ///
    /// # Errors
    /// The I/O error when the program cannot be started (not found, not executable).
    pub fn spawn(&self, command: &CommandLine, limits: &Limits) -> std::io::Result<BotProcess> {
        self.spawn_process(command, limits, true)
    }

    /// [`Sandbox::spawn`]; `per_game` false for a process of one move (no CPU limit).
    fn spawn_process(
        &self,
        command: &CommandLine,
        limits: &Limits,
        per_game: bool,
    ) -> std::io::Result<BotProcess> {
        let n = next_id();
        let cgroup = self.new_cgroup(n, limits.memory, per_game.then_some(limits.cpus));
        // Neither a pid namespace nor a cgroup would take a helper that left the bot's
        // process group along: the bot runs under a keeper for the game.
        if per_game
            && cgroup.is_none()
            && self.jail.is_none()
            && let Some(launcher) = &self.launcher
        {
            return self.spawn_kept(launcher, command, limits, n);
        }
        let veil = self.veil()?;
        let scratch = self.new_scratch(&veil, n)?;
        let (mut cmd, setup) = match &self.jail {
            Some(jail) => {
                let (mut cmd, setup) = jail.command(&veil, Some(&scratch), &self.hidden, None)?;
                cmd.arg(&command.program);
                (cmd, Some(setup))
            }
            None => (Command::new(&command.program), None),
        };
        cmd.args(&command.args)
            .env_clear()
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .env("HOME", &scratch)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let procs = match &cgroup {
            Some(cg) => cg.procs_files()?,
            None => Vec::new(),
        };
        let address_space = cgroup.is_none().then_some(limits.memory);
        before_exec(&mut cmd, procs, address_space, true);
        if let Some(setup) = setup {
            inherit(&mut cmd, setup);
        }
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
        pump_outputs(stdout, stderr, &tx);
        wait_in_background(child, tx, self.jail.is_some());
        Ok(BotProcess {
            pid,
            stdin,
            events: rx,
            cgroup,
            started,
            status: None,
            killed: false,
            scratch: Some(scratch),
            keeper: None,
            stopped_by_signal: AtomicBool::new(false),
        })
    }

    /// [`Sandbox::spawn`] without a jail and without a cgroup: the launcher runs directly as
    /// the keeper of the bot's processes for the game (`crate::launcher`), their subreaper,
    /// and starts the bot as one move that lasts the game. A helper that leaves the bot's
    /// session is the keeper's, which kills it with the bot; when the referee dies, even of
    /// a `kill -9`, the keeper sees its socket end and kills every process of the bot.
    fn spawn_kept(
        &self,
        launcher: &Launcher,
        command: &CommandLine,
        limits: &Limits,
        n: u64,
    ) -> std::io::Result<BotProcess> {
        use std::os::fd::{AsFd, OwnedFd};
        let veil = self.veil()?;
        let scratch = self.new_scratch(&veil, n)?;
        let made = (|| {
            let (ours, theirs) = crate::launcher::control_pair()?;
            let mut cmd = Command::new(launcher.name());
            cmd.args(launcher.args())
                .arg(&command.program)
                .args(&command.args)
                .env_clear()
                .envs(self.env.iter().map(|(k, v)| (k, v)))
                .env("HOME", &scratch)
                .stdin(Stdio::from(theirs))
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // No parent-death signal for the keeper: it must outlive a referee killed with
            // -9 long enough to kill the bot's processes.
            before_exec(&mut cmd, Vec::new(), Some(limits.memory), false);
            let monitor = cmd.spawn()?;
            // The command holds the keeper's end of the socket.
            drop(cmd);
            let mut keeper = Keeper {
                monitor: Some(monitor),
                control: std::sync::Arc::new(ours),
            };
            let started = (|| {
                crate::moves::hello(&keeper.control).map_err(std::io::Error::other)?;
                let (in_r, in_w) = std::io::pipe()?;
                let (out_r, out_w) = std::io::pipe()?;
                let (err_r, err_w) = std::io::pipe()?;
                crate::launcher::send_with_fds(
                    keeper.control.as_fd(),
                    b"r1",
                    &[in_r.as_fd(), out_w.as_fd(), err_w.as_fd()],
                )?;
                drop((in_r, out_w, err_w));
                let reply =
                    crate::moves::reply_within(&keeper.control, crate::moves::START_TIMEOUT)
                        .map_err(std::io::Error::other)?;
                let text = String::from_utf8_lossy(reply.get(1..).unwrap_or_default());
                match reply.first() {
                    Some(b'p') => {
                        let pid = text
                            .split(' ')
                            .nth(1)
                            .and_then(|p| p.parse::<i32>().ok())
                            .and_then(Pid::from_raw)
                            .ok_or_else(|| std::io::Error::other("the keeper said no pid"))?;
                        Ok((pid, in_w, out_r, err_r))
                    }
                    Some(b'e') => Err(std::io::Error::other(
                        text.split_once(' ').map_or("", |(_, why)| why).to_string(),
                    )),
                    _ => Err(std::io::Error::other("the keeper did not start the bot")),
                }
            })();
            match started {
                Ok(parts) => Ok((keeper, parts)),
                Err(e) => {
                    keeper.end();
                    Err(e)
                }
            }
        })();
        let (keeper, (pid, stdin, stdout, stderr)) = match made {
            Ok(made) => made,
            Err(e) => {
                let _ = std::fs::remove_dir_all(&scratch);
                return Err(e);
            }
        };
        let started = Instant::now();
        let (tx, rx) = mpsc::channel();
        pump_outputs(stdout, stderr, &tx);
        keeper.report_exit(tx);
        Ok(BotProcess {
            pid,
            stdin: Some(ChildStdin::from(OwnedFd::from(stdin))),
            events: rx,
            cgroup: None,
            started,
            status: None,
            killed: false,
            scratch: Some(scratch),
            keeper: Some(keeper),
            stopped_by_signal: AtomicBool::new(false),
        })
    }
}

/// The keeper of a persistent bot's processes without a jail and without a cgroup: the
/// launcher, run directly, and the referee's end of its socket.
#[derive(Debug)]
struct Keeper {
    monitor: Option<Child>,
    control: std::sync::Arc<std::os::fd::OwnedFd>,
}

impl Keeper {
    /// Passes the bot's exit to `tx` (`xN`, the raw wait status), or a `SIGKILL` when the
    /// keeper is gone first (it kills the bot as it goes).
    fn report_exit(&self, tx: Sender<Event>) {
        let control = std::sync::Arc::clone(&self.control);
        std::thread::spawn(move || {
            use std::os::fd::AsFd;
            let mut buf = [0u8; 512];
            let status = loop {
                match rustix::net::recv(
                    control.as_fd(),
                    &mut buf[..],
                    rustix::net::RecvFlags::empty(),
                ) {
                    Err(rustix::io::Errno::INTR) => {}
                    Ok((len, _)) if len > 0 && buf[0] == b'x' => {
                        let text =
                            String::from_utf8_lossy(&buf[1..len.min(buf.len())]).into_owned();
                        break text
                            .split(' ')
                            .nth(1)
                            .and_then(|w| w.parse().ok())
                            .unwrap_or(9);
                    }
                    Ok((len, _)) if len > 0 => {}
                    _ => break 9,
                }
            };
            let _ = tx.send(Event::Exited(ExitStatus::from_raw(status)));
        });
    }

    /// Ends the game: the keeper sees its socket end, kills every process of the bot, reaps
    /// them all, and exits; this returns once it has (after 5 s, it is killed, its bot's
    /// main process with it through the parent-death signal).
    fn end(&mut self) {
        let _ = rustix::net::shutdown(&*self.control, rustix::net::Shutdown::Both);
        let Some(mut monitor) = self.monitor.take() else {
            return;
        };
        let until = Instant::now() + Duration::from_secs(5);
        while matches!(monitor.try_wait(), Ok(None)) && Instant::now() < until {
            std::thread::sleep(Duration::from_micros(500));
        }
        let _ = monitor.kill();
        let _ = monitor.wait();
    }
}

impl Drop for Keeper {
    fn drop(&mut self) {
        self.end();
    }
}

impl Sandbox {
    /// A cgroup for one process tree (numbered `n`) with the memory and process limits, when
    /// this machine has cgroups (`None` when it cannot be made).
    /// With `cpus` (a cgroup that lasts a game), the tree is also limited to that many CPUs
    /// (a CPU-limited v1 cgroup is too slow to make per move).
    pub(crate) fn new_cgroup(&self, n: u64, memory: u64, cpus: Option<u32>) -> Option<Cgroup> {
        if !self.has_cgroup() {
            return None;
        }
        self.start_reaper();
        let name = format!("{}{n}", self.cgroup_prefix());
        match Cgroup::create(&self.controllers, &name, memory, self.pids_max, cpus) {
            Ok(cg) => Some(cg),
            Err(e) => {
                self.cgroup_failed(&name, &e);
                None
            }
        }
    }

    /// Says once (a `tracing` warning, the first time for this sandbox) that a bot's cgroup
    /// could not be made, and what the bot gets instead: the bot still runs, its memory
    /// under an address-space rlimit (its verdicts judged as under [`MemoryGuard::Rlimit`]),
    /// without the cgroup's process-count and CPU limits and its freezer.
    fn cgroup_failed(&self, name: &str, why: &std::io::Error) {
        if self.cgroup_warned.swap(true, Ordering::Relaxed) {
            return;
        }
        let base = match &self.guard {
            MemoryGuard::CgroupV2(base) | MemoryGuard::CgroupV1(base) => base.display().to_string(),
            MemoryGuard::Rlimit => String::new(),
        };
        tracing::warn!(
            "a bot's cgroup {name} could not be made under {base}: {why}; that bot runs with \
             its memory limited by an address-space rlimit instead, without the cgroup's \
             process-count and CPU limits (check that this user may still create cgroups \
             there: cgroup.max.descendants, permissions; said once)"
        );
    }

    /// Starts the sandbox's reaper once, when there is a launcher to be it; a reaper that
    /// cannot start is warned about, and the bots then rely on the signals that end them
    /// with the referee (which a bot frozen by cgroup v1 does not act on).
    fn start_reaper(&self) {
        let Some(launcher) = &self.launcher else {
            return;
        };
        self.reaper.get_or_init(|| {
            let prefix = self.cgroup_prefix();
            match Reaper::start(launcher, &prefix, &self.veil_path(), &self.controllers) {
                Ok(reaper) => Some(reaper),
                Err(e) => {
                    tracing::warn!(
                        launcher = %launcher.name().display(),
                        "the reaper of the bots' cgroups could not start: {e}; a bot paused \
                         when ply is killed may stay frozen"
                    );
                    None
                }
            }
        });
    }

    /// This sandbox's folder of scratch folders ([`Sandbox::veil`]), made or not.
    fn veil_path(&self) -> PathBuf {
        self.scratch_root
            .join(format!("ply-bots-{}-{}", std::process::id(), self.id))
    }

    /// A fresh scratch folder (numbered `n`) under `veil`, owned by the jail's user.
    pub(crate) fn new_scratch(&self, veil: &Path, n: u64) -> std::io::Result<PathBuf> {
        let scratch = veil.join(format!("{n}-{:016x}", unguessable()));
        std::fs::DirBuilder::new().mode(0o700).create(&scratch)?;
        if let Some(uid) = self.jail.as_ref().and_then(Jail::user) {
            let id = Some(rustix::process::Uid::from_raw(uid));
            let gid = Some(rustix::process::Gid::from_raw(uid));
            if let Err(e) = rustix::fs::chown(&scratch, id, gid) {
                let _ = std::fs::remove_dir(&scratch);
                return Err(e.into());
            }
        }
        Ok(scratch)
    }
}

/// A number for a cgroup and a scratch folder, unique in this process.
pub(crate) fn next_id() -> u64 {
    NEXT_CGROUP.fetch_add(1, Ordering::Relaxed)
}

/// Whether a user other than the owner and group can reach `file` (every folder above it
/// searchable by others) and has the permission bits `mode` (others' bits) on it.
fn reachable_by_others(file: &Path, mode: u32) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Ok(file) = std::fs::canonicalize(file) else {
        return false;
    };
    let others = |p: &Path| std::fs::metadata(p).map(|m| m.permissions().mode() & 0o007);
    file.ancestors()
        .skip(1)
        .all(|dir| others(dir).is_ok_and(|bits| bits & 0o001 != 0))
        && others(&file).is_ok_and(|bits| bits & mode == mode)
}

/// A random number, from the standard library's per-process hash keys (no dependency for
/// one name).
fn unguessable() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(NEXT_CGROUP.load(Ordering::Relaxed));
    h.finish()
}

impl Drop for Sandbox {
    /// Removes this sandbox's folder of scratch folders, empty once its bots are gone (the
    /// reaper, dropped next, then finds nothing left and exits).
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(self.veil_path());
    }
}

/// Removes the scratch folders of referees that are gone (`ply-bots-PID-N`).
fn remove_stale_scratch(root: &Path) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let me = rustix::process::geteuid().as_raw();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix("ply-bots-"))
            .and_then(|rest| rest.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = std::fs::symlink_metadata(entry.path())
            .is_ok_and(|m| m.is_dir() && std::os::unix::fs::MetadataExt::uid(&m) == me);
        if ours && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Marks every descriptor above 2 that this process holds close-on-exec, so that no bot
/// inherits one its referee's own parent left open (a database, a socket). Descriptors Rust
/// opens are close-on-exec already; this covers the inherited ones, once per sandbox.
#[allow(unsafe_code)]
pub(crate) fn mark_inherited_descriptors_close_on_exec() {
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

/// Lets the child inherit `fd` (opened close-on-exec, as Rust opens everything): the flag is
/// cleared between `fork` and `exec`, in the child only, so no other bot started at the
/// same time gets it. The parent's copy is closed when the command is dropped.
#[allow(unsafe_code)]
pub(crate) fn inherit(cmd: &mut Command, fd: impl Into<std::os::fd::OwnedFd>) {
    let fd: std::os::fd::OwnedFd = fd.into();
    // SAFETY: one fcntl on a descriptor the closure owns; async-signal-safe, no allocation.
    unsafe {
        cmd.pre_exec(move || {
            rustix::io::fcntl_setfd(&fd, rustix::io::FdFlags::empty())?;
            Ok(())
        });
    }
}

/// Sets the limits in the child between `fork` and `exec`.
///
/// This is the one place in ply that needs `unsafe`: `pre_exec` runs in the forked child,
/// where only async-signal-safe calls are allowed. The closure makes raw system calls
/// through rustix (`setsid`, `prctl`, `write` on descriptors opened before the fork, and
/// `setrlimit`) and allocates nothing. Joining the cgroup here, rather than after `spawn`
/// returns, means the bot never runs a single instruction outside its limits. The kernel
/// checks a `cgroup.procs` write against the credentials that opened the file, so the
/// write works after std has switched a jailed child to `nobody`.
#[allow(unsafe_code)]
pub(crate) fn before_exec(
    cmd: &mut Command,
    procs: Vec<std::fs::File>,
    address_space: Option<u64>,
    die_with_thread: bool,
) {
    // SAFETY: see above; `procs` moves into the closure and stays open until the parent drops
    // the command, after the fork.
    unsafe {
        cmd.pre_exec(move || {
            // A session of its own: its own process group, and no controlling terminal to
            // push keystrokes into.
            rustix::process::setsid()?;
            // Dies with the referee's thread that started it, even after a kill -9 (not a
            // launcher without a jail, which must outlive the referee long enough to kill
            // its bot's processes: it sees its socket's end instead).
            if die_with_thread {
                rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            }
            for file in &procs {
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

/// Pumps a bot's stdout and stderr into `tx`, each from a thread of its own.
fn pump_outputs<O: Read + Send + 'static, E: Read + Send + 'static>(
    stdout: O,
    stderr: E,
    tx: &Sender<Event>,
) {
    pump(
        stdout,
        tx.clone(),
        Event::Stdout,
        || Event::StdoutClosed(()),
    );
    pump(stderr, tx.clone(), Event::Stderr, || Event::StderrClosed);
}

/// Passes what `from` gives to `tx` (`data`), then `closed` at its end, from a thread of
/// its own.
pub(crate) fn pump<R: Read + Send + 'static, E: Send + 'static>(
    mut from: R,
    tx: Sender<E>,
    data: impl Fn(Vec<u8>) -> E + Send + 'static,
    closed: impl FnOnce() -> E + Send + 'static,
) {
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16 << 10];
        loop {
            match from.read(&mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(closed());
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

/// Waits for the main process. A jailed bot's status comes through bubblewrap, which exits
/// with 128 + N when the program was killed by signal N: that is read back as the signal
/// (a bot that exits with code 139 on its own is thus taken for a SIGSEGV).
fn wait_in_background(mut child: Child, tx: Sender<Event>, jailed: bool) {
    std::thread::spawn(move || {
        if let Ok(mut status) = child.wait() {
            if jailed && let Some(code @ 129..=192) = status.code() {
                status = ExitStatus::from_raw(code - 128);
            }
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
    /// The keeper of its processes, without a jail and without a cgroup.
    keeper: Option<Keeper>,
    /// Whether the last pause stopped the bot by signals (its freezer did not confirm).
    stopped_by_signal: AtomicBool,
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

    /// Pauses the bot, as the AI Challenge paused bots between their turns: its whole cgroup
    /// is frozen where there is a freezer (every process, wherever it moved).
    ///
    /// When the freezer does not confirm (or there is none), the bot is stopped by signals
    /// (`SIGSTOP`) instead: its process group, and every process of its cgroups, so that a helper that
    /// left the group (`setsid`) is stopped too; [`BotProcess::resume`] then continues them.
    pub fn pause(&self) {
        if self.cgroup.as_ref().is_some_and(Cgroup::freeze) {
            return;
        }
        self.signal_all(Signal::STOP);
        self.stopped_by_signal.store(true, Ordering::Relaxed);
    }

    /// Lets a paused bot run again (thaws its cgroup, and continues what a pause stopped by
    /// signals).
    pub fn resume(&self) {
        let thawed = self.cgroup.as_ref().is_some_and(Cgroup::thaw);
        if !thawed || self.stopped_by_signal.swap(false, Ordering::Relaxed) {
            self.signal_all(Signal::CONT);
        }
    }

    /// Sends `signal` to the bot's process group and to every process of its cgroups.
    fn signal_all(&self, signal: Signal) {
        let _ = rustix::process::kill_process_group(self.pid, signal);
        if let Some(cg) = &self.cgroup {
            for pid in cg.pids().into_iter().filter_map(Pid::from_raw) {
                let _ = rustix::process::kill_process(pid, signal);
            }
        }
    }

    /// Whether [`BotProcess::pause`] freezes the whole cgroup.
    pub fn freezes(&self) -> bool {
        self.cgroup.as_ref().is_some_and(Cgroup::can_freeze)
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

    /// Whether the bot runs in a memory cgroup of its own (else under an address-space
    /// rlimit: the sandbox has no cgroups, or this bot's could not be made).
    pub fn has_cgroup(&self) -> bool {
        self.cgroup.is_some()
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
        if let Some(keeper) = &mut self.keeper {
            keeper.end();
        }
        while self.status.is_none() {
            match self.events.recv_timeout(Duration::from_secs(5)) {
                Ok(Event::Exited(status)) => self.status = Some(status),
                Ok(_) => {}
                Err(_) => break,
            }
        }
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
    /// The CPU time of the main process and the children it waited for, when it ended by
    /// itself in a game jail (the launcher reports it; 10 ms steps).
    pub cpu: Option<Duration>,
    /// Whether it ran in a memory cgroup of its own, whose out-of-memory kills are counted
    /// exactly; false where it ran under an address-space rlimit (no cgroup here, or its
    /// cgroup could not be made), where a failed allocation tells instead.
    pub cgroup: bool,
}

impl Run {
    /// A run that could not start, and why.
    pub(crate) fn not_started(why: String) -> Run {
        Run {
            end: RunEnd::NotStarted(why),
            stdout: Vec::new(),
            stderr_tail: Vec::new(),
            elapsed: Duration::ZERO,
            cpu: None,
            cgroup: false,
        }
    }
}

/// Runs `command` once with `input` on stdin, under `limits`: the per-move exchange.
/// Never panics on anything the bot does, and returns only when the bot and its children
/// are dead. (A game's moves go through one [`crate::moves::MoveRunner`], which keeps the
/// bot's jail from one move to the next; this is a runner for one move.)
pub fn run_once(sandbox: &Sandbox, command: &CommandLine, input: &[u8], limits: &Limits) -> Run {
    crate::moves::MoveRunner::new().run(sandbox, command, input, limits)
}

/// [`run_once`] as a process of its own (in a jail of its own when there is a jail).
pub(crate) fn run_process(
    sandbox: &Sandbox,
    command: &CommandLine,
    input: &[u8],
    limits: &Limits,
) -> Run {
    let mut process = match sandbox.spawn_process(command, limits, false) {
        Ok(p) => p,
        Err(e) => return Run::not_started(e.to_string()),
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
    // Until both pipes close: an exit can come before the reader threads pass on the output.
    let until = Instant::now() + crate::moves::LAST_OUTPUT;
    let mut closed = 0;
    while closed < 2 {
        match process.next_event(until) {
            Some(Event::StdoutClosed(()) | Event::StderrClosed) => closed += 1,
            Some(event) => {
                absorb(event, limits, &mut stdout, &mut stderr_tail);
            }
            None => break,
        }
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
        cpu: None,
        cgroup: process.has_cgroup(),
    }
}

/// Takes one event into the buffers; `Some` when it ends the run.
pub(crate) fn absorb(
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A cgroup v2 base that is only a folder with a `cgroup.subtree_control` (nothing is
    /// created in it unless a bot is started).
    fn fake_v2(controllers: &str) -> (tempfile::TempDir, Sandbox) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("cgroup.subtree_control"), controllers).unwrap();
        let sandbox = Sandbox::with_guard(MemoryGuard::CgroupV2(dir.path().to_path_buf()));
        (dir, sandbox)
    }

    fn launcher() -> Launcher {
        Launcher::program(Path::new("/bin/true"), Vec::new()).unwrap()
    }

    #[test]
    fn the_report_says_when_there_is_no_cpu_limit() {
        let (_dir, sandbox) = fake_v2("memory pids");
        let report = sandbox.report();
        assert_eq!(
            report.missing,
            vec![
                Missing::Jail {
                    reason: "not asked for".into()
                },
                Missing::CpuLimit
            ]
        );
        let text = report.to_string();
        assert!(
            text.contains("no cpu controller: a bot's processes are not limited to one CPU"),
            "{text}"
        );
        assert!(!report.is_complete());
        let (_dir, sandbox) = fake_v2("memory pids cpu");
        assert!(sandbox.limits_cpu());
        assert!(!sandbox.report().missing.contains(&Missing::CpuLimit));
        assert!(!sandbox.report().to_string().contains("cpu"));
    }

    #[test]
    fn without_cgroups_the_report_says_a_helper_survives_only_without_a_keeper() {
        let bare = Sandbox::with_guard(MemoryGuard::Rlimit);
        let report = bare.report();
        assert_eq!(
            report.missing,
            vec![
                Missing::Jail {
                    reason: "not asked for".into()
                },
                Missing::MemoryCgroup,
                Missing::Keeper,
                Missing::PidsLimit,
                Missing::Freezer,
                Missing::CpuLimit,
            ]
        );
        let text = report.to_string();
        assert!(
            text.contains(
                "no memory cgroup: memory is limited per process (RLIMIT_AS), so each of a \
                 bot's processes may use the whole limit"
            ),
            "{text}"
        );
        assert!(
            text.contains("a child that leaves its bot's process group (setsid) survives its bot"),
            "{text}"
        );
        assert!(text.contains("not limited to one CPU"), "{text}");
        // With the launcher as the keeper, nothing of a bot survives it: the report says so
        // no more, and says the rest as before.
        let kept = Sandbox::with_guard(MemoryGuard::Rlimit).with_launcher(Some(launcher()));
        let report = kept.report();
        assert!(!report.missing.contains(&Missing::Keeper));
        assert_eq!(report.missing.len(), 5, "{report}");
        assert!(!report.to_string().contains("survives"), "{report}");
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let c: CommandLine = "python3 'my bot.py' \"a \\\"b\\\"\" --x".parse().unwrap();
        assert_eq!(c.program, "python3");
        assert_eq!(c.args, vec!["my bot.py", "a \"b\"", "--x"]);
        assert!("python3 'open".parse::<CommandLine>().is_err());
        assert!("   ".parse::<CommandLine>().is_err());
    }
}
