//! An opening book for 8x8 Othello, made by ply itself: positions with the negamax value of
//! deep searches below them and the move that value comes from, looked up under the board's
//! eight symmetries. The search that labels the leaves is the caller's ([`build`] takes it
//! as a closure), so this module needs no search crate; the committed book
//! (`crates/games/data/othello-book.bin`, made by `ply book build othello`) is
//! [`committed`].
//!
//! # How a book is made (as Zebra, Edax and Logistello make theirs)
//! * Every position reached in at most `full_plies` plies from the start is **expanded**:
//!   each of its children is in the book. A child that is not expanded itself is a **leaf**,
//!   labelled by one fixed-depth search (the caller's: the bot's pattern evaluation with
//!   ProbCut), which gives its value and its move.
//! * Every leaf is searched to the same **horizon**: the leaves `full_plies + 1` plies from
//!   the start to the configured depth, a leaf a ply deeper in the book to a ply less (plies
//!   counted by discs: a pass does not count). So the values an expanded position compares
//!   all come from searches that stop at the same ply, as one search's do. Session 35's book
//!   searched every leaf to depth 16 wherever it was: an expanded child's value then came
//!   from searches stopping a ply (or two) later than its unexpanded siblings', and this
//!   evaluation's values swing by several discs with the parity of the ply a search stops at,
//!   so its expanded positions chose among their moves by which children happened to be
//!   expanded (docs/strength.md, session 36).
//! * An expanded node's value is the **negamax** of its children's: the best of their
//!   negated values, and its move the child that gives it (the first in sorted cell order on
//!   a tie).
//! * Then **best first** (drop-out expansion): the cost of a position is the least, over the
//!   book's paths to it from a position at `full_plies`, of what each move on the path loses
//!   against the best move there (in the evaluation's units), plus [`PLY_COST`] a ply. The
//!   cheapest leaves are expanded, [`BATCH`] at a time, until the book holds `positions`
//!   positions: the lines the two sides are expected to play, deepest first.
//!
//! Deterministic: the same configuration and search give the same bytes, whatever the
//! number of threads (each batch is fixed before it is searched, every leaf searched alone
//! from an empty table, and the results gathered by position).
//!
//! # The file (`PLYBOOK2`)
//! ```text
//! magic "PLYBOOK2" | evaluation: u64 | depth: u32 | count: u32 | count x entry (20 bytes)
//!     | FNV-1a 64 of all before: u64
//! entry: own: u64 | opp: u64 | value: i16 | move: u8 | depth: u8        (little-endian)
//! ```
//! `evaluation` and `depth` say what labelled the leaves ([`Labels`]): the
//! [`evaluation_fingerprint`] of the evaluation searched with (its weights and ProbCut's
//! table) and the deepest leaf search's depth; every leaf's `depth` plus its plies from the
//! start (its discs less 4) is the same, the book's horizon. A book whose
//! fingerprint is not the compiled evaluation's still reads (its moves are that
//! evaluation's); [`Book::made_by_another_evaluation`] says so, and a test fails when the
//! committed book is in that case. Format 1 (`PLYBOOK1`, session 34) had no such header; it
//! is refused with [`ReadBookError::OldFormat`], and [`Book::from_format1`] converts one.
//!
//! `own`/`opp` are the discs of the side to move and of the other side in the position's
//! **normal form**: the least `(own, opp)` of its eight images. Entries are sorted by it,
//! without repeats. `value` is for the side to move, in the evaluation's units (1/100 disc),
//! `+-30000` for a proved win or loss. `move` is the cell (`row * 8 + col`) in the normal
//! form, [`PASS`] or [`NO_MOVE`] (a finished game); `depth` is the leaf search's depth, 0
//! for an expanded position. [`Book::from_bytes`] checks all of it and says what is wrong.

use std::collections::{BTreeSet, HashMap};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use ply_core::{Game, Score};

use super::board::Othello;
use super::eight::legal;
use super::moves::Place;

