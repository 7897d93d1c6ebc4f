//! One cgroup per bot process tree: the unit of memory, process-count, freezing and killing.
//!
//! cgroup v2 keeps every controller in one directory; v1 has a hierarchy per controller, so a
//! v1 bot joins a directory in each of the memory, pids and freezer hierarchies that this
//! process may write. What was found is [`Controllers`]; the bot's directories are a
//! [`Cgroup`]. Nothing here starts processes: `process` joins the child to the cgroup
//! between `fork` and `exec`, through the descriptors [`Cgroup::procs_files`] opens.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};

/// Where this process may create bot cgroups, controller by controller.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Controllers {
    /// cgroup v2: the one base directory (memory is required, the rest optional).
    pub v2: Option<PathBuf>,
    /// v2: whether `pids` is enabled in the base's `cgroup.subtree_control`.
    pub v2_pids: bool,
    /// v2: whether `cpu` is enabled in the base's `cgroup.subtree_control`.
    pub v2_cpu: bool,
    /// v1: base directory in the memory hierarchy.
    pub memory: Option<PathBuf>,
    /// v1: base directory in the pids hierarchy.
    pub pids: Option<PathBuf>,
    /// v1: base directory in the freezer hierarchy.
    pub freezer: Option<PathBuf>,
    /// v1: base directory in the cpu hierarchy (CFS bandwidth control).
    pub cpu: Option<PathBuf>,
}

/// The period of the CPU limit of a bot's whole tree, in microseconds (its quota is a whole
/// number of periods: one per CPU).
const CPU_PERIOD_US: u64 = 100_000;

/// The quota of `cpus` CPUs in a period of [`CPU_PERIOD_US`] (at least one CPU).
fn quota(cpus: u32) -> u64 {
    CPU_PERIOD_US * u64::from(cpus.max(1))
}

impl Controllers {
    /// The v1 pids and freezer hierarchies beside a v1 memory base, where this process may
    /// write them.
    pub fn v1(memory: PathBuf) -> Controllers {
        let base = |name: &str, file: &str, value: &str| {
            cgroup_mounts()
                .into_iter()
                .filter(|(t, _, opts)| t == "cgroup" && opts.split(',').any(|o| o == name))
                .find_map(|(_, mount, _)| {
                    let base = own_cgroup(&mount, |c| c.split(',').any(|x| x == name))?;
                    probe(base, file, value)
                })
        };
        Controllers {
            pids: base("pids", "pids.max", "64"),
            freezer: base("freezer", "freezer.state", "THAWED"),
            cpu: base("cpu", "cpu.cfs_quota_us", &CPU_PERIOD_US.to_string()),
            memory: Some(memory),
            ..Controllers::default()
        }
    }

    /// A v2 base directory (its memory controller already checked).
    pub fn v2(base: PathBuf) -> Controllers {
        let controls =
            std::fs::read_to_string(base.join("cgroup.subtree_control")).unwrap_or_default();
        let has = |name: &str| controls.split_whitespace().any(|c| c == name);
        Controllers {
            v2_pids: has("pids"),
            v2_cpu: has("cpu"),
            v2: Some(base),
            ..Controllers::default()
        }
    }

    /// Whether a cgroup can freeze a bot's whole tree.
    pub fn can_freeze(&self) -> bool {
        self.v2.is_some() || self.freezer.is_some()
    }

    /// Whether the number of a bot's processes is limited.
    pub fn can_limit_pids(&self) -> bool {
        (self.v2.is_some() && self.v2_pids) || self.pids.is_some()
    }

    /// Whether a cgroup can limit a bot's tree to one CPU.
    pub fn can_limit_cpu(&self) -> bool {
        (self.v2.is_some() && self.v2_cpu) || self.cpu.is_some()
    }

    fn bases(&self) -> impl Iterator<Item = &PathBuf> {
        [&self.v2, &self.memory, &self.pids, &self.freezer, &self.cpu]
            .into_iter()
            .flatten()
    }

    /// The directories under the bases whose names start with `prefix`.
    pub fn children(&self, prefix: &str) -> Vec<PathBuf> {
        let mut found = Vec::new();
        for base in self.bases() {
            if let Ok(entries) = std::fs::read_dir(base) {
                found.extend(
                    entries
                        .flatten()
                        .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
                        .map(|e| e.path()),
                );
            }
        }
        found
    }

