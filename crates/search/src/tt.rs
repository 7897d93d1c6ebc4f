//! A fixed-size transposition table keyed by [`Game::key`](ply_core::Game::key), shared by
//! every thread of a parallel search.
//!
//! The table is an array of buckets of four 16-byte slots, each bucket one 64-byte cache line
//! (aligned), so a probe costs one memory fetch however many slots it reads. A position may
//! sit in any slot of its bucket; a new entry takes the same position's slot, else an empty
//! one, else the one worth least: the shallowest, an entry counting 8 plies shallower for each
//! search since it was written (Stockfish's `depth - 8 * age`), so that a table kept from move
//! to move does not fill with the deep entries of positions long gone. The generation is
//! bumped by [`TranspositionTable::new_search`].
//!
//! Each slot is two atomic words, `key ^ data` and `data` (Hyatt and Mann's lockless
//! hashing): a slot torn by two threads writing at once fails the key check on the next probe
//! and reads as empty, so no lock is needed and a torn write can never be mistaken for
//! another position's entry. The best move is kept as its index in the node's ordered move
//! list (the game's legal moves after the [`MoveOrdering`](ply_core::MoveOrdering), which is
//! a function of the position), so the table is the same for every game and fits 16 bytes a
//! slot.
//!
//! [`TtLayout::Direct`] keeps the earlier table (one slot an index, no age) for comparison.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use ply_core::Score;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

/// How the table's slots are grouped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TtLayout {
    /// Four slots in one cache line per index, replaced by depth and age.
    #[default]
    Buckets,
    /// One slot per index, replaced when the new entry is at least as deep or the slot holds
    /// another position (sessions 1-38's table).
    Direct,
}

impl TtLayout {
    /// Slots a bucket.
    fn ways(self) -> usize {
        match self {
            TtLayout::Buckets => 4,
            TtLayout::Direct => 1,
        }
    }
}

/// One slot of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Full key, to tell collisions of the index apart.
    pub key: u64,
    /// Remaining depth the score was searched to (depths above 255 are kept as 255: read
    /// back, they only ever look shallower than they were).
    pub depth: u32,
    /// Score relative to the node (see [`Score::to_node`]).
    pub score: Score,
    /// What the score means.
    pub bound: Bound,
    /// The best or refuting move found, as its index in the ordered move list; tried first
    /// next time.
    pub best: Option<u16>,
    /// Whether the subtree below was searched to every end (no depth cut-off).
    pub exact: bool,
}

const MAX_DEPTH: u32 = 255;

/// Bits of the generation kept in a slot: ages are counted modulo 32 searches.
const GENERATION_BITS: u32 = 5;
const GENERATION_MASK: u32 = (1 << GENERATION_BITS) - 1;
const GENERATION_SHIFT: u32 = 59;

/// How many plies of depth one search of age is worth when choosing the slot to replace.
const AGE_WEIGHT: i32 = 8;

impl Entry {
    /// The entry as one word, with the table's generation in the top 5 bits; never 0 (the
    /// bound is stored as 1 to 3), so 0 means empty.
    fn pack(&self, generation: u32) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        let best = self
            .best
            .filter(|&i| i < 0xFFFF)
            .map_or(0, |i| u64::from(i) + 1);
        u64::from(self.score.0 as u32)
            | u64::from(self.depth.min(MAX_DEPTH)) << 32
            | bound << 40
            | u64::from(self.exact) << 42
            | best << 43
            | u64::from(generation & GENERATION_MASK) << GENERATION_SHIFT
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match (data >> 40) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = (data >> 43) & 0xFFFF;
        Some(Entry {
            key,
            score: Score(data as u32 as i32),
            depth: stored_depth(data),
            bound,
            exact: (data >> 42) & 1 == 1,
            best: (best != 0).then(|| (best - 1) as u16),
        })
    }
}

fn stored_depth(data: u64) -> u32 {
    ((data >> 32) & 0xFF) as u32
}

fn stored_generation(data: u64) -> u32 {
    (data >> GENERATION_SHIFT) as u32 & GENERATION_MASK
}

/// The word with its generation replaced.
fn with_generation(data: u64, generation: u32) -> u64 {
    data & !(u64::from(GENERATION_MASK) << GENERATION_SHIFT)
        | u64::from(generation & GENERATION_MASK) << GENERATION_SHIFT
}

