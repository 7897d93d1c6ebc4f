//! Heuristics: material, mobility, safety and advancement; captures-first ordering.

use ply_core::{Evaluator, Game, MoveOrdering, Score, Seat};

use super::board::{CELLS, COLS, Direction, Taunt};
use super::moves::Move;

/// For the side to move, each as a difference with the other side: 100 per piece, 3 per
/// legal move, 1 per row a type 2 or 3 piece stands towards the enemy's half when heading
/// there; plus 40 if the side to move can capture now, minus 30 per own piece the other
/// side could capture if it moved.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

/// Cells `seat` could capture on, if it were to move.
fn attacked(state: &Taunt, seat: Seat, moves: &mut Vec<Move>) -> (u64, usize) {
    state.generate(seat, moves);
    let mut hit = 0u64;
    for &mv in moves.iter() {
        let (r, c) = mv.to();
        hit |= 1 << (r * COLS + c);
        if let Some(m) = state.middle(mv) {
            hit |= 1 << m;
        }
    }
    let mut enemy = 0u64;
    for (i, p) in state.cells.iter().enumerate() {
        if p.is_some_and(|p| p.seat != seat) {
            enemy |= 1 << i;
        }
    }
    (hit & enemy, moves.len())
}

impl Evaluator<Taunt> for Material {
    fn evaluate(&self, state: &Taunt) -> Score {
        let me = state.to_move();
        let them = me.next(2);
        let mut buf = Vec::with_capacity(40);
        let (my_hits, my_mob) = attacked(state, me, &mut buf);
        let (their_hits, their_mob) = attacked(state, them, &mut buf);
        let mut score = 100 * (state.count(me) as i32 - state.count(them) as i32);
        score += 3 * (my_mob as i32 - their_mob as i32);
        if my_hits != 0 {
            score += 40;
        }
        score -= 30 * their_hits.count_ones() as i32;
        for i in 0..CELLS {
            if let Some(p) = state.cells[i] {
                if p.kind == 1 {
                    continue;
                }
                let row = (i / COLS) as i32;
                let toward = match p.dir {
                    Direction::Down => row,
                    Direction::Up => 9 - row,
                };
                score += if p.seat == me { toward } else { -toward } / 3;
            }
        }
        Score(score)
    }
}

/// Moves that capture two pieces first, then one, then the rest in legal order.
#[derive(Clone, Copy, Debug, Default)]
pub struct CapturesFirst;

impl MoveOrdering<Taunt> for CapturesFirst {
    fn order(&self, state: &Taunt, moves: &mut [Move]) {
        moves.sort_by_cached_key(|&m| std::cmp::Reverse(state.captures(m)));
    }
}
