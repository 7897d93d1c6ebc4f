//! Traces replay exactly: the golden trace checked in at `tests/data/golden_trace.json`
//! reproduces every recorded state digest (one every 30 steps) and final result, and
//! recording the same play again gives the same file byte for byte.
//!
//! After a deliberate change to the physics or the autopilot, regenerate it with
//! `PLY_BLESS=1 cargo test -p ply-breaker --test trace` and say why in the commit.

use ply_breaker::trace::{Episode, Recorder, ReplayError, decode};
use ply_breaker::{Action, Autopilot, Sim, Start, Status, Trace, builtin_levels};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/golden_trace.json");

/// Plays level `number` with the autopilot, except that during `still` steps the paddle
/// is left alone (so lives get lost), up to `max` steps.
fn record(
    number: usize,
    seed: u64,
    start: Start,
    max: u64,
    still: impl Fn(u64) -> bool,
) -> (Episode, Sim) {
    let level = &builtin_levels()[number - 1];
    let mut sim = Sim::new(level, seed, start);
    let mut rec = Recorder::new(number, level, seed, start);
    let mut pilot = Autopilot::new();
    while sim.status() == Status::Playing && sim.steps() < max {
        let mut a = pilot.act(&sim);
        if still(sim.steps()) && a != Action::Launch {
            a = Action::Stay;
        }
        sim.step(a);
        rec.record(a, &sim);
    }
    (rec.finish(&sim), sim)
}

fn golden_run() -> Trace {
    let (first, sim) = record(3, 15, Start::default(), 40_000, |_| false);
    assert_eq!(sim.status(), Status::Cleared);
    let (second, _) = record(6, 12, sim.carry(), 6_000, |s| (s / 500) % 3 == 2);
    Trace::new(vec![first, second])
}

#[test]
fn recording_the_same_play_again_gives_the_golden_file() {
    let json = golden_run().to_json() + "\n";
    if std::env::var_os("PLY_BLESS").is_some() {
        std::fs::write(GOLDEN, &json).unwrap();
    }
    let golden = std::fs::read_to_string(GOLDEN).unwrap();
    assert!(
        json == golden,
        "the recording differs from {GOLDEN} (see this file's comment)"
    );
}

#[test]
fn the_golden_trace_replays_frame_for_frame() {
    let trace = Trace::from_json(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    assert_eq!(trace.episodes.len(), 2);
    let (mut most_balls, mut effects, mut lives_lost, mut capsules) = (0, 0, 0, 0);
    let mut last_lives = trace.episodes[0].lives;
    let mut last_episode = 1;
    let steps = trace
        .replay(|episode, sim| {
            if episode != last_episode {
                last_episode = episode;
                last_lives = sim.lives();
            }
            most_balls = most_balls.max(sim.balls().len());
            effects += usize::from(!sim.effects().is_empty());
            capsules += sim.capsules().len();
            if sim.lives() < last_lives {
                lives_lost += 1;
            }
            last_lives = sim.lives();
            true
        })
        .unwrap();
    let recorded: u64 = trace.episodes.iter().map(|e| e.result.steps).sum();
    assert_eq!(steps, recorded);
    assert_eq!(trace.episodes[0].result.status, "cleared");
    assert_eq!(trace.episodes[1].result.status, "game over");
    // The trace exercises more than a single bouncing ball.
    assert!(most_balls >= 3, "multi-ball in the trace");
    assert!(effects > 0 && capsules > 0, "power-ups in the trace");
    assert!(lives_lost >= 1, "a lost life in the trace");
}

#[test]
fn a_changed_trace_is_caught_at_the_first_checkpoint_after_the_change() {
    let mut trace = Trace::from_json(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    trace.episodes[1].seed += 1;
    match trace.replay(|_, _| true) {
        Err(ReplayError::Diverged {
            episode: 2,
            step: 30,
            ..
        }) => {}
        other => panic!("expected a divergence at step 30 of episode 2, got {other:?}"),
    }
    let mut trace = Trace::from_json(&std::fs::read_to_string(GOLDEN).unwrap()).unwrap();
    trace.episodes[0].result.score += 1;
    assert!(matches!(
        trace.replay(|_, _| true),
        Err(ReplayError::Result { episode: 1, .. })
    ));
}

#[test]
fn malformed_actions_are_reported_by_position() {
    assert_eq!(
        decode("3s2l1f"),
        Ok(vec![
            Action::Stay,
            Action::Stay,
            Action::Stay,
            Action::Left,
            Action::Left,
            Action::Launch
        ])
    );
    assert_eq!(decode("3s2x").unwrap_err().0, 4);
    assert_eq!(
        decode("3sl").unwrap_err(),
        (3, "'l' has no count before it".to_string())
    );
    assert_eq!(
        decode("12").unwrap_err().1,
        "a count with no action after it"
    );
    assert!(decode("99999999999s").is_err());
    assert!(Trace::from_json("{\"format\": \"x\", \"version\": 1, \"episodes\": []}").is_err());
}
