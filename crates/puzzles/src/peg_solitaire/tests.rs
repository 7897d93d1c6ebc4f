//! Facts from the issue, the seed and the literature.

use super::*;

/// Bergholt's 18-move solution of the English central game (1912), as Beasley quotes it.
const BERGHOLT: &str = "46-44, 65-45, 57-55, 54-56, 52-54, 73-53, 43-63, 75-73-53, 35-55, 15-35, \
23-43-63-65-45-25, 37-57-55-53, 31-33, 34-32, 51-31-33, 13-15-35, 36-34-32-52-54-34, 24-44";

/// MATLAB's `magic(n)` for odd `n` (the siamese construction MATLAB uses).
fn magic_odd(n: i64) -> Vec<Vec<i64>> {
    (1..=n)
        .map(|i| {
            (1..=n)
                .map(|j| {
                    n * (i + j - (n + 3) / 2).rem_euclid(n) + (i + 2 * j - 2).rem_euclid(n) + 1
                })
                .collect()
        })
        .collect()
}

/// The seed's weighted English board: `magic(7).*mask - ~mask`, centre empty, in MATLAB
/// syntax.
fn weighted_english_text() -> String {
    let m = magic_odd(7);
    let rows: Vec<String> = (0..7)
        .map(|r| {
            (0..7)
                .map(|c| {
                    let on = (2..5).contains(&r) || (2..5).contains(&c);
                    match (on, r == 3 && c == 3) {
                        (false, _) => "-1".to_string(),
                        (true, true) => "0".to_string(),
                        (true, false) => m[r][c].to_string(),
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    format!("[{}]", rows.join(";"))
}

/// Lucio Cetto's hand solution from the seed, scoring 407.
const LUCIO: &str = "[2 4 4 4;3 6 3 4;1 5 3 5;4 5 2 5;6 5 4 5;3 3 3 5;3 1 3 3;5 7 5 5;5 4 5 6;
5 6 3 6;3 6 3 4;3 4 3 2;1 3 1 5;1 5 3 5;3 5 5 5;5 2 5 4;5 4 5 6;3 7 5 7;5 7 5 5;7 3 5 3;
4 3 6 3;7 5 7 3;7 3 5 3;5 1 3 1;3 1 3 3;2 3 4 3;4 3 4 5;4 5 6 5;6 5 6 3;6 3 4 3;4 3 4 1];";

fn english() -> Setup {
    Setup::standard(Standard::English, Hole::new(3, 3)).unwrap()
}

#[test]
fn standard_boards_have_their_hole_counts_and_symmetries() {
    let expect = [
        (Standard::English, 33, 8),
        (Standard::French, 37, 8),
        (Standard::Wiegleb, 45, 8),
        (Standard::Diamond, 41, 8),
        (Standard::Triangle, 15, 6),
    ];
    for (b, holes, syms) in expect {
        let board = b.board();
        assert_eq!(board.hole_count(), holes, "{}", b.name());
        assert_eq!(board.symmetry_count(), syms, "{}", b.name());
    }
    // The English board has 76 jumps; the triangle 18 lines of three holes (6 in each of
    // its 3 directions), each jumped both ways.
    assert_eq!(Standard::English.board().jumps().len(), 76);
    assert_eq!(Standard::Triangle.board().jumps().len(), 36);
}

#[test]
fn square8_symmetries_agree_with_tables() {
    // The English board on a 7x7 grid uses bit tricks; the same mask on a 9x9 grid (two
    // blank rows and columns around it) uses tables. Both must give the same orbits.
    let e = Standard::English.board();
    let mask: Vec<bool> = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            (1..8).contains(&r)
                && (1..8).contains(&c)
                && e.bit(Hole::new(r as u8 - 1, c as u8 - 1)).is_some()
        })
        .collect();
    let big = Board::new("big", 9, 9, Geometry::Square, &mask).unwrap();
    assert_eq!(big.symmetry_count(), 8);
    let mut x = 0x1234_5678_9abc_def1u64;
    for _ in 0..200 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let small = x & e.holes();
        let mut mapped = 0u64;
        for b in bits_of(small) {
            let h = e.hole(b);
            mapped |= 1 << big.bit(Hole::new(h.row + 1, h.col + 1)).unwrap();
        }
        assert_eq!(orbit_size(&e, small), orbit_size(&big, mapped));
        let mut a: Vec<u32> = e.images(small).iter().map(|p| p.count_ones()).collect();
        a.sort_unstable();
        assert!(a.iter().all(|&n| n == small.count_ones()));
    }
}

#[test]
fn bergholt_18_moves_replay_to_one_peg_in_the_centre() {
    let setup = english();
    let jumps = parse_classic_moves(BERGHOLT).unwrap();
    let r = replay(&setup, &jumps).unwrap();
    assert_eq!(r.jumps, 31);
    assert_eq!(r.moves, 18);
    assert_eq!(r.pegs_left, 1);
    assert_eq!(r.pegs, 1 << setup.board.bit(Hole::new(3, 3)).unwrap());
    let holes: Vec<_> = jumps.iter().map(|w| (w.from, w.to)).collect();
    assert_eq!(format_classic(&holes), BERGHOLT.replace("  ", " "));
}

#[test]
fn contest_scoring_example() {
    // Initial 31; the peg of weight 2 takes 8 (-> 25) then 7 (-> 18).
    let setup = Setup::parse("example", "2 8 0 7 0 -1 14").unwrap();
    assert_eq!(setup.total_weight(), 31);
    let one = parse_contest_moves("[1 1 1 3]").unwrap();
    assert_eq!(replay(&setup, &one).unwrap().score, 25);
    let two = parse_contest_moves("[1 1 1 3; 1 3 1 5]").unwrap();
    let r = replay(&setup, &two).unwrap();
    assert_eq!((r.score, r.moves, r.penalty), (18, 1, 2));
}

#[test]
fn seed_hand_solution_scores_407() {
    assert_eq!(magic_odd(7)[0], [30, 39, 48, 1, 10, 19, 28]);
    let setup = Setup::parse("weighted", &weighted_english_text()).unwrap();
    assert_eq!(setup.board.hole_count(), 33);
    let jumps = parse_contest_moves(LUCIO).unwrap();
    assert_eq!(jumps.len(), 31);
    let r = replay(&setup, &jumps).unwrap();
    assert_eq!(r.score, 407);
    assert_eq!(r.pegs_left, 1);
}

#[test]
fn scorer_rejects_the_first_illegal_jump_with_row_and_reason() {
    let setup = english();
    let cases = [
        ("2 4 4 4\n2 4 4 4", 2, IllegalReason::NoPeg),
        ("2 4 4 4\n1 1 1 3", 2, IllegalReason::FromOffBoard),
        ("4 6 4 4\n4 4 4 6", 2, IllegalReason::NothingToJump),
        ("3 3 3 5", 1, IllegalReason::ToOccupied),
        ("4 7 4 4", 1, IllegalReason::NotAJump),
        ("2 4 2 2", 1, IllegalReason::ToOffBoard),
        ("3 3 5 5", 1, IllegalReason::NotAJump),
    ];
    for (text, row, reason) in cases {
        let jumps = parse_contest_moves(text).unwrap();
        let err = replay(&setup, &jumps).unwrap_err();
        assert_eq!((err.row, err.reason), (row, reason), "{text}");
        assert!(
            err.to_string().starts_with(&format!("jump {row} ")),
            "{err}"
        );
    }
}

#[test]
fn bad_input_names_line_and_column() {
    let e = Setup::parse("b", "1 1 1\n1 1\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: row 2 has 2 entries but row 1 has 3; every row needs the same length"
    );
    let e = Setup::parse("b", "1 1 1\n1 x 1\n").unwrap_err();
    assert!(e.to_string().starts_with("line 2, column 3: \"x\""), "{e}");
    let e = Setup::parse("b", "1 -2 1\n").unwrap_err();
    assert!(e.to_string().starts_with("line 1, column 3: -2"), "{e}");
    let e = Setup::parse("b", "[1 1; 1 1").unwrap_err();
    assert!(e.to_string().contains("never closed"), "{e}");
    let e = Setup::standard(Standard::English, Hole::new(0, 0)).unwrap_err();
    assert_eq!(e, ParseBoardError::StartOffBoard { row: 1, col: 1 });
    let e = parse_contest_moves("1 2 3 4\n4 4 2\n").unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2: jump row 2 has 3 numbers; write 4: from_row from_col to_row to_col"
    );
    let e = parse_contest_moves("1 0 3 4\n").unwrap_err();
    assert!(e.to_string().starts_with("line 1, column 3: 0"), "{e}");
}

