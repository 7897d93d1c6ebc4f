//! Counting reachable positions level by level (a level = positions after k jumps), as
//! sorted vectors of canonical positions, and which of them can still be finished.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use ply_core::simd::SimdChoice;

use super::board::{Board, Jump, bits_of};
use super::solve::{Goal, PegHasher, PegSet};

/// Whether positions are identified up to the board's symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// One representative (the smallest image) per class of symmetric positions.
    Symmetry,
    /// Every position on its own (for goals that are not symmetric).
    Nothing,
}

impl Reduce {
    /// The key of `pegs`.
    #[inline]
    pub fn key(self, board: &Board, pegs: u64) -> u64 {
        match self {
            Reduce::Symmetry => board.canonical(pegs),
            Reduce::Nothing => pegs,
        }
    }
}

/// Every position reachable from a start, by level.
#[derive(Clone, Debug)]
pub struct Levels {
    /// How positions were identified.
    pub reduce: Reduce,
    /// `levels[k]`: the canonical positions after `k` jumps, sorted ascending.
    pub levels: Vec<Vec<u64>>,
}

/// Counts from [`Levels`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counts {
    /// Positions per level, up to symmetry.
    pub canonical: Vec<u64>,
    /// Positions per level, every symmetric image counted.
    pub all: Vec<u64>,
}

/// Enumerates every position reachable from `start`, level by level, up to the board's
/// symmetries when `reduce` asks for it and the start is symmetric (otherwise each position
/// on its own, as counting images of a lopsided start would count positions it never
/// reaches); stops after `max_levels` levels (`usize::MAX` for all). Calls `progress`
/// after each level with its number and size. Uses every core the machine offers
/// ([`reachable_levels_threads`]).
pub fn reachable_levels(
    board: &Board,
    start: u64,
    reduce: Reduce,
    max_levels: usize,
    progress: impl FnMut(usize, usize),
) -> Levels {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    reachable_levels_threads(board, start, reduce, max_levels, threads, progress)
}

/// [`reachable_levels`] on at most `threads` threads. Each level's children are generated
/// by shifts of the whole position (one mask per jump direction), canonicalised by XORing
/// the parent's eight images with the jump's (symmetries are bit permutations, so the
/// image of a child is the parent's image with the jump's image toggled), packed to one
/// bit per hole (an order-keeping map, so the smallest image stays the smallest), pushed
/// onto blocks by their top bits, then deduplicated a bucket at a time in cache (a bitmap
/// of the low bits, or a radix sort when they are wider than 22). Threads split the
/// parents, then the buckets, so they never share a write. The result does not depend on
/// `threads`.
pub fn reachable_levels_threads(
    board: &Board,
    start: u64,
    reduce: Reduce,
    max_levels: usize,
    threads: usize,
    progress: impl FnMut(usize, usize),
) -> Levels {
    let native = NATIVE.available();
    reachable_levels_code(board, start, reduce, max_levels, threads, native, progress)
}

/// [`reachable_levels_threads`], running the copies compiled for newer CPUs when `native`
/// (the tests run both).
///
/// # Panics
/// If `native` and the CPU lacks their features ([`native_detected`]).
pub(crate) fn reachable_levels_code(
    board: &Board,
    start: u64,
    reduce: Reduce,
    max_levels: usize,
    threads: usize,
    native: bool,
    mut progress: impl FnMut(usize, usize),
) -> Levels {
    let reduce = match reduce {
        Reduce::Symmetry if board.images(start).iter().all(|&i| i == start) => Reduce::Symmetry,
        _ => Reduce::Nothing,
    };
    let mut expander = Expander::new(board, reduce);
    expander.native = native;
    let bits = expander.packer.bits;
    // Buckets by the top 11 bits (2048 buckets); the rest of a key is kept in 32 bits when
    // it fits (boards of up to 43 holes), else in 64.
    let top = bits.min(11);
    if bits - top <= 32 {
        expander.all_levels::<u32>(board, start, max_levels, threads, top, &mut progress)
    } else {
        expander.all_levels::<u64>(board, start, max_levels, threads, top, &mut progress)
    }
}

/// Parents per thread below which a level is not worth splitting.
const MIN_PARENTS_PER_THREAD: usize = 2048;

