//! Every clever search returns exactly the value of plain negamax.
//!
//! Positions come from seeded random play in tic-tac-toe (with a heuristic evaluator, so that
//! depth-limited values are not trivial) and in a small take-away game rich in transpositions.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::{
    Budget, Evaluator, Game, GameInfo, MoveOrdering, NoOrdering, Outcome, ParseMoveError,
    ParseStateError, Score, Seat,
};
use ply_games::tictactoe::{Lines, TicTacToe};
use ply_search::{AlphaBeta, Config, Deepening, TtLayout, TtProbe, negamax, negamax_quiescent};

/// Take-away on three heaps: take 1 to 3 stones from one heap; whoever takes the last stone
/// wins. Many move orders reach the same heaps, so the transposition table is exercised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TakeAway {
    heaps: [u8; 3],
    mover: u8,
}

impl fmt::Display for TakeAway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.heaps[0], self.heaps[1], self.heaps[2], self.mover
        )
    }
}

impl FromStr for TakeAway {
    type Err = ParseStateError;
    fn from_str(s: &str) -> Result<Self, ParseStateError> {
        let n: Vec<u8> = s
            .split_whitespace()
            .map(|t| t.parse().map_err(|_| ParseStateError::new(1, 1, "number")))
            .collect::<Result<_, _>>()?;
        match n[..] {
            [a, b, c, m] if m < 2 => Ok(TakeAway {
                heaps: [a, b, c],
                mover: m,
            }),
            _ => Err(ParseStateError::new(1, 1, "four numbers")),
        }
    }
}

static INFO: GameInfo = GameInfo {
    name: "takeaway",
    title: "Take-away",
    seats: 2,
    max_plies: 60,
    summary: "test game",
};

/// Take `.1` stones from heap `.0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
struct Take(u8, u8);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.0, self.1)
    }
}

impl Game for TakeAway {
    type Move = Take;
    fn info() -> &'static GameInfo {
        &INFO
    }
    fn start() -> Self {
        TakeAway {
            heaps: [7, 6, 5],
            mover: 0,
        }
    }
    fn to_move(&self) -> Seat {
        Seat::new(self.mover)
    }
    fn legal_moves(&self, moves: &mut Vec<Take>) {
        moves.clear();
        for h in 0..3u8 {
            for take in 1..=3u8.min(self.heaps[h as usize]) {
                moves.push(Take(h, take));
            }
        }
    }
    fn play_unchecked(&mut self, Take(h, take): Take) {
        self.heaps[h as usize] -= take;
        self.mover ^= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        // The player who just moved took the last stone.
        (self.heaps == [0, 0, 0]).then(|| Outcome::Win(Seat::new(self.mover ^ 1)))
    }
    fn parse_move(&self, text: &str) -> Result<Take, ParseMoveError> {
        let err = || ParseMoveError {
            text: text.into(),
            reason: "expected heap:take".into(),
        };
        let (h, t) = text.split_once(':').ok_or_else(err)?;
        Ok(Take(
            h.parse().map_err(|_| err())?,
            t.parse().map_err(|_| err())?,
        ))
    }
}

/// A deliberately bumpy heuristic, so that depth matters.
#[derive(Clone, Copy, Default)]
struct Bumpy;

impl Evaluator<TakeAway> for Bumpy {
    fn evaluate(&self, s: &TakeAway) -> Score {
        let h = s.heaps;
        let v = (i32::from(h[0]) * 7 + i32::from(h[1]) * 13 + i32::from(h[2]) * 3) % 11 - 5;
        Score(if s.mover == 0 { v } else { -v })
    }
}

/// Quiescence for take-away: taking a heap's last stones is "noisy" (it changes which heaps
/// are left), played out past the horizon, those emptying the larger heap first.
#[derive(Clone, Copy, Default)]
struct EmptyingNoisy;

impl MoveOrdering<TakeAway> for EmptyingNoisy {
    fn order(&self, _: &TakeAway, moves: &mut [Take]) {
        moves.reverse();
    }

    fn quiescence(&self) -> bool {
        true
    }

