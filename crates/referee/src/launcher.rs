//! One jail per game and seat for per-move bots: a launcher inside the jail starts each
//! move's process, so that the namespaces are made once per game instead of once per move
//! (bubblewrap alone takes 16-18 ms here; docs/benchmarks.md).
//!
//! The launcher is the jail's first process (bubblewrap's `--as-pid-1`): the init of the
//! jail's pid namespace, which no process of the namespace can kill or stop (the kernel
//! drops every signal an init has no handler for, `SIGKILL` and `SIGSTOP` included), and
//! which is not dumpable, so that no bot can trace it or open its descriptors through
//! `/proc`. It talks to the referee over a `SOCK_SEQPACKET` socket, its standard input,
//! which nothing else in the jail holds:
//!
//! * `h` (launcher): ready.
//! * `rN` (referee) with three descriptors (`SCM_RIGHTS`): run move N with them as its
//!   stdin, stdout and stderr. The launcher starts the bot's program in a session of its
//!   own, says `pN PID` (its pid, in the launcher's pid namespace, which is also its
//!   process group), and answers `xN STATUS CPU` (the raw wait status and the CPU time of
//!   the process and the children it waited for, in microseconds) when it ends, or `eN WHY`
//!   when it cannot be started.
//! * `kN` (referee): kill every process of the move. The launcher sends `SIGKILL` to every
//!   process of its namespace but itself (`kill(-1)`), reaps them all (as the namespace's
//!   init it is every orphan's parent) until it has no child left, sends the `xN` it did
//!   not send yet, then `cN`: nothing of move N is left.
//! * End of file (the referee closed the socket or died): the launcher kills everything
//!   and exits, and the namespace with it.
//!
//! The launcher uses `kill(-1)` only where it is pid 1 (outside a pid namespace of its own
//! it would reach every process of the user). Without a jail (`--no-jail`, or no
//! bubblewrap) the referee starts the launcher directly, as the keeper of the bot's
//! processes for the game: it is then their subreaper (`PR_SET_CHILD_SUBREAPER`), so every
//! orphan of a move (a `setsid` helper, a double fork) becomes its child, and it kills its
//! children, then the children it adopts as those die, until none is left. It has no
//! parent-death signal: when the referee dies, even of a `kill -9`, its socket reaches its
//! end and the keeper kills every process of the bot before it exits, so nothing of a bot
//! outlives the referee where there is no pid namespace either. A persistent bot without a
//! jail and without a cgroup runs under a keeper too, as one move that lasts the game
//! (`crate::process::Sandbox::spawn`): the referee pauses it through its process group
//! (the `pN` answer), and closes the socket to end it.
//!
//! The same program is also each sandbox's reaper (`ply __ply-jail-launcher
//! __ply-cgroup-reaper ...`, `crate::reaper`), which kills a sandbox's bots when the referee
//! dies without doing it.
//!
//! The referee keeps the deadline: it never waits on the launcher longer than the move's
//! time plus a grace, and tears the whole jail down (the next move gets a new one) when
//! the launcher does not answer.

use std::ffi::{OsStr, OsString};
use std::io::{IoSlice, IoSliceMut};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rustix::net::{
    RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, SendAncillaryBuffer,
    SendAncillaryMessage, SendFlags,
};
use rustix::process::{Pid, Signal, WaitOptions};

/// The first argument that turns a program embedding the referee into the launcher
/// (`ply __ply-jail-launcher PROGRAM ARGS...`); see [`serve_if_asked`].
pub const ARG: &str = "__ply-jail-launcher";

/// The launcher's program, opened once (`O_PATH`): bubblewrap binds it into each jail from
/// this descriptor, so it need not be reachable by `nobody` where it lies on the host.
#[derive(Debug)]
pub struct Launcher {
    file: OwnedFd,
    args: Vec<OsString>,
    name: PathBuf,
}