/// The file's first bytes; a new layout gets a new number.
pub const MAGIC: &[u8; 8] = b"PLYBOOK2";
/// The first bytes of format 1, which recorded nothing of the evaluation that labelled it.
pub const MAGIC_1: &[u8; 8] = b"PLYBOOK1";
/// The move byte of a pass.
pub const PASS: u8 = 64;
/// The move byte of a finished game (a leaf with no move).
pub const NO_MOVE: u8 = 255;
/// Bytes per entry.
const ENTRY_BYTES: usize = 20;
/// Bytes before the entries: the magic, the evaluation's fingerprint, the depth, the count.
const HEAD_BYTES: usize = 24;
/// Bytes before the entries in format 1: the magic and the count.
const HEAD_BYTES_1: usize = 12;
/// The value of a proved win (a proved loss is its negation).
pub const PROVED: i16 = 30_000;
/// What one ply down a line adds to its cost in best-first expansion: one disc, so a line
/// is followed a ply deeper before a reply that loses more than a disc is looked at.
pub const PLY_COST: i64 = 100;
/// Leaves expanded at once in best-first expansion: enough children to keep a few threads
/// busy, few enough that every batch follows the values of the last.
pub const BATCH: usize = 4;

/// The image of a board under symmetry `t` (0..8): the diagonal flip when bit 2 is set,
/// then the horizontal one when bit 1 is, then the vertical one when bit 0 is.
pub fn transform(b: u64, t: u8) -> u64 {
    let mut b = b;
    if t & 4 != 0 {
        b = transpose(b);
    }
    if t & 2 != 0 {
        b = mirror_columns(b);
    }
    if t & 1 != 0 {
        b = b.swap_bytes();
    }
    b
}

/// The board whose image under symmetry `t` is `b`.
pub fn untransform(b: u64, t: u8) -> u64 {
    let mut b = b;
    if t & 1 != 0 {
        b = b.swap_bytes();
    }
    if t & 2 != 0 {
        b = mirror_columns(b);
    }
    if t & 4 != 0 {
        b = transpose(b);
    }
    b
}

/// Column `c` to column `7 - c` (each byte is a row).
fn mirror_columns(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Cell (`r`, `c`) to (`c`, `r`).
fn transpose(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let t = K4 & (x ^ (x << 28));
    let x = x ^ t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    let x = x ^ t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The normal form of the position `(own, opp)` and the first symmetry that gives it.
pub fn normalise(own: u64, opp: u64) -> ((u64, u64), u8) {
    (0..8u8)
        .map(|t| ((transform(own, t), transform(opp, t)), t))
        .min_by_key(|&(key, t)| (key, t))
        .expect("eight symmetries")
}

/// A book position's key: its normal form.
pub fn key_of(state: &Othello) -> (u64, u64) {
    normalise(state.own, state.opp).0
}

/// One position of a book, in its normal form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Discs of the side to move.
    pub own: u64,
    /// Discs of the other side.
    pub opp: u64,
    /// The negamax value for the side to move, 1/100 disc; `+-`[`PROVED`] when proved.
    pub value: i16,
    /// The move in the normal form: a cell, [`PASS`] or [`NO_MOVE`].
    pub mv: u8,
    /// The leaf search's depth; 0 for an expanded position (its value is its children's).
    pub depth: u8,
}

impl Entry {
    /// Whether the position's value comes from its children.
    pub fn is_expanded(&self) -> bool {
        self.depth == 0
    }

    /// The position, with `turn` as the seat to move.
    pub fn position(&self, turn: ply_core::Seat) -> Othello {
        let (black, white) = if turn == ply_core::Seat::FIRST {
            (self.own, self.opp)
        } else {
            (self.opp, self.own)
        };
        Othello::from_discs(black, white, turn)
    }
}

/// Every position `plies` plies from the start, once per line that reaches it (what a
/// book must hold for openings of `plies` random moves: the ladder's are 4).
pub fn positions_after(plies: u32) -> Vec<Othello> {
    let mut layer = vec![Othello::start()];
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut next = Vec::new();
        for s in &layer {
            s.legal_moves(&mut moves);
            for &m in &moves {
                let mut c = *s;
                c.play_unchecked(m);
                next.push(c);
            }
        }
        layer = next;
    }
    layer
}