    /// Kills what a referee killed with -9 left in its cgroups (`ply-PID-N` where no process
    /// PID runs any more), then removes them.
    pub fn remove_stale(&self) {
        self.reap(|name| {
            name.strip_prefix("ply-")
                .and_then(|rest| rest.split('-').next())
                .and_then(|p| p.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists())
        });
    }

    /// Kills every process of the cgroups whose directory name `doomed` picks, in every
    /// hierarchy, and removes the directories (`crate::reaper`, and [`Self::remove_stale`]).
    pub fn reap(&self, doomed: impl Fn(&str) -> bool) {
        let mut picked = Vec::new();
        for base in self.bases() {
            let Ok(entries) = std::fs::read_dir(base) else {
                continue;
            };
            for entry in entries.flatten() {
                if entry.file_name().to_str().is_some_and(&doomed) {
                    picked.push((base.clone(), entry.path()));
                }
            }
        }
        // Freezer directories first: a process frozen when its referee was killed receives
        // no signal until thawed, so its memory and pids directories would not empty.
        picked.sort_by_key(|(base, _)| self.freezer.as_ref() != Some(base));
        for (base, dir) in picked {
            let cg = Cgroup {
                v2: self.v2.as_ref() == Some(&base),
                freezer: (self.freezer.as_ref() == Some(&base)).then(|| dir.clone()),
                dirs: vec![dir],
            };
            cg.thaw();
            cg.remove();
        }
    }

    /// The base directories as `KIND=PATH` arguments, for another process
    /// ([`Self::from_args`]).
    pub fn to_args(&self) -> Vec<std::ffi::OsString> {
        let kinds = [
            ("v2", &self.v2),
            ("memory", &self.memory),
            ("pids", &self.pids),
            ("freezer", &self.freezer),
            ("cpu", &self.cpu),
        ];
        kinds
            .into_iter()
            .filter_map(|(kind, base)| {
                let mut arg = std::ffi::OsString::from(format!("{kind}="));
                arg.push(base.as_ref()?);
                Some(arg)
            })
            .collect()
    }

    /// The base directories from [`Self::to_args`]' arguments; `None` for any other
    /// argument. (Whether v2's pids and cpu controllers are on is not carried: reaping does
    /// not need it.)
    pub fn from_args(args: &[std::ffi::OsString]) -> Option<Controllers> {
        use std::os::unix::ffi::OsStrExt;
        let mut found = Controllers::default();
        for arg in args {
            let bytes = arg.as_bytes();
            let eq = bytes.iter().position(|&b| b == b'=')?;
            let path = Some(PathBuf::from(std::ffi::OsStr::from_bytes(&bytes[eq + 1..])));
            match &bytes[..eq] {
                b"v2" => found.v2 = path,
                b"memory" => found.memory = path,
                b"pids" => found.pids = path,
                b"freezer" => found.freezer = path,
                b"cpu" => found.cpu = path,
                _ => return None,
            }
        }
        Some(found)
    }
}

/// One bot's cgroup directories (one for v2; memory, pids, freezer for v1).
#[derive(Debug)]
pub(crate) struct Cgroup {
    /// The memory directory first.
    dirs: Vec<PathBuf>,
    v2: bool,
    /// v1's freezer directory.
    freezer: Option<PathBuf>,
}

