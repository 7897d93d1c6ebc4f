//! A fixed-size transposition table keyed by [`Game::key`](ply_core::Game::key), shared by
//! every thread of a parallel search.
//!
//! Each slot is two atomic words, `key ^ data` and `data` (Hyatt and Mann's lockless
//! hashing): a slot torn by two threads writing at once fails the key check on the next probe
//! and reads as empty, so no lock is needed and a torn write can never be mistaken for
//! another position's entry. The best move is kept as its index in the node's ordered move
//! list (the game's legal moves after the [`MoveOrdering`](ply_core::MoveOrdering), which is
//! a function of the position), so the table is the same for every game and fits 16 bytes a
//! slot.

use std::sync::atomic::{AtomicU64, Ordering};

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

impl Entry {
    /// The entry as one word; never 0 (the bound is stored as 1 to 3), so 0 means empty.
    fn pack(&self) -> u64 {
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
            depth: ((data >> 32) & 0xFF) as u32,
            bound,
            exact: (data >> 42) & 1 == 1,
            best: (best != 0).then(|| (best - 1) as u16),
        })
    }
}

/// Asks Linux to back the table's memory by 2 MiB pages where it can (the system's
/// transparent huge pages, when they are on "madvise"): a probe lands on a random slot of
/// 16 MiB, and with 4 KiB pages most probes also missed the address translation cache, and
/// the first touch of each of its 4,096 pages was a page fault. Nothing changes but the speed;
/// where the advice is refused the table works alike.
#[cfg(target_os = "linux")]
fn huge_pages(slots: &[[AtomicU64; 2]]) {
    let bytes = size_of_val(slots);
    if bytes < 4 << 20 {
        return;
    }
    let start = slots.as_ptr() as usize;
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
fn huge_pages(_: &[[AtomicU64; 2]]) {}

/// A power-of-two array of slots, replaced when the new entry is at least as deep or the
/// slot holds another position. Every method takes `&self`: threads share one table.
pub struct TranspositionTable {
    slots: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl TranspositionTable {
    /// A table of about `bytes` bytes (at least one slot of 16 bytes).
    pub fn with_bytes(bytes: usize) -> Self {
        let wanted = (bytes / 16).max(1);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
        .max(1);
        // Zeroed lazily (the allocator's fresh pages), so that the process starts searching
        // at once and pays for each page at its first probe.
        let slots: Vec<_> = (0..len)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        huge_pages(&slots);
        TranspositionTable {
            slots,
            mask: len - 1,
        }
    }

    fn slot(&self, key: u64) -> &[AtomicU64; 2] {
        &self.slots[(key as usize) & self.mask]
    }

    /// The entry for `key`, if stored (and not torn by a concurrent write).
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let [check, data] = self.slot(key);
        let data = data.load(Ordering::Relaxed);
        if data == 0 || check.load(Ordering::Relaxed) ^ data != key {
            return None;
        }
        Entry::unpack(key, data)
    }

    /// Stores `entry`, replacing a shallower entry or another position's.
    pub fn store(&self, entry: Entry) {
        if let Some(old) = self.probe(entry.key)
            && old.depth > entry.depth.min(MAX_DEPTH)
            && !entry.exact
        {
            return;
        }
        let [check, data] = self.slot(entry.key);
        let packed = entry.pack();
        data.store(packed, Ordering::Relaxed);
        check.store(entry.key ^ packed, Ordering::Relaxed);
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for [check, data] in &self.slots {
            check.store(0, Ordering::Relaxed);
            data.store(0, Ordering::Relaxed);
        }
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slot (never: it has at least one).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
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

    #[test]
    fn entries_read_back_as_stored_over_the_whole_range_of_each_field() {
        let tt = TranspositionTable::with_bytes(1 << 12);
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
            assert_eq!(tt.probe(e.key), Some(e));
        }
        // Deeper than 255 reads back as 255; a best move index past the field reads as none.
        let deep = entry(99, 1000, 5, Some(u16::MAX));
        tt.store(deep);
        let back = tt.probe(99).unwrap();
        assert_eq!((back.depth, back.best), (255, None));
    }

    #[test]
    fn a_shallower_entry_does_not_replace_a_deeper_one_of_the_same_position() {
        let tt = TranspositionTable::with_bytes(64);
        tt.store(entry(5, 8, 1, Some(2)));
        tt.store(entry(5, 3, 9, Some(1)));
        assert_eq!(tt.probe(5).unwrap().depth, 8);
        let mut exact = entry(5, 3, 9, Some(1));
        exact.exact = true;
        tt.store(exact);
        assert_eq!(tt.probe(5), Some(exact));
        // Another position in the same slot replaces it; the first is then gone.
        let other = 5 + tt.len() as u64;
        tt.store(entry(other, 1, 0, None));
        assert_eq!(tt.probe(5), None);
        assert!(tt.probe(other).is_some());
        tt.clear();
        assert_eq!(tt.probe(other), None);
    }

    #[test]
    fn threads_writing_one_slot_never_produce_an_entry_that_was_not_written() {
        // Two threads hammer one slot with entries whose score is a function of the key;
        // every probe must see a whole entry of the key it asks for, or nothing.
        let tt = TranspositionTable::with_bytes(16);
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        let key = (i % 7) * 2 + t + 1;
                        tt.store(entry(key, 3, (key * 1000) as i32, Some(key as u16)));
                        for k in 1..16 {
                            if let Some(e) = tt.probe(k) {
                                assert_eq!(e.score, Score((k * 1000) as i32));
                                assert_eq!(e.best, Some(k as u16));
                            }
                        }
                    }
                });
            }
        });
    }
}
