//! Package search, after the contest team's `findsolitairepackages`: for a small block whose
//! cells are fixed full (`1`), empty (`0`), off the board (`-1`) or either (`NaN`), the
//! graph of positions lying on some path from a start pattern to a goal pattern, and the
//! jump sequences that clear the block.
//!
//! As in the seed, the all-empty and all-full expansions of a wildcard pattern are left
//! out (they are never useful blocks). Unlike the seed, which builds the graph of all
//! `2^holes` positions, ply searches forward from the starts and backward from the goals,
//! so only positions between them are ever touched.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use thiserror::Error;

use super::board::{Board, BoardError, Geometry, Hole, Jump, bits_of};
use super::matrix::{Entry, ParseMatrixError, parse_matrix};

/// A block cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Not part of the block.
    Off,
    /// An empty hole.
    Empty,
    /// A hole with a peg.
    Full,
    /// Either (the seed's `NaN`).
    Either,
}

/// Why a package search was refused.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PackageError {
    /// Not a matrix.
    #[error("{which} block: {source}")]
    Matrix {
        which: &'static str,
        source: ParseMatrixError,
    },
    /// A cell that is not -1, 0, 1 or NaN.
    #[error(
        "{which} block, line {line}, column {column}: {value} is not -1 (off), 0 (empty), 1 (peg) or NaN (either)"
    )]
    Cell {
        which: &'static str,
        line: usize,
        column: usize,
        value: i64,
    },
    /// The two blocks differ in shape or in their off-board cells.
    #[error("the start and goal blocks must have the same shape and the same off-board (-1) cells")]
    Shape,
    /// Too many holes or none.
    #[error(transparent)]
    Board(#[from] BoardError),
    /// Too many wildcards to expand.
    #[error("{0} wildcard cells; at most 16 are expanded")]
    TooManyWildcards(usize),
}

/// The package graph.
#[derive(Clone, Debug)]
pub struct Package {
    /// The block as a board.
    pub board: Board,
    /// The positions on some start-to-goal path, ascending.
    pub states: Vec<u64>,
    /// Edges between them: `(from position, jump, to position)`, sorted.
    pub edges: Vec<(u64, Jump, u64)>,
    /// The start patterns (wildcards expanded), ascending.
    pub starts: Vec<u64>,
    /// The goal patterns (wildcards expanded), ascending.
    pub goals: Vec<u64>,
}

fn read_block(which: &'static str, text: &str) -> Result<Vec<Vec<(Cell, Entry)>>, PackageError> {
    let m = parse_matrix(text).map_err(|source| PackageError::Matrix { which, source })?;
    m.into_iter()
        .map(|row| {
            row.into_iter()
                .map(|e| {
                    let cell = match e.value {
                        None => Cell::Either,
                        Some(-1) => Cell::Off,
                        Some(0) => Cell::Empty,
                        Some(1) => Cell::Full,
                        Some(value) => {
                            return Err(PackageError::Cell {
                                which,
                                line: e.line,
                                column: e.column,
                                value,
                            });
                        }
                    };
                    Ok((cell, e))
                })
                .collect()
        })
        .collect()
}

/// The positions a pattern stands for (wildcards expanded, all-empty and all-full left
/// out, as the seed does).
fn expand(board: &Board, block: &[Vec<(Cell, Entry)>]) -> Result<Vec<u64>, PackageError> {
    let mut fixed = 0u64;
    let mut wild = Vec::new();
    for (r, row) in block.iter().enumerate() {
        for (c, (cell, _)) in row.iter().enumerate() {
            let bit = board.bit(Hole::new(r as u8, c as u8));
            match (cell, bit) {
                (Cell::Full, Some(b)) => fixed |= 1 << b,
                (Cell::Either, Some(b)) => wild.push(b),
                _ => {}
            }
        }
    }
    if wild.len() > 16 {
        return Err(PackageError::TooManyWildcards(wild.len()));
    }
    let mut out = Vec::new();
    for m in 0u32..1 << wild.len() {
        let mut p = fixed;
        for (i, &b) in wild.iter().enumerate() {
            if m >> i & 1 == 1 {
                p |= 1 << b;
            }
        }
        if p != 0 && p != board.holes() {
            out.push(p);
        }
    }
    out.sort_unstable();
    Ok(out)
}

