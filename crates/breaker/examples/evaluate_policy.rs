//! Evaluates simple policies on the Block Breaker environment: a random one, a
//! ball-follower that reads the feature vector, and the autopilot, each over a few seeds of
//! every level. Run with
//!
//! ```text
//! cargo run --release -p ply-breaker --example evaluate_policy [EPISODES_PER_LEVEL]
//! ```
//!
//! A learning agent plugs in the same way: anything that maps an `Observation` (or the
//! `Sim` behind it) to one of the four `Action`s.

use ply_breaker::env::{Env, Observation};
use ply_breaker::{Action, Autopilot, Sim, Status, builtin_levels};

/// A policy: the observation and the state (which most learners would ignore).
trait Policy {
    fn name(&self) -> &str;
    fn act(&mut self, obs: &Observation, sim: &Sim) -> Action;
}

/// Uniformly random actions from a tiny xorshift generator.
struct RandomPolicy(u64);

impl Policy for RandomPolicy {
    fn name(&self) -> &str {
        "random"
    }
    fn act(&mut self, _: &Observation, _: &Sim) -> Action {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Action::ALL[(self.0 % 4) as usize]
    }
}

/// Moves the paddle under the lowest ball, launching when a ball is held.
struct Follower;

impl Policy for Follower {
    fn name(&self) -> &str {
        "follow the ball"
    }
    fn act(&mut self, obs: &Observation, _: &Sim) -> Action {
        let f = &obs.features;
        let (paddle, ball, held) = (f[0], f[3], f[7]);
        if held > 0.5 {
            Action::Launch
        } else if ball < paddle - 0.02 {
            Action::Left
        } else if ball > paddle + 0.02 {
            Action::Right
        } else {
            Action::Stay
        }
    }
}

/// The built-in autopilot, which reads the state itself.
struct Pilot(Autopilot);

impl Policy for Pilot {
    fn name(&self) -> &str {
        "autopilot"
    }
    fn act(&mut self, _: &Observation, sim: &Sim) -> Action {
        self.0.act(sim)
    }
}

fn evaluate(make: &dyn Fn() -> Box<dyn Policy>, episodes: u64) {
    let mut total = 0.0;
    let mut cleared = 0;
    let mut runs = 0;
    let mut name = String::new();
    for level in builtin_levels() {
        let mut env = Env::new(level).with_max_steps(30_000);
        for seed in 0..episodes {
            let mut policy = make();
            name = policy.name().to_string();
            let mut obs = env.reset(seed);
            loop {
                let action = policy.act(&obs, env.sim());
                let step = env.step(action);
                total += f64::from(step.reward);
                obs = step.observation;
                if step.done {
                    break;
                }
            }
            runs += 1;
            cleared += usize::from(env.sim().status() == Status::Cleared);
        }
    }
    println!(
        "{name:>16}: mean reward {:>8.1} per episode, {cleared}/{runs} levels cleared",
        total / runs as f64
    );
}

fn main() {
    let episodes = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3);
    evaluate(&|| Box::new(RandomPolicy(0x2545_f491_4f6c_dd1d)), episodes);
    evaluate(&|| Box::new(Follower), episodes);
    evaluate(&|| Box::new(Pilot(Autopilot::new())), episodes);
}