#[test]
fn matlab_and_whitespace_matrices_agree() {
    let a = parse_matrix("[1 0 -1;\n 2, 3, 4]").unwrap();
    let b = parse_matrix("1 0 -1\n2 3 4\n").unwrap();
    let vals = |m: &Vec<Vec<Entry>>| m.iter().flatten().map(|e| e.value).collect::<Vec<_>>();
    assert_eq!(vals(&a), vals(&b));
    let c = parse_matrix("[1 0 -1\n 2 3 4]").unwrap();
    assert_eq!(vals(&a), vals(&c));
}

#[test]
fn one_peg_solver_solves_the_central_game_and_replays() {
    let setup = english();
    let centre = 1u64 << setup.board.bit(Hole::new(3, 3)).unwrap();
    for goal in [Goal::OnePeg, Goal::Pattern(centre)] {
        let report = solve(&setup.board, setup.pegs, goal);
        let Outcome::Solved(jumps) = report.outcome else {
            panic!("no solution for {goal:?}")
        };
        let r = replay_jumps(&setup, &jumps).unwrap();
        assert!(goal.reached(r.pegs));
        assert_eq!(r.jumps, 31);
    }
}

#[test]
fn french_central_game_is_impossible_by_position_class() {
    let setup = Setup::standard(Standard::French, Hole::new(3, 3)).unwrap();
    let report = solve(&setup.board, setup.pegs, Goal::OnePeg);
    assert!(
        matches!(
            report.outcome,
            Outcome::Impossible(Proof::PositionClass { .. })
        ),
        "{:?}",
        report.outcome
    );
}

