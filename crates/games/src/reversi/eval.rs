//! Heuristics: the hand-written evaluation (mobility, corners, edge stability and frontier),
//! the choice between it and the fitted patterns of [`super::pattern`] for 8x8 Othello, and a
//! static move ordering. Rules know nothing of them.

use ply_core::{Evaluator, Game, MoveOrdering, Score};

use super::board::{Bits, IndexedOthello, IndexedReversi10, Othello, Reversi, Reversi10, Size};
use super::moves::{Place, legal, shift};

/// The four corners.
const fn corners(n: usize) -> u128 {
    let last = n - 1;
    1 | (1 << last) | (1 << (last * n)) | (1 << (last * n + last))
}

/// The cells on the border.
const fn edges(n: usize) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < n {
        m |= (1 << i) | (1 << ((n - 1) * n + i)) | (1 << (i * n)) | (1 << (i * n + n - 1));
        i += 1;
    }
    m
}

/// For each corner (in the order of [`corners`]), its X-square and its two C-squares.
const fn near_corner(n: usize) -> [(u128, u128, u128); 4] {
    let l = n - 1;
    const fn bit(n: usize, r: usize, c: usize) -> u128 {
        1u128 << (r * n + c)
    }
    [
        (bit(n, 0, 0), bit(n, 1, 1), bit(n, 0, 1) | bit(n, 1, 0)),
        (
            bit(n, 0, l),
            bit(n, 1, l - 1),
            bit(n, 0, l - 1) | bit(n, 1, l),
        ),
        (
            bit(n, l, 0),
            bit(n, l - 1, 1),
            bit(n, l, 1) | bit(n, l - 1, 0),
        ),
        (
            bit(n, l, l),
            bit(n, l - 1, l - 1),
            bit(n, l, l - 1) | bit(n, l - 1, l),
        ),
    ]
}

/// Discs joined to an own corner along the border through own discs: none of them can ever
/// be turned over.
fn edge_stable<S: Size>(own: S::Bits) -> u32 {
    let edge = S::Bits::from_u128(edges(S::N));
    let mut s = own & S::Bits::from_u128(corners(S::N));
    if s.is_empty() {
        return 0;
    }
    loop {
        let grown = s
            | ((shift::<S, 0>(s) | shift::<S, 1>(s) | shift::<S, 2>(s) | shift::<S, 3>(s))
                & own
                & edge);
        if grown == s {
            return s.count();
        }
        s = grown;
    }
}

fn neighbours<S: Size>(b: S::Bits) -> S::Bits {
    shift::<S, 0>(b)
        | shift::<S, 1>(b)
        | shift::<S, 2>(b)
        | shift::<S, 3>(b)
        | shift::<S, 4>(b)
        | shift::<S, 5>(b)
        | shift::<S, 6>(b)
        | shift::<S, 7>(b)
}

/// The classic positional evaluator, for the side to move: 80 per corner, 30 per
/// edge-stable disc, 12 per legal move, -4 per frontier disc, -30 per X-square and -10 per
/// C-square next to an empty corner, each as a difference (own minus other side's).
#[derive(Clone, Copy, Debug, Default)]
pub struct Positional;

/// [`Positional`]'s weights of the terms of [`positional_terms`].
const POSITIONAL_WEIGHTS: [i32; 6] = [80, 30, 12, -4, -30, -10];

/// The terms [`Positional`] weighs, each own minus other side's: corners, edge-stable discs,
/// legal moves, frontier discs, X-squares and C-squares next to an empty corner. The 10x10
/// pattern evaluation fits a weight per phase to each of them ([`super::pattern10`]).
pub fn positional_terms<S: Size>(own: S::Bits, opp: S::Bits) -> [i32; 6] {
    let empty = !(own | opp) & S::Bits::from_u128(S::FULL);
    let corner = S::Bits::from_u128(corners(S::N));
    let mob = legal::<S>(own, opp).count() as i32 - legal::<S>(opp, own).count() as i32;
    let corners = (own & corner).count() as i32 - (opp & corner).count() as i32;
    let stable = edge_stable::<S>(own) as i32 - edge_stable::<S>(opp) as i32;
    let near_empty = neighbours::<S>(empty);
    let frontier = (own & near_empty).count() as i32 - (opp & near_empty).count() as i32;
    let (mut xs, mut cs) = (0, 0);
    for (c, x, c_cells) in near_corner(S::N) {
        if (empty & S::Bits::from_u128(c)).is_empty() {
            continue;
        }
        let (x, c_cells) = (S::Bits::from_u128(x), S::Bits::from_u128(c_cells));
        xs += (own & x).count() as i32 - (opp & x).count() as i32;
        cs += (own & c_cells).count() as i32 - (opp & c_cells).count() as i32;
    }
    [corners, stable, mob, frontier, xs, cs]
}

