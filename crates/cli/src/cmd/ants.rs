//! `ply ants play` (built-in bots in process, programs under the referee's persistent-bot
//! protocol) and `ply ants mapgen`.

use std::fs;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::{Context, Result};
use clap::{Args, Subcommand, ValueEnum};

use ply_ants::mapgen::{MapGenParams, generate};
use ply_ants::{AntsGame, AntsMap, AntsMatch, Cutoff, FoodMode, Scoring, Settings};
use ply_referee::ants::{AntsSeat, SeatLogs, play_ants, play_ants_logged};
use ply_referee::persistent::{PersistentBot, PersistentLimits};
use ply_referee::spec::AntsSpec;

use crate::bad_input;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  ply ants mapgen --players 2 --rows 30 --cols 60 -o duel.map\n  \
ply ants play --map duel.map builtin:hunter builtin:random --engine-seed 1 --player-seed 7"
)]
pub struct AntsArgs {
    #[command(subcommand)]
    pub command: AntsCommand,
}

#[derive(Debug, Subcommand)]
pub enum AntsCommand {
    /// Play a game of Ants between built-in bots and bot programs.
    #[command(after_help = "Examples:\n  ply ants mapgen --seed 3 > maze.map\n  \
ply ants play --map maze.map builtin:hunter builtin:hunter builtin:random builtin:hold \\\n    \
--turns 500 --engine-seed 1 --replay game.replay --log-dir logs\n  \
ply ants play --map duel.map 'python3 MyBot.py' builtin:hunter --turntime 500\n\n\
Bots: builtin:hunter (food by BFS, exploration, hill attack and defence, battle awareness),\n\
builtin:phalanx (the hunter's food, exploration by explore values, a few raiders per enemy\n\
hill, fighting in groups: a max-min over each engaged group's moves against every enemy\n\
reply, scored by the focus rule),\n\
builtin:random, builtin:hold, or a command line: the program runs for the whole game under\n\
the AI Challenge protocol (setup block, then one turn per message, answered by order lines\n\
and `go`), paused between its turns, with --loadtime for the setup and --turntime per turn\n\
counted on its own clock. A crash, a timeout or an output flood ends its orders (its ants\n\
stay on the map). --log-dir writes botN.input (every byte sent), botN.output (its orders,\n\
as the original's -O log), botN.stdout (every byte received) and botN.stderr.\n\n\
Ctrl-C ends the game after the turn in progress (cutoff \"interrupted\", exit code 130) and\n\
still writes the result, the replay and the logs of the turns played; a second Ctrl-C quits\n\
at once.")]
    Play(PlayArgs),
    /// Generate a symmetric, connected maze map in the original format.
    #[command(
        after_help = "Example:\n  ply ants mapgen --players 4 --rows 60 --cols 90 --seed 7 -o maze.map"
    )]
    Mapgen(MapgenArgs),
}

/// Food spawning modes (the original's `--food`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FoodArg {
    /// No food beyond the map's.
    None,
    /// At the same oriented offset from every start (needs a symmetric map).
    Symmetric,
    /// Anywhere on free land.
    Random,
    /// In each player's starting section.
    Sections,
}

/// Scoring rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ScoringArg {
    /// Hills: +2 for razing, -1 for losing a hill (the final rules).
    Hills,
    /// The beta era: 1 per spawned ant, 2 per kill shared among the killers.
    Beta,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print the result as JSON")))]
