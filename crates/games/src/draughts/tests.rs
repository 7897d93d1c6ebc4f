//! Facts Draughts must satisfy: the statement's sample, valid and invalid moves, the rule
//! choices, the fast generator against a plain one, golden perft figures.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use ply_core::{Game, Outcome, Seat};

use super::*;
use crate::HackerEarth;

ply_testkit::conformance!(super::Draughts, games = 300);

const FIRST_INPUT: &str = "\
0 1 0 1 0 1 0 1
1 0 1 0 1 0 1 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 2 0 2 0 2 0 2
2 0 2 0 2 0 2 0
1
";

const SAMPLE_INPUT: &str = "\
0 1 0 1 0 1 0 1
1 0 1 0 1 0 0 0
0 0 0 0 0 1 0 0
0 0 0 0 2 0 0 0
0 0 0 0 0 0 0 0
0 0 2 0 0 0 0 0
0 0 0 2 0 0 0 2
2 0 2 0 2 0 2 0
1
";

const SAMPLE_OUTPUT: &str = "2 5\n2\n4 3\n6 1\n";

const SAMPLE_NEXT: &str = "\
0 1 0 1 0 1 0 1
1 0 1 0 1 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 0 0 0 0 0 0 0
0 1 0 2 0 2 0 2
2 0 2 0 2 0 2 0
";

#[test]
fn first_input_is_the_start_position() {
    assert_eq!(Draughts::start().write_input(), FIRST_INPUT);
    assert_eq!(
        Draughts::read_input(FIRST_INPUT).unwrap(),
        Draughts::start()
    );
}

/// The published next state has a man of player 2 on 6 5, where the sample input has none
/// and which no move of player 1 can fill: a typo in the statement. Everything else matches.
#[test]
fn sample_move_is_legal_and_gives_the_published_next_state_but_for_its_typo() {
    let mut state = Draughts::read_input(SAMPLE_INPUT).unwrap();
    assert_eq!(state.write_input(), SAMPLE_INPUT);
    let mv = state.read_move(SAMPLE_OUTPUT).unwrap();
    assert_eq!(state.write_move(mv), SAMPLE_OUTPUT);
    state.play(mv).unwrap();
    let ours = state.write_input();
    let published = format!("{SAMPLE_NEXT}2\n");
    let differ: Vec<usize> = ours
        .bytes()
        .zip(published.bytes())
        .enumerate()
        .filter(|(_, (a, b))| a != b)
        .map(|(i, _)| i)
        .collect();
    assert_eq!(ours.len(), published.len());
    // Byte 6 * 16 + 2 * 5 is row 6, column 5.
    assert_eq!(differ, [6 * 16 + 2 * 5]);
    assert_eq!(SAMPLE_INPUT.as_bytes()[6 * 16 + 2 * 5], b'0');
}

/// With the typo mended in the input (a man of player 2 on 6 5, which no jump of the
/// sample touches), the published next state comes out byte for byte.
#[test]
fn sample_with_the_typo_mended_gives_the_published_next_state_exactly() {
    let mended = SAMPLE_INPUT.replace("0 0 0 2 0 0 0 2\n2", "0 0 0 2 0 2 0 2\n2");
    assert_ne!(mended, SAMPLE_INPUT);
    let mut state = Draughts::read_input(&mended).unwrap();
    let mv = state.read_move(SAMPLE_OUTPUT).unwrap();
    state.play(mv).unwrap();
    assert_eq!(state.write_input(), format!("{SAMPLE_NEXT}2\n"));
}

#[test]
fn statement_other_valid_move_a_step_while_a_jump_exists() {
    let mut state = Draughts::read_input(SAMPLE_INPUT).unwrap();
    let mv = state.read_move("2 5\n1\n3 6\n").unwrap();
    assert!(!mv.is_capture());
    state.play(mv).unwrap();
}

#[test]
fn statement_invalid_case_1_stopping_a_chain_early() {
    let mut state = Draughts::read_input(SAMPLE_INPUT).unwrap();
    let mv = state.read_move("2 5\n1\n4 3\n").unwrap();
    let e = state.play(mv).unwrap_err();
    assert!(
        e.reason.contains("another jump is possible"),
        "{}",
        e.reason
    );
}

