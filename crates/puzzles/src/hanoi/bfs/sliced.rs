//! The exploring search for 3 and 4 pegs, bit-sliced: two bitsets of one bit per position,
//! a word of each holding the 64 positions of the 3 smallest discs (2 bits per disc), so
//! that a word's moves are made with a few masks and shifts instead of position by position.
//!
//! # Encoding
//! Slot `d mod 2` of word `w` holds the positions seen up to depth `d`; the other slot those
//! seen up to depth `d - 1`, so the frontier is `slot[d] & !slot[d - 1]`. Expanding layer `d`
//! ORs into the other slot the unseen neighbours of the frontier (those in neither slot) and
//! the frontier itself; afterwards it holds the positions seen up to `d + 1` and the slots
//! swap roles. Only bits of unseen positions are set in the slot being written while the
//! layer is read, so the frontier of a word not yet reached is never disturbed. Same 2 bits
//! per position as the 4-state cells of the general search, laid out a bit per slot.
//!
//! # Moves of a word
//! * **Discs 0 to 2** stay in the word. Moving disc `k` by `s` pegs adds `s * 4^k` to the bit
//!   number, for the bits where disc `k` is on a peg `p` with `p + s` a peg and no smaller
//!   disc on either: per disc and shift one mask, 18 masks and shifts for all of them.
//! * **Disc 3 and up**: the word's higher discs fix, for each pair of pegs, the one
//!   larger disc that could move between them (the smaller of their tops) and the word it
//!   would go to; the positions of the word that can make the move are those whose 3 small
//!   discs avoid both pegs, a fixed mask per pair (8 of the 64). At most 6 words are written.
//!
//! # Which words to look at
//! A bitmap holds one flag per word and parity of depth, set when a position of the word is
//! marked, so a layer visits exactly the words that hold its frontier (about 5 times each
//! over the search) and never reads the others: scanning every word of a region cost more
//! than the moves themselves.
//!
//! # Threads
//! The table is cut into regions of whole words by the largest discs' pegs (`2^15` words,
//! 512 KiB with both slots, the size of a core's L2 cache, or smaller to make at least 32 regions);
//! a thread takes a region at a time with `&mut` access to it (and its flags) alone, so every
//! write is a plain store with no atomics. A move into another region (one of the largest
//! discs'; they need every smaller disc on two pegs) is kept in a list and made after the
//! pass.

use std::sync::Mutex;

/// Largest region, as a power of 2 of words.
const REGION_SHIFT: u32 = 15;

/// The bit-sliced table and the move masks for `discs` discs on 3 or 4 pegs.
pub(super) struct Sliced {
    /// `words[2 w + slot]`: see the module docs.
    words: Vec<u64>,
    /// `flags[2 k + slot]`, bit `i`: word `64 k + i` of a region (counted from the region's
    /// first word, `max(1, region words / 64)` flag words per region) holds a frontier of
    /// depth `d` with `d mod 2 = slot`.
    flags: Vec<u64>,
    moves: Moves,
    region_shift: u32,
    /// Flag words per region and slot.
    region_flags: usize,
    /// Nothing written since the table was allocated (zeroed).
    fresh: bool,
}

/// What a word's moves need, fixed for the number of discs and pegs.
struct Moves {
    /// Masks and left shifts of the moves of discs 0 to 2 that raise the bit number.
    up: [(u64, u32); 9],
    /// The same for the moves that lower it (right shifts).
    down: [(u64, u32); 9],
    /// Per pair of pegs (0-1, 0-2, 0-3, 1-2, 1-3, 2-3): the bits of a word where no small
    /// disc is on either peg (0 for pairs past the last peg).
    pair_masks: [u64; 6],
    /// Discs past the word's 3 (`discs - 3`, or 0).
    high: u32,
    /// The lowest bit of each high disc's field in a word number.
    high_lows: u64,
    region_shift: u32,
}

/// Moves into other regions, made after a pass: (word, positions' bits).
type Far = Vec<(u64, u64)>;

/// The pairs of pegs in the order of [`Moves::pair_masks`].
const PAIRS: [(u32, u32); 6] = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];

impl Sliced {
    /// Whether [`Sliced`] can search `discs` discs on `pegs` pegs.
    pub(super) fn fits(discs: usize, pegs: usize) -> bool {
        (3..=4).contains(&pegs) && (1..=24).contains(&discs)
    }

