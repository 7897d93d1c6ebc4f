//! Each power-up's effect, caught the way a player catches it: falling onto the paddle.

use ply_breaker::field::{
    BALL, BASE_SPEED, CAPSULE_W, NET_Y, PADDLE_H, PADDLE_NARROW, PADDLE_NORMAL, PADDLE_WIDE,
    PADDLE_Y,
};
use ply_breaker::physics::Ball;
use ply_breaker::{Action, Cell, Event, Level, PowerUp, Sim, Start};

/// A ball going straight up and down over the paddle's centre, forever: the ceiling sends
/// it back and the centre of the paddle sends it straight up again.
fn bouncing(level: &str) -> Sim {
    let level = Level::parse(level).unwrap();
    let mut sim = Sim::new(&level, 1, Start::default());
    let p = sim.paddle();
    sim.place_ball(p.x + p.w / 2 - BALL / 2, 2000, 0, -BASE_SPEED)
        .unwrap();
    sim
}

const CORNER: &str = "bricks:\n1............\n";

fn catch(sim: &mut Sim, kind: PowerUp) {
    let p = sim.paddle();
    sim.drop_capsule(kind, p.x + (p.w - CAPSULE_W) / 2, PADDLE_Y - 100);
    for _ in 0..30 {
        if sim.step(Action::Stay).contains(&Event::Caught(kind)) {
            return;
        }
    }
    panic!("{kind:?} not caught");
}

fn speed(b: &Ball) -> i32 {
    ((i64::from(b.vx).pow(2) + i64::from(b.vy).pow(2)) as u64).isqrt() as i32
}

fn run_until_expired(sim: &mut Sim, kind: PowerUp) -> u32 {
    for n in 1..=kind.duration() + 5 {
        if sim.step(Action::Stay).contains(&Event::Expired(kind)) {
            return n;
        }
    }
    panic!("{kind:?} never expired");
}

#[test]
fn wide_and_shrink_resize_the_paddle_for_their_time() {
    for (kind, width) in [
        (PowerUp::Wide, PADDLE_WIDE),
        (PowerUp::Shrink, PADDLE_NARROW),
    ] {
        let mut sim = bouncing(CORNER);
        catch(&mut sim, kind);
        sim.step(Action::Stay);
        assert_eq!(sim.paddle().w, width, "{kind:?}");
        let lasted = run_until_expired(&mut sim, kind);
        assert!(lasted + 30 >= kind.duration(), "{kind:?} lasted {lasted}");
        sim.step(Action::Stay);
        assert_eq!(sim.paddle().w, PADDLE_NORMAL);
        assert_eq!(sim.lives(), 3);
    }
}

#[test]
fn wide_replaces_shrink() {
    let mut sim = bouncing(CORNER);
    catch(&mut sim, PowerUp::Shrink);
    catch(&mut sim, PowerUp::Wide);
    sim.step(Action::Stay);
    assert_eq!(sim.paddle().w, PADDLE_WIDE);
    assert_eq!(
        sim.effects().iter().map(|e| e.0).collect::<Vec<_>>(),
        [PowerUp::Wide]
    );
}

#[test]
fn slow_and_fast_change_the_ball_speed_for_their_time() {
    for (kind, percent) in [(PowerUp::Slow, 60), (PowerUp::Fast, 140)] {
        let mut sim = bouncing(CORNER);
        catch(&mut sim, kind);
        let want = BASE_SPEED * percent / 100;
        let got = speed(&sim.balls()[0]);
        assert!(
            (got - want).abs() <= want / 100,
            "{kind:?}: {got} vs {want}"
        );
        run_until_expired(&mut sim, kind);
        let got = speed(&sim.balls()[0]);
        assert!(
            (got - BASE_SPEED).abs() <= BASE_SPEED / 100,
            "{kind:?} after: {got}"
        );
    }
}

