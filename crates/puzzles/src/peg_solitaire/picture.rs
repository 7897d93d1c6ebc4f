//! Pictures: boards as text for the terminal, and SVG for a board or a solution move by
//! move.

use std::fmt::Write as _;

use super::board::{Board, Hole, Jump};
use super::moves::group_moves;

/// The board as text: `o` a peg (or its weight when `weights` is given and not all 1),
/// `.` an empty hole, blank off the board; row and column numbers from 1 around it.
///
/// ```
/// use ply_puzzles::peg_solitaire::{Standard, picture::text};
/// let b = Standard::English.board();
/// let t = text(&b, b.full_but(1 << 27), None);
/// assert!(t.lines().nth(4).unwrap().starts_with("4  o o o . o o o"));
/// ```
pub fn text(board: &Board, pegs: u64, weights: Option<&[u32]>) -> String {
    let weighted = weights.is_some_and(|w| board.bits().any(|b| w[b as usize] > 1));
    let width = if weighted {
        weights
            .map(|w| w.iter().max().copied().unwrap_or(1).to_string().len())
            .unwrap_or(1)
    } else {
        1
    };
    let mut s = String::from("   ");
    for c in 0..board.cols() {
        let _ = write!(s, "{:>width$} ", (c + 1) % 10);
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for r in 0..board.rows() {
        let mut line = format!("{:<2} ", r + 1);
        for c in 0..board.cols() {
            let cell = match board.bit(Hole::new(r as u8, c as u8)) {
                None => " ".to_string(),
                Some(b) if pegs >> b & 1 == 1 => match (weighted, weights) {
                    (true, Some(w)) => w[b as usize].to_string(),
                    _ => "o".to_string(),
                },
                Some(_) => ".".to_string(),
            };
            let _ = write!(line, "{cell:>width$} ");
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

const CELL: f64 = 24.0;

fn board_svg(s: &mut String, board: &Board, pegs: u64, x0: f64, y0: f64, path: &[Hole]) {
    let centre = |h: Hole| {
        (
            x0 + (h.col as f64 + 0.5) * CELL,
            y0 + (h.row as f64 + 0.5) * CELL,
        )
    };
    for bit in board.bits() {
        let (x, y) = centre(board.hole(bit));
        let _ = writeln!(
            s,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#ddd" stroke="#888"/>"##,
            CELL * 0.4
        );
        if pegs >> bit & 1 == 1 {
            let _ = writeln!(
                s,
                r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#36c"/>"##,
                CELL * 0.3
            );
        }
    }
    if path.len() >= 2 {
        let pts: Vec<String> = path
            .iter()
            .map(|&h| {
                let (x, y) = centre(h);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            s,
            r##"<polyline points="{}" fill="none" stroke="#d33" stroke-width="3"/>"##,
            pts.join(" ")
        );
        let (x, y) = centre(path[path.len() - 1]);
        let _ = writeln!(
            s,
            r##"<circle cx="{x:.1}" cy="{y:.1}" r="{:.1}" fill="#d33"/>"##,
            CELL * 0.15
        );
    }
}

/// One board as SVG.
pub fn svg(board: &Board, pegs: u64) -> String {
    let (w, h) = (board.cols() as f64 * CELL, board.rows() as f64 * CELL);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    s.push('\n');
    board_svg(&mut s, board, pegs, 0.0, 0.0, &[]);
    s.push_str("</svg>\n");
    s
}

/// A solution as SVG: the start, then the board after each move with the move's path
/// drawn in red, in rows of `per_row` boards, each captioned.
pub fn solution_svg(board: &Board, start: u64, jumps: &[Jump], per_row: usize) -> String {
    let holes: Vec<(Hole, Hole)> = jumps
        .iter()
        .map(|j| (board.hole(j.from), board.hole(j.to)))
        .collect();
    let moves = group_moves(&holes);
    let mut frames: Vec<(u64, Vec<Hole>, String)> = vec![(start, Vec::new(), "start".into())];
    let mut pegs = start;
    let mut it = jumps.iter();
    for (i, m) in moves.iter().enumerate() {
        for _ in 1..m.len() {
            pegs = it.next().expect("moves come from these jumps").apply(pegs);
        }
        let label = m.iter().map(Hole::to_string).collect::<Vec<_>>().join("-");
        frames.push((pegs, m.clone(), format!("{}. {label}", i + 1)));
    }
    let per_row = per_row.max(1);
    let fw = board.cols() as f64 * CELL + CELL;
    let fh = board.rows() as f64 * CELL + CELL * 1.5;
    let cols = per_row.min(frames.len());
    let rows = frames.len().div_ceil(per_row);
    let (w, h) = (cols as f64 * fw, rows as f64 * fh);
    let mut s = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    s.push('\n');
    for (i, (p, path, label)) in frames.iter().enumerate() {
        let x0 = (i % per_row) as f64 * fw;
        let y0 = (i / per_row) as f64 * fh;
        let _ = writeln!(
            s,
            r#"<text x="{:.1}" y="{:.1}">{label}</text>"#,
            x0 + 4.0,
            y0 + 14.0
        );
        board_svg(&mut s, board, *p, x0, y0 + CELL * 0.8, path);
    }
    s.push_str("</svg>\n");
    s
}
