//! A throwaway PostgreSQL cluster for tests: `initdb` in a temporary folder, a server on a
//! free loopback port, one fresh database per test, and the server stopped at the end.
//!
//! The binaries come from Debian's `postgresql` package (`scripts/install-test-deps` installs
//! it). Without them [`Cluster::shared`] is `None` and the test says it skipped, unless
//! `PLY_REQUIRE_POSTGRES` is set (as `scripts/test`, hence CI, sets it): then it fails.
//!
//! `initdb` refuses to run as root, so as root every server command runs as the `postgres`
//! user (`runuser`), in a folder that user owns.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

/// A running PostgreSQL server for the tests of this process.
#[derive(Debug)]
pub struct Cluster {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
}

/// The folder of `initdb` and `pg_ctl`: `PLY_PG_BIN`, `pg_config --bindir`, the newest
/// `/usr/lib/postgresql/*/bin`, or the `PATH`.
fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PLY_PG_BIN") {
        return Some(PathBuf::from(dir));
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").exists())
        .collect();
    versions.sort_by_key(|p| {
        p.parent()
            .and_then(|v| v.file_name())
            .and_then(|v| v.to_str())
            .and_then(|v| v.parse::<u32>().ok())
            .unwrap_or(0)
    });
    if let Some(newest) = versions.pop() {
        return Some(newest);
    }
    let found = Command::new("pg_config").arg("--bindir").output().ok()?;
    let dir = PathBuf::from(String::from_utf8_lossy(&found.stdout).trim());
    dir.join("initdb").exists().then_some(dir)
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

impl Cluster {
    /// The cluster shared by every test of this process, started on first use; `None`
    /// (after saying so on stderr) when PostgreSQL is not installed.
    ///
    /// # Panics
    /// When PostgreSQL is installed but the cluster does not start, or is missing while
    /// `PLY_REQUIRE_POSTGRES` is set.
    pub fn shared() -> Option<&'static Cluster> {
        static SHARED: OnceLock<Option<Cluster>> = OnceLock::new();
        let cluster = SHARED.get_or_init(Cluster::start).as_ref();
        if cluster.is_none() {
            assert!(
                std::env::var_os("PLY_REQUIRE_POSTGRES").is_none(),
                "PLY_REQUIRE_POSTGRES is set but no PostgreSQL binaries were found \
                 (apt-get install postgresql, or set PLY_PG_BIN)"
            );
            eprintln!(
                "SKIPPED: PostgreSQL is not installed (scripts/install-test-deps installs it)"
            );
        }
        cluster
    }

    fn start() -> Option<Cluster> {
        let bin = bin_dir()?;
        let as_postgres = is_root();
        let dir = std::env::temp_dir().join(format!("ply-pg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("creating the cluster's folder");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("finding a free port")
            .port();
        let cluster = Cluster {
            bin,
            dir,
            port,
            as_postgres,
        };
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&cluster.dir)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "chown of {} to postgres failed", cluster.dir.display());
        }
        let data = cluster.dir.join("data");
        cluster.run(
            "initdb",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-U".as_ref(),
                "postgres".as_ref(),
                "--auth=trust".as_ref(),
                "-E".as_ref(),
                "UTF8".as_ref(),
                "--no-sync".as_ref(),
            ],
        );
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off \
             -c synchronous_commit=off -c full_page_writes=off -c max_connections=200",
            cluster.dir.display()
        );
        cluster.run(
            "pg_ctl",
            &[
                "-D".as_ref(),
                data.as_os_str(),
                "-o".as_ref(),
                options.as_ref(),
                "-l".as_ref(),
                cluster.dir.join("log").as_os_str(),
                "-w".as_ref(),
                "start".as_ref(),
            ],
        );
        cluster.reap_after(std::process::id());
        Some(cluster)
    }

    /// Runs one of the server's programs (as `postgres` when root), panicking on failure.
    fn run(&self, program: &str, args: &[&std::ffi::OsStr]) {
        let path = self.bin.join(program);
        let mut cmd = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        let out = cmd
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", path.display()));
        assert!(
            out.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// A shared cluster lives in a static, which is never dropped: a small shell waits for
    /// the test process to end, then stops the server and removes its folder.
    fn reap_after(&self, pid: u32) {
        let script = format!(
            "while kill -0 {pid} 2>/dev/null; do sleep 0.5; done; \
             {stop} -D {data} -m immediate stop >/dev/null 2>&1; rm -rf {dir}",
            stop = self.command_line("pg_ctl"),
            data = self.dir.join("data").display(),
            dir = self.dir.display(),
        );
        // Detached from the test's pipes, so that the test harness does not wait for it.
        let _ = Command::new("sh")
            .args(["-c", &script])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
    }

    fn command_line(&self, program: &str) -> String {
        let path = self.bin.join(program);
        if self.as_postgres {
            format!("runuser -u postgres -- {}", path.display())
        } else {
            path.display().to_string()
        }
    }

    /// The server's port on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The cluster's folder (its data, its log and its socket).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A new, empty database, named after `label` and a counter; its URL.
    ///
    /// # Panics
    /// When `createdb` fails.
    pub fn database(&self, label: &str) -> String {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        let clean: String = label
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .take(40)
            .collect();
        let name = format!("{clean}_{}", NEXT.fetch_add(1, Ordering::Relaxed));
        let port = self.port.to_string();
        self.run(
            "createdb",
            &[
                "-h".as_ref(),
                "127.0.0.1".as_ref(),
                "-p".as_ref(),
                port.as_ref(),
                "-U".as_ref(),
                "postgres".as_ref(),
                name.as_ref(),
            ],
        );
        format!("postgres://postgres@127.0.0.1:{}/{name}", self.port)
    }
}