/// Maps positions to one bit per hole, keeping their order (bits are only removed), by
/// byte-indexed tables, and back.
struct Packer {
    pack: Box<[[u64; 256]; 8]>,
    unpack: Box<[[u64; 256]; 8]>,
    bits: u32,
    /// The holes: packing is `pext` by them, unpacking `pdep`.
    holes: u64,
    /// The bytes of a position that hold holes (7 of 8 on the English board).
    bytes: usize,
}

impl Packer {
    fn new(holes: u64) -> Packer {
        let mut pack = Box::new([[0u64; 256]; 8]);
        let mut unpack = Box::new([[0u64; 256]; 8]);
        let hole_bits: Vec<u8> = bits_of(holes).collect();
        for k in 0..8 {
            for v in 0..256usize {
                for i in 0..8 {
                    if v >> i & 1 == 0 {
                        continue;
                    }
                    let bit = 8 * k + i;
                    if holes >> bit & 1 == 1 {
                        let rank = (holes & ((1u64 << bit) - 1)).count_ones();
                        pack[k][v] |= 1u64 << rank;
                    }
                    if let Some(&b) = hole_bits.get(bit) {
                        unpack[k][v] |= 1u64 << b;
                    }
                }
            }
        }
        Packer {
            pack,
            unpack,
            bits: holes.count_ones(),
            holes,
            bytes: (64 - holes.leading_zeros() as usize).div_ceil(8),
        }
    }

    #[inline(always)]
    fn pack(&self, x: u64) -> u64 {
        let mut out = 0;
        for (k, t) in self.pack[..self.bytes].iter().enumerate() {
            out |= t[(x >> (8 * k)) as usize & 0xff];
        }
        out
    }

    #[inline(always)]
    fn unpack(&self, x: u64) -> u64 {
        let mut out = 0;
        for (k, t) in self.unpack.iter().enumerate() {
            out |= t[(x >> (8 * k)) as usize & 0xff];
        }
        out
    }
}

/// The jumps along one bit stride: on the 8x8 grid layout every jump is one (stride 1
/// across, 8 down, 9 along the triangle's diagonal).
struct Family {
    stride: u32,
    /// Bits from which a jump goes up by `2 * stride`.
    up: u64,
    /// Bits at which a jump coming down by `2 * stride` lands.
    down: u64,
    /// By lowest bit of the jump's three: the packed images of those three bits.
    images: Box<[[u64; 8]; 64]>,
}

/// Generates the canonical children of positions, packed.
struct Expander {
    families: Vec<Family>,
    /// Jumps whose holes are not equally spaced bits (boards numbered row by row), with the
    /// packed images of their three bits.
    others: Vec<(Jump, [u64; 8])>,
    packer: Packer,
    symmetric: bool,
    /// Whether to run the copies compiled for newer x86-64 CPUs ([`NATIVE`]).
    native: bool,
}

/// Whether this CPU runs the enumeration's copies compiled for newer x86-64 CPUs and
/// `PLY_NO_SIMD` is not set ([`ply_core::simd`]); looked up once.
static NATIVE: SimdChoice = SimdChoice::new(native_detected);

// The CPU test for the native copies' features (shared with every copy built with them).
pub(crate) use ply_core::simd::avx2_bmi_detected as native_detected;

impl Expander {
    fn new(board: &Board, reduce: Reduce) -> Expander {
        let packer = Packer::new(board.holes());
        let symmetric = reduce == Reduce::Symmetry;
        let images = |m: u64| -> [u64; 8] {
            let im = if symmetric { board.images8(m) } else { [m; 8] };
            im.map(|x| packer.pack(x))
        };
        let mut families: Vec<Family> = Vec::new();
        let mut others = Vec::new();
        for &j in board.jumps() {
            let (from, over, to) = (i32::from(j.from), i32::from(j.over), i32::from(j.to));
            let three = j.needs() | 1u64 << j.to;
            if over - from != to - over {
                others.push((j, images(three)));
                continue;
            }
            let stride = (over - from).unsigned_abs();
            let f = match families.iter().position(|f| f.stride == stride) {
                Some(f) => f,
                None => {
                    families.push(Family {
                        stride,
                        up: 0,
                        down: 0,
                        images: Box::new([[0; 8]; 64]),
                    });
                    families.len() - 1
                }
            };
            let family = &mut families[f];
            if over > from {
                family.up |= 1u64 << from;
            } else {
                family.down |= 1u64 << to;
            }
            family.images[from.min(to) as usize] = images(three);
        }
        Expander {
            families,
            others,
            packer,
            symmetric,
            native: false,
        }
    }