/// What labelled a book's leaves: recorded in its file, so that a book made by another
/// evaluation than the compiled one is noticed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Labels {
    /// The [`evaluation_fingerprint`] of the evaluation the leaves were searched with.
    pub evaluation: u64,
    /// The deepest leaf search's depth, that of the leaves nearest the start (1 to 60; 0
    /// only in a book without leaves); a leaf a ply further is searched a ply less.
    pub depth: u32,
}

impl Labels {
    /// Labels by the compiled evaluation at `depth`.
    pub fn compiled(depth: u32) -> Labels {
        Labels {
            evaluation: evaluation_fingerprint(),
            depth,
        }
    }
}

/// A fingerprint of the evaluation the bot searches with: the FNV-1a hash of the committed
/// pattern weights' bytes ([`super::pattern::WEIGHTS_FILE`]) and of ProbCut's parameters at
/// every number of empties and every depth ([`super::probcut::params`]: its fitted table,
/// threshold, buckets and depth pairs). A book labelled with other weights or another
/// ProbCut has another fingerprint. It does not cover the search's code (move ordering,
/// pruning): a change there that changes fixed-depth results goes unnoticed.
pub fn evaluation_fingerprint() -> u64 {
    static FINGERPRINT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *FINGERPRINT.get_or_init(|| {
        let mut bytes = super::pattern::WEIGHTS_FILE.to_vec();
        for empties in 0..=60 {
            for depth in 0..=60 {
                match super::probcut::params(empties, depth) {
                    None => bytes.push(0),
                    Some(p) => {
                        bytes.push(1);
                        bytes.extend_from_slice(&p.shallow.to_le_bytes());
                        for x in [p.a, p.b, p.sigma, p.t] {
                            bytes.extend_from_slice(&x.to_bits().to_le_bytes());
                        }
                    }
                }
            }
        }
        fnv1a(&bytes)
    })
}

/// What a book says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found {
    /// The move to play in the position as asked (not its normal form); `None` when the
    /// game is over.
    pub mv: Option<Place>,
    /// The value for the side to move, 1/100 disc.
    pub value: i16,
    /// The leaf search's depth, 0 for an expanded position.
    pub depth: u8,
}

/// A book file that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadBookError {
    /// Not a book, or a book of a version this build does not know.
    #[error("not an Othello book: the file does not start with {:?}", std::str::from_utf8(MAGIC).unwrap_or_default())]
    Magic,
    /// A book of format 1, which does not say what evaluation labelled it.
    #[error(
        "an Othello book of format 1 (PLYBOOK1), which does not record the evaluation that labelled it: convert it with `ply book convert othello` (it checks the book against this build's evaluation) or rebuild it with `ply book build othello`"
    )]
    OldFormat,
    /// The header's depth is out of range.
    #[error("the book's header gives its leaves depth {0}; a depth is 1 to 60")]
    Depth(u32),
    /// Fewer or more bytes than the header's count says.
    #[error(
        "the book is {found} bytes; its header's {count} positions make {expected}: the file is truncated or has bytes after its end"
    )]
    Length {
        /// The file's size.
        found: usize,
        /// The positions the header counts.
        count: u32,
        /// The size they make.
        expected: usize,
    },
    /// The checksum does not match.
    #[error("the book's checksum does not match its contents: the file is corrupt")]
    Checksum,
    /// An entry that cannot be right.
    #[error("position {index} of the book: {reason}")]
    Entry {
        /// Its index in the file, from 0.
        index: usize,
        /// What is wrong.
        reason: String,
    },
}

/// An opening book: positions in their normal form, sorted, and what labelled them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    labels: Labels,
    entries: Vec<Entry>,
}

