//! Persistent Ants bots under the referee: misbehaving programs (`tests/bots/ants_bot.sh`)
//! end with the original engine's statuses, their ants stay on the map, the other bots play
//! on, and no process they started outlives the game.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Duration;

use ply_ants::bot::BuiltinBot;
use ply_ants::{AntsGame, AntsMap, AntsMatch, FoodMode, MatchResult, Settings};
use ply_core::Fault;
use ply_referee::Sandbox;
use ply_referee::ants::{AntsSeat, SeatRecord, play_ants};
use ply_referee::persistent::{PersistentBot, PersistentLimits};
use ply_referee::process::{CommandLine, MemoryGuard};
use ply_testkit::procs::{self, Look};
use serde_json::Value;

/// Three players ten columns apart (out of each other's sight), two ants each on and beside
/// their hill, no food: nothing happens unless a bot acts, so every ant should live to the end.
const MAP: &str = "rows 4\ncols 30\nplayers 3\n\
m A.........B.........C.........\n\
m a.........b.........c.........\n\
m ..............................\n\
m ..............................\n";

const TURNS: u32 = 8;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/bots/ants_bot.sh")
}

struct Game {
    /// The `end` lines the programs got to read (`end PID`).
    ends: Vec<String>,
    result: MatchResult,
    records: Vec<SeatRecord>,
    replay: Value,
    pids: Vec<i32>,
}

/// Plays [`MAP`] with a holding script in seat 0, `ants_bot.sh MODE TURN` in seat 1 and
/// `builtin:hold` in seat 2.
fn play(mode: &str, at: u32, limits: PersistentLimits) -> Game {
    play_with(mode, at, limits, false, &unjailed())
}

/// [`play`] in strict mode or not, in `sandbox`.
fn play_with(
    mode: &str,
    at: u32,
    limits: PersistentLimits,
    strict: bool,
    sandbox: &Sandbox,
) -> Game {
    play_seats(("hold", 99), (mode, at), limits, strict, sandbox, |_, _| {})
}

/// [`play_with`] with seat 0's mode too, and `on_turn` called after each turn with the
/// match and the test's scratch directory.
fn play_seats(
    first: (&str, u32),
    second: (&str, u32),
    limits: PersistentLimits,
    strict: bool,
    sandbox: &Sandbox,
    mut on_turn: impl FnMut(&AntsMatch, &Path),
) -> Game {
    play_until(first, second, limits, strict, sandbox, |m, dir| {
        on_turn(m, dir);
        ControlFlow::Continue(())
    })
}

/// [`play_seats`] where `on_turn` may stop the game (as Ctrl-C does in `ply ants play`).
fn play_until(
    first: (&str, u32),
    second: (&str, u32),
    limits: PersistentLimits,
    strict: bool,
    sandbox: &Sandbox,
    mut on_turn: impl FnMut(&AntsMatch, &Path) -> ControlFlow<()>,
) -> Game {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("pids");
    let program = |mode: &str, at: u32| {
        let command = CommandLine {
            program: "/bin/sh".into(),
            args: vec![
                script().display().to_string(),
                mode.into(),
                at.to_string(),
                pidfile.display().to_string(),
            ],
        };
        AntsSeat::Program(Box::new(
            PersistentBot::start(sandbox, &command, &limits, true).unwrap(),
        ))
    };
    let mut seats = vec![
        program(first.0, first.1),
        program(second.0, second.1),
        AntsSeat::Builtin(BuiltinBot::Hold.create(2)),
    ];
    let settings = Settings {
        turns: TURNS,
        scenario: true,
        food: FoodMode::None,
        engine_seed: 1,
        player_seed: 1,
        strict,
        ..Settings::default()
    };
    let map = AntsMap::parse(MAP).unwrap();
    let mut m = AntsMatch::new(AntsGame::new(&map, settings).unwrap());
    let records = play_ants(&mut m, &mut seats, &limits, true, |m| {
        on_turn(m, dir.path())
    });
    drop(seats);
    let pids = std::fs::read_to_string(&pidfile)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    let names: Vec<String> = (0..3).map(|b| format!("seat{b}")).collect();
    let ends = std::fs::read_to_string(dir.path().join("pids.end"))
        .unwrap_or_default()
        .lines()
        .map(String::from)
        .collect();
    Game {
        ends,
        result: m.result().unwrap(),
        replay: m.result_json(&names).unwrap(),
        records,
        pids,
    }
}