    /// The legal jumps of `p` in `family`, as the set of their lowest bits.
    #[inline(always)]
    fn legal(family: &Family, p: u64) -> u64 {
        let s = family.stride;
        let (next, far) = (p >> s, p >> (2 * s));
        (family.up & p & next & !far) | (family.down & !p & next & far)
    }

    /// Calls `emit` with the packed canonical key of every child of `p`.
    #[inline(always)]
    fn children(
        &self,
        board: &Board,
        p: u64,
        pack: impl Fn(u64) -> u64,
        mut emit: impl FnMut(u64),
    ) {
        let im = if self.symmetric {
            board.images8(p)
        } else {
            [p; 8]
        };
        let im = im.map(pack);
        let smallest = |t: &[u64; 8]| {
            let mut m = im[0] ^ t[0];
            for g in 1..8 {
                m = m.min(im[g] ^ t[g]);
            }
            m
        };
        for family in &self.families {
            let mut legal = Self::legal(family, p);
            while legal != 0 {
                let low = legal.trailing_zeros() as usize;
                legal &= legal - 1;
                emit(smallest(&family.images[low]));
            }
        }
        for (j, t) in &self.others {
            if j.legal(p) {
                emit(smallest(t));
            }
        }
    }
}

/// The low bits of a packed key, below its bucket's bits: `u32` when they fit, which
/// halves the memory the children take and the sort moves.
trait Low: Copy + Eq + Send + Sync + 'static {
    fn from_u64(x: u64) -> Self;
    fn to_u64(self) -> u64;
}

impl Low for u32 {
    #[inline]
    fn from_u64(x: u64) -> u32 {
        debug_assert!(x <= u64::from(u32::MAX));
        x as u32
    }
    #[inline]
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}

impl Low for u64 {
    #[inline]
    fn from_u64(x: u64) -> u64 {
        x
    }
    #[inline]
    fn to_u64(self) -> u64 {
        self
    }
}

/// Buffers kept from level to level, so that the largest level's memory is allocated (and
/// faulted in by the kernel) once instead of once a level.
struct Workspace<K> {
    /// `blocks[t][b]`: the low bits of the children thread `t` generated into bucket `b`.
    blocks: Vec<Vec<Vec<K>>>,
    /// One a thread: its sorting buffers and its share of the next level.
    sorters: Vec<Sorter<K>>,
}

struct Sorter<K> {
    buf: Vec<K>,
    scratch: Vec<K>,
    counts: Vec<usize>,
    out: Vec<u64>,
    /// One bit per possible low part (when they have at most [`MAX_BITMAP_BITS`] bits).
    bitmap: Vec<u64>,
    /// One bit per word of `bitmap`: whether it has a bit set.
    summary: Vec<u64>,
}

/// The widest low parts deduplicated by a bitmap (512 KB at 22 bits, the English board's:
/// about the second-level cache) rather than sorted.
const MAX_BITMAP_BITS: u32 = 22;

impl<K: Low> Sorter<K> {
    /// Pushes `f(low)` onto `out` for every distinct low part in `blocks` (each below
    /// `2^bits`), in ascending order: one bit set per key, then a scan of the words the
    /// summary marks, each cleared as it is read (so both maps are empty again after).
    /// Cheaper than sorting when, as here, most keys are duplicates (186 million
    /// children for 23 million positions on the English board).
    #[inline(always)]
    fn distinct<'a>(
        &mut self,
        blocks: impl Iterator<Item = &'a [K]>,
        bits: u32,
        f: impl Fn(u64) -> u64,
    ) {
        let words = (1usize << bits).div_ceil(64);
        if self.bitmap.len() < words {
            self.bitmap.resize(words, 0);
            self.summary.resize(words.div_ceil(64), 0);
        }
        for block in blocks {
            for &k in block {
                let k = k.to_u64() as usize;
                self.bitmap[k >> 6] |= 1 << (k & 63);
                self.summary[k >> 12] |= 1 << ((k >> 6) & 63);
            }
        }
        for (i, s) in self.summary[..words.div_ceil(64)].iter_mut().enumerate() {
            let mut s = std::mem::take(s);
            while s != 0 {
                let w = i * 64 + s.trailing_zeros() as usize;
                s &= s - 1;
                let mut word = std::mem::take(&mut self.bitmap[w]);
                while word != 0 {
                    let low = (w * 64) as u64 + u64::from(word.trailing_zeros());
                    word &= word - 1;
                    self.out.push(f(low));
                }
            }
        }
    }
}