/// Builds the package graph from the start and goal blocks (matrix text each).
///
/// # Errors
/// [`PackageError`] for bad cells, different shapes, or too many holes or wildcards.
pub fn find_packages(start: &str, goal: &str) -> Result<Package, PackageError> {
    let a = read_block("start", start)?;
    let b = read_block("goal", goal)?;
    let shape = |m: &Vec<Vec<(Cell, Entry)>>| {
        m.iter()
            .map(|r| r.iter().map(|(c, _)| *c == Cell::Off).collect::<Vec<_>>())
            .collect::<Vec<_>>()
    };
    if shape(&a) != shape(&b) {
        return Err(PackageError::Shape);
    }
    let (rows, cols) = (a.len(), a[0].len());
    let mask: Vec<bool> = a.iter().flatten().map(|(c, _)| *c != Cell::Off).collect();
    let board = Board::new("block", rows, cols, Geometry::Square, &mask)?;
    let starts = expand(&board, &a)?;
    let goals = expand(&board, &b)?;
    // Forward from the starts.
    let mut fwd: BTreeSet<u64> = starts.iter().copied().collect();
    let mut stack: Vec<u64> = starts.clone();
    while let Some(p) = stack.pop() {
        for j in board.jumps() {
            if j.legal(p) && fwd.insert(j.apply(p)) {
                stack.push(j.apply(p));
            }
        }
    }
    // Backward from the goals: `p` comes from `p ^ jump masks` when the jump's target is
    // full and its start and middle are empty.
    let mut bwd: BTreeSet<u64> = goals.iter().copied().collect();
    let mut stack: Vec<u64> = goals.clone();
    while let Some(p) = stack.pop() {
        for j in board.jumps() {
            if j.unapplicable(p) {
                let q = j.apply(p);
                if bwd.insert(q) {
                    stack.push(q);
                }
            }
        }
    }
    let states: Vec<u64> = fwd.intersection(&bwd).copied().collect();
    let set: BTreeSet<u64> = states.iter().copied().collect();
    let mut edges = Vec::new();
    for &p in &states {
        for &j in board.jumps() {
            if j.legal(p) && set.contains(&j.apply(p)) {
                edges.push((p, j, j.apply(p)));
            }
        }
    }
    edges.sort_by_key(|&(p, j, q)| (p, board.hole(j.from), board.hole(j.to), q));
    Ok(Package {
        starts,
        goals,
        board,
        states,
        edges,
    })
}

impl Package {
    /// Every jump sequence from a start to a goal, in sorted order, at most `limit` of them;
    /// the flag says whether the list is complete.
    pub fn solutions(&self, limit: usize) -> (Vec<Vec<Jump>>, bool) {
        let mut out: BTreeMap<u64, Vec<(Jump, u64)>> = BTreeMap::new();
        for &(p, j, q) in &self.edges {
            out.entry(p).or_default().push((j, q));
        }
        let goals: BTreeSet<u64> = self.goals.iter().copied().collect();
        let mut found = Vec::new();
        let mut complete = true;
        fn go(
            p: u64,
            out: &BTreeMap<u64, Vec<(Jump, u64)>>,
            goals: &BTreeSet<u64>,
            path: &mut Vec<Jump>,
            found: &mut Vec<Vec<Jump>>,
            limit: usize,
            complete: &mut bool,
        ) {
            if goals.contains(&p) && !path.is_empty() {
                if found.len() == limit {
                    *complete = false;
                    return;
                }
                found.push(path.clone());
            }
            for &(j, q) in out.get(&p).map(Vec::as_slice).unwrap_or(&[]) {
                path.push(j);
                go(q, out, goals, path, found, limit, complete);
                path.pop();
            }
        }
        for &s in self
            .starts
            .iter()
            .filter(|s| self.states.binary_search(s).is_ok())
        {
            go(
                s,
                &out,
                &goals,
                &mut Vec::new(),
                &mut found,
                limit,
                &mut complete,
            );
        }
        (found, complete)
    }