pub struct PlayArgs {
    /// The map file (original format).
    #[arg(long)]
    pub map: PathBuf,
    /// One bot per player: builtin:hunter, builtin:phalanx, builtin:random, builtin:hold, or
    /// a command line
    /// (quoted as one argument, e.g. 'python3 MyBot.py').
    #[arg(required = true)]
    pub bots: Vec<String>,
    /// Turn limit, 1 to 100000.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub turns: u32,
    /// Time per turn, in milliseconds (told to bots, and enforced on programs), 1 to 3600000.
    #[arg(long, default_value_t = 1000, value_parser = crate::ranges::millis_u32())]
    pub turntime: u32,
    /// Time for the setup, in milliseconds (told to bots, and enforced on programs), 1 to
    /// 3600000.
    #[arg(long, default_value_t = 3000, value_parser = crate::ranges::millis_u32())]
    pub loadtime: u32,
    /// Milliseconds a program may run after its `end` block (the original's --end_wait), 0
    /// to 3600000.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    pub end_wait: u64,
    /// Memory per bot program, in MB, 1 to 1048576.
    #[arg(long, default_value_t = 1024, value_parser = crate::ranges::megabytes())]
    pub memory_mb: u64,
    /// Output per turn per bot program, in KB, 1 to 1048576; more ends its orders as a
    /// timeout.
    #[arg(long, default_value_t = 1024, value_parser = crate::ranges::kilobytes_flag())]
    pub output_kb: u64,
    /// A variable every bot program sees, as KEY=VALUE (repeatable); bots get only PATH,
    /// LANG, HOME (a fresh folder of their own) and these.
    #[arg(long = "bot-env", value_name = "KEY=VALUE")]
    pub bot_env: Vec<String>,
    /// Refuse to run unless every bot program can be jailed (namespaces through bubblewrap,
    /// memory and pids cgroups, the freezer); without it, ply says what is missing and runs.
    #[arg(long)]
    pub require_jail: bool,
    /// Run bot programs without the jail (cgroups and the clean environment stay): only for
    /// trusted programs that must write outside their own folder.
    #[arg(long, conflicts_with = "require_jail")]
    pub no_jail: bool,
    /// Replace an existing replay or log file (never through a symbolic link); without it,
    /// an existing file is an error.
    #[arg(long)]
    pub force: bool,
    /// Seed of the engine's random choices (default: a fresh one, printed).
    #[arg(long)]
    pub engine_seed: Option<i64>,
    /// Seed told to the bots (default: a fresh one, printed).
    #[arg(long)]
    pub player_seed: Option<i64>,
    /// Use the map's ants and food as given.
    #[arg(long)]
    pub scenario: bool,
    /// Food spawning.
    #[arg(long, value_enum, default_value = "symmetric")]
    pub food: FoodArg,
    /// Scoring rules.
    #[arg(long, value_enum, default_value = "hills")]
    pub scoring: ScoringArg,
    /// Strict mode: an invalid order eliminates the bot.
    #[arg(long)]
    pub strict: bool,
    /// Write the replay (the original's result JSON with revision-3 replay data) here.
    #[arg(long)]
    pub replay: Option<PathBuf>,
    /// Write botN.input, botN.output, botN.stdout and botN.stderr here (every byte sent to
    /// seat N, its orders as the original's -O log, every byte it wrote, its stderr).
    #[arg(long)]
    pub log_dir: Option<PathBuf>,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
pub struct MapgenArgs {
    /// Players, 2 to 10.
    #[arg(long, default_value_t = 4)]
    pub players: usize,
    /// Rows.
    #[arg(long, default_value_t = 60)]
    pub rows: usize,
    /// Columns.
    #[arg(long, default_value_t = 90)]
    pub cols: usize,
    /// Corridor width.
    #[arg(long, default_value_t = 2)]
    pub corridor: usize,
    /// Fraction of maze walls knocked down, 0 to 1.
    #[arg(long, default_value_t = 0.15, value_parser = crate::ranges::fraction)]
    pub openness: f64,
    /// Hills per player.
    #[arg(long, default_value_t = 1)]
    pub hills: usize,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default: stdout).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

pub fn run(args: &AntsArgs) -> Result<ExitCode> {
    match &args.command {
        AntsCommand::Play(a) => play(a),
        AntsCommand::Mapgen(a) => mapgen(a),
    }
}

fn fresh_seed() -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    (nanos % 1_000_000_007) as i64
}