/// Asks Linux to back the table's memory by 2 MiB pages where it can (the system's
/// transparent huge pages, when they are on "madvise"): a probe lands on a random bucket of
/// 16 MiB, and with 4 KiB pages most probes also missed the address translation cache, and
/// the first touch of each of its 4,096 pages was a page fault. Nothing changes but the speed;
/// where the advice is refused the table works alike.
#[cfg(target_os = "linux")]
fn huge_pages(words: &[AtomicU64]) {
    let bytes = size_of_val(words);
    if bytes < 4 << 20 {
        return;
    }
    let start = words.as_ptr() as usize;
    // The whole pages of the allocation.
    let first = start.next_multiple_of(4096);
    let end = (start + bytes) & !4095;
    #[allow(unsafe_code)]
    // SAFETY: the range lies in the table's own memory; the advice changes how it is paged,
    // never its contents.
    let _ = unsafe {
        rustix::mm::madvise(
            first as *mut std::ffi::c_void,
            end - first,
            rustix::mm::Advice::LinuxHugepage,
        )
    };
}

#[cfg(not(target_os = "linux"))]
fn huge_pages(_: &[AtomicU64]) {}

/// Words a cache line.
const LINE_WORDS: usize = 8;

/// A power-of-two array of buckets (see the module's introduction). Every method takes
/// `&self`: threads share one table.
pub struct TranspositionTable {
    /// Two words a slot, from `first` on (a few words of slack before it align the buckets
    /// on cache lines).
    words: Vec<AtomicU64>,
    first: usize,
    /// Buckets - 1.
    mask: usize,
    ways: usize,
    layout: TtLayout,
    generation: AtomicU32,
}

impl TranspositionTable {
    /// A table of about `bytes` bytes (at least one slot of 16 bytes) in buckets of a cache
    /// line ([`TtLayout::Buckets`]).
    pub fn with_bytes(bytes: usize) -> Self {
        Self::with_layout(bytes, TtLayout::Buckets)
    }

    /// A table of about `bytes` bytes (at least one slot of 16 bytes) laid out as `layout`
    /// says; a table of fewer slots than a bucket holds is one bucket.
    pub fn with_layout(bytes: usize, layout: TtLayout) -> Self {
        let wanted = (bytes / 16).max(1);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
        .max(1);
        let ways = layout.ways().min(len);
        // Zeroed lazily (the allocator's fresh pages), so that the process starts searching
        // at once and pays for each page at its first probe.
        let words: Vec<_> = (0..2 * len + LINE_WORDS - 1)
            .map(|_| AtomicU64::new(0))
            .collect();
        let misalign = (words.as_ptr() as usize / size_of::<AtomicU64>()) % LINE_WORDS;
        let first = (LINE_WORDS - misalign) % LINE_WORDS;
        huge_pages(&words);
        TranspositionTable {
            words,
            first,
            mask: len / ways - 1,
            ways,
            layout,
            generation: AtomicU32::new(0),
        }
    }

    /// The words of `key`'s bucket, two a slot.
    #[inline]
    fn bucket(&self, key: u64) -> &[AtomicU64] {
        let at = self.first + ((key as usize) & self.mask) * 2 * self.ways;
        &self.words[at..at + 2 * self.ways]
    }

    fn generation(&self) -> u32 {
        self.generation.load(Ordering::Relaxed) & GENERATION_MASK
    }

