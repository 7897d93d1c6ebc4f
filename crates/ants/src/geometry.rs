//! The torus: squared Euclidean distance with wrap, and precomputed neighbourhoods.

use super::map::Loc;

/// The map's size, and the arithmetic of a torus of that size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Torus {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
}

/// The four directions an ant may move, in the protocol's letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dir {
    /// North: row - 1.
    N,
    /// East: col + 1.
    E,
    /// South: row + 1.
    S,
    /// West: col - 1.
    W,
}

impl Dir {
    /// All four, in the order N, E, S, W.
    pub const ALL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];

    /// `(d_row, d_col)`.
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Dir::N => (-1, 0),
            Dir::E => (0, 1),
            Dir::S => (1, 0),
            Dir::W => (0, -1),
        }
    }

    /// The protocol letter, lowercase.
    pub const fn letter(self) -> u8 {
        match self {
            Dir::N => b'n',
            Dir::E => b'e',
            Dir::S => b's',
            Dir::W => b'w',
        }
    }

    /// Parses `n`, `e`, `s` or `w` (lowercase, as the engine lowercases orders first).
    pub fn from_letter(s: &str) -> Option<Dir> {
        match s {
            "n" => Some(Dir::N),
            "e" => Some(Dir::E),
            "s" => Some(Dir::S),
            "w" => Some(Dir::W),
            _ => None,
        }
    }
}

/// An offset normalised to `0..rows` x `0..cols`, ready to add to a square and wrap once.
pub type Offset = (usize, usize);

impl Torus {
    /// The number of squares.
    pub const fn area(self) -> usize {
        self.rows * self.cols
    }

    /// The flat index of a square.
    pub const fn index(self, (r, c): Loc) -> usize {
        r * self.cols + c
    }

    /// The square of a flat index.
    pub const fn loc(self, i: usize) -> Loc {
        (i / self.cols, i % self.cols)
    }

    /// Squared Euclidean distance with wrap (the original `distance`).
    pub fn distance(self, a: Loc, b: Loc) -> usize {
        let dr = a.0.abs_diff(b.0);
        let dr = dr.min(self.rows - dr);
        let dc = a.1.abs_diff(b.1);
        let dc = dc.min(self.cols - dc);
        dr * dr + dc * dc
    }

    /// The square one step in `dir` from `loc`, wrapping.
    pub fn step(self, (r, c): Loc, dir: Dir) -> Loc {
        match dir {
            Dir::N => ((r + self.rows - 1) % self.rows, c),
            Dir::S => ((r + 1) % self.rows, c),
            Dir::E => (r, (c + 1) % self.cols),
            Dir::W => (r, (c + self.cols - 1) % self.cols),
        }
    }

    /// `(d_row, d_col)` normalised onto the torus.
    pub fn normalise(self, (dr, dc): (i32, i32)) -> Offset {
        (
            dr.rem_euclid(self.rows as i32) as usize,
            dc.rem_euclid(self.cols as i32) as usize,
        )
    }

    /// The square at `offset` from `loc`.
    #[inline]
    pub fn add(self, (r, c): Loc, (dr, dc): Offset) -> Loc {
        let mut r = r + dr;
        if r >= self.rows {
            r -= self.rows;
        }
        let mut c = c + dc;
        if c >= self.cols {
            c -= self.cols;
        }
        (r, c)
    }

    /// Every offset with `0 < d_row² + d_col² <= radius2`, in the original's order (rows
    /// then columns from `-sqrt` to `+sqrt`), normalised but *not* deduplicated: on maps
    /// smaller than the radius's diameter one square can appear twice, as in the original
    /// `neighbourhood_offsets`.
    pub fn neighbourhood(self, radius2: usize) -> Vec<Offset> {
        let mx = radius2.isqrt() as i32;
        let mut out = Vec::new();
        for dr in -mx..=mx {
            for dc in -mx..=mx {
                let d = (dr * dr + dc * dc) as usize;
                if d > 0 && d <= radius2 {
                    out.push(self.normalise((dr, dc)));
                }
            }
        }
        out
    }
}

/// The vision stencils of the original `init_vision`: the squares an ant sees (itself
/// included, deduplicated), and per direction the squares gained and lost by one step.
#[derive(Clone, Debug)]
pub struct VisionStencil {
    /// Everything within the view radius, the centre included.
    pub full: Vec<Offset>,
    /// Per direction (index `Dir as usize`): squares seen now but not from the previous square.
    pub gained: [Vec<Offset>; 4],
    /// Per direction: squares seen from the previous square but not now.
    pub lost: [Vec<Offset>; 4],
    /// Per direction: everything seen from the previous square, relative to the new one.
    pub previous: [Vec<Offset>; 4],
}

impl VisionStencil {
    /// Builds the stencils for `radius2` on `torus`.
    pub fn new(torus: Torus, radius2: usize) -> VisionStencil {
        let mut full: Vec<Offset> = torus.neighbourhood(radius2);
        full.push((0, 0));
        full.sort_unstable();
        full.dedup();
        let set: std::collections::HashSet<Offset> = full.iter().copied().collect();
        let mut gained: [Vec<Offset>; 4] = Default::default();
        let mut lost: [Vec<Offset>; 4] = Default::default();
        let mut previous: [Vec<Offset>; 4] = Default::default();
        for d in Dir::ALL {
            let (ar, ac) = d.delta();
            let back = torus.normalise((-ar, -ac));
            let mut prev: Vec<Offset> = full.iter().map(|&o| add_offsets(torus, o, back)).collect();
            prev.sort_unstable();
            prev.dedup();
            let pset: std::collections::HashSet<Offset> = prev.iter().copied().collect();
            gained[d as usize] = full.iter().copied().filter(|o| !pset.contains(o)).collect();
            lost[d as usize] = prev.iter().copied().filter(|o| !set.contains(o)).collect();
            previous[d as usize] = prev;
        }
        VisionStencil {
            full,
            gained,
            lost,
            previous,
        }
    }
}

fn add_offsets(t: Torus, a: Offset, b: Offset) -> Offset {
    ((a.0 + b.0) % t.rows, (a.1 + b.1) % t.cols)
}
