//! Facts an opening book must satisfy: symmetries, the file's checks, negamax, and a small
//! build against a direct search.

use ply_core::{Budget, Game, Seat};
use ply_search::{AlphaBeta, Config};

use super::*;
use crate::reversi::{CornersFirst, IndexedOthello, OthelloEval};

/// The leaf search the CLI runs: the bot's evaluation and ordering with ProbCut, from an
/// empty table, to a fixed depth.
fn leaf_search() -> impl FnMut(&Othello, u32) -> (Score, Option<Place>) {
    let mut search = AlphaBeta::with(
        OthelloEval::Pattern,
        CornersFirst,
        Config {
            tt_bytes: 1 << 20,
            probcut: true,
            ..Config::default()
        },
    );
    move |state, depth| {
        search.clear();
        let r = search.search(&IndexedOthello::from(*state), Budget::depth(depth));
        (r.score, r.best)
    }
}

fn small(threads: usize) -> Book {
    let config = BuildConfig {
        depth: 3,
        full_plies: 2,
        positions: 60,
        threads,
        evaluation: evaluation_fingerprint(),
    };
    build(&config, leaf_search, |_| {}).unwrap()
}

#[test]
fn the_symmetries_move_cells_as_named_and_undo_each_other() {
    for r in 0..8 {
        for c in 0..8 {
            let cell = |r: usize, c: usize| 1u64 << (r * 8 + c);
            assert_eq!(transform(cell(r, c), 1), cell(7 - r, c));
            assert_eq!(transform(cell(r, c), 2), cell(r, 7 - c));
            assert_eq!(transform(cell(r, c), 4), cell(c, r));
        }
    }
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..100 {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        let images: BTreeSet<u64> = (0..8).map(|t| transform(x, t)).collect();
        for t in 0..8 {
            assert_eq!(untransform(transform(x, t), t), x, "t {t}");
            assert_eq!(transform(x, t).count_ones(), x.count_ones());
        }
        // A random board has eight different images: the eight are the whole group.
        assert_eq!(images.len(), 8, "{x:#x}");
    }
}

#[test]
fn a_small_build_gives_the_same_bytes_on_one_thread_and_two() {
    let one = small(1);
    let two = small(2);
    assert!(one.len() > 20 && one.len() <= 60, "{} positions", one.len());
    assert_eq!(one.to_bytes(), two.to_bytes());
}

#[test]
fn a_small_build_s_leaves_are_a_direct_search_and_its_inner_values_their_negamax() {
    let book = small(2);
    let mut search = leaf_search();
    let (mut leaves, mut inner) = (0, 0);
    for e in book.entries() {
        let state = e.position(Seat::FIRST);
        if e.is_expanded() {
            inner += 1;
            let kids = children((e.own, e.opp));
            let mut best = (i16::MIN, NO_MOVE);
            for (mv, k) in kids {
                let child = book
                    .entry(k)
                    .expect("an expanded position's children are in the book");
                if -child.value > best.0 {
                    best = (-child.value, mv);
                }
            }
            assert_eq!((e.value, e.mv), best, "{state}");
        } else {
            leaves += 1;
            // One horizon: depth 3 at 3 plies (full_plies + 1), a ply less a ply further.
            assert_eq!(u32::from(e.depth) + plies(e.own, e.opp), 6, "{state}");
            let (score, mv) = search(&state, u32::from(e.depth));
            assert_eq!(e.value, book_value(score), "{state}");
            assert_eq!(book.book_move(&state), mv, "{state}");
        }
    }
    // The first two plies are expanded (1 + 1 + 3 positions), and best-first went on.
    assert!(inner > 5, "{inner} expanded");
    assert!(leaves > 10, "{leaves} leaves");
}

/// Session 35's book searched every leaf to one depth wherever it was, so an expanded
/// position's value came from searches stopping a ply later than its unexpanded siblings'
/// (its committed positions of 5 plies came out 4.5 discs above a direct search of them, all
/// 69 of them above: docs/strength.md, session 36). Now every leaf stops at one horizon, so
/// an expanded position's value and move are those of one search of it to that horizon: the
/// negamax of a tree whose leaves are searched to the horizon is alpha-beta's value (the
/// search here has no ProbCut, whose cuts depend on the depth left, so that the two agree
/// exactly).
#[test]
fn an_expanded_position_s_value_is_a_direct_search_to_the_book_s_horizon() {
    let plain = || {
        let mut search = AlphaBeta::with(
            OthelloEval::Pattern,
            CornersFirst,
            Config {
                tt_bytes: 1 << 20,
                ..Config::default()
            },
        );
        move |state: &Othello, depth: u32| {
            search.clear();
            let r = search.search(&IndexedOthello::from(*state), Budget::depth(depth));
            (r.score, r.best)
        }
    };
    let config = BuildConfig {
        depth: 3,
        full_plies: 1,
        positions: 80,
        threads: 2,
        evaluation: evaluation_fingerprint(),
    };
    let book = build(&config, plain, |_| {}).unwrap();
    let mut search = plain();
    let horizon = 3 + 1 + 1;
    let mut deeper = 0;
    for e in book.entries().iter().filter(|e| e.is_expanded()) {
        let p = plies(e.own, e.opp);
        let state = e.position(Seat::FIRST);
        let (score, mv) = search(&state, horizon - p);
        assert_eq!(e.value, book_value(score), "{state} at {p} plies");
        // The move may differ only between moves of the same value.
        let chosen = book.lookup(&state).unwrap().mv.unwrap();
        if mv != Some(chosen) {
            let value_after = |m: Place| {
                let mut c = state;
                c.play_unchecked(m);
                -book.lookup(&c).unwrap().value
            };
            assert_eq!(value_after(chosen), value_after(mv.unwrap()), "{state}");
        }
        deeper += usize::from(p > config.full_plies);
    }
    // Best-first expanded positions past the first plies: their children are leaves a ply
    // shallower than their siblings'.
    assert!(deeper > 3, "{deeper} expanded past the first plies");
}