impl<K: Low> Workspace<K> {
    fn new(threads: usize, buckets: usize) -> Workspace<K> {
        Workspace {
            blocks: (0..threads)
                .map(|_| (0..buckets).map(|_| Vec::new()).collect())
                .collect(),
            sorters: (0..threads)
                .map(|_| Sorter {
                    buf: Vec::new(),
                    scratch: Vec::new(),
                    counts: Vec::new(),
                    out: Vec::new(),
                    bitmap: Vec::new(),
                    summary: Vec::new(),
                })
                .collect(),
        }
    }
}

impl Expander {
    /// Every level from `start`, on `threads` threads, bucketing keys by their `top` bits.
    fn all_levels<K: Low>(
        &self,
        board: &Board,
        start: u64,
        max_levels: usize,
        threads: usize,
        top: u32,
        progress: &mut impl FnMut(usize, usize),
    ) -> Levels {
        let reduce = if self.symmetric {
            Reduce::Symmetry
        } else {
            Reduce::Nothing
        };
        let mut levels = vec![vec![reduce.key(board, start)]];
        progress(0, 1);
        let mut work = Workspace::<K>::new(threads.max(1), 1 << top);
        while levels.len() < max_levels {
            let cur = levels.last().expect("at least the start");
            let next = self.next_level(board, cur, &mut work, top);
            if next.is_empty() {
                break;
            }
            progress(levels.len(), next.len());
            levels.push(next);
        }
        Levels { reduce, levels }
    }

    /// The sorted, deduplicated canonical children of `cur` (unpacked). Each thread takes a
    /// share of the parents and pushes each child's low bits onto its block for the child's
    /// bucket; then each thread takes a range of buckets, gathers every thread's block of
    /// each, sorts it (in cache), deduplicates and unpacks it.
    fn next_level<K: Low>(
        &self,
        board: &Board,
        cur: &[u64],
        work: &mut Workspace<K>,
        top: u32,
    ) -> Vec<u64> {
        let shift = self.packer.bits - top;
        let buckets = 1usize << top;
        let threads = work.sorters.len();
        let gen_threads = threads
            .min(cur.len().div_ceil(MIN_PARENTS_PER_THREAD))
            .max(1);
        let chunk = cur.len().div_ceil(gen_threads).max(1);
        for block in work.blocks.iter_mut().flatten() {
            block.clear();
        }
        par_map(
            cur.chunks(chunk).zip(work.blocks.iter_mut()).collect(),
            |(parents, blocks)| {
                #[cfg(target_arch = "x86_64")]
                if self.native {
                    assert!(
                        native_detected(),
                        "the CPU lacks the native code's features"
                    );
                    #[allow(unsafe_code)]
                    // SAFETY: `generate_native` is compiled for avx2, bmi1, bmi2, lzcnt and
                    // popcnt, and `native_detected()` has just found all five on this CPU;
                    // the function has no other precondition.
                    unsafe {
                        self.generate_native(board, parents, blocks, shift);
                    }
                    return;
                }
                self.generate(board, parents, blocks, shift, |x| self.packer.pack(x));
            },
        );
        let blocks = &work.blocks;
        // Split the buckets into ranges of about equal numbers of keys, one a thread.
        let size = |b: usize| -> usize { blocks.iter().map(|t| t[b].len()).sum() };
        let total: usize = (0..buckets).map(size).sum();
        let mut ranges = Vec::with_capacity(threads);
        let (mut from, mut acc) = (0, 0);
        for b in 0..buckets {
            acc += size(b);
            if acc * threads >= total * (ranges.len() + 1) && ranges.len() + 1 < threads {
                ranges.push(from..b + 1);
                from = b + 1;
            }
        }
        ranges.push(from..buckets);
        let used = ranges.len();
        par_map(
            ranges.into_iter().zip(work.sorters.iter_mut()).collect(),
            |(range, s)| {
                #[cfg(target_arch = "x86_64")]
                if self.native {
                    assert!(
                        native_detected(),
                        "the CPU lacks the native code's features"
                    );
                    #[allow(unsafe_code)]
                    // SAFETY: as for `generate_native` above: compiled for the five
                    // features `native_detected()` has just found, no other precondition.
                    unsafe {
                        self.deduplicate_native(blocks, range, s, shift);
                    }
                    return;
                }
                self.deduplicate(blocks, range, s, shift);
            },
        );
        let sorters = &work.sorters[..used];
        let mut next = Vec::with_capacity(sorters.iter().map(|s| s.out.len()).sum());
        for s in sorters {
            next.extend_from_slice(&s.out);
        }
        next
    }

