//! The pattern evaluation of 10x10 Reversi (HackerEarth's board): the method of 8x8
//! Othello's ([`super::pattern`]: base-3 indices of cell groups into weight tables, one table
//! set per phase, mirrored indices folded, weights fitted on ply's own self-play by the
//! `reversi_fit` example, see `crates/games/data/reversi-patterns.md`), with patterns,
//! phases and scalar features of its own.
//!
//! ```text
//! corner 3x3   corner 2x5     edge, rows 2-4 (10 cells each)   diagonals 10, 9, ..., 5
//! a b c . .    a b c d e .    a b c d e f g h i j
//! d e f . .    f g h i j .
//! g h i . .
//! ```
//!
//! 50 instances (4 corners 3x3, 8 corners 2x5, 4 of the edge and of each of the next three
//! rows, 2 main diagonals, 4 of each shorter diagonal), 232,416 weights a phase after
//! folding; 8 phases of 12 discs ([`phase`]); and per phase a weight for each term of the
//! hand-written evaluation ([`scalars`]).
//!
//! # Why these choices
//! * **No edge+2X.** 8x8's edge pattern reads the two X-squares too; on 10x10 that is 12
//!   cells, 266,085 weights a phase after folding, more than all the others together. With
//!   the data one session can make (one core, about 90 positions a game) most of them were
//!   seen once or never, and the X-squares are read by the corner 3x3 anyway.
//! * **Fewer, wider phases than 8x8** (12 discs, not 5): the same reason, more positions per
//!   weight.
//! * **The hand-written terms as scalars.** The first fits with only a constant and mobility
//!   beside the patterns lost 38 of 40 games at depth 2 to [`super::Positional`]: the
//!   outcome of a 96-ply self-play game is a noisy label, and a pattern weight seen a few
//!   times fits the noise. With [`super::Positional`]'s terms as features every phase gets
//!   a hand-written evaluation with fitted weights, and a strong ridge (lambda in the
//!   thousands) keeps the patterns to the corrections the data supports
//!   (`crates/games/data/reversi-patterns.md` has the duels).
//!
//! # Why a module of its own
//! The 8x8 code reads a row of an image as a byte of a `u64` and turns a byte into a base-3
//! index through a 256-entry table; a 10x10 row is 10 bits of a `u128`, so none of its
//! index arithmetic carries over. What does carry over is shared: the [`Pattern`] and
//! [`Image`](super::pattern::Image) definitions (the corners and the line builders
//! themselves), the folding of mirrored indices ([`Layout::fold`]), the cell-power table and
//! its update, and the weights file's format. Here the indices are computed from that table,
//! `CELL_POWERS`, the power of 3 of each cell in each instance: from scratch ([`indices`])
//! as the sum over the discs of their powers (twice for the other side's), and in a search
//! by the move's change alone ([`Indices`], as 8x8's update does). The lanes are `u32`
//! because a 12-cell pattern was tried first; the indices now stay below 3^10, so `u16`
//! lanes, as on 8x8, would do and halve the update's work (not measured yet).
//!
//! Units: 1/100 of a disc, for the side to move.

use std::sync::LazyLock;

use super::pattern::{
    CORNER_2X5, CORNER_3X3, Layout, Pattern, ReadWeightsError, add, cell_powers, diagonal_pattern,
    row_pattern,
};

/// Cells per side.
const N: u8 = 10;
/// Game phases: positions are binned by discs on the board, [`DISCS_PER_PHASE`] a phase.
pub const PHASES: usize = 8;
/// Discs per phase: phase `p` holds `4 + 12p ..= 15 + 12p` discs (the last up to 100).
pub const DISCS_PER_PHASE: u32 = 12;
pub use super::pattern::UNITS_PER_DISC;

/// The phase of a position with `discs` discs on the board.
#[inline]
pub fn phase(discs: u32) -> usize {
    super::pattern::phase_of(discs, DISCS_PER_PHASE, PHASES)
}