impl Cgroup {
    /// Creates the directories named `name` with the memory limit and, where there is a
    /// pids controller, the process limit; with `cpus` (and a cpu controller), a limit of
    /// that many CPUs for the whole tree. (Creating a v1 cpu cgroup with a quota costs several
    /// milliseconds here: it is for cgroups that last a game, not a move.)
    pub fn create(
        controllers: &Controllers,
        name: &str,
        memory: u64,
        pids: u64,
        cpus: Option<u32>,
    ) -> std::io::Result<Cgroup> {
        let mut cg = Cgroup {
            dirs: Vec::new(),
            v2: controllers.v2.is_some(),
            freezer: None,
        };
        let limit = memory.to_string();
        let pids = pids.to_string();
        let made = (|| {
            if let Some(base) = &controllers.v2 {
                let dir = base.join(name);
                std::fs::create_dir(&dir)?;
                cg.dirs.push(dir.clone());
                std::fs::write(dir.join("memory.max"), &limit)?;
                // Without swap the limit is the limit; not every kernel has these files.
                let _ = std::fs::write(dir.join("memory.swap.max"), "0");
                let _ = std::fs::write(dir.join("memory.oom.group"), "1");
                if controllers.v2_pids {
                    std::fs::write(dir.join("pids.max"), &pids)?;
                }
                if let Some(n) = cpus
                    && controllers.v2_cpu
                {
                    std::fs::write(dir.join("cpu.max"), format!("{} {CPU_PERIOD_US}", quota(n)))?;
                }
                return Ok(());
            }
            let Some(memory) = &controllers.memory else {
                return Err(std::io::ErrorKind::Unsupported.into());
            };
            let dir = memory.join(name);
            std::fs::create_dir(&dir)?;
            cg.dirs.push(dir.clone());
            std::fs::write(dir.join("memory.limit_in_bytes"), &limit)?;
            let _ = std::fs::write(dir.join("memory.memsw.limit_in_bytes"), &limit);
            if let Some(base) = &controllers.pids {
                let dir = base.join(name);
                std::fs::create_dir(&dir)?;
                cg.dirs.push(dir.clone());
                std::fs::write(dir.join("pids.max"), &pids)?;
            }
            if let Some(base) = &controllers.freezer {
                let dir = base.join(name);
                std::fs::create_dir(&dir)?;
                cg.dirs.push(dir.clone());
                cg.freezer = Some(dir);
            }
            if let (Some(base), Some(n)) = (controllers.cpu.as_ref(), cpus) {
                let dir = base.join(name);
                std::fs::create_dir(&dir)?;
                cg.dirs.push(dir.clone());
                std::fs::write(dir.join("cpu.cfs_period_us"), CPU_PERIOD_US.to_string())?;
                std::fs::write(dir.join("cpu.cfs_quota_us"), quota(n).to_string())?;
            }
            Ok(())
        })();
        match made {
            Ok(()) => Ok(cg),
            Err(e) => {
                cg.remove();
                Err(e)
            }
        }
    }

