//! `ply tournament GAME --bot NAME=SPEC ...`: a rated round robin, stored as it goes. The
//! tournament itself is `ply_arena::run_tournament`; this reads the arguments and prints.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use clap::Args;

use ply_arena::{
    ArenaError, Entrant, Format, Programs, Progress, TournamentPlan, TournamentRun,
    enqueue_tournament, pool::hashed_config, run_tournament, worker::now_ms,
};
use ply_referee::process::Sandbox;

use super::arena::{LimitArgs, arena_error, open_any_store};
use super::leaderboard::print_standings;
use crate::bad_input;
use crate::out::Count;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
ply tournament tictactoe --bot rand=builtin:random --bot greedy=builtin:greedy \\\n    \
--bot ab=builtin:alphabeta:ms=20 --bot mcts=builtin:mcts:ms=20 --rounds 3\n  \
ply tournament tictactoe --bot mine='python3 bot.py' --bot ab=builtin:alphabeta --concurrency 2\n  \
ply ants mapgen --rows 18 --cols 36 --players 2 --seed 3 > small.map\n  \
ply tournament ants --map small.map --bot h=builtin:hunter --bot r=builtin:random \\\n    \
--bot hold=builtin:hold --rounds 2 --turns 60 --db ants.sqlite3\n  \
ply ants mapgen --rows 18 --cols 36 --players 3 --seed 4 > three.map\n  \
ply tournament ants --maps small.map three.map --bot h=builtin:hunter --bot r=builtin:random \\\n    \
--bot hold=builtin:hold --rounds 2 --turns 40 --concurrency 2 --db ants.sqlite3\n\n\
Each round every pair of bots plays twice, each moving first once (HackerEarth's format);\n\
ratings are Glicko-2 with one rating period per round. Every finished game is stored at once:\n\
run the same command again after an interruption and the tournament resumes where it stopped;\n\
run it again once the tournament is complete and it shows the standings (--new plays another).\n\n\
Ants: round r is played on map (r - 1) mod M of the rotation (--map: one map; --maps: the\n\
.map files of a folder, sorted by name, or files in the order given); each round plays every\n\
combination of as many bots as its map has players, each in every rotation of the seats.\n\
Ratings are TrueSkill on each game's full ranking (the 2011 contest's), recomputed after\n\
every round; the leaderboard shows mu, sigma and mu - 3 sigma. The maps' contents are stored\n\
with the tournament, so `--enqueue` works for Ants too and workers need no map files.")]
#[command(mut_arg("json", |a| a.help("Print the final standings as JSON")))]
pub struct TournamentArgs {
    /// The game (see `ply games`; it needs a bot format).
    pub game: String,
    /// A bot, as NAME=SPEC (SPEC as in `ply match`); at least two.
    #[arg(long = "bot", value_name = "NAME=SPEC", required = true)]
    pub bots: Vec<String>,
    /// Rounds to play, 1 to 100000.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub rounds: u32,
    /// Games played at once, 1 to 256.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::concurrency)]
    pub concurrency: usize,
    /// Seed from which every game's seed derives; part of the tournament's identity.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The database: a file (default: arena.sqlite3 in the platform's data directory, or
    /// PLY_DB), or a PostgreSQL URL (postgres://user@host/db) shared by `ply worker`s.
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Queue every game in the database without playing any: `ply worker`s play them.
    #[arg(long, conflicts_with = "new")]
    pub enqueue: bool,
    /// With --enqueue: keep each bot's program (one file, up to 4 MiB) in the database, so
    /// that a worker without it, or with another version, takes it from there.
    #[arg(long, requires = "enqueue")]
    pub store_programs: bool,
    /// Follow the tournament's games as workers store them, until it is finished; then print
    /// the standings.
    #[arg(long, conflicts_with = "new")]
    pub watch: bool,
    /// Start a new tournament even if this one (same game, bots, rounds, limits and seed) is
    /// stored already; without it, an unfinished one resumes and a finished one is shown.
    #[arg(long)]
    pub new: bool,
    /// Ants: the map every game is played on (`ply ants mapgen` writes one); the bots are
    /// then `builtin:hunter`, `builtin:phalanx`, `builtin:random`, `builtin:hold` or programs
    /// speaking the AI Challenge protocol, at least one per player of the map.
    #[arg(long, group = "ants_maps")]
    pub map: Option<PathBuf>,
    /// Ants: a rotation of maps, one a round: folders (their .map files, sorted by name) and
    /// files, in the order given; maps of different player counts may be mixed, and there
    /// must be at least as many bots as the largest map has players.
    #[arg(long, num_args = 1.., value_name = "DIR_OR_FILE", group = "ants_maps")]
    pub maps: Vec<PathBuf>,
    /// Ants: the turn limit of every game.
    #[arg(long, default_value_t = 1000, requires = "ants_maps", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub turns: u32,
    #[command(flatten)]
    pub limits: LimitArgs,
    #[command(flatten)]
    pub json: crate::out::Json,
}

pub fn run(args: &TournamentArgs) -> Result<ExitCode> {
    if args.game.eq_ignore_ascii_case("ants") {
        return run_ants(args);
    }
    if args.map.is_some() || !args.maps.is_empty() {
        return Err(bad_input!("--map and --maps are for `ply tournament ants`"));
    }
    let kind = super::game_kind(&args.game)?;
    if !kind.has_hackerearth_format() {
        return Err(bad_input!(
            "{kind} has no bot format yet; `ply games` marks the games that have one"
        ));
    }
    let bots = parse_bots(args)?;
    let plan = TournamentPlan {
        game: kind.to_string(),
        bots,
        rounds: args.rounds,
        format: Format::RoundRobin,
        seed: args.seed,
        limits: args.limits.limits()?,
        concurrency: args.concurrency,
        new: args.new,
    };
    // Bots that cannot play this game are refused before the database is touched.
    plan.check().map_err(|e| arena_error(e, "--bot"))?;
    if args.enqueue || args.watch {
        return distributed(args, Plan::Pair(&plan));
    }
    let (mut store, path) = open_any_store(args.db.as_ref())?;
    let sandbox = tournament_sandbox(args, &path)?;
    for b in &plan.bots {
        super::arena::check_reachable(&sandbox, &format!("--bot {}", b.name), &b.spec)?;
    }
    play_and_print(args, &path, plan.bots.len(), plan.rounds, |progress| {
        run_tournament(&mut *store, &plan, &sandbox, progress)
    })
}

/// The sandbox of a tournament's bots: the SQLite file is out of every bot's sight; a
/// shared PostgreSQL database means other people's results, so there the jail is required
/// unless --no-jail says otherwise.
fn tournament_sandbox(args: &TournamentArgs, path: &str) -> Result<Arc<Sandbox>> {
    let postgres = super::arena::postgres_url(args.db.as_ref()).is_some();
    let hidden: Vec<&std::path::Path> = if postgres {
        Vec::new()
    } else {
        vec![std::path::Path::new(path)]
    };
    let jail = match args.limits.jail() {
        super::arena::JailMode::Default if postgres => super::arena::JailMode::Required,
        mode => mode,
    };
    Ok(Arc::new(super::arena::sandbox(
        &args.limits.bot_env,
        jail,
        &hidden,
    )?))
}

/// Plays a tournament through `play` (the arena's runner for its kind of game) with the
/// progress bar and the start, resume and completion messages, then prints its standings.
fn play_and_print(
    args: &TournamentArgs,
    path: &str,
    bots: usize,
    rounds: u32,
    play: impl FnOnce(&mut dyn FnMut(Progress)) -> Result<TournamentRun, ArenaError>,
) -> Result<ExitCode> {
    let bar = crate::out::progress(0, "games");
    let mut round = 1;
    let outcome = play(&mut |p| match p {
        Progress::Started {
            tournament,
            played,
            total,
        } => {
            if played == 0 {
                tracing::info!(
                    "tournament #{} in {}: {} bots, {}, {}",
                    tournament.id,
                    path,
                    bots,
                    Count(u64::from(rounds), "round"),
                    Count(total, "game")
                );
            } else {
                tracing::info!(
                    "resuming tournament #{} in {}: {} of {} games already played",
                    tournament.id,
                    path,
                    played,
                    total
                );
            }
            bar.set_length(total);
            bar.set_position(played as u64);
        }
        Progress::GameStored(_) => bar.inc(1),
        Progress::RoundRated { round: r } => {
            round = r + 1;
            bar.set_message(format!("round {r} rated"));
        }
    });
    let done = match outcome {
        Ok(done) => done,
        Err(e) => {
            bar.abandon();
            return Err(arena_error(e, "--bot").context(format!("playing round {round}")));
        }
    };
    bar.finish_and_clear();
    if done.already_complete {
        tracing::info!(
            "tournament #{} in {} is complete; its standings follow (--new plays it again as a \
             new tournament)",
            done.tournament.id,
            path
        );
    }
    print_standings(&done.tournament, &done.standings, args.json.on)?;
    Ok(ExitCode::SUCCESS)
}

fn parse_bots(args: &TournamentArgs) -> Result<Vec<Entrant>> {
    let bots = super::arena::parse_entrants(&args.bots)?;
    if bots.len() < 2 {
        return Err(bad_input!("a tournament needs at least two --bot"));
    }
    Ok(bots)
}

/// A tournament of either kind, for `--enqueue` and `--watch`.
#[derive(Clone, Copy)]
enum Plan<'a> {
    Pair(&'a TournamentPlan),
    Ants(&'a ply_arena::AntsTournamentPlan),
}

/// `--enqueue` and `--watch`: the tournament played by `ply worker`s, not by this process.
fn distributed(args: &TournamentArgs, plan: Plan<'_>) -> Result<ExitCode> {
    let (mut store, shown) = open_any_store(args.db.as_ref())?;
    let programs = if args.store_programs {
        Programs::Stored
    } else {
        Programs::OnWorkers
    };
    let t = if args.enqueue {
        let (t, added) = match plan {
            Plan::Pair(p) => enqueue_tournament(&mut *store, p, programs),
            Plan::Ants(p) => ply_arena::enqueue_ants_tournament(&mut *store, p, programs),
        }
        .map_err(|e| arena_error(e, "--bot"))?;
        tracing::info!(
            tournament = t.id,
            added,
            "tournament #{} in {shown}: {} queued for `ply worker --db ...`",
            t.id,
            Count(added as u64, "game")
        );
        t
    } else {
        // The tournament this configuration queued (its bots' hashes included).
        let config = match plan {
            Plan::Pair(p) => hashed_config(p),
            Plan::Ants(p) => ply_arena::pool::hashed_ants_config(p),
        }
        .map_err(|e| arena_error(e, "--bot"))?;
        store.find_tournament(&config)?.ok_or_else(|| {
            bad_input!(
                "{shown} holds no such tournament (same game, bots and programs, rounds, \
                 limits and seed); queue it first with --enqueue"
            )
        })?
    };
    if args.watch {
        watch(&*store, t.id)?;
    }
    let t = store.tournament(Some(t.id))?;
    if args.watch || t.finished {
        let standings = store.standings(t.id)?;
        print_standings(&t, &standings, args.json.on)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Shows the stored games of tournament `id` as they arrive, until it is finished.
fn watch(store: &dyn ply_store::Store, id: i64) -> Result<()> {
    let bar = crate::out::progress(0, "games");
    loop {
        let counts = store.queue_counts(Some(id), now_ms())?;
        bar.set_length(counts.queued + counts.leased + counts.done);
        bar.set_position(counts.done);
        bar.set_message(format!("{} being played", counts.leased));
        if store.tournament(Some(id))?.finished {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    bar.finish_and_clear();
    Ok(())
}

/// `ply tournament ants`: `ply_arena::run_ants_tournament` with a progress bar, then the
/// standings (TrueSkill); with --enqueue, its games queued for `ply worker`s.
fn run_ants(args: &TournamentArgs) -> Result<ExitCode> {
    use ply_arena::{AntsEntrant, AntsTournamentPlan, run_ants_tournament};
    use ply_referee::persistent::PersistentLimits;
    use ply_referee::spec::AntsSpec;

    let maps = rotation(args)?;
    let mut bots = Vec::new();
    for text in &args.bots {
        let (name, spec_text) = text.split_once('=').ok_or_else(|| {
            bad_input!("--bot {text:?}: write NAME=SPEC, e.g. --bot h=builtin:hunter")
        })?;
        let spec = spec_text
            .parse::<AntsSpec>()
            .map_err(|e| bad_input!("--bot {text:?}: {e}"))?;
        if let AntsSpec::Command(c) = &spec {
            c.check_program(std::env::var_os("PATH").as_deref())
                .map_err(|e| bad_input!("--bot {text:?}: {e}"))?;
        }
        bots.push(AntsEntrant {
            name: name.trim().to_string(),
            spec_text: spec_text.to_string(),
            spec,
        });
    }
    let limits = args.limits.limits()?;
    if limits.cpus != 1 {
        return Err(bad_input!(
            "--cpus {}: Ants bots run one CPU each (their persistent limits have no CPU count); leave --cpus out",
            limits.cpus
        ));
    }
    let plan = AntsTournamentPlan {
        maps,
        bots,
        rounds: args.rounds,
        turns: args.turns,
        seed: args.seed,
        limits: PersistentLimits {
            turn: limits.time,
            memory: limits.memory,
            output: limits.output,
            ..PersistentLimits::default()
        },
        concurrency: args.concurrency,
        new: args.new,
    };
    // Every map read and checked, and enough bots for each, before the database is touched.
    plan.check().map_err(|e| bad_input!("{e}"))?;
    if args.enqueue || args.watch {
        return distributed(args, Plan::Ants(&plan));
    }
    let (mut store, path) = open_any_store(args.db.as_ref())?;
    let sandbox = tournament_sandbox(args, &path)?;
    for b in &plan.bots {
        if let AntsSpec::Command(c) = &b.spec {
            sandbox
                .check_reachable(c, std::env::var_os("PATH").as_deref())
                .map_err(|e| bad_input!("--bot {}: {e}", b.name))?;
        }
    }
    play_and_print(args, &path, plan.bots.len(), plan.rounds, |progress| {
        run_ants_tournament(&mut *store, &plan, &sandbox, progress)
    })
}

/// The rotation of maps `--map` or `--maps` names: each folder's `.map` files sorted by name,
/// each file as given, read whole.
fn rotation(args: &TournamentArgs) -> Result<Vec<ply_arena::RotationMap>> {
    let given: Vec<PathBuf> = match &args.map {
        Some(m) => vec![m.clone()],
        None => args.maps.clone(),
    };
    if given.is_empty() {
        return Err(bad_input!(
            "ply tournament ants needs --map FILE or --maps DIR_OR_FILE... (`ply ants mapgen` \
             writes maps)"
        ));
    }
    let mut files = Vec::new();
    for path in &given {
        if path.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| bad_input!("--maps {}: cannot list it: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "map"))
                .collect();
            if found.is_empty() {
                return Err(bad_input!(
                    "--maps {}: no .map files in this folder (`ply ants mapgen -o {}/NAME.map` \
                     writes one)",
                    path.display(),
                    path.display()
                ));
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    if files.len() > ply_arena::ants_tournament::MAX_MAPS {
        return Err(bad_input!(
            "{} maps: a rotation may have at most {}",
            files.len(),
            ply_arena::ants_tournament::MAX_MAPS
        ));
    }
    files
        .into_iter()
        .map(|f| {
            let text = crate::input::read_file(&f, "the map")?;
            Ok(ply_arena::RotationMap {
                name: f.display().to_string(),
                text,
            })
        })
        .collect()
}
