//! Solving as a person does: candidates, and techniques from simplest to hardest, each step
//! recorded with its reason. Works on every shape.

use std::fmt;

use super::general::Geometry;
use super::grid::{CheckGridError, Grid, UnitKind, symbol};

/// The techniques, from simplest to hardest; the order is the grading scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// A value has one place left in a row, column or box.
    HiddenSingle,
    /// A cell has one candidate left.
    NakedSingle,
    /// A value confined to one line inside a box (pointing), or to one box inside a line
    /// (claiming), leaves the rest of the line or box.
    LockedCandidates,
    /// Two cells of a unit with the same two candidates: those leave the rest of the unit.
    NakedPair,
    /// Two values confined to the same two cells of a unit: other candidates leave them.
    HiddenPair,
    /// Three cells of a unit whose candidates are three values.
    NakedTriple,
    /// Three values confined to three cells of a unit.
    HiddenTriple,
    /// A value with its places in two rows inside two columns (or the other way round).
    XWing,
    /// The same with three rows and three columns.
    Swordfish,
}

impl Technique {
    /// Every technique, simplest first.
    pub const ALL: [Technique; 9] = [
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::LockedCandidates,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
    ];

    /// The usual name.
    pub fn name(self) -> &'static str {
        match self {
            Technique::HiddenSingle => "hidden single",
            Technique::NakedSingle => "naked single",
            Technique::LockedCandidates => "locked candidates",
            Technique::NakedPair => "naked pair",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::HiddenTriple => "hidden triple",
            Technique::XWing => "x-wing",
            Technique::Swordfish => "swordfish",
        }
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One step: a technique, why it applies, and what it changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Why, in words (`r3c5 is the only place for 7 in box 2`).
    pub reason: String,
    /// Values placed, as (cell, value), cells row by row from 0.
    pub placed: Vec<(usize, u8)>,
    /// Candidates removed, as (cell, value).
    pub removed: Vec<(usize, u8)>,
}

/// How explained solving ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every cell is filled.
    Solved,
    /// No technique applies: the rest needs guessing (or the puzzle has several solutions).
    Stuck,
    /// A cell lost its last candidate or a unit its last place for a value: no solution.
    Contradiction,
}

/// The steps of explained solving and where they led.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    /// Every step, in order.
    pub steps: Vec<Step>,
    /// How it ended.
    pub ending: Ending,
    /// The board at the end (full when solved).
    pub grid: Grid,
}

/// A difficulty rating: the hardest technique needed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    /// Singles only.
    Easy,
    /// Locked candidates.
    Medium,
    /// Pairs and triples.
    Hard,
    /// Fish (x-wing, swordfish).
    Expert,
    /// The techniques are not enough: guessing (or the puzzle is not proper).
    Beyond,
}

impl Grade {
    /// The grade of an explanation.
    pub fn of(e: &Explanation) -> Grade {
        if e.ending != Ending::Solved {
            return Grade::Beyond;
        }
        match e.steps.iter().map(|s| s.technique).max() {
            None | Some(Technique::HiddenSingle | Technique::NakedSingle) => Grade::Easy,
            Some(Technique::LockedCandidates) => Grade::Medium,
            Some(Technique::XWing | Technique::Swordfish) => Grade::Expert,
            Some(_) => Grade::Hard,
        }
    }

    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Easy => "easy",
            Grade::Medium => "medium",
            Grade::Hard => "hard",
            Grade::Expert => "expert",
            Grade::Beyond => "beyond",
        }
    }
}

impl fmt::Display for Grade {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

struct Board<'g> {
    g: &'g Geometry,
    cand: Vec<u32>,
    value: Vec<u8>,
}

fn cell_name(side: usize, cell: usize) -> String {
    format!("r{}c{}", cell / side + 1, cell % side + 1)
}

fn values_of(mask: u32) -> String {
    let v: Vec<String> = (0..32)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| symbol(b as u8 + 1).to_string())
        .collect();
    v.join("")
}

/// Calls `f` with every `k`-subset of `items`, in lexicographic order, until it returns true.
fn subsets<T: Copy>(items: &[T], k: usize, f: &mut dyn FnMut(&[T]) -> bool) -> bool {
    fn go<T: Copy>(
        items: &[T],
        k: usize,
        from: usize,
        cur: &mut Vec<T>,
        f: &mut dyn FnMut(&[T]) -> bool,
    ) -> bool {
        if cur.len() == k {
            return f(cur);
        }
        for i in from..items.len() {
            cur.push(items[i]);
            if go(items, k, i + 1, cur, f) {
                return true;
            }
            cur.pop();
        }
        false
    }
    go(items, k, 0, &mut Vec::with_capacity(k), f)
}