#[test]
fn every_book_move_is_legal_and_lookups_agree_under_the_eight_symmetries() {
    for book in [small(1), committed().clone()] {
        let mut moves = Vec::new();
        for e in book.entries() {
            for turn in [Seat::FIRST, Seat::SECOND] {
                let base = e.position(turn);
                let found = book.lookup(&base).expect("the entry's own position");
                let after = |s: &Othello, m: Place| {
                    let mut c = *s;
                    c.play(m).expect("the book's move is legal");
                    key_of(&c)
                };
                let target = found.mv.map(|m| after(&base, m));
                for t in 0..8 {
                    let image = Othello::from_discs(
                        transform(base.discs(crate::reversi::Disc::Black), t),
                        transform(base.discs(crate::reversi::Disc::White), t),
                        turn,
                    );
                    let f = book.lookup(&image).expect("every image is found");
                    assert_eq!(f.value, found.value);
                    image.legal_moves(&mut moves);
                    if let Some(m) = f.mv {
                        assert!(moves.contains(&m), "{m} in {image}");
                    }
                    assert_eq!(f.mv.map(|m| after(&image, m)), target, "{image}");
                }
            }
        }
    }
}

#[test]
fn a_book_round_trips_and_a_damaged_file_is_refused_without_a_panic() {
    let book = small(1);
    let bytes = book.to_bytes();
    assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
    for n in 0..bytes.len() {
        assert!(Book::from_bytes(&bytes[..n]).is_err(), "truncated to {n}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Book::from_bytes(&longer),
        Err(ReadBookError::Length { .. })
    ));
    let mut magic = bytes.clone();
    magic[7] = b'3';
    assert_eq!(Book::from_bytes(&magic), Err(ReadBookError::Magic));
    // Every byte but the magic and the count is summed (those two are checked first).
    for i in (8..20).chain(24..bytes.len() - 8) {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0x10;
        assert_eq!(
            Book::from_bytes(&flipped),
            Err(ReadBookError::Checksum),
            "byte {i}"
        );
    }
    // A well-summed file with a bad entry: an illegal move, then two entries swapped.
    let mut entries = book.entries().to_vec();
    let e = entries[3];
    let illegal = (0..64u8)
        .find(|&c| legal(e.own, e.opp) & (1u64 << c) == 0)
        .unwrap();
    entries[3].mv = illegal;
    let labels = book.labels();
    let bad = Book { labels, entries }.to_bytes();
    let err = Book::from_bytes(&bad).unwrap_err();
    assert!(
        matches!(&err, ReadBookError::Entry { index: 3, reason } if reason.contains("not legal")),
        "{err}"
    );
    let mut entries = book.entries().to_vec();
    entries.swap(1, 2);
    let err = Book::from_bytes(&Book { labels, entries }.to_bytes()).unwrap_err();
    assert!(err.to_string().contains("not sorted"), "{err}");
    // A leaf deeper than the header's depth, one of another horizon than the first
    // leaf's, and a header's depth out of range.
    let mut entries = book.entries().to_vec();
    let leaf = entries.iter().position(|e| !e.is_expanded()).unwrap();
    entries[leaf].depth = 4;
    let err = Book::from_bytes(&Book { labels, entries }.to_bytes()).unwrap_err();
    assert!(
        matches!(&err, ReadBookError::Entry { index, reason } if *index == leaf && reason.contains("deeper than the header's 3")),
        "{err}"
    );
    let mut entries = book.entries().to_vec();
    let last = entries
        .iter()
        .rposition(|e| !e.is_expanded() && e.depth > 1)
        .unwrap();
    entries[last].depth -= 1;
    let err = Book::from_bytes(&Book { labels, entries }.to_bytes()).unwrap_err();
    assert!(
        matches!(&err, ReadBookError::Entry { index, reason } if *index == last && reason.contains("one horizon")),
        "{err}"
    );
    let deep = Labels {
        depth: 61,
        ..labels
    };
    let entries = book.entries().to_vec();
    let err = Book::from_bytes(
        &Book {
            labels: deep,
            entries,
        }
        .to_bytes(),
    )
    .unwrap_err();
    assert_eq!(err, ReadBookError::Depth(61));
}

