//! Heuristics: the hand-written evaluation (material, mobility, safety and advancement), a
//! fitted linear one over similar features (the default), captures-first ordering, and the
//! captures that quiescence plays out past the horizon.

use ply_core::{Evaluator, Game, MoveOrdering, Score};

use super::board::{CELLS, COLS, Direction, MOVE_LIMIT, Taunt};
use super::moves::{Move, NONE};

/// For the side to move, each as a difference with the other side: 100 per piece, 3 per
/// legal move, 1 per row a type 2 or 3 piece stands towards the enemy's half when heading
/// there; plus 40 if the side to move can capture now, minus 30 per own piece the other
/// side could capture if it moved.
#[derive(Clone, Copy, Debug, Default)]
pub struct Material;

impl Evaluator<Taunt> for Material {
    /// One pass over the grid: each piece's table entry gives its legal destinations
    /// (mobility) and the cells it could capture on (destination and middle), without
    /// building move lists.
    fn evaluate(&self, state: &Taunt) -> Score {
        let me = state.to_move();
        let them = me.next(2);
        let occ = state.occupancy();
        let mut mob = [0i32; 2];
        let mut hit = [0u64; 2];
        let mut advance = 0;
        for i in 0..CELLS {
            let Some(p) = state.cells[i] else {
                continue;
            };
            let s = p.seat.index();
            let own = occ[s];
            for &(mid, to) in Taunt::targets_of(p, i) {
                if to == NONE {
                    break;
                }
                if own & (1 << to) == 0 || to as usize == i {
                    mob[s] += 1;
                    hit[s] |= 1 << to;
                    if mid != NONE {
                        hit[s] |= 1 << mid;
                    }
                }
            }
            if p.kind == 1 {
                continue;
            }
            let row = (i / COLS) as i32;
            let toward = match p.dir {
                Direction::Down => row,
                Direction::Up => 9 - row,
            };
            advance += if p.seat == me { toward } else { -toward } / 3;
        }
        let (mi, ti) = (me.index(), them.index());
        let my_hits = hit[mi] & occ[ti];
        let their_hits = hit[ti] & occ[mi];
        let mut score = 100 * (occ[mi].count_ones() as i32 - occ[ti].count_ones() as i32);
        score += 3 * (mob[mi] - mob[ti]);
        if my_hits != 0 {
            score += 40;
        }
        score -= 30 * their_hits.count_ones() as i32;
        score += advance;
        Score(score)
    }
}

/// Moves that capture two pieces first, then one, then the rest in legal order; at the
/// horizon, the captures are played out (quiescence).
#[derive(Clone, Copy, Debug, Default)]
pub struct CapturesFirst;

impl MoveOrdering<Taunt> for CapturesFirst {
    fn order(&self, state: &Taunt, moves: &mut [Move]) {
        state.order_captures_first(moves);
    }

    /// Without it, the evaluation's capture terms stand in for the exchanges still to come
    /// at the horizon, and the side that moves last in a line is favoured: fixed depth 7
    /// beat the top-10 entry 35-3-2 where depths 6 and 8 won about half (docs/strength.md).
    /// Capturing is never compulsory in Taunt, so standing pat is a legal choice.
    fn quiescence(&self) -> bool {
        true
    }

    /// The captures, two pieces before one; every piece is worth the same, so there is no
    /// most valuable victim to prefer beyond that.
    fn noisy(&self, state: &Taunt, moves: &mut Vec<Move>) {
        state.generate_captures(state.to_move(), moves);
    }