impl Book {
    /// The book of these entries, sorted by position, labelled as `labels` says.
    ///
    /// # Errors
    /// As [`Book::from_bytes`]: a depth out of range, an entry out of its normal form,
    /// repeated, whose move is not legal, or a leaf of another depth than `labels`'.
    pub fn new(mut entries: Vec<Entry>, labels: Labels) -> Result<Book, ReadBookError> {
        entries.sort_by_key(|e| (e.own, e.opp));
        check_entries(&entries, labels.depth)?;
        Ok(Book { labels, entries })
    }

    /// Reads a book file, checking its magic, length, checksum, header and every entry (its
    /// position in normal form and sorted, its move legal, a leaf's depth the header's).
    ///
    /// # Errors
    /// A [`ReadBookError`] saying what is wrong; [`ReadBookError::OldFormat`] for a book of
    /// format 1 (convert it with [`Book::from_format1`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, ReadBookError> {
        if bytes.starts_with(MAGIC_1) {
            return Err(ReadBookError::OldFormat);
        }
        if !bytes.starts_with(MAGIC) {
            return Err(ReadBookError::Magic);
        }
        let (head, entries) = read_body(bytes, HEAD_BYTES)?;
        let labels = Labels {
            evaluation: u64::from_le_bytes(head[8..16].try_into().expect("8 bytes")),
            depth: u32::from_le_bytes(head[16..20].try_into().expect("4 bytes")),
        };
        check_entries(&entries, labels.depth)?;
        Ok(Book { labels, entries })
    }

    /// Reads a book file of format 1 (`PLYBOOK1`, which recorded nothing of what labelled
    /// it) as labelled by `evaluation` at its leaves' depth, checked as [`Book::from_bytes`]
    /// checks. Whether `evaluation` did label it is the caller's to check (`ply book convert`
    /// searches a sample of its leaves again).
    ///
    /// # Errors
    /// A [`ReadBookError`] saying what is wrong; [`ReadBookError::Magic`] if it is not of
    /// format 1.
    pub fn from_format1(bytes: &[u8], evaluation: u64) -> Result<Book, ReadBookError> {
        if !bytes.starts_with(MAGIC_1) {
            return Err(ReadBookError::Magic);
        }
        let (_, entries) = read_body(bytes, HEAD_BYTES_1)?;
        let depth = entries
            .iter()
            .filter(|e| !e.is_expanded())
            .map(|e| u32::from(e.depth))
            .max()
            .unwrap_or(0);
        let labels = Labels { evaluation, depth };
        check_entries(&entries, depth)?;
        Ok(Book { labels, entries })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEAD_BYTES + self.entries.len() * ENTRY_BYTES + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.labels.evaluation.to_le_bytes());
        out.extend_from_slice(&self.labels.depth.to_le_bytes());
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.own.to_le_bytes());
            out.extend_from_slice(&e.opp.to_le_bytes());
            out.extend_from_slice(&e.value.to_le_bytes());
            out.push(e.mv);
            out.push(e.depth);
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// What labelled the leaves.
    pub fn labels(&self) -> Labels {
        self.labels
    }

    /// Whether the leaves were labelled by another evaluation than the compiled one (their
    /// fingerprints differ): the book's moves are then that evaluation's, not the bot's.
    pub fn made_by_another_evaluation(&self) -> bool {
        self.labels.evaluation != evaluation_fingerprint()
    }

    /// The positions, sorted.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// How many positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entry of a position given by its normal form.
    pub fn entry(&self, key: (u64, u64)) -> Option<&Entry> {
        self.entries
            .binary_search_by_key(&key, |e| (e.own, e.opp))
            .ok()
            .map(|i| &self.entries[i])
    }

    /// What the book says about `state`, under whichever symmetry it is stored.
    pub fn lookup(&self, state: &Othello) -> Option<Found> {
        let (key, t) = normalise(state.own, state.opp);
        let e = self.entry(key)?;
        let mv = match e.mv {
            NO_MOVE => None,
            PASS => Some(Place::PASS),
            cell => {
                let bit = untransform(1u64 << cell, t);
                Some(Place::from_index(bit.trailing_zeros() as usize, 8))
            }
        };
        Some(Found {
            mv,
            value: e.value,
            depth: e.depth,
        })
    }

    /// The book's move in `state`, if it holds the position and the game goes on.
    pub fn book_move(&self, state: &Othello) -> Option<Place> {
        self.lookup(state)?.mv
    }
}