#[test]
fn multi_ball_makes_three_balls_at_full_speed() {
    let mut sim = bouncing(CORNER);
    catch(&mut sim, PowerUp::Multi);
    let balls = sim.balls();
    assert_eq!(balls.len(), 3);
    assert_ne!(balls[1].vx, balls[2].vx);
    for b in balls {
        assert!((speed(b) - BASE_SPEED).abs() <= BASE_SPEED / 100);
    }
    catch(&mut sim, PowerUp::Multi);
    catch(&mut sim, PowerUp::Multi);
    assert_eq!(sim.balls().len(), 8, "at most eight");
}

#[test]
fn extra_life_adds_a_life() {
    let mut sim = bouncing(CORNER);
    catch(&mut sim, PowerUp::Life);
    assert_eq!(sim.lives(), 4);
}

#[test]
fn sticky_holds_the_ball_until_launched() {
    let mut sim = bouncing(CORNER);
    catch(&mut sim, PowerUp::Sticky);
    let mut held = false;
    for _ in 0..400 {
        sim.step(Action::Stay);
        if sim.balls()[0].hold.is_some() {
            held = true;
            break;
        }
    }
    assert!(held, "the ball stuck");
    for _ in 0..5 {
        sim.step(Action::Right);
    }
    let (b, p) = (sim.balls()[0], sim.paddle());
    assert_eq!(b.y + BALL, p.y, "it rides on the paddle");
    assert_eq!(b.vy, 0);
    sim.step(Action::Launch);
    assert!(sim.balls()[0].vy < 0 && sim.balls()[0].hold.is_none());
}

#[test]
fn fireball_goes_through_breakable_bricks_but_not_steel() {
    let text = "bricks:\nXXXXXXXXXXXXX\n......9......\n......9......\n......9......\n";
    let mut sim = bouncing(text);
    catch(&mut sim, PowerUp::Fireball);
    let p = sim.paddle();
    sim.place_ball(p.x + p.w / 2 - BALL / 2, 1500, 0, -BASE_SPEED)
        .unwrap();
    let mut events = Vec::new();
    for _ in 0..2000 {
        if sim.balls()[0].vy > 0 {
            break;
        }
        events.extend(sim.step(Action::Stay));
    }
    assert_eq!(
        events.iter().filter(|e| **e == Event::BrickBroken).count(),
        3
    );
    assert!(
        !events.contains(&Event::BrickHit),
        "nine-hit bricks broke at once"
    );
    assert!(sim.grid()[1..].iter().flatten().all(|c| *c == Cell::Empty));
    assert_eq!(
        sim.grid()[0][6],
        Cell::Solid,
        "the steel above sent it back"
    );
}

#[test]
fn the_net_returns_one_ball_then_tears() {
    let mut sim = bouncing(CORNER);
    catch(&mut sim, PowerUp::Net);
    assert!(sim.net());
    sim.place_ball(100, PADDLE_Y + PADDLE_H, 0, BASE_SPEED)
        .unwrap();
    let mut events = Vec::new();
    for _ in 0..20 {
        events.extend(sim.step(Action::Stay));
    }
    assert!(events.contains(&Event::NetUsed));
    assert!(!sim.net());
    assert!(sim.balls()[0].vy < 0 && sim.balls()[0].y < NET_Y);
    // Without the net the next ball is lost.
    sim.place_ball(100, PADDLE_Y + PADDLE_H, 0, BASE_SPEED)
        .unwrap();
    let mut events = Vec::new();
    for _ in 0..20 {
        events.extend(sim.step(Action::Stay));
    }
    assert!(events.contains(&Event::LifeLost));
    assert_eq!(sim.lives(), 2);
}

#[test]
fn broken_bonus_bricks_drop_power_ups_that_fall() {
    let mut sim = bouncing("bricks:\n1............\n......*......\n");
    let mut dropped = None;
    for _ in 0..200 {
        for e in sim.step(Action::Stay) {
            if let Event::Dropped(k) = e {
                dropped = Some(k);
            }
        }
        if dropped.is_some() {
            break;
        }
    }
    assert!(dropped.is_some(), "a bonus brick always drops");
    let y0 = sim.capsules()[0].y;
    sim.step(Action::Stay);
    assert_eq!(sim.capsules()[0].y, y0 + ply_breaker::field::CAPSULE_FALL);
}
