//! Moves as text, the way `ply hanoi solve` prints them: `F T` lines (1-based pegs), or the
//! `[F,T]` pairs of a JSON array. Written a block at a time, so that a solution of billions of
//! moves streams at the speed its moves are made ([`Moves::fill`]), and classic transfers of
//! the [`TOWER_DISCS`] smallest discs are copied whole from text made once.

use std::io::{self, Write};

use super::plan::Run;
use super::three_peg::RecursiveMoves;
use super::{Move, Moves, Peg};

/// Moves made and turned into text at a time.
const BLOCK: usize = 1 << 13;

/// The text written at a time: 128 KiB, room for a block at 16 bytes a move. Small enough
/// that it and the six transfers of [`TOWER_DISCS`] stay in a 1 MiB L2 cache: with a 1 MiB
/// buffer and 256 KiB transfers the copies ran 12 times slower (2026-11-26, 28 discs).
const BUFFER: usize = BLOCK * 16;

/// Discs whose classic transfer (2^12 - 1 moves, 16 KiB of `F T` lines) is kept as text and
/// copied whole: in a classic transfer of more discs they make that transfer between every
/// two moves of a larger disc, the same moves up to the names of the three pegs, so one move
/// in 4,096 is turned into text on its own.
pub const TOWER_DISCS: usize = 12;

/// Transfers made as text at most at a time (3 pegs need 6; more pegs may need more).
const MAX_TOWERS: usize = 12;

/// Writes every move of `moves` to `out`, as `F T\n` lines, or when `json` as `[F,T]` pairs
/// separated by commas (the caller writes the array's brackets); gives how many moves.
///
/// ```
/// use ply_puzzles::hanoi::{Peg, Position, solve, text};
/// let (start, goal) = (Position::perfect(3, 3, Peg(0)), Position::perfect(3, 3, Peg(2)));
/// let moves = solve(&start, &goal, Default::default()).unwrap().path(0).unwrap();
/// let mut out = Vec::new();
/// assert_eq!(text::write_moves(&mut out, moves, false).unwrap(), 7);
/// assert_eq!(out, b"1 3\n1 2\n3 2\n1 3\n2 1\n2 3\n1 3\n");
/// ```
///
/// # Errors
/// The first error of `out`.
pub fn write_moves(out: &mut impl Write, moves: Moves, json: bool) -> io::Result<u64> {
    write_moves_with(out, moves, json, TOWER_DISCS)
}

/// [`write_moves`] with the classic transfers of `tower_discs` discs (1 to 63) copied from
/// text (the tests take small ones, to cover the copies with short solutions).
pub(crate) fn write_moves_with(
    out: &mut impl Write,
    mut moves: Moves,
    json: bool,
    tower_discs: usize,
) -> io::Result<u64> {
    let mut count = 0u64;
    let mut block = vec![Move::new(0, 0); BLOCK];
    let mut text = vec![0u8; BUFFER];
    let mut len = 0;
    let mut towers = Towers {
        discs: tower_discs,
        json,
        made: Vec::new(),
    };
    loop {
        match moves.fill_run(&mut block, tower_discs) {
            Run::Moves(0) => break,
            Run::Moves(got) => {
                if text.len() - len < 16 * got {
                    out.write_all(&text[..len])?;
                    len = 0;
                }
                let block = &block[..got];
                len += format_moves(&mut text[len..], block, json, count == 0);
                count += got as u64;
            }
            Run::Tower { from, to, via } => {
                let tower = towers.text(from, to, via);
                // The comma before the first pair of the array is left out.
                let tower = if json && count == 0 {
                    &tower[1..]
                } else {
                    tower
                };
                if text.len() - len < tower.len() {
                    out.write_all(&text[..len])?;
                    len = 0;
                }
                if tower.len() <= text.len() {
                    text[len..len + tower.len()].copy_from_slice(tower);
                    len += tower.len();
                } else {
                    out.write_all(tower)?;
                }
                count += (1u64 << tower_discs) - 1;
            }
        }
    }
    out.write_all(&text[..len])?;
    Ok(count)
}

