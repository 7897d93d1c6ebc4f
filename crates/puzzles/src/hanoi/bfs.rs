//! Exact breadth-first search over every position of `n` discs on `k` pegs, packed in 2 bits
//! per position (3 to find paths) and run on every core.
//!
//! A position is a number with `b = ceil(log2 k)` bits per disc (smallest disc lowest), the
//! index of its 2-bit cell. Each layer is expanded exactly once: one pass over the table
//! finds the positions of the current frontier, marks their unseen neighbours as the next
//! frontier and retires them. The work is one expansion per position plus one scan of the
//! table per layer (less: parts with no frontier are skipped). Two encodings, one per
//! question:
//!
//! * **Exploring** ([`Bfs::new`], [`Bfs::explore`]: layer sizes, eccentricity, tower
//!   distances) needs no depths, only four states per cell: `00` unseen, `11` closed, and
//!   `01` and `10` for the current and the next frontier, which swap roles every layer.
//!   Marking an unseen neighbour sets the next frontier's bit; retiring an expanded position
//!   sets its other bit, making it `11`. 2 bits per position. For 3 and 4 pegs the same two
//!   bits are stored bit-sliced instead (`bfs/sliced.rs`: one bitset per frontier role, a word
//!   of each for the 64 positions of the 3 smallest discs), so that the moves of a whole
//!   word are made at once; that is the search `ply hanoi bfs` runs for 4 pegs, at about 6
//!   ns of CPU per position for 15 to 17 discs against about 16 for the cells below.
//! * **Paths** ([`Bfs::for_paths`], [`Bfs::shortest_path`]) are walked back from the start
//!   down the depths, so cells hold `1 + depth mod 3` (the neighbours of a position at depth
//!   `d` are at `d - 1`, `d` or `d + 1`, three distinct codes; Korf's technique), and a
//!   separate bitmap holds one *frontier bit* per position, set when the position is first
//!   marked and cleared (atomic AND) once it is expanded. The current frontier is the set
//!   bits whose cell has the current depth's code; set bits with the next code were marked
//!   in this very pass. 3 bits per position. Paths are only needed for the small searches of
//!   [`solve`](super::solve()), so this side stays simple: atomic marks, position by position.
//!
//! Why not the depth codes alone, in 2 bits: the code of depth `d` is also the code of
//! depths `d - 3`, `d - 6`, ..., so "expand every cell with the code" re-expands about a
//! third of all positions seen so far at every layer. An earlier version did just that; for
//! 4 pegs and 15 discs (131 layers) it cost some 40 times the necessary work (673 s).
//!
//! # Speed (exploring, 5 pegs and more)
//! * **Regions owned by one thread.** The table is cut into at least 32 regions by the pegs
//!   of the largest discs; threads take whole regions in turn, and only the owner writes a
//!   region during a pass, with plain loads and stores (no `lock` instruction, which would
//!   also stall the loads around it). A move of one of the largest discs that leaves the
//!   region (rare: it needs every smaller disc on the two other pegs) is kept in a list and
//!   made after the pass. Layer sizes are exact: a cell is counted by the one thread that
//!   turns it from unseen to marked. A region of 4 pegs and 15 discs is 4 MiB, the size of
//!   a core's L2 cache, and holds every move of the smaller discs.
//! * **Block moves a word at a time.** The moves of the smallest discs (2 on 4 pegs, whose
//!   16 positions are half a 64-bit word) ignore every larger disc; a table gives the cells
//!   one such move away from each cell of a word, so all of a word's are made with one OR.
//! * **Larger discs by group.** The cells of a group agree on every disc past the block, so
//!   the moves of those discs are listed once per group, one per pair of pegs, and each
//!   cell tries only the pairs its own block discs leave free (from a table: 1 to 3 of the
//!   6 pairs on 4 pegs), branch-free.
//! * **Batched reads.** Those moves mostly leave the cache line; their cells are read in
//!   batches of 512 with plain loads that the processor overlaps, before any is written.
//!
//! Memory is `2^(b n) / 4` bytes to explore and `3 * 2^(b n) / 8` for paths: 4 pegs and 15
//! discs take 256 MiB (384 MiB for paths). On 24 GiB, 4 pegs go to 18 discs to explore (16
//! GiB) and 17 for paths (6 GiB), 5 pegs to 12 discs to explore (16 GiB) and 11 for paths
//! (3 GiB). With a peg count that is not a power of two some cells stand for no position
//! and are never touched.