impl crate::OpeningBook<Othello> for Book {
    fn book_move(&self, state: &Othello) -> Option<Place> {
        Book::book_move(self, state)
    }

    fn positions(&self) -> usize {
        self.len()
    }

    fn mismatch(&self) -> Option<String> {
        self.made_by_another_evaluation().then(|| {
            format!(
                "the book was labelled by another evaluation than this build's (fingerprint {:016x}, this build's {:016x}): its moves are that evaluation's",
                self.labels.evaluation,
                evaluation_fingerprint()
            )
        })
    }
}

/// A file's header (`head` bytes, the magic first) and entries, its length and checksum
/// checked; the entries are not.
fn read_body(bytes: &[u8], head: usize) -> Result<(&[u8], Vec<Entry>), ReadBookError> {
    let count = bytes
        .get(head - 4..head)
        .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")));
    let count = count.ok_or(ReadBookError::Length {
        found: bytes.len(),
        count: 0,
        expected: head + 8,
    })?;
    let expected = head + count as usize * ENTRY_BYTES + 8;
    if bytes.len() != expected {
        return Err(ReadBookError::Length {
            found: bytes.len(),
            count,
            expected,
        });
    }
    let body = expected - 8;
    let sum = u64::from_le_bytes(bytes[body..].try_into().expect("8 bytes"));
    if sum != fnv1a(&bytes[..body]) {
        return Err(ReadBookError::Checksum);
    }
    let entries = bytes[head..body]
        .chunks_exact(ENTRY_BYTES)
        .map(|c| Entry {
            own: u64::from_le_bytes(c[0..8].try_into().expect("8 bytes")),
            opp: u64::from_le_bytes(c[8..16].try_into().expect("8 bytes")),
            value: i16::from_le_bytes([c[16], c[17]]),
            mv: c[18],
            depth: c[19],
        })
        .collect();
    Ok((&bytes[..head], entries))
}

/// A position's plies from the start, counted by its discs (a pass does not count).
pub fn plies(own: u64, opp: u64) -> u32 {
    (own | opp).count_ones().saturating_sub(4)
}