#[test]
fn the_committed_book_reads_and_holds_every_position_of_four_and_five_plies() {
    let book = committed();
    for plies in [4, 5] {
        for state in positions_after(plies) {
            let found = book.lookup(&state);
            assert!(
                found.is_some_and(|f| f.mv.is_some()),
                "{state} ({plies} plies)"
            );
        }
    }
}

/// `book`'s entries in a file of format 1 (session 34's: magic, count, entries, checksum).
fn format1(book: &Book) -> Vec<u8> {
    let v2 = book.to_bytes();
    let mut out = MAGIC_1.to_vec();
    out.extend_from_slice(&v2[20..v2.len() - 8]);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn a_book_records_what_labelled_it_and_one_of_format_1_is_refused_until_converted() {
    let book = small(1);
    assert_eq!(book.labels(), Labels::compiled(3));
    assert!(!book.made_by_another_evaluation());
    let bytes = book.to_bytes();
    assert_eq!(&bytes[8..16], &evaluation_fingerprint().to_le_bytes());
    assert_eq!(&bytes[16..20], &3u32.to_le_bytes());
    let old = format1(&book);
    let err = Book::from_bytes(&old).unwrap_err();
    assert_eq!(err, ReadBookError::OldFormat);
    assert!(err.to_string().contains("ply book convert"), "{err}");
    // Converting keeps every entry and takes the leaves' depth.
    assert_eq!(
        Book::from_format1(&old, evaluation_fingerprint()).unwrap(),
        book
    );
    assert_eq!(
        Book::from_format1(&bytes, evaluation_fingerprint()),
        Err(ReadBookError::Magic)
    );
    // A book of another evaluation reads, and says so.
    let other = Book::new(
        book.entries().to_vec(),
        Labels {
            evaluation: evaluation_fingerprint() ^ 1,
            depth: 3,
        },
    )
    .unwrap();
    let other = Book::from_bytes(&other.to_bytes()).unwrap();
    assert!(other.made_by_another_evaluation());
    let why = crate::OpeningBook::mismatch(&other).unwrap();
    assert!(why.contains("another evaluation"), "{why}");
    assert_eq!(crate::OpeningBook::mismatch(&book), None);
}

#[test]
fn the_fingerprint_covers_the_weights_and_probcut() {
    // Recomputed from its parts: the weights file's bytes, then ProbCut's parameters.
    let weights = crate::reversi::pattern::WEIGHTS_FILE;
    assert!(weights.len() > 100_000);
    let fingerprint = evaluation_fingerprint();
    assert_ne!(fingerprint, fnv1a(weights), "ProbCut's table is hashed too");
    let mut changed = weights.to_vec();
    let last = changed.len() - 1;
    changed[last] ^= 1;
    assert_ne!(fnv1a(&changed), fnv1a(weights));
    // ProbCut is on somewhere (what the table adds is not nothing).
    assert!(crate::reversi::probcut::params(30, 10).is_some());
}

/// The command that rebuilds the committed book, from `othello-book.md`.
fn rebuild_command() -> String {
    let doc = include_str!("../../../data/othello-book.md");
    let at = doc
        .find("ply book build othello")
        .expect("othello-book.md gives the command");
    let start = doc[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = doc[at..].find("\n```").map_or(doc.len(), |i| at + i);
    doc[start..end]
        .replace("\\\n", "")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_committed_book_was_labelled_by_the_compiled_evaluation_at_its_documented_depth() {
    let book = committed();
    let command = rebuild_command();
    assert!(
        !book.made_by_another_evaluation(),
        "the committed book (crates/games/data/othello-book.bin) was labelled by another \
         evaluation (fingerprint {:016x}) than the compiled one ({:016x}): the weights or \
         ProbCut changed since it was made. Rebuild it (crates/games/data/othello-book.md): \
         cargo build --release -p ply-cli, then {command}",
        book.labels().evaluation,
        evaluation_fingerprint()
    );
    let depth = command
        .split_whitespace()
        .skip_while(|w| *w != "--depth")
        .nth(1)
        .and_then(|d| d.parse::<u32>().ok());
    assert_eq!(
        depth,
        Some(book.labels().depth),
        "othello-book.md's command ({command}) and the committed book's depth"
    );
    // Every leaf reaches the horizon the command gives: its depth at --full-plies + 1 plies
    // (the book of session 35 searched every leaf to depth 16 wherever it was, plies 5 to 7).
    let full_plies = command
        .split_whitespace()
        .skip_while(|w| *w != "--full-plies")
        .nth(1)
        .and_then(|d| d.parse::<u32>().ok())
        .expect("the command gives --full-plies");
    let horizon = book.labels().depth + full_plies + 1;
    let mut by_plies = BTreeSet::new();
    for e in book.entries().iter().filter(|e| !e.is_expanded()) {
        assert_eq!(u32::from(e.depth) + plies(e.own, e.opp), horizon, "{e:?}");
        by_plies.insert(plies(e.own, e.opp));
    }
    assert!(by_plies.len() > 1, "leaves at {by_plies:?} plies");
}