impl Board<'_> {
    fn side(&self) -> usize {
        self.g.side
    }

    fn unit_name(&self, u: usize) -> String {
        let side = self.side();
        let (kind, i) = match u / side {
            0 => (UnitKind::Row, u),
            1 => (UnitKind::Column, u - side),
            _ => (UnitKind::Box, u - 2 * side),
        };
        format!("{kind} {}", i + 1)
    }

    fn open(&self, u: usize) -> Vec<usize> {
        self.g.units[u]
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| self.value[c] == 0)
            .collect()
    }

    fn place(&mut self, cell: usize, v: u8) {
        self.value[cell] = v;
        self.cand[cell] = 0;
        for &p in &self.g.peers[cell] {
            self.cand[p as usize] &= !(1 << (v - 1));
        }
    }

    fn apply(&mut self, step: &Step) {
        for &(c, v) in &step.removed {
            self.cand[c] &= !(1 << (v - 1));
        }
        for &(c, v) in &step.placed {
            self.place(c, v);
        }
    }

    fn contradiction(&self) -> bool {
        let side = self.side();
        if (0..side * side).any(|c| self.value[c] == 0 && self.cand[c] == 0) {
            return true;
        }
        (0..3 * side).any(|u| {
            let mut have = 0u32;
            for &c in &self.g.units[u] {
                let c = c as usize;
                have |= if self.value[c] != 0 {
                    1 << (self.value[c] - 1)
                } else {
                    self.cand[c]
                };
            }
            have.count_ones() as usize != side
        })
    }

    fn hidden_single(&self) -> Option<Step> {
        let side = self.side();
        // Boxes first: that is where people look first.
        for u in (2 * side..3 * side).chain(0..2 * side) {
            let open = self.open(u);
            for b in 0..side {
                let places: Vec<usize> = open
                    .iter()
                    .copied()
                    .filter(|&c| self.cand[c] & (1 << b) != 0)
                    .collect();
                if places.len() == 1 {
                    let v = b as u8 + 1;
                    return Some(Step {
                        technique: Technique::HiddenSingle,
                        reason: format!(
                            "{} is the only place for {} in {}",
                            cell_name(side, places[0]),
                            symbol(v),
                            self.unit_name(u)
                        ),
                        placed: vec![(places[0], v)],
                        removed: vec![],
                    });
                }
            }
        }
        None
    }

    fn naked_single(&self) -> Option<Step> {
        let side = self.side();
        (0..side * side)
            .find(|&c| self.value[c] == 0 && self.cand[c].count_ones() == 1)
            .map(|c| {
                let v = self.cand[c].trailing_zeros() as u8 + 1;
                Step {
                    technique: Technique::NakedSingle,
                    reason: format!(
                        "{} can only hold {}: its row, column and box have every other value",
                        cell_name(side, c),
                        symbol(v)
                    ),
                    placed: vec![(c, v)],
                    removed: vec![],
                }
            })
    }

    fn removals(&self, cells: &[usize], mask: u32) -> Vec<(usize, u8)> {
        let mut out = Vec::new();
        for &c in cells {
            let hit = self.cand[c] & mask;
            for b in 0..32 {
                if hit & (1 << b) != 0 {
                    out.push((c, b as u8 + 1));
                }
            }
        }
        out
    }

    fn locked_candidates(&self) -> Option<Step> {
        let side = self.side();
        for x in &self.g.intersections {
            let open = |cells: &[u16]| -> Vec<usize> {
                cells
                    .iter()
                    .map(|&c| c as usize)
                    .filter(|&c| self.value[c] == 0)
                    .collect()
            };
            let (inside, box_rest, line_rest) =
                (open(&x.inside), open(&x.box_rest), open(&x.line_rest));
            let union = |cells: &[usize]| cells.iter().fold(0u32, |m, &c| m | self.cand[c]);
            let (i, b, l) = (union(&inside), union(&box_rest), union(&line_rest));
            let bx = self
                .g
                .shape
                .box_of(x.inside[0] as usize / side, x.inside[0] as usize % side);
            let a = x.inside[0] as usize;
            let z = x.inside[x.inside.len() - 1] as usize;
            let line = if a / side == z / side {
                format!("row {}", a / side + 1)
            } else {
                format!("column {}", a % side + 1)
            };
            let pointing = i & !b & l;
            if pointing != 0 {
                let bit = pointing & pointing.wrapping_neg();
                return Some(Step {
                    technique: Technique::LockedCandidates,
                    reason: format!(
                        "in box {}, {} can only go on {line}, so it leaves the rest of {line}",
                        bx + 1,
                        values_of(bit)
                    ),
                    placed: vec![],
                    removed: self.removals(&line_rest, bit),
                });
            }
            let claiming = i & !l & b;
            if claiming != 0 {
                let bit = claiming & claiming.wrapping_neg();
                return Some(Step {
                    technique: Technique::LockedCandidates,
                    reason: format!(
                        "on {line}, {} can only go in box {}, so it leaves the rest of box {}",
                        values_of(bit),
                        bx + 1,
                        bx + 1
                    ),
                    placed: vec![],
                    removed: self.removals(&box_rest, bit),
                });
            }
        }
        None
    }

    fn naked_subset(&self, k: usize) -> Option<Step> {
        let side = self.side();
        let technique = if k == 2 {
            Technique::NakedPair
        } else {
            Technique::NakedTriple
        };
        for u in 0..3 * side {
            let open = self.open(u);
            let small: Vec<usize> = open
                .iter()
                .copied()
                .filter(|&c| (self.cand[c].count_ones() as usize) <= k)
                .collect();
            let mut found = None;
            subsets(&small, k, &mut |cells| {
                let mask = cells.iter().fold(0u32, |m, &c| m | self.cand[c]);
                if mask.count_ones() as usize != k {
                    return false;
                }
                let others: Vec<usize> = open
                    .iter()
                    .copied()
                    .filter(|c| !cells.contains(c))
                    .collect();
                let removed = self.removals(&others, mask);
                if removed.is_empty() {
                    return false;
                }
                let names: Vec<String> = cells.iter().map(|&c| cell_name(side, c)).collect();
                found = Some(Step {
                    technique,
                    reason: format!(
                        "{} hold only {} between them in {}, so those values leave its other cells",
                        names.join(", "),
                        values_of(mask),
                        self.unit_name(u)
                    ),
                    placed: vec![],
                    removed,
                });
                true
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    fn hidden_subset(&self, k: usize) -> Option<Step> {
        let side = self.side();
        let technique = if k == 2 {
            Technique::HiddenPair
        } else {
            Technique::HiddenTriple
        };
        for u in 0..3 * side {
            let open = self.open(u);
            let places = |b: usize| -> Vec<usize> {
                open.iter()
                    .copied()
                    .filter(|&c| self.cand[c] & (1 << b) != 0)
                    .collect()
            };
            let values: Vec<usize> = (0..side)
                .filter(|&b| {
                    let n = places(b).len();
                    n >= 2 && n <= k
                })
                .collect();
            let mut found = None;
            subsets(&values, k, &mut |vals| {
                let mut cells: Vec<usize> = vals.iter().flat_map(|&b| places(b)).collect();
                cells.sort_unstable();
                cells.dedup();
                if cells.len() != k {
                    return false;
                }
                let mask = vals.iter().fold(0u32, |m, &b| m | 1 << b);
                let removed = self.removals(&cells, !mask);
                if removed.is_empty() {
                    return false;
                }
                let names: Vec<String> = cells.iter().map(|&c| cell_name(side, c)).collect();
                found = Some(Step {
                    technique,
                    reason: format!(
                        "in {}, {} can only go in {}, so those cells hold nothing else",
                        self.unit_name(u),
                        values_of(mask),
                        names.join(", ")
                    ),
                    placed: vec![],
                    removed,
                });
                true
            });
            if found.is_some() {
                return found;
            }
        }
        None
    }

    fn fish(&self, k: usize) -> Option<Step> {
        let side = self.side();
        let technique = if k == 2 {
            Technique::XWing
        } else {
            Technique::Swordfish
        };
        for b in 0..side {
            let bit = 1u32 << b;
            for by_rows in [true, false] {
                // Base lines and, for each, the cross positions holding the value.
                let cover = |line: usize| -> u32 {
                    let mut m = 0u32;
                    for i in 0..side {
                        let c = if by_rows {
                            line * side + i
                        } else {
                            i * side + line
                        };
                        if self.value[c] == 0 && self.cand[c] & bit != 0 {
                            m |= 1 << i;
                        }
                    }
                    m
                };
                let lines: Vec<(usize, u32)> = (0..side)
                    .map(|l| (l, cover(l)))
                    .filter(|&(_, m)| m.count_ones() >= 2 && m.count_ones() as usize <= k)
                    .collect();
                let mut found = None;
                subsets(&lines, k, &mut |base| {
                    let cross = base.iter().fold(0u32, |m, &(_, c)| m | c);
                    if cross.count_ones() as usize != k {
                        return false;
                    }
                    let mut targets = Vec::new();
                    for i in 0..side {
                        if cross & (1 << i) == 0 {
                            continue;
                        }
                        for l in 0..side {
                            if base.iter().any(|&(bl, _)| bl == l) {
                                continue;
                            }
                            let c = if by_rows { l * side + i } else { i * side + l };
                            if self.value[c] == 0 {
                                targets.push(c);
                            }
                        }
                    }
                    let removed = self.removals(&targets, bit);
                    if removed.is_empty() {
                        return false;
                    }
                    let (base_kind, cross_kind) = if by_rows {
                        ("rows", "columns")
                    } else {
                        ("columns", "rows")
                    };
                    let bl: Vec<String> = base.iter().map(|&(l, _)| (l + 1).to_string()).collect();
                    let cl: Vec<String> = (0..side)
                        .filter(|i| cross & (1 << i) != 0)
                        .map(|i| (i + 1).to_string())
                        .collect();
                    found = Some(Step {
                        technique,
                        reason: format!(
                            "in {base_kind} {}, {} can only go in {cross_kind} {}, so it leaves the rest of those {cross_kind}",
                            bl.join(", "),
                            symbol(b as u8 + 1),
                            cl.join(", ")
                        ),
                        placed: vec![],
                        removed,
                    });
                    true
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }

    fn next_step(&self) -> Option<Step> {
        self.hidden_single()
            .or_else(|| self.naked_single())
            .or_else(|| self.locked_candidates())
            .or_else(|| self.naked_subset(2))
            .or_else(|| self.hidden_subset(2))
            .or_else(|| self.naked_subset(3))
            .or_else(|| self.hidden_subset(3))
            .or_else(|| self.fish(2))
            .or_else(|| self.fish(3))
    }
}

/// Solves `grid` with human techniques only, always taking the simplest that applies, and
/// records each step with its reason.
///
/// # Errors
/// When clues clash.
///
/// ```
/// use ply_puzzles::sudoku::{explain, read_puzzles, Grade, ReadOptions};
/// let p = &read_puzzles(
///     "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..",
///     ReadOptions::default(),
/// ).unwrap()[0].grid;
/// let e = explain(p).unwrap();
/// assert_eq!(Grade::of(&e), Grade::Easy);
/// assert!(e.grid.solves(p));
/// ```
pub fn explain(grid: &Grid) -> Result<Explanation, CheckGridError> {
    grid.check()?;
    let g = Geometry::new(grid.shape());
    let side = g.side;
    let full = if side == 32 {
        u32::MAX
    } else {
        (1u32 << side) - 1
    };
    let mut b = Board {
        g: &g,
        cand: vec![full; side * side],
        value: vec![0; side * side],
    };
    for (c, &v) in grid.cells().iter().enumerate() {
        if v != 0 {
            b.place(c, v);
        }
    }
    let mut steps = Vec::new();
    let ending = loop {
        if b.value.iter().all(|&v| v != 0) {
            break Ending::Solved;
        }
        if b.contradiction() {
            break Ending::Contradiction;
        }
        match b.next_step() {
            Some(step) => {
                b.apply(&step);
                steps.push(step);
            }
            None => break Ending::Stuck,
        }
    };
    let grid = Grid::from_cells(grid.shape(), b.value).expect("values within the side");
    Ok(Explanation {
        steps,
        ending,
        grid,
    })
}

/// The grade of `grid`: the hardest technique explained solving needs.
///
/// # Errors
/// When clues clash.
pub fn grade(grid: &Grid) -> Result<(Grade, Option<Technique>), CheckGridError> {
    let e = explain(grid)?;
    Ok((Grade::of(&e), e.steps.iter().map(|s| s.technique).max()))
}