    /// Pushes the packed canonical children of `parents` onto `blocks`, each child's bits
    /// below `shift` onto the block of its bits above.
    #[inline(always)]
    fn generate<K: Low>(
        &self,
        board: &Board,
        parents: &[u64],
        blocks: &mut [Vec<K>],
        shift: u32,
        pack: impl Fn(u64) -> u64 + Copy,
    ) {
        let low_mask = (1u64 << shift) - 1;
        for &p in parents {
            self.children(board, p, pack, |k| {
                blocks[(k >> shift) as usize].push(K::from_u64(k & low_mask));
            });
        }
    }

    /// [`Expander::generate`] compiled for newer x86-64 CPUs (the default target has no
    /// `popcnt` nor `tzcnt`, which the jump loops and the bitmaps use).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn generate_native<K: Low>(
        &self,
        board: &Board,
        parents: &[u64],
        blocks: &mut [Vec<K>],
        shift: u32,
    ) {
        let holes = self.packer.holes;
        // `pext` keeps the hole bits in order: the byte tables' packing in one instruction
        // (eight a parent instead of 56 table lookups).
        self.generate(board, parents, blocks, shift, |x| {
            std::arch::x86_64::_pext_u64(x, holes)
        });
    }

    /// [`Expander::deduplicate`] compiled for newer x86-64 CPUs.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn deduplicate_native<K: Low>(
        &self,
        blocks: &[Vec<Vec<K>>],
        range: std::ops::Range<usize>,
        s: &mut Sorter<K>,
        shift: u32,
    ) {
        self.deduplicate(blocks, range, s, shift);
    }

    /// Sets `s.out` to the distinct positions of the buckets in `range`, ascending, from
    /// every thread's blocks.
    #[inline(always)]
    fn deduplicate<K: Low>(
        &self,
        blocks: &[Vec<Vec<K>>],
        range: std::ops::Range<usize>,
        s: &mut Sorter<K>,
        shift: u32,
    ) {
        s.out.clear();
        if shift <= MAX_BITMAP_BITS {
            for b in range {
                s.distinct(blocks.iter().map(|t| &t[b][..]), shift, |low| {
                    self.packer.unpack((b as u64) << shift | low)
                });
            }
            return;
        }
        for b in range {
            s.buf.clear();
            for t in blocks {
                s.buf.extend_from_slice(&t[b]);
            }
            sort_low_bits(&mut s.buf, &mut s.scratch, &mut s.counts, shift);
            let high = (b as u64) << shift;
            let mut last = None;
            for &k in &s.buf {
                if last != Some(k) {
                    s.out.push(self.packer.unpack(high | k.to_u64()));
                    last = Some(k);
                }
            }
        }
    }
}

/// `f` of every item, each on its own thread (inline when there is one).
fn par_map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    if items.len() <= 1 {
        return items.into_iter().map(f).collect();
    }
    let f = &f;
    std::thread::scope(|s| {
        let handles: Vec<_> = items.into_iter().map(|x| s.spawn(move || f(x))).collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a counting thread panicked"))
            .collect()
    })
}