#[test]
fn exhaustive_impossibility_agrees_with_plain_search() {
    // Small boards where the position class allows the goal: the solver's verdict must be
    // the plain breadth-first search's.
    let tri = Standard::Triangle.board();
    let arc = std::sync::Arc::new(tri.clone());
    for start in tri.bits() {
        for target in tri.bits() {
            let goal = Goal::Pattern(1 << target);
            let pegs = tri.full_but(1 << start);
            let fast = solve(&tri, pegs, goal);
            let plain = ply_search::puzzle::bfs_solve(&PegPuzzle {
                board: arc.clone(),
                pegs,
                goal,
            });
            match fast.outcome {
                Outcome::Solved(j) => {
                    assert!(plain.is_some());
                    let setup = Setup {
                        board: tri.clone(),
                        pegs,
                        weights: vec![1; 64],
                    };
                    assert_eq!(replay_jumps(&setup, &j).unwrap().pegs, 1 << target);
                }
                Outcome::Impossible(_) => assert!(plain.is_none(), "{start} -> {target}"),
            }
        }
    }
}

#[test]
fn counts_agree_with_plain_breadth_first_layers() {
    for (b, start) in [
        (Standard::Triangle, Hole::new(0, 0)),
        (Standard::Triangle, Hole::new(2, 1)),
    ] {
        let setup = Setup::standard(b, start).unwrap();
        let plain = ply_search::puzzle::bfs_layers(
            &PegPuzzle {
                board: std::sync::Arc::new(setup.board.clone()),
                pegs: setup.pegs,
                goal: Goal::OnePeg,
            },
            usize::MAX,
        );
        let levels = reachable_levels(
            &setup.board,
            setup.pegs,
            Reduce::Symmetry,
            usize::MAX,
            |_, _| {},
        );
        let counts = levels.counts(&setup.board);
        assert_eq!(counts.all, plain);
        let raw = reachable_levels(
            &setup.board,
            setup.pegs,
            Reduce::Nothing,
            usize::MAX,
            |_, _| {},
        );
        assert_eq!(raw.counts(&setup.board).canonical, plain);
    }
}

/// Every game from `pegs`, enumerated one by one: (games, games ending on `goal`, games by
/// length). The plain reference for [`Levels::count_games`].
fn plain_games(
    board: &Board,
    pegs: u64,
    goal: Goal,
    depth: usize,
    out: &mut (u128, u128, Vec<u128>),
) {
    let mut jumps = Vec::new();
    board.legal_jumps(pegs, &mut jumps);
    if jumps.is_empty() {
        out.0 += 1;
        out.1 += u128::from(goal.reached(pegs));
        if out.2.len() <= depth {
            out.2.resize(depth + 1, 0);
        }
        out.2[depth] += 1;
    }
    for j in jumps {
        plain_games(board, j.apply(pegs), goal, depth + 1, out);
    }
}

#[test]
fn game_counts_agree_with_plain_enumeration() {
    for (b, start, finish) in [
        (Standard::Triangle, Hole::new(0, 0), None),
        (Standard::Triangle, Hole::new(0, 0), Some(Hole::new(0, 0))),
        (Standard::Triangle, Hole::new(2, 1), None),
    ] {
        let setup = Setup::standard(b, start).unwrap();
        let board = &setup.board;
        let goal = finish.map_or(Goal::OnePeg, |h| Goal::Pattern(1 << board.bit(h).unwrap()));
        let mut plain = (0, 0, Vec::new());
        plain_games(board, setup.pegs, goal, 0, &mut plain);
        for reduce in [Reduce::Symmetry, Reduce::Nothing] {
            if reduce == Reduce::Symmetry && !goal.symmetric(board) {
                continue;
            }
            let levels = reachable_levels(board, setup.pegs, reduce, usize::MAX, |_, _| {});
            let counts = levels.count_games(board, goal);
            let what = format!("{} from {start}, finish {finish:?}, {reduce:?}", b.name());
            assert_eq!(counts.games, plain.0, "{what}");
            assert_eq!(counts.solutions, plain.1, "{what}");
            let mut by_length = counts.by_length.clone();
            by_length.resize(plain.2.len(), 0);
            assert_eq!(by_length, plain.2, "{what}");
            let shortest = plain.2.iter().position(|&n| n > 0);
            assert!(counts.shortest_stuck >= shortest, "{what}");
        }
        assert!(plain.0 > 100_000 && plain.1 > 1000, "{plain:?}");
        if (start, finish) == (Hole::new(0, 0), None) {
            // The published figures of the 15-hole triangle from a corner vacancy.
            assert_eq!((plain.0, plain.1), (568_630, 29_760));
        }
    }
}