fn play(a: &PlayArgs) -> Result<ExitCode> {
    let text = crate::input::read_file(&a.map, "")?;
    let map = AntsMap::parse(&text).map_err(|e| bad_input!("{}: {e}", a.map.display()))?;
    if a.bots.len() != map.players {
        return Err(bad_input!(
            "the map is for {} players but {} bots were given",
            map.players,
            a.bots.len()
        ));
    }
    let kinds = a
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let spec = b
                .parse::<AntsSpec>()
                .map_err(|e| bad_input!("bot {}: {e}", i + 1))?;
            if let AntsSpec::Command(c) = &spec {
                c.check_program(std::env::var_os("PATH").as_deref())
                    .map_err(|e| bad_input!("bot {}: {e}", i + 1))?;
            }
            Ok(spec)
        })
        .collect::<Result<Vec<_>>>()?;
    let engine_seed = a.engine_seed.unwrap_or_else(fresh_seed);
    let player_seed = a.player_seed.unwrap_or_else(fresh_seed);
    if a.engine_seed.is_none() || a.player_seed.is_none() {
        tracing::info!("engine seed {engine_seed}, player seed {player_seed}");
    }
    let settings = Settings {
        turns: a.turns,
        turntime: a.turntime,
        loadtime: a.loadtime,
        engine_seed,
        player_seed,
        scenario: a.scenario,
        food: match a.food {
            FoodArg::None => FoodMode::None,
            FoodArg::Symmetric => FoodMode::Symmetric,
            FoodArg::Random => FoodMode::Random,
            FoodArg::Sections => FoodMode::Sections,
        },
        scoring: match a.scoring {
            ScoringArg::Hills => Scoring::Hills,
            ScoringArg::Beta => Scoring::Beta,
        },
        strict: a.strict,
        ..Settings::default()
    };
    let game = AntsGame::new(&map, settings).map_err(|e| bad_input!("{e}"))?;
    let mut m = AntsMatch::new(game);
    let limits = PersistentLimits {
        load: Duration::from_millis(a.loadtime.into()),
        turn: Duration::from_millis(a.turntime.into()),
        end_wait: Duration::from_millis(a.end_wait),
        memory: a.memory_mb << 20,
        output: crate::ranges::kilobytes(a.output_kb),
    };
    let logging = a.log_dir.is_some();
    if let Some(dir) = &a.log_dir {
        // Before the game, so that a bad directory does not waste one.
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    // Before any bot starts: from here on a Ctrl-C ends the game after its turn.
    let stop = stop_on_signals()?;
    // Found once, and only when a program plays.
    let sandbox = super::arena::sandbox(
        &a.bot_env,
        super::arena::JailMode::from_flags(a.require_jail, a.no_jail),
        &[],
    )?;
    let mut seats = Vec::new();
    for (i, k) in kinds.iter().enumerate() {
        seats.push(match k {
            AntsSpec::Builtin(b) => AntsSeat::Builtin(b.create(i as u64)),
            AntsSpec::Command(c) => {
                sandbox
                    .check_reachable(c, std::env::var_os("PATH").as_deref())
                    .map_err(|e| bad_input!("bot {}: {e}", i + 1))?;
                let bot = PersistentBot::start(&sandbox, c, &limits, logging)
                    .map_err(|e| bad_input!("bot {}: cannot start {:?}: {e}", i + 1, a.bots[i]))?;
                AntsSeat::Program(Box::new(bot))
            }
        });
    }
    let n = map.players;
    // The order logs are streamed turn by turn: the match keeps only the last turn's, so a
    // bot writing junk orders costs disk, not the referee's memory.
    let mut order_logs = Vec::new();
    if let Some(dir) = &a.log_dir {
        for b in 0..n {
            let path = dir.join(format!("bot{b}.output"));
            let file = crate::out::create_new(&path, a.force)?;
            order_logs.push((path, std::io::BufWriter::new(file)));
        }
    }
    let mut files = match &a.log_dir {
        Some(dir) => Some(LogFiles::create(dir, &kinds, a.force)?),
        None => None,
    };
    let mut log_error: Option<anyhow::Error> = None;
    let bar = crate::out::progress(u64::from(a.turns), "turns");
    let on_turn = |m: &AntsMatch| {
        bar.set_position(u64::from(m.turn()));
        bar.set_message(format!("scores {:?}", m.game().scores()));
        for (b, (path, w)) in order_logs.iter_mut().enumerate() {
            if let Err(e) = w.write_all(m.output_log(b).as_bytes())
                && log_error.is_none()
            {
                log_error =
                    Some(anyhow::Error::new(e).context(format!("writing {}", path.display())));
            }
        }
        if stop.load(Ordering::Relaxed) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let records = match &mut files {
        Some(f) => play_ants_logged(&mut m, &mut seats, &limits, f, on_turn),
        None => play_ants(&mut m, &mut seats, &limits, false, on_turn),
    };
    bar.finish_and_clear();
    if let Some(f) = files {
        f.finish()?;
    }
    for (path, mut w) in order_logs {
        w.flush()
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some(e) = log_error {
        return Err(e);
    }
    drop(seats);
    let names: Vec<String> = a.bots.clone();
    let result = m.result_json(&names).context("the game did not finish")?;
    if let Some(path) = &a.replay {
        crate::out::write_new(path, serde_json::to_string(&result)?.as_bytes(), a.force)?;
    }
    let r = m.result().context("the game did not finish")?;
    if a.json.on {
        let mut v = result;
        if let Some(o) = v.as_object_mut() {
            o.remove("replaydata");
            o.insert("cutoff".into(), r.cutoff.as_str().into());
            let seats: Vec<serde_json::Value> = records
                .iter()
                .map(|s| {
                    serde_json::json!({
                        "detail": s.detail,
                        "failed_turn": s.failed_turn,
                        "time_ms": s.time.as_secs_f64() * 1e3,
                        "longest_turn_ms": s.longest.as_secs_f64() * 1e3,
                    })
                })
                .collect();
            o.insert("seats".into(), seats.into());
        }
        outln!("{v}");
    } else {
        outln!("{} turns, ended by {}", r.game_length, r.cutoff.as_str());
        let w = a
            .bots
            .iter()
            .map(|b| b.chars().count())
            .max()
            .unwrap_or(0)
            .max(3);
        outln!(
            "{:<6} {:<w$} {:>5} {:>5}  {:<10} turns",
            "seat",
            "bot",
            "rank",
            "score",
            "status"
        );
        for b in 0..n {
            outln!(
                "{:<6} {:<w$} {:>5} {:>5}  {:<10} {}",
                b + 1,
                a.bots[b],
                r.rank[b] + 1,
                r.score[b],
                // A status's Display ignores widths: pad its text.
                r.status[b].to_string(),
                r.player_turns[b]
            );
        }
        for (b, s) in records.iter().enumerate() {
            if let (Some(detail), Some(t)) = (&s.detail, s.failed_turn) {
                outln!("seat {} at turn {t}: {detail}", b + 1);
            }
        }
    }
    if r.cutoff == Cutoff::Interrupted {
        eprintln!(
            "ply: stopped by a signal after turn {}: the scores, the replay and the logs \
             cover the turns played",
            r.game_length
        );
        // 128 + SIGINT, what a shell reports for a command ended by Ctrl-C.
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

/// Ctrl-C (or SIGTERM) ends the game after the turn in progress, as the turn limit would:
/// the bots are sent their end block and stopped, and the result, replay and logs are
/// written for the turns played. (The original engine wrote no replay then.) A second one
/// ends `ply` at once; the sandbox's reaper still removes whatever its bots left.
fn stop_on_signals() -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        // Registered first, so it sees the flag as the previous signal left it.
        signal_hook::flag::register_conditional_shutdown(signal, 130, Arc::clone(&stop))
            .context("installing the signal handlers")?;
        signal_hook::flag::register(signal, Arc::clone(&stop))
            .context("installing the signal handlers")?;
    }
    Ok(stop)
}

fn mapgen(a: &MapgenArgs) -> Result<ExitCode> {
    let p = MapGenParams {
        players: a.players,
        rows: a.rows,
        cols: a.cols,
        corridor: a.corridor,
        openness: a.openness,
        hills: a.hills,
    };
    let map = generate(&p, a.seed).map_err(|e| bad_input!("{e}"))?;
    let text = map.to_text();
    match &a.output {
        Some(path) => {
            fs::write(path, text).with_context(|| format!("writing {}", path.display()))?
        }
        None => out!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

/// The per-seat logs of `--log-dir` (`botN.input`, `botN.stdout`, `botN.stderr` for
/// programs), written as the game goes: a bot that writes a lot costs disk, not memory.
struct LogFiles {
    seats: Vec<SeatFiles>,
    error: Option<anyhow::Error>,
}

struct SeatFiles {
    input: (PathBuf, std::io::BufWriter<fs::File>),
    stdout: (PathBuf, std::io::BufWriter<fs::File>),
    stderr: Option<(PathBuf, std::io::BufWriter<fs::File>)>,
}

impl LogFiles {
    fn create(dir: &std::path::Path, kinds: &[AntsSpec], force: bool) -> Result<LogFiles> {
        let open = |b: usize, ext: &str| -> Result<(PathBuf, std::io::BufWriter<fs::File>)> {
            let path = dir.join(format!("bot{b}.{ext}"));
            let file = crate::out::create_new(&path, force)?;
            Ok((path, std::io::BufWriter::new(file)))
        };
        let mut seats = Vec::new();
        for (b, k) in kinds.iter().enumerate() {
            seats.push(SeatFiles {
                input: open(b, "input")?,
                stdout: open(b, "stdout")?,
                stderr: match k {
                    AntsSpec::Command(_) => Some(open(b, "stderr")?),
                    AntsSpec::Builtin(_) => None,
                },
            });
        }
        Ok(LogFiles { seats, error: None })
    }

    fn write(
        error: &mut Option<anyhow::Error>,
        file: &mut (PathBuf, std::io::BufWriter<fs::File>),
        bytes: &[u8],
    ) {
        if let Err(e) = file.1.write_all(bytes)
            && error.is_none()
        {
            *error = Some(anyhow::Error::new(e).context(format!("writing {}", file.0.display())));
        }
    }

    /// Flushes every file; the first error of the game, if any.
    fn finish(self) -> Result<()> {
        if let Some(e) = self.error {
            return Err(e);
        }
        for s in self.seats {
            for (path, mut w) in [Some(s.input), Some(s.stdout), s.stderr]
                .into_iter()
                .flatten()
            {
                w.flush()
                    .with_context(|| format!("writing {}", path.display()))?;
            }
        }
        Ok(())
    }
}

impl SeatLogs for LogFiles {
    fn sent(&mut self, seat: usize, bytes: &[u8]) {
        LogFiles::write(&mut self.error, &mut self.seats[seat].input, bytes);
    }
    fn received(&mut self, seat: usize, bytes: &[u8]) {
        LogFiles::write(&mut self.error, &mut self.seats[seat].stdout, bytes);
    }
    fn stderr(&mut self, seat: usize, bytes: &[u8]) {
        if let Some(f) = &mut self.seats[seat].stderr {
            LogFiles::write(&mut self.error, f, bytes);
        }
    }
}
