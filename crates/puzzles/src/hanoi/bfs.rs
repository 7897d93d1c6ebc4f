//! Exact breadth-first search over every position of `n` discs on `k` pegs, packed in 2 bits
//! per position (3 to find paths) and run on every core.
//!
//! A position is a number with `b = ceil(log2 k)` bits per disc (smallest disc lowest), the
//! index of its 2-bit cell. Each layer is expanded exactly once: one pass over the table
//! finds the positions of the current frontier, marks their unseen neighbours as the next
//! frontier and retires them. The work is one expansion per position plus one scan of the
//! table per layer. Two encodings, one per question:
//!
//! * **Exploring** ([`Bfs::new`], [`Bfs::explore`]: layer sizes, eccentricity, tower
//!   distances) needs no depths, only four states per cell: `00` unseen, `11` closed, and
//!   `01` and `10` for the current and the next frontier, which swap roles every layer.
//!   Marking an unseen neighbour ORs in the next frontier's code; retiring an expanded
//!   position ORs in its other bit, making it `11`. Both are atomic ORs on disjoint bits, so
//!   threads never wait for each other. 2 bits per position.
//! * **Paths** ([`Bfs::for_paths`], [`Bfs::shortest_path`]) are walked back from the start
//!   down the depths, so cells hold `1 + depth mod 3` (the neighbours of a position at depth
//!   `d` are at `d - 1`, `d` or `d + 1`, three distinct codes; Korf's technique), and a
//!   separate bitmap holds one *frontier bit* per position, set when the position is first
//!   marked and cleared (atomic AND) once it is expanded. The current frontier is the set
//!   bits whose cell has the current depth's code; set bits with the next code were marked
//!   in this very pass. 3 bits per position.
//!
//! Why not the depth codes alone, in 2 bits: the code of depth `d` is also the code of
//! depths `d - 3`, `d - 6`, ..., so "expand every cell with the code" re-expands about a
//! third of all positions seen so far at every layer. An earlier version did just that; for
//! 4 pegs and 15 discs (131 layers) it cost some 40 times the necessary work (673 s).
//!
//! Threads take chunks of the table in turn and share the cells through atomic words: a cell
//! leaves the unseen state once, by an atomic OR made after a plain load saw it unseen, and
//! whoever finds the unseen value in the OR's result counts it, so layer sizes are exact.
//!
//! Memory is `2^(b n) / 4` bytes to explore and `3 * 2^(b n) / 8` for paths: 4 pegs and 15
//! discs take 256 MiB (384 MiB for paths). On 24 GiB, 4 pegs go to 18 discs to explore (16
//! GiB) and 17 for paths (6 GiB), 5 pegs to 12 discs to explore (16 GiB) and 11 for paths
//! (3 GiB). With a peg count that is not a power of two some cells stand for no position
//! and are never touched.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::Relaxed};

use super::{Move, Peg, Position};

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