#[test]
#[ignore = "enumerates 23 million positions: run with --release"]
fn english_game_counts_published() {
    // George Bell's figures for the central game: every game until no jump is left, the
    // games that end with one peg in the centre, and the shortest game that gets stuck.
    let setup = english();
    let board = &setup.board;
    let levels = reachable_levels(board, setup.pegs, Reduce::Symmetry, usize::MAX, |_, _| {});
    let centre = Goal::Pattern(1 << board.bit(Hole::new(3, 3)).unwrap());
    let counts = levels.count_games(board, centre);
    assert_eq!(counts.games, 577_116_156_815_309_849_672);
    assert_eq!(counts.solutions, 40_861_647_040_079_968);
    assert_eq!(counts.shortest_stuck, Some(6));
}

#[test]
fn english_counts_of_the_first_levels() {
    // Depth-limited so it stays fast in the dev profile; the full count is in
    // `english_reachable_positions_full`.
    let setup = english();
    let levels = reachable_levels(&setup.board, setup.pegs, Reduce::Symmetry, 8, |_, _| {});
    let plain = ply_search::puzzle::bfs_layers(
        &PegPuzzle {
            board: std::sync::Arc::new(setup.board.clone()),
            pegs: setup.pegs,
            goal: Goal::OnePeg,
        },
        200_000,
    );
    let counts = levels.counts(&setup.board);
    assert_eq!(&counts.all[..6], &plain[..6]);
    assert_eq!(&counts.canonical[..4], &[1, 1, 2, 8]);
}

#[test]
#[ignore = "enumerates 23 million positions: run with --release"]
fn english_reachable_positions_full() {
    let setup = english();
    let levels = reachable_levels(
        &setup.board,
        setup.pegs,
        Reduce::Symmetry,
        usize::MAX,
        |_, _| {},
    );
    let counts = levels.counts(&setup.board);
    assert_eq!(counts.canonical.iter().sum::<u64>(), 23_475_688);
    assert_eq!(counts.all.iter().sum::<u64>(), 187_636_299);
    // Positions from which one peg in the centre can still be reached (George Bell's
    // figure). Playing backwards is playing forwards on the complement, so the per-level
    // figures read the same from both ends.
    let centre = 1u64 << setup.board.bit(Hole::new(3, 3)).unwrap();
    let fin: Vec<u64> = levels
        .finishable(&setup.board, Goal::Pattern(centre))
        .iter()
        .map(|l| l.len() as u64)
        .collect();
    assert_eq!(fin.iter().sum::<u64>(), 1_679_072);
    assert!(fin.iter().eq(fin.iter().rev()));
}

#[test]
fn fewest_moves_agrees_with_plain_breadth_first_search() {
    for (b, start) in [
        (Standard::Triangle, Hole::new(0, 0)),
        (Standard::Triangle, Hole::new(2, 1)),
        (Standard::Triangle, Hole::new(3, 1)),
    ] {
        let setup = Setup::standard(b, start).unwrap();
        let arc = std::sync::Arc::new(setup.board.clone());
        let goal = Goal::OnePeg;
        let plain = ply_search::puzzle::bfs_solve(&PegChains(PegPuzzle {
            board: arc,
            pegs: setup.pegs,
            goal,
        }));
        let fast = fewest_moves(&setup.board, setup.pegs, goal, |_, _| {});
        match (plain, fast) {
            (Some(p), Some(f)) => {
                assert_eq!(p.len() as u32, f.moves);
                let r = replay_jumps(&setup, &f.jumps).unwrap();
                assert_eq!(r.moves as u32, f.moves);
                assert!(goal.reached(r.pegs));
            }
            (None, None) => {}
            (p, f) => panic!("plain {p:?} vs fast {f:?}"),
        }
    }
}

#[test]
#[ignore = "enumerates 23 million positions: run with --release (about a minute)"]
fn english_fewest_moves_is_18() {
    let setup = english();
    let centre = 1u64 << setup.board.bit(Hole::new(3, 3)).unwrap();
    let f = fewest_moves(&setup.board, setup.pegs, Goal::Pattern(centre), |_, _| {}).unwrap();
    assert_eq!(f.moves, 18);
    let r = replay_jumps(&setup, &f.jumps).unwrap();
    assert_eq!((r.moves, r.pegs), (18, centre));
}

/// The lowest contest score over every jump sequence (and every stopping point), by plain
/// enumeration through the scorer.
fn brute_force_best_score(setup: &Setup) -> u64 {
    fn go(setup: &Setup, jumps: &mut Vec<Jump>, best: &mut u64) {
        let r = replay_jumps(setup, jumps).unwrap();
        *best = (*best).min(r.score);
        for &j in setup.board.jumps() {
            if j.legal(r.pegs) {
                jumps.push(j);
                go(setup, jumps, best);
                jumps.pop();
            }
        }
    }
    let mut best = u64::MAX;
    go(setup, &mut Vec::new(), &mut best);
    best
}