/// Generous limits, so that a loaded machine does not make the well-behaved bots time out.
fn limits() -> PersistentLimits {
    PersistentLimits {
        load: Duration::from_secs(5),
        turn: Duration::from_secs(3),
        ..PersistentLimits::default()
    }
}

/// Whether `pid` still runs (a zombie waiting for an init that does not reap is dead).
fn running(pid: i32) -> bool {
    u32::try_from(pid).is_ok_and(procs::running)
}

/// The checks every misbehaving bot must pass: its status and turn, the others playing to
/// the turn limit, every ant (its own included) alive at the end, and no process left.
fn check(g: &Game, status: &str, turn: u32, detail: &str) {
    assert_eq!(g.result.status[1].as_str(), status);
    assert_eq!(g.result.player_turns[1], turn);
    assert_eq!(g.records[1].failed_turn, Some(turn));
    let d = g.records[1].detail.as_deref().unwrap_or("");
    assert!(d.contains(detail), "detail {d:?} lacks {detail:?}");
    // The bot is sent nothing after the turn it failed, not even an end block.
    let sent1 = String::from_utf8_lossy(&g.records[1].sent);
    assert!(!sent1.contains(&format!("turn {}\n", turn + 1)), "{sent1}");
    assert!(!sent1.contains("end\n"), "{sent1}");
    check_others(g);
}

/// The others play on, the failed bot forfeits its hill, every ant lives to the end, and no
/// process is left.
fn check_others(g: &Game) {
    // The others play on to the turn limit.
    assert_eq!(g.result.game_length, TURNS);
    for b in [0, 2] {
        assert_eq!(g.result.status[b].as_str(), "survived");
        assert_eq!(g.result.player_turns[b], TURNS);
        assert_eq!(g.records[b].detail, None);
    }
    let sent0 = String::from_utf8_lossy(&g.records[0].sent);
    assert!(sent0.contains(&format!("turn {TURNS}\n")), "{sent0}");
    assert!(sent0.contains("\nend\nplayers 3\n"), "{sent0}");
    // A crash or timeout forfeits the bot's hill: 1 - 1.
    assert_eq!(g.result.score, vec![1, 0, 1]);
    // Its ants stay on the map: in the replay, every ant lives to the end of the game.
    let ants = g.replay["replaydata"]["ants"].as_array().unwrap();
    assert_eq!(ants.len(), 6);
    for a in ants {
        assert_eq!(a[3], TURNS + 1, "ant {a} died");
    }
    for &pid in &g.pids {
        assert!(!running(pid), "process {pid} outlived the game");
    }
}

#[test]
fn a_bot_that_crashes_mid_game_is_crashed_and_its_ants_stay() {
    let g = play("crash", 3, limits());
    check(&g, "crashed", 3, "exit code 3");
}

#[test]
fn a_bot_that_hangs_times_out_and_its_child_is_killed() {
    let l = PersistentLimits {
        turn: Duration::from_millis(1500),
        ..limits()
    };
    let g = play("hang", 3, l);
    check(&g, "timeout", 3, "no go within 1500 ms");
    assert_eq!(g.pids.len(), 3, "the hanging bot's sleep is checked too");
    assert!(g.records[1].longest >= Duration::from_millis(1500));
}

#[test]
fn a_bot_that_floods_its_output_loses_like_a_timeout() {
    let l = PersistentLimits {
        output: 64 << 10,
        ..limits()
    };
    let g = play("flood", 2, l);
    check(&g, "timeout", 2, "output flood: more than 65536 bytes");
    // Killed at the cap, not at the deadline.
    assert!(g.records[1].longest < Duration::from_secs(3));
}

