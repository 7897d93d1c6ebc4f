//! The last moves before move 100: an exact win/draw/loss search, and among drawn moves the
//! one that sets the most likely trap for a shallow material-only opponent (`--endgame
//! true`, `endgame=1`; off by default, docs/strength.md "Session 42").
//!
//! Why: against the top-10 entry most of the bot's draws are chains of one-for-one trades to
//! move 100 (docs/strength.md, "Session 41"). From about ten moves before the end the bot's
//! search is exact, sees every move as a draw and plays the first one its ordering gives (a
//! capture, which is taken back). The entry searches material only, 4 to 6 plies, and picks
//! at random among the moves its search rates equal; a drawn move after which many of its
//! equally rated replies lose (the loss lying past its horizon) wins some of those games.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

use ply_core::{Game, Seat};

use super::board::{MOVE_LIMIT, Taunt};
use super::moves::Move;

/// The solver tries positions with at most this many moves left to move 100: at 10 left
/// (session 42's games against the entry, 7 to 9 pieces a side) a solve took about a second,
/// more than the 400 ms it gets at 900 ms a move, and the search then has only half its
/// time; at 8 left one took 0.1 to 0.4 s. Traps for the entry lie from about 9 moves left.
pub const SWINDLE_MOVES_LEFT: u32 = 9;

/// Plies the opponent model searches, counting its own move: the entry's
/// `5 - (pieces + 2) / 8` moves below the root (docs/strength.md, session 31), never past move
/// 100.
pub fn model_plies(state: &Taunt) -> u32 {
    let pieces = state.count(Seat::FIRST) + state.count(Seat::SECOND);
    let below = 5u32.saturating_sub((pieces + 2) / 8);
    (below + 1).min(MOVE_LIMIT.saturating_sub(state.moves_played()))
}

/// Result of [`Swindle::choose`]: the move and why.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Choice {
    /// A move that wins against any defence.
    Win(Move),
    /// A drawn move whose trap probability (the share of the model's equally best replies
    /// that lose) is the largest and above zero.
    Trap(Move, f64),
}

/// Passes [`Game::key`] (already a hash) through as the table's hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// The exact search with its table (each position's lower and upper bound).
#[derive(Default)]
pub struct Swindle {
    table: HashMap<u64, (i8, i8), BuildHasherDefault<KeyHasher>>,
    nodes: u64,
    deadline: Option<Instant>,
}

/// Stopped by the deadline.
struct Stopped;

impl Swindle {
    /// A solver with an empty table.
    pub fn new() -> Self {
        Swindle::default()
    }

    /// The result at move 100 (or when the side to move is stuck) with best play from
    /// `state`, for its side to move: 1 win, 0 draw, -1 loss. `None` past the deadline.
    pub fn value(&mut self, state: &Taunt) -> Option<i8> {
        self.wld(state, -1, 1).ok()
    }

