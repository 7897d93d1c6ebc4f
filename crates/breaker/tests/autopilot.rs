//! The autopilot's habits: it catches good power-ups it can reach and steps out of the way
//! of bad ones, and it does better than a plain ball-follower.

use ply_breaker::field::{BALL, BASE_SPEED, CAPSULE_H, CAPSULE_W, FIELD_W, PADDLE_Y};
use ply_breaker::{Autopilot, Event, PowerUp, Sim, Start, Status, autopilot, builtin_levels};

/// Level 1 with the ball high up and rising: the autopilot has time on its hands.
fn calm() -> Sim {
    let mut sim = Sim::new(&builtin_levels()[0], 1, Start::default());
    sim.place_ball(FIELD_W / 2, 1600, BASE_SPEED / 3, -BASE_SPEED)
        .unwrap();
    sim
}

fn run(sim: &mut Sim, steps: usize) -> Vec<Event> {
    let mut pilot = Autopilot::new();
    let mut events = Vec::new();
    for _ in 0..steps {
        let a = pilot.act(sim);
        events.extend(sim.step(a));
    }
    events
}

#[test]
fn it_steps_aside_from_a_bad_power_up_and_still_meets_the_ball() {
    for kind in [PowerUp::Shrink, PowerUp::Fast] {
        for dx in [-60, 0, 60] {
            // The ball falls straight onto the paddle's centre in 60 steps; a bad power-up
            // lands on the same spot 40 steps before it. Waiting there would catch it.
            let mut sim = Sim::new(&builtin_levels()[0], 1, Start::default());
            let p = sim.paddle();
            let centre = p.x + p.w / 2;
            sim.place_ball(centre - BALL / 2, PADDLE_Y - BALL - 60 * 20, 0, BASE_SPEED)
                .unwrap();
            sim.drop_capsule(
                kind,
                centre - CAPSULE_W / 2 + dx,
                PADDLE_Y - CAPSULE_H - 20 * 8,
            );
            let events = run(&mut sim, 100);
            assert!(
                !events.contains(&Event::Caught(kind)),
                "{kind:?} at {dx} caught"
            );
            assert!(
                !events.contains(&Event::LifeLost),
                "{kind:?} at {dx}: ball lost"
            );
        }
    }
}

#[test]
fn it_fetches_a_good_power_up_it_can_reach() {
    for kind in [PowerUp::Wide, PowerUp::Life, PowerUp::Multi] {
        for dx in [-700, 700] {
            let mut sim = calm();
            let p = sim.paddle();
            sim.drop_capsule(kind, p.x + dx, PADDLE_Y - 500);
            let events = run(&mut sim, 80);
            assert!(
                events.contains(&Event::Caught(kind)),
                "{kind:?} at {dx} missed"
            );
        }
    }
}

#[test]
fn over_whole_levels_it_catches_mostly_good_power_ups() {
    let (mut good, mut bad) = (0, 0);
    for (i, level) in builtin_levels().iter().enumerate() {
        let mut sim = Sim::new(level, 100 + i as u64, Start::default());
        let mut pilot = Autopilot::new();
        while sim.status() == Status::Playing && sim.steps() < 40_000 {
            let a = pilot.act(&sim);
            for e in sim.step(a) {
                if let Event::Caught(k) = e {
                    if k.is_good() { good += 1 } else { bad += 1 }
                }
            }
        }
        assert_eq!(sim.status(), Status::Cleared);
    }
    assert!(good >= 10 && bad * 5 <= good, "good {good}, bad {bad}");
}

#[test]
fn a_ball_follower_does_worse_than_the_autopilot() {
    let level = &builtin_levels()[1];
    let auto = autopilot::run_level(level, 5, Start::default(), 20_000, |_, _| true);
    let mut sim = Sim::new(level, 5, Start::default());
    while sim.status() == Status::Playing && sim.steps() < 20_000 {
        let b = sim.balls()[0];
        let p = sim.paddle();
        let a = if b.hold.is_some() {
            ply_breaker::Action::Launch
        } else if b.x + BALL / 2 < p.x + p.w / 2 - 20 {
            ply_breaker::Action::Left
        } else if b.x + BALL / 2 > p.x + p.w / 2 + 20 {
            ply_breaker::Action::Right
        } else {
            ply_breaker::Action::Stay
        };
        sim.step(a);
    }
    assert_eq!(auto.status(), Status::Cleared);
    assert!(
        sim.status() != Status::Cleared || sim.steps() > auto.steps(),
        "follower {} steps, autopilot {}",
        sim.steps(),
        auto.steps()
    );
}