    /// The block drawn on one line per row: `o` peg, `.` empty, space off the board,
    /// rows joined by `/`.
    pub fn pattern(&self, pegs: u64) -> String {
        let b = &self.board;
        (0..b.rows())
            .map(|r| {
                (0..b.cols())
                    .map(|c| match b.bit(Hole::new(r as u8, c as u8)) {
                        None => ' ',
                        Some(bit) if pegs >> bit & 1 == 1 => 'o',
                        Some(_) => '.',
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    /// The graph in Graphviz `dot`: one node per position, labelled with its pattern
    /// (starts as boxes, goals double circles), one edge per jump, labelled `from-to`.
    pub fn dot(&self) -> String {
        let mut s = String::from("digraph package {\n  node [fontname=\"monospace\"];\n");
        for &p in &self.states {
            let shape = if self.starts.contains(&p) {
                "box"
            } else if self.goals.contains(&p) {
                "doublecircle"
            } else {
                "ellipse"
            };
            let label = self.pattern(p).replace('/', "\\n");
            let _ = writeln!(s, "  s{p} [shape={shape}, label=\"{label}\"];");
        }
        for &(p, j, q) in &self.edges {
            let _ = writeln!(
                s,
                "  s{p} -> s{q} [label=\"{}-{}\"];",
                self.board.hole(j.from),
                self.board.hole(j.to)
            );
        }
        s.push_str("}\n");
        s
    }
}

impl Package {
    /// The graph as an SVG picture, the seed's `viewsolitairepackages` drawn: each position
    /// a small board (filled circles pegs, rings holes), in columns by the number of pegs
    /// left (the starts on the left, blue; the goals on the right, green), each jump a line
    /// from one board to the next with its `from-to` as a tooltip.
    pub fn svg(&self) -> String {
        const CELL: f64 = 12.0;
        const GAP_X: f64 = 70.0;
        const GAP_Y: f64 = 14.0;
        let b = &self.board;
        let (w, h) = (b.cols() as f64 * CELL, b.rows() as f64 * CELL);
        // Columns: most pegs first.
        let mut counts: Vec<u32> = self.states.iter().map(|p| p.count_ones()).collect();
        counts.sort_unstable_by(|a, c| c.cmp(a));
        counts.dedup();
        let mut place = std::collections::HashMap::new();
        let mut tallest = 0;
        for (col, &n) in counts.iter().enumerate() {
            let here: Vec<u64> = self
                .states
                .iter()
                .copied()
                .filter(|p| p.count_ones() == n)
                .collect();
            tallest = tallest.max(here.len());
            for (row, p) in here.into_iter().enumerate() {
                let x = 10.0 + col as f64 * (w + GAP_X);
                let y = 10.0 + row as f64 * (h + GAP_Y);
                place.insert(p, (x, y));
            }
        }
        let width = 20.0 + counts.len() as f64 * (w + GAP_X) - GAP_X;
        let height = 20.0 + tallest as f64 * (h + GAP_Y) - GAP_Y;
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
             viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"monospace\">\n"
        );
        for &(p, j, q) in &self.edges {
            let ((x1, y1), (x2, y2)) = (place[&p], place[&q]);
            let _ = writeln!(
                s,
                "<line class=\"move\" x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" \
                 stroke=\"#999\"><title>{}-{}</title></line>",
                x1 + w,
                y1 + h / 2.0,
                x2,
                y2 + h / 2.0,
                b.hole(j.from),
                b.hole(j.to)
            );
        }
        for &p in &self.states {
            let (x, y) = place[&p];
            let frame = if self.starts.contains(&p) {
                "#1f6feb"
            } else if self.goals.contains(&p) {
                "#2da44e"
            } else {
                "#ccc"
            };
            let _ = writeln!(
                s,
                "<g class=\"state\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" \
                 fill=\"white\" stroke=\"{frame}\"/>",
                x, y
            );
            for r in 0..b.rows() {
                for c in 0..b.cols() {
                    let Some(bit) = b.bit(Hole::new(r as u8, c as u8)) else {
                        continue;
                    };
                    let (cx, cy) = (x + (c as f64 + 0.5) * CELL, y + (r as f64 + 0.5) * CELL);
                    let class = if p >> bit & 1 == 1 { "peg" } else { "hole" };
                    let fill = if class == "peg" { "#333" } else { "none" };
                    let _ = writeln!(
                        s,
                        "<circle class=\"{class}\" cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"4\" fill=\"{fill}\" stroke=\"#333\"/>"
                    );
                }
            }
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The seed's way, for checking: the graph over all `2^holes` positions, then the states
/// reachable from a start and co-reachable from a goal.
pub fn states_by_full_graph(package: &Package) -> Vec<u64> {
    let b = &package.board;
    let bits: Vec<u8> = bits_of(b.holes()).collect();
    let all: Vec<u64> = (0u64..1 << bits.len())
        .map(|m| {
            bits.iter()
                .enumerate()
                .filter(|(i, _)| m >> i & 1 == 1)
                .fold(0, |acc, (_, &bit)| acc | 1 << bit)
        })
        .collect();
    let reach = |from: &[u64], forward: bool| {
        let mut seen: BTreeSet<u64> = from.iter().copied().collect();
        loop {
            let before = seen.len();
            for &p in &all {
                for j in b.jumps() {
                    if j.legal(p) {
                        let q = j.apply(p);
                        let (x, y) = if forward { (p, q) } else { (q, p) };
                        if seen.contains(&x) {
                            seen.insert(y);
                        }
                    }
                }
            }
            if seen.len() == before {
                return seen;
            }
        }
    };
    let f = reach(&package.starts, true);
    let g = reach(&package.goals, false);
    f.intersection(&g).copied().collect()
}