    /// Starts a new search: entries written before count as one search older when a slot is
    /// chosen for replacement. [`AlphaBeta`](crate::AlphaBeta) calls it at every search.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The entry for `key`, if stored (and not torn by a concurrent write). A bucketed table
    /// marks an entry of an earlier search as this search's, since it is still of use.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for slot in self.bucket(key).chunks_exact(2) {
            let data = slot[1].load(Ordering::Relaxed);
            if data != 0 && slot[0].load(Ordering::Relaxed) ^ data == key {
                let generation = self.generation();
                if self.layout == TtLayout::Buckets && stored_generation(data) != generation {
                    let fresh = with_generation(data, generation);
                    slot[1].store(fresh, Ordering::Relaxed);
                    slot[0].store(key ^ fresh, Ordering::Relaxed);
                }
                return Entry::unpack(key, data);
            }
        }
        None
    }

    /// Stores `entry`: over the same position's entry unless that one is deeper (and of this
    /// search, in buckets) and the new one not exact; otherwise in an empty slot of the bucket,
    /// or over the one of least `depth - 8 * age`, the first of equals.
    pub fn store(&self, entry: Entry) {
        let generation = self.generation();
        let depth = entry.depth.min(MAX_DEPTH);
        let bucket = self.bucket(entry.key);
        let mut victim = 0;
        let mut least = i32::MAX;
        for (i, slot) in bucket.chunks_exact(2).enumerate() {
            let data = slot[1].load(Ordering::Relaxed);
            if data == 0 {
                if least > i32::MIN {
                    victim = i;
                    least = i32::MIN;
                }
                continue;
            }
            let age = generation.wrapping_sub(stored_generation(data)) & GENERATION_MASK;
            if slot[0].load(Ordering::Relaxed) ^ data == entry.key {
                let current = self.layout == TtLayout::Direct || age == 0;
                if current && stored_depth(data) > depth && !entry.exact {
                    return;
                }
                victim = i;
                break;
            }
            let worth = stored_depth(data) as i32 - AGE_WEIGHT * age as i32;
            if worth < least {
                victim = i;
                least = worth;
            }
        }
        let packed = entry.pack(generation);
        let slot = &bucket[2 * victim..2 * victim + 2];
        slot[1].store(packed, Ordering::Relaxed);
        slot[0].store(entry.key ^ packed, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for word in &self.words {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        (self.mask + 1) * self.ways
    }

    /// Whether the table has no slot (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How the slots are grouped.
    pub fn layout(&self) -> TtLayout {
        self.layout
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, depth: u32, score: i32, best: Option<u16>) -> Entry {
        Entry {
            key,
            depth,
            score: Score(score),
            bound: Bound::Lower,
            best,
            exact: false,
        }
    }

    const LAYOUTS: [TtLayout; 2] = [TtLayout::Buckets, TtLayout::Direct];

    #[test]
    fn entries_read_back_as_stored_over_the_whole_range_of_each_field() {
        for layout in LAYOUTS {
            let tt = TranspositionTable::with_layout(1 << 12, layout);
            for generation in 0..40 {
                for (i, (score, depth, best, bound, exact)) in [
                    (0, 0, None, Bound::Exact, true),
                    (-Score::INFINITY.0, 255, Some(0), Bound::Upper, false),
                    (Score::INFINITY.0, 1, Some(65_534), Bound::Lower, true),
                    (-7, 17, Some(3), Bound::Exact, false),
                ]
                .into_iter()
                .enumerate()
                {
                    let e = Entry {
                        key: 0x9E37_79B9_7F4A_7C15u64.wrapping_mul(i as u64 + 1),
                        depth,
                        score: Score(score),
                        bound,
                        best,
                        exact,
                    };
                    tt.store(e);
                    assert_eq!(
                        tt.probe(e.key),
                        Some(e),
                        "{layout:?}, generation {generation}"
                    );
                }
                tt.new_search();
            }
            // Deeper than 255 reads back as 255; a best move index past the field reads as
            // none.
            let deep = entry(99, 1000, 5, Some(u16::MAX));
            tt.store(deep);
            let back = tt.probe(99).unwrap();
            assert_eq!((back.depth, back.best), (255, None));
        }
    }

    #[test]
    fn buckets_are_cache_lines() {
        for bytes in [64, 1 << 12, 16 << 20] {
            let tt = TranspositionTable::with_bytes(bytes);
            assert_eq!(tt.len(), bytes / 16);
            for key in [0, 1, 7, 12_345, u64::MAX] {
                let bucket = tt.bucket(key);
                assert_eq!(bucket.as_ptr() as usize % 64, 0);
                assert_eq!(size_of_val(bucket), 64);
            }
        }
        // Smaller than a line: one bucket of what there is.
        let tiny = TranspositionTable::with_bytes(16);
        assert_eq!((tiny.len(), tiny.bucket(3).len()), (1, 2));
    }

    #[test]
    fn a_shallower_entry_does_not_replace_a_deeper_one_of_the_same_position() {
        for layout in LAYOUTS {
            let tt = TranspositionTable::with_layout(64, layout);
            tt.store(entry(5, 8, 1, Some(2)));
            tt.store(entry(5, 3, 9, Some(1)));
            assert_eq!(tt.probe(5).unwrap().depth, 8);
            let mut exact = entry(5, 3, 9, Some(1));
            exact.exact = true;
            tt.store(exact);
            assert_eq!(tt.probe(5), Some(exact));
            tt.clear();
            assert_eq!(tt.probe(5), None);
        }
    }

    #[test]
    fn a_bucket_holds_four_positions_then_replaces_the_shallowest() {
        // 64 bytes: one bucket, so every key lands in it.
        let tt = TranspositionTable::with_bytes(64);
        for (key, depth) in [(1, 6), (2, 3), (3, 9), (4, 5)] {
            tt.store(entry(key, depth, key as i32, None));
        }
        for key in 1..=4 {
            assert_eq!(tt.probe(key).unwrap().score, Score(key as i32));
        }
        // A fifth position takes the shallowest slot (2 at depth 3), even when shallower.
        tt.store(entry(5, 1, 5, None));
        assert_eq!(tt.probe(2), None);
        for key in [1, 3, 4, 5] {
            assert!(tt.probe(key).is_some(), "{key}");
        }
        // Then 5 (depth 1) goes first.
        tt.store(entry(6, 4, 6, None));
        assert_eq!(tt.probe(5), None);
        assert_eq!(tt.probe(6).unwrap().depth, 4);
        // The same position is rewritten in place, not twice.
        tt.store(entry(6, 7, 60, None));
        tt.store(entry(7, 2, 7, None));
        assert_eq!(tt.probe(6).unwrap().score, Score(60));
        assert_eq!(tt.probe(4), None, "4 (depth 5) was the shallowest left");

        // The direct-mapped table keeps one of the five.
        let direct = TranspositionTable::with_layout(64, TtLayout::Direct);
        assert_eq!(direct.len(), 4);
        direct.store(entry(1, 9, 1, None));
        direct.store(entry(1 + 4, 1, 5, None));
        assert_eq!(direct.probe(1), None);
        assert!(direct.probe(5).is_some());
    }

    #[test]
    fn entries_of_earlier_searches_give_way_to_newer_ones() {
        let tt = TranspositionTable::with_bytes(64);
        for key in 1..=4 {
            tt.store(entry(key, 12, 0, None));
        }
        // One search later a depth-12 entry is worth 4: a depth-5 entry of this search stays
        // and a new one takes an old slot.
        tt.new_search();
        tt.store(entry(10, 5, 0, None));
        assert_eq!(tt.probe(1), None);
        tt.store(entry(11, 6, 0, None));
        assert_eq!(tt.probe(2), None);
        assert!(tt.probe(10).is_some());
        // Probing an old entry makes it this search's: 4 now outlives 3, and 3 (worth 4)
        // goes before the new shallow ones (5 and 6).
        assert!(tt.probe(4).is_some());
        tt.store(entry(12, 2, 0, None));
        assert_eq!(tt.probe(3), None);
        assert!(tt.probe(4).is_some() && tt.probe(10).is_some() && tt.probe(11).is_some());
        // An old entry of the same position is replaced even by a shallower one.
        tt.new_search();
        tt.store(entry(11, 1, 7, None));
        assert_eq!(tt.probe(11).unwrap().score, Score(7));
        // Within one search a shallower one is not.
        tt.store(entry(11, 0, 8, None));
        assert_eq!(tt.probe(11).unwrap().score, Score(7));
    }

    #[test]
    fn a_torn_slot_reads_as_empty() {
        for layout in LAYOUTS {
            let tt = TranspositionTable::with_layout(1 << 10, layout);
            let (a, b) = (
                entry(3, 4, 30, Some(1)),
                entry(3 + (1 << 20), 6, 60, Some(2)),
            );
            tt.store(a);
            // Another position's data under this one's check word, as two writers
            // interleaved would leave it.
            let slot = &tt.bucket(a.key)[..2];
            slot[1].store(b.pack(0), Ordering::Relaxed);
            assert_eq!(tt.probe(a.key), None, "{layout:?}");
            assert_eq!(tt.probe(b.key), None, "{layout:?}");
        }
    }

    #[test]
    fn threads_writing_one_bucket_never_produce_an_entry_that_was_not_written() {
        // Two threads hammer one bucket (and, direct-mapped, one slot) with entries whose
        // score and move are functions of the key, at varying depths, across searches; every
        // probe must see a whole entry of the key it asks for, or nothing.
        for layout in LAYOUTS {
            let tt = TranspositionTable::with_layout(64, layout);
            std::thread::scope(|s| {
                for t in 0..2u64 {
                    let tt = &tt;
                    s.spawn(move || {
                        for i in 0..200_000u64 {
                            let key = ((i % 7) * 2 + t + 1) << 2;
                            let depth = (i % 5) as u32;
                            tt.store(entry(key, depth, (key * 1000) as i32, Some(key as u16)));
                            if i % 10_000 == 0 {
                                tt.new_search();
                            }
                            for k in 1..16 {
                                if let Some(e) = tt.probe(k << 2) {
                                    assert_eq!(e.score, Score((k * 4000) as i32));
                                    assert_eq!(e.best, Some((k << 2) as u16));
                                    assert!(e.depth < 5);
                                }
                            }
                        }
                    });
                }
            });
        }
    }
}