    /// The other side to move (the counter one move on), where passing cannot mislead: Taunt
    /// has no zugzwang in the middle game (both sides keep waiting moves, type 1 pieces
    /// stepping to and fro, type 2 sideways; docs/strength.md), but the last moves before
    /// move 100 are exact and who moves last matters there, so no null move once the end is
    /// within [`NULL_MOVE_END_MARGIN`] moves of the search's horizon; nor with few pieces
    /// ([`NULL_MOVE_MIN_PIECES`] a side), where waiting moves can run out.
    fn null_move(&self, state: &Taunt, depth: u32) -> Option<Taunt> {
        let me = state.to_move();
        if state.moves + depth + NULL_MOVE_END_MARGIN >= MOVE_LIMIT
            || state.count(me) < NULL_MOVE_MIN_PIECES
            || state.count(me.next(2)) < NULL_MOVE_MIN_PIECES
        {
            return None;
        }
        let mut passed = *state;
        passed.moves += 1;
        (!passed.is_over()).then_some(passed)
    }

    /// Moves that capture nothing.
    fn reducible(&self, state: &Taunt, mv: Move) -> bool {
        state.captures(mv) == 0
    }
}

/// How many moves short of move 100 the horizon of a null-move search must stay
/// ([`CapturesFirst`]'s [`MoveOrdering::null_move`]).
pub const NULL_MOVE_END_MARGIN: u32 = 4;

/// The fewest pieces each side must have for a null move.
pub const NULL_MOVE_MIN_PIECES: u32 = 3;

/// Columns of [`features`]: [`SIDE_FEATURES`] for the side to move, the same for the other
/// side, then the side to move's capture now and the bias of being player 2 (who makes the
/// 100th move).
pub const FEATURES: usize = 2 * SIDE_FEATURES + 2;

/// Per side, by column: 0-2 pieces of type 1, 2 and 3; 3 legal moves; 4 safe moves (onto a
/// cell the other side cannot capture on); 5 own pieces the other side can capture; 6 those
/// of them no own piece could take back; 7 and 8 rows from home of the type 2 and type 3
/// pieces heading to the enemy's side; 9 type 2 and 3 pieces turned round (heading home);
/// 10 rows from home of the type 1 pieces; 11 enemy pieces this side can capture; 12 pieces
/// within two rows of the enemy's home row.
pub const SIDE_FEATURES: usize = 13;

/// The features of `state` for its side to move (columns 0..13) and the other side
/// (13..26), counts and sums of rows as integers: what [`Fitted`]'s weights multiply and
/// the rows the `taunt_fit` example regresses.
pub fn features(state: &Taunt) -> [i32; FEATURES] {
    let me = state.to_move();
    let occ = state.occupancy();
    // Per seat index: the cells its legal moves could capture on (destination and middle),
    // the cells it covers (could take on if an enemy stood there), and each legal move's
    // destination to count the safe ones once the other side's reach is known.
    let mut hit = [0u64; 2];
    let mut cover = [0u64; 2];
    let mut dests: [[u8; 64]; 2] = [[0; 64]; 2];
    let mut n_dests = [0usize; 2];
    let mut f = [[0i32; SIDE_FEATURES]; 2];
    for i in 0..CELLS {
        let Some(p) = state.cells[i] else {
            continue;
        };
        let s = p.seat.index();
        let own = occ[s];
        for &(mid, to) in Taunt::targets_of(p, i) {
            if to == NONE {
                break;
            }
            if to as usize != i {
                cover[s] |= 1 << to;
            }
            if own & (1 << to) == 0 || to as usize == i {
                if n_dests[s] < 64 {
                    dests[s][n_dests[s]] = to;
                    n_dests[s] += 1;
                }
                f[s][3] += 1;
                hit[s] |= 1 << to;
                if mid != NONE {
                    hit[s] |= 1 << mid;
                    cover[s] |= 1 << mid;
                }
            }
        }
        let row = (i / COLS) as i32;
        // Rows from the own home row: player 1 starts at the top (row 0), player 2 at row 9.
        let home_player1 = p.seat == ply_core::Seat::FIRST;
        let from_home = if home_player1 { row } else { 9 - row };
        let heading_out = (p.dir == Direction::Down) == home_player1;
        f[s][p.kind as usize - 1] += 1;
        match p.kind {
            1 => f[s][10] += from_home,
            k => {
                if heading_out {
                    f[s][5 + k as usize] += from_home;
                } else {
                    f[s][9] += 1;
                }
            }
        }
        if from_home >= 7 {
            f[s][12] += 1;
        }
    }
    for s in 0..2 {
        let t = s ^ 1;
        f[s][4] = dests[s][..n_dests[s]]
            .iter()
            .filter(|&&to| hit[t] & (1 << to) == 0)
            .count() as i32;
        let attacked = hit[t] & occ[s];
        f[s][5] = attacked.count_ones() as i32;
        f[s][11] = (hit[s] & occ[t]).count_ones() as i32;
        f[s][6] = (attacked & !cover[s]).count_ones() as i32;
    }
    let (mi, ti) = (me.index(), me.index() ^ 1);
    let mut out = [0i32; FEATURES];
    out[..SIDE_FEATURES].copy_from_slice(&f[mi]);
    out[SIDE_FEATURES..2 * SIDE_FEATURES].copy_from_slice(&f[ti]);
    out[2 * SIDE_FEATURES] = i32::from(hit[mi] & occ[ti] != 0);
    out[2 * SIDE_FEATURES + 1] = i32::from(mi == 1);
    out
}