#[test]
fn weighted_search_is_exact_when_nothing_is_dropped() {
    for text in [
        "[3 5 0 7 2 0 4]",
        "[2 8 0 7 0 -1 14]",
        "[1 9 2; 0 4 8; 6 0 3]",
        "[5 1 -1; 2 0 7; 9 3 4; -1 6 0]",
    ] {
        let setup = Setup::parse("small", text).unwrap();
        let w = weighted::weighted_search(&setup, 1_000_000);
        assert!(w.optimal, "{text}");
        assert_eq!(w.score, brute_force_best_score(&setup), "{text}");
        assert_eq!(
            replay_jumps(&setup, &w.jumps).unwrap().score,
            w.score,
            "{text}"
        );
    }
}

#[test]
fn weighted_search_beats_the_seed_hand_solution() {
    let setup = Setup::parse("weighted", &weighted_english_text()).unwrap();
    let w = weighted::weighted_search(&setup, 300);
    let r = replay_jumps(&setup, &w.jumps).unwrap();
    assert_eq!(r.score, w.score);
    assert!(w.score <= 407, "beam found {}", w.score);
    assert!(!w.optimal);
}

#[test]
fn six_purge_package_from_the_seed() {
    let p = package::find_packages(
        "[1 0 0 -1;-1 1 1 1;-1 1 1 1]",
        "[1 0 0 -1;-1 0 0 0;-1 0 0 0]",
    )
    .unwrap();
    assert_eq!(p.states, package::states_by_full_graph(&p));
    let (solutions, complete) = p.solutions(10_000);
    assert!(complete);
    assert!(!solutions.is_empty());
    for s in &solutions {
        // Six pegs purged, the corner peg back where it was: 6 jumps.
        assert_eq!(s.len(), 6);
        let mut pegs = p.starts[0];
        for j in s {
            assert!(j.legal(pegs));
            pegs = j.apply(pegs);
        }
        assert_eq!(pegs, p.goals[0]);
    }
    assert!(p.dot().starts_with("digraph package {"));
}

#[test]
fn wildcard_packages_match_the_full_graph() {
    for (a, b) in [
        (
            "[NaN NaN NaN NaN;-1 1 1 1;-1 1 1 1]",
            "[NaN NaN NaN NaN;-1 0 0 0;-1 0 0 0]",
        ),
        (
            "[-1 1 1 1;-1 1 1 1;-1 1 1 1;-1 0 0 1]",
            "[-1 NaN NaN NaN;-1 0 0 0;-1 0 0 0;-1 0 0 0]",
        ),
    ] {
        let p = package::find_packages(a, b).unwrap();
        assert!(!p.states.is_empty(), "{a}");
        assert_eq!(p.states, package::states_by_full_graph(&p), "{a}");
        let (solutions, _) = p.solutions(1000);
        assert!(!solutions.is_empty(), "{a}");
    }
    let e = package::find_packages("[1 2]", "[1 0]").unwrap_err();
    assert!(
        e.to_string()
            .starts_with("start block, line 1, column 4: 2"),
        "{e}"
    );
}

#[test]
fn pictures_draw_boards_and_solutions() {
    let setup = english();
    let t = picture::text(&setup.board, setup.pegs, None);
    assert_eq!(t.lines().count(), 8);
    assert_eq!(t.lines().nth(1).unwrap(), "1      o o o");
    let jumps = parse_classic_moves(BERGHOLT).unwrap();
    let played = replay(&setup, &jumps).unwrap().played;
    let svg = picture::solution_svg(&setup.board, setup.pegs, &played, 6);
    assert_eq!(svg.matches("<text").count(), 19);
    assert_eq!(svg.matches("<polyline").count(), 18);
    let weighted = Setup::parse("w", &weighted_english_text()).unwrap();
    let t = picture::text(&weighted.board, weighted.pegs, Some(&weighted.weights));
    assert_eq!(t.lines().nth(4).unwrap(), "4   5 14 16  . 34 36 45");
}

#[test]
fn radix_sort_agrees_with_sort() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for (n, bits) in [(10usize, 64u32), (5000, 55), (20_000, 64), (9000, 33)] {
        let v: Vec<u64> = (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if bits == 64 { x } else { x & ((1 << bits) - 1) }
            })
            .collect();
        let mut a = v.clone();
        a.sort_unstable();
        let mut b = v;
        count::radix_sort(&mut b, bits);
        assert_eq!(a, b);
    }
}

// ---------------------------------------------------------------- package and purge

