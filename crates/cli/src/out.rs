//! Standard output, the one way: `out!` and `outln!` write like `print!` and `println!`
//! but return a write error from the calling function instead of panicking.
//!
//! A reader that goes away (`ply ... | head -3`) makes the next write fail with
//! `BrokenPipe`; [`crate::exit::report`] treats that as a normal end: no message, exit 0,
//! as `ply hanoi solve | head` always did. Rust ignores SIGPIPE, so the error is what
//! arrives; restoring the signal instead would let a bot that closes its stdin kill the
//! referee.

/// `print!` that returns the write error (`?` in the caller).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// `println!` that returns the write error (`?` in the caller).
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

/// Whether `err` is a write to a reader that went away.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// `n` and a noun, the noun in the plural unless `n` is 1: `Count(1, "peg")` shows
/// `1 peg`, `Count(3, "round")` shows `3 rounds`, `Count(2, "guess")` shows `2 guesses`
/// (regular nouns only).
pub struct Count<'a>(pub u64, pub &'a str);

impl std::fmt::Display for Count<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self.0 {
            1 => "",
            _ if self.1.ends_with('s') || self.1.ends_with('x') => "es",
            _ => "s",
        };
        write!(f, "{} {}{s}", self.0, self.1)
    }
}

/// What the global flags decided for this run: set once in `main`.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// ANSI colour on stdout.
    pub colour: bool,
    /// `-q`: no progress bars, no informational lines.
    pub quiet: bool,
}

static SETTINGS: std::sync::OnceLock<Settings> = std::sync::OnceLock::new();

/// Records the run's settings; later calls keep the first.
pub fn init(settings: Settings) {
    let _ = SETTINGS.set(settings);
}

fn settings() -> Settings {
    SETTINGS.get().copied().unwrap_or(Settings {
        colour: false,
        quiet: false,
    })
}

/// Whether to colour stdout: `--color always|never`, or with `auto` when stdout is a
/// terminal and `NO_COLOR` is unset or empty (<https://no-color.org>).
pub fn decide_colour(choice: crate::args::ColorChoice) -> bool {
    use std::io::IsTerminal;
    match choice {
        crate::args::ColorChoice::Always => true,
        crate::args::ColorChoice::Never => false,
        crate::args::ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    }
}

/// Whether this run colours stdout.
pub fn colour() -> bool {
    settings().colour
}

/// The one progress-bar look of ply, on stderr: `len` steps of `what`. Hidden with `-q`,
/// and (by indicatif) when stderr is not a terminal.
pub fn progress(len: u64, what: &str) -> indicatif::ProgressBar {
    let bar = if settings().quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(len)
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{{elapsed_precise}} [{{bar:40}}] {{pos}}/{{len}} {what} {{msg}}"
        ))
        .expect("a valid template")
        .progress_chars("=> "),
    );
    bar
}

/// A spinner for work of unknown length, in the same look.
pub fn spinner(msg: &str) -> indicatif::ProgressBar {
    let bar = if settings().quiet {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new_spinner()
    };
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}")
            .expect("a valid template"),
    );
    bar.set_message(msg.to_string());
    bar
}

/// Text that came from a bot (its stderr, its answer), made safe for a terminal: control
/// characters are shown escaped (`\u{1b}`), so a bot cannot send escape sequences to the
/// person watching. Newlines and tabs are kept.
pub fn untrusted(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// How diagnostics (`tracing` events) read on stderr: informational lines as plain text,
/// as ply always printed them, warnings prefixed `warning: `, debug lines `debug: `.
pub struct Diagnostics;

impl<S, N> tracing_subscriber::fmt::FormatEvent<S, N> for Diagnostics
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        match *event.metadata().level() {
            tracing::Level::ERROR => write!(writer, "error: ")?,
            tracing::Level::WARN => write!(writer, "warning: ")?,
            tracing::Level::INFO => {}
            _ => write!(writer, "debug: ")?,
        }
        ctx.field_format().format_fields(writer.by_ref(), event)?;
        writeln!(writer)
    }
}

/// Writes a file the referee produces (a replay, a bot's log) so that nothing planted at
/// its path can redirect it: the file must not exist (O_EXCL, which never follows a
/// symbolic link); with `force` an existing entry is first removed (a link is unlinked,
/// never followed). A bot that plants a link to the database in `--replays DIR` gets an
/// error, not a rewritten database.
pub fn write_new(path: &std::path::Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    create_new(path, force)?
        .write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))
}

/// Creates a file as [`write_new`] does (never through a planted link), to be written
/// piece by piece: a log that grows with the game is streamed, not kept in memory.
pub fn create_new(path: &std::path::Path, force: bool) -> anyhow::Result<std::fs::File> {
    use anyhow::Context;
    if force {
        match std::fs::remove_file(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(e).with_context(|| format!("replacing {}", path.display()));
            }
            _ => {}
        }
    }
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            let hint = if e.kind() == std::io::ErrorKind::AlreadyExists {
                " (it exists already: choose another folder, or --force to replace it)"
            } else {
                ""
            };
            anyhow::anyhow!("cannot create {}: {e}{hint}", path.display())
        })
}

/// The `--json` flag, declared once and flattened into every command that has it; a
/// command whose JSON deserves a word says what it holds with
/// `#[command(mut_arg("json", |a| a.help("...")))]`.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct Json {
    /// Print JSON for scripts instead of text.
    #[arg(id = "json", long = "json")]
    pub on: bool,
}
