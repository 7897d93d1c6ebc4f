//! The 3-peg state graph: positions are vertices, moves are edges. Drawn with the largest
//! disc choosing a corner of a triangle, the next disc a corner of the sub-triangle, and so
//! on, it is the Sierpinski triangle; the sides of the outer triangle are the classic optimal
//! solutions.

use std::collections::HashSet;
use std::fmt::Write;

use super::{Move, Position};

/// Every position of `n` discs on 3 pegs, in the order of their number in base 3 (largest
/// disc most significant).
pub fn positions(n: usize) -> Vec<Position> {
    let count = 3usize.pow(n as u32);
    (0..count)
        .map(|mut i| {
            let on = (0..n)
                .map(|_| {
                    let p = (i % 3) as u8;
                    i /= 3;
                    p
                })
                .collect();
            Position::from_pegs(3, on)
        })
        .collect()
}

/// The point of a position in the Sierpinski layout, in a unit-side triangle with peg 1 at
/// the top, peg 2 bottom left and peg 3 bottom right.
///
/// The largest disc picks a corner; the smaller discs are drawn in that corner's
/// sub-triangle *with the other two pegs' corners swapped*. Without the swap (the first
/// version) the sub-triangles were plain copies, the edges where a larger disc moves ran
/// across the picture (12 crossings at 3 discs) and the optimal path zig-zagged through the
/// middle; with it, every edge has the same length, none crosses another, and each
/// tower-to-tower solution runs along a side.
fn point(p: &Position) -> (f64, f64) {
    const CORNERS: [(f64, f64); 3] = [(0.5, 0.0), (0.0, 0.866_025_4), (1.0, 0.866_025_4)];
    let n = p.discs();
    let (mut x, mut y) = (0.0, 0.0);
    let mut scale = 0.5;
    // corner[peg]: where that peg's corner is in the current sub-triangle.
    let mut corner = [0usize, 1, 2];
    for d in (0..n).rev() {
        let peg = p.peg_of(d).index();
        let (cx, cy) = CORNERS[corner[peg]];
        x += cx * scale;
        y += cy * scale;
        scale /= 2.0;
        let (a, b) = ((peg + 1) % 3, (peg + 2) % 3);
        corner.swap(a, b);
    }
    // Centre the last sub-triangle's corner: scale the sum so the extreme corners land on
    // the triangle's corners.
    let fill = 1.0 - 2.0 * scale;
    if fill > 0.0 {
        (x / fill, y / fill)
    } else {
        (0.5, 0.5)
    }
}

/// Every edge once, as pairs of positions (the smaller first) with the move between them.
fn edges(states: &[Position]) -> Vec<(Position, Position)> {
    let mut out = Vec::new();
    for s in states {
        for mv in s.legal_moves() {
            let mut t = s.clone();
            t.play_unchecked(mv);
            if *s < t {
                out.push((s.clone(), t));
            }
        }
    }
    out
}

/// The positions visited by `moves` from `start` (start included).
fn visited(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut cur = start.clone();
    let mut out = vec![cur.clone()];
    for &mv in moves {
        cur.play_unchecked(mv);
        out.push(cur.clone());
    }
    out
}

/// The state graph of `n` discs as Graphviz dot, with the edges of `path` (moves from
/// `start`) in red. Vertices are named by their positions (`"113"`).
pub fn dot(n: usize, highlight: Option<(&Position, &[Move])>) -> String {
    let states = positions(n);
    let path = highlight.map(|(s, m)| visited(s, m)).unwrap_or_default();
    let on_path: HashSet<(Position, Position)> = path
        .windows(2)
        .flat_map(|w| [(w[0].clone(), w[1].clone()), (w[1].clone(), w[0].clone())])
        .collect();
    let mut out = String::from("graph hanoi {\n  node [shape=circle, fontsize=10];\n");
    for s in &states {
        let (x, y) = point(s);
        let _ = writeln!(
            out,
            "  \"{s}\" [pos=\"{:.2},{:.2}!\"];",
            x * 3.0 * (1 << n) as f64,
            -y * 3.0 * (1 << n) as f64
        );
    }
    for (a, b) in edges(&states) {
        let style = if on_path.contains(&(a.clone(), b.clone())) {
            " [color=red, penwidth=3]"
        } else {
            ""
        };
        let _ = writeln!(out, "  \"{a}\" -- \"{b}\"{style};");
    }
    out.push_str("}\n");
    out
}