#[test]
fn six_purge_block_is_a_package_of_the_table() {
    use super::purge::PackageTable;
    // The seed's 6-purge: [1 0 0 -1;-1 1 1 1;-1 1 1 1] -> [1 0 0 -1;-1 0 0 0;-1 0 0 0], as a
    // 3x4 window (cells row by row; 3, 4 and 8 off the board).
    let holes: u16 = 0b1111_1111_1111 & !(1 << 3 | 1 << 4 | 1 << 8);
    let start: u16 = 1 | 0b1110_0000 | 0b1110_0000_0000;
    let mut table = PackageTable::new();
    let packages = table.packages((3, 4), holes, start);
    let purge = packages.iter().find(|p| p.end == 1).expect("the 6-purge");
    assert_eq!(purge.jumps.len(), 6);
    // Every package is legal inside the window and ends where it says.
    for p in packages {
        let mut pegs = p.start;
        for &[f, o, t] in &p.jumps {
            assert!(pegs >> f & 1 == 1 && pegs >> o & 1 == 1 && pegs >> t & 1 == 0);
            assert!([f, o, t].iter().all(|&c| holes >> c & 1 == 1));
            pegs ^= 1 << f | 1 << o | 1 << t;
        }
        assert_eq!(pegs, p.end);
        assert!(p.jumps.len() >= 2, "packages clear two pegs or more");
    }
}