use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering::Relaxed};

use super::{Move, Peg, Position};

mod sliced;

use sliced::Sliced;

/// A search too large for the memory allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "a search over {discs} discs on {pegs} pegs needs {needed} bytes, more than the {limit} allowed"
)]
pub struct BfsSizeError {
    /// Discs asked for.
    pub discs: usize,
    /// Pegs asked for.
    pub pegs: usize,
    /// Bytes the search would need.
    pub needed: u128,
    /// Bytes allowed.
    pub limit: u128,
}

/// What a complete search from one position found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// The number of positions at each depth (index 0: the start itself).
    pub layers: Vec<u64>,
    /// The distance from the start to the perfect tower on each peg.
    pub tower_distances: Vec<u32>,
}

impl Exploration {
    /// The largest distance from the start.
    pub fn eccentricity(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    /// How many positions are at the largest distance.
    pub fn at_eccentricity(&self) -> u64 {
        *self.layers.last().expect("the start is always there")
    }
}

/// Positions per chunk of work a thread takes at a time under [`Scheme::Paths`], as a power
/// of 2 (at least 6: whole words of the frontier bitmap).
const CHUNK_SHIFT: u32 = 17;

/// Moves of large discs gathered before their cells are looked at (see
/// [`Bfs::mark_batch`]).
const BATCH: usize = 512;

/// Every 2-bit cell's low bit.
const LOW: u64 = 0x5555_5555_5555_5555;

/// How cells are encoded (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Scheme {
    /// Unseen, frontier A, frontier B, closed.
    Explore,
    /// `1 + depth mod 3`, plus the frontier bitmap.
    Paths,
}

/// The cell codes of one layer: the frontier to expand and the one to mark.
#[derive(Clone, Copy, Debug)]
struct Layer {
    depth: u32,
    current: u64,
    next: u64,
}

/// The packed search space for one number of discs and pegs.
pub struct Bfs {
    discs: usize,
    pegs: usize,
    bits: u32,
    scheme: Scheme,
    /// Positions in the index space, `2^(bits * discs)`.
    space: u64,
    cells: Vec<AtomicU64>,
    /// One bit per position under [`Scheme::Paths`]; empty otherwise.
    frontier: Vec<AtomicU64>,
    threads: usize,
    /// `live[u]`: the depth of the last frontier marked in unit `u` ([`Scheme::Explore`]);
    /// units with nothing at the depth expanded are skipped without a scan.
    live: Vec<AtomicU32>,
    /// Threads take units of `2^unit_shift` positions in turn: regions of the largest discs'
    /// pegs under [`Scheme::Explore`] (each written by one thread only), chunks otherwise.
    unit_shift: u32,
    /// `pattern[p]`: peg `p` in every disc's field; a position XOR it is 0 where discs are on `p`.
    pattern: Vec<u64>,
    /// The lowest bit of every disc's field.
    lows: u64,
    /// Under [`Scheme::Explore`], the moves of the `block_discs` smallest discs, which stay
    /// in a block of at most 32 cells inside one word, are made for a whole word at once.
    block_discs: u32,
    /// `block_moves[i]`: the cells (their low bits) one move of a block disc away from cell `i`
    /// of a word.
    block_moves: [u64; 32],
    /// `free_pairs[i]`: the pairs of pegs (numbered as [`Bfs::group_moves`] numbers them)
    /// that hold no block disc in cell `i` of a word, then how many (for up to 8 pegs).
    free_pairs: [([u8; 28], u8); 32],
    /// Index bits of the block discs (the cells of a group agree on every other disc).
    group_bits: u32,
    /// [`Bfs::lows`] without the block discs.
    high_lows: u64,
    /// The bit-sliced table that explores 3 and 4 pegs instead of `cells` (see `sliced.rs`).
    sliced: Option<Sliced>,
}

impl Bfs {
    /// The bytes [`Bfs::new`] needs to explore `discs` discs on `pegs` pegs.
    pub fn memory_needed(discs: usize, pegs: usize) -> u128 {
        Bfs::bytes(discs, pegs, 2)
    }

