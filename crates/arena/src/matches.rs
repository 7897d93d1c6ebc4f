//! A match: several refereed games between two players, with their tallies.

use std::collections::BTreeMap;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use serde::Serialize;

use ply_core::{Game, Outcome, Seat};
use ply_games::{GameKind, with_hackerearth_game};
use ply_referee::{Limits, PlayerSpec, Replay, Sandbox, play_game_from};

use crate::{ArenaError, bot_game, game_seed};

/// What a match is.
#[derive(Clone, Debug)]
pub struct MatchPlan {
    /// The game's name; it needs a bot format.
    pub game: String,
    /// Player 1 and player 2 (named `p1` and `p2`).
    pub players: [PlayerSpec; 2],
    /// How many games, at least one.
    pub games: u32,
    /// Alternate who moves first (player 1 starts the odd games).
    pub swap: bool,
    /// The seed every game's seed derives from.
    pub seed: u64,
    /// The limits of every move.
    pub limits: Limits,
    /// Random plies the referee plays from the start before the players take over, so that
    /// deterministic players do not replay one game ([`random_opening`]); with `swap`, the
    /// two games of each pair share their opening. 0 plays from the start.
    pub opening_plies: u32,
}

/// One player's record over the match.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Tally {
    /// `p1` or `p2`.
    pub name: String,
    /// Its spec.
    pub spec: String,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Lost games by verdict (`time_limit`: 2).
    pub faults: BTreeMap<String, u32>,
}

/// One game of a match, as it ends.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// 1-based game number.
    pub number: u32,
    /// `seats[s]`: which player (0 for p1) sat in seat `s`.
    pub seats: [usize; 2],
    /// The game.
    pub replay: Replay,
    /// Player 1's score: 1 won, 0.5 drawn, 0 lost.
    pub p1_score: f64,
    /// `p1 (X) beats p2 in 7 plies`, with the fault if any.
    pub description: String,
}

/// The games of a match, one at a time (an iterator, so that the caller stores, prints or
/// stops between them), and the tallies so far.
#[derive(Debug)]
pub struct Match {
    plan: MatchPlan,
    kind: GameKind,
    sandbox: Arc<Sandbox>,
    names: [String; 2],
    tallies: Vec<Tally>,
    next: u32,
}

/// Starts the match `plan` describes, with programs in `sandbox`.
///
/// # Errors
/// [`ArenaError::Invalid`] for no games or a game without a bot format.
pub fn run_match(plan: MatchPlan, sandbox: Arc<Sandbox>) -> Result<Match, ArenaError> {
    if plan.games == 0 {
        return Err(ArenaError::Invalid(
            "a match needs at least one game".into(),
        ));
    }
    let kind = bot_game(&plan.game)?;
    let names = ["p1".to_string(), "p2".to_string()];
    let tallies = plan
        .players
        .iter()
        .zip(&names)
        .map(|(s, n)| Tally {
            name: n.clone(),
            spec: s.to_string(),
            ..Tally::default()
        })
        .collect();
    Ok(Match {
        plan,
        kind,
        sandbox,
        names,
        tallies,
        next: 0,
    })
}

impl Match {
    /// Each player's record so far, p1 first.
    pub fn tallies(&self) -> &[Tally] {
        &self.tallies
    }

    fn play_next(&mut self) -> Result<MatchGame, ArenaError> {
        let i = self.next;
        self.next += 1;
        // seats[s] = which player (0 = p1) sits in seat s.
        let seats = if self.plan.swap && i % 2 == 1 {
            [1, 0]
        } else {
            [0, 1]
        };
        let seed = game_seed(self.plan.seed, 0, i);
        let pair = if self.plan.swap { i / 2 } else { i };
        let opening_seed = game_seed(self.plan.seed, 1, pair);
        let replay = with_hackerearth_game!(self.kind, G => {
            let opening = random_opening::<G>(opening_seed, self.plan.opening_plies);
            let mut bots = Vec::new();
            for (s, &p) in seats.iter().enumerate() {
                let bot = self.plan.players[p]
                    .build::<G>(&self.names[p], seed.wrapping_add(s as u64), &self.sandbox, &self.plan.limits)
                    .map_err(|source| ArenaError::Bot { bot: self.names[p].clone(), source })?;
                bots.push(bot);
            }
            let seat_specs: Vec<String> =
                seats.iter().map(|&p| self.plan.players[p].to_string()).collect();
            play_game_from::<G>(&mut bots, &seat_specs, seed, &opening)
        })
        .ok_or_else(|| ArenaError::Invalid(format!("{} has no bot format", self.kind)))?;
        let p1_seat = Seat::new(if seats[0] == 0 { 0 } else { 1 });
        let p1_score = replay.outcome.payoff(p1_seat, 2);
        tally(&mut self.tallies, &replay, &seats);
        Ok(MatchGame {
            number: i + 1,
            seats,
            description: describe(&replay, &seats),
            p1_score,
            replay,
        })
    }
}

impl Iterator for Match {
    type Item = Result<MatchGame, ArenaError>;

    fn next(&mut self) -> Option<Self::Item> {
        (self.next < self.plan.games).then(|| self.play_next())
    }
}

fn tally(tallies: &mut [Tally], replay: &Replay, seats: &[usize; 2]) {
    for (s, &p) in seats.iter().enumerate() {
        let t = &mut tallies[p];
        match &replay.outcome {
            Outcome::Win(w) if w.index() == s => t.wins += 1,
            Outcome::Draw => t.draws += 1,
            _ => t.losses += 1,
        }
    }
    if let Some((seat, verdict)) = replay.fault() {
        *tallies[seats[seat.index()]]
            .faults
            .entry(verdict.code().to_string())
            .or_default() += 1;
    }
}

/// `p1 wins in 7 plies (p2 first)`, with the fault if any.
fn describe(replay: &Replay, seats: &[usize; 2]) -> String {
    let name = |s: usize| format!("p{}", seats[s] + 1);
    let order = format!("{} first", name(0));
    match (&replay.outcome, replay.fault()) {
        (Outcome::Win(w), Some((loser, verdict))) => format!(
            "{} wins, {} lost by {verdict} on ply {} ({order})",
            name(w.index()),
            name(loser.index()),
            replay.moves.len()
        ),
        (Outcome::Win(w), None) => format!(
            "{} wins in {} plies ({order})",
            name(w.index()),
            replay.moves.len()
        ),
        (o, _) => format!("{o} in {} plies ({order})", replay.moves.len()),
    }
}

/// `plies` moves from the start, each drawn uniformly from the sorted legal moves by a
/// generator seeded with `seed` (the same seed, the same opening); shorter if the game ends
/// first.
pub fn random_opening<G: Game>(seed: u64, plies: u32) -> Vec<G::Move> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut state = G::start();
    let mut legal = Vec::new();
    let mut opening = Vec::new();
    for _ in 0..plies {
        if state.outcome().is_some() {
            break;
        }
        state.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        legal.sort_unstable();
        let mv = legal[rng.random_range(0..legal.len())];
        opening.push(mv);
        state.play_unchecked(mv);
    }
    opening
}
