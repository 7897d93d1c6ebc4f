//! A strength ladder: one bot (the challenger, typically a new version) against each of
//! several others (earlier versions, fixed baselines), in pairs of games from one seeded
//! random opening with colours swapped, scored as an Elo difference with its 95% interval,
//! and stopped early by a sequential test when one is asked for.
//!
//! This is how engine authors decide whether a change gains strength (cutechess-cli's
//! gauntlets, Fishtest's SPRT); `ply ladder` prints the table that goes into
//! docs/strength.md. The maths is [`ply_rating::elo`].

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Serialize;

use ply_rating::elo::{EloEstimate, Sprt, SprtVerdict, Wdl};
use ply_referee::{Limits, Sandbox};

use crate::{ArenaError, Entrant, MatchGame, MatchPlan, run_match};

/// What a ladder is.
#[derive(Clone, Debug)]
pub struct LadderPlan {
    /// The game's name; it needs a bot format.
    pub game: String,
    /// The bot measured.
    pub challenger: Entrant,
    /// The bots it is measured against, at least one.
    pub opponents: Vec<Entrant>,
    /// Pairs of games against each opponent at most (fewer when the SPRT decides first).
    pub pairs: u32,
    /// Random plies of each pair's opening ([`crate::matches::random_opening`]).
    pub opening_plies: u32,
    /// The seed of the openings and of the built-ins' choices.
    pub seed: u64,
    /// The limits of every move.
    pub limits: Limits,
    /// Stop against an opponent once this test decides.
    pub sprt: Option<Sprt>,
}

/// The challenger against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LadderRow {
    /// The opponent's name.
    pub opponent: String,
    /// The opponent's spec.
    pub spec: String,
    /// The challenger's wins, draws and losses.
    pub wdl: Wdl,
    /// The challenger's Elo difference, once a game was played.
    pub estimate: Option<EloEstimate>,
    /// The SPRT's log-likelihood ratio, when a test was asked for.
    pub llr: Option<f64>,
    /// The SPRT's verdict, when a test was asked for.
    pub verdict: Option<SprtVerdict>,
    /// Games lost by a fault (time, illegal move...), by side and verdict.
    pub faults: BTreeMap<String, u32>,
    /// How long the challenger's moves took (the referee's wall clock, opening moves left out).
    pub challenger_times: MoveTimes,
    /// How long the opponent's moves took.
    pub opponent_times: MoveTimes,
}

/// The wall time of one side's moves: what tells how close a bot plays to the time limit.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct MoveTimes {
    /// Moves timed.
    pub moves: u32,
    /// Their mean, in milliseconds.
    pub mean_ms: f64,
    /// The 99th percentile (nearest rank), in milliseconds.
    pub p99_ms: f64,
    /// The slowest, in milliseconds.
    pub max_ms: f64,
    /// Every move's time, sorted, in microseconds.
    #[serde(skip)]
    micros: Vec<u64>,
}

impl MoveTimes {
    /// Adds the moves of one game's side.
    fn add(&mut self, micros: impl IntoIterator<Item = u64>) {
        self.micros.extend(micros);
        self.micros.sort_unstable();
        let n = self.micros.len();
        self.moves = u32::try_from(n).unwrap_or(u32::MAX);
        if n == 0 {
            return;
        }
        let ms = |us: u64| us as f64 / 1000.0;
        self.mean_ms = self.micros.iter().map(|&us| ms(us)).sum::<f64>() / n as f64;
        // Nearest rank: the smallest time at or above which 1% of the moves lie.
        self.p99_ms = ms(self.micros[(n * 99).div_ceil(100) - 1]);
        self.max_ms = ms(self.micros[n - 1]);
    }
}

