//! Heuristics: material, advancement and safety, and captures-first move ordering.

use ply_core::{Evaluator, Game, MoveOrdering, Score, Seat};

use super::board::Draughts;
use super::moves::Move;

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const EDGES: u64 = 0x8181_8181_8181_8181;

/// Per side: 100 per man, plus 3 per row advanced, plus 25 for a man on its last row (it
/// can never be taken and counts at the end), plus 6 for a man that cannot be jumped now
/// (on a side column, or with the cell behind it on the jumping line occupied).
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

fn side(state: &Draughts, seat: Seat) -> i32 {
    let own = state.men(seat);
    let all = state.men(Seat::FIRST) | state.men(Seat::SECOND);
    let mut score = 100 * own.count_ones() as i32;
    let mut m = own;
    while m != 0 {
        let i = m.trailing_zeros() as i32;
        m &= m - 1;
        let row = i / 8;
        let advanced = if seat == Seat::FIRST { row } else { 7 - row };
        score += 3 * advanced;
        if advanced == 7 {
            score += 25;
        }
    }
    // A man is jumped from the cell diagonally in front of it (from the enemy's side) onto
    // the cell diagonally behind it, so an occupied cell behind, or a side column, protects.
    // Bit i of `behind_*` is set when the cell behind cell i on that side is occupied; the
    // home row has nothing behind it and cannot be jumped either.
    let (behind_l, behind_r, home) = if seat == Seat::FIRST {
        ((all << 9) & NOT_A, (all << 7) & NOT_H, 0xff)
    } else {
        ((all >> 7) & NOT_A, (all >> 9) & NOT_H, 0xff << 56)
    };
    let safe = own & ((behind_l & behind_r) | EDGES | home);
    score + 6 * safe.count_ones() as i32
}

impl Evaluator<Draughts> for Material {
    fn evaluate(&self, state: &Draughts) -> Score {
        let me = state.to_move();
        Score(side(state, me) - side(state, me.next(2)))
    }
}

/// A table value's score: beyond any material count (at most 12 men of 100 and their
/// bonuses, or a fitted estimate of a few men), below the search's proven wins, which count plies to the end that the tables
/// do not know; a larger final difference scores higher.
const TABLE_WIN: i32 = 50_000;

/// The evaluator of Draughts' built-in players: the exact value from the
/// [endgame tables](super::tables) where they are probed, [`Fitted`] elsewhere (the
/// default), or [`Material`] alone (`eval=classic`), the hand-written one it replaced, kept
/// to compare the two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DraughtsEval {
    /// The tables' value where they are probed ([`super::tables::PROBE_MEN`]), else
    /// [`Fitted`].
    #[default]
    Fitted,
    /// [`Material`] everywhere.
    Classic,
}

impl Evaluator<Draughts> for DraughtsEval {
    fn evaluate(&self, state: &Draughts) -> Score {
        match self {
            DraughtsEval::Fitted => match super::tables::probe(state) {
                Some(v) => Score(match v.signum() {
                    1 => TABLE_WIN + 100 * v,
                    -1 => -TABLE_WIN + 100 * v,
                    _ => 0,
                }),
                None => Fitted.evaluate(state),
            },
            DraughtsEval::Classic => Material.evaluate(state),
        }
    }
}

/// Captures first, longest chains first; other moves keep the legal order.
#[derive(Clone, Copy, Debug, Default)]
pub struct CapturesFirst;

impl MoveOrdering<Draughts> for CapturesFirst {
    fn order(&self, _: &Draughts, moves: &mut [Move]) {
        moves.sort_by_key(|m| {
            if m.is_capture() {
                -(m.landings().len() as i32)
            } else {
                0
            }
        });
    }
}

/// Columns of [`features`]: a man of the side to move on each of the 32 dark squares, a
/// man of the other side on each, whether the side to move can capture now, whether the
/// other side could.
pub const FEATURES: usize = 66;