    /// The bytes [`Bfs::for_paths`] needs for `discs` discs on `pegs` pegs.
    pub fn path_memory_needed(discs: usize, pegs: usize) -> u128 {
        Bfs::bytes(discs, pegs, 3)
    }

    fn bytes(discs: usize, pegs: usize, bits_per_position: u128) -> u128 {
        let bits = bits_per_disc(pegs) as u128 * discs as u128;
        if bits >= 120 {
            return u128::MAX;
        }
        ((1u128 << bits) * bits_per_position / 8).max(8 * bits_per_position)
    }

    /// Allocates the search space for [`Bfs::explore`] (2 bits per position), refusing more
    /// than `limit` bytes.
    ///
    /// # Errors
    /// [`BfsSizeError`] when the space would exceed `limit`.
    ///
    /// # Panics
    /// If `pegs` is not in 3..=64.
    pub fn new(discs: usize, pegs: usize, limit: u128) -> Result<Bfs, BfsSizeError> {
        Bfs::allocate(discs, pegs, limit, Scheme::Explore)
    }

    /// Allocates the search space for [`Bfs::shortest_path`] as well as [`Bfs::explore`]
    /// (3 bits per position), refusing more than `limit` bytes.
    ///
    /// # Errors
    /// [`BfsSizeError`] when the space would exceed `limit`.
    ///
    /// # Panics
    /// If `pegs` is not in 3..=64.
    pub fn for_paths(discs: usize, pegs: usize, limit: u128) -> Result<Bfs, BfsSizeError> {
        Bfs::allocate(discs, pegs, limit, Scheme::Paths)
    }

    fn allocate(
        discs: usize,
        pegs: usize,
        limit: u128,
        scheme: Scheme,
    ) -> Result<Bfs, BfsSizeError> {
        assert!((3..=64).contains(&pegs));
        let needed = match scheme {
            Scheme::Explore => Bfs::memory_needed(discs, pegs),
            Scheme::Paths => Bfs::path_memory_needed(discs, pegs),
        };
        // Past 2^48 positions the index would not fit the packing (and no machine has the
        // memory).
        if needed > limit || u128::from(bits_per_disc(pegs)) * discs as u128 > 48 {
            return Err(BfsSizeError {
                discs,
                pegs,
                needed,
                limit,
            });
        }
        let bits = bits_per_disc(pegs);
        let space = 1u64 << (bits * discs as u32);
        let words = |per_word: u64| {
            (0..space.div_ceil(per_word))
                .map(|_| AtomicU64::new(0))
                .collect::<Vec<_>>()
        };
        let threads = if space < 1 << 19 {
            1
        } else {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        };
        let lows = low_bits(discs, bits);
        let block_discs = match scheme {
            Scheme::Explore => (5 / bits).min(discs as u32),
            Scheme::Paths => 0,
        };
        let unit_shift = unit_shift(scheme, threads, bits * discs as u32, bits);
        let sliced = (scheme == Scheme::Explore && Sliced::fits(discs, pegs))
            .then(|| Sliced::new(discs, pegs));
        let general = sliced.is_none();
        Ok(Bfs {
            sliced,
            live: (0..space >> unit_shift)
                .filter(|_| general)
                .map(|_| AtomicU32::new(0))
                .collect(),
            unit_shift,
            discs,
            pegs,
            bits,
            scheme,
            space,
            cells: if general { words(32) } else { Vec::new() },
            frontier: match scheme {
                Scheme::Explore => Vec::new(),
                Scheme::Paths => words(64),
            },
            threads,
            pattern: (0..pegs as u64).map(|p| p * lows).collect(),
            lows,
            block_discs,
            block_moves: block_moves(pegs, bits, block_discs),
            free_pairs: std::array::from_fn(|i| {
                let blocked =
                    |p: usize| (0..block_discs).any(|d| (i >> (bits * d)) & ((1 << bits) - 1) == p);
                let mut list = ([0u8; 28], 0u8);
                let mut pair = 0;
                for p in 0..pegs.min(8) {
                    for q in p + 1..pegs.min(8) {
                        if !blocked(p) && !blocked(q) {
                            list.0[list.1 as usize] = pair;
                            list.1 += 1;
                        }
                        pair += 1;
                    }
                }
                list
            }),
            group_bits: bits * block_discs,
            high_lows: lows & !((1u64 << (bits * block_discs)) - 1),
        })
    }

