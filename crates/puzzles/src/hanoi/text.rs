//! Moves as text, the way `ply hanoi solve` prints them: `F T` lines (1-based pegs), or the
//! `[F,T]` pairs of a JSON array. Written a block at a time, so that a solution of billions of
//! moves streams at the speed its moves are made ([`Moves::fill`]).

use std::io::{self, Write};

use super::{Move, Moves};

/// Moves made and turned into text at a time.
const BLOCK: usize = 1 << 13;

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
pub fn write_moves(out: &mut impl Write, mut moves: Moves, json: bool) -> io::Result<u64> {
    let mut count = 0u64;
    let mut block = vec![Move::new(0, 0); BLOCK];
    let mut text = vec![0u8; BLOCK * 16];
    loop {
        let got = moves.fill(&mut block);
        if got == 0 {
            return Ok(count);
        }
        let block = &block[..got];
        // Pegs 1 to 9 take one digit each: 4 bytes a move, no formatting (always so on 3
        // pegs, the only case with billions of moves).
        let one_digit = block.iter().all(|mv| mv.from.0 < 9 && mv.to.0 < 9);
        let len = if !json && one_digit {
            for (dst, mv) in text.chunks_exact_mut(4).zip(block) {
                dst.copy_from_slice(&[b'1' + mv.from.0, b' ', b'1' + mv.to.0, b'\n']);
            }
            4 * got
        } else {
            let mut len = 0;
            for (k, &mv) in block.iter().enumerate() {
                len += format_move(&mut text[len..], mv, json, count + k as u64 == 0);
            }
            len
        };
        count += got as u64;
        out.write_all(&text[..len])?;
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
    use super::*;

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