/// `moves` as text at the start of `buf` (16 bytes a move at most), the first one without a
/// comma before it when `first`; gives the length.
fn format_moves(buf: &mut [u8], block: &[Move], json: bool, first: bool) -> usize {
    // Pegs 1 to 9 take one digit each: 4 bytes a move, no formatting.
    let one_digit = block.iter().all(|mv| mv.from.0 < 9 && mv.to.0 < 9);
    if !json && one_digit {
        for (dst, mv) in buf.chunks_exact_mut(4).zip(block) {
            dst.copy_from_slice(&[b'1' + mv.from.0, b' ', b'1' + mv.to.0, b'\n']);
        }
        4 * block.len()
    } else {
        let mut len = 0;
        for (k, &mv) in block.iter().enumerate() {
            len += format_move(&mut buf[len..], mv, json, first && k == 0);
        }
        len
    }
}

/// A transfer's `(from, to, via)`.
type Pegs = (u8, u8, u8);

/// The classic transfers of a few smallest discs as text, made when first asked for.
struct Towers {
    discs: usize,
    json: bool,
    /// `((from, to, via), text)`; in JSON each pair has its comma before it.
    made: Vec<(Pegs, Box<[u8]>)>,
}

impl Towers {
    fn text(&mut self, from: u8, to: u8, via: u8) -> &[u8] {
        let key = (from, to, via);
        if let Some(i) = self.made.iter().position(|(k, _)| *k == key) {
            return &self.made[i].1;
        }
        if self.made.len() == MAX_TOWERS {
            self.made.clear();
        }
        let mut text = Vec::new();
        let mut one = [0u8; 16];
        for mv in RecursiveMoves::new(self.discs, Peg(from), Peg(to), Peg(via)) {
            let n = format_move(&mut one, mv, self.json, false);
            text.extend_from_slice(&one[..n]);
        }
        self.made.push((key, text.into_boxed_slice()));
        &self.made[self.made.len() - 1].1
    }
}

/// `F T\n`, or `[F,T]` with a comma first unless `first`, 1-based, at the start of `buf`
/// (at least 16 bytes); gives the length.
fn format_move(buf: &mut [u8], mv: Move, json: bool, first: bool) -> usize {
    let mut len = 0;
    let mut push = |byte: u8| {
        buf[len] = byte;
        len += 1;
    };
    let number = |push: &mut dyn FnMut(u8), n: u8| {
        let n = u16::from(n) + 1;
        if n >= 100 {
            push(b'0' + (n / 100) as u8);
        }
        if n >= 10 {
            push(b'0' + (n / 10 % 10) as u8);
        }
        push(b'0' + (n % 10) as u8);
    };
    if json {
        if !first {
            push(b',');
        }
        push(b'[');
        number(&mut push, mv.from.0);
        push(b',');
        number(&mut push, mv.to.0);
        push(b']');
    } else {
        number(&mut push, mv.from.0);
        push(b' ');
        number(&mut push, mv.to.0);
        push(b'\n');
    }
    len
}

#[cfg(test)]
mod tests {
    use super::super::frame_stewart::FrameStewart;
    use super::super::plan::Step;
    use super::super::solve::{SolveLimits, longest};
    use super::super::three_peg::kth_move;
    use super::super::{Position, solve};
    use super::*;

    /// The text of `moves` written one by one: `Display` lines, or JSON pairs by hand.
    fn reference(moves: impl Iterator<Item = Move>, json: bool) -> String {
        if json {
            let pairs: Vec<String> = moves
                .map(|m| format!("[{},{}]", m.from.0 + 1, m.to.0 + 1))
                .collect();
            pairs.join(",")
        } else {
            moves.map(|m| format!("{m}\n")).collect()
        }
    }