    /// The same search run by `threads` threads (at least 1) instead of one per core (a
    /// single one for small searches): for tests and measurements.
    pub fn with_threads(mut self, threads: usize) -> Bfs {
        self.threads = threads.max(1);
        self.unit_shift = unit_shift(
            self.scheme,
            self.threads,
            self.bits * self.discs as u32,
            self.bits,
        );
        if self.sliced.is_none() {
            self.live = (0..self.space >> self.unit_shift)
                .map(|_| AtomicU32::new(0))
                .collect();
        }
        self
    }

    /// The number of positions.
    pub fn positions(&self) -> u128 {
        (self.pegs as u128).pow(self.discs as u32)
    }

    fn index(&self, p: &Position) -> u64 {
        p.as_slice().iter().enumerate().fold(0, |acc, (d, &peg)| {
            acc | (peg as u64) << (self.bits * d as u32)
        })
    }

    fn code(&self, x: u64) -> u64 {
        if let Some(sliced) = &self.sliced {
            return u64::from(sliced.seen(x));
        }
        (self.cells[(x >> 5) as usize].load(Relaxed) >> ((x & 31) * 2)) & 3
    }

    fn clear(&mut self) {
        for w in self.cells.iter_mut().chain(&mut self.frontier) {
            *w.get_mut() = 0;
        }
    }

    /// The codes of layer `depth`.
    fn layer(&self, depth: u32) -> Layer {
        match self.scheme {
            Scheme::Explore => {
                let current = 1 + u64::from(depth & 1);
                Layer {
                    depth,
                    current,
                    next: 3 - current,
                }
            }
            Scheme::Paths => Layer {
                depth,
                current: u64::from(depth % 3) + 1,
                next: u64::from((depth + 1) % 3) + 1,
            },
        }
    }