/// The patterns, in the order of the weight tables: 8x8's corners, and its lines at 10
/// cells.
pub static PATTERNS: [Pattern; 12] = [
    CORNER_3X3,
    CORNER_2X5,
    row_pattern("edge", 10, 0),
    row_pattern("row2", 10, 1),
    row_pattern("row3", 10, 2),
    row_pattern("row4", 10, 3),
    diagonal_pattern("diag10", 10, 10),
    diagonal_pattern("diag9", 10, 9),
    diagonal_pattern("diag8", 10, 8),
    diagonal_pattern("diag7", 10, 7),
    diagonal_pattern("diag6", 10, 6),
    diagonal_pattern("diag5", 10, 5),
];

/// Pattern instances on the board: 4 + 8 + 4 + 3 * 4 + 2 + 5 * 4.
pub const INSTANCES: usize = 50;
/// Lanes of the index vectors: the [`INSTANCES`], padded to whole 16-byte vectors.
pub const LANES: usize = 52;
/// Scalar features after the patterns, per phase ([`scalars`]).
pub const SCALARS: usize = 7;

/// `CELL_POWERS[cell][k]`: the power of 3 of board cell `cell` (bit `row * 10 + col`) in
/// instance `k` (in the order of [`PATTERNS`] and their images), 0 where the instance does
/// not read the cell.
static CELL_POWERS: [[u32; LANES]; 100] = cell_powers(&PATTERNS, N);

/// The sum of the cells' power rows over the set `cells`.
#[inline]
fn powers_of(mut cells: u128) -> [u32; LANES] {
    let mut out = [0u32; LANES];
    while cells != 0 {
        add(&mut out, &CELL_POWERS[cells.trailing_zeros() as usize]);
        cells &= cells - 1;
    }
    out
}

/// The base-3 index of every pattern instance of the position (`own` to move; own discs are
/// digit 1, the other side's digit 2), in the first [`INSTANCES`] lanes (the rest 0).
#[inline]
pub fn indices(own: u128, opp: u128) -> [u32; LANES] {
    let mut out = powers_of(own);
    let theirs = powers_of(opp);
    for (o, t) in out.iter_mut().zip(theirs) {
        *o = o.wrapping_add(t.wrapping_mul(2));
    }
    out
}

/// The digit of cell `bit`: 0 empty, 1 own, 2 other side.
fn digit(own: u128, opp: u128, bit: u32) -> u32 {
    ((own >> bit) & 1) as u32 + 2 * ((opp >> bit) & 1) as u32
}

/// The same indices as [`indices`], computed cell by cell from the pattern definitions: the
/// reference the table is tested against.
pub fn indices_plain(own: u128, opp: u128) -> Vec<u32> {
    let mut out = Vec::with_capacity(INSTANCES);
    for p in &PATTERNS {
        for &image in p.images {
            let mut index = 0;
            for &(r, c) in p.cells.iter().rev() {
                let (br, bc) = image.source_on(N, r, c);
                index = index * 3 + digit(own, opp, u32::from(br) * 10 + u32::from(bc));
            }
            out.push(index);
        }
    }
    out
}

/// The pattern indices of a 10x10 position from both sides' points of view, updated by each
/// placement instead of recomputed ([`super::Tracked`]), as 8x8's
/// [`super::pattern::Indices`]: `view(seat)` equals [`indices`]`(seat's discs, the other's)`.
pub type Indices = super::pattern::SeatIndices<u32, LANES>;

impl super::Tracked<u128> for Indices {
    fn new(black: u128, white: u128, _: u128, _: u128) -> Indices {
        Indices::from_views(indices(black, white), indices(white, black))
    }

    #[inline]
    fn place(&mut self, mover: ply_core::Seat, cell: usize, flipped: u128) {
        let turned = powers_of(flipped);
        self.place(mover, &CELL_POWERS[cell], &turned);
    }
}

/// The pattern of each instance, in lane order.
pub fn instance_patterns() -> [usize; INSTANCES] {
    super::pattern::patterns_of_instances(&PATTERNS)
}

/// How the patterns' indices map onto weight numbers, built once.
pub static LAYOUT: LazyLock<Layout> = LazyLock::new(|| Layout::fold(&PATTERNS, SCALARS));