#[test]
fn a_bot_that_fills_stderr_still_times_out_on_time() {
    let l = PersistentLimits {
        turn: Duration::from_millis(1500),
        ..limits()
    };
    let g = play("babble", 2, l);
    check(&g, "timeout", 2, "no go within 1500 ms");
    assert!(g.records[1].stderr.starts_with(b"babble\n"));
}

#[test]
fn a_bot_that_never_says_go_at_load_time_times_out_at_turn_0() {
    let l = PersistentLimits {
        load: Duration::from_millis(1500),
        ..limits()
    };
    let g = play("silent", 0, l);
    check(&g, "timeout", 0, "no go within 1500 ms");
}

#[test]
fn a_memory_hog_crashes_without_harming_the_referee() {
    // A generous turn: the bot must die of its memory, not of a slow machine.
    let l = PersistentLimits {
        memory: 64 << 20,
        turn: Duration::from_secs(10),
        ..limits()
    };
    let g = play("hog", 2, l);
    check(&g, "crashed", 2, "");
}

#[test]
fn a_memory_hog_under_rlimits_crashes_too() {
    let l = PersistentLimits {
        memory: 64 << 20,
        turn: Duration::from_secs(10),
        ..limits()
    };
    let g = play_with(
        "hog",
        2,
        l,
        false,
        &Sandbox::with_guard(MemoryGuard::Rlimit),
    );
    check(&g, "crashed", 2, "");
}

/// Strict mode: an invalid order ends the bot's orders with status `invalid`; unlike a
/// crash, the engine then sends it its `end` block (it is among the turn's eliminated bots)
/// before killing it.
#[test]
fn an_invalid_order_in_strict_mode_is_invalid_and_gets_the_end_block() {
    let g = play_with("invalid", 2, limits(), true, &unjailed());
    assert_eq!(g.result.status[1].as_str(), "invalid");
    assert_eq!(g.result.player_turns[1], 2);
    assert_eq!(g.records[1].detail, None);
    let sent1 = String::from_utf8_lossy(&g.records[1].sent);
    assert!(!sent1.contains("turn 3\n"), "{sent1}");
    assert!(
        sent1.contains("turn 2\n") && sent1.contains("go\nend\nplayers 3\n"),
        "{sent1}"
    );
    // From its own point of view: itself first, opponents it never saw as None.
    assert!(
        sent1.contains("score 0 None None\nstatus invalid None None\n"),
        "{sent1}"
    );
    check_others(&g);
}

#[test]
fn a_late_answer_is_a_timeout_even_if_it_comes() {
    let l = PersistentLimits {
        turn: Duration::from_millis(1500),
        ..limits()
    };
    let g = play("late", 1, l);
    check(&g, "timeout", 1, "no go within 1500 ms");
}

#[test]
fn well_behaved_programs_survive_and_get_the_end_block() {
    let g = play("hold", 99, limits());
    assert_eq!(
        g.result
            .status
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>(),
        ["survived", "survived", "survived"]
    );
    for r in &g.records[..2] {
        assert_eq!(r.detail, None);
        let sent = String::from_utf8_lossy(&r.sent);
        assert!(sent.starts_with("turn 0\nloadtime 3000\n"), "{sent}");
        assert!(sent.ends_with("go\n") && sent.contains("\nend\n"), "{sent}");
        // setup + 8 turns answered with a bare go
        assert_eq!(r.received, "go\n".repeat(TURNS as usize + 1).into_bytes());
    }
    for &pid in &g.pids {
        assert!(!running(pid), "process {pid} outlived the game");
    }
}