/// Plays the ladder, calling `on_game` after every game with the opponent's row so far
/// (for progress); returns every row, in the opponents' order.
///
/// # Errors
/// [`ArenaError::Invalid`] for no opponent, no pairs, or a game without a bot format;
/// [`ArenaError::Bot`] for a bot that cannot play it.
pub fn run_ladder(
    plan: &LadderPlan,
    sandbox: &Arc<Sandbox>,
    mut on_game: impl FnMut(&LadderRow, &MatchGame),
) -> Result<Vec<LadderRow>, ArenaError> {
    if plan.opponents.is_empty() {
        return Err(ArenaError::Invalid(
            "a ladder needs at least one opponent".into(),
        ));
    }
    if plan.pairs == 0 {
        return Err(ArenaError::Invalid(
            "a ladder needs at least one pair of games".into(),
        ));
    }
    let mut rows = Vec::new();
    for (i, opponent) in plan.opponents.iter().enumerate() {
        let games = run_match(
            MatchPlan {
                game: plan.game.clone(),
                players: [plan.challenger.spec.clone(), opponent.spec.clone()],
                games: plan.pairs.saturating_mul(2),
                swap: true,
                // Each opponent meets the same openings: the rows compare like with like.
                seed: crate::game_seed(plan.seed, 2, 0),
                limits: plan.limits,
                opening_plies: plan.opening_plies,
            },
            Arc::clone(sandbox),
        )?;
        let mut row = LadderRow {
            opponent: opponent.name.clone(),
            spec: opponent.spec.to_string(),
            wdl: Wdl::default(),
            estimate: None,
            llr: plan.sprt.map(|_| 0.0),
            verdict: plan.sprt.map(|_| SprtVerdict::Continue),
            faults: BTreeMap::new(),
            challenger_times: MoveTimes::default(),
            opponent_times: MoveTimes::default(),
        };
        for game in games {
            let game = game.map_err(|e| match e {
                ArenaError::Bot { bot, source } => ArenaError::Bot {
                    bot: if bot == "p1" {
                        plan.challenger.name.clone()
                    } else {
                        plan.opponents[i].name.clone()
                    },
                    source,
                },
                e => e,
            })?;
            match game.p1_score {
                s if s > 0.75 => row.wdl.wins += 1,
                s if s < 0.25 => row.wdl.losses += 1,
                _ => row.wdl.draws += 1,
            }
            if let Some((seat, verdict)) = game.replay.fault() {
                let who = if game.seats[seat.index()] == 0 {
                    &plan.challenger.name
                } else {
                    &opponent.name
                };
                *row.faults
                    .entry(format!("{who}: {}", verdict.code()))
                    .or_default() += 1;
            }
            for (seat, &player) in game.seats.iter().enumerate() {
                let times = if player == 0 {
                    &mut row.challenger_times
                } else {
                    &mut row.opponent_times
                };
                let timed = game.replay.moves.iter().skip(game.replay.opening as usize);
                times.add(
                    timed
                        .filter(|m| usize::from(m.seat) == seat + 1)
                        .map(|m| m.micros),
                );
            }
            row.estimate = EloEstimate::from_wdl(row.wdl);
            let pair_done = game.number % 2 == 0;
            if let Some(test) = plan.sprt {
                row.llr = Some(test.llr(row.wdl));
                row.verdict = Some(test.verdict(row.wdl));
            }
            on_game(&row, &game);
            // The test is read at pair boundaries only, so that colours stay balanced.
            if pair_done && row.verdict.is_some_and(|v| v != SprtVerdict::Continue) {
                break;
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_referee::process::MemoryGuard;
    use ply_referee::{PlayerSpec, Sandbox};

    fn entrant(name: &str, spec: &str) -> Entrant {
        Entrant {
            name: name.into(),
            spec: spec.parse::<PlayerSpec>().unwrap(),
        }
    }

    fn plan(opening_plies: u32, sprt: Option<Sprt>) -> LadderPlan {
        LadderPlan {
            game: "tictactoe".into(),
            challenger: entrant("perfect", "builtin:perfect"),
            opponents: vec![
                entrant("random", "builtin:random"),
                entrant("same", "builtin:perfect"),
            ],
            pairs: 20,
            opening_plies,
            seed: 7,
            limits: Limits::default(),
            sprt,
        }
    }

    #[test]
    fn perfect_play_never_loses_from_the_start_and_splits_every_opening_with_itself() {
        let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
        // From the start: perfect play never loses and draws against itself.
        let rows = run_ladder(&plan(0, None), &sandbox, |_, _| {}).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].wdl.losses, 0, "{:?}", rows[0]);
        assert!(rows[0].wdl.wins > 20, "{:?}", rows[0]);
        assert_eq!(rows[0].wdl.games(), 40);
        assert!(rows[0].estimate.unwrap().low > 0.0);
        assert_eq!(rows[1].wdl.draws, 40, "{:?}", rows[1]);
        assert_eq!(rows[1].estimate.unwrap().elo, 0.0);
        // From 2-ply openings, some of which are lost for one side: each pair gives each
        // colour the opening's value, so against itself wins equal losses.
        let rows = run_ladder(&plan(2, None), &sandbox, |_, _| {}).unwrap();
        assert_eq!(rows[1].wdl.wins, rows[1].wdl.losses, "{:?}", rows[1]);
        assert!(
            rows[1].wdl.wins > 0,
            "some 2-ply openings are lost: {:?}",
            rows[1]
        );
    }

    #[test]
    fn move_times_are_each_sides_own_moves_after_the_opening() {
        let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
        let mut plan = plan(2, None);
        plan.pairs = 3;
        let mut timed = [0u32; 2];
        let rows = run_ladder(&plan, &sandbox, |row, game| {
            if row.opponent != "random" {
                return;
            }
            for m in &game.replay.moves[game.replay.opening as usize..] {
                timed[game.seats[usize::from(m.seat) - 1]] += 1;
            }
        })
        .unwrap();
        let row = &rows[0];
        assert_eq!(row.challenger_times.moves, timed[0], "{row:?}");
        assert_eq!(row.opponent_times.moves, timed[1], "{row:?}");
        assert!(timed[0] > 0 && timed[1] > 0);
        for t in [&row.challenger_times, &row.opponent_times] {
            assert!(t.mean_ms <= t.p99_ms && t.p99_ms <= t.max_ms, "{t:?}");
        }
    }

    #[test]
    fn the_99th_percentile_is_the_nearest_rank() {
        let mut t = MoveTimes::default();
        // 1..=200 ms, added in two games and out of order.
        t.add((101..=200).rev().map(|ms| ms * 1000));
        t.add((1..=100).map(|ms| ms * 1000));
        assert_eq!(t.moves, 200);
        assert_eq!(t.p99_ms, 198.0);
        assert_eq!(t.max_ms, 200.0);
        assert!((t.mean_ms - 100.5).abs() < 1e-9);
        let mut one = MoveTimes::default();
        one.add([1500]);
        assert_eq!((one.p99_ms, one.max_ms), (1.5, 1.5));
    }

    #[test]
    fn the_sprt_stops_early_against_a_much_weaker_player_and_never_mid_pair() {
        let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
        let test = Sprt::new(0.0, 50.0).unwrap();
        let mut seen = 0;
        let rows = run_ladder(&plan(1, Some(test)), &sandbox, |_, _| seen += 1).unwrap();
        let row = &rows[0];
        assert_eq!(row.verdict, Some(SprtVerdict::AcceptH1), "{row:?}");
        assert!(row.wdl.games() < 40, "stopped early: {row:?}");
        assert_eq!(row.wdl.games() % 2, 0);
        assert!(row.llr.unwrap() >= test.bounds().1);
        assert_eq!(seen, rows.iter().map(|r| r.wdl.games()).sum::<u32>());
    }

    #[test]
    fn openings_differ_between_pairs_and_repeat_within_one() {
        let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
        let mut openings = Vec::new();
        let mut p = plan(3, None);
        p.opponents.truncate(1);
        p.pairs = 4;
        run_ladder(&p, &sandbox, |_, g| {
            let first: Vec<_> = g.replay.moves[..3].iter().map(|m| m.mv.clone()).collect();
            assert_eq!(g.replay.opening, 3);
            assert!(g.replay.moves[..3].iter().all(|m| m.micros == 0));
            openings.push(first);
        })
        .unwrap();
        for pair in openings.chunks(2) {
            assert_eq!(pair[0], pair[1]);
        }
        openings.dedup();
        assert!(openings.len() > 1, "{openings:?}");
    }

    #[test]
    fn an_empty_ladder_is_refused() {
        let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
        let mut p = plan(0, None);
        p.opponents.clear();
        assert!(matches!(
            run_ladder(&p, &sandbox, |_, _| {}),
            Err(ArenaError::Invalid(_))
        ));
        let mut p = plan(0, None);
        p.pairs = 0;
        assert!(matches!(
            run_ladder(&p, &sandbox, |_, _| {}),
            Err(ArenaError::Invalid(_))
        ));
    }
}