/// A linear evaluation fitted by ridge regression on self-play positions labelled with the
/// game's final piece difference (the `taunt_fit` example; the weights in `fitted.rs`), in
/// hundredths of a piece.
#[derive(Clone, Copy, Debug, Default)]
pub struct Fitted;

impl Evaluator<Taunt> for Fitted {
    fn evaluate(&self, state: &Taunt) -> Score {
        Score(fitted(&features(state)))
    }
}

/// [`Fitted`]'s value of the features `f`.
fn fitted(f: &[i32; FEATURES]) -> i32 {
    let w = &super::fitted::WEIGHTS;
    f.iter().zip(w).map(|(&x, &w)| x * w).sum()
}

/// Fewer safe moves than this (column 4 of [`features`]: legal moves onto a cell the other
/// side cannot capture on) count as a shortage in [`standoff`].
pub const STANDOFF_FREE_MOVES: i32 = 4;

/// Hundredths of a piece per safe move a side is short of [`STANDOFF_FREE_MOVES`].
pub const STANDOFF_WEIGHT: i32 = 20;

/// The standoff term for the side to move of a position with features `f` ([`features`]):
/// [`STANDOFF_WEIGHT`] times the other side's shortage of safe moves minus the side to
/// move's own. Aimed at the level-material standoff against the top-10 entry
/// (docs/strength.md): both armies facing each other, both sides with free waiting moves;
/// the term steers the search to positions where the other side runs out of free moves and
/// must step into reach (zugzwang). It counts nothing while both sides have enough.
pub fn standoff(f: &[i32; FEATURES]) -> i32 {
    let short = |safe: i32| (STANDOFF_FREE_MOVES - safe).max(0);
    STANDOFF_WEIGHT * (short(f[SIDE_FEATURES + 4]) - short(f[4]))
}

/// The evaluator of Taunt's built-in players: [`Material`], the hand-written one
/// (`eval=classic`), [`Fitted`], or [`Fitted`] plus [`standoff`] (`eval=standoff`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum TauntEval {
    /// [`Fitted`].
    #[default]
    Fitted,
    /// [`Material`].
    Classic,
    /// [`Fitted`] plus [`standoff`]; not the default, its gain is not shown
    /// (docs/strength.md).
    Standoff,
}

impl Evaluator<Taunt> for TauntEval {
    fn evaluate(&self, state: &Taunt) -> Score {
        match self {
            TauntEval::Fitted => Fitted.evaluate(state),
            TauntEval::Classic => Material.evaluate(state),
            TauntEval::Standoff => {
                let f = features(state);
                Score(fitted(&f) + standoff(&f))
            }
        }
    }
}
