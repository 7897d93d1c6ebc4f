//! The bot jail: bubblewrap (`bwrap`, Debian's `bubblewrap` package) around every bot
//! program, and the report of what protection this machine lacks.
//!
//! A jailed bot gets new user, pid, mount, network, IPC, UTS and cgroup namespaces: it sees
//! only its own processes (its own `/proc`), only a loopback interface, a read-only view of
//! the file system with its own scratch folder the one writable place, the other bots'
//! folders and the paths the caller hides (the arena database) replaced by empty ones, and
//! a fresh `/dev`. When the referee runs as root, bubblewrap itself runs as `nobody`, so
//! the bot has no more rights on the host's files than any other user. `--die-with-parent`
//! and the pid namespace make the whole tree die with the referee's thread that started it.
//! Why bubblewrap and not namespaces by hand: docs/architecture.md.

use std::fmt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The user id bots run as when the referee is root: `nobody`.
pub const JAIL_UID: u32 = 65534;

/// Where bubblewrap is looked for (a library does not read `PATH`).
const BWRAP: [&str; 3] = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];

/// A working bubblewrap, checked once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jail {
    bwrap: PathBuf,
    /// The user and group bubblewrap runs as (when the referee is root).
    user: Option<u32>,
}

impl Jail {
    /// Finds bubblewrap and checks that it can build a jail here (unprivileged user
    /// namespaces allowed), running `true` in one.
    ///
    /// # Errors
    /// Why there is no jail, in words.
    pub fn probe() -> Result<Jail, String> {
        let bwrap = BWRAP
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or("bubblewrap (bwrap) is not installed: apt-get install bubblewrap")?;
        let user = rustix::process::geteuid().is_root().then_some(JAIL_UID);
        let jail = Jail { bwrap, user };
        let (mut cmd, setup) = jail
            .command(Path::new("/"), None, &[], None)
            .map_err(|e| format!("cannot make a pipe: {e}"))?;
        cmd.arg("true").current_dir("/");
        crate::process::inherit(&mut cmd, setup);
        let out = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", jail.bwrap.display()))?;
        if out.status.success() {
            Ok(jail)
        } else {
            Err(format!(
                "bubblewrap cannot make a jail here ({}): {}",
                crate::process::describe_status(out.status),
                String::from_utf8_lossy(&out.stderr).trim()
            ))
        }
    }

    /// The user id outside the jail that bots run as, when it is not the referee's own.
    pub fn user(&self) -> Option<u32> {
        self.user
    }

    /// The command that runs a program (to be appended) in a jail whose one writable folder
    /// is `scratch`; `veil` (the folder holding every bot's scratch folder) and `hidden`
    /// paths are replaced by empty ones. The jail's setup is read by bubblewrap from a pipe
    /// (`--args`), so that no path of the referee's (the database's above all) is in a
    /// command line the bot can read in its `/proc/1/cmdline`; the returned descriptor is
    /// that pipe's read end, which the child must inherit.
    ///
    /// With `launcher` (a descriptor of the launcher's program, which the child must inherit
    /// too), the program is bound read-only at [`launcher_path`] in the jail and runs as the
    /// jail's pid 1 (`--as-pid-1`: no bubblewrap init; see `crate::launcher`).
    pub(crate) fn command(
        &self,
        veil: &Path,
        scratch: Option<&Path>,
        hidden: &[PathBuf],
        launcher: Option<i32>,
    ) -> std::io::Result<(Command, std::io::PipeReader)> {
        use std::os::unix::ffi::OsStrExt;
        let mut setup: Vec<&[u8]> = vec![
            b"--unshare-all",
            b"--die-with-parent",
            b"--hostname",
            b"ply-bot",
            b"--ro-bind",
            b"/",
            b"/",
            b"--proc",
            b"/proc",
            b"--dev",
            b"/dev",
        ];
        for path in hidden {
            // Only what exists can be covered (a mount point must exist in a read-only tree).
            match std::fs::symlink_metadata(path) {
                Ok(m) if m.is_dir() => {
                    setup.extend([b"--tmpfs".as_slice(), path.as_os_str().as_bytes()])
                }
                Ok(_) => setup.extend([
                    b"--ro-bind".as_slice(),
                    b"/dev/null",
                    path.as_os_str().as_bytes(),
                ]),
                Err(_) => {}
            }
        }
        if veil != Path::new("/") {
            setup.extend([b"--tmpfs".as_slice(), veil.as_os_str().as_bytes()]);
        }
        if let Some(dir) = scratch {
            let dir = dir.as_os_str().as_bytes();
            setup.extend([b"--bind".as_slice(), dir, dir]);
        }
        let launcher_fd = launcher.map(|fd| fd.to_string());
        let launcher_at = launcher_path(veil);
        if let Some(fd) = &launcher_fd {
            setup.extend([
                b"--as-pid-1".as_slice(),
                b"--ro-bind-fd",
                fd.as_bytes(),
                launcher_at.as_os_str().as_bytes(),
            ]);
        }
        let mut bytes = Vec::new();
        for arg in setup {
            bytes.extend_from_slice(arg);
            bytes.push(0);
        }
        let (reader, mut writer) = std::io::pipe()?;
        // Far below a pipe's 64 KiB unless thousands of paths are hidden.
        std::io::Write::write_all(&mut writer, &bytes)?;
        drop(writer);
        let mut cmd = Command::new(&self.bwrap);
        if let Some(id) = self.user {
            cmd.uid(id).gid(id);
        }
        cmd.arg("--args")
            .arg(std::os::fd::AsRawFd::as_raw_fd(&reader).to_string())
            .arg("--");
        Ok((cmd, reader))
    }
}