    /// A named way to make a move sequence (as often as needed).
    type Task = (String, Box<dyn Fn() -> Moves>);

    /// Every task `ply hanoi solve` streams with `write_moves`, up to `n` discs: 3 pegs
    /// between any two towers and between scattered positions (both shortest paths where
    /// two exist), the longest solution, 4 and 12 pegs (Frame–Stewart and the gathering
    /// method, two-digit pegs), and classic transfers between two-digit pegs.
    fn tasks(n: usize) -> Vec<Task> {
        let mut tasks: Vec<Task> = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ n as u64;
        let mut scattered = |pegs: usize| {
            let on: Vec<u8> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    ((seed >> 33) % pegs as u64) as u8
                })
                .collect();
            Position::from_pegs(pegs, on)
        };
        let mut pairs: Vec<(usize, Position, Position)> = Vec::new();
        for a in 0..3u8 {
            for b in 0..3u8 {
                if a != b {
                    pairs.push((
                        0,
                        Position::perfect(n, 3, Peg(a)),
                        Position::perfect(n, 3, Peg(b)),
                    ));
                }
            }
        }
        for _ in 0..3 {
            pairs.push((0, scattered(3), scattered(3)));
        }
        pairs.push((0, Position::perfect(n, 3, Peg(0)), scattered(3)));
        if n <= 9 {
            pairs.push((
                0,
                Position::perfect(n, 4, Peg(0)),
                Position::perfect(n, 4, Peg(3)),
            ));
            pairs.push((0, scattered(4), scattered(4)));
        }
        pairs.push((
            0,
            Position::perfect(n, 12, Peg(0)),
            Position::perfect(n, 12, Peg(11)),
        ));
        pairs.push((0, scattered(12), scattered(12)));
        // Two shortest paths (`--second`): `13222...` to `31222...` (largest disc first),
        // the largest disc moved once or twice in 2^n - 1 moves either way.
        if n >= 2 {
            let tie = |largest: u8, next: u8| {
                let mut on = vec![1; n - 2];
                on.extend([next, largest]);
                Position::from_pegs(3, on)
            };
            pairs.push((0, tie(0, 2), tie(2, 0)));
        }
        let with_second: Vec<(usize, Position, Position)> = pairs
            .iter()
            .filter(|(_, s, g)| {
                s.pegs() == 3 && solve(s, g, SolveLimits { bfs_bytes: 0 }).unwrap().paths() == 2
            })
            .map(|(_, s, g)| (1, s.clone(), g.clone()))
            .collect();
        pairs.extend(with_second);
        for (which, start, goal) in pairs {
            let name = format!("{start} -> {goal}, path {which}");
            let solution = solve(&start, &goal, SolveLimits { bfs_bytes: 0 }).unwrap();
            tasks.push((name, Box::new(move || solution.path(which).unwrap())));
        }
        if n <= 7 {
            tasks.push((
                format!("longest {n}"),
                Box::new(move || longest(n, Peg(0), Peg(2))),
            ));
        }
        for (from, to, via) in [(10, 3, 11), (0, 9, 8), (11, 10, 9)] {
            let plan = vec![
                Step::One(Move::new(from, via)),
                Step::Classic {
                    discs: n as u32,
                    from,
                    to,
                    via,
                },
                Step::Classic {
                    discs: n as u32,
                    from: to,
                    to: via,
                    via: from,
                },
            ];
            tasks.push((
                format!("classic {from}-{to}-{via}"),
                Box::new(move || Moves::new(plan.clone(), FrameStewart::new())),
            ));
        }
        tasks
    }

    /// The copied transfers give the text of the moves written one by one, for every task
    /// up to 14 discs, every size of copied transfer that fits, lines and JSON.
    #[test]
    fn copied_transfers_match_the_moves_one_by_one() {
        for n in 1..=14 {
            let tasks = tasks(n);
            assert!(n < 2 || tasks.iter().any(|(name, _)| name.ends_with("path 1")));
            for (name, moves) in tasks {
                for json in [false, true] {
                    let want = reference(moves(), json);
                    for tower_discs in [1, 2, 3, 5, 9, TOWER_DISCS] {
                        if tower_discs > n + 1 && tower_discs != TOWER_DISCS {
                            continue;
                        }
                        let mut got = Vec::new();
                        let count = write_moves_with(&mut got, moves(), json, tower_discs).unwrap();
                        assert_eq!(count, moves().count() as u64, "{name}");
                        assert!(
                            got == want.as_bytes(),
                            "{name}, {n} discs, json {json}, towers of {tower_discs}"
                        );
                    }
                }
            }
        }
    }

    /// A solution long enough for many copies of the real transfer size: 20 discs whole, and
    /// the first and last moves of 23 discs (and its length).
    #[test]
    fn copied_transfers_in_long_solutions() {
        let classic = |n: usize| {
            let (s, g) = (
                Position::perfect(n, 3, Peg(0)),
                Position::perfect(n, 3, Peg(2)),
            );
            solve(&s, &g, SolveLimits::default()).unwrap().moves()
        };
        for json in [false, true] {
            let mut got = Vec::new();
            write_moves(&mut got, classic(20), json).unwrap();
            assert!(
                got == reference(classic(20), json).as_bytes(),
                "json {json}"
            );
        }
        let n = 23;
        let mut got = Vec::new();
        assert_eq!(
            write_moves(&mut got, classic(n), false).unwrap(),
            (1 << n) - 1
        );
        assert_eq!(got.len(), 4 * ((1 << n) - 1));
        let head = reference(classic(n).take(100_000), false);
        assert!(got.starts_with(head.as_bytes()));
        let last = (1u64 << n) - 1;
        let tail = reference(
            (last - 5_000..=last)
                .map(|k| kth_move(n, Peg(0), Peg(2), Peg(1), &k.into()).unwrap().1),
            false,
        );
        assert!(got.ends_with(tail.as_bytes()));
    }

    /// Every form against `Display` and serde-free JSON written by hand, on moves with one,
    /// two and three digits, across block boundaries.
    #[test]
    fn text_matches_display_and_json_for_every_peg_width() {
        let moves: Vec<Move> = (0..(3 * BLOCK as u32 + 7))
            .map(|i| Move::new((i % 200) as u8, ((i * 7 + 3) % 130) as u8))
            .collect();
        let mut lines = Vec::new();
        write_moves(&mut lines, Moves::from_moves(moves.clone()), false).unwrap();
        let want: String = moves.iter().map(|m| format!("{m}\n")).collect();
        assert_eq!(String::from_utf8(lines).unwrap(), want);
        let mut json = Vec::new();
        write_moves(&mut json, Moves::from_moves(moves.clone()), true).unwrap();
        let want: Vec<String> = moves
            .iter()
            .map(|m| format!("[{},{}]", m.from.0 + 1, m.to.0 + 1))
            .collect();
        assert_eq!(String::from_utf8(json).unwrap(), want.join(","));
    }

    /// The fast 4-byte path gives the same text as the general one.
    #[test]
    fn one_digit_pegs_take_the_fast_path_with_the_same_text() {
        let moves: Vec<Move> = (0..20_000u32)
            .map(|i| Move::new((i % 9) as u8, ((i / 9) % 9) as u8))
            .collect();
        let mut fast = Vec::new();
        write_moves(&mut fast, Moves::from_moves(moves.clone()), false).unwrap();
        let mut slow = vec![0u8; 16];
        let mut want = Vec::new();
        for &m in &moves {
            let n = format_move(&mut slow, m, false, false);
            want.extend_from_slice(&slow[..n]);
        }
        assert_eq!(fast, want);
    }
}