/// The state graph of `n` discs as an SVG picture (Sierpinski layout), with the edges of
/// `path` (moves from `start`) in red; vertices are labelled for `n <= 4`.
pub fn svg(n: usize, highlight: Option<(&Position, &[Move])>) -> String {
    let size = 800.0;
    let margin = 30.0;
    let states = positions(n);
    let at = |p: &Position| {
        let (x, y) = point(p);
        (margin + x * size, margin + y * size)
    };
    let path = highlight.map(|(s, m)| visited(s, m)).unwrap_or_default();
    let radius = (size / (1u64 << n) as f64 / 4.0).clamp(1.0, 18.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">",
        w = size + 2.0 * margin,
        h = size * 0.8660254 + 2.0 * margin
    );
    let _ = writeln!(
        out,
        "<title>Tower of Hanoi state graph, {n} discs, 3 pegs</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g stroke=\"#888\" stroke-width=\"1\">"
    );
    for (a, b) in edges(&states) {
        let ((x1, y1), (x2, y2)) = (at(&a), at(&b));
        let _ = writeln!(
            out,
            "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\"/>"
        );
    }
    out.push_str("</g>\n");
    if path.len() > 1 {
        let points: Vec<String> = path
            .iter()
            .map(|p| {
                let (x, y) = at(p);
                format!("{x:.1},{y:.1}")
            })
            .collect();
        let _ = writeln!(
            out,
            "<polyline fill=\"none\" stroke=\"red\" stroke-width=\"3\" points=\"{}\"/>",
            points.join(" ")
        );
    }
    out.push_str("<g fill=\"#2a6\" font-family=\"monospace\" text-anchor=\"middle\">\n");
    for s in &states {
        let (x, y) = at(s);
        let _ = writeln!(
            out,
            "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"{radius:.1}\"/>"
        );
        if n <= 4 {
            let _ = writeln!(
                out,
                "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"11\" fill=\"black\">{s}</text>",
                y - radius - 3.0
            );
        }
    }
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether segments `p1 p2` and `q1 q2` cross at a point inside both (sharing an end
    /// is not crossing).
    fn cross(p1: (f64, f64), p2: (f64, f64), q1: (f64, f64), q2: (f64, f64)) -> bool {
        let orient = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
            (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
        };
        let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
        let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
        let eps = 1e-9;
        ((d1 > eps && d2 < -eps) || (d1 < -eps && d2 > eps))
            && ((d3 > eps && d4 < -eps) || (d3 < -eps && d4 > eps))
    }

    #[test]
    fn the_layout_is_the_sierpinski_triangle() {
        for n in 1..=4 {
            let states = positions(n);
            let edges = edges(&states);
            assert_eq!(edges.len(), 3 * (3usize.pow(n as u32) - 1) / 2, "n = {n}");
            let lines: Vec<_> = edges.iter().map(|(a, b)| (point(a), point(b))).collect();
            // Every edge has the same length.
            let len = |(a, b): ((f64, f64), (f64, f64))| {
                ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
            };
            let first = len(lines[0]);
            assert!(
                lines.iter().all(|&l| (len(l) - first).abs() < 1e-6),
                "n = {n}"
            );
            // No two edges cross.
            for (i, &(a, b)) in lines.iter().enumerate() {
                for &(c, d) in &lines[i + 1..] {
                    assert!(!cross(a, b, c, d), "n = {n}: crossing edges");
                }
            }
            // The optimal tower-to-tower path runs along the bottom side (pegs 2 and 3).
            let start = Position::perfect(n, 3, super::super::Peg(1));
            let moves: Vec<Move> = super::super::three_peg::RecursiveMoves::new(
                n,
                super::super::Peg(1),
                super::super::Peg(2),
                super::super::Peg(0),
            )
            .collect();
            for p in visited(&start, &moves) {
                let (_, y) = point(&p);
                assert!(
                    (y - 0.866_025_4).abs() < 1e-6,
                    "n = {n}: {p} is off the side"
                );
            }
        }
    }
}