/// A 7x9 contest-style rectangle (63 holes), centre empty, weights 1 to 9 in a fixed
/// pattern: larger than any standard board.
fn rectangle_7x9_text() -> String {
    let rows: Vec<String> = (0..7)
        .map(|r| {
            (0..9)
                .map(|c| {
                    if (r, c) == (3, 4) {
                        "0".to_string()
                    } else {
                        ((r * 9 + c) * 5 % 9 + 1).to_string()
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    format!("[{}]", rows.join(";"))
}

#[test]
fn package_and_purge_solves_the_weighted_english_board_and_a_7x9_rectangle() {
    use super::purge::{PackageTable, purge_search};
    let mut table = PackageTable::new();
    // Scores as docs/benchmarks.md gives them for `ply peg solve --packages --width 30 / 10`.
    for (text, width, want) in [
        (weighted_english_text(), 30, 432),
        (rectangle_7x9_text(), 10, 121),
    ] {
        let setup = Setup::parse("board", &text).unwrap();
        let p = purge_search(&setup, width, &mut table);
        let r = replay_jumps(&setup, &p.jumps).unwrap();
        assert_eq!(r.score, p.score, "{text}");
        assert_eq!(r.score, want, "{text}");
        assert!(p.packages >= 3, "{p:?}");
        assert!(r.pegs_left * 4 < setup.pegs.count_ones(), "{r:?}");
        eprintln!(
            "{} holes: score {} ({} packages, {} singles, {} left)",
            setup.pegs.count_ones() + 1,
            r.score,
            p.packages,
            p.singles,
            r.pegs_left
        );
    }
}

/// The plain enumeration the fast one replaced: every jump of every position from the jump
/// list, each child canonicalised on its own, then sorted and deduplicated. The reference
/// for [`count::reachable_levels_threads`].
fn plain_levels(board: &Board, start: u64, reduce: Reduce, max_levels: usize) -> Vec<Vec<u64>> {
    let mut levels = vec![vec![reduce.key(board, start)]];
    while levels.len() < max_levels {
        let mut next = Vec::new();
        for &p in levels.last().unwrap() {
            for j in board.jumps() {
                if j.legal(p) {
                    next.push(reduce.key(board, j.apply(p)));
                }
            }
        }
        if next.is_empty() {
            break;
        }
        next.sort_unstable();
        next.dedup();
        levels.push(next);
    }
    levels
}

#[test]
fn fast_levels_agree_with_plain_enumeration() {
    // Grid-layout boards (every jump found by shifts), a board numbered row by row (Wiegleb:
    // its vertical jumps are not equally spaced bits), the triangle's six symmetries, and a
    // lopsided start (no symmetry). English to depth 10 has levels of thousands of
    // positions, so two and three threads and the bucketed sort are used.
    for (b, start, depth) in [
        (Standard::Triangle, Hole::new(0, 0), usize::MAX),
        (Standard::Triangle, Hole::new(2, 1), usize::MAX),
        (Standard::English, Hole::new(3, 3), 10),
        (Standard::English, Hole::new(2, 3), 8),
        (Standard::French, Hole::new(3, 3), 8),
        (Standard::Wiegleb, Hole::new(4, 4), 7),
        (Standard::Diamond, Hole::new(4, 4), 7),
    ] {
        let setup = Setup::standard(b, start).unwrap();
        let board = &setup.board;
        for reduce in [Reduce::Symmetry, Reduce::Nothing] {
            let used = if board.images(setup.pegs).iter().all(|&i| i == setup.pegs) {
                reduce
            } else {
                Reduce::Nothing
            };
            let plain = plain_levels(board, setup.pegs, used, depth);
            // Both copies of the hot loops: portable, and compiled for newer CPUs when this
            // one has their features.
            let codes = [false, count::native_detected()];
            for (threads, native) in [1, 2, 3].into_iter().flat_map(|t| codes.map(|n| (t, n))) {
                let fast = count::reachable_levels_code(
                    board,
                    setup.pegs,
                    reduce,
                    depth,
                    threads,
                    native,
                    |_, _| {},
                );
                let what = format!(
                    "{} from {start}, {reduce:?}, {threads} threads, native {native}",
                    b.name()
                );
                assert_eq!(fast.reduce, used, "{what}");
                assert_eq!(fast.levels.len(), plain.len(), "{what}");
                let orbits: Vec<u64> = plain
                    .iter()
                    .map(|l| match used {
                        Reduce::Symmetry => l.iter().map(|&p| board.orbit_size(p)).sum(),
                        Reduce::Nothing => l.len() as u64,
                    })
                    .collect();
                assert_eq!(fast.counts(board).all, orbits, "{what}");
                for (k, (f, p)) in fast.levels.iter().zip(&plain).enumerate() {
                    assert!(
                        f == p,
                        "{what}: level {k} differs ({} vs {})",
                        f.len(),
                        p.len()
                    );
                }
            }
        }
    }
}

#[test]
fn fast_levels_agree_on_a_board_of_63_holes() {
    // 63 holes: a key's bits below its bucket's do not fit in 32, so the enumeration keeps
    // them in 64 (the other boards take the 32-bit path).
    let mut text = String::new();
    for r in 0..7 {
        let row: Vec<&str> = (0..9)
            .map(|c| if (r, c) == (3, 4) { "0" } else { "1" })
            .collect();
        text.push_str(&row.join(" "));
        text.push('\n');
    }
    let setup = Setup::parse("rectangle", &text).unwrap();
    assert_eq!(setup.board.hole_count(), 63);
    for reduce in [Reduce::Symmetry, Reduce::Nothing] {
        let plain = plain_levels(&setup.board, setup.pegs, reduce, 6);
        for threads in [1, 2] {
            let fast = count::reachable_levels_threads(
                &setup.board,
                setup.pegs,
                reduce,
                6,
                threads,
                |_, _| {},
            );
            assert_eq!(fast.reduce, reduce);
            assert_eq!(fast.levels, plain, "{reduce:?}, {threads} threads");
        }
    }
}

#[test]
fn orbit_size_counts_distinct_images() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for b in [Standard::English, Standard::Triangle, Standard::Wiegleb] {
        let board = b.board();
        for i in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Symmetric positions too: a random half made symmetric under every image.
            let mut p = x & board.holes();
            if i % 3 == 0 {
                p = board.images(p).iter().fold(0, |a, &q| a | q);
            }
            let mut im = board.images(p);
            im.sort_unstable();
            im.dedup();
            assert_eq!(board.orbit_size(p), im.len() as u64, "{p:#x}");
        }
    }
}

/// Small random weighted boards (seeded): a random shape inside `rows` x `cols`, a few
/// empty holes, weights 1 to `top` (so some repeat).
fn random_weighted_boards(seed: u64, count: usize) -> Vec<Setup> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let (rows, cols) =
            [(1, 7), (2, 5), (3, 3), (3, 4), (4, 3), (2, 6), (4, 4)][rng.random_range(0..7)];
        let top = [3, 9, 50][rng.random_range(0..3)];
        let mut cells = Vec::new();
        for _ in 0..rows {
            let row: Vec<String> = (0..cols)
                .map(|_| match rng.random_range(0..10) {
                    0 => "-1".to_string(),
                    1 | 2 => "0".to_string(),
                    _ => rng.random_range(1..=top).to_string(),
                })
                .collect();
            cells.push(row.join(" "));
        }
        let text = format!("[{}]", cells.join(";"));
        let Ok(setup) = Setup::parse("random", &text) else {
            continue;
        };
        // Keep the plain enumeration small.
        if setup.pegs.count_ones() <= 11 && setup.board.has_jump(setup.pegs) {
            out.push(setup);
        }
    }
    out
}

fn show(setup: &Setup) -> String {
    picture::text(&setup.board, setup.pegs, Some(&setup.weights))
}

#[test]
fn prove_optimum_matches_plain_enumeration_on_random_weighted_boards() {
    for setup in random_weighted_boards(20, 60) {
        let exact = brute_force_best_score(&setup);
        let p =
            weighted::prove_optimum(&setup, &weighted::ProveOptions::default(), |_| true).unwrap();
        assert!(p.proven);
        assert_eq!(p.score, exact, "\n{}", show(&setup));
        assert!(p.root_bound <= exact, "\n{}", show(&setup));
        assert_eq!(replay_jumps(&setup, &p.jumps).unwrap().score, exact);
        // Started from the optimum, the search proves it without improving it.
        let again = weighted::prove_optimum(
            &setup,
            &weighted::ProveOptions {
                incumbent: Some(p.jumps.clone()),
                table_entries: 16,
                ..Default::default()
            },
            |_| true,
        )
        .unwrap();
        assert!(again.proven && !again.improved);
        assert_eq!(again.score, exact);
    }
}

#[test]
fn weighted_lower_bound_is_admissible_on_random_states() {
    // Every state is the start of its own board: the bound never exceeds the best score.
    for setup in random_weighted_boards(7, 150) {
        let bound = weighted::lower_bound(&setup.board, setup.pegs, |b| setup.weights[b as usize]);
        let exact = brute_force_best_score(&setup);
        assert!(bound <= exact, "bound {bound} > {exact}\n{}", show(&setup));
    }
    // The triangle's diagonal jumps change which parity classes remove which.
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    let board = Standard::Triangle.board();
    let mut tried = 0;
    while tried < 150 {
        let pegs = rng.random::<u64>() & rng.random::<u64>() & board.holes();
        if pegs.count_ones() > 9 || !board.has_jump(pegs) {
            continue;
        }
        tried += 1;
        let mut weights = vec![0u32; 64];
        for b in bits_of(pegs) {
            weights[b as usize] = rng.random_range(1..=30);
        }
        let setup = Setup {
            board: board.clone(),
            pegs,
            weights,
        };
        let bound = weighted::lower_bound(&board, pegs, |b| setup.weights[b as usize]);
        let exact = brute_force_best_score(&setup);
        assert!(bound <= exact, "bound {bound} > {exact}\n{}", show(&setup));
        let p =
            weighted::prove_optimum(&setup, &weighted::ProveOptions::default(), |_| true).unwrap();
        assert_eq!(p.score, exact, "\n{}", show(&setup));
    }
}

#[test]
fn prove_optimum_on_magic_5_beats_the_beam() {
    // MATLAB's magic(5) on the full 5x5 board, centre empty: the beam (width 3000) finds
    // 118, the proof 112 (about 2 million nodes).
    let setup = Setup::parse(
        "magic5",
        "[17 24 1 8 15;23 5 7 14 16;4 6 0 20 22;10 12 19 21 3;11 18 25 2 9]",
    )
    .unwrap();
    let beam = weighted::weighted_search(&setup, 3000);
    assert_eq!((beam.score, beam.optimal), (118, false));
    let options = weighted::ProveOptions {
        incumbent: Some(beam.jumps),
        table_entries: 1 << 22,
        ..Default::default()
    };
    let p = weighted::prove_optimum(&setup, &options, |_| true).unwrap();
    assert!(p.proven && p.improved);
    assert_eq!(p.score, 112);
    assert_eq!(replay_jumps(&setup, &p.jumps).unwrap().score, 112);
    // A node limit stops it unproven, keeping the best answer so far.
    let cut = weighted::prove_optimum(
        &setup,
        &weighted::ProveOptions {
            max_nodes: 1000,
            ..options.clone()
        },
        |_| true,
    )
    .unwrap();
    assert!(!cut.proven && cut.score <= 118);
}

#[test]
#[ignore = "about 150 million nodes and 3 GB: several minutes in release (ply peg solve --prove)"]
fn weighted_english_optimum_is_342() {
    let setup = Setup::parse("weighted", &weighted_english_text()).unwrap();
    let beam = weighted::weighted_search(&setup, 3000);
    assert_eq!(beam.score, 377);
    let options = weighted::ProveOptions {
        incumbent: Some(beam.jumps),
        table_entries: 1 << 26,
        ..Default::default()
    };
    let p = weighted::prove_optimum(&setup, &options, |_| true).unwrap();
    assert!(p.proven);
    assert_eq!(p.score, 342);
    assert_eq!(replay_jumps(&setup, &p.jumps).unwrap().score, 342);
}

#[test]
fn prove_optimum_agrees_with_the_exhaustive_beam_on_4x4_boards() {
    // Boards too large for the plain enumeration, small enough that a beam that drops
    // nothing is exhaustive (a second, independent exact method).
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    for _ in 0..6 {
        let hole = rng.random_range(0..16);
        let rows: Vec<String> = (0..4)
            .map(|r| {
                (0..4)
                    .map(|c| match 4 * r + c == hole {
                        true => "0".to_string(),
                        false => rng.random_range(1..=40).to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let setup = Setup::parse("4x4", &format!("[{}]", rows.join(";"))).unwrap();
        let beam = weighted::weighted_search(&setup, 10_000_000);
        assert!(beam.optimal);
        let p =
            weighted::prove_optimum(&setup, &weighted::ProveOptions::default(), |_| true).unwrap();
        assert!(p.proven);
        assert_eq!(p.score, beam.score, "\n{}", show(&setup));
        assert_eq!(replay_jumps(&setup, &p.jumps).unwrap().score, p.score);
    }
}

#[test]
fn prove_optimum_reports_a_table_it_cannot_allocate_instead_of_aborting() {
    // 2^63 entries of 48 bytes exceed any address space: the allocator's refusal is an
    // error the caller can print, with the size asked for.
    let setup = Setup::parse("small", "[1 1 0;1 1 1]").unwrap();
    let options = weighted::ProveOptions {
        table_entries: usize::MAX,
        ..Default::default()
    };
    match weighted::prove_optimum(&setup, &options, |_| true) {
        Err(weighted::ProveError::Memory { mb }) => assert_eq!(mb, ((48u128 << 63) >> 20) as u64),
        other => panic!("expected a memory error, got {other:?}"),
    }
}