/// The number of a scalar feature's weight within a phase.
pub fn scalar_param(s: usize) -> usize {
    LAYOUT.params_per_phase - SCALARS + s
}

/// The scalar features of a position: a constant 1 and the terms of the hand-written
/// evaluation ([`super::positional_terms`]: corners, edge-stable discs, mobility,
/// frontier, X- and C-squares next to an empty corner), so that each phase weighs them
/// as its data says and the patterns add what they miss.
#[inline]
pub fn scalars(own: u128, opp: u128) -> [i32; SCALARS] {
    let t = super::eval::positional_terms::<super::board::Ten>(own, opp);
    [1, t[0], t[1], t[2], t[3], t[4], t[5]]
}

/// The weight numbers (within the phase) a position's features touch: the [`INSTANCES`]
/// pattern weights (value 1 each), then the [`SCALARS`] with their values.
pub fn features(own: u128, opp: u128) -> ([u32; INSTANCES], [i32; SCALARS]) {
    let idx = indices(own, opp);
    let pats = instance_patterns();
    let mut out = [0u32; INSTANCES];
    for k in 0..INSTANCES {
        out[k] = LAYOUT.param[pats[k]][idx[k] as usize];
    }
    (out, scalars(own, opp))
}

/// The first bytes of a 10x10 weights file (the 8x8 format with its own magic, so that one
/// board's file is never read as the other's).
pub const MAGIC: &[u8; 8] = b"PLYP10A1";

/// Writes weights as [`super::pattern::write_params`] does, with [`MAGIC`].
pub fn write_params(params: &[i16]) -> Vec<u8> {
    super::pattern::write_tagged(MAGIC, params)
}

/// Reads what [`write_params`] wrote: `PHASES * params_per_phase` values.
///
/// # Errors
/// A bad magic, a short file or trailing bytes.
pub fn read_params(bytes: &[u8]) -> Result<Vec<i16>, ReadWeightsError> {
    super::pattern::read_tagged(bytes, MAGIC, PHASES * LAYOUT.params_per_phase)
}

/// Weights of every phase as the evaluation reads them: each pattern's table spread over
/// all its indices (mirrored indices repeat the weight) so that an instance costs one load.
///
/// A phase's tables are spread the first time a position of that phase is evaluated
/// (0.8 MB each): a search touches one or two phases, and `ply bot reversi` starts afresh
/// for every move.
pub struct PatternWeights {
    /// The weights by number, phase after phase.
    params: Vec<i16>,
    /// Per phase, the spread tables, made on first use.
    tables: [std::sync::OnceLock<Vec<i16>>; PHASES],
    /// Per instance, where its pattern's table starts within a phase's tables.
    offsets: [u32; INSTANCES],
}

impl PatternWeights {
    /// Weights from their numbers: `PHASES * params_per_phase` values, phase by phase.
    ///
    /// # Panics
    /// If `params` has another length.
    pub fn from_params(params: &[i16]) -> PatternWeights {
        assert_eq!(
            params.len(),
            PHASES * LAYOUT.params_per_phase,
            "one weight per parameter"
        );
        let pats = instance_patterns();
        let mut starts = Vec::new();
        let mut stride = 0u32;
        for map in &LAYOUT.param {
            starts.push(stride);
            stride += map.len() as u32;
        }
        PatternWeights {
            params: params.to_vec(),
            tables: Default::default(),
            offsets: std::array::from_fn(|k| starts[pats[k]]),
        }
    }

    /// Reads the file [`write_params`] writes.
    ///
    /// # Errors
    /// A bad magic, a short file or trailing bytes.
    pub fn read(bytes: &[u8]) -> Result<PatternWeights, ReadWeightsError> {
        Ok(PatternWeights::from_params(&read_params(bytes)?))
    }

    /// Phase `ph`'s weights, by number.
    fn phase_params(&self, ph: usize) -> &[i16] {
        let per = LAYOUT.params_per_phase;
        &self.params[ph * per..(ph + 1) * per]
    }