#[test]
fn statement_invalid_case_2_step_after_a_jump() {
    let mut state = Draughts::read_input(SAMPLE_INPUT).unwrap();
    let mv = state.read_move("2 5\n2\n4 3\n5 4\n").unwrap();
    let e = state.play(mv).unwrap_err();
    assert!(e.reason.contains("after a jump"), "{}", e.reason);
}

#[test]
fn sample_legal_moves_of_the_jumping_man() {
    let state = Draughts::read_input(SAMPLE_INPUT).unwrap();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let from_2_5: Vec<String> = moves
        .iter()
        .filter(|m| m.from() == 2 * 8 + 5)
        .map(|m| m.to_string())
        .collect();
    assert_eq!(from_2_5, ["(2,5)->(3,6)", "(2,5)->(4,3)->(6,1)"]);
}

#[test]
fn men_never_move_backwards_nor_promote_and_the_stuck_side_ends_the_game() {
    // Player 1's only man is on its last row: no move, so the game ends 1 man to 1: draw.
    let state: Draughts =
        "......../......../......../......../......../......../.....o../x....... x"
            .parse()
            .unwrap();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    assert!(moves.is_empty());
    assert_eq!(state.outcome(), Some(Outcome::Draw));
    // Player 2 to move instead: it steps up, the game goes on.
    let other: Draughts =
        "......../......../......../......../......../......../.....o../x....... o"
            .parse()
            .unwrap();
    other.legal_moves(&mut moves);
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m.landings()[0] / 8 == 5));
}

#[test]
fn majority_wins_when_the_mover_is_stuck() {
    let state: Draughts =
        "......../......../......../......../......../......../......../x.x...o. x"
            .parse()
            .unwrap();
    assert_eq!(state.outcome(), Some(Outcome::Win(Seat::FIRST)));
}

#[test]
fn branching_chains_give_every_maximal_branch() {
    // The man on 0 1 may step to 1 0, or jump to 2 3 and then on to 4 1 or to 4 5; stopping
    // on 2 3 is not a move.
    let state: Draughts =
        ".x....../..o...../......../..o.o.../......../......../......../........ x"
            .parse()
            .unwrap();
    let mut moves = Vec::new();
    state.legal_moves(&mut moves);
    let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        texts,
        ["(0,1)->(1,0)", "(0,1)->(2,3)->(4,1)", "(0,1)->(2,3)->(4,5)"]
    );
}

type Grid = [[u8; 8]; 8];

fn grid_of(state: &Draughts) -> Grid {
    let mut g = [[0u8; 8]; 8];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = state.at(r, c).map_or(0, |s| s.number() as u8);
        }
    }
    g
}

type Path = Vec<(i32, i32)>;

fn chain(g: Grid, path: Path, me: u8, fwd: i32, out: &mut Vec<(Path, Grid)>) {
    let (r, c) = *path.last().unwrap();
    let mut more = false;
    for dc in [-1, 1] {
        let (or, oc, lr, lc) = (r + fwd, c + dc, r + 2 * fwd, c + 2 * dc);
        if (0..8).contains(&lr)
            && (0..8).contains(&lc)
            && g[or as usize][oc as usize] == 3 - me
            && g[lr as usize][lc as usize] == 0
        {
            more = true;
            let mut g2 = g;
            g2[r as usize][c as usize] = 0;
            g2[or as usize][oc as usize] = 0;
            g2[lr as usize][lc as usize] = me;
            let mut p2 = path.clone();
            p2.push((lr, lc));
            chain(g2, p2, me, fwd, out);
        }
    }
    if !more && path.len() > 1 {
        out.push((path, g));
    }
}

/// The obviously correct generator: coordinates, a grid, recursion on copies.
fn plain_moves(state: &Draughts) -> Vec<(Path, Grid)> {
    let me = state.to_move().number() as u8;
    let fwd = if me == 1 { 1 } else { -1 };
    let g = grid_of(state);
    let mut out = Vec::new();
    for r in 0..8i32 {
        for c in 0..8i32 {
            if g[r as usize][c as usize] != me {
                continue;
            }
            for dc in [-1, 1] {
                let (tr, tc) = (r + fwd, c + dc);
                if (0..8).contains(&tr) && (0..8).contains(&tc) && g[tr as usize][tc as usize] == 0
                {
                    let mut g2 = g;
                    g2[r as usize][c as usize] = 0;
                    g2[tr as usize][tc as usize] = me;
                    out.push((vec![(r, c), (tr, tc)], g2));
                }
            }
            chain(g, vec![(r, c)], me, fwd, &mut out);
        }
    }
    out.sort();
    out
}