/// Sorts `v` on its low `bits` bits (the others being equal) by least-significant-digit
/// radix sort, `scratch` being the second buffer and `counts` the histograms (both grow
/// as needed and are reused from bucket to bucket). Small buckets take narrower digits,
/// whose histograms cost less to clear than the keys they sort; the histograms of every
/// digit are counted in one read.
fn sort_low_bits<K: Low>(v: &mut [K], scratch: &mut Vec<K>, counts: &mut Vec<usize>, bits: u32) {
    if bits == 0 || v.len() < 2 {
        return;
    }
    if v.len() <= 64 {
        v.sort_unstable_by_key(|k| k.to_u64());
        return;
    }
    let widest = if v.len() < 2048 { 8 } else { 11 };
    let passes = bits.div_ceil(widest);
    let digit = bits.div_ceil(passes);
    let radix = 1usize << digit;
    let mask = (radix - 1) as u64;
    if scratch.len() < v.len() {
        scratch.resize(v.len(), v[0]);
    }
    let scratch = &mut scratch[..v.len()];
    counts.clear();
    counts.resize(passes as usize * radix, 0);
    for &x in v.iter() {
        let x = x.to_u64();
        for pass in 0..passes as usize {
            counts[pass * radix + ((x >> (pass as u32 * digit)) & mask) as usize] += 1;
        }
    }
    for c in counts.chunks_mut(radix) {
        let mut sum = 0;
        for c in c.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
    }
    let (mut src, mut dst) = (v, scratch);
    for (pass, count) in counts.chunks_mut(radix).enumerate() {
        let sh = pass as u32 * digit;
        for &x in src.iter() {
            let d = ((x.to_u64() >> sh) & mask) as usize;
            dst[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(&mut src, &mut dst);
    }
    if passes % 2 == 1 {
        // The sorted keys are in the scratch buffer.
        dst.copy_from_slice(src);
    }
}

impl Levels {
    /// Positions per level as stored, and with every distinct image counted (the same
    /// when symmetry was not used).
    pub fn counts(&self, board: &Board) -> Counts {
        let canonical = self.levels.iter().map(|l| l.len() as u64).collect();
        let orbits = &Orbits::new(board);
        let all = self
            .levels
            .iter()
            .map(|l| match self.reduce {
                Reduce::Symmetry => {
                    // Split over the cores: 23 million orbits on the English board.
                    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
                    let chunk = l.len().div_ceil(threads).max(1 << 16);
                    par_map(l.chunks(chunk).collect(), |part| {
                        part.iter().map(|&p| orbits.size(p)).sum::<u64>()
                    })
                    .into_iter()
                    .sum()
                }
                Reduce::Nothing => l.len() as u64,
            })
            .collect();
        Counts { canonical, all }
    }

    /// For each level, the positions (canonical, sorted) from which `goal` can still be
    /// reached. With [`Reduce::Symmetry`], `goal` must be symmetric (see
    /// [`Goal::symmetric`]).
    pub fn finishable(&self, board: &Board, goal: Goal) -> Vec<Vec<u64>> {
        let mut out: Vec<Vec<u64>> = vec![Vec::new(); self.levels.len()];
        for k in (0..self.levels.len()).rev() {
            // A hash set: the finishable sets are small next to the levels they filter.
            let next: Option<PegSet> = out.get(k + 1).map(|l| l.iter().copied().collect());
            let next = next.as_ref();
            out[k] = self.levels[k]
                .iter()
                .copied()
                .filter(|&p| {
                    goal.reached(p)
                        || next.is_some_and(|next| {
                            bits_of(p).any(|bit| {
                                board.jumps_from(bit).iter().any(|j| {
                                    j.legal(p) && next.contains(&self.reduce.key(board, j.apply(p)))
                                })
                            })
                        })
                })
                .collect();
        }
        out
    }
}

/// Games counted over [`Levels`]: a game is a sequence of jumps from the start until no jump
/// is left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameCounts {
    /// Every distinct game.
    pub games: u128,
    /// The games that end on the goal.
    pub solutions: u128,
    /// The fewest jumps of a game that gets stuck short of the goal (`None`: none does).
    pub shortest_stuck: Option<usize>,
    /// `by_length[k]`: the games of exactly `k` jumps.
    pub by_length: Vec<u128>,
}

impl Levels {
    /// Counts every game, and the games that end on `goal`, by one forward pass that counts
    /// paths level by level. With [`Reduce::Symmetry`] a level holds one position per class
    /// of symmetric images, and the number kept for a class is the number of paths to any
    /// of its members: the start is symmetric, so every member is reached by as many paths
    /// and has as many jumps into each class, and a jump from a class adds its class's
    /// number to the class it leads into. A game ends where a position has no jump. The
    /// counts reach 10^20 on the English board, hence `u128`.
    ///
    /// # Panics
    /// With [`Reduce::Symmetry`] and a goal that the board's symmetries move (callers check
    /// [`Goal::symmetric`] and count without symmetry instead).
    pub fn count_games(&self, board: &Board, goal: Goal) -> GameCounts {
        assert!(
            self.reduce == Reduce::Nothing || goal.symmetric(board),
            "count_games over symmetry classes needs a symmetric goal"
        );
        type Paths = HashMap<u64, u128, BuildHasherDefault<PegHasher>>;
        let mut counts = GameCounts {
            games: 0,
            solutions: 0,
            shortest_stuck: None,
            by_length: vec![0; self.levels.len()],
        };
        let mut paths = Paths::default();
        if let Some(&start) = self.levels.first().and_then(|l| l.first()) {
            paths.insert(start, 1);
        }
        for (k, level) in self.levels.iter().enumerate() {
            let mut next = Paths::default();
            next.reserve(self.levels.get(k + 1).map_or(0, Vec::len));
            for &p in level {
                let Some(&n) = paths.get(&p) else { continue };
                let mut stuck = true;
                for bit in bits_of(p) {
                    for j in board.jumps_from(bit) {
                        if j.legal(p) {
                            stuck = false;
                            *next.entry(self.reduce.key(board, j.apply(p))).or_default() += n;
                        }
                    }
                }
                if stuck {
                    counts.by_length[k] += n;
                    counts.games += n;
                    if goal.reached(p) {
                        counts.solutions += n;
                    } else if counts.shortest_stuck.is_none() {
                        counts.shortest_stuck = Some(k);
                    }
                }
            }
            paths = next;
        }
        counts
    }
}

/// Orbit sizes, with a quick test that settles most positions: a symmetry `g` can fix
/// `p` only if `p` has as many pegs in a set `M` as in its image `g(M)` (as `g` maps
/// `p & M` onto `p & g(M)`). With `M` the holes that `g` sends to higher bits, `M` and
/// `g(M)` are disjoint for a reflection, and most positions fail the test for every
/// symmetry but the identity: their orbit is the whole group. The others take
/// [`Board::orbit_size`].
struct Orbits<'a> {
    board: &'a Board,
    /// For each image but the identity's: `M` and `g(M)` (both empty when `g` is the
    /// identity, as [`Board::images8`] pads with it, so the test never settles those).
    tests: [(u64, u64); 7],
}