    fn wld(&mut self, state: &Taunt, mut alpha: i8, mut beta: i8) -> Result<i8, Stopped> {
        self.nodes += 1;
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Stopped);
        }
        if let Some(outcome) = state.outcome() {
            let me = state.to_move();
            let p = outcome.payoff(me, 2);
            return Ok(if p > 0.5 {
                1
            } else if p < 0.5 {
                -1
            } else {
                0
            });
        }
        let key = state.key();
        let (lo, hi) = self.table.get(&key).copied().unwrap_or((-1, 1));
        if lo == hi {
            return Ok(lo);
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        if alpha >= beta {
            return Ok(alpha);
        }
        let (a0, b0) = (alpha, beta);
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        state.order_captures_first(&mut moves);
        let mut best = -1;
        for mv in moves {
            let mut child = *state;
            child.apply(mv);
            let v = -self.wld(&child, -beta, -alpha)?;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
                if alpha >= beta {
                    break;
                }
            }
        }
        let entry = if best <= a0 {
            (lo, best.min(hi))
        } else if best >= b0 {
            (best.max(lo), hi)
        } else {
            (best, best)
        };
        self.table.insert(key, entry);
        Ok(best)
    }

    /// The best drawn move by trap probability, or a winning move; `None` when the position
    /// is lost or every drawn move's trap probability is zero (the search then chooses as
    /// usual), or when `deadline` passes first.
    pub fn choose(&mut self, state: &Taunt, deadline: Option<Instant>) -> Option<Choice> {
        self.deadline = deadline;
        self.nodes = 0;
        let result = self.choose_inner(state).ok().flatten();
        self.deadline = None;
        result
    }

    fn choose_inner(&mut self, state: &Taunt) -> Result<Option<Choice>, Stopped> {
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        state.order_captures_first(&mut moves);
        let mut drawn = Vec::new();
        for &mv in &moves {
            let mut child = *state;
            child.apply(mv);
            match -self.wld(&child, -1, 1)? {
                1 => return Ok(Some(Choice::Win(mv))),
                0 => drawn.push((mv, child)),
                _ => {}
            }
        }
        let mut best: Option<(Move, f64)> = None;
        for (mv, child) in drawn {
            let p = self.trap_probability(&child)?;
            if p > 0.0 && best.is_none_or(|(_, b)| p > b) {
                best = Some((mv, p));
            }
        }
        Ok(best.map(|(mv, p)| Choice::Trap(mv, p)))
    }

    /// The trap share of `state` (the opponent to move), `None` past the deadline (none
    /// without one).
    pub fn trap_share(&mut self, state: &Taunt) -> Option<f64> {
        self.trap_probability(state).ok()
    }

    /// In `state`, the opponent (its side to move) modelled as the entry plays: the share
    /// of its [`model_replies`] that lose with best play after them.
    fn trap_probability(&mut self, state: &Taunt) -> Result<f64, Stopped> {
        if state.outcome().is_some() {
            return Ok(0.0);
        }
        let replies = model_replies(state);
        let mut lost = 0u32;
        for &child in &replies {
            // `child` has us to move: a win for us is a loss for the replier.
            if self.wld(&child, -1, 1)? == 1 {
                lost += 1;
            }
        }
        Ok(f64::from(lost) / replies.len().max(1) as f64)
    }
}

/// The positions after the replies a material-only opponent picks from in `state` (its
/// side to move), as the top-10 entry does: the replies best by material after
/// [`model_plies`] plies, of those the best after one ply fewer, and so on down to one ply,
/// one of the rest at random (docs/strength.md, session 31 and 42).
pub fn model_replies(state: &Taunt) -> Vec<Taunt> {
    let plies = model_plies(state);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let mut kept: Vec<Taunt> = moves
        .iter()
        .map(|&mv| {
            let mut child = *state;
            child.apply(mv);
            child
        })
        .collect();
    for p in (1..=plies).rev() {
        if kept.len() <= 1 {
            break;
        }
        let rated: Vec<i32> = kept
            .iter()
            .map(|c| -material(c, p - 1, -i32::MAX, i32::MAX))
            .collect();
        let top = rated.iter().copied().max().unwrap_or(0);
        kept = kept
            .into_iter()
            .zip(rated)
            .filter(|&(_, v)| v == top)
            .map(|(c, _)| c)
            .collect();
    }
    kept
}

/// Material (own pieces minus the other side's) for the side to move after `depth` more
/// plies of a plain alpha-beta minimax, stopping at move 100 or when a side is stuck: the
/// entry's whole evaluation.
pub fn material(state: &Taunt, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let me = state.to_move();
    if depth == 0 || state.is_over() {
        return state.count(me) as i32 - state.count(me.next(2)) as i32;
    }
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    state.order_captures_first(&mut moves);
    let mut best = -i32::MAX;
    for mv in moves {
        let mut child = *state;
        child.apply(mv);
        let v = -material(&child, depth - 1, -beta, -alpha);
        if v > best {
            best = v;
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
    }
    best
}

/// The [`crate::Endgame`] of [`Taunt`]: with at most [`SWINDLE_MOVES_LEFT`] moves left, a
/// [`Swindle`] within half the time left; a win or a trap is played, anything else is left
/// to the search.
#[derive(Default)]
pub struct Timed {
    solver: Swindle,
}

impl crate::Endgame<Taunt> for Timed {
    fn solve(&mut self, state: &Taunt, deadline: Instant) -> Option<Move> {
        if MOVE_LIMIT.saturating_sub(state.moves_played()) > SWINDLE_MOVES_LEFT
            || state.outcome().is_some()
        {
            return None;
        }
        let now = Instant::now();
        let half = now + deadline.saturating_duration_since(now) / 2;
        self.solver.table.clear();
        match self.solver.choose(state, Some(half))? {
            Choice::Win(mv) | Choice::Trap(mv, _) => Some(mv),
        }
    }
}