    fn noisy(&self, state: &TakeAway, moves: &mut Vec<Take>) {
        state.legal_moves(moves);
        moves.retain(|&Take(h, take)| state.heaps[h as usize] == take);
        moves.sort_by_key(|&Take(_, take)| std::cmp::Reverse(take));
    }
}

fn random_positions<G: Game>(count: usize, max_plies: usize, seed: u64) -> Vec<G> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut s = G::start();
        let plies = rng.random_range(0..max_plies);
        for _ in 0..plies {
            s.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            s.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !s.is_terminal() {
            out.push(s);
        }
    }
    out
}

fn configs() -> Vec<(&'static str, Config)> {
    let base = Config {
        tt_bytes: 0,
        tt_layout: TtLayout::Buckets,
        probe: TtProbe::SameDepth,
        deepening: Deepening::Fixed,
        threads: 1,
        smp: ply_search::SmpScheme::default(),
        probcut: false,
        null_move: false,
        late_moves: false,
    };
    vec![
        ("plain alpha-beta", base),
        (
            "table",
            Config {
                tt_bytes: 1 << 16,
                ..base
            },
        ),
        (
            "deepening",
            Config {
                deepening: Deepening::Iterative,
                ..base
            },
        ),
        (
            "table + deepening",
            Config {
                tt_bytes: 1 << 16,
                deepening: Deepening::Iterative,
                ..base
            },
        ),
        (
            "tiny table (collisions)",
            Config {
                tt_bytes: 64,
                deepening: Deepening::Iterative,
                ..base
            },
        ),
        (
            // Lazy SMP: helpers fill the shared table at other depths and windows; a value
            // stored is a depth-k value (or a bound on it) whoever stored it, so the
            // same-depth policy still gives plain negamax's value.
            "three threads sharing the table",
            Config {
                tt_bytes: 1 << 16,
                deepening: Deepening::Iterative,
                threads: 3,
                ..base
            },
        ),
        (
            // No ordering here offers a null move or a reducible move: the switches alone
            // change nothing.
            "null move and late-move reductions switched on, no hooks",
            Config {
                tt_bytes: 1 << 16,
                deepening: Deepening::Iterative,
                null_move: true,
                late_moves: true,
                ..base
            },
        ),
        (
            "two threads, tiny table (torn and colliding slots)",
            Config {
                tt_bytes: 64,
                deepening: Deepening::Iterative,
                threads: 2,
                ..base
            },
        ),
        (
            "tiny direct-mapped table",
            Config {
                tt_bytes: 64,
                tt_layout: TtLayout::Direct,
                deepening: Deepening::Iterative,
                ..base
            },
        ),
        (
            "two threads, direct-mapped table",
            Config {
                tt_bytes: 1 << 10,
                tt_layout: TtLayout::Direct,
                deepening: Deepening::Iterative,
                threads: 2,
                ..base
            },
        ),
    ]
}

fn check_fixed_depth<G: Game, E: Evaluator<G> + Copy>(eval: E, positions: &[G], depths: &[u32]) {
    check_with_ordering(eval, NoOrdering, positions, depths);
}

/// The search with `ordering` (and its quiescence, if any) against negamax with the same
/// quiescence.
fn check_with_ordering<G: Game, E: Evaluator<G> + Copy, O: MoveOrdering<G> + Copy>(
    eval: E,
    ordering: O,
    positions: &[G],
    depths: &[u32],
) {
    let negamax = |s: &G, depth, ply| negamax_quiescent(s, depth, ply, &eval, &ordering);
    for s in positions {
        for &depth in depths {
            let want = negamax(s, depth, 0);
            for (name, config) in configs() {
                let mut search = AlphaBeta::with(eval, ordering, config);
                let r = search.search_parallel(s, Budget::depth(depth));
                assert_eq!(r.score, want, "{name} at depth {depth} from {s}");
                // The reported move is worth the reported score.
                let mv = r.best.unwrap();
                let mut c = s.clone();
                c.play_unchecked(mv);
                let v = -negamax(&c, depth - 1, 1);
                assert_eq!(
                    v, want,
                    "{name}: move {mv} from {s} is worth {v}, not {want}"
                );
            }
        }
    }
}