/// Checks sorted `entries` whose deepest leaf search went to `depth`, all to one horizon.
fn check_entries(entries: &[Entry], depth: u32) -> Result<(), ReadBookError> {
    if depth > 60 {
        return Err(ReadBookError::Depth(depth));
    }
    let mut horizon = None;
    for (index, e) in entries.iter().enumerate() {
        let before = index.checked_sub(1).map(|i| &entries[i]);
        let error = |reason| ReadBookError::Entry { index, reason };
        check_entry(e, before, depth).map_err(error)?;
        if !e.is_expanded() {
            let h = u32::from(e.depth) + plies(e.own, e.opp);
            match horizon {
                None => horizon = Some(h),
                Some(first) if first != h => {
                    return Err(error(format!(
                        "a leaf {} plies from the start searched to depth {}, so to {h} plies, where the book's first leaf reaches {first}: a book's leaves share one horizon (a book of session 35 or before did not: rebuild it with `ply book build othello`)",
                        plies(e.own, e.opp),
                        e.depth
                    )));
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// What is wrong with `e` (after `before` in the file, in a book whose leaves were searched
/// to `depth`), if anything.
fn check_entry(e: &Entry, before: Option<&Entry>, depth: u32) -> Result<(), String> {
    if e.own & e.opp != 0 {
        return Err("a cell holds both colours".into());
    }
    if normalise(e.own, e.opp).0 != (e.own, e.opp) {
        return Err("the position is not in its normal form".into());
    }
    if let Some(b) = before
        && (b.own, b.opp) >= (e.own, e.opp)
    {
        return Err("the positions are not sorted, or one is repeated".into());
    }
    if e.value.unsigned_abs() > PROVED as u16 {
        return Err(format!("value {} is beyond +-{PROVED}", e.value));
    }
    if !e.is_expanded() && u32::from(e.depth) > depth {
        return Err(format!(
            "a leaf searched to depth {}, deeper than the header's {depth}",
            e.depth
        ));
    }
    let mine = legal(e.own, e.opp);
    let theirs = legal(e.opp, e.own);
    let ok = match e.mv {
        PASS => mine == 0 && theirs != 0,
        NO_MOVE => mine == 0 && theirs == 0,
        cell if cell < 64 => mine & (1u64 << cell) != 0,
        _ => false,
    };
    if ok {
        Ok(())
    } else {
        Err(format!("move {} is not legal in the position", e.mv))
    }
}

/// The 64-bit FNV-1a hash: the file's checksum, and [`evaluation_fingerprint`]'s hash.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A search's score as a book value: proved results at `+-`[`PROVED`], others clamped below.
pub fn book_value(score: Score) -> i16 {
    if score.is_proven() {
        if score > Score::DRAW { PROVED } else { -PROVED }
    } else {
        score.0.clamp(-i32::from(PROVED) + 1, i32::from(PROVED) - 1) as i16
    }
}

/// The committed book (`crates/games/data/othello-book.bin`, made by `ply book build
/// othello` as `othello-book.md` says), read once.
///
/// # Panics
/// If the committed file does not read: a test checks that it does.
pub fn committed() -> &'static Book {
    static BOOK: std::sync::OnceLock<Book> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        Book::from_bytes(include_bytes!("../../data/othello-book.bin"))
            .expect("the committed book reads (tested)")
    })
}

/// How [`build`] makes a book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildConfig {
    /// Depth of the search of each leaf `full_plies + 1` plies from the start; a leaf `n`
    /// plies further is searched `n` plies less (one horizon for every leaf).
    pub depth: u32,
    /// Every position reached in at most this many plies is expanded.
    pub full_plies: u32,
    /// The most positions the book may hold; best-first expansion stops before it would
    /// hold more.
    pub positions: usize,
    /// Threads searching leaves at once (the result does not depend on it).
    pub threads: usize,
    /// The [`evaluation_fingerprint`] of the evaluation the leaf search uses, recorded in
    /// the book.
    pub evaluation: u64,
}

/// A book that cannot be built as configured.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BuildBookError {
    /// The positions of the first plies alone are more than allowed.
    #[error(
        "expanding every position of the first {full_plies} plies takes {needed} positions; allow at least that many"
    )]
    TooFewPositions {
        /// The configured plies.
        full_plies: u32,
        /// The positions they need.
        needed: usize,
    },
}

/// A position of the book being built.
#[derive(Clone, Debug)]
struct Node {
    value: i16,
    mv: u8,
    depth: u8,
    /// The children's keys and the move to each, in the normal form; set once expanded.
    children: Option<Vec<(u8, (u64, u64))>>,
}

/// The position of `key` (the side to move as black: the book ignores colours).
fn position(key: (u64, u64)) -> Othello {
    Othello::from_discs(key.0, key.1, ply_core::Seat::FIRST)
}

/// The children of `key`: each move in the normal form, with the child's key.
fn children(key: (u64, u64)) -> Vec<(u8, (u64, u64))> {
    let state = position(key);
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut next = state;
            next.play_unchecked(mv);
            let byte = mv.cell().map_or(PASS, |(r, c)| (r * 8 + c) as u8);
            (byte, key_of(&next))
        })
        .collect()
}

