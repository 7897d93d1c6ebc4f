//! `ply bot GAME`: one contest turn, stdin to stdout.

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use ply_core::Budget;
use ply_games::{BookChoice, EvalChoice, HackerEarth, Heuristics, with_hackerearth_game};
use ply_search::{AlphaBeta, Config};

use crate::args::BotArgs;
use crate::bad_input;

/// The share of the budget left after reading the input that the search may use; the rest
/// covers stopping the search (a check every 1024 nodes), printing, freeing the tables and
/// exiting, and the load's delays. At 0.9 the referee's slowest move was 888 ms over 6,095
/// moves of the four games at load 8-10. At 0.95 (stop 28), 10x10 Reversi lost 3 of 3,150
/// moves on time (1000 ms) while CI's builds shared the core, though its slowest move idle
/// was 856 ms: the load's delays reach 145 ms, and 0.9 leaves them 190 (docs/strength.md).
/// Under heavier load (a CI run, two ladders and three builds on two cores) 0.9 lost Taunt
/// and Othello games on time too: [`watch_starvation`] then stops the search earlier still.
const SEARCH_SHARE: f64 = 0.9;

pub fn run(args: &BotArgs) -> Result<ExitCode> {
    let kind = super::game_kind(&args.game)?;
    with_hackerearth_game!(kind, G => answer::<G>(args)).unwrap_or_else(|| {
        Err(bad_input!(
            "{} has no bot format yet; `ply games` marks the games that have one",
            kind
        ))
    })
}

fn answer<G: HackerEarth + Heuristics>(args: &BotArgs) -> Result<ExitCode> {
    let born = process_age().unwrap_or_default();
    let started = Instant::now();
    let input = crate::input::read_stdin("the state on stdin")?;
    let state = G::read_input(&input).map_err(|e| bad_input!("stdin, {e}"))?;
    if state.is_terminal() {
        return Err(bad_input!(
            "the game in this state is already over; there is no move to make"
        ));
    }
    // The budget runs from the process's start, which the referee's clock is close to:
    // loading this large program on a loaded machine takes time before `main` that the
    // referee counts. (It did not explain the moves over 1 s at the 0.95 share: those came
    // from the load after the deadline; docs/strength.md.)
    let budget = Duration::from_millis(args.time_ms).saturating_sub(born + started.elapsed());
    let eval = match args.eval.as_str() {
        "classic" => EvalChoice::Classic,
        "tempo" => EvalChoice::Tempo,
        "standoff" => EvalChoice::Standoff,
        _ => EvalChoice::Best,
    };
    let mut search = AlphaBeta::<G::Searched, _, _>::with(
        G::evaluator(eval),
        G::Ordering::default(),
        Config {
            threads: args.threads as usize,
            smp: match args.smp {
                None => ply_search::SmpScheme::default(),
                Some(crate::args::Smp::Ahead) => ply_search::SmpScheme::Ahead,
                Some(crate::args::Smp::Defer) => ply_search::SmpScheme::Defer,
            },
            tt_bytes: args
                .hash_mb
                .map_or(Config::default().tt_bytes, |mb| (mb as usize) << 20),
            probcut: args.probcut,
            null_move: args.nmp,
            late_moves: args.lmr,
            ..Config::default()
        },
    );
    if let Some(mv) = book_choice::<G>(args)?.book_move(&state) {
        tracing::debug!("the opening book chose {}", state.write_move(mv).trim_end());
        out!("{}", state.write_move(mv));
        return Ok(ExitCode::SUCCESS);
    }
    // One deadline for the solver and the search: the search gets what the solver left.
    let now = Instant::now();
    let deadline = now + budget.mul_f64(SEARCH_SHARE);
    // The whole budget's end, for the starvation watch: fixed here, before the solver.
    let budget_end = now + budget;
    if args.endgame.unwrap_or_else(G::endgame_by_default)
        && let Some(mut solver) = G::endgame()
        && let Some(mv) = solver.solve(&state, deadline)
    {
        tracing::debug!(
            "the endgame solver chose {}",
            state.write_move(mv).trim_end()
        );
        out!("{}", state.write_move(mv));
        return Ok(ExitCode::SUCCESS);
    }
    let search_budget = Budget {
        deadline: Some(deadline),
        ..Budget::UNLIMITED
    };
    let stop = Arc::new(AtomicBool::new(false));
    search.stop_when(Arc::clone(&stop));
    let done = AtomicBool::new(false);
    let report = std::thread::scope(|scope| {
        scope.spawn(|| watch_starvation(&stop, &done, budget_end, budget));
        let root = G::Searched::from(state.clone());
        let report = if args.model && G::opponent_model(&root).is_some() {
            let (report, model) = ply_search::modelled::search_with_model(
                &mut search,
                &root,
                deadline,
                args.model_share,
                |score, depth| G::model_wanted(&state, score, depth),
                |s| G::opponent_model(s).unwrap_or_default(),
            );
            if let Some(model) = model {
                let rated = |mv| {
                    model
                        .rated
                        .iter()
                        .find(|r| r.mv == mv)
                        .map_or((0, 0), |r| (r.value, r.expected))
                };
                tracing::debug!(
                    "model stage: main depth {} score {} stage depth {} main {} {:?} chose {} {:?} of {} moves",
                    report.depth,
                    report.score,
                    model.depth,
                    state.write_move(model.main).trim_end(),
                    rated(model.main),
                    state.write_move(model.best).trim_end(),
                    rated(model.best),
                    model.rated.len()
                );
            }
            report
        } else {
            search.search_parallel(&root, search_budget)
        };
        done.store(true, Ordering::Relaxed);
        report
    });
    let mv = report.best.context("no legal move found")?;
    // `ply -v bot ...`: the search's report on stderr (stdout holds only the move).
    tracing::debug!("{report}");
    out!("{}", state.write_move(mv));
    Ok(ExitCode::SUCCESS)
}