    /// An empty table (zeroed pages come from the system lazily).
    pub(super) fn new(discs: usize, pegs: usize) -> Sliced {
        assert!(Sliced::fits(discs, pegs));
        let n = discs as u32;
        let word_bits = (2 * n).saturating_sub(6);
        // At least 32 regions when there are enough words, at most 2^REGION_SHIFT words each.
        let region_shift = word_bits.saturating_sub(5).min(REGION_SHIFT);
        let valid =
            |i: u32| (0..3).all(|k| (i >> (2 * k)) & 3 < if k < n { pegs as u32 } else { 1 });
        let field = |i: u32, k: u32| (i >> (2 * k)) & 3;
        let (mut up, mut down) = ([(0, 0); 9], [(0, 0); 9]);
        let (mut ups, mut downs) = (0, 0);
        for k in 0..n.min(3) {
            for s in 1..pegs as u32 {
                for dir in [1i32, -1] {
                    let mut mask = 0u64;
                    for i in (0..64).filter(|&i| valid(i)) {
                        let p = field(i, k);
                        let q = p as i32 + dir * s as i32;
                        if q < 0 || q >= pegs as i32 {
                            continue;
                        }
                        let q = q as u32;
                        if (0..k).all(|j| field(i, j) != p && field(i, j) != q) {
                            mask |= 1 << i;
                        }
                    }
                    let shift = s << (2 * k);
                    if dir == 1 {
                        up[ups] = (mask, shift);
                        ups += 1;
                    } else {
                        down[downs] = (mask, shift);
                        downs += 1;
                    }
                }
            }
        }
        let pair_masks = PAIRS.map(|(p, q)| {
            if q >= pegs as u32 {
                return 0;
            }
            (0..64)
                .filter(|&i| {
                    valid(i) && (0..n.min(3)).all(|k| field(i, k) != p && field(i, k) != q)
                })
                .fold(0, |m, i| m | 1 << i)
        });
        let high = n.saturating_sub(3);
        let words = 1usize << word_bits;
        Sliced {
            words: vec![0; 2 * words],
            flags: vec![0; 2 * words.div_ceil(64).max(words >> region_shift)],
            moves: Moves {
                up,
                down,
                pair_masks,
                high,
                high_lows: (0..high).fold(0, |m, j| m | 1 << (2 * j)),
                region_shift,
            },
            region_shift,
            region_flags: (1usize << region_shift).div_ceil(64),
            fresh: true,
        }
    }

    /// Empties the table and puts `x` alone at depth 0.
    pub(super) fn start(&mut self, x: u64) {
        if !self.fresh {
            self.words.fill(0);
            self.flags.fill(0);
        }
        self.fresh = false;
        self.words[2 * (x >> 6) as usize] = 1 << (x & 63);
        let (flag, bit) = self.flag(x >> 6);
        self.flags[2 * flag] = bit;
    }

    /// The flag word (of a slot) and bit of word `w`.
    fn flag(&self, w: u64) -> (usize, u64) {
        let local = w & ((1 << self.region_shift) - 1);
        let region = (w >> self.region_shift) as usize;
        (
            region * self.region_flags + (local >> 6) as usize,
            1 << (local & 63),
        )
    }

    /// Whether position `x` has been reached.
    pub(super) fn seen(&self, x: u64) -> bool {
        let w = 2 * (x >> 6) as usize;
        ((self.words[w] | self.words[w + 1]) >> (x & 63)) & 1 != 0
    }

