//! Endgame tables: the exact value of every position with at most [`MEN`] men a side.
//!
//! # Why this is simple here
//! Every move takes a man forward, so no position comes back: the positions form an acyclic
//! graph and a position's value is the best of its children's, computed once, with no
//! cycles to resolve (no retrograde passes over "unknown" positions as in kings' draughts).
//! A capture only removes men, so the children of a position with at most [`MEN`] men a
//! side are in the table too.
//!
//! # The value
//! The final man difference for the side to move under perfect play (both sides playing
//! for the largest difference): the side to move's men minus the other side's when the game
//! ends. Its sign is ply's win, draw or loss ([`Outcome::by_majority`](ply_core::Outcome)).
//!
//! # The index
//! A rotation by half a turn maps the dark squares onto themselves and player 1's men onto
//! player 2's, moving up instead of down, so a position with player 2 to move is stored as
//! the rotated one with player 1 to move: only the mover's men and the other side's are
//! indexed, in the mover's frame. The 32 dark squares are numbered `row * 4 + col / 2`; the
//! mover's men are ranked among the subsets of the 32 squares of their size (the
//! combinatorial number system), the other side's among the subsets of the 32 minus the
//! mover's. Men on their last row can no longer move, but they still block a landing, so
//! they are placed like the others.
//!
//! # Filled at first use
//! All of it (22.5 million positions up to 3 against 3) takes seconds to compute, too long
//! for a bot run afresh every move, so each value is computed when first asked for (with
//! the values it needs below it) and kept: a position's first probe costs the part of the
//! graph it reaches and later probes one load. That part is small up to 2 men a side but
//! up to millions of positions at 3 against 3, so searches probe only the smaller
//! ([`PROBE_MEN`]).
//! [`Tables::fill`] computes everything, for the benchmark.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use ply_core::Seat;

use super::board::Draughts;

/// The most men a side may have for a position to be in the tables.
pub const MEN: u32 = 3;

/// The most men a side may have for a search to probe the tables ([`probe`]): a
/// first probe of a 3-against-3 position fills up to 5 million positions, 0.3 s, too long
/// inside a move of 100 ms; up to 2 against 2, 4 ms at most (docs/benchmarks.md).
pub const PROBE_MEN: u32 = 2;

/// The dark squares (row plus column odd) of the 8x8 board, bit `row * 8 + col`.
const DARK: u64 = 0x55AA_55AA_55AA_55AA;

/// `BINOMIAL[n][k]`, n choose k, for n up to 32.
const BINOMIAL: [[u32; MEN as usize + 1]; 33] = binomials();