impl<S: Size> Evaluator<Reversi<S>> for Positional {
    fn evaluate(&self, state: &Reversi<S>) -> Score {
        let (own, opp) = state.sides();
        let terms = positional_terms::<S>(own, opp);
        Score(
            terms
                .iter()
                .zip(POSITIONAL_WEIGHTS)
                .map(|(t, w)| t * w)
                .sum(),
        )
    }
}

/// Corners first, then border cells, then the inside, X- and C-squares last (a stable sort:
/// ties keep the legal order).
///
/// The rank of each cell is looked up in a table made once per board size, and the moves are
/// spread into the four ranks in one pass (a stable counting sort): the search orders the
/// moves of every inner node, and a comparison sort recomputing the rank in every comparison
/// took about a fifth of an Othello search's time (docs/benchmarks.md).
#[derive(Clone, Copy, Debug, Default)]
pub struct CornersFirst;

/// Ranks of [`CornersFirst`], lowest first.
const RANKS: usize = 4;

/// The [`CornersFirst`] rank of every cell of an `n` x `n` board.
const fn cell_ranks(n: usize) -> [u8; 128] {
    let corner = corners(n);
    let edge = edges(n);
    let near = near_corner(n);
    let mut risky = 0u128;
    let mut k = 0;
    while k < near.len() {
        risky |= near[k].1 | near[k].2;
        k += 1;
    }
    let mut out = [0u8; 128];
    let mut i = 0;
    while i < n * n {
        let b = 1u128 << i;
        out[i] = if b & corner != 0 {
            0
        } else if b & risky != 0 {
            3
        } else if b & edge != 0 {
            1
        } else {
            2
        };
        i += 1;
    }
    out
}

/// The rank table of a board size, built at compile time.
struct CellRanks<S>(std::marker::PhantomData<S>);

impl<S: Size> CellRanks<S> {
    const TABLE: [u8; 128] = cell_ranks(S::N);
}

/// The cells of each [`CornersFirst`] rank on an `n` x `n` board.
const fn rank_masks(n: usize) -> [u128; RANKS] {
    let table = cell_ranks(n);
    let mut out = [0u128; RANKS];
    let mut i = 0;
    while i < n * n {
        out[table[i] as usize] |= 1u128 << i;
        i += 1;
    }
    out
}

impl<S: Size> CellRanks<S> {
    const MASKS: [u128; RANKS] = rank_masks(S::N);
}

/// `moves` in [`CornersFirst`]'s order when they are placements in increasing cell order
/// (as [`ply_core::Game::legal_moves`] lists them): the set of their cells, each rank's
/// cells then written out in increasing order, which is what the stable sort gives. `false`
/// (and `moves` untouched) for any other list.
#[inline]
fn order_ascending<S: Size>(moves: &mut [Place]) -> bool {
    let mut cells = S::Bits::ZERO;
    let mut next = 0;
    for m in moves.iter() {
        let Some((r, c)) = m.cell() else {
            return false;
        };
        let i = r * S::N + c;
        if i < next || r >= S::N || c >= S::N {
            return false;
        }
        next = i + 1;
        cells |= S::Bits::cell(i);
    }
    let mut k = 0;
    by_rank::<S>(cells, |m| {
        moves[k] = m;
        k += 1;
    });
    true
}