#[test]
fn alphabeta_equals_negamax_on_tictactoe() {
    let positions = random_positions::<TicTacToe>(60, 6, 1);
    check_fixed_depth(Lines, &positions, &[1, 2, 3, 4, 5]);
}

#[test]
fn alphabeta_equals_negamax_on_takeaway() {
    let positions = random_positions::<TakeAway>(40, 8, 2);
    check_fixed_depth(Bumpy, &positions, &[1, 2, 3, 4, 6]);
}

#[test]
fn quiescent_alphabeta_equals_quiescent_negamax_on_takeaway() {
    let positions = random_positions::<TakeAway>(40, 8, 6);
    check_with_ordering(Bumpy, EmptyingNoisy, &positions, &[1, 2, 3, 4]);
    // The noisy moves change values: quiescence is exercised, not a no-op.
    let changed = positions
        .iter()
        .filter(|s| {
            negamax_quiescent(*s, 2, 0, &Bumpy, &EmptyingNoisy) != negamax(*s, 2, 0, &Bumpy)
        })
        .count();
    assert!(changed > 0, "quiescence never changed a value");
}

#[test]
fn solved_values_agree_whatever_the_table_policy() {
    // Searched to the end, values are game-theoretic, so even the deeper-entry policy agrees.
    for s in random_positions::<TicTacToe>(40, 5, 3) {
        let want = negamax(&s, 9, 0, &Lines);
        for probe in [TtProbe::AtLeastDepth, TtProbe::SameDepth] {
            let config = Config {
                tt_bytes: 1 << 16,
                tt_layout: TtLayout::Buckets,
                probe,
                deepening: Deepening::Iterative,
                threads: 1,
                smp: ply_search::SmpScheme::default(),
                probcut: false,
                null_move: false,
                late_moves: false,
            };
            let r = AlphaBeta::with(Lines, NoOrdering, config).search(&s, Budget::UNLIMITED);
            assert_eq!(r.score, want, "{probe:?} from {s}");
            assert!(r.exact, "a full search of tic-tac-toe is exact");
        }
    }
}

#[test]
fn takeaway_theory_multiples_of_four() {
    // With heaps of 1..3 per move and last stone winning, a single heap is lost for the mover
    // exactly when it is a multiple of 4; the search proves it and counts the plies.
    for n in 1..=12u8 {
        let s = TakeAway {
            heaps: [n, 0, 0],
            mover: 0,
        };
        let r = AlphaBeta::new(Bumpy).search(&s, Budget::UNLIMITED);
        assert!(r.exact);
        if n % 4 == 0 {
            assert!(r.score < Score::DRAW, "{n} stones should lose");
        } else {
            assert_eq!(
                r.score,
                Score::win_in(1 + 2 * u32::from(n / 4)),
                "{n} stones"
            );
        }
    }
}

#[test]
fn deadline_still_gives_a_legal_move() {
    let s = TakeAway {
        heaps: [60, 60, 60],
        mover: 0,
    };
    let budget = Budget {
        deadline: Some(std::time::Instant::now()),
        ..Budget::UNLIMITED
    };
    let r = AlphaBeta::new(Bumpy).search(&s, budget);
    let mut moves = Vec::new();
    s.legal_moves(&mut moves);
    assert!(moves.contains(&r.best.unwrap()));
}

#[test]
fn principal_variation_is_a_legal_line() {
    for s in random_positions::<TicTacToe>(20, 4, 4) {
        let r = AlphaBeta::new(Lines).search(&s, Budget::UNLIMITED);
        assert_eq!(r.pv.first().copied(), r.best);
        let mut c = s;
        for &mv in &r.pv {
            c.play(mv)
                .unwrap_or_else(|e| panic!("pv {:?} from {s}: {e}", r.pv));
        }
    }
}