impl Launcher {
    /// This very program as the launcher (`/proc/self/exe` with [`ARG`]): its `main` must
    /// call [`serve_if_asked`] first.
    ///
    /// # Errors
    /// When the program cannot be opened.
    pub fn this_program() -> std::io::Result<Launcher> {
        Launcher::program(Path::new("/proc/self/exe"), vec![ARG.into()])
    }

    /// `program` with `args` before the bot's command line, which must end up in
    /// [`serve`] (a program whose `main` calls [`serve_if_asked`], with `args` = `[ARG]`).
    ///
    /// # Errors
    /// When the program cannot be opened.
    pub fn program(program: &Path, args: Vec<OsString>) -> std::io::Result<Launcher> {
        use rustix::fs::{Mode, OFlags};
        let file = rustix::fs::open(program, OFlags::PATH | OFlags::CLOEXEC, Mode::empty())?;
        Ok(Launcher {
            file,
            args,
            name: program.to_path_buf(),
        })
    }

    /// A copy of the program's descriptor, for one jail.
    pub(crate) fn file(&self) -> std::io::Result<OwnedFd> {
        self.file.try_clone()
    }

    /// The arguments before the bot's command line.
    pub(crate) fn args(&self) -> &[OsString] {
        &self.args
    }

    /// The program's path, for messages.
    pub fn name(&self) -> &Path {
        &self.name
    }
}

/// The control socket between the referee and a launcher: (the referee's end, the
/// launcher's end), both close-on-exec until the launcher's end is handed over.
pub(crate) fn control_pair() -> std::io::Result<(OwnedFd, OwnedFd)> {
    Ok(rustix::net::socketpair(
        rustix::net::AddressFamily::UNIX,
        rustix::net::SocketType::SEQPACKET,
        rustix::net::SocketFlags::CLOEXEC,
        None,
    )?)
}

/// Serves as the launcher and exits when the first argument is [`ARG`]; returns at once
/// otherwise. Call it first thing in `main` of a program that uses
/// [`Launcher::this_program`].
pub fn serve_if_asked() {
    let mut args = std::env::args_os();
    if args.nth(1).is_some_and(|a| a == ARG) {
        std::process::exit(serve(&args.collect::<Vec<_>>()));
    }
}

/// The launcher itself: serves the referee on standard input (module docs) for the bot
/// program `command` (program and arguments) until the referee goes; returns the exit code.
pub fn serve(command: &[OsString]) -> i32 {
    let Some((program, args)) = command.split_first() else {
        eprintln!("ply: the jail launcher needs the bot's command line");
        return 2;
    };
    if program == crate::reaper::ARG {
        return crate::reaper::serve(args);
    }
    // As the init of a pid namespace of its own (in a jail), kill(-1) reaches the jail's
    // processes only; anywhere else the launcher kills only its own descendants, whose
    // orphans it adopts.
    let me = rustix::process::getpid();
    let init = me == Pid::INIT;
    if !init && rustix::process::set_child_subreaper(Some(me)).is_err() {
        eprintln!("ply: the launcher cannot become its bot's subreaper");
        return 1;
    }
    let _ = rustix::process::set_dumpable_behavior(rustix::process::DumpableBehavior::NotDumpable);
    // Nothing but the three streams the referee passes reaches a bot (bubblewrap may leave
    // the descriptor the launcher was bound from open).
    crate::process::mark_inherited_descriptors_close_on_exec();
    let stdin = std::io::stdin();
    let control = stdin.as_fd();
    if send(control, b"h").is_err() {
        return 1;
    }
    // The move whose process runs and whose end is not yet reported.
    let mut running: Option<(u64, Pid)> = None;
    loop {
        let mut fds = Vec::new();
        let msg = match receive(control, &mut fds) {
            Ok(m) if !m.is_empty() => m,
            _ => {
                kill_all(None, init);
                return 0;
            }
        };
        let n = number(&msg[1..]);
        match msg[0] {
            b'r' if running.is_none() => match start(program, args, fds) {
                Ok(pid) => {
                    running = Some((n, pid));
                    // The pid (and process group) of the move's process: a persistent
                    // bot's keeper without a jail is paused through its group.
                    let _ = send(control, format!("p{n} {}", pid.as_raw_nonzero()).as_bytes());
                }
                Err(e) => {
                    let _ = send(control, format!("e{n} {e}").as_bytes());
                }
            },
            b'k' => {
                let main = running.take();
                let cpu = main.map_or(0, |(_, pid)| cpu_micros(pid));
                let status = kill_all(main.map(|(_, pid)| pid), init);
                if let (Some((m, _)), Some(status)) = (main, status) {
                    let _ = send(control, format!("x{m} {status} {cpu}").as_bytes());
                }
                let _ = send(control, format!("c{n}").as_bytes());
            }
            _ => {}
        }
        if let Some((m, pid)) = running
            && exited(control, pid)
        {
            let cpu = cpu_micros(pid);
            let status = loop {
                match rustix::process::waitpid(Some(pid), WaitOptions::empty()) {
                    Err(rustix::io::Errno::INTR) => {}
                    Ok(Some((_, status))) => break status.as_raw(),
                    // Reaped already: cannot happen, as only this loop and kill_all reap.
                    _ => break 9,
                }
            };
            running = None;
            let _ = send(control, format!("x{m} {status} {cpu}").as_bytes());
        }
    }
}

