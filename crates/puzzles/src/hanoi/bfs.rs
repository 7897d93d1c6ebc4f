//! Exact breadth-first search over every position of `n` discs on `k` pegs, packed in 2 bits
//! per position and run on every core.
//!
//! A position is a number with `b = ceil(log2 k)` bits per disc (smallest disc lowest), and
//! its 2-bit cell holds 0 while unseen, else `1 + depth mod 3`. That is enough: the
//! neighbours of a position at depth `d` are at depths `d - 1`, `d` or `d + 1`, three distinct
//! values mod 3, so a layer is expanded by scanning for its code and marking unseen
//! neighbours with the next code; a shortest path is walked back by following the code of
//! `d - 1` (Korf's technique). Threads share the cells through atomic words: a cell goes from
//! 0 to a code once, by an atomic OR, and whoever saw the 0 counts it, so counts are exact.
//!
//! Memory is `2^(b n) / 4` bytes: 256 MiB for 4 pegs and 15 discs, 16 GiB for 18 (the most
//! that fits in 24 GiB). With a peg count that is not a power of two some cells stand for no
//! position and are never touched.

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

/// Positions per chunk of work a thread takes at a time (a multiple of 32).
const CHUNK_WORDS: usize = 1 << 12;

/// The packed search space for one number of discs and pegs.
pub struct Bfs {
    discs: usize,
    pegs: usize,
    bits: u32,
    words: Vec<AtomicU64>,
    threads: usize,
    /// `pattern[p]`: peg `p` in every disc's field; a position XOR it is 0 where discs are on `p`.
    pattern: Vec<u64>,
    /// The lowest bit of every disc's field.
    lows: u64,
}

impl Bfs {
    /// The bytes a search over `discs` discs on `pegs` pegs needs.
    pub fn memory_needed(discs: usize, pegs: usize) -> u128 {
        let bits = bits_per_disc(pegs) as u128 * discs as u128;
        if bits >= 120 {
            return u128::MAX;
        }
        ((1u128 << bits) / 4).max(8)
    }

    /// Allocates the search space, refusing more than `limit` bytes.
    ///
    /// # Errors
    /// [`BfsSizeError`] when the space would exceed `limit`.
    ///
    /// # Panics
    /// If `pegs` is not in 3..=64.
    pub fn new(discs: usize, pegs: usize, limit: u128) -> Result<Bfs, BfsSizeError> {
        assert!((3..=64).contains(&pegs));
        let needed = Bfs::memory_needed(discs, pegs);
        if needed > limit {
            return Err(BfsSizeError {
                discs,
                pegs,
                needed,
                limit,
            });
        }
        let n_words = (needed / 8) as usize;
        let threads = if n_words < 1 << 14 {
            1
        } else {
            std::thread::available_parallelism().map_or(2, |n| n.get())
        };
        let bits = bits_per_disc(pegs);
        let lows = low_bits(discs, bits);
        Ok(Bfs {
            discs,
            pegs,
            bits,
            words: (0..n_words).map(|_| AtomicU64::new(0)).collect(),
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
        (self.words[(x >> 5) as usize].load(Relaxed) >> ((x & 31) * 2)) & 3
    }

    fn clear(&mut self) {
        for w in &mut self.words {
            *w.get_mut() = 0;
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
        self.words[(s >> 5) as usize].fetch_or(1 << ((s & 31) * 2), Relaxed);
        let mut layers = vec![1u64];
        let mut seen = 1u64;
        let mut depth = 0u32;
        progress(0, seen);
        while !stop(self, depth) {
            let new = self.expand(depth);
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

    /// Marks every unseen neighbour of depth `depth` with the next code; gives how many.
    fn expand(&self, depth: u32) -> u64 {
        let code = (depth % 3 + 1) as u64;
        let next = ((depth + 1) % 3 + 1) as u64;
        let chunks = self.words.len().div_ceil(CHUNK_WORDS);
        let counter = AtomicUsize::new(0);
        let work = || {
            let mut found = 0u64;
            loop {
                let c = counter.fetch_add(1, Relaxed);
                if c >= chunks {
                    return found;
                }
                let end = ((c + 1) * CHUNK_WORDS).min(self.words.len());
                for w in c * CHUNK_WORDS..end {
                    found += match self.pegs {
                        3 => self.expand_word::<3>(w, code, next),
                        4 => self.expand_word::<4>(w, code, next),
                        5 => self.expand_word::<5>(w, code, next),
                        6 => self.expand_word::<6>(w, code, next),
                        _ => self.expand_word::<0>(w, code, next),
                    };
                }
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

    /// Expands the positions of depth code `code` in word `w`. `K` is the number of pegs,
    /// fixed at compile time for the common counts, or 0 to read it at run time.
    #[inline]
    fn expand_word<const K: usize>(&self, w: usize, code: u64, next: u64) -> u64 {
        const LOW: u64 = 0x5555_5555_5555_5555;
        let word = self.words[w].load(Relaxed);
        let z = word ^ (code * LOW);
        let mut hits = !(z | (z >> 1)) & LOW;
        let mut found = 0;
        while hits != 0 {
            let slot = ((w as u64) << 5) | (hits.trailing_zeros() as u64 >> 1);
            hits &= hits - 1;
            found += self.expand_position::<K>(slot, next);
        }
        found
    }

    #[inline]
    fn expand_position<const K: usize>(&self, x: u64, next: u64) -> u64 {
        let pegs = if K == 0 { self.pegs } else { K };
        let b = self.bits;
        let field_mask = (1u64 << b) - 1;
        // The smallest disc on each peg (u32::MAX: empty).
        let mut tops = [u32::MAX; 64];
        for (top, &pat) in tops[..pegs].iter_mut().zip(&self.pattern[..pegs]) {
            let z = x ^ pat;
            let mut any = z;
            for i in 1..b {
                any |= z >> i;
            }
            let on_p = !any & self.lows;
            if on_p != 0 {
                *top = on_p.trailing_zeros() / b;
            }
        }
        let mut found = 0;
        for p in 0..pegs {
            let d = tops[p];
            if d == u32::MAX {
                continue;
            }
            for (q, &e) in tops[..pegs].iter().enumerate() {
                if e > d {
                    let y = x ^ (((p ^ q) as u64 & field_mask) << (b * d));
                    found += self.mark(y, next);
                }
            }
        }
        found
    }

    #[inline]
    fn mark(&self, y: u64, next: u64) -> u64 {
        let word = &self.words[(y >> 5) as usize];
        let shift = (y & 31) * 2;
        if (word.load(Relaxed) >> shift) & 3 != 0 {
            return 0;
        }
        let old = word.fetch_or(next << shift, Relaxed);
        u64::from((old >> shift) & 3 == 0)
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
    /// If the positions do not match this search space.
    pub fn shortest_path(
        &mut self,
        start: &Position,
        goal: &Position,
        progress: &mut dyn FnMut(u32, u64),
    ) -> Vec<Move> {
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
fn bits_per_disc(pegs: usize) -> u32 {
    usize::BITS - (pegs - 1).leading_zeros()
}

/// The lowest bit of each of `discs` fields of `b` bits.
fn low_bits(discs: usize, b: u32) -> u64 {
    (0..discs).fold(0, |acc, d| acc | 1 << (b * d as u32))
}
