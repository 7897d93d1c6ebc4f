//! The level files: every built-in one parses, bad ones are reported with line and column,
//! and the autopilot clears every level within a step bound for several seeds.

use ply_breaker::level::BUILTIN;
use ply_breaker::{Level, Start, Status, autopilot, builtin_levels, rng};

#[test]
fn the_six_level_files_parse_and_round_trip() {
    let levels = builtin_levels();
    assert_eq!(levels.len(), 6);
    let names: Vec<_> = levels.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "First Light",
            "Pyramid",
            "Checkers",
            "Fortress",
            "Diamond",
            "Gauntlet"
        ]
    );
    for (file, text) in BUILTIN {
        let level = Level::parse(text).unwrap();
        assert_eq!(Level::parse(&level.to_text()).unwrap(), level, "{file}");
        assert!(level.breakable() > 20, "{file}");
        // The files on disk are the ones compiled in.
        let on_disk =
            std::fs::read_to_string(format!("{}/levels/{file}", env!("CARGO_MANIFEST_DIR")))
                .unwrap();
        assert_eq!(on_disk, text);
    }
    assert!(
        levels[3]
            .rows
            .iter()
            .flatten()
            .any(|c| *c == ply_breaker::Cell::Solid)
    );
}

#[test]
fn every_problem_is_reported_with_line_and_column() {
    let text =
        "name: Bad\nspeed: 300\ncolour: red\nbricks:\n1111111111111\n11x1111111111\n111111\n";
    let err = Level::parse(text).unwrap_err();
    let got: Vec<_> = err.problems.iter().map(|p| (p.line, p.column)).collect();
    assert_eq!(got, [(2, 8), (3, 1), (6, 3), (7, 7)]);
    let msg = err.to_string();
    assert!(
        msg.contains("line 2, column 8: speed \"300\" is not a whole number from 50 to 200"),
        "{msg}"
    );
    assert!(
        msg.contains("line 3, column 1: unknown key \"colour\""),
        "{msg}"
    );
    assert!(msg.contains("line 6, column 3: unknown brick 'x'"), "{msg}");
    assert!(
        msg.contains("line 7, column 7: a row has 6 cells; it needs exactly 13"),
        "{msg}"
    );
}

#[test]
fn a_level_needs_bricks_to_break_and_at_most_twelve_rows() {
    let err = Level::parse("bricks:\nXXXXXXXXXXXXX\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 1, column 1: the level has no breakable brick (1-9 or *)"
    );
    let err = Level::parse("name: x\n").unwrap_err();
    assert!(err.to_string().contains("no `bricks:` line"));
    let many = format!("bricks:\n{}", "1111111111111\n".repeat(13));
    let err = Level::parse(&many).unwrap_err();
    assert_eq!(
        err.to_string(),
        "line 14, column 1: more than 12 rows of bricks"
    );
}

/// Steps (at 60 a second: 7 minutes) within which the autopilot must clear any level.
const STEP_BOUND: u64 = 25_000;

#[test]
fn the_autopilot_clears_every_level_for_several_seeds() {
    for (i, level) in builtin_levels().iter().enumerate() {
        for seed in [1, 2, 3] {
            let sim = autopilot::run_level(
                level,
                rng::level_seed(seed, i),
                Start::default(),
                STEP_BOUND,
                |_, _| true,
            );
            assert_eq!(
                sim.status(),
                Status::Cleared,
                "level {} seed {seed}: {} bricks left after {} steps, {} lives",
                i + 1,
                sim.breakable_left(),
                sim.steps(),
                sim.lives()
            );
        }
    }
}

/// Runs 28 and 40 once reached Fortress's last brick never: the paddle stopped within half
/// a step of its aim, so the predicted rebound through the gate was not the one played,
/// and the same miss repeated forever.
#[test]
fn whole_runs_that_once_circled_forever_are_cleared() {
    let levels = builtin_levels();
    for seed in [28, 40] {
        let mut start = Start::default();
        for (i, level) in levels.iter().enumerate() {
            let sim = autopilot::run_level(
                level,
                rng::level_seed(seed, i),
                start,
                STEP_BOUND,
                |_, _| true,
            );
            assert_eq!(sim.status(), Status::Cleared, "run {seed}, level {}", i + 1);
            start = sim.carry();
        }
    }
}