/// Starts the bot's program with the three descriptors as its standard streams.
fn start(program: &OsStr, args: &[OsString], fds: Vec<OwnedFd>) -> std::io::Result<Pid> {
    let [stdin, stdout, stderr]: [OwnedFd; 3] = fds
        .try_into()
        .map_err(|_| std::io::Error::other("a move needs three descriptors"))?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::from(stdin))
        .stdout(Stdio::from(stdout))
        .stderr(Stdio::from(stderr));
    own_session(&mut cmd);
    let child = cmd.spawn()?;
    // `cmd` is dropped here, and with it the launcher's copies of the move's descriptors:
    // the referee sees the end of stdout once the move's processes are gone.
    Ok(Pid::from_raw(child.id() as i32).expect("a child's pid is positive"))
}

/// The bot's process: a session of its own, and death with the launcher.
#[allow(unsafe_code)]
fn own_session(cmd: &mut Command) {
    // SAFETY: two raw system calls through rustix between fork and exec; no allocation.
    unsafe {
        cmd.pre_exec(|| {
            rustix::process::setsid()?;
            rustix::process::set_parent_process_death_signal(Some(Signal::KILL))?;
            Ok(())
        });
    }
}

/// Whether the move's process ended (`true`) or a message came first (`false`).
fn exited(control: BorrowedFd<'_>, pid: Pid) -> bool {
    use rustix::event::{PollFd, PollFlags, poll};
    let Ok(pidfd) = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()) else {
        return true;
    };
    let mut fds = [
        PollFd::from_borrowed_fd(control, PollFlags::IN),
        PollFd::new(&pidfd, PollFlags::IN),
    ];
    loop {
        match poll(&mut fds, None) {
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return false,
            Ok(_) => {}
        }
        if !fds[1].revents().is_empty() {
            return true;
        }
        if !fds[0].revents().is_empty() {
            return false;
        }
    }
}

/// Kills every process of the bot (every process of the namespace but the launcher when it
/// is the namespace's `init`; else its children, and the orphans it adopts as they die) and
/// reaps them all; the raw status of `main` when it was among them.
fn kill_all(main: Option<Pid>, init: bool) -> Option<i32> {
    let mut status = None;
    loop {
        if init {
            // kill(-1): every process this one may signal, but itself and pid 1, which it
            // is; in a pid namespace of its own, only the namespace's processes.
            let _ = rustix::process::kill_process_group(Pid::INIT, Signal::KILL);
        } else {
            for child in children() {
                let _ = rustix::process::kill_process(child, Signal::KILL);
            }
        }
        match rustix::process::wait(WaitOptions::empty()) {
            Ok(Some((pid, st))) => {
                if Some(pid) == main {
                    status = Some(st.as_raw());
                }
            }
            Ok(None) | Err(rustix::io::Errno::INTR) => {}
            // ECHILD: no process is left.
            Err(_) => return status,
        }
    }
}

