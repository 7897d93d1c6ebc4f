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