    fn tables(&self, ph: usize) -> &[i16] {
        self.tables[ph].get_or_init(|| {
            let phase = self.phase_params(ph);
            LAYOUT
                .param
                .iter()
                .flat_map(|map| map.iter().map(|&p| phase[p as usize]))
                .collect()
        })
    }

    /// The value of the position for `own`, the side to move, in 1/100 discs.
    #[inline]
    pub fn evaluate(&self, own: u128, opp: u128) -> i32 {
        let idx = indices(own, opp);
        self.evaluate_indexed(own, opp, &idx)
    }

    /// [`evaluate`](PatternWeights::evaluate) with the position's indices given, as a
    /// search keeps them ([`Indices`]).
    #[inline]
    pub fn evaluate_indexed(&self, own: u128, opp: u128, idx: &[u32; LANES]) -> i32 {
        let ph = phase((own | opp).count_ones());
        let table = self.tables(ph);
        let mut sum = 0i32;
        for k in 0..INSTANCES {
            sum += i32::from(table[(self.offsets[k] + idx[k]) as usize]);
        }
        let per = LAYOUT.params_per_phase;
        let s = &self.params[ph * per + per - SCALARS..(ph + 1) * per];
        let f = scalars(own, opp);
        for i in 0..SCALARS {
            sum += i32::from(s[i]) * f[i];
        }
        sum
    }
}

/// The weights ply plays 10x10 with, from `crates/games/data/reversi-patterns.bin`.
pub static WEIGHTS: LazyLock<PatternWeights> = LazyLock::new(|| {
    PatternWeights::read(include_bytes!("../../data/reversi-patterns.bin"))
        .expect("the committed weights file is checked by the tests")
});

#[cfg(test)]
mod tests {
    use ply_core::Evaluator;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::reversi::pattern::Image;
    use crate::reversi::pattern::tests::{
        assert_cell_powers_name_each_instance_cell_once, assert_instances_cover_distinct_cells,
        kept_indices_agree_along_random_games, random_positions, sparse_random_params,
    };
    use crate::reversi::{IndexedReversi10, OthelloEval, Reversi10, Ten, TenIndexed};

    /// Image `image` of the 10x10 bitboard `x`, cell by cell.
    fn image_of(image: Image, x: u128) -> u128 {
        let mut out = 0;
        for r in 0..N {
            for c in 0..N {
                let (sr, sc) = image.source_on(N, r, c);
                if x >> (u32::from(sr) * 10 + u32::from(sc)) & 1 != 0 {
                    out |= 1u128 << (u32::from(r) * 10 + u32::from(c));
                }
            }
        }
        out
    }