/// This process's children (`/proc/self/task/TID/children`, else a scan of `/proc`).
fn children() -> Vec<Pid> {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let parse = |text: &str| -> Vec<Pid> {
        text.split_whitespace()
            .filter_map(|p| p.parse::<i32>().ok())
            .filter_map(Pid::from_raw)
            .collect()
    };
    if let Ok(text) = std::fs::read_to_string(format!("/proc/self/task/{me}/children")) {
        return parse(&text);
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok())
                    == Some(me)
            })
        })
        .filter_map(Pid::from_raw)
        .collect()
}

/// The CPU time of a process (alive or a zombie) and of the children it waited for, in
/// microseconds (from `/proc/PID/stat`, in clock ticks).
fn cpu_micros(pid: Pid) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero())) else {
        return 0;
    };
    let Some((_, rest)) = stat.rsplit_once(')') else {
        return 0;
    };
    // After the name: state (3), ..., utime (14), stime (15), cutime (16), cstime (17).
    let ticks: u64 = rest
        .split_whitespace()
        .skip(11)
        .take(4)
        .filter_map(|t| t.parse::<u64>().ok())
        .sum();
    let hz = rustix::param::clock_ticks_per_second().max(1);
    ticks.saturating_mul(1_000_000) / hz
}

/// The number after a message's letter.
pub(crate) fn number(text: &[u8]) -> u64 {
    std::str::from_utf8(text)
        .ok()
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

/// Sends one message.
pub(crate) fn send(control: BorrowedFd<'_>, text: &[u8]) -> std::io::Result<()> {
    rustix::net::send(control, text, SendFlags::NOSIGNAL)?;
    Ok(())
}

/// Sends one message with descriptors.
pub(crate) fn send_with_fds(
    control: BorrowedFd<'_>,
    text: &[u8],
    fds: &[BorrowedFd<'_>],
) -> std::io::Result<()> {
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut cmsg = SendAncillaryBuffer::new(&mut space);
    if !cmsg.push(SendAncillaryMessage::ScmRights(fds)) {
        return Err(std::io::Error::other(
            "too many descriptors for one message",
        ));
    }
    rustix::net::sendmsg(
        control,
        &[IoSlice::new(text)],
        &mut cmsg,
        SendFlags::NOSIGNAL,
    )?;
    Ok(())
}

/// Receives one message (empty at the end of file) and the descriptors it carries, which
/// are close-on-exec.
fn receive(control: BorrowedFd<'_>, fds: &mut Vec<OwnedFd>) -> std::io::Result<Vec<u8>> {
    let mut buf = [0u8; 256];
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(3))];
    let mut cmsg = RecvAncillaryBuffer::new(&mut space);
    let got = loop {
        match rustix::net::recvmsg(
            control,
            &mut [IoSliceMut::new(&mut buf)],
            &mut cmsg,
            RecvFlags::CMSG_CLOEXEC,
        ) {
            Err(rustix::io::Errno::INTR) => {}
            other => break other?,
        }
    };
    for message in cmsg.drain() {
        if let RecvAncillaryMessage::ScmRights(received) = message {
            fds.extend(received);
        }
    }
    Ok(buf[..got.bytes.min(buf.len())].to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_read_after_the_letter() {
        assert_eq!(number(b"12 3 4"), 12);
        assert_eq!(number(b"7"), 7);
        assert_eq!(number(b""), 0);
    }

    #[test]
    fn the_launcher_needs_a_command_line() {
        assert_eq!(serve(&[]), 2);
    }
}