/// Each of `cells` as a placement, in [`CornersFirst`]'s order: rank by rank, each rank's
/// cells in increasing order.
#[inline(always)]
fn by_rank<S: Size>(cells: S::Bits, mut out: impl FnMut(Place)) {
    for mask in CellRanks::<S>::MASKS {
        let mut rank = cells & S::Bits::from_u128(mask);
        while !rank.is_empty() {
            let i = rank.lowest() as usize;
            rank &= !S::Bits::cell(i);
            out(Place::from_index(i, S::N));
        }
    }
}

impl<S: Size> MoveOrdering<Reversi<S>> for CornersFirst {
    /// The placements written out rank by rank, with no list to sort (a pass, or nothing
    /// at the end, as the rules list them).
    fn ordered_moves(&self, state: &Reversi<S>, moves: &mut Vec<Place>) {
        let cells = state.placements();
        if cells.is_empty() {
            state.legal_moves(moves);
            return;
        }
        moves.clear();
        by_rank::<S>(cells, |m| moves.push(m));
    }

    fn order(&self, _: &Reversi<S>, moves: &mut [Place]) {
        if order_ascending::<S>(moves) {
            return;
        }
        // Any other list (a pass is alone in its list; at most N * N placements).
        let rank = |m: &Place| match m.cell() {
            None => 0,
            Some((r, c)) => usize::from(CellRanks::<S>::TABLE[r * S::N + c]),
        };
        let mut start = [0usize; RANKS + 1];
        for m in moves.iter() {
            start[rank(m) + 1] += 1;
        }
        for k in 1..=RANKS {
            start[k] += start[k - 1];
        }
        let mut sorted = [Place::PASS; 128];
        for &m in moves.iter() {
            let k = rank(&m);
            sorted[start[k]] = m;
            start[k] += 1;
        }
        moves.copy_from_slice(&sorted[..moves.len()]);
    }
}

/// The evaluator of the built-in players on both boards: the fitted patterns (the default;
/// [`super::pattern`] on 8x8, [`super::pattern10`] on 10x10), or [`Positional`], the
/// hand-written one they replaced, kept so that the two can be compared (`eval=classic`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OthelloEval {
    /// Pattern weights fitted by regression ([`super::pattern::WEIGHTS`],
    /// [`super::pattern10::WEIGHTS`]), 1/100 disc units.
    #[default]
    Pattern,
    /// [`Positional`].
    Classic,
    /// [`OthelloEval::Pattern`] plus a per-phase tempo for the side to move
    /// ([`super::tempo`]) on 8x8, which takes out the swing of search values with the
    /// parity of the depth; on 10x10 the same as `Pattern` (no tempo was measured there).
    Tempo,
}

/// On the plain game (the greedy player, the fitting tool) the pattern indices are
/// recomputed from the discs; the search plays on [`IndexedOthello`], which keeps them.
impl Evaluator<Othello> for OthelloEval {
    fn evaluate(&self, state: &Othello) -> Score {
        match self {
            OthelloEval::Pattern => Score(super::pattern::WEIGHTS.evaluate(state.own, state.opp)),
            OthelloEval::Tempo => Score(
                super::pattern::WEIGHTS.evaluate(state.own, state.opp)
                    + super::tempo::tempo((state.own | state.opp).count_ones()),
            ),
            OthelloEval::Classic => Positional.evaluate(state),
        }
    }

    fn probcut(&self, state: &Othello, depth: u32) -> Option<ply_core::ProbCut> {
        self.probcut_at(state.own | state.opp, depth)
    }
}

/// The same values as on [`Othello`], the pattern indices read from the state.
impl Evaluator<IndexedOthello> for OthelloEval {
    fn evaluate(&self, state: &IndexedOthello) -> Score {
        match self {
            OthelloEval::Pattern | OthelloEval::Tempo => {
                let idx = state.indices();
                let value = super::pattern::WEIGHTS.evaluate_kept(
                    state.own,
                    state.opp,
                    state.placements(),
                    |k| u32::from(idx[k]),
                );
                Score(match self {
                    OthelloEval::Tempo => {
                        value + super::tempo::tempo((state.own | state.opp).count_ones())
                    }
                    _ => value,
                })
            }
            OthelloEval::Classic => Positional.evaluate(state),
        }
    }

    fn probcut(&self, state: &IndexedOthello, depth: u32) -> Option<ply_core::ProbCut> {
        self.probcut_at(state.own | state.opp, depth)
    }
}