    /// Searches from `start` until `stop` says so (given the depth just completed) or every
    /// position is reached; `progress` hears (depth, positions seen) after each layer.
    /// Returns the layer sizes.
    fn run(
        &mut self,
        start: &Position,
        mut stop: impl FnMut(&Bfs, u32) -> bool,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Vec<u64> {
        assert!(start.discs() == self.discs && start.pegs() == self.pegs);
        self.clear();
        let s = self.index(start);
        if let Some(sliced) = &mut self.sliced {
            sliced.start(s);
        } else {
            for l in &mut self.live {
                *l.get_mut() = u32::MAX;
            }
            *self.live[(s >> self.unit_shift) as usize].get_mut() = 0;
            let code = self.layer(0).current << ((s & 31) * 2);
            self.cells[(s >> 5) as usize].fetch_or(code, Relaxed);
            if self.scheme == Scheme::Paths {
                self.frontier[(s >> 6) as usize].fetch_or(1 << (s & 63), Relaxed);
            }
        }
        if self.sliced.is_some() {
            return self.run_sliced(stop, progress);
        }
        let mut layers = vec![1u64];
        let mut seen = 1u64;
        let mut depth = 0u32;
        progress(0, seen);
        while !stop(self, depth) {
            let new = self.expand(self.layer(depth));
            if new == 0 {
                break;
            }
            layers.push(new);
            seen += new;
            depth += 1;
            progress(depth, seen);
        }
        layers
    }

    /// [`Bfs::run`] on the bit-sliced table (started), which counts each layer as it
    /// expands it: after the pass over depth `d`, `progress` hears of depth `d`.
    fn run_sliced(
        &mut self,
        mut stop: impl FnMut(&Bfs, u32) -> bool,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Vec<u64> {
        let threads = self.threads;
        let mut layers = Vec::new();
        let mut seen = 0u64;
        let mut depth = 0u32;
        loop {
            if stop(self, depth) {
                let sliced = self.sliced.as_ref().expect("sliced search");
                layers.push(sliced.frontier_size(depth));
                progress(depth, seen + layers[depth as usize]);
                return layers;
            }
            let sliced = self.sliced.as_mut().expect("sliced search");
            let (size, more) = sliced.expand(depth, threads);
            layers.push(size);
            seen += size;
            progress(depth, seen);
            if !more {
                return layers;
            }
            depth += 1;
        }
    }

    /// Expands the current frontier of `layer` once, marking its unseen neighbours as the
    /// next frontier; gives how many were marked.
    fn expand(&self, layer: Layer) -> u64 {
        let units = self.space.div_ceil(1 << self.unit_shift);
        let counter = AtomicUsize::new(0);
        let work = || {
            let mut found = 0u64;
            let mut batch = vec![0u64; BATCH + self.pegs * self.pegs];
            let mut far = Vec::new();
            loop {
                let u = counter.fetch_add(1, Relaxed) as u64;
                if u >= units {
                    return (found, far);
                }
                if self.scheme == Scheme::Explore
                    && self.live[u as usize].load(Relaxed) != layer.depth
                {
                    continue;
                }
                let range = u << self.unit_shift..((u + 1) << self.unit_shift).min(self.space);
                let (b, f) = (&mut batch, &mut far);
                let marked = match (self.scheme, self.pegs) {
                    (Scheme::Explore, 3) => self.expand_region::<3, 4>(range, layer, b, f),
                    (Scheme::Explore, 4) => self.expand_region::<4, 4>(range, layer, b, f),
                    (Scheme::Explore, 5) => self.expand_region::<5, 8>(range, layer, b, f),
                    (Scheme::Explore, _) => self.expand_region::<0, 64>(range, layer, b, f),
                    (Scheme::Paths, 3) => self.expand_frontier::<3, 4>(range, layer),
                    (Scheme::Paths, 4) => self.expand_frontier::<4, 4>(range, layer),
                    (Scheme::Paths, 5) => self.expand_frontier::<5, 8>(range, layer),
                    (Scheme::Paths, _) => self.expand_frontier::<0, 64>(range, layer),
                };
                if marked > 0 {
                    self.live[u as usize].store(layer.depth + 1, Relaxed);
                }
                found += marked;
            }
        };
        let results = if self.threads == 1 {
            vec![work()]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..self.threads).map(|_| scope.spawn(work)).collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            })
        };
        // The moves into other regions, now that no thread writes any more.
        let mut found = 0;
        for (f, far) in results {
            found += f;
            for y in far {
                if self.mark_owned(y, layer.next - 1) == 1 {
                    found += 1;
                    self.live[(y >> self.unit_shift) as usize].store(layer.depth + 1, Relaxed);
                }
            }
        }
        found
    }

    /// Marks `y` with the next frontier's bit (at `next_shift` in its cell) if unseen, with
    /// plain loads and stores: only the caller writes its region. Gives 1 if it marked.
    #[inline(always)]
    fn mark_owned(&self, y: u64, next_shift: u64) -> u64 {
        let cell = &self.cells[(y >> 5) as usize];
        let shift = (y & 31) * 2;
        let v = cell.load(Relaxed);
        if (v >> shift) & 3 != 0 {
            return 0;
        }
        cell.store(v | 1 << (shift + next_shift), Relaxed);
        1
    }

    /// [`Scheme::Explore`]: expands the positions in the region `range` whose cell holds the
    /// current frontier's code, then closes them. This thread alone writes the region while
    /// the layer is expanded, so plain loads and stores do; moves into other regions (only
    /// those of the largest discs) go to `far`, for after the pass. The moves of the block
    /// discs are made for a whole word at once, the others through `batch`. `K` is the number
    /// of pegs, fixed at compile time for the common counts, or 0 to read it at run time; `T`
    /// is `K` rounded up (the length of a table of tops).
    fn expand_region<const K: usize, const T: usize>(
        &self,
        range: std::ops::Range<u64>,
        layer: Layer,
        batch: &mut [u64],
        far: &mut Vec<u64>,
    ) -> u64 {
        let mut found = 0;
        let mut queued = 0;
        // The bit that turns the current code into 11, and the one that marks the next.
        let close_shift = if layer.current == 1 { 1 } else { 0 };
        let next_shift = layer.next - 1;
        let unseen = |v: u64| !(v | (v >> 1)) & LOW;
        let current = layer.current * LOW;
        let hits_in = |word: u64| {
            let z = word ^ current;
            !(z | (z >> 1)) & LOW
        };
        let (first, end) = (range.start >> 5, range.end.div_ceil(32));
        let mut w = first;
        while w < end {
            // Most words hold no frontier: look at eight at a time, with one branch.
            if w % 8 == 0 && w + 8 <= end {
                let span = &self.cells[w as usize..w as usize + 8];
                if span.iter().fold(0, |acc, c| acc | hits_in(c.load(Relaxed))) == 0 {
                    w += 8;
                    continue;
                }
            }
            let cell = &self.cells[w as usize];
            let word = cell.load(Relaxed);
            let hits = hits_in(word);
            w += 1;
            if hits == 0 {
                continue;
            }
            let w = w - 1;
            let mut near = 0;
            let mut group = u32::MAX;
            let mut group_moves = [0u64; 28];
            let mut left = hits;
            while left != 0 {
                let i = left.trailing_zeros() >> 1;
                left &= left - 1;
                near |= self.block_moves[i as usize];
                let x = (w << 5) | u64::from(i);
                if K == 0 {
                    queued = self.queue_moves::<K, T>(x, batch, queued);
                } else {
                    // The larger discs' moves are those of the group's between pegs where
                    // no block disc lies.
                    if i >> self.group_bits != group {
                        group = i >> self.group_bits;
                        self.group_moves::<K, T>(x, &mut group_moves);
                    }
                    let (pairs, len) = &self.free_pairs[i as usize];
                    for &pair in &pairs[..*len as usize] {
                        let delta = group_moves[pair as usize];
                        batch[queued] = x ^ delta;
                        queued += usize::from(delta != 0);
                    }
                }
                if queued >= BATCH {
                    found += self.mark_batch(&mut batch[..queued], next_shift, &range, far);
                    queued = 0;
                }
            }
            // Reloaded: a batch may have marked cells of this word meanwhile.
            let word = cell.load(Relaxed);
            let new = near & unseen(word);
            cell.store(word | (new << next_shift) | (hits << close_shift), Relaxed);
            found += u64::from(new.count_ones());
        }
        found + self.mark_batch(&mut batch[..queued], next_shift, &range, far)
    }

    /// [`Scheme::Paths`]: expands the positions in `range` whose frontier bit is set and
    /// whose cell holds the current depth's code, then clears their frontier bits.
    fn expand_frontier<const K: usize, const T: usize>(
        &self,
        range: std::ops::Range<u64>,
        layer: Layer,
    ) -> u64 {
        let mut found = 0;
        for f in (range.start >> 6)..range.end.div_ceil(64) {
            let bits = self.frontier[f as usize].load(Relaxed);
            if bits == 0 {
                continue;
            }
            let mut done = 0u64;
            let mut left = bits;
            while left != 0 {
                let i = left.trailing_zeros() as u64;
                left &= left - 1;
                let x = (f << 6) | i;
                if self.code(x) == layer.current {
                    done |= 1 << i;
                    found += self.expand_position::<K, T>(x, layer.next);
                }
            }
            if done != 0 {
                self.frontier[f as usize].fetch_and(!done, Relaxed);
            }
        }
        found
    }

    /// Appends to `batch` (from `queued` on) the positions one move of a non-block disc away
    /// from `x`; gives the new length. No branch depends on the position.
    #[inline(always)]
    fn queue_moves<const K: usize, const T: usize>(
        &self,
        x: u64,
        batch: &mut [u64],
        mut queued: usize,
    ) -> usize {
        let pegs = if K == 0 { self.pegs } else { K };
        let b = if K == 0 { self.bits } else { bits_per_disc(K) };
        let tops = self.tops::<K, T>(x);
        let field_mask = (1u64 << b) - 1;
        let first = self.block_discs;
        for p in 0..pegs {
            for q in p + 1..pegs {
                let d = tops[p].min(tops[q]);
                batch[queued] = x ^ (((p ^ q) as u64 & field_mask) << (b * d));
                queued += usize::from(d.wrapping_sub(first) < self.discs as u32 - first);
            }
        }
        queued
    }

    /// Marks the unseen positions of `batch` in the region `range` with the next frontier's
    /// bit (at `next_shift` in the cell) and moves the unseen ones elsewhere to `far`; gives
    /// how many it marked. First every cell is read with plain loads, which the processor
    /// overlaps (most miss the cache for large discs), keeping the unseen ones, so that no
    /// branch waits on a load.
    fn mark_batch(
        &self,
        batch: &mut [u64],
        next_shift: u64,
        range: &std::ops::Range<u64>,
        far: &mut Vec<u64>,
    ) -> u64 {
        let mut unseen = 0;
        for i in 0..batch.len() {
            let y = batch[i];
            batch[unseen] = y;
            unseen += usize::from(self.code(y) == 0);
        }
        let mut found = 0;
        for &y in &batch[..unseen] {
            if range.contains(&y) {
                found += self.mark_owned(y, next_shift);
            } else {
                far.push(y);
            }
        }
        found
    }

    /// The moves of the discs past the block from position `x` as if no block disc were
    /// there: for each pair of pegs in turn (0-1, 0-2, ..., 1-2, ...), the XOR the move
    /// between them makes to the position, or 0 if both are empty. `K` is at most 8.
    #[inline(always)]
    fn group_moves<const K: usize, const T: usize>(&self, x: u64, moves: &mut [u64; 28]) {
        let b = bits_per_disc(K);
        let tops = self.tops_of::<K, T>(x, self.high_lows);
        let mut pair = 0;
        for p in 0..K {
            for q in p + 1..K {
                let d = tops[p].min(tops[q]);
                moves[pair] = if (d as usize) < self.discs {
                    ((p ^ q) as u64) << (b * d)
                } else {
                    0
                };
                pair += 1;
            }
        }
    }

    /// The smallest disc on each peg of position `x`; an empty peg gets a number past every
    /// disc (the sentinel bit 63 is in no disc's field for the sizes that fit in memory).
    #[inline(always)]
    fn tops<const K: usize, const T: usize>(&self, x: u64) -> [u32; T] {
        self.tops_of::<K, T>(x, self.lows)
    }

    /// [`Bfs::tops`] among the discs whose low field bits are in `lows`.
    #[inline(always)]
    fn tops_of<const K: usize, const T: usize>(&self, x: u64, lows: u64) -> [u32; T] {
        let pegs = if K == 0 { self.pegs } else { K };
        let b = if K == 0 { self.bits } else { bits_per_disc(K) };
        let mut tops = [u32::MAX; T];
        for (top, &pat) in tops[..pegs].iter_mut().zip(&self.pattern[..pegs]) {
            let z = x ^ pat;
            let mut any = z;
            for i in 1..b {
                any |= z >> i;
            }
            *top = ((!any & lows) | 1 << 63).trailing_zeros() / b;
        }
        tops
    }

    /// Marks every unseen neighbour of position `x` with `next` (and its frontier bit); gives
    /// how many. `K` is the number of pegs (0: read at run time) and `T` the length of the
    /// table of tops, `K` rounded up, so that nothing but constants is left for the common
    /// peg counts.
    #[inline(always)]
    fn expand_position<const K: usize, const T: usize>(&self, x: u64, next: u64) -> u64 {
        let pegs = if K == 0 { self.pegs } else { K };
        let b = if K == 0 { self.bits } else { bits_per_disc(K) };
        let tops = self.tops::<K, T>(x);
        let field_mask = (1u64 << b) - 1;
        // Between two pegs exactly one move is legal, the smaller top onto the other peg,
        // unless both are empty.
        let mut found = 0;
        for p in 0..pegs {
            for q in p + 1..pegs {
                let d = tops[p].min(tops[q]);
                if (d as usize) < self.discs {
                    let y = x ^ (((p ^ q) as u64 & field_mask) << (b * d));
                    found += self.mark(y, next);
                }
            }
        }
        found
    }

    /// Marks `y` with `next` and sets its frontier bit if it is unseen; gives 1 if this call
    /// did it.
    #[inline]
    fn mark(&self, y: u64, next: u64) -> u64 {
        let word = &self.cells[(y >> 5) as usize];
        let shift = (y & 31) * 2;
        if (word.load(Relaxed) >> shift) & 3 != 0 {
            return 0;
        }
        let old = word.fetch_or(next << shift, Relaxed);
        if (old >> shift) & 3 != 0 {
            return 0;
        }
        self.frontier[(y >> 6) as usize].fetch_or(1 << (y & 63), Relaxed);
        1
    }

    /// Searches everything reachable from `start` (every position: the graph is connected).
    pub fn explore(&mut self, start: &Position, progress: &mut dyn FnMut(u32, u64)) -> Exploration {
        let towers: Vec<u64> = (0..self.pegs)
            .map(|p| self.index(&Position::perfect(self.discs, self.pegs, Peg(p as u8))))
            .collect();
        let mut distances = vec![None; self.pegs];
        let layers = self.run(
            start,
            |bfs, depth| {
                for (d, &t) in distances.iter_mut().zip(&towers) {
                    if d.is_none() && bfs.code(t) != 0 {
                        *d = Some(depth);
                    }
                }
                false
            },
            progress,
        );
        Exploration {
            layers,
            tower_distances: distances
                .into_iter()
                .map(|d| d.expect("every position is reached"))
                .collect(),
        }
    }

    /// From `from` at `depth`, the moves down the codes to `origin` (the search's start).
    fn walk_back(&self, from: &Position, depth: u32, origin: &Position) -> Option<Vec<Move>> {
        let mut cur = from.clone();
        let mut path = Vec::with_capacity(depth as usize);
        for d in (0..depth).rev() {
            let want = (d % 3 + 1) as u64;
            let mv = cur.legal_moves().into_iter().find(|&mv| {
                let mut next = cur.clone();
                next.play_unchecked(mv);
                self.code(self.index(&next)) == want
            })?;
            cur.play_unchecked(mv);
            path.push(mv);
        }
        (cur == *origin).then_some(path)
    }

    /// The exact distance from `start` to `goal` and a shortest path (the first legal move, in
    /// sorted order, that gets closer, at each step). Searches from `goal` until `start` is
    /// reached.
    ///
    /// # Panics
    /// If the positions do not match this search space, or if it was not made by
    /// [`Bfs::for_paths`].
    pub fn shortest_path(
        &mut self,
        start: &Position,
        goal: &Position,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Vec<Move> {
        assert_eq!(
            self.scheme,
            Scheme::Paths,
            "paths need the depth codes of Bfs::for_paths"
        );
        let s = self.index(start);
        let mut reached = None;
        self.run(
            goal,
            |bfs, depth| {
                if bfs.code(s) != 0 {
                    reached = Some(depth);
                    true
                } else {
                    false
                }
            },
            progress,
        );
        let depth = reached.expect("every position is reachable");
        self.walk_back(start, depth, goal)
            .expect("codes lead back to the goal")
    }
}

