//! The reaper: a small process beside each sandbox that kills the sandbox's bots and removes
//! their cgroups and scratch folders when the referee ends without doing it itself (`kill
//! -9`, or a Ctrl-C that the command does not catch).
//!
//! Why a process of its own: a persistent bot (Ants) is paused between its turns by freezing
//! its whole cgroup. A task frozen by the cgroup v1 freezer acts on no signal, `SIGKILL`
//! included, until it is thawed. When the referee dies while a bot is frozen, the signals
//! meant to end the bot with it (bubblewrap's `--die-with-parent`, the bot's parent-death
//! signal) stay pending, the launcher inside the jail cannot run to see its socket's end,
//! and nothing is left to thaw the cgroup: the bot would sit frozen forever. (cgroup v2's
//! freezer lets fatal signals through, but a helper a bot started outside its process group
//! has no parent-death signal either: the reaper ends it through the cgroup.)
//!
//! The reaper is the sandbox's launcher program (`ply __ply-jail-launcher
//! __ply-cgroup-reaper PREFIX SCRATCH KIND=BASE...`), started once per sandbox, at its first
//! cgroup. It runs outside every bot cgroup, in a session of its own (no terminal signal
//! reaches it) and without a parent-death signal, and blocks reading its standard input, a
//! pipe whose only writer is the sandbox. When the sandbox is dropped, or the referee dies of
//! anything, the pipe ends; the reaper then thaws, kills and removes every cgroup whose name
//! starts with the sandbox's prefix, removes the sandbox's scratch folder, and exits. After
//! a normal end nothing is left to do and it exits at once; the sandbox waits for it.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::cgroup::Controllers;
use crate::launcher::Launcher;

/// The first argument after the launcher's own that makes the launcher the reaper.
pub const ARG: &str = "__ply-cgroup-reaper";

/// A running reaper and the sandbox's end of its pipe.
#[derive(Debug)]
pub(crate) struct Reaper {
    child: Child,
    lifeline: Option<std::io::PipeWriter>,
}

impl Reaper {
    /// Starts the reaper of the cgroups named `prefix...` under `controllers`' bases and of
    /// the scratch folder `scratch`.
    pub(crate) fn start(
        launcher: &Launcher,
        prefix: &str,
        scratch: &Path,
        controllers: &Controllers,
    ) -> std::io::Result<Reaper> {
        let (reader, writer) = std::io::pipe()?;
        let mut cmd = Command::new(launcher.name());
        cmd.args(launcher.args())
            .arg(ARG)
            .arg(prefix)
            .arg(scratch)
            .args(controllers.to_args())
            .env_clear()
            .stdin(Stdio::from(reader))
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        // A session of its own and no parent-death signal: it must outlive the referee.
        crate::process::before_exec(&mut cmd, Vec::new(), None, false);
        let child = cmd.spawn()?;
        Ok(Reaper {
            child,
            lifeline: Some(writer),
        })
    }
}

impl Drop for Reaper {
    /// Ends the pipe and waits for the reaper (it finds nothing left to do after a normal
    /// end); after 5 s it is killed, so that a sandbox's drop never hangs.
    fn drop(&mut self) {
        self.lifeline = None;
        let until = Instant::now() + Duration::from_secs(5);
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The reaper itself (`args`: the prefix, the scratch folder, the cgroup bases): waits for
/// the end of standard input, then reaps; returns the exit code.
pub(crate) fn serve(args: &[OsString]) -> i32 {
    let parsed = match args {
        [prefix, scratch, bases @ ..] => prefix
            .to_str()
            .zip(Controllers::from_args(bases))
            .map(|(prefix, controllers)| (prefix.to_string(), PathBuf::from(scratch), controllers)),
        _ => None,
    };
    let Some((prefix, scratch, controllers)) = parsed else {
        eprintln!("ply: the reaper needs a prefix, a scratch folder and KIND=BASE arguments");
        return 2;
    };
    // Nothing is ever written: the pipe ends when the sandbox or its referee does.
    let mut buf = [0u8; 64];
    let mut stdin = std::io::stdin().lock();
    loop {
        match stdin.read(&mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    controllers.reap(|name| name.starts_with(prefix.as_str()));
    // Only a folder of this user's: the name in /tmp is predictable.
    let me = rustix::process::geteuid().as_raw();
    if std::fs::symlink_metadata(&scratch)
        .is_ok_and(|m| m.is_dir() && std::os::unix::fs::MetadataExt::uid(&m) == me)
    {
        let _ = std::fs::remove_dir_all(scratch);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bases_survive_the_command_line() {
        let controllers = Controllers {
            memory: Some("/sys/fs/cgroup/memory/a b=c".into()),
            freezer: Some("/sys/fs/cgroup/freezer".into()),
            cpu: Some("/sys/fs/cgroup/cpu".into()),
            ..Controllers::default()
        };
        let back = Controllers::from_args(&controllers.to_args()).unwrap();
        assert_eq!(back, controllers);
        let v2 = Controllers {
            v2: Some("/sys/fs/cgroup/user.slice".into()),
            ..Controllers::default()
        };
        assert_eq!(Controllers::from_args(&v2.to_args()).unwrap(), v2);
        assert_eq!(Controllers::from_args(&["net=/x".into()]), None);
        assert_eq!(Controllers::from_args(&["memory".into()]), None);
    }

    #[test]
    fn the_reaper_needs_its_arguments() {
        assert_eq!(serve(&[]), 2);
        assert_eq!(
            serve(&["ply-1-0-".into(), "/tmp/x".into(), "bogus".into()]),
            2
        );
    }
}