/// The features of `state` as (column, value) pairs, in the mover's frame (the board turned
/// half a turn when player 2 moves, so that the mover always moves down): what
/// [`Fitted`]'s weights multiply, and the rows the `draughts_fit` example regresses.
pub fn features(state: &Draughts) -> impl Iterator<Item = (u32, f32)> {
    let me = state.to_move();
    let (own, opp) = if me == Seat::FIRST {
        (state.men(me), state.men(me.next(2)))
    } else {
        (
            state.men(me).reverse_bits(),
            state.men(me.next(2)).reverse_bits(),
        )
    };
    let squares = |men: u64, base: u32| {
        let mut m = men;
        std::iter::from_fn(move || {
            (m != 0).then(|| {
                let cell = m.trailing_zeros();
                m &= m - 1;
                (base + cell / 2, 1.0)
            })
        })
    };
    // The mover (player 1 in its frame) and the other side as player 1 of the rotated board.
    let mover_can = can_capture(own, opp);
    let other_can = can_capture(opp.reverse_bits(), own.reverse_bits());
    squares(own, 0)
        .chain(squares(opp, 32))
        .chain(mover_can.then_some((64, 1.0)))
        .chain(other_can.then_some((65, 1.0)))
}

/// Whether the men `own`, moving down (player 1), can jump one of `opp`'s.
fn can_capture(own: u64, opp: u64) -> bool {
    let empty = !(own | opp);
    let left = ((own << 7) & NOT_H) & opp;
    let right = ((own << 9) & NOT_A) & opp;
    ((left << 7) & NOT_H | (right << 9) & NOT_A) & empty != 0
}

/// A linear evaluation fitted by ridge regression on self-play positions labelled with
/// the game's final man difference (the `draughts_fit` example; the weights in
/// `fitted.rs`), in hundredths of a man.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fitted;

impl Evaluator<Draughts> for Fitted {
    fn evaluate(&self, state: &Draughts) -> Score {
        let w = &super::fitted::WEIGHTS;
        Score(features(state).map(|(c, _)| i32::from(w[c as usize])).sum())
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Positions of seeded random play, a random number of plies from the start.
    fn random_positions(count: u64) -> impl Iterator<Item = Draughts> {
        (0..count).filter_map(|seed| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut state = Draughts::start();
            let mut moves = Vec::new();
            for _ in 0..rng.random_range(0..60) {
                state.legal_moves(&mut moves);
                if moves.is_empty() {
                    return None;
                }
                state.play_unchecked(moves[rng.random_range(0..moves.len())]);
            }
            Some(state)
        })
    }

    #[test]
    fn can_capture_agrees_with_the_move_generator() {
        let mut moves = Vec::new();
        let mut captures = 0;
        for state in random_positions(3000) {
            state.legal_moves(&mut moves);
            let expected = moves.iter().any(|m| m.is_capture());
            let features: Vec<_> = features(&state).collect();
            assert_eq!(features.contains(&(64, 1.0)), expected, "{state}");
            captures += usize::from(expected);
        }
        assert!(captures > 300, "{captures}");
    }

    #[test]
    fn features_are_the_same_for_the_position_seen_from_the_other_side() {
        for state in random_positions(500) {
            // Turned half a turn, colours and the side to move swapped.
            let twin = Draughts::from_men(
                state.men(Seat::SECOND).reverse_bits(),
                state.men(Seat::FIRST).reverse_bits(),
                state.to_move().next(2),
            );
            let mut a: Vec<_> = features(&state).map(|(c, _)| c).collect();
            let mut b: Vec<_> = features(&twin).map(|(c, _)| c).collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{state}");
            assert_eq!(Fitted.evaluate(&state), Fitted.evaluate(&twin));
            let men = (state.men(Seat::FIRST) | state.men(Seat::SECOND)).count_ones();
            assert_eq!(a.iter().filter(|&&c| c < 64).count(), men as usize);
        }
    }

    #[test]
    fn every_fitted_man_is_worth_about_a_man_to_its_side() {
        let w = &super::super::fitted::WEIGHTS;
        assert!(w[..32].iter().all(|&x| (50..=250).contains(&x)), "{w:?}");
        assert!(
            w[32..64].iter().all(|&x| (-250..=-50).contains(&x)),
            "{w:?}"
        );
    }

    #[test]
    fn the_tables_decide_where_they_reach() {
        // x (player 1) to move, 2 men against 1 that can never meet the x men (o on (6,5)
        // moves up, away from them): the game ends 2 against 1, x ahead by a man.
        let state: Draughts =
            "......../......../......../x......./......../..x...../.....o../........ x"
                .parse()
                .unwrap();
        assert_eq!(
            DraughtsEval::Fitted.evaluate(&state),
            Score(TABLE_WIN + 100)
        );
        assert!(DraughtsEval::Classic.evaluate(&state).0 < TABLE_WIN / 10);
    }
}