/// The `log2` of the positions in a unit of work for a space of `2^space_bits` positions.
fn unit_shift(scheme: Scheme, threads: usize, space_bits: u32, bits: u32) -> u32 {
    match scheme {
        Scheme::Explore if threads == 1 => space_bits,
        // At least 32 regions (by the pegs of the largest discs), for balance, and whole
        // words, which block moves never leave.
        Scheme::Explore => space_bits
            .saturating_sub(bits * 5u32.div_ceil(bits))
            .max(5)
            .min(space_bits),
        Scheme::Paths => CHUNK_SHIFT.min(space_bits),
    }
}

/// Bits per disc: enough for the largest peg number.
const fn bits_per_disc(pegs: usize) -> u32 {
    usize::BITS - (pegs - 1).leading_zeros()
}

/// The lowest bit of each of `discs` fields of `b` bits.
fn low_bits(discs: usize, b: u32) -> u64 {
    (0..discs).fold(0, |acc, d| acc | 1 << (b * d as u32))
}

/// The table [`Bfs::block_moves`] for the `m` smallest discs, whose `b * m <= 5` index bits
/// make blocks of at most 32 cells: the moves among them ignore every larger disc.
fn block_moves(pegs: usize, b: u32, m: u32) -> [u64; 32] {
    let size = 1usize << (b * m);
    let mut table = [0u64; 32];
    for (i, entry) in table.iter_mut().enumerate() {
        let (base, slot) = (i - i % size, i % size);
        let peg = |d: u32| (slot >> (b * d)) & ((1 << b) - 1);
        if (0..m).any(|d| peg(d) >= pegs) {
            continue;
        }
        for d in 0..m {
            let from = peg(d);
            // Disc d moves if no smaller disc is on its peg, to any peg with no smaller disc.
            if (0..d).any(|e| peg(e) == from) {
                continue;
            }
            for to in (0..pegs).filter(|&q| q != from && (0..d).all(|e| peg(e) != q)) {
                let j = base + (slot ^ ((from ^ to) << (b * d)));
                *entry |= 1 << (2 * j);
            }
        }
    }
    table
}
