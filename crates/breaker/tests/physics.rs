//! Physics invariants under random placements, speeds and inputs: a ball never overlaps a
//! brick, the paddle or a wall after any step, never crosses a wall of bricks or the
//! paddle at any speed, and the score never goes down.

use ply_breaker::field::{BALL, BASE_SPEED, FIELD_W, GRID_TOP, PADDLE_Y, ROW, Rect};
use ply_breaker::{Action, Level, Sim, Start, builtin_levels};
use proptest::prelude::*;

fn action() -> impl Strategy<Value = Action> {
    prop::sample::select(Action::ALL.to_vec())
}

/// A speed from a quarter of the standard up to 100 times it (2,000 units a step, most of
/// the field's width), either sign.
fn component() -> impl Strategy<Value = i32> {
    (0usize..6, 1i32..=1000, any::<bool>()).prop_map(|(scale, k, neg)| {
        let quarters = [1, 3, 10, 40, 100, 400][scale];
        let v = (BASE_SPEED * quarters / 4 / 1000 * k).max(1);
        if neg { -v } else { v }
    })
}

fn check(sim: &Sim) -> Result<(), TestCaseError> {
    for b in sim.balls() {
        let r = b.rect();
        prop_assert!(
            r.x >= 0 && r.x + r.w <= FIELD_W && r.y >= 0,
            "ball outside the walls: {b:?}"
        );
        prop_assert!(
            !sim.overlaps_solid(&r),
            "ball overlaps a solid after step {}: {b:?}",
            sim.steps()
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn balls_never_overlap_solids_and_score_never_drops(
        level in 0usize..6,
        seed in any::<u64>(),
        x in 0i32..FIELD_W - BALL,
        y in 0i32..PADDLE_Y,
        vx in component(),
        vy in component(),
        actions in prop::collection::vec(action(), 1..300),
    ) {
        let levels = builtin_levels();
        let mut sim = Sim::new(&levels[level], seed, Start::default());
        prop_assume!(sim.place_ball(x, y, vx, vy).is_ok());
        check(&sim)?;
        let mut score = sim.score();
        for a in actions {
            sim.step(a);
            check(&sim)?;
            prop_assert!(sim.score() >= score);
            score = sim.score();
        }
    }

    #[test]
    fn no_speed_carries_a_ball_through_a_wall_of_steel(
        x in 0i32..FIELD_W - BALL,
        below in 0i32..600,
        vx in component(),
        vy in component(),
        actions in prop::collection::vec(action(), 1..60),
    ) {
        // Steel across the whole width in brick row 6; the ball starts under it.
        let text = format!("bricks:\n1............\n{}XXXXXXXXXXXXX\n", ".............\n".repeat(5));
        let level = Level::parse(&text).unwrap();
        let wall_bottom = GRID_TOP + 7 * ROW;
        let mut sim = Sim::new(&level, 1, Start::default());
        sim.place_ball(x, wall_bottom + below, vx, -vy.abs()).unwrap();
        for a in actions {
            sim.step(a);
            for b in sim.balls() {
                prop_assert!(b.y >= wall_bottom, "ball got through the steel: {b:?}");
            }
        }
    }

    #[test]
    fn no_speed_carries_a_ball_through_the_paddle(
        at in 0i32..448 - BALL,
        above in 1i32..1500,
        vy in component(),
    ) {
        let level = &builtin_levels()[0];
        let mut sim = Sim::new(level, 1, Start::default());
        let p = sim.paddle();
        sim.place_ball(p.x + at, PADDLE_Y - BALL - above, 0, vy.abs()).unwrap();
        let mut bounced = false;
        for _ in 0..3 {
            sim.step(Action::Stay);
            let b = sim.balls()[0];
            prop_assert!(b.y + BALL <= PADDLE_Y, "ball below the paddle's top: {b:?}");
            bounced |= b.vy < 0;
        }
        // Within three steps it has met the paddle (it travels at least 5 units a step
        // and starts at most 1,500 above... unless slow; then it is still above).
        let b = sim.balls()[0];
        prop_assert!(bounced || b.vy > 0);
    }
}

#[test]
fn placing_a_ball_checks_its_place_and_speed() {
    use ply_breaker::sim::{MAX_PLACED_SPEED, PlaceBallError};
    let mut sim = Sim::new(&builtin_levels()[0], 1, Start::default());
    assert_eq!(sim.place_ball(100, 1500, 0, 0), Err(PlaceBallError::Still));
    assert!(matches!(
        sim.place_ball(100, 1500, i32::MAX, 1),
        Err(PlaceBallError::TooFast { .. })
    ));
    assert!(matches!(
        sim.place_ball(100, i32::MAX, 1, 1),
        Err(PlaceBallError::Below { .. })
    ));
    assert!(matches!(
        sim.place_ball(-1, 1500, 1, 1),
        Err(PlaceBallError::Overlaps { .. })
    ));
    assert!(matches!(
        sim.place_ball(0, GRID_TOP + 2 * ROW, 1, 1),
        Err(PlaceBallError::Overlaps { .. })
    ));
    // The fastest allowed ball still never leaves the walls.
    sim.place_ball(100, 1500, MAX_PLACED_SPEED, -MAX_PLACED_SPEED / 3)
        .unwrap();
    for _ in 0..5 {
        sim.step(Action::Stay);
        for b in sim.balls() {
            assert!(!sim.overlaps_solid(&b.rect()), "{b:?}");
        }
    }
}

#[test]
fn the_bounce_angle_depends_on_where_the_ball_meets_the_paddle() {
    let level = &builtin_levels()[0];
    let mut angles = Vec::new();
    for at in [-200, -100, 0, 100, 200] {
        let mut sim = Sim::new(level, 1, Start::default());
        let p = sim.paddle();
        let x = p.x + p.w / 2 + at - BALL / 2;
        sim.place_ball(x, PADDLE_Y - BALL - 30, 0, BASE_SPEED)
            .unwrap();
        let mut v = None;
        for _ in 0..10 {
            sim.step(Action::Stay);
            let b = sim.balls()[0];
            if b.vy < 0 {
                v = Some((b.vx, b.vy));
                break;
            }
        }
        angles.push(v.expect("bounced"));
    }
    // Left of centre goes left, the centre straight up, right goes right, steeper in the middle.
    assert!(angles[0].0 < angles[1].0 && angles[1].0 < 0);
    assert_eq!(angles[2].0, 0);
    assert!(angles[4].0 > angles[3].0 && angles[3].0 > 0);
    assert!(angles[0].1 > angles[1].1, "the edge sends it flatter");
    let r = Rect {
        x: 0,
        y: 0,
        w: 1,
        h: 1,
    };
    assert!(!r.overlaps(&Rect {
        x: 1,
        y: 0,
        w: 1,
        h: 1
    }));
}