fn to_move(path: &[(i32, i32)]) -> Move {
    let cells: Vec<usize> = path.iter().map(|&(r, c)| (r * 8 + c) as usize).collect();
    Move::new(cells[0], &cells[1..])
}

impl ply_testkit::PlainRules for Draughts {
    type After = Grid;

    fn plain_moves(&self) -> Vec<(Move, Grid)> {
        plain_moves(self)
            .into_iter()
            .map(|(path, grid)| (to_move(&path), grid))
            .collect()
    }

    fn after(&self) -> Grid {
        grid_of(self)
    }
}

/// Random positions: random games from the start, and from scattered random boards (to
/// reach long chains and odd placements the start rarely gives).
#[test]
fn fast_generator_matches_plain_on_random_positions() {
    let mut chains = 0;
    let start = |game: usize, rng: &mut ChaCha8Rng| {
        if game.is_multiple_of(2) {
            return Draughts::start();
        }
        let (mut a, mut b) = (0u64, 0u64);
        for i in 0..64 {
            match rng.random_range(0..6) {
                0 => a |= 1 << i,
                1 => b |= 1 << i,
                _ => {}
            }
        }
        let turn = if rng.random_bool(0.5) {
            Seat::FIRST
        } else {
            Seat::SECOND
        };
        Draughts::from_men(a, b, turn)
    };
    let checked = ply_testkit::check_against_plain(400, 6, start, |_, moves| {
        chains += moves.iter().filter(|m| m.landings().len() > 1).count();
    });
    assert!(
        checked > 5000 && chains > 100,
        "{checked} positions, {chains} chains"
    );
}

#[test]
fn perft_golden_file_and_plain_agree() {
    ply_testkit::check_perft::<Draughts>("draughts.perft", 300_000, 6, 5);
}

#[test]
fn playthrough_golden() {
    ply_testkit::assert_playthrough::<Draughts>(5);
}

#[test]
fn malformed_inputs_are_rejected_with_line_and_column() {
    let e = Draughts::read_input(&SAMPLE_INPUT.replace("0 0 2 0 0 0 0 0", "0 0 2 0 141 0 0 0"))
        .unwrap_err();
    assert_eq!((e.line, e.column), (6, 9), "{e}");
    let e = Draughts::read_input(&SAMPLE_INPUT.replace("0 0 2 0 0 0 0 0", "0 0 2 0 0 0 0"))
        .unwrap_err();
    assert_eq!(e.line, 6, "{e}");
    let e = Draughts::read_input(&SAMPLE_INPUT.replace("0\n1\n", "0\n3\n")).unwrap_err();
    assert_eq!((e.line, e.column), (9, 1), "{e}");
    // A man on a light square (row 5, column 1: row + column even), which the endgame
    // tables cannot index: once a panic in `ply bot draughts`.
    let e = Draughts::read_input(&SAMPLE_INPUT.replace("0 0 2 0 0 0 0 0", "0 2 2 0 0 0 0 0"))
        .unwrap_err();
    assert_eq!((e.line, e.column), (6, 3), "{e}");
    assert!(
        e.to_string().contains("light square (row 5, column 1)"),
        "{e}"
    );
    let e = ".x....../......../......../......../......../......../......o./........ x"
        .parse::<Draughts>()
        .unwrap_err();
    assert_eq!((e.line, e.column), (1, 61), "{e}");
    assert!(
        e.to_string().contains("light square (row 6, column 6)"),
        "{e}"
    );
    let state = Draughts::read_input(SAMPLE_INPUT).unwrap();
    assert!(state.read_move("2 5\n4\n").is_err());
    assert!(state.read_move("2 5\n1\n").is_err());
    assert!(state.read_move("2 5\n1\n9 9\n").is_err());
}