/// Positions per chunk of work a thread takes at a time (a multiple of 64).
const CHUNK: u64 = 1 << 17;

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
    /// `pattern[p]`: peg `p` in every disc's field; a position XOR it is 0 where discs are on `p`.
    pattern: Vec<u64>,
    /// The lowest bit of every disc's field.
    lows: u64,
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
        Ok(Bfs {
            discs,
            pegs,
            bits,
            scheme,
            space,
            cells: words(32),
            frontier: match scheme {
                Scheme::Explore => Vec::new(),
                Scheme::Paths => words(64),
            },
            threads,
            pattern: (0..pegs as u64).map(|p| p * lows).collect(),
            lows,
        })
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
                    current,
                    next: 3 - current,
                }
            }
            Scheme::Paths => Layer {
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
        self.cells[(s >> 5) as usize].fetch_or(self.layer(0).current << ((s & 31) * 2), Relaxed);
        if self.scheme == Scheme::Paths {
            self.frontier[(s >> 6) as usize].fetch_or(1 << (s & 63), Relaxed);
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

    /// Expands the current frontier of `layer` once, marking its unseen neighbours as the
    /// next frontier; gives how many were marked.
    fn expand(&self, layer: Layer) -> u64 {
        let chunks = self.space.div_ceil(CHUNK);
        let counter = AtomicUsize::new(0);
        let work = || {
            let mut found = 0u64;
            loop {
                let c = counter.fetch_add(1, Relaxed) as u64;
                if c >= chunks {
                    return found;
                }
                let range = c * CHUNK..((c + 1) * CHUNK).min(self.space);
                found += match (self.scheme, self.pegs) {
                    (Scheme::Explore, 3) => self.expand_cells::<3, 4>(range, layer),
                    (Scheme::Explore, 4) => self.expand_cells::<4, 4>(range, layer),
                    (Scheme::Explore, 5) => self.expand_cells::<5, 8>(range, layer),
                    (Scheme::Explore, _) => self.expand_cells::<0, 64>(range, layer),
                    (Scheme::Paths, 3) => self.expand_frontier::<3, 4>(range, layer),
                    (Scheme::Paths, 4) => self.expand_frontier::<4, 4>(range, layer),
                    (Scheme::Paths, 5) => self.expand_frontier::<5, 8>(range, layer),
                    (Scheme::Paths, _) => self.expand_frontier::<0, 64>(range, layer),
                };
            }
        };
        if self.threads == 1 {
            return work();
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..self.threads).map(|_| scope.spawn(work)).collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .sum()
        })
    }

    /// [`Scheme::Explore`]: expands the positions in `range` whose cell holds the current
    /// frontier's code, then closes them. `K` is the number of pegs, fixed at compile time
    /// for the common counts, or 0 to read it at run time.
    fn expand_cells<const K: usize, const T: usize>(&self, range: std::ops::Range<u64>, layer: Layer) -> u64 {
        let mut found = 0;
        // The bit that turns the current code into 11.
        let close_shift = if layer.current == 1 { 1 } else { 0 };
        for w in (range.start >> 5)..range.end.div_ceil(32) {
            let word = self.cells[w as usize].load(Relaxed);
            let z = word ^ (layer.current * LOW);
            let hits = !(z | (z >> 1)) & LOW;
            let mut left = hits;
            while left != 0 {
                let x = (w << 5) | (left.trailing_zeros() as u64 >> 1);
                left &= left - 1;
                found += self.expand_position::<K, T, false>(x, layer.next);
            }
            if hits != 0 {
                self.cells[w as usize].fetch_or(hits << close_shift, Relaxed);
            }
        }
        found
    }

    /// [`Scheme::Paths`]: expands the positions in `range` whose frontier bit is set and
    /// whose cell holds the current depth's code, then clears their frontier bits.
    fn expand_frontier<const K: usize, const T: usize>(&self, range: std::ops::Range<u64>, layer: Layer) -> u64 {
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
                    found += self.expand_position::<K, T, true>(x, layer.next);
                }
            }
            if done != 0 {
                self.frontier[f as usize].fetch_and(!done, Relaxed);
            }
        }
        found
    }

    /// Marks every unseen neighbour of position `x` with `next`; gives how many. `K` is the
    /// number of pegs (0: read at run time) and `T` the length of the table of tops, `K`
    /// rounded up, so that nothing but constants is left for the common peg counts.
    #[inline(always)]
    fn expand_position<const K: usize, const T: usize, const PATHS: bool>(
        &self,
        x: u64,
        next: u64,
    ) -> u64 {
        let pegs = if K == 0 { self.pegs } else { K };
        let b = if K == 0 {
            self.bits
        } else {
            bits_per_disc(K)
        };
        let field_mask = (1u64 << b) - 1;
        // The smallest disc on each peg; an empty peg gets a number past every disc (the
        // sentinel bit 63 is in no disc's field for the sizes that fit in memory).
        let mut tops = [u32::MAX; T];
        for (top, &pat) in tops[..pegs].iter_mut().zip(&self.pattern[..pegs]) {
            let z = x ^ pat;
            let mut any = z;
            for i in 1..b {
                any |= z >> i;
            }
            *top = ((!any & self.lows) | 1 << 63).trailing_zeros() / b;
        }
        // Between two pegs exactly one move is legal, the smaller top onto the other peg,
        // unless both are empty: no branch on which way, so few mispredictions.
        let mut found = 0;
        for p in 0..pegs {
            for q in p + 1..pegs {
                let d = tops[p].min(tops[q]);
                if (d as usize) < self.discs {
                    let y = x ^ (((p ^ q) as u64 & field_mask) << (b * d));
                    found += self.mark::<PATHS>(y, next);
                }
            }
        }
        found
    }

    #[inline]
    fn mark<const PATHS: bool>(&self, y: u64, next: u64) -> u64 {
        let word = &self.cells[(y >> 5) as usize];
        let shift = (y & 31) * 2;
        if (word.load(Relaxed) >> shift) & 3 != 0 {
            return 0;
        }
        if PATHS {
            let old = word.fetch_or(next << shift, Relaxed);
            if (old >> shift) & 3 != 0 {
                return 0;
            }
            self.frontier[(y >> 6) as usize].fetch_or(1 << (y & 63), Relaxed);
            1
        } else {
            // The next frontier's code is a single bit, and while a layer is expanded an
            // unseen cell can only change to that code: whoever sets the bit first counts it
            // (one `lock bts`, not a compare-and-swap loop).
            let bit = 1u64 << (shift + next - 1);
            u64::from(word.fetch_or(bit, Relaxed) & bit == 0)
        }
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

/// Bits per disc: enough for the largest peg number.
const fn bits_per_disc(pegs: usize) -> u32 {
    usize::BITS - (pegs - 1).leading_zeros()
}

/// The lowest bit of each of `discs` fields of `b` bits.
fn low_bits(discs: usize, b: u32) -> u64 {
    (0..discs).fold(0, |acc, d| acc | 1 << (b * d as u32))
}