    fn random_params(seed: u64) -> Vec<i16> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..PHASES * LAYOUT.params_per_phase)
            .map(|_| rng.random_range(-300..=300))
            .collect()
    }

    #[test]
    fn instances_add_up_cover_distinct_cells_and_every_cell_power_once() {
        assert_eq!(
            PATTERNS.iter().map(|p| p.images.len()).sum::<usize>(),
            INSTANCES
        );
        assert_instances_cover_distinct_cells(&PATTERNS, N);
        assert_cell_powers_name_each_instance_cell_once(&CELL_POWERS, &PATTERNS);
        // 232,416 pattern weights after folding (a line of 10 cells: (3^10 + 3^5) / 2).
        assert_eq!(LAYOUT.params_per_phase, 232_416 + SCALARS);
    }

    #[test]
    fn table_indices_equal_a_plain_recomputation_on_random_positions() {
        for s in random_positions::<Ten>(1, 100) {
            let (own, opp) = s.sides();
            let idx = indices(own, opp);
            assert_eq!(idx[..INSTANCES], indices_plain(own, opp), "{s}");
            assert!(idx[INSTANCES..].iter().all(|&i| i == 0));
        }
    }

    #[test]
    fn incremental_indices_equal_a_plain_recomputation_along_random_games_with_passes() {
        let (positions, passes) = kept_indices_agree_along_random_games::<TenIndexed>(
            11,
            150,
            INSTANCES,
            |s, seat| s.tracked.view(seat).to_vec(),
            indices_plain,
        );
        assert!(
            positions > 13_000 && passes > 10,
            "{positions} positions, {passes} passes"
        );
    }

    #[test]
    fn evaluation_is_the_same_on_all_eight_images_of_a_position() {
        let weights = PatternWeights::from_params(&random_params(7));
        for s in random_positions::<Ten>(2, 40) {
            let (own, opp) = s.sides();
            let v = weights.evaluate(own, opp);
            let shipped = WEIGHTS.evaluate(own, opp);
            for image in Image::ALL {
                let (o, p) = (image_of(image, own), image_of(image, opp));
                assert_eq!(weights.evaluate(o, p), v, "{image:?} of {s}");
                assert_eq!(WEIGHTS.evaluate(o, p), shipped, "{image:?} of {s}");
            }
        }
    }

    #[test]
    fn features_and_weights_give_the_evaluation_on_both_states() {
        // The fitting tool's view (weight numbers and values), the evaluator's (spread
        // tables) and the searched state's (kept indices) agree.
        let params = random_params(8);
        let weights = PatternWeights::from_params(&params);
        for s in random_positions::<Ten>(3, 20) {
            let (own, opp) = s.sides();
            let base = phase((own | opp).count_ones()) * LAYOUT.params_per_phase;
            let (pats, scal) = features(own, opp);
            let mut sum: i32 = pats
                .iter()
                .map(|&p| i32::from(params[base + p as usize]))
                .sum();
            for (i, v) in scal.iter().enumerate() {
                sum += v * i32::from(params[base + scalar_param(i)]);
            }
            assert_eq!(weights.evaluate(own, opp), sum, "{s}");
            let indexed = IndexedReversi10::from(s);
            assert_eq!(weights.evaluate_indexed(own, opp, indexed.indices()), sum);
            assert_eq!(
                OthelloEval::Pattern.evaluate(&indexed),
                OthelloEval::Pattern.evaluate(&s)
            );
        }
    }

    #[test]
    fn weights_file_round_trips_and_the_committed_one_has_every_phase_fitted() {
        let params = sparse_random_params(9, PHASES * LAYOUT.params_per_phase);
        let bytes = write_params(&params);
        assert_eq!(read_params(&bytes).unwrap(), params);
        assert!(matches!(
            read_params(&bytes[..bytes.len() - 1]),
            Err(ReadWeightsError::Truncated { .. })
        ));
        // The other board's file is refused.
        let eight = super::super::pattern::write_params(&params[..10]);
        assert_eq!(read_params(&eight), Err(ReadWeightsError::Magic));

        let file = include_bytes!("../../data/reversi-patterns.bin");
        assert!(file.len() < 2 << 20, "{} bytes", file.len());
        let shipped = read_params(file).unwrap();
        for (ph, chunk) in shipped.chunks(LAYOUT.params_per_phase).enumerate() {
            let set = chunk.iter().filter(|&&w| w != 0).count();
            assert!(set > 1000, "phase {ph} has {set} weights set");
        }
    }

    #[test]
    fn shipped_evaluation_is_for_the_side_to_move() {
        // A board the side to move dominates (corners, edges, most discs) is good for it and
        // bad for the other side.
        let rows = [
            "xxxxxxxxxx",
            "xxxxxxxxxo",
            "xxxxxxxxo.",
            "xxxxxxxo..",
            "xxxxxxo...",
            "xxxxxo....",
            "xxxxo.....",
            "xxxo......",
            "xxo.......",
            "xo........",
        ]
        .join("/");
        let strong: Reversi10 = format!("{rows} x").parse().unwrap();
        let weak: Reversi10 = format!("{rows} o").parse().unwrap();
        let eval = OthelloEval::Pattern;
        assert!(
            eval.evaluate(&strong).0 > 10 * UNITS_PER_DISC,
            "{:?}",
            eval.evaluate(&strong)
        );
        assert!(
            eval.evaluate(&weak).0 < -10 * UNITS_PER_DISC,
            "{:?}",
            eval.evaluate(&weak)
        );
    }
}