/// Where the launcher's program is in a jail whose bots' folders are under `veil`.
pub(crate) fn launcher_path(veil: &Path) -> PathBuf {
    veil.join("ply-jail-launcher")
}

/// A protection the bots do not get on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Missing {
    /// No jail: bots share the referee's user, processes, file system and network.
    Jail {
        /// Why (bubblewrap missing, user namespaces refused).
        reason: String,
    },
    /// No memory cgroup: memory is limited per process (`RLIMIT_AS`), so a bot's children
    /// each get the whole limit, and out-of-memory verdicts are guessed from the bot's
    /// stderr. (A `setsid` child is still killed with its bot: the keeper, or the jail's
    /// pid namespace, takes it along; see [`Missing::Keeper`].)
    MemoryCgroup,
    /// Neither a jail, nor a cgroup, nor a launcher to keep the bot's processes
    /// (`Sandbox::with_launcher`): a child that leaves its bot's process group (`setsid`)
    /// survives its bot.
    Keeper,
    /// No pids controller: the number of a bot's processes is not limited.
    PidsLimit,
    /// No freezer: pausing stops the bot's process group only, so a helper that left the
    /// group keeps computing.
    Freezer,
    /// No cpu controller: a bot's whole tree is not limited to one CPU for its game, so a
    /// bot with threads or helpers uses every core it can, at the other bots' expense.
    CpuLimit,
    /// The referee is not root, so jailed bots run as its user id (mapped to `nobody`) and
    /// can read what that user can.
    SeparateUser,
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missing::Jail { reason } => write!(
                f,
                "no jail ({reason}): bots run as this user, see its processes, files and the network"
            ),
            Missing::MemoryCgroup => f.write_str(
                "no memory cgroup: memory is limited per process (RLIMIT_AS), so each of a \
                 bot's processes may use the whole limit",
            ),
            Missing::Keeper => f.write_str(
                "no jail, cgroup or launcher: a child that leaves its bot's process group \
                 (setsid) survives its bot",
            ),
            Missing::PidsLimit => {
                f.write_str("no pids controller: the number of a bot's processes is not limited")
            }
            Missing::Freezer => f.write_str(
                "no freezer: a paused bot's helper that left its process group keeps computing",
            ),
            Missing::CpuLimit => f.write_str(
                "no cpu controller: a bot's processes are not limited to one CPU, so a bot with \
                 threads or helpers can use every core",
            ),
            Missing::SeparateUser => f.write_str(
                "not root: jailed bots run as this user id inside their namespace and can read \
                 what this user can",
            ),
        }
    }
}

/// What protection bots get here: empty when every protection of the jail is in force.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JailReport {
    /// The protections missing.
    pub missing: Vec<Missing>,
}

impl JailReport {
    /// Whether bots are fully jailed (the user id caveat of a non-root referee aside).
    pub fn is_complete(&self) -> bool {
        self.missing
            .iter()
            .all(|m| matches!(m, Missing::SeparateUser))
    }
}

impl fmt::Display for JailReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.missing.is_empty() {
            return f.write_str("every bot runs in a jail");
        }
        f.write_str("bots run with protections missing:")?;
        for m in &self.missing {
            write!(f, "\n  - {m}")?;
        }
        Ok(())
    }
}

/// The jail is required (`--require-jail`) but incomplete here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a jail is required but {report}")]
pub struct JailRequiredError {
    /// What is missing.
    pub report: JailReport,
}