    /// Expands the frontier at `depth` with `threads` threads; gives its size and whether
    /// it reached any position not seen before. (Positions are counted when expanded, once
    /// per word, rather than when marked, up to 7 times per word: the processor's popcount
    /// instruction is not in the baseline x86-64 that ply is built for.)
    pub(super) fn expand(&mut self, depth: u32, threads: usize) -> (u64, bool) {
        let cur = (depth & 1) as usize;
        let region_len = 2usize << self.region_shift;
        let moves = &self.moves;
        let mut jobs: Vec<(u64, &mut [u64], &mut [u64])> = self
            .words
            .chunks_mut(region_len)
            .zip(self.flags.chunks_mut(2 * self.region_flags))
            .enumerate()
            .filter(|(_, (_, flags))| flags.iter().skip(cur).step_by(2).any(|&f| f != 0))
            .map(|(r, (words, flags))| ((r as u64) << self.region_shift, words, flags))
            .collect();
        let mut far = Vec::new();
        let (mut size, mut reached) = (0, 0);
        if threads <= 1 || jobs.len() <= 1 {
            for (base, words, flags) in jobs {
                let (s, r) = moves.expand_region(depth, base, words, flags, &mut far);
                size += s;
                reached |= r;
            }
        } else {
            // Regions are popped from the end: in order of the table.
            jobs.reverse();
            let workers = threads.min(jobs.len());
            let queue = Mutex::new(jobs);
            let results: Vec<(u64, u64, Far)> = std::thread::scope(|scope| {
                let handles: Vec<_> = (0..workers)
                    .map(|_| {
                        scope.spawn(|| {
                            let (mut size, mut reached, mut far) = (0, 0, Vec::new());
                            loop {
                                let job = queue.lock().expect("a search thread panicked").pop();
                                let Some((base, words, flags)) = job else {
                                    return (size, reached, far);
                                };
                                let (s, r) =
                                    moves.expand_region(depth, base, words, flags, &mut far);
                                size += s;
                                reached |= r;
                            }
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a search thread panicked"))
                    .collect()
            });
            for (s, r, list) in results {
                size += s;
                reached |= r;
                far.extend(list);
            }
        }
        // The moves into other regions, now that no thread holds one.
        let next = (depth + 1) & 1;
        for (w, bits) in far {
            let i = 2 * w as usize;
            let new = bits & !(self.words[i] | self.words[i + 1]);
            if new != 0 {
                self.words[i + next as usize] |= new;
                let (flag, bit) = self.flag(w);
                self.flags[2 * flag + next as usize] |= bit;
                reached |= new;
            }
        }
        (size, reached != 0)
    }

    /// The number of positions at `depth` (the frontier), by a scan of the whole table.
    pub(super) fn frontier_size(&self, depth: u32) -> u64 {
        let cur = (depth & 1) as usize;
        self.words
            .chunks_exact(2)
            .map(|w| u64::from((w[cur] & !w[cur ^ 1]).count_ones()))
            .sum()
    }
}

impl Moves {
    /// Expands the frontier at `depth` in the region of words from `base` (`words` holds
    /// its two slots per word, `flags` its words' flags); moves into other regions go to
    /// `far` as (word, bits). Gives the frontier's size there and the positions it reached
    /// first (ORed together: nonzero if any).
    fn expand_region(
        &self,
        depth: u32,
        base: u64,
        words: &mut [u64],
        flags: &mut [u64],
        far: &mut Far,
    ) -> (u64, u64) {
        let cur = (depth & 1) as usize;
        let next = cur ^ 1;
        let (mut size, mut reached) = (0u64, 0u64);
        for k in 0..flags.len() / 2 {
            let mut todo = flags[2 * k + cur];
            flags[2 * k + cur] = 0;
            while todo != 0 {
                let lw = 64 * k + todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let (s, t) = (words[2 * lw + cur], words[2 * lw + next]);
                let f = s & !t;
                size += u64::from(f.count_ones());
                let mut near = 0;
                for &(mask, shift) in &self.up {
                    near |= (f & mask) << shift;
                }
                for &(mask, shift) in &self.down {
                    near |= (f & mask) >> shift;
                }
                let new = near & !(s | t);
                words[2 * lw + next] = t | f | new;
                flags[2 * k + next] |= u64::from(new != 0) << (lw & 63);
                reached |= new;
                if self.high == 0 {
                    continue;
                }
                let w = base + lw as u64;
                let tops = self.tops(w);
                for j in 0..6 {
                    self.pair(
                        j,
                        f,
                        w,
                        &tops,
                        base,
                        &mut *words,
                        &mut *flags,
                        next,
                        far,
                        &mut reached,
                    );
                }
            }
        }
        (size, reached)
    }

    /// The moves of the larger disc between the pegs of pair `j` from the frontier `f` of
    /// word `w` (whose high discs' tops are `tops`), in the region of [`Moves::expand_region`].
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn pair(
        &self,
        j: usize,
        f: u64,
        w: u64,
        tops: &[u32; 4],
        base: u64,
        words: &mut [u64],
        flags: &mut [u64],
        next: usize,
        far: &mut Far,
        reached: &mut u64,
    ) {
        let (p, q) = PAIRS[j];
        let d = tops[p as usize].min(tops[q as usize]);
        // Arithmetic rather than branches, which the processor could not predict: a pair
        // with nothing to move ORs nothing into this same word, so that the (up to 6) words'
        // loads overlap.
        let bits = f & self.pair_masks[j] & u64::from(d < self.high).wrapping_neg();
        if bits == 0 {
            return;
        }
        let to = w ^ (u64::from(p ^ q) << (2 * d));
        if to >> self.region_shift != w >> self.region_shift {
            // Rare: only the largest discs leave the region.
            far.push((to, bits));
            return;
        }
        let local = (to - base) as usize;
        let new = bits & !(words[2 * local] | words[2 * local + 1]);
        words[2 * local + next] |= new;
        flags[2 * (local >> 6) + next] |= u64::from(new != 0) << (local & 63);
        *reached |= new;
    }

    /// The smallest high disc (0 for disc 3) on each peg of word `w`, or 31 for none.
    #[inline(always)]
    fn tops(&self, w: u64) -> [u32; 4] {
        std::array::from_fn(|p| {
            let z = w ^ (p as u64 * self.high_lows);
            ((!(z | z >> 1) & self.high_lows) | 1 << 62).trailing_zeros() / 2
        })
    }
}