impl Orbits<'_> {
    fn new(board: &Board) -> Orbits<'_> {
        let mut tests = [(0, 0); 7];
        for (g, (m, gm)) in tests.iter_mut().enumerate() {
            for bit in board.bits() {
                if board.images8(1u64 << bit)[g + 1] > 1u64 << bit {
                    *m |= 1u64 << bit;
                }
            }
            *gm = board.images8(*m)[g + 1];
        }
        Orbits { board, tests }
    }

    #[inline]
    fn size(&self, p: u64) -> u64 {
        let moved = self
            .tests
            .iter()
            .all(|&(m, gm)| (p & m).count_ones() != (p & gm).count_ones());
        if moved {
            self.board.symmetry_count() as u64
        } else {
            self.board.orbit_size(p)
        }
    }
}

/// How many distinct images `pegs` has under the board's symmetries.
pub fn orbit_size(board: &Board, pegs: u64) -> u64 {
    board.orbit_size(pegs)
}

/// Sorts `v`, whose values are below `2^bits`, by least-significant-digit radix sort with
/// 11-bit digits: the levels hold tens of millions of keys, where this is several times
/// faster than a comparison sort.
pub fn radix_sort(v: &mut Vec<u64>, bits: u32) {
    const DIGIT: u32 = 11;
    if v.len() < 1 << 12 {
        v.sort_unstable();
        return;
    }
    let mut tmp = vec![0u64; v.len()];
    let mut shift = 0;
    while shift < bits {
        let mut count = vec![0usize; 1 << DIGIT];
        for &x in v.iter() {
            count[(x >> shift) as usize & ((1 << DIGIT) - 1)] += 1;
        }
        let mut sum = 0;
        for c in count.iter_mut() {
            let n = *c;
            *c = sum;
            sum += n;
        }
        for &x in v.iter() {
            let d = (x >> shift) as usize & ((1 << DIGIT) - 1);
            tmp[count[d]] = x;
            count[d] += 1;
        }
        std::mem::swap(v, &mut tmp);
        shift += DIGIT;
    }
}