/// The move a search stopped part-way through a depth plays: the last finished depth's best,
/// or one that plain negamax one ply deeper values above it (the root proved it better before
/// the stop). Returns how many of the searches played such a move.
fn check_stopped_part_way<G: Game, E: Evaluator<G> + Copy>(eval: E, positions: &[G]) -> usize {
    let config = Config {
        tt_bytes: 1 << 16,
        tt_layout: TtLayout::Buckets,
        probe: TtProbe::SameDepth,
        deepening: Deepening::Iterative,
        threads: 1,
        smp: ply_search::SmpScheme::default(),
        probcut: false,
        null_move: false,
        late_moves: false,
    };
    let mut switched = 0;
    for s in positions {
        for limit in (1..=24).map(|k| k * 1024) {
            let r = AlphaBeta::with(eval, NoOrdering, config).search(s, Budget::nodes(limit));
            if r.exact {
                break;
            }
            let depth = r.depth;
            let finished = AlphaBeta::with(eval, NoOrdering, config)
                .search(s, Budget::depth(depth))
                .best;
            let played = r.best.expect("a move");
            let Some(finished) = finished else {
                continue;
            };
            if played == finished {
                continue;
            }
            // One ply deeper than the last finished depth: the depth that was stopped.
            let value = |mv| {
                let mut c = s.clone();
                c.play_unchecked(mv);
                let v = negamax(&c, depth, 1, &eval);
                if c.to_move() == s.to_move() { v } else { -v }
            };
            assert!(
                value(played) > value(finished),
                "{s}: played {played} ({:?}) instead of {finished} ({:?}) at depth {}",
                value(played),
                value(finished),
                depth + 1
            );
            switched += 1;
        }
    }
    switched
}

#[test]
fn a_depth_stopped_part_way_plays_a_move_proved_better_at_that_depth() {
    // 30 of these searches play a move found in the stopped depth (tic-tac-toe's trees are
    // too small for the table-backed search to stop mid-depth at these node counts).
    let changed = check_stopped_part_way(Bumpy, &random_positions::<TakeAway>(20, 8, 5));
    assert!(changed > 0, "the case is never exercised");
}

/// An ordering whose null-move hook refuses every time and reduces nothing, counting how
/// often the search asks and remembering the states asked about.
#[derive(Clone, Default)]
struct RefusesNullMoves {
    asked: std::sync::Arc<std::sync::Mutex<Vec<TakeAway>>>,
}

impl MoveOrdering<TakeAway> for RefusesNullMoves {
    fn order(&self, _: &TakeAway, _: &mut [Take]) {}

    fn null_move(&self, state: &TakeAway, depth: u32) -> Option<TakeAway> {
        assert!(depth >= 2, "a null move asked for at depth {depth}");
        self.asked.lock().unwrap().push(*state);
        None
    }
}

/// Where the hook forbids the null move, the search with null moves on is the plain search
/// to the node; it asks only below the root; and with the switch off it never asks.
#[test]
fn no_null_move_where_the_hook_forbids_it() {
    let config = |null_move| Config {
        tt_bytes: 1 << 16,
        tt_layout: TtLayout::Buckets,
        probe: TtProbe::SameDepth,
        deepening: Deepening::Iterative,
        threads: 1,
        smp: ply_search::SmpScheme::default(),
        probcut: false,
        null_move,
        late_moves: true,
    };
    let mut asked_somewhere = false;
    for s in random_positions::<TakeAway>(20, 8, 7) {
        for depth in [3, 5] {
            let ordering = RefusesNullMoves::default();
            let mut on = AlphaBeta::with(Bumpy, ordering.clone(), config(true));
            let r = on.search(&s, Budget::depth(depth));
            let asked = std::mem::take(&mut *ordering.asked.lock().unwrap());
            assert!(!asked.contains(&s), "the root was offered a null move: {s}");
            asked_somewhere |= !asked.is_empty();
            let off_ordering = RefusesNullMoves::default();
            let plain = AlphaBeta::with(Bumpy, off_ordering.clone(), config(false))
                .search(&s, Budget::depth(depth));
            assert!(off_ordering.asked.lock().unwrap().is_empty());
            assert_eq!(
                (r.score, r.best, r.nodes),
                (plain.score, plain.best, plain.nodes),
                "depth {depth} from {s}"
            );
            assert_eq!(
                r.score,
                negamax(&s, depth, 0, &Bumpy),
                "depth {depth} from {s}"
            );
        }
    }
    assert!(asked_somewhere, "the search never asked the hook");
}