/// 10x10: the patterns of [`super::pattern10`], no ProbCut (its regression was measured on
/// 8x8 searches only).
impl Evaluator<Reversi10> for OthelloEval {
    fn evaluate(&self, state: &Reversi10) -> Score {
        match self {
            OthelloEval::Pattern | OthelloEval::Tempo => {
                let (own, opp) = state.sides();
                Score(super::pattern10::WEIGHTS.evaluate(own, opp))
            }
            OthelloEval::Classic => Positional.evaluate(state),
        }
    }
}

/// The same values as on [`Reversi10`], the pattern indices read from the state.
impl Evaluator<IndexedReversi10> for OthelloEval {
    fn evaluate(&self, state: &IndexedReversi10) -> Score {
        match self {
            OthelloEval::Pattern | OthelloEval::Tempo => {
                let (own, opp) = state.sides();
                Score(super::pattern10::WEIGHTS.evaluate_indexed(own, opp, state.indices()))
            }
            OthelloEval::Classic => Positional.evaluate(state),
        }
    }
}

impl OthelloEval {
    /// ProbCut's regression for a search to `depth` of a position with `discs` on the board
    /// (the same with the tempo: the shallow search keeps the depth's parity, so the tempo
    /// moves both searches' values alike, but for a change of phase between their leaves).
    fn probcut_at(self, discs: u64, depth: u32) -> Option<ply_core::ProbCut> {
        match self {
            OthelloEval::Pattern | OthelloEval::Tempo => {
                super::probcut::params(64 - discs.count_ones(), depth)
            }
            OthelloEval::Classic => None,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use ply_core::{Game, MoveOrdering};
    use rand::SeedableRng;
    use rand::seq::{IndexedRandom, SliceRandom};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::reversi::{Eight, Ten};

    /// The order as first written: a stable comparison sort by each cell's rank, the rank
    /// read off the row and column.
    pub(crate) fn plain_order<S: Size>(moves: &mut [Place]) {
        let last = S::N - 1;
        let border = |x: usize| x == 0 || x == last;
        let near = |x: usize| x <= 1 || x + 1 >= last;
        // Corners; then X- and C-squares, the cells next to a corner; then the border.
        moves.sort_by_key(|m| {
            let Some((r, c)) = m.cell() else { return 0 };
            if border(r) && border(c) {
                0
            } else if near(r) && near(c) {
                3
            } else if border(r) || border(c) {
                1
            } else {
                2
            }
        });
    }

    fn orders_agree_along_random_games<S: Size>(seed: u64, games: usize) -> usize {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut other = ChaCha8Rng::seed_from_u64(seed + 1000);
        let mut moves = Vec::new();
        let mut checked = 0;
        for _ in 0..games {
            let mut s = Reversi::<S>::start();
            loop {
                s.legal_moves(&mut moves);
                let Some(&mv) = moves.choose(&mut rng) else {
                    break;
                };
                // The legal list (in cell order: the placements' set written out by rank),
                // then the same moves shuffled, and with one repeated (the counting sort).
                let mut shuffled = moves.clone();
                shuffled.shuffle(&mut other);
                let mut repeated = moves.clone();
                repeated.push(moves[0]);
                let mut direct = Vec::new();
                CornersFirst.ordered_moves(&s, &mut direct);
                let mut plain = moves.clone();
                plain_order::<S>(&mut plain);
                assert_eq!(direct, plain, "{s}");
                for list in [&moves, &shuffled, &repeated] {
                    let mut fast = list.clone();
                    CornersFirst.order(&s, &mut fast);
                    let mut plain = list.clone();
                    plain_order::<S>(&mut plain);
                    assert_eq!(fast, plain, "{s}");
                }
                checked += 1;
                s.play_unchecked(mv);
            }
        }
        checked
    }

    #[test]
    fn corners_first_is_a_stable_sort_by_each_cells_rank() {
        // Every position of random games, passes included, on both boards.
        assert!(orders_agree_along_random_games::<Eight>(1, 200) > 10_000);
        assert!(orders_agree_along_random_games::<Ten>(2, 50) > 4_000);
    }
}
