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
            assert_eq!(u32::from(e.depth), 3);
            let (score, mv) = search(&state, 3);
            assert_eq!(e.value, book_value(score), "{state}");
            assert_eq!(book.book_move(&state), mv, "{state}");
        }
    }
    // The first two plies are expanded (1 + 1 + 3 positions), and best-first went on.
    assert!(inner > 5, "{inner} expanded");
    assert!(leaves > 10, "{leaves} leaves");
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
    magic[7] = b'2';
    assert_eq!(Book::from_bytes(&magic), Err(ReadBookError::Magic));
    for i in 12..bytes.len() - 8 {
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
    let bad = Book { entries }.to_bytes();
    let err = Book::from_bytes(&bad).unwrap_err();
    assert!(
        matches!(&err, ReadBookError::Entry { index: 3, reason } if reason.contains("not legal")),
        "{err}"
    );
    let mut entries = book.entries().to_vec();
    entries.swap(1, 2);
    let err = Book::from_bytes(&Book { entries }.to_bytes()).unwrap_err();
    assert!(err.to_string().contains("not sorted"), "{err}");
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