    /// The `cgroup.procs` files, opened for writing: a child writes `0` to each to join.
    pub fn procs_files(&self) -> std::io::Result<Vec<std::fs::File>> {
        self.dirs
            .iter()
            .map(|d| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(d.join("cgroup.procs"))
            })
            .collect()
    }

    /// Whether the memory controller killed a process of this cgroup.
    pub fn oom_killed(&self) -> bool {
        self.oom_kills() > 0
    }

    /// How many processes of this cgroup the memory controller killed so far.
    pub fn oom_kills(&self) -> u64 {
        let (file, key) = if self.v2 {
            ("memory.events", "oom_kill")
        } else {
            ("memory.oom_control", "oom_kill")
        };
        std::fs::read_to_string(self.dirs[0].join(file))
            .ok()
            .and_then(|text| {
                text.lines().find_map(|l| {
                    let (k, v) = l.split_once(' ')?;
                    (k == key).then(|| v.trim().parse::<u64>().ok()).flatten()
                })
            })
            .unwrap_or(0)
    }

    /// Whether this cgroup can be frozen.
    pub fn can_freeze(&self) -> bool {
        self.v2 || self.freezer.is_some()
    }

    /// Freezes every process of the cgroup and waits (at most 500 ms) until the kernel says
    /// they all are. `false` when there is no freezer, the write fails or the kernel does
    /// not confirm in time (a pause then stops the processes by signals as well).
    pub fn freeze(&self) -> bool {
        self.set_frozen(true)
    }

    /// Lets a frozen cgroup run again.
    pub fn thaw(&self) -> bool {
        self.set_frozen(false)
    }

    fn set_frozen(&self, frozen: bool) -> bool {
        let (file, value, state_file, done): (_, &str, _, fn(&str) -> bool) = if self.v2 {
            let dir = &self.dirs[0];
            (
                dir.join("cgroup.freeze"),
                if frozen { "1" } else { "0" },
                dir.join("cgroup.events"),
                if frozen {
                    |t: &str| t.lines().any(|l| l == "frozen 1")
                } else {
                    |t: &str| t.lines().any(|l| l == "frozen 0")
                },
            )
        } else if let Some(dir) = &self.freezer {
            (
                dir.join("freezer.state"),
                if frozen { "FROZEN" } else { "THAWED" },
                dir.join("freezer.state"),
                if frozen {
                    |t: &str| t.trim() == "FROZEN"
                } else {
                    |t: &str| t.trim() == "THAWED"
                },
            )
        } else {
            return false;
        };
        if std::fs::write(&file, value).is_err() {
            return false;
        }
        if !frozen {
            // Thawing takes effect on the write (v1 thaws synchronously, v2 at once for
            // the tasks' next return to user space); only freezing is worth waiting for.
            return true;
        }
        // v1 may stay FREEZING when a task could not be frozen at the write (the kernel's
        // freezer-subsystem document: "retry the freezing operation by writing FROZEN");
        // the write is repeated every 20 ms, for at most half a second on a loaded machine.
        let start = Instant::now();
        let until = start + Duration::from_millis(500);
        let mut retry = start + Duration::from_millis(20);
        let mut pause = Duration::from_micros(20);
        while Instant::now() < until {
            if std::fs::read_to_string(&state_file).is_ok_and(|t| done(&t)) {
                return true;
            }
            if Instant::now() >= retry {
                let _ = std::fs::write(&file, value);
                retry = Instant::now() + Duration::from_millis(20);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(2));
        }
        // Once per process as a warning: under load it can recur every few turns, and a
        // line each time in the middle of a game's progress bar says nothing new.
        static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
        if WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
            tracing::debug!(
                cgroup = %file.display(),
                "the freezer did not confirm the freeze within 500 ms"
            );
        } else {
            tracing::warn!(
                cgroup = %file.display(),
                "the freezer did not confirm the freeze within 500 ms (the bot is stopped by \
                 signals as well; further ones are logged with -v)"
            );
        }
        false
    }

    pub(crate) fn pids(&self) -> Vec<i32> {
        let mut all = Vec::new();
        for dir in &self.dirs {
            if let Ok(t) = std::fs::read_to_string(dir.join("cgroup.procs")) {
                all.extend(t.lines().filter_map(|l| l.trim().parse::<i32>().ok()));
            }
        }
        all.sort_unstable();
        all.dedup();
        all
    }

    /// Kills every process of the cgroup and waits (at most a second) until it is empty.
    pub fn kill_all(&self) {
        if !(self.v2 && std::fs::write(self.dirs[0].join("cgroup.kill"), "1").is_ok()) {
            // Frozen first, so that no fork races the kill; thawed after, so that the frozen
            // processes receive their SIGKILL.
            let frozen = self.freeze();
            for _ in 0..100 {
                let pids = self.pids();
                if pids.is_empty() {
                    break;
                }
                for pid in pids {
                    if let Some(pid) = Pid::from_raw(pid) {
                        let _ = rustix::process::kill_process(pid, Signal::KILL);
                    }
                }
                if !frozen {
                    continue;
                }
                break;
            }
            // Thawed even when the freeze was not confirmed: a task frozen in a cgroup left
            // FREEZING acts on its SIGKILL only once thawed.
            if self.can_freeze() {
                self.thaw();
            }
        }
        let until = Instant::now() + Duration::from_secs(1);
        while !self.pids().is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_micros(200));
        }
    }

    /// Kills what is left and removes the directories once their processes are gone.
    pub fn remove(&self) {
        for dir in self.dirs.iter().rev() {
            for attempt in 0..200 {
                if std::fs::remove_dir(dir).is_ok() || !dir.exists() {
                    break;
                }
                self.kill_all();
                std::thread::sleep(Duration::from_micros(50 * (attempt + 1)));
            }
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

fn probe(base: PathBuf, file: &str, value: &str) -> Option<PathBuf> {
    let dir = base.join(format!("ply-probe-{}", std::process::id()));
    std::fs::create_dir(&dir).ok()?;
    let ok = std::fs::write(dir.join(file), value).is_ok();
    let _ = std::fs::remove_dir(&dir);
    ok.then_some(base)
}

/// A cgroup v2 base directory where the memory controller is delegated.
pub(crate) fn probe_v2() -> Option<PathBuf> {
    cgroup_mounts()
        .into_iter()
        .filter(|(t, _, _)| t == "cgroup2")
        .find_map(|(_, mount, _)| {
            let base = own_cgroup(&mount, |c| c.is_empty())?;
            let controls = std::fs::read_to_string(base.join("cgroup.subtree_control")).ok()?;
            if !controls.split_whitespace().any(|c| c == "memory") {
                return None;
            }
            probe(base, "memory.max", &(64u64 << 20).to_string())
        })
}

/// A cgroup v1 memory base directory this process may write.
pub(crate) fn probe_v1() -> Option<PathBuf> {
    cgroup_mounts()
        .into_iter()
        .filter(|(t, _, opts)| t == "cgroup" && opts.split(',').any(|o| o == "memory"))
        .find_map(|(_, mount, _)| {
            let base = own_cgroup(&mount, |c| c.split(',').any(|x| x == "memory"))?;
            probe(base, "memory.limit_in_bytes", &(64u64 << 20).to_string())
        })
}
