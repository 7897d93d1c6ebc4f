//! The lazy-SMP search ([`AlphaBeta::search_parallel`]) on 8x8 Othello: whatever thread's
//! iteration it answers with, the answer is one a one-thread search of the same depth gives
//! where that is a fact (exact values, values at a fixed depth with the same-depth table),
//! whichever way the threads divide the work ([`SmpScheme`]).

use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::{Budget, Game};
use ply_games::reversi::{CornersFirst, IndexedOthello, Othello, OthelloEval, empties};
use ply_search::{AlphaBeta, Config, Deepening, SmpScheme, TtProbe};

/// `count` positions of seeded random play with `left` empty squares, not over.
fn positions(count: usize, left: u32, seed: u64) -> Vec<Othello> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut s = Othello::start();
        while s.outcome().is_none() && empties(&s) > left {
            s.legal_moves(&mut moves);
            s.play_unchecked(*moves.choose(&mut rng).expect("not over"));
        }
        if s.outcome().is_none() && empties(&s) == left && rng.random_bool(0.5) {
            out.push(s);
        }
    }
    out
}

/// Both ways of dividing the work: odd helpers a depth ahead, and one depth with moves
/// under search left for last (which reaches [`ply_search::DEFER_DEPTH`] at depth 5 here).
const SCHEMES: [SmpScheme; 2] = [SmpScheme::Ahead, SmpScheme::Defer];

fn search(threads: usize, config: Config) -> AlphaBeta<IndexedOthello, OthelloEval, CornersFirst> {
    AlphaBeta::with(
        OthelloEval::Pattern,
        CornersFirst,
        Config { threads, ..config },
    )
}

#[test]
fn two_and_three_threads_give_the_exact_value_of_one_thread_at_the_end() {
    // Searched to every end, each thread count must give the game-theoretic value, and a
    // move worth it.
    let config = Config {
        tt_bytes: 1 << 20,
        probcut: true,
        ..Config::default()
    };
    for s in positions(6, 9, 38) {
        let root = IndexedOthello::from(s);
        let one = search(1, config).search(&root, Budget::UNLIMITED);
        assert!(one.exact, "one thread solves 9 empties: {s}");
        for (threads, smp) in [2, 3].into_iter().flat_map(|t| SCHEMES.map(|m| (t, m))) {
            let config = Config { smp, ..config };
            let r = search(threads, config).search_parallel(&root, Budget::UNLIMITED);
            assert!(r.exact, "{threads} threads ({smp:?}): {s}");
            assert_eq!(r.score, one.score, "{threads} threads ({smp:?}): {s}");
            let mv = r.best.expect("a move");
            let mut legal = Vec::new();
            root.legal_moves(&mut legal);
            assert!(
                legal.contains(&mv),
                "{threads} threads ({smp:?}): {mv} is not legal in {s}"
            );
            let mut child = root;
            child.play_unchecked(mv);
            let v = search(1, config).search(&child, Budget::UNLIMITED);
            let worth = if child.to_move() == root.to_move() {
                v.score
            } else {
                -v.score
            };
            assert_eq!(
                worth.from_node(1),
                one.score,
                "{threads} threads ({smp:?}): {mv} from {s}"
            );
        }
    }
}

#[test]
fn two_threads_give_the_fixed_depth_value_of_one_thread() {
    // With the same-depth table and no ProbCut a depth-d value is plain negamax's, whichever
    // thread finished it and in whatever order its moves were searched: the helper a depth
    // ahead stores deeper entries, which this policy does not trust; a deferred move is
    // searched after the others instead of in its place; and the answer is the caller's or
    // a helper's depth-d iteration.
    let config = Config {
        tt_bytes: 1 << 20,
        probe: TtProbe::SameDepth,
        deepening: Deepening::Iterative,
        ..Config::default()
    };
    for s in positions(8, 40, 7) {
        let root = IndexedOthello::from(s);
        for (depth, smp) in [3, 4, 5].into_iter().flat_map(|d| SCHEMES.map(|m| (d, m))) {
            let one = search(1, config).search(&root, Budget::depth(depth));
            let two =
                search(2, Config { smp, ..config }).search_parallel(&root, Budget::depth(depth));
            assert_eq!(two.depth, depth, "{s}");
            assert_eq!(two.score, one.score, "depth {depth} ({smp:?}) from {s}");
            let mv = two.best.expect("a move");
            let mut legal = Vec::new();
            root.legal_moves(&mut legal);
            assert!(legal.contains(&mv), "{mv} is not legal in {s}");
        }
    }
}