/// The book `--book` and `--book-file` choose: none, the committed one, or the file's (read
/// and checked; played with a warning when another evaluation made it).
fn book_choice<G: HackerEarth + Heuristics>(args: &BotArgs) -> Result<BookChoice<G>> {
    let on = args
        .book
        .unwrap_or_else(|| args.book_file.is_some() || G::book_by_default());
    if !on {
        return Ok(BookChoice::Off);
    }
    let Some(path) = &args.book_file else {
        return Ok(BookChoice::Committed);
    };
    let bytes =
        std::fs::read(path).map_err(|e| bad_input!("reading the book {}: {e}", path.display()))?;
    let book =
        G::read_book(&bytes).map_err(|e| bad_input!("--book-file {}: {e}", path.display()))?;
    if let Some(why) = book.mismatch() {
        tracing::warn!("--book-file {}: {why}", path.display());
    }
    Ok(BookChoice::Own(book))
}

/// How often the starvation watch looks at the search thread's scheduling.
const WATCH_EVERY: Duration = Duration::from_millis(5);

/// The least CPU share the reserve is scaled for: below it the reserve is half the budget.
const LEAST_SHARE: f64 = 0.2;

/// Raises `stop` once the time left before `end` (the end of the whole `budget`) is less
/// than the reserve that the share of the CPU this process gets calls for: on a loaded core
/// every step after the search (unwinding, writing the move, exiting, the judge noticing)
/// waits for the core as the search does. An idle core keeps the fixed share's reserve; a
/// core shared with a build gets more (see [`reserve`]). Returns when `done` is raised.
fn watch_starvation(stop: &AtomicBool, done: &AtomicBool, end: Instant, budget: Duration) {
    let Some(mut last) = main_thread_schedule() else {
        return;
    };
    // The share since the process started (its loading included), then smoothed.
    let mut share = last.share_since(&Schedule::default());
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(WATCH_EVERY);
        let Some(now) = main_thread_schedule() else {
            return;
        };
        share = 0.7 * share + 0.3 * now.share_since(&last);
        last = now;
        let left = end.saturating_duration_since(Instant::now());
        if left <= reserve(budget, share) {
            tracing::debug!("stopping early: {left:?} left, CPU share {share:.2}");
            stop.store(true, Ordering::Relaxed);
            return;
        }
    }
}