/// Makes a book as the module's header says. `search(state, depth)` labels a leaf: the
/// value for the side to move and its move (`None` only when the game is over);
/// `new_search` makes one per thread. `progress(positions)` is called after each batch.
///
/// # Errors
/// [`BuildBookError::TooFewPositions`] when `positions` cannot hold the first plies.
pub fn build<S, N, P>(
    config: &BuildConfig,
    new_search: N,
    mut progress: P,
) -> Result<Book, BuildBookError>
where
    S: FnMut(&Othello, u32) -> (Score, Option<Place>),
    N: Fn() -> S + Sync,
    P: FnMut(usize),
{
    let root = key_of(&Othello::start());
    // The positions of each ply up to `full_plies`, all expanded.
    let mut frontier: BTreeSet<(u64, u64)> = BTreeSet::from([root]);
    let mut expand: Vec<(u64, u64)> = Vec::new();
    let mut roots = BTreeSet::new();
    for ply in 0..=config.full_plies {
        expand.extend(frontier.iter().copied());
        if ply == config.full_plies {
            roots = frontier.clone();
            break;
        }
        frontier = frontier
            .iter()
            .flat_map(|&k| children(k))
            .map(|(_, k)| k)
            .collect();
    }
    let mut nodes: HashMap<(u64, u64), Node> = HashMap::new();
    let mut leaves: BTreeSet<(u64, u64)> = BTreeSet::new();
    for &k in &expand {
        let kids = children(k);
        leaves.extend(kids.iter().map(|&(_, c)| c));
        nodes.insert(
            k,
            Node {
                value: 0,
                mv: NO_MOVE,
                depth: 0,
                children: Some(kids),
            },
        );
    }
    leaves.retain(|k| !nodes.contains_key(k));
    let needed = nodes.len() + leaves.len();
    if needed > config.positions {
        return Err(BuildBookError::TooFewPositions {
            full_plies: config.full_plies,
            needed,
        });
    }
    search_leaves(config, &new_search, &leaves, &mut nodes);
    progress(nodes.len());
    loop {
        let values = negamax(&nodes, &expand);
        for (k, (v, mv)) in values {
            let n = nodes.get_mut(&k).expect("an expanded node");
            n.value = v;
            n.mv = mv;
        }
        let chosen = cheapest_leaves(&nodes, &roots);
        let mut new = BTreeSet::new();
        let mut grown = Vec::new();
        for k in chosen {
            let kids = children(k);
            let fresh: BTreeSet<_> = kids
                .iter()
                .map(|&(_, c)| c)
                .filter(|c| !nodes.contains_key(c) && !new.contains(c))
                .collect();
            if nodes.len() + new.len() + fresh.len() > config.positions {
                break;
            }
            new.extend(fresh);
            grown.push((k, kids));
        }
        if grown.is_empty() {
            break;
        }
        for (k, kids) in grown {
            let n = nodes.get_mut(&k).expect("a leaf of the book");
            n.depth = 0;
            n.children = Some(kids);
            expand.push(k);
        }
        search_leaves(config, &new_search, &new, &mut nodes);
        progress(nodes.len());
    }
    let entries = nodes
        .into_iter()
        .map(|((own, opp), n)| Entry {
            own,
            opp,
            value: n.value,
            mv: n.mv,
            depth: n.depth,
        })
        .collect();
    let labels = Labels {
        evaluation: config.evaluation,
        depth: config.depth.clamp(1, 60),
    };
    Ok(Book::new(entries, labels).expect("a built book is well formed"))
}

/// The depth `key`'s leaf search goes to: `config.depth` at `full_plies + 1` plies from the
/// start, a ply less a ply further (at least 1: best-first expansion expands no leaf of depth
/// 1, so every leaf of a book reaches the same horizon).
pub fn leaf_depth(config: &BuildConfig, key: (u64, u64)) -> u32 {
    let horizon = config.depth.clamp(1, 60) + config.full_plies + 1;
    horizon.saturating_sub(plies(key.0, key.1)).clamp(1, 60)
}