const fn binomials() -> [[u32; MEN as usize + 1]; 33] {
    let mut b = [[0u32; MEN as usize + 1]; 33];
    let mut n = 0;
    while n <= 32 {
        b[n][0] = 1;
        let mut k = 1;
        while k <= MEN as usize {
            b[n][k] = if n == 0 {
                0
            } else {
                b[n - 1][k - 1] + b[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    b
}

/// `OFFSET[mover][other]`: where the class with these numbers of men starts, and the
/// tables' size in the last slot.
const OFFSET: [[usize; MEN as usize + 1]; MEN as usize + 2] = offsets();

const fn offsets() -> [[usize; MEN as usize + 1]; MEN as usize + 2] {
    let mut o = [[0usize; MEN as usize + 1]; MEN as usize + 2];
    let mut at = 0usize;
    let mut a = 0;
    while a <= MEN as usize {
        let mut b = 0;
        while b <= MEN as usize {
            o[a][b] = at;
            at += BINOMIAL[32][a] as usize * BINOMIAL[32 - a][b] as usize;
            b += 1;
        }
        a += 1;
    }
    o[MEN as usize + 1][0] = at;
    o
}

/// Positions in the tables, both sides' sizes from 0 to [`MEN`], the mover's frame only.
pub const POSITIONS: usize = OFFSET[MEN as usize + 1][0];

/// The bits of `bits` that `mask` selects, packed to the low end (`pext`).
fn compress(mut bits: u64, mask: u64) -> u32 {
    let mut out = 0;
    while bits != 0 {
        let b = bits.trailing_zeros();
        bits &= bits - 1;
        out |= 1 << (mask & ((1u64 << b) - 1)).count_ones();
    }
    out
}

/// The inverse of [`compress`]: the low bits of `packed` spread onto the set bits of `mask`
/// (`pdep`).
fn expand(mut packed: u32, mask: u64) -> u64 {
    let mut out = 0;
    let mut m = mask;
    while packed != 0 {
        if packed & 1 != 0 {
            out |= m & m.wrapping_neg();
        }
        packed >>= 1;
        m &= m - 1;
    }
    out
}

/// The rank of `set` among the subsets of its size (colex order).
fn rank(mut set: u32) -> u32 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += BINOMIAL[set.trailing_zeros() as usize][i];
        set &= set - 1;
        i += 1;
    }
    r
}

/// The subset of size `k` of rank `r` (the inverse of [`rank`]).
fn unrank(mut r: u32, k: usize) -> u32 {
    let mut set = 0;
    for i in (1..=k).rev() {
        let mut p = i - 1;
        while BINOMIAL[p + 1][i] <= r {
            p += 1;
        }
        r -= BINOMIAL[p][i];
        set |= 1 << p;
    }
    set
}

/// The men of the side to move and of the other side, seen from the side to move as if it
/// were player 1 (rotated by half a turn when it is player 2).
fn mover_frame(state: &Draughts) -> (u64, u64) {
    let (own, opp) = (state.men(state.turn), state.men(state.turn.next(2)));
    if state.turn == Seat::FIRST {
        (own, opp)
    } else {
        (own.reverse_bits(), opp.reverse_bits())
    }
}

/// The index of a position whose sides have at most [`MEN`] men, in the mover's frame.
fn index_of(own: u64, opp: u64) -> usize {
    let own = compress(own, DARK);
    let opp = compress(opp, DARK);
    let (a, b) = (own.count_ones() as usize, opp.count_ones() as usize);
    // The other side's men among the squares the mover's leave free.
    let free = !u64::from(own) & 0xffff_ffff;
    let opp = compress(u64::from(opp), free);
    OFFSET[a][b] + rank(own) as usize * BINOMIAL[32 - a][b] as usize + rank(opp) as usize
}

/// The position (player 1 to move) of an index: the inverse of [`index_of`].
///
/// # Panics
/// If `index` is not below [`POSITIONS`].
fn position_of(index: usize) -> Draughts {
    assert!(index < POSITIONS, "index {index} out of the tables");
    // The last class starting at or before `index` (the offsets grow in (a, b) order).
    let (mut a, mut b) = (0, 0);
    for (x, row) in OFFSET[..=MEN as usize].iter().enumerate() {
        for (y, &start) in row.iter().enumerate() {
            if start <= index {
                (a, b) = (x, y);
            }
        }
    }
    let within = index - OFFSET[a][b];
    let per = BINOMIAL[32 - a][b] as usize;
    let own = unrank((within / per) as u32, a);
    let free = !u64::from(own) & 0xffff_ffff;
    let opp = expand(unrank((within % per) as u32, b), free) as u32;
    Draughts::from_men(expand(own, DARK), expand(opp, DARK), Seat::FIRST)
}

/// Whether `state` is in the tables: at most [`MEN`] men a side.
pub fn covers(state: &Draughts) -> bool {
    state.men[0].count_ones() <= MEN && state.men[1].count_ones() <= MEN
}

/// The value of `state` from the process's [`Tables::shared`] if it has at most
/// [`PROBE_MEN`] men a side, where a first probe is quick; `None` for the others (the
/// tables are allocated only when one is asked for).
pub fn probe(state: &Draughts) -> Option<i32> {
    let most = state.men[0].count_ones().max(state.men[1].count_ones());
    if most <= PROBE_MEN {
        Tables::shared().value(state)
    } else {
        None
    }
}

/// The tables, shared by every search of the process and filled as they are asked.
///
/// ```
/// use ply_games::draughts::{Draughts, Tables};
///
/// // Player 1 (x) to move, one man each: x steps to (6,1) or (6,3); o on (6,5) has no
/// // way to reach x, so each side walks to its last row and the men end 1 against 1.
/// let state: Draughts = "......../......../......../......../......../..x...../.....o../........ x"
///     .parse()
///     .unwrap();
/// assert_eq!(Tables::shared().value(&state), Some(0));
/// ```
pub struct Tables {
    /// 0 while unknown, otherwise the value plus [`BIAS`].
    values: Vec<AtomicU8>,
}

/// Added to a value to store it, so that 0 can mean "not computed yet".
const BIAS: i32 = 64;

impl Tables {
    /// Empty tables ([`POSITIONS`] bytes).
    pub fn new() -> Tables {
        Tables {
            values: std::iter::repeat_with(|| AtomicU8::new(0))
                .take(POSITIONS)
                .collect(),
        }
    }

    /// The process's tables, allocated at the first call.
    pub fn shared() -> &'static Tables {
        static SHARED: OnceLock<Tables> = OnceLock::new();
        SHARED.get_or_init(Tables::new)
    }

    /// The final man difference for the side to move under perfect play, if `state` is in
    /// the tables ([`covers`]).
    pub fn value(&self, state: &Draughts) -> Option<i32> {
        if !covers(state) {
            return None;
        }
        let (own, opp) = mover_frame(state);
        let mut moves = Vec::new();
        Some(self.solve(own, opp, &mut moves))
    }

    /// The value of the position with player 1 to move, `own` against `opp`; `stack` holds
    /// the move lists of the positions above it.
    fn solve(&self, own: u64, opp: u64, stack: &mut Vec<Vec<super::Move>>) -> i32 {
        let slot = &self.values[index_of(own, opp)];
        let stored = slot.load(Ordering::Relaxed);
        if stored != 0 {
            return i32::from(stored) - BIAS;
        }
        let state = Draughts::from_men(own, opp, Seat::FIRST);
        let mut moves = stack.pop().unwrap_or_default();
        state.generate(&mut moves);
        let value = if moves.is_empty() {
            own.count_ones() as i32 - opp.count_ones() as i32
        } else {
            let mut best = i32::MIN;
            for &mv in &moves {
                let mut child = state;
                child.apply(mv);
                // The child has player 2 to move: its frame is the rotated board.
                let v = -self.solve(
                    child.men[1].reverse_bits(),
                    child.men[0].reverse_bits(),
                    stack,
                );
                best = best.max(v);
            }
            best
        };
        stack.push(moves);
        slot.store((value + BIAS) as u8, Ordering::Relaxed);
        value
    }

    /// Computes every position's value (the benchmark's full generation); returns how many
    /// positions the tables hold.
    pub fn fill(&self) -> usize {
        let mut stack = Vec::new();
        for index in 0..POSITIONS {
            let p = position_of(index);
            self.solve(p.men[0], p.men[1], &mut stack);
        }
        POSITIONS
    }

    /// How many positions have been computed so far.
    pub fn known(&self) -> usize {
        self.values
            .iter()
            .filter(|v| v.load(Ordering::Relaxed) != 0)
            .count()
    }
}

impl Default for Tables {
    fn default() -> Self {
        Self::new()
    }
}

/// `a` men of player 1 and `b` of player 2 on distinct random dark squares, either side
/// to move.
pub fn random_position(rng: &mut impl rand::Rng, a: u32, b: u32) -> Draughts {
    let mut men = [0u64; 2];
    for (side, count) in [(0, a), (1, b)] {
        while men[side].count_ones() < count {
            let dark = rng.random_range(0..32u32);
            let cell = expand(1 << dark, DARK);
            if (men[0] | men[1]) & cell == 0 {
                men[side] |= cell;
            }
        }
    }
    let turn = if rng.random_bool(0.5) {
        Seat::FIRST
    } else {
        Seat::SECOND
    };
    Draughts::from_men(men[0], men[1], turn)
}

#[cfg(test)]
pub(super) mod tests {
    use std::collections::HashMap;

    use ply_core::{Game, Outcome};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Plain exhaustive minimax over the generic [`Game`] rules, remembering the positions
    /// it has solved (the graph has millions of paths, but few positions): the final man
    /// difference for the side to move, checked against the game's own outcome.
    pub(in crate::draughts) fn plain(state: &Draughts, memo: &mut HashMap<Draughts, i32>) -> i32 {
        if let Some(&v) = memo.get(state) {
            return v;
        }
        let me = state.to_move();
        let value = if let Some(outcome) = state.outcome() {
            let diff =
                state.men(me).count_ones() as i32 - state.men(me.next(2)).count_ones() as i32;
            let expected = match outcome {
                Outcome::Win(s) if s == me => 1,
                Outcome::Win(_) => -1,
                _ => 0,
            };
            assert_eq!(diff.signum(), expected, "{state}");
            diff
        } else {
            let mut moves = Vec::new();
            state.legal_moves(&mut moves);
            moves
                .iter()
                .map(|&m| {
                    let mut child = *state;
                    child.play(m).expect("legal");
                    -plain(&child, memo)
                })
                .max()
                .expect("not over, so a move")
        };
        memo.insert(*state, value);
        value
    }

    #[test]
    fn tables_agree_with_plain_minimax_on_random_positions_of_every_class() {
        let tables = Tables::new();
        let mut memo = HashMap::new();
        let mut rng = ChaCha8Rng::seed_from_u64(33);
        let mut decided = [0usize; 3];
        for a in 0..=MEN {
            for b in 0..=MEN {
                // The 5- and 6-men classes reach far larger graphs: fewer of them keep the
                // test to seconds.
                let samples = if a + b <= 4 { 1000 } else { 100 };
                for _ in 0..samples {
                    let p = random_position(&mut rng, a, b);
                    let v = tables.value(&p).expect("in the tables");
                    assert_eq!(v, plain(&p, &mut memo), "{p}");
                    decided[(v.signum() + 1) as usize] += 1;
                }
            }
        }
        // Wins, draws and losses all occur: the comparison is not between constants.
        assert!(decided.iter().all(|&n| n > 200), "{decided:?}");
    }

    #[test]
    fn positions_beyond_the_tables_are_refused() {
        let tables = Tables::new();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        assert_eq!(tables.value(&random_position(&mut rng, 4, 1)), None);
        assert_eq!(tables.value(&random_position(&mut rng, 0, 4)), None);
        assert_eq!(tables.value(&Draughts::start()), None);
    }

    #[test]
    fn binomials_and_size() {
        assert_eq!(BINOMIAL[32][3], 4960);
        assert_eq!(BINOMIAL[29][3], 3654);
        // Sum over a, b in 0..=3 of C(32, a) C(32 - a, b).
        let mut total = 0usize;
        for a in 0..=3usize {
            for b in 0..=3usize {
                let c = |n: usize, k: usize| -> usize {
                    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
                };
                total += c(32, a) * c(32 - a, b);
            }
        }
        assert_eq!(POSITIONS, total);
        assert_eq!(OFFSET[3][3] + 4960 * 3654, POSITIONS);
    }

    #[test]
    fn index_and_position_round_trip_over_small_classes() {
        // Every position with up to 2 men a side, and the first of the 3-against-3 class.
        let upto = OFFSET[3][0];
        for index in (0..upto).chain(OFFSET[3][3]..OFFSET[3][3] + 20_000) {
            let p = position_of(index);
            assert_eq!(p.men[0] & p.men[1], 0);
            assert_eq!((p.men[0] | p.men[1]) & !DARK, 0, "{p}");
            assert_eq!(index_of(p.men[0], p.men[1]), index, "{p}");
        }
    }

    #[test]
    fn rank_and_unrank_are_inverse_for_every_subset_of_three() {
        for r in 0..BINOMIAL[32][3] {
            let s = unrank(r, 3);
            assert_eq!(s.count_ones(), 3);
            assert_eq!(rank(s), r);
        }
    }

    #[test]
    fn compress_and_expand_are_inverse() {
        for bits in [0u32, 1, 0b1011, 0x8000_0001, 0xf000_000f] {
            assert_eq!(compress(expand(bits, DARK), DARK), bits);
        }
    }
}