/// The time to keep after the search when this process gets `share` of a core: the fixed
/// share's reserve on an idle core, scaled by how much longer everything takes at `share`,
/// at most half the budget.
fn reserve(budget: Duration, share: f64) -> Duration {
    let idle = budget.mul_f64(1.0 - SEARCH_SHARE);
    idle.div_f64(share.clamp(LEAST_SHARE, 1.0)).min(budget / 2)
}

/// Time the main thread (the search's, with one thread) ran and waited to run, from
/// `/proc/self/schedstat` (nanoseconds since it started).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Schedule {
    ran: u64,
    waited: u64,
}

impl Schedule {
    /// The share of the time it wanted the CPU that it got, since `before` (1 when it
    /// wanted none).
    fn share_since(&self, before: &Schedule) -> f64 {
        let ran = self.ran.saturating_sub(before.ran) as f64;
        let waited = self.waited.saturating_sub(before.waited) as f64;
        if ran + waited == 0.0 {
            1.0
        } else {
            ran / (ran + waited)
        }
    }
}

fn main_thread_schedule() -> Option<Schedule> {
    let text = std::fs::read_to_string("/proc/self/schedstat").ok()?;
    let mut fields = text.split_whitespace().map(str::parse::<u64>);
    Some(Schedule {
        ran: fields.next()?.ok()?,
        waited: fields.next()?.ok()?,
    })
}

/// How long ago this process was started, as the kernel counts it (`/proc/self/stat`'s start
/// time against `/proc/uptime`), rounded up by a clock tick; `None` where that cannot be read
/// or makes no sense (over 5 s: a container whose uptime is its own, say).
fn process_age() -> Option<Duration> {
    const USER_HZ: f64 = 100.0; // the unit of /proc's clock ticks on Linux
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Field 22, counted after the command name's closing parenthesis (field 2).
    let start: f64 = stat
        .rsplit_once(')')?
        .1
        .split_whitespace()
        .nth(19)?
        .parse()
        .ok()?;
    let uptime: f64 = std::fs::read_to_string("/proc/uptime")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let age = uptime - start / USER_HZ + 1.0 / USER_HZ;
    (0.0..5.0)
        .contains(&age)
        .then(|| Duration::from_secs_f64(age))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reserve_is_the_fixed_share_s_when_idle_and_grows_with_starvation() {
        let budget = Duration::from_millis(900);
        let idle = reserve(budget, 1.0);
        assert_eq!(idle, budget.mul_f64(1.0 - SEARCH_SHARE));
        assert_eq!(reserve(budget, 0.5), idle * 2);
        // Starved beyond the least share: half the budget, never more.
        assert_eq!(reserve(budget, 0.1), budget / 2);
        assert_eq!(reserve(budget, 0.0), budget / 2);
    }

    #[test]
    fn the_cpu_share_is_what_ran_of_what_wanted_to_run() {
        let before = Schedule {
            ran: 100,
            waited: 50,
        };
        let after = Schedule {
            ran: 400,
            waited: 350,
        };
        assert_eq!(after.share_since(&before), 0.5);
        assert_eq!(before.share_since(&before), 1.0);
    }

    #[test]
    fn the_main_thread_s_schedule_is_read_and_grows_with_work() {
        let Some(a) = main_thread_schedule() else {
            eprintln!("skipping: no /proc/self/schedstat here");
            return;
        };
        // This test runs on a thread of its own: the main thread's run time may not grow,
        // but it is read and never goes back.
        let b = main_thread_schedule().unwrap();
        assert!(b.ran >= a.ran && b.waited >= a.waited, "{a:?} then {b:?}");
        assert!(a.ran > 0, "{a:?}");
    }

    #[test]
    fn the_process_age_is_read_and_grows() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            eprintln!("skipping: no /proc here");
            return;
        }
        let t0 = Instant::now();
        let first = process_age();
        std::thread::sleep(Duration::from_millis(50));
        let second = process_age();
        // A test binary younger than 5 s (its tests start at once) has an age; it grows with
        // the clock, to the kernel's 10 ms resolution.
        if let (Some(a), Some(b)) = (first, second) {
            assert!(
                b + Duration::from_millis(20) >= a + t0.elapsed(),
                "{a:?} then {b:?}"
            );
        } else {
            eprintln!("the process is older than 5 s: no age (as designed)");
        }
    }
}