/// Searches every position of `keys` on `config.threads` threads and adds them as leaves.
fn search_leaves<S, N>(
    config: &BuildConfig,
    new_search: &N,
    keys: &BTreeSet<(u64, u64)>,
    nodes: &mut HashMap<(u64, u64), Node>,
) where
    S: FnMut(&Othello, u32) -> (Score, Option<Place>),
    N: Fn() -> S + Sync,
{
    let keys: Vec<_> = keys.iter().copied().collect();
    let next = AtomicUsize::new(0);
    let found = Mutex::new(Vec::with_capacity(keys.len()));
    std::thread::scope(|scope| {
        for _ in 0..config.threads.clamp(1, keys.len().max(1)) {
            scope.spawn(|| {
                let mut search = new_search();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&key) = keys.get(i) else { break };
                    let depth = leaf_depth(config, key);
                    let (score, mv) = search(&position(key), depth);
                    let byte = match mv {
                        None => NO_MOVE,
                        Some(m) => m.cell().map_or(PASS, |(r, c)| (r * 8 + c) as u8),
                    };
                    found.lock().expect("no thread panics holding it").push((
                        key,
                        Node {
                            value: book_value(score),
                            mv: byte,
                            depth: depth as u8,
                            children: None,
                        },
                    ));
                }
            });
        }
    });
    nodes.extend(found.into_inner().expect("no thread panicked holding it"));
}

/// The negamax value and move of every expanded node of `expanded` (the leaves keep their
/// search's), computed over the book as it stands.
fn negamax(
    nodes: &HashMap<(u64, u64), Node>,
    expanded: &[(u64, u64)],
) -> Vec<((u64, u64), (i16, u8))> {
    fn value_of(
        k: (u64, u64),
        nodes: &HashMap<(u64, u64), Node>,
        memo: &mut HashMap<(u64, u64), (i16, u8)>,
    ) -> (i16, u8) {
        if let Some(&v) = memo.get(&k) {
            return v;
        }
        let n = &nodes[&k];
        let v = match &n.children {
            None => (n.value, n.mv),
            Some(kids) if kids.is_empty() => (n.value, NO_MOVE),
            Some(kids) => {
                let mut best = (i16::MIN, NO_MOVE);
                for &(mv, c) in kids {
                    let v = -value_of(c, nodes, memo).0;
                    if v > best.0 {
                        best = (v, mv);
                    }
                }
                best
            }
        };
        memo.insert(k, v);
        v
    }
    let mut memo = HashMap::new();
    expanded
        .iter()
        .map(|&k| (k, value_of(k, nodes, &mut memo)))
        .collect()
}

/// The leaves to expand next: the [`BATCH`] cheapest (see the module's header) that have
/// a move, reached from `roots`; the cost, then the key, breaks ties.
fn cheapest_leaves(
    nodes: &HashMap<(u64, u64), Node>,
    roots: &BTreeSet<(u64, u64)>,
) -> Vec<(u64, u64)> {
    // A move adds a disc, or passes to a side that has a move: this order never goes back.
    let level = |k: &(u64, u64)| 2 * (k.0 | k.1).count_ones() + u32::from(legal(k.0, k.1) != 0);
    let mut cost: HashMap<(u64, u64), i64> = roots.iter().map(|&k| (k, 0)).collect();
    let mut order: Vec<(u64, u64)> = nodes.keys().copied().collect();
    order.sort_by_key(|k| (level(k), *k));
    let mut leaves = Vec::new();
    for k in order {
        let Some(&c) = cost.get(&k) else { continue };
        let n = &nodes[&k];
        match &n.children {
            // A leaf of depth 1 is not expanded: its children would be searched to depth 0.
            None if n.mv != NO_MOVE && n.depth > 1 => leaves.push((c, k)),
            None => {}
            Some(kids) => {
                for &(_, child) in kids {
                    let loss = i64::from(n.value) + i64::from(nodes[&child].value);
                    let through = c + loss.max(0) + PLY_COST;
                    let e = cost.entry(child).or_insert(i64::MAX);
                    *e = (*e).min(through);
                }
            }
        }
    }
    leaves.sort_unstable();
    leaves.into_iter().take(BATCH).map(|(_, k)| k).collect()
}

#[cfg(test)]
mod tests;
