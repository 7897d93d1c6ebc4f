//! A fixed-size transposition table keyed by [`Game::key`](ply_core::Game::key).

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
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// Full key, to tell collisions of the index apart.
    pub key: u64,
    /// Remaining depth the score was searched to.
    pub depth: u32,
    /// Score relative to the node (see [`Score::to_node`]).
    pub score: Score,
    /// What the score means.
    pub bound: Bound,
    /// The best or refuting move found, tried first next time.
    pub best: Option<M>,
    /// Whether the subtree below was searched to every end (no depth cut-off).
    pub exact: bool,
}

/// A power-of-two array of entries, replaced when the new entry is at least as deep or the
/// slot holds another position.
pub struct TranspositionTable<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of about `bytes` bytes (at least one slot).
    pub fn with_bytes(bytes: usize) -> Self {
        let per = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let wanted = (bytes / per).max(1);
        let len = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
        .max(1);
        TranspositionTable {
            slots: vec![None; len],
            mask: len - 1,
        }
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.slots[(key as usize) & self.mask].filter(|e| e.key == key)
    }

    /// Stores `entry`, replacing a shallower entry or another position's.
    pub fn store(&mut self, entry: Entry<M>) {
        let slot = &mut self.slots[(entry.key as usize) & self.mask];
        match slot {
            Some(old) if old.key == entry.key && old.depth > entry.depth && !entry.exact => {}
            _ => *slot = Some(entry),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = None);
    }

    /// Number of slots.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slots (never true).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}