/// A game stopped between turns by the caller (Ctrl-C in `ply ants play`) ends there: the
/// scores as they stand, the cutoff `interrupted`, each program sent its end block instead
/// of the next turn and read it (with `end_wait`), and no process left.
#[test]
fn a_game_stopped_between_turns_ends_there_with_the_end_block() {
    let l = PersistentLimits {
        end_wait: Duration::from_millis(500),
        ..limits()
    };
    let g = play_until(("hold", 99), ("hold", 99), l, false, &unjailed(), |m, _| {
        if m.turn() == 3 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    // Stopped once turn 2 was played (the match then waits for turn 3's answers).
    assert_eq!(g.result.game_length, 2);
    assert_eq!(g.result.player_turns, vec![2, 2, 2]);
    assert_eq!(g.result.cutoff.as_str(), "interrupted");
    assert_eq!(g.replay["replaydata"]["cutoff"], "interrupted");
    assert_eq!(g.result.score, vec![1, 1, 1]);
    // Every ant lives to the end of the game as played, as at a turn limit.
    let ants = g.replay["replaydata"]["ants"].as_array().unwrap();
    assert_eq!(ants.len(), 6);
    for a in ants {
        assert_eq!(a[3], 3, "ant {a}");
    }
    for r in &g.records[..2] {
        let sent = String::from_utf8_lossy(&r.sent);
        assert!(sent.contains("turn 2\n"), "{sent}");
        assert!(!sent.contains("turn 3\n"), "{sent}");
        assert!(sent.contains("\nend\nplayers 3\n"), "{sent}");
        // The setup, turns 1 and 2, and the end block (which ends with `go`, as the
        // original's did), read during the end wait.
        assert_eq!(r.received, "go\n".repeat(4).into_bytes());
    }
    let mut want: Vec<String> = g.pids.iter().map(|p| format!("end {p}")).collect();
    let mut got = g.ends.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want, "each program read its end block");
    for &pid in &g.pids {
        assert!(!running(pid), "process {pid} outlived the game");
    }
}

/// With the original's default `end_wait` of 0 the bots are killed, still paused, right
/// after their `end` block is written; with `end_wait` they run and read it.
#[test]
fn bots_read_the_end_block_only_with_end_wait() {
    let g = play("hold", 99, limits());
    assert_eq!(g.ends, Vec::<String>::new());
    let l = PersistentLimits {
        end_wait: Duration::from_millis(500),
        ..limits()
    };
    let g = play("hold", 99, l);
    let mut want: Vec<String> = g.pids.iter().map(|p| format!("end {p}")).collect();
    let mut got = g.ends.clone();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    for &pid in &g.pids {
        assert!(!running(pid), "process {pid} outlived the game");
    }
}

/// Bots are stopped, children included, while they are not on turn: a child that ticks
/// every 10 ms barely ticks during the 2.4 s the other bot spends on turns 1 to 8, and
/// ticks freely once the bots are let run after the end.
#[test]
fn bots_and_their_children_are_paused_between_their_turns() {
    let l = PersistentLimits {
        end_wait: Duration::from_millis(500),
        ..limits()
    };
    let ticks = |dir: &Path| {
        std::fs::read_to_string(dir.join("pids.ticks"))
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let mut seen = Vec::new();
    let mut after = 0;
    let g = play_seats(
        ("ticker", 0),
        ("slow", 0),
        l,
        false,
        &unjailed(),
        |m, dir| {
            seen.push((std::time::Instant::now(), ticks(dir)));
            if m.is_over() {
                // The end wait has passed by now.
                after = ticks(dir);
            }
        },
    );
    assert_eq!(g.result.status[0].as_str(), "survived");
    assert_eq!(g.result.status[1].as_str(), "survived");
    let (t1, n1) = seen[1];
    let (t8, n8) = seen[TURNS as usize - 1];
    assert!(t8 - t1 >= Duration::from_millis(1800), "{:?}", t8 - t1);
    assert!(n8 - n1 < 40, "the ticker ran while paused: {n1} -> {n8}");
    assert!(after >= n8 + 10, "the ticker never ran: {n8} -> {after}");
    for &pid in &g.pids {
        assert!(!running(pid), "process {pid} outlived the game");
    }
}

/// Lines are stripped, `go` is any case, and what follows a `go` is read the next turn, as
/// the original's stdout queue kept it.
#[test]
fn lines_after_go_wait_for_the_next_turn() {
    let sandbox = unjailed();
    let command = CommandLine {
        program: "/bin/sh".into(),
        args: vec![
            "-c".into(),
            "read l; printf ' go \\r\\no 1 2 N  \\n\\nGo\\no 3 4 s\\n'; exec cat >/dev/null".into(),
        ],
    };
    let limits = limits();
    let mut bot = PersistentBot::start(&sandbox, &command, &limits, true).unwrap();
    let first = bot.exchange("ready\n", limits.load);
    assert_eq!(first.reply, Ok(vec![]));
    let second = bot.exchange("turn 1\ngo\n", limits.turn);
    assert_eq!(second.reply, Ok(vec!["o 1 2 N".to_string(), String::new()]));
    let third = bot.exchange("turn 2\ngo\n", Duration::from_millis(200));
    assert_eq!(third.reply, Err(Fault::TimeLimit));
    assert!(bot.is_dead());
    let t = bot.transcript().unwrap();
    assert_eq!(t.sent, b"ready\nturn 1\ngo\nturn 2\ngo\n");
}

/// The detected sandbox without its jail: these bots write their pids and what they saw
/// into the test's folder, which a jailed bot cannot (`tests/hostile_bots.rs` checks the
/// jail itself).
fn unjailed() -> Sandbox {
    Sandbox::detect().with_jail(None)
}

/// A sandbox with neither a jail nor a cgroup (rlimits only), whose persistent bots run
/// under the keeper (the launcher run directly, their subreaper).
fn kept() -> Sandbox {
    let launcher = ply_referee::launcher::Launcher::program(
        Path::new(env!("CARGO_BIN_EXE_ply-jail-launcher")),
        vec![ply_referee::launcher::ARG.into()],
    )
    .unwrap();
    let sandbox = Sandbox::with_guard(MemoryGuard::Rlimit).with_launcher(Some(launcher));
    assert!(sandbox.jail().is_none() && !sandbox.has_cgroup());
    sandbox
}

/// Processes (this one's aside) with `marker` in their command line or environment.
fn marked(marker: &str) -> Vec<(i32, String)> {
    procs::marked(marker, Look::CommandLineOrEnvironment)
        .into_iter()
        .map(|p| (p.pid as i32, p.cmdline))
        .collect()
}

/// Waits up to `wait` for no process to carry `marker`; what is left.
fn marked_after(marker: &str, wait: Duration) -> Vec<(i32, String)> {
    procs::marked_after(marker, Look::CommandLineOrEnvironment, wait)
        .into_iter()
        .map(|p| (p.pid as i32, p.cmdline))
        .collect()
}

/// The marker of [`play_seats`]' bots: its pid file, in a fresh temporary folder.
fn pidfile_marker(on_turn_dir: &Path) -> String {
    on_turn_dir.join("pids").display().to_string()
}

/// Without a jail and without a cgroup, a persistent bot's helper that left its process
/// group (`setsid`) is killed with the bot at the end of the game: the keeper, its
/// subreaper, kills it. Without the keeper (no launcher) the same helper survives the game,
/// which this test checks too, so that it can tell the two apart.
#[test]
fn without_jail_or_cgroup_a_persistent_bot_s_setsid_helper_dies_with_the_game() {
    for keeper in [true, false] {
        let sandbox = if keeper {
            kept()
        } else {
            Sandbox::with_guard(MemoryGuard::Rlimit)
        };
        let mut marker = String::new();
        let g = play_seats(
            ("hold", 99),
            ("escape", 1),
            limits(),
            false,
            &sandbox,
            |_, dir| marker = pidfile_marker(dir),
        );
        assert_eq!(g.result.status[1].as_str(), "survived");
        // The bot, its helper (whose pid it wrote) and nothing else.
        assert_eq!(g.pids.len(), 3, "{:?}", g.pids);
        let left = marked_after(&marker, Duration::from_secs(3));
        if keeper {
            assert_eq!(left, Vec::new(), "outlived the game");
            for &pid in &g.pids {
                assert!(!running(pid), "process {pid} outlived the game");
            }
        } else {
            assert!(!left.is_empty(), "the helper died without a keeper");
            for (pid, _) in left {
                let _ = std::process::Command::new("kill")
                    .args(["-9", &pid.to_string()])
                    .status();
            }
            assert_eq!(marked_after(&marker, Duration::from_secs(3)), Vec::new());
        }
    }
}

/// Without a jail and without a cgroup, nothing of a persistent bot outlives its referee
/// killed with -9: the bot dies of its parent-death signal with the keeper, and the keeper
/// kills its `setsid` helper when it sees the referee's socket end. The referee is this
/// test run again as a process of its own (`PLY_TEST_KEPT_REFEREE`), which starts the bot,
/// plays its setup turn (where the helper starts) and waits to be killed.
#[test]
fn without_jail_or_cgroup_nothing_of_a_persistent_bot_outlives_its_referee_killed_with_sigkill() {
    const NAME: &str = "without_jail_or_cgroup_nothing_of_a_persistent_bot_outlives_its_referee_killed_with_sigkill";
    if let Some(dir) = std::env::var_os("PLY_TEST_KEPT_REFEREE") {
        let pidfile = Path::new(&dir).join("pids");
        let command = CommandLine {
            program: "/bin/sh".into(),
            args: vec![
                script().display().to_string(),
                "escape".into(),
                "0".into(),
                pidfile.display().to_string(),
            ],
        };
        let limits = limits();
        let mut bot = PersistentBot::start(&kept(), &command, &limits, false).unwrap();
        let setup = bot.exchange("ready\n", limits.load);
        assert_eq!(setup.reply, Ok(vec![]));
        std::fs::write(Path::new(&dir).join("ready"), "").unwrap();
        std::thread::sleep(Duration::from_secs(600));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let marker = pidfile_marker(dir.path());
    let mut referee = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture", "--test-threads=1"])
        .env("PLY_TEST_KEPT_REFEREE", dir.path())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Until the setup turn is played and the helper's sleep runs.
    let until = std::time::Instant::now() + Duration::from_secs(30);
    let helper_sleeps = || {
        marked(&marker).iter().any(|(pid, _)| {
            std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c.starts_with(b"sleep\0"))
        })
    };
    while !(dir.path().join("ready").exists() && helper_sleeps())
        && std::time::Instant::now() < until
    {
        std::thread::sleep(Duration::from_millis(20));
    }
    let ran = helper_sleeps();
    let before = marked(&marker);
    referee.kill().unwrap();
    referee.wait().unwrap();
    assert!(
        dir.path().join("ready").exists(),
        "the referee never played"
    );
    assert!(ran, "the helper never ran: {before:?}");
    assert_eq!(
        marked_after(&marker, Duration::from_secs(3)),
        Vec::new(),
        "outlived the referee"
    );
}

/// Under the keeper, misbehaving bots end as they do without it: a crash is `crashed` with
/// its exit code (the keeper passes the wait status on), a hang and a flood are `timeout`,
/// a memory hog under the inherited `RLIMIT_AS` is `crashed`; the others play on and no
/// process is left.
#[test]
fn under_the_keeper_misbehaving_bots_end_as_without_it() {
    let g = play_with("crash", 3, limits(), false, &kept());
    check(&g, "crashed", 3, "exit code 3");
    let l = PersistentLimits {
        turn: Duration::from_millis(1500),
        ..limits()
    };
    let g = play_with("hang", 3, l, false, &kept());
    check(&g, "timeout", 3, "no go within 1500 ms");
    let l = PersistentLimits {
        output: 64 << 10,
        ..limits()
    };
    let g = play_with("flood", 2, l, false, &kept());
    check(&g, "timeout", 2, "output flood: more than 65536 bytes");
    let l = PersistentLimits {
        memory: 64 << 20,
        turn: Duration::from_secs(10),
        ..limits()
    };
    let g = play_with("hog", 2, l, false, &kept());
    check(&g, "crashed", 2, "");
}
