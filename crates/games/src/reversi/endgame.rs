//! An exact endgame solver for 8x8 Othello: perfect play from a position with few empty
//! cells, on the `u64` boards of [`super::eight`] (its move generator and flips), apart from
//! the generic [`ply_core::Game`] path, which is far too slow for this.
//!
//! # Scoring
//! ply's [`Game::outcome`](ply_core::Game::outcome) is win, draw or loss by majority of
//! discs, nothing more. The solver's exact score is the final disc difference for the side to
//! move with the empty cells (left when neither side can move) given to the winner, the World
//! Othello Federation's count and the one published scores use (the FFO test suite); it
//! has the sign of ply's outcome, so the win/loss/draw answer is ply's to the letter.
//!
//! # Search
//! Fail-soft negamax alpha-beta with principal variation search:
//! * far from the end (more than [`SHALLOW`] empties): a transposition table of bounds,
//!   its move first, then *fastest first*: the move leaving the opponent the fewest
//!   replies (corners counted double), ties to the odd regions, and from
//!   [`EVALUATION_ORDER_FROM`] empties up the fitted pattern evaluation of the position
//!   after the move added (a disc of it a quarter of a reply), from
//!   [`REPLY_ORDER_FROM`] up the evaluation after the opponent's best reply by it (a
//!   search of one ply); from 10 empties up, an
//!   *enhanced transposition cut-off* (a reply whose table entry already refutes the
//!   window ends the node before any search);
//! * from 6 empties up, the *stability cut-off*: the side to move ends with at most 64
//!   minus twice the other side's stable discs (discs no move can flip, see [`stable`]),
//!   so a node whose alpha is already that high fails low at once;
//! * 5 to [`SHALLOW`] empties: no table; moves in odd regions (quadrants with an odd number of
//!   empties, where the last move tends to fall to the side to move) before even ones, and
//!   within each corners first, X-squares (next to an empty corner) last;
//! * 4 empties or fewer: the empty cells in a list (odd regions first), tried directly by
//!   their flips (skipped at once when no neighbouring cell is the other side's), the last
//!   cell counted by table lookups along its four lines without generating anything (Edax's
//!   `count_last_flip`).
//!
//! Passes are exact: a side without a move passes, and the game ends when neither can move.
//! [`SolveMode::WinLossDraw`] searches the window around 0 (-1, +1). [`SolveMode::Exact`]
//! starts from the same window and moves it: final scores are even, so a window (g - 1,
//! g + 1) either proves the score is g or returns a bound beyond g, where the next window
//! goes (an MTD(f)-like series of narrow searches sharing the table). With the evaluation
//! in the move order, the exact solves of self-play positions with 18 and 20 empties took
//! a quarter to a half fewer nodes than one full-window search (-64, +64) ordered
//! fastest-first alone, FFO #40-#44 41% fewer (docs/benchmarks.md). The search stops at the [`Budget`]'s deadline or
//! node limit as [`ply_search`'s alpha-beta] does, and then answers nothing. Each solve starts
//! from an empty table (entries of earlier solves are stamped with another generation, and
//! count as empty): the same position gives the same answer and node count. A solve may
//! instead continue with the table of the solves before it (`solve_continuing`): the bot's
//! exact solve after its win/loss/draw solve, and each position of a line of best play.
//!
//! [`ply_search`'s alpha-beta]: https://docs.rs/ply-search

use std::time::{Duration, Instant};

use std::marker::PhantomData;

use ply_core::Budget;

use super::board::{Bits, Disc, Othello, Reversi, Size};
use super::eight::{flips, legal};
use super::moves::Place;
use super::pattern::{UNITS_PER_DISC, WEIGHTS};

/// Positions with more empties than this are searched with the table and fastest-first.
pub const SHALLOW: u32 = 7;

const CORNERS: u64 = 0x8100_0000_0000_0081;
/// b2, g2, b7, g7.
const X_SQUARES: u64 = 0x0042_0000_0000_4200;
const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];
/// 2^20 slots of 24 bytes (24 MiB): 2^18 took 8-17% more nodes on FFO #40-#44, 2^21 no
/// fewer (docs/benchmarks.md).
const TABLE_BITS: u32 = 20;
/// Moves ordered by the pattern evaluation too from this many empties up: on 30 positions
/// of depth-4 self-play with 18 empties, from 12 took 30% fewer exact nodes and 36% fewer
/// win/loss/draw nodes than without, from 10 a few fewer nodes but more time, from 14 and
/// 16 more nodes (docs/benchmarks.md).
const EVALUATION_ORDER_FROM: u32 = 12;
/// From this many empties up, the evaluation in the order is the opponent's best reply's
/// (negamax of one ply on the pattern evaluation) rather than the position's after the
/// move. Session 44, depth-4 self-play positions: at 20 empties 24% fewer exact and 31%
/// fewer win/loss/draw nodes, 20% less CPU; at 18 14% and 32% fewer, 11% less CPU; from 14
/// or 12 still fewer nodes but more instructions than from 16; FFO #40-#44 18% fewer exact
/// nodes (docs/benchmarks.md).
const REPLY_ORDER_FROM: u32 = 16;
/// Enhanced transposition cut-offs from this many empties up.
const ETC_FROM: u32 = 10;
/// The stability cut-off from this many empties up.
const STABILITY_FROM: u32 = 6;
const COL_A: u64 = 0x0101_0101_0101_0101;
const COL_H: u64 = COL_A << 7;
const EDGE: u64 = COL_A | COL_H | 0xFF | (0xFF << 56);

/// The 15 lines of each diagonal direction: `DIAGONALS[0]` along a1-h8 (+9 a step),
/// `DIAGONALS[1]` along h1-a8 (+7).
const DIAGONALS: [[u64; 15]; 2] = diagonals();

const fn diagonals() -> [[u64; 15]; 2] {
    let mut out = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        out[0][7 + c - r] |= 1 << sq;
        out[1][r + c] |= 1 << sq;
        sq += 1;
    }
    out
}

/// Discs of `own` that no move can ever flip, given the occupied cells `occupied`: the least
/// set in which every disc has, along each of the four lines through it, a full line, an
/// edge of the board, or a disc of the set next to it. (A disc is flipped along a line
/// only inside a run of its colour bracketed on both sides; a run reaching an edge, or
/// lying on a full line, never is, and one link of the set leads along the line to an edge
/// or a full line.) Used for the stability cut-off: the side to move ends with at most
/// `64 - 2 * stable(opp)`.
fn stable(own: u64, occupied: u64) -> u64 {
    let mut full_h = 0;
    let mut full_v = !0u64;
    for r in 0..8 {
        let row = 0xFFu64 << (8 * r);
        if occupied & row == row {
            full_h |= row;
        }
        full_v &= (occupied >> (8 * r)) & 0xFF;
    }
    let full_v = full_v.wrapping_mul(COL_A);
    let (mut full_d1, mut full_d2) = (0, 0);
    for line in DIAGONALS[0] {
        if occupied & line == line {
            full_d1 |= line;
        }
    }
    for line in DIAGONALS[1] {
        if occupied & line == line {
            full_d2 |= line;
        }
    }
    let h_base = full_h | COL_A | COL_H;
    let v_base = full_v | 0xFF | (0xFF << 56);
    let (d1_base, d2_base) = (full_d1 | EDGE, full_d2 | EDGE);
    let mut set = 0u64;
    loop {
        let h = h_base | ((set << 1) & !COL_A) | ((set >> 1) & !COL_H);
        let v = v_base | (set << 8) | (set >> 8);
        let d1 = d1_base | ((set << 9) & !COL_A) | ((set >> 9) & !COL_H);
        let d2 = d2_base | ((set << 7) & !COL_H) | ((set >> 7) & !COL_A);
        let next = own & h & v & d1 & d2;
        if next == set {
            return set;
        }
        set = next;
    }
}
const NO_MOVE: u8 = 64;

/// What the solver proves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolveMode {
    /// Only whether the side to move wins, draws or loses (score -1, 0 or +1).
    WinLossDraw,
    /// The exact final disc difference.
    Exact,
}

/// A solved position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solution {
    /// A best move (the pass when the side to move must pass).
    pub best: Place,
    /// For the side to move: the final disc difference with empties to the winner
    /// ([`SolveMode::Exact`]), or its sign ([`SolveMode::WinLossDraw`]).
    pub score: i32,
    /// What was proved.
    pub mode: SolveMode,
    /// Positions visited.
    pub nodes: u64,
    /// Wall-clock time taken.
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Default)]
struct Slot {
    own: u64,
    opp: u64,
    lower: i8,
    upper: i8,
    best: u8,
    /// The solve that wrote it ([`EndgameSolver::generation`]): slots of earlier solves
    /// count as empty, so the table need not be cleared between solves.
    generation: u8,
}

/// The solver and its transposition table (24 MiB; keep one for many solves).
///
/// ```
/// use ply_core::{Budget, Game};
/// use ply_games::reversi::{EndgameSolver, Othello, SolveMode};
///
/// // One empty corner: black takes it, turning over the two white discs next to it.
/// let position: Othello = "xxxxxxx./oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo/xxxxxxxx/oooooooo x"
///     .parse()
///     .unwrap();
/// let mut solver = EndgameSolver::new();
/// let s = solver.solve(&position, SolveMode::Exact, Budget::UNLIMITED).unwrap();
/// assert_eq!(s.best.cell(), Some((0, 7)));
/// assert_eq!(s.score, 34 - 30);
/// let wld = solver.solve(&position, SolveMode::WinLossDraw, Budget::UNLIMITED).unwrap();
/// assert_eq!(wld.score, 1);
/// ```
pub struct EndgameSolver {
    table: Vec<Slot>,
    /// Stamped on the slots this solve writes; never 0, the stamp of an empty slot.
    generation: u8,
    nodes: u64,
    budget: Budget,
    stopped: bool,
}

impl Default for EndgameSolver {
    fn default() -> Self {
        Self::new()
    }
}

/// The final disc difference for the owner of `own` when neither side can move, the empty
/// cells going to the winner.
#[inline(always)]
fn final_score(own: u64, opp: u64) -> i32 {
    let mine = own.count_ones() as i32;
    let theirs = opp.count_ones() as i32;
    let empty = 64 - mine - theirs;
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Greater => mine - theirs + empty,
        std::cmp::Ordering::Less => mine - theirs - empty,
        std::cmp::Ordering::Equal => 0,
    }
}

/// The quadrants holding an odd number of the `empty` cells.
#[inline(always)]
fn odd_regions(empty: u64) -> u64 {
    QUADRANTS
        .iter()
        .filter(|&&q| (empty & q).count_ones() & 1 == 1)
        .fold(0, |acc, q| acc | q)
}

/// X-squares next to an empty corner: giving the corner away.
#[inline(always)]
fn dangerous(empty: u64) -> u64 {
    let corners = empty & CORNERS;
    // Each corner's diagonal neighbour: a1-b2 (+9), h1-g2 (+7), a8-b7 (-7), h8-g7 (-9).
    X_SQUARES
        & (((corners & 1) << 9)
            | ((corners & 0x80) << 7)
            | ((corners & (1 << 56)) >> 7)
            | ((corners & (1 << 63)) >> 9))
}

/// `COUNT_FLIP[p][line]`: the discs turned over along one line of eight cells by a disc
/// played at position `p`, when `line` holds the mover's discs and every other cell but `p`
/// is the other side's (so the board is full but for `p`). Cells off the board (at the ends
/// of a short diagonal) read as the other side's and never end a run, so they turn nothing.
static COUNT_FLIP: [[u8; 256]; 8] = count_flip_table();

const fn count_flip_table() -> [[u8; 256]; 8] {
    let mut table = [[0u8; 256]; 8];
    let mut p = 0;
    while p < 8 {
        let mut line = 0;
        while line < 256 {
            let mut n = 0;
            let mut q = p as i32 - 1;
            while q >= 0 && (line >> q) & 1 == 0 {
                q -= 1;
            }
            if q >= 0 {
                n += p as i32 - q - 1;
            }
            let mut q = p + 1;
            while q < 8 && (line >> q) & 1 == 0 {
                q += 1;
            }
            if q < 8 {
                n += (q - p - 1) as i32;
            }
            table[p][line] = n as u8;
            line += 1;
        }
        p += 1;
    }
    table
}

/// The two diagonals through each cell (a1-h8 direction, then h1-a8).
static CELL_DIAGONALS: [[u64; 2]; 64] = cell_diagonals();

const fn cell_diagonals() -> [[u64; 2]; 64] {
    let mut out = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        out[sq] = [DIAGONALS[0][7 + c - r], DIAGONALS[1][r + c]];
        sq += 1;
    }
    out
}

/// The up to eight cells next to each cell: a move there turns nothing over unless one of
/// them is the other side's, a test far cheaper than [`flips`].
static NEIGHBOURS: [u64; 64] = neighbours();

const fn neighbours() -> [u64; 64] {
    let mut out = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                    out[sq] |= 1u64 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    out
}

/// [`flips`], or nothing at once when no cell next to `sq` is the other side's.
#[inline(always)]
fn flips_near(own: u64, opp: u64, sq: usize) -> u64 {
    if opp & NEIGHBOURS[sq] == 0 {
        0
    } else {
        flips(own, opp, sq)
    }
}

/// How many discs a disc of `own` played on `sq` turns over when every other cell is
/// occupied (the last empty cell): four table lookups, one per line through `sq`, each
/// line's cells gathered into a byte by a multiplication (Edax's `count_last_flip`).
#[inline(always)]
fn count_last_flips(own: u64, sq: usize) -> i32 {
    let (r, c) = (sq / 8, sq % 8);
    let row = ((own >> (8 * r)) & 0xFF) as usize;
    // Row i of the column lands on bit i of the top byte (no two products share a bit).
    let col = (((own >> c) & COL_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    // A diagonal has one cell per column: column j's cell lands on bit j of the top byte.
    let [d1, d2] = CELL_DIAGONALS[sq];
    let d1 = ((own & d1).wrapping_mul(COL_A) >> 56) as usize;
    let d2 = ((own & d2).wrapping_mul(COL_A) >> 56) as usize;
    i32::from(COUNT_FLIP[c][row])
        + i32::from(COUNT_FLIP[r][col])
        + i32::from(COUNT_FLIP[c][d1])
        + i32::from(COUNT_FLIP[c][d2])
}

/// The score after the last empty cell `sq` is filled (or left, if neither side can); every
/// other cell is occupied.
#[inline(always)]
fn last1(own: u64, opp: u64, sq: usize) -> i32 {
    debug_assert_eq!(own | opp | (1u64 << sq), !0);
    let mine = own.count_ones() as i32;
    let n = count_last_flips(own, sq);
    if n > 0 {
        return 2 * (mine + 1 + n) - 64;
    }
    let m = count_last_flips(opp, sq);
    if m > 0 {
        return 2 * (mine - m) - 64;
    }
    // Neither side can move: 63 discs, the empty cell to the winner (never a tie).
    if 2 * mine > 63 {
        2 * mine - 62
    } else {
        2 * mine - 64
    }
}

impl EndgameSolver {
    /// A solver with an empty table.
    pub fn new() -> Self {
        EndgameSolver {
            table: vec![Slot::default(); 1 << TABLE_BITS],
            generation: 0,
            nodes: 0,
            budget: Budget::UNLIMITED,
            stopped: false,
        }
    }

    /// Positions visited by the last solve, also when it ran out of budget.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Solves `state` within `budget` (its deadline and node limit; the depth is ignored):
    /// `None` if the budget ran out first or the game is over.
    pub fn solve(&mut self, state: &Othello, mode: SolveMode, budget: Budget) -> Option<Solution> {
        // A new stamp empties the table for this solve; once in 255 solves it is cleared.
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.table.fill(Slot::default());
            self.generation = 1;
        }
        self.solve_continuing(state, mode, budget)
    }

    /// [`solve`](Self::solve) with the table as the solves since the last `solve` left it:
    /// the bounds they proved (true whatever window proved them) answer for the positions
    /// they share. The bot's exact solve after its win/loss/draw solve of the same position
    /// starts with that window, so it is answered from the table; a line of best play solves
    /// positions the first solve has visited. The answer is the same as a fresh solve's
    /// (the score; the best move may be another of equal score); the nodes are fewer. A
    /// solver that has not solved yet starts empty.
    pub fn solve_continuing(
        &mut self,
        state: &Othello,
        mode: SolveMode,
        budget: Budget,
    ) -> Option<Solution> {
        let start = Instant::now();
        if self.generation == 0 {
            self.generation = 1;
        }
        self.nodes = 0;
        self.budget = budget;
        self.stopped = false;
        let (own, opp) = (state.own, state.opp);
        let empties = 64 - (own | opp).count_ones();
        let moves = legal(own, opp);
        if moves == 0 && legal(opp, own) == 0 {
            return None;
        }
        let (best, score) = match mode {
            SolveMode::WinLossDraw => self.probe(own, opp, moves, NO_MOVE, -1, 1, empties),
            SolveMode::Exact => {
                // Final scores are even, so the window (g - 1, g + 1) either proves the score
                // is g or bounds it on one side by the (fail-soft) value returned: probe
                // there next, the last probe's move first. The first probe is the
                // win/loss/draw one.
                let (mut g, mut hint) = (0, NO_MOVE);
                loop {
                    let (best, v) = self.probe(own, opp, moves, hint, g - 1, g + 1, empties);
                    if self.stopped || v == g {
                        break (best, v);
                    }
                    (g, hint) = (v, best);
                }
            }
        };
        let best = if best == NO_MOVE {
            Place::PASS
        } else {
            Place::from_index(usize::from(best), 8)
        };
        if self.stopped {
            return None;
        }
        Some(Solution {
            best,
            score: match mode {
                SolveMode::WinLossDraw => score.signum(),
                SolveMode::Exact => score,
            },
            mode,
            nodes: self.nodes,
            elapsed: start.elapsed(),
        })
    }

    /// The best move (`NO_MOVE`, the pass, when `moves` is empty) and its score in the
    /// window; `hint` is tried first.
    #[allow(clippy::too_many_arguments)]
    fn probe(
        &mut self,
        own: u64,
        opp: u64,
        moves: u64,
        hint: u8,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (u8, i32) {
        self.nodes += 1;
        if moves == 0 {
            return (NO_MOVE, -self.search(opp, own, -beta, -alpha, empties));
        }
        let mut list = [(0i32, 0u8, 0u64); 32];
        let n = order_fastest(own, opp, moves, hint, &mut list, empties);
        self.principal(own, opp, &list[..n], alpha, beta, empties)
    }

    /// Principal variation search over the ordered `list` of (key, cell, flips).
    fn principal(
        &mut self,
        own: u64,
        opp: u64,
        list: &[(i32, u8, u64)],
        mut alpha: i32,
        beta: i32,
        empties: u32,
    ) -> (u8, i32) {
        let mut best = -65;
        let mut best_sq = list[0].1;
        for (i, &(_, sq, f)) in list.iter().enumerate() {
            let (next_own, next_opp) = (opp ^ f, own | f | (1u64 << sq));
            let v = if i == 0 {
                -self.search(next_own, next_opp, -beta, -alpha, empties - 1)
            } else {
                let v = -self.search(next_own, next_opp, -alpha - 1, -alpha, empties - 1);
                if v > alpha && v < beta {
                    -self.search(next_own, next_opp, -beta, -alpha, empties - 1)
                } else {
                    v
                }
            };
            if self.stopped {
                return (best_sq, 0);
            }
            if v > best {
                best = v;
                best_sq = sq;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        (best_sq, best)
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes & 4095 == 0 {
            let over_nodes = self.budget.max_nodes.is_some_and(|n| self.nodes >= n);
            if over_nodes || self.budget.expired() {
                self.stopped = true;
            }
        }
        self.stopped
    }

    #[inline]
    fn search(&mut self, own: u64, opp: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        if empties > SHALLOW {
            self.deep(own, opp, alpha, beta, empties)
        } else if empties > 4 {
            self.shallow(own, opp, alpha, beta, empties)
        } else {
            let empty = !(own | opp);
            let odd = odd_regions(empty);
            let mut cells = [0u8; 4];
            let mut n = 0;
            for part in [empty & odd, empty & !odd] {
                let mut rest = part;
                while rest != 0 {
                    cells[n] = rest.trailing_zeros() as u8;
                    rest &= rest - 1;
                    n += 1;
                }
            }
            match n {
                0 => final_score(own, opp),
                1 => {
                    self.nodes += 1;
                    last1(own, opp, cells[0] as usize)
                }
                2 => self.last2(own, opp, alpha, beta, [cells[0], cells[1]]),
                3 => self.last3(own, opp, alpha, beta, [cells[0], cells[1], cells[2]]),
                _ => self.last4(own, opp, alpha, beta, cells),
            }
        }
    }

    fn deep(&mut self, own: u64, opp: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if let Some(bound) = stability_cut(own, opp, alpha) {
            return bound;
        }
        let moves = legal(own, opp);
        if moves == 0 {
            if legal(opp, own) == 0 {
                return final_score(own, opp);
            }
            return -self.deep(opp, own, -beta, -alpha, empties);
        }
        let index = slot_index(own, opp);
        let slot = self.table[index];
        let mut hint = NO_MOVE;
        if slot.own == own && slot.opp == opp && slot.generation == self.generation {
            let (lower, upper) = (i32::from(slot.lower), i32::from(slot.upper));
            if lower >= beta {
                return lower;
            }
            if upper <= alpha || lower == upper {
                return upper;
            }
            hint = slot.best;
        }
        let mut list = [(0i32, 0u8, 0u64); 32];
        let n = order_fastest(own, opp, moves, hint, &mut list, empties);
        if empties >= ETC_FROM {
            // Enhanced transposition cut-off: a reply already known to hold the other side
            // at or below -beta settles this node without a search.
            for &(_, sq, f) in &list[..n] {
                let (next_own, next_opp) = (opp ^ f, own | f | (1u64 << sq));
                let s = self.table[slot_index(next_own, next_opp)];
                if s.own == next_own
                    && s.opp == next_opp
                    && s.generation == self.generation
                    && -i32::from(s.upper) >= beta
                {
                    return -i32::from(s.upper);
                }
            }
        }
        let (best_sq, best) = self.principal(own, opp, &list[..n], alpha, beta, empties);
        if self.stopped {
            return 0;
        }
        let (lower, upper) = if best >= beta {
            (best, 64)
        } else if best <= alpha {
            (-64, best)
        } else {
            (best, best)
        };
        self.table[index] = Slot {
            own,
            opp,
            lower: lower as i8,
            upper: upper as i8,
            best: best_sq,
            generation: self.generation,
        };
        best
    }

    fn shallow(&mut self, own: u64, opp: u64, mut alpha: i32, beta: i32, empties: u32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        if empties >= STABILITY_FROM
            && let Some(bound) = stability_cut(own, opp, alpha)
        {
            return bound;
        }
        let moves = legal(own, opp);
        if moves == 0 {
            if legal(opp, own) == 0 {
                return final_score(own, opp);
            }
            return -self.shallow(opp, own, -beta, -alpha, empties);
        }
        let empty = !(own | opp);
        let odd = odd_regions(empty);
        let bad = dangerous(empty);
        let mut best = -65;
        for region in [odd, !odd] {
            let here = moves & region;
            for group in [here & CORNERS, here & !CORNERS & !bad, here & bad] {
                let mut rest = group;
                while rest != 0 {
                    let sq = rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    let f = flips(own, opp, sq);
                    let v =
                        -self.search(opp ^ f, own | f | (1u64 << sq), -beta, -alpha, empties - 1);
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if alpha >= beta {
                                return best;
                            }
                        }
                    }
                }
            }
        }
        best
    }

    /// Two empty cells, `cells`: each move found by its flips alone, the last cell counted
    /// by [`last1`]; one node for this position and one for each position after a move,
    /// as for three and four.
    #[inline(always)]
    fn last2(&mut self, own: u64, opp: u64, alpha: i32, beta: i32, cells: [u8; 2]) -> i32 {
        self.nodes += 1;
        let [x1, x2] = cells;
        let mut best = -65;
        let f = flips_near(own, opp, x1 as usize);
        if f != 0 {
            self.nodes += 1;
            best = -last1(opp ^ f, own | f | (1u64 << x1), x2 as usize);
            if best >= beta {
                return best;
            }
        }
        let f = flips_near(own, opp, x2 as usize);
        if f != 0 {
            self.nodes += 1;
            return best.max(-last1(opp ^ f, own | f | (1u64 << x2), x1 as usize));
        }
        if best > -65 {
            return best;
        }
        if cells
            .iter()
            .any(|&sq| flips_near(opp, own, sq as usize) != 0)
        {
            -self.last2(opp, own, -beta, -alpha, cells)
        } else {
            final_score(own, opp)
        }
    }
}

/// Three and four empty cells, listed in the order to try them (odd regions first): each
/// move found by its flips alone, the rest handed down in the same order.
macro_rules! last_n {
    ($name:ident, $n:literal, $child:ident) => {
        impl EndgameSolver {
            fn $name(
                &mut self,
                own: u64,
                opp: u64,
                mut alpha: i32,
                beta: i32,
                cells: [u8; $n],
            ) -> i32 {
                self.nodes += 1;
                let mut best = -65;
                for i in 0..$n {
                    let sq = cells[i];
                    let f = flips_near(own, opp, sq as usize);
                    if f == 0 {
                        continue;
                    }
                    let mut rest = [0u8; $n - 1];
                    let mut k = 0;
                    for (j, &other) in cells.iter().enumerate() {
                        if j != i {
                            rest[k] = other;
                            k += 1;
                        }
                    }
                    let v = -self.$child(opp ^ f, own | f | (1u64 << sq), -beta, -alpha, rest);
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if alpha >= beta {
                                return best;
                            }
                        }
                    }
                }
                if best > -65 {
                    return best;
                }
                if cells
                    .iter()
                    .any(|&sq| flips_near(opp, own, sq as usize) != 0)
                {
                    -self.$name(opp, own, -beta, -alpha, cells)
                } else {
                    final_score(own, opp)
                }
            }
        }
    };
}
last_n!(last3, 3, last2);
last_n!(last4, 4, last3);

/// The stability cut-off: `Some(upper bound)` on the score of the side to move (`own`) when
/// the other side's stable discs alone keep it at or below `alpha`.
#[inline(always)]
fn stability_cut(own: u64, opp: u64, alpha: i32) -> Option<i32> {
    // The bound can only reach alpha if the other side has that many discs at all.
    if 64 - 2 * opp.count_ones() as i32 > alpha {
        return None;
    }
    let bound = 64 - 2 * stable(opp, own | opp).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

fn slot_index(own: u64, opp: u64) -> usize {
    let h = own.wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ opp.rotate_left(23).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (h >> (64 - TABLE_BITS)) as usize
}

/// Fills `list` with (key, cell, flips) for every move in `moves`, ordered: the `hint` first,
/// then the fewest replies for the opponent (corners double), odd regions before even ones;
/// with [`EVALUATION_ORDER_FROM`] `empties` or more, the pattern evaluation of the position
/// after the move counts too (for the other side, four discs as much as one reply), and with
/// [`REPLY_ORDER_FROM`] or more the evaluation after the other side's best reply by it.
/// Returns how many.
fn order_fastest(
    own: u64,
    opp: u64,
    moves: u64,
    hint: u8,
    list: &mut [(i32, u8, u64); 32],
    empties: u32,
) -> usize {
    let odd = odd_regions(!(own | opp));
    let by_evaluation = empties >= EVALUATION_ORDER_FROM;
    let by_reply = empties >= REPLY_ORDER_FROM;
    let mut n = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        let f = flips(own, opp, sq);
        let replies = legal(opp ^ f, own | f | bit);
        let mut key = 4 * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
        if bit & odd != 0 {
            key -= 1;
        }
        if bit & CORNERS != 0 {
            key -= 2;
        }
        if by_evaluation {
            // The other side's evaluation after the move, in discs: four a reply.
            key += reply_value(opp ^ f, own | f | bit, replies, by_reply) / UNITS_PER_DISC;
        }
        if sq as u8 == hint {
            key = i32::MIN;
        }
        list[n] = (key, sq as u8, f);
        n += 1;
    }
    // Insertion sort: stable, so equal keys keep the cells' order (determinism).
    for i in 1..n {
        let mut j = i;
        while j > 0 && list[j - 1].0 > list[j].0 {
            list.swap(j - 1, j);
            j -= 1;
        }
    }
    n
}

/// The pattern evaluation of (`own`, `opp`) for `own`, to move with `moves`: with `search`
/// and a move, the best of its moves by the evaluation after it (negamax of one ply).
#[inline]
fn reply_value(own: u64, opp: u64, moves: u64, search: bool) -> i32 {
    if !search || moves == 0 {
        return WEIGHTS.evaluate(own, opp);
    }
    let mut best = i32::MIN;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros() as usize;
        let bit = rest & rest.wrapping_neg();
        rest ^= bit;
        let f = flips(own, opp, sq);
        best = best.max(-WEIGHTS.evaluate(opp ^ f, own | f | bit));
    }
    best
}

/// How many empty cells `state` has.
pub fn empties(state: &Othello) -> u32 {
    64 - (state.own | state.opp).count_ones()
}

/// Nodes per second assumed when deciding whether an exact solve fits in the time left: well
/// under the 9-11 million measured in release on FFO #40-#44 when it was set, and the 17-25
/// million since session 43 (docs/benchmarks.md), for a loaded machine.
const PLANNING_NODES_PER_SECOND: f64 = 3e6;

/// Nodes per second assumed for a win/loss/draw solve, with [`wld_nodes`]' median: 8-10
/// million were measured on one core of the loaded machine (docs/strength.md).
const WLD_NODES_PER_SECOND: f64 = 6e6;

/// Nodes an exact solve is expected to need with `empties` empty cells: about 2e8 at 22
/// (FFO #41-#44 took 0.8e8-1.9e8 when this was fitted; since session 43's narrow windows and
/// ordering 0.3e8-1.4e8, since session 44's reply order 0.26e8-1.04e8, so it now errs on the
/// side of caution), a third for each empty fewer.
fn expected_nodes(empties: u32) -> f64 {
    2e8 * 3f64.powi(empties as i32 - 22)
}

/// About the median nodes of a win/loss/draw solve with `empties` empty cells: 1.2 million at
/// 20, times 2.7 an empty, fitted a little above the medians of 12 positions of depth-4
/// self-play at each of 16, 18, 20 and 22 empties (0.04, 0.17, 0.9 and 10.5 million; the
/// slowest at 20 took 5.4 million, one at 22 was not solved in 5 s; docs/strength.md). A null
/// window around 0 proves a win by one winning move, so it needs far fewer nodes than the
/// exact score (about a tenth at 18 to 20 empties on the same positions).
fn wld_nodes(empties: u32) -> f64 {
    1.2e6 * 2.7f64.powi(empties as i32 - 20)
}

/// The move to play in `board` by solving it before `deadline`: first whether it wins (WLD),
/// then, if the exact solve is expected to fit as well, the best score.
///
/// The WLD solve is tried when its median time is under half the time left (from 20 empties
/// at the contest's 900 ms, Zebra's setting in issue 21), and is stopped at half of it, so
/// that a slow one leaves the search half. The exact solve is tried only when expected to
/// take under a quarter of the time left, and is stopped at half of it. A proved win or draw
/// is played by its WLD move (the result is what counts); a proved loss with no time for the
/// exact solve is left to the search, which may find the best resistance.
pub fn solve_in_time(
    solver: &mut EndgameSolver,
    board: &Othello,
    deadline: Instant,
) -> Option<Place> {
    solve_planned(
        solver,
        board,
        &|| {
            deadline
                .saturating_duration_since(Instant::now())
                .as_secs_f64()
        },
        &|secs| Budget {
            deadline: Some(Instant::now() + Duration::from_secs_f64(secs)),
            ..Budget::UNLIMITED
        },
    )
}

/// [`solve_in_time`]'s plan, with the clock given: `left()` is the time left in seconds,
/// `stop_after(s)` the budget of a solve that may take `s` seconds. The tests give a clock
/// that stands still and budgets without a deadline, so that what is tried, and what it
/// answers, does not depend on the machine's load.
fn solve_planned(
    solver: &mut EndgameSolver,
    board: &Othello,
    left: &dyn Fn() -> f64,
    stop_after: &dyn Fn(f64) -> Budget,
) -> Option<Place> {
    let e = empties(board);
    if wld_nodes(e) / WLD_NODES_PER_SECOND > left() / 2.0 {
        return None;
    }
    let wld = solver.solve(board, SolveMode::WinLossDraw, stop_after(left() / 2.0))?;
    // The exact solve's first window is the WLD one: the table answers it.
    if expected_nodes(e) / PLANNING_NODES_PER_SECOND <= left() / 4.0
        && let Some(exact) =
            solver.solve_continuing(board, SolveMode::Exact, stop_after(left() / 2.0))
    {
        return Some(exact.best);
    }
    (wld.score >= 0).then_some(wld.best)
}

/// The [`crate::Endgame`] of [`Reversi`]: [`solve_in_time`] on the 8x8 board, nothing on
/// other sizes.
#[derive(Default)]
pub struct Timed<S> {
    solver: Option<EndgameSolver>,
    size: PhantomData<S>,
}

impl<S: Size> crate::Endgame<Reversi<S>> for Timed<S> {
    fn solve(&mut self, state: &Reversi<S>, deadline: Instant) -> Option<Place> {
        if S::N != 8 {
            return None;
        }
        let board = Othello::from_discs(
            state.discs(Disc::Black).to_u128() as u64,
            state.discs(Disc::White).to_u128() as u64,
            state.turn,
        );
        if wld_nodes(empties(&board)) > 1e9 {
            return None;
        }
        // The table is allocated on the first solve, not for every player built.
        solve_in_time(
            self.solver.get_or_insert_with(EndgameSolver::new),
            &board,
            deadline,
        )
    }
}

#[cfg(test)]
mod tests {
    use ply_core::{Budget, Game, Outcome};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// Plain full-width negamax over the generic [`Game`] rules: the final disc difference
    /// for the side to move, empties to the winner, checked against the game's own outcome.
    fn plain(state: &Othello) -> i32 {
        if let Some(outcome) = state.outcome() {
            let (black, white) = state.counts();
            let (mine, theirs) = if state.to_move() == Seat::FIRST {
                (black as i32, white as i32)
            } else {
                (white as i32, black as i32)
            };
            let empty = 64 - mine - theirs;
            let score = (mine - theirs) + (mine - theirs).signum() * empty;
            let expected = match outcome {
                Outcome::Win(s) if s == state.to_move() => 1,
                Outcome::Win(_) => -1,
                _ => 0,
            };
            assert_eq!(score.signum(), expected, "{state}");
            return score;
        }
        let mut moves = Vec::new();
        state.legal_moves(&mut moves);
        moves
            .iter()
            .map(|&m| {
                let mut child = *state;
                child.play(m).expect("legal");
                let v = plain(&child);
                if child.to_move() == state.to_move() {
                    v
                } else {
                    -v
                }
            })
            .max()
            .expect("not over, so a move")
    }

    use ply_core::Seat;

    /// A position reached by seeded random play with `empties` empty cells and a move to
    /// make, if the game lasts that long.
    fn random_position(seed: u64, target: u32) -> Option<Othello> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = Othello::start();
        let mut moves = Vec::new();
        while empties(&state) > target {
            state.legal_moves(&mut moves);
            if moves.is_empty() {
                return None;
            }
            let m = moves[rng.random_range(0..moves.len())];
            state.play_unchecked(m);
        }
        state.outcome().is_none().then_some(state)
    }

    /// The table count of the last move's flips equals the move generator's, for both sides,
    /// on every cell of random full boards (one cell empty), and `last1` equals the plain
    /// negamax's score there.
    #[test]
    fn last_flip_counts_equal_the_generator_on_full_boards() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut turned = 0;
        for _ in 0..200 {
            let own: u64 = rng.random();
            for sq in 0..64 {
                let bit = 1u64 << sq;
                let (own, opp) = (own & !bit, !own & !bit);
                for (a, b) in [(own, opp), (opp, own)] {
                    let f = flips(a, b, sq);
                    assert_eq!(
                        count_last_flips(a, sq),
                        f.count_ones() as i32,
                        "{a:#x} {sq}"
                    );
                    turned += f.count_ones();
                }
            }
        }
        assert!(turned > 10_000, "the boards turn discs over: {turned}");
        for seed in 0..300 {
            let Some(state) = random_position(seed, 1) else {
                continue;
            };
            let sq = (!(state.own | state.opp)).trailing_zeros() as usize;
            assert_eq!(last1(state.own, state.opp, sq), plain(&state), "{state}");
        }
    }

    /// Stable discs never change colour: from positions of random games (10 to 50 empties),
    /// every disc `stable` names for either side keeps its colour through random play to the
    /// end of the game. And the set is not trivially empty: corners, edges and full lines
    /// make many discs stable.
    #[test]
    fn stable_discs_never_flip_in_random_play() {
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        let (mut positions, mut named) = (0, 0u32);
        for seed in 0..300 {
            let Some(state) = random_position(seed, 10 + (seed as u32) % 41) else {
                continue;
            };
            positions += 1;
            let occupied = state.own | state.opp;
            let (keep_a, keep_b) = (stable(state.own, occupied), stable(state.opp, occupied));
            assert_eq!(keep_a & !state.own, 0);
            assert_eq!(keep_b & !state.opp, 0);
            named += (keep_a | keep_b).count_ones();
            for _ in 0..5 {
                // `a` and `b` are the colours of `state.own` and `state.opp`; a moves first.
                let (mut a, mut b, mut a_to_move) = (state.own, state.opp, true);
                loop {
                    let (m, o) = if a_to_move { (a, b) } else { (b, a) };
                    let moves = legal(m, o);
                    if moves == 0 {
                        if legal(o, m) == 0 {
                            break;
                        }
                        a_to_move = !a_to_move;
                        continue;
                    }
                    let pick = rng.random_range(0..moves.count_ones());
                    let mut rest = moves;
                    for _ in 0..pick {
                        rest &= rest - 1;
                    }
                    let sq = rest.trailing_zeros() as usize;
                    let f = flips(m, o, sq);
                    let (m, o) = (m | f | (1u64 << sq), o ^ f);
                    (a, b) = if a_to_move { (m, o) } else { (o, m) };
                    assert_eq!(keep_a & !a, 0, "a stable disc flipped, from {state}");
                    assert_eq!(keep_b & !b, 0, "a stable disc flipped, from {state}");
                    a_to_move = !a_to_move;
                }
            }
        }
        assert!(positions > 250, "{positions}");
        assert!(
            named > 500,
            "only {named} stable discs named in {positions} positions"
        );
    }

    #[test]
    fn stable_knows_corners_full_boards_and_lone_discs() {
        // A full board: every disc is stable.
        let own = 0x0F0F_0F0F_0F0F_0F0Fu64;
        assert_eq!(stable(own, !0), own);
        // A corner is stable; a disc beside it on the edge too; the centre is not.
        let own = 0b11 | (1 << 27);
        assert_eq!(stable(own, own | (1 << 36)), 0b11);
        // The same edge disc without the corner is not.
        assert_eq!(stable(0b10, 0b10), 0);
    }

    fn check_against_plain(seeds: std::ops::Range<u64>, empties_from: u32, empties_to: u32) {
        let mut solver = EndgameSolver::new();
        let mut kept = EndgameSolver::new();
        let mut checked = 0;
        for seed in seeds {
            let target = empties_from + (seed as u32) % (empties_to - empties_from + 1);
            let Some(state) = random_position(seed, target) else {
                continue;
            };
            let expected = plain(&state);
            let exact = solver
                .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
                .expect("no budget");
            assert_eq!(exact.score, expected, "seed {seed}: {state}");
            let wld = solver
                .solve(&state, SolveMode::WinLossDraw, Budget::UNLIMITED)
                .expect("no budget");
            assert_eq!(wld.score, expected.signum(), "seed {seed}: {state}");
            // A solver that never starts afresh (every earlier position's bounds, of both
            // modes, in its table) answers the same.
            let kept_wld = kept
                .solve_continuing(&state, SolveMode::WinLossDraw, Budget::UNLIMITED)
                .unwrap();
            let kept_exact = kept
                .solve_continuing(&state, SolveMode::Exact, Budget::UNLIMITED)
                .unwrap();
            assert_eq!(
                (kept_wld.score, kept_exact.score),
                (expected.signum(), expected),
                "seed {seed}: {state}"
            );
            // The best move reaches the score.
            let mut child = state;
            child.play(exact.best).expect("the solver's move is legal");
            let after = plain(&child);
            let after = if child.to_move() == state.to_move() {
                after
            } else {
                -after
            };
            assert_eq!(
                after, expected,
                "seed {seed}: best move {} of {state}",
                exact.best
            );
            checked += 1;
        }
        assert!(checked > 0);
    }

    #[test]
    fn exact_and_wld_scores_equal_plain_negamax_with_8_to_9_empties() {
        check_against_plain(0..24, 8, 9);
    }

    #[test]
    #[ignore = "plain negamax up to 12 empties: about 3 minutes in release (cargo test --release -- --ignored)"]
    fn exact_and_wld_scores_equal_plain_negamax_with_8_to_12_empties() {
        check_against_plain(100..200, 8, 12);
    }

    #[test]
    fn a_finished_game_has_no_solution() {
        // Nobody can move at all: the solver has nothing to answer.
        let over: Othello =
            "xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxxxx/xxxxxx.. o"
                .parse()
                .unwrap();
        assert!(over.outcome().is_some());
        assert_eq!(
            EndgameSolver::new().solve(&over, SolveMode::Exact, Budget::UNLIMITED),
            None
        );
    }

    #[test]
    fn stops_at_the_node_limit_and_answers_nothing() {
        let state = random_position(7, 16).expect("a position");
        let mut solver = EndgameSolver::new();
        assert_eq!(
            solver.solve(&state, SolveMode::Exact, Budget::nodes(5000)),
            None
        );
    }

    #[test]
    fn solve_in_time_tries_only_what_fits_before_the_deadline() {
        let mut solver = EndgameSolver::new();
        let state = random_position(3, 10).expect("a position");
        let now = Instant::now();
        assert_eq!(
            solve_in_time(&mut solver, &state, now),
            None,
            "no time at all"
        );
        let far = now + Duration::from_secs(60);
        let mv = solve_in_time(&mut solver, &state, far).expect("10 empties fit in a minute");
        let exact = solver
            .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        let mut child = state;
        child.play(mv).unwrap();
        let after = plain(&child);
        let after = if child.to_move() == state.to_move() {
            after
        } else {
            -after
        };
        assert_eq!(after, exact.score);
        // 24 empties: expected to take minutes, so not even tried with a second left.
        let early = random_position(5, 24).expect("a position");
        let mut fresh = EndgameSolver::new();
        let second = Instant::now() + Duration::from_secs(1);
        assert_eq!(solve_in_time(&mut fresh, &early, second), None);
        assert_eq!(fresh.nodes, 0, "not tried");
    }

    #[test]
    fn with_time_for_the_wld_solve_only_its_move_keeps_the_exact_result() {
        // 18 empties and 3 s: the WLD solve is expected to take a fiftieth of half of it, the
        // exact one is not expected to fit in a quarter, so the move is the WLD solve's; it
        // must keep the position's result (by the exact solver's score), or be none when that
        // is a loss. The clock stands still at 3 s and the solves have no deadline: with a
        // real one, a test thread starved under load (10-12) ran out of it and answered
        // nothing for a won position.
        let mut played = 0;
        for seed in 20..32 {
            let Some(state) = random_position(seed, 18) else {
                continue;
            };
            assert!(wld_nodes(18) / WLD_NODES_PER_SECOND < 1.5 / 50.0);
            assert!(expected_nodes(18) / PLANNING_NODES_PER_SECOND > 3.0 / 4.0);
            let mut solver = EndgameSolver::new();
            let exact = solver
                .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
                .unwrap();
            let Some(mv) = solve_planned(&mut solver, &state, &|| 3.0, &|_| Budget::UNLIMITED)
            else {
                assert!(exact.score < 0, "seed {seed}: no move, but {}", exact.score);
                continue;
            };
            let mut child = state;
            child.play(mv).unwrap();
            let after = solver
                .solve(&child, SolveMode::Exact, Budget::UNLIMITED)
                .map_or_else(|| final_score(child.own, child.opp), |s| s.score);
            let after = if child.to_move() == state.to_move() {
                after
            } else {
                -after
            };
            assert_eq!(
                after.signum(),
                exact.score.signum(),
                "seed {seed}: {mv} in {state}"
            );
            played += 1;
        }
        assert!(played > 0, "no position won or drawn");
    }

    #[test]
    fn same_position_same_answer_and_nodes() {
        let state = random_position(11, 12).expect("a position");
        let mut solver = EndgameSolver::new();
        let a = solver
            .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        let b = EndgameSolver::new()
            .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        assert_eq!((a.best, a.score, a.nodes), (b.best, b.score, b.nodes));
    }

    /// The order lists every legal move once with its flips, the hint first, whichever
    /// evaluation orders it (none, the position's after the move, the best reply's); the
    /// one-ply value is the best of the replies' evaluations, checked through the generic
    /// rules.
    #[test]
    fn the_move_order_lists_every_legal_move_with_its_flips() {
        let mut checked = 0;
        for seed in 0..40u64 {
            let target = 8 + (seed as u32 % 15);
            let Some(state) = random_position(500 + seed, target) else {
                continue;
            };
            let (own, opp) = (state.own, state.opp);
            let moves = legal(own, opp);
            if moves == 0 {
                continue;
            }
            let hint = moves.trailing_zeros() as u8;
            let mut list = [(0i32, 0u8, 0u64); 32];
            let n = order_fastest(own, opp, moves, hint, &mut list, target);
            assert_eq!(n, moves.count_ones() as usize, "seed {seed}");
            assert_eq!(list[0].1, hint, "seed {seed}");
            let mut seen = 0u64;
            for &(_, sq, f) in &list[..n] {
                assert_eq!(f, flips(own, opp, usize::from(sq)), "seed {seed}");
                seen |= 1u64 << sq;
            }
            assert_eq!(seen, moves, "seed {seed}");
            // The one-ply value against the generic rules' children.
            let mut children = Vec::new();
            state.legal_moves(&mut children);
            let best = children
                .iter()
                .map(|&mv| {
                    let mut child = state;
                    child.play(mv).unwrap();
                    -WEIGHTS.evaluate(child.own, child.opp)
                })
                .max()
                .unwrap();
            assert_eq!(reply_value(own, opp, moves, true), best, "seed {seed}");
            assert_eq!(
                reply_value(own, opp, moves, false),
                WEIGHTS.evaluate(own, opp)
            );
            checked += 1;
        }
        assert!(checked >= 30, "only {checked} positions");
    }

    /// An exact solve continuing a win/loss/draw solve of the same position (the bot's
    /// plan) answers the fresh solve's score with fewer nodes, and its move reaches that
    /// score (checked by a fresh solve of the position after it); the first solve of a new
    /// solver continuing nothing is a fresh solve, nodes and all.
    #[test]
    fn an_exact_solve_continuing_a_wld_one_answers_the_same_with_fewer_nodes() {
        let (mut fewer, mut positions) = (0, 0);
        for seed in 40..52 {
            let Some(state) = random_position(seed, 14) else {
                continue;
            };
            let fresh = EndgameSolver::new()
                .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
                .unwrap();
            let first = EndgameSolver::new()
                .solve_continuing(&state, SolveMode::Exact, Budget::UNLIMITED)
                .unwrap();
            assert_eq!(
                (first.best, first.score, first.nodes),
                (fresh.best, fresh.score, fresh.nodes)
            );
            let mut solver = EndgameSolver::new();
            let wld = solver
                .solve(&state, SolveMode::WinLossDraw, Budget::UNLIMITED)
                .unwrap();
            let exact = solver
                .solve_continuing(&state, SolveMode::Exact, Budget::UNLIMITED)
                .unwrap();
            assert_eq!(exact.score, fresh.score, "seed {seed}: {state}");
            assert_eq!(wld.score, fresh.score.signum(), "seed {seed}: {state}");
            let mut child = state;
            child.play(exact.best).unwrap();
            let after = EndgameSolver::new()
                .solve(&child, SolveMode::Exact, Budget::UNLIMITED)
                .map_or_else(|| final_score(child.own, child.opp), |s| s.score);
            let after = if child.to_move() == state.to_move() {
                after
            } else {
                -after
            };
            assert_eq!(after, fresh.score, "seed {seed}: {} in {state}", exact.best);
            positions += 1;
            fewer += usize::from(exact.nodes < fresh.nodes);
        }
        assert!(positions >= 8, "only {positions} positions");
        assert_eq!(fewer, positions, "fewer nodes in {fewer} of {positions}");
    }

    /// A reused solver forgets earlier solves: after 300 others (past the wrap of the 8-bit
    /// generation stamp), a position is solved with the nodes of a fresh solver.
    #[test]
    fn a_reused_solver_answers_as_a_fresh_one() {
        let state = random_position(11, 12).expect("a position");
        let fresh = EndgameSolver::new()
            .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        let mut solver = EndgameSolver::new();
        for seed in 0..300 {
            if let Some(other) = random_position(1000 + seed, 10) {
                solver.solve(&other, SolveMode::Exact, Budget::UNLIMITED);
            }
            if seed % 100 == 0 || seed == 254 || seed == 255 {
                let again = solver
                    .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
                    .unwrap();
                assert_eq!(
                    (again.best, again.score, again.nodes),
                    (fresh.best, fresh.score, fresh.nodes),
                    "after {seed} other solves"
                );
            }
        }
    }

    /// An FFO position (a1..h1, a2..h2, ... ; `X` black, `O` white, `-` empty) in ply's form.
    fn ffo(board: &str, black_to_move: bool) -> Othello {
        let rows: Vec<String> = board
            .as_bytes()
            .chunks(8)
            .map(|row| {
                row.iter()
                    .map(|&c| match c {
                        b'X' => 'x',
                        b'O' => 'o',
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let side = if black_to_move { 'x' } else { 'o' };
        format!("{} {side}", rows.join("/"))
            .parse()
            .expect("an FFO board")
    }

    /// A cell in Othello notation (`a1` the top left, columns a-h, rows 1-8).
    fn cell(name: &str) -> Place {
        let b = name.as_bytes();
        Place::at(usize::from(b[1] - b'1'), usize::from(b[0] - b'a'))
    }

    /// FFO endgame test positions #40-#44 with their published exact scores (for the side to
    /// move) and best moves, from Gunnar Andersson's FFO test suite,
    /// <http://www.radagast.se/othello/ffotest.html>.
    const FFO: [(u32, &str, bool, i32, &[&str]); 5] = [
        (
            40,
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------",
            true,
            38,
            &["a2"],
        ),
        (
            41,
            "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O-",
            true,
            0,
            &["h4"],
        ),
        (
            42,
            "--OOO-------XX-OOOOOOXOO-OOOOXOOX-OOOXXO---OOXOO---OOOXO--OOOO--",
            true,
            6,
            &["g2"],
        ),
        (
            43,
            "--XXXXX---XXXX---OOOXX---OOXXXX--OOXXXO-OOOOXOO----XOX----XXXXX-",
            false,
            -12,
            &["c7", "g3"],
        ),
        (
            44,
            "--O-X-O---O-XO-O-OOXXXOOOOOOXXXOOOOOXX--XXOOXO----XXXX-----XXX--",
            false,
            -14,
            &["d2", "b8"],
        ),
    ];

    fn solve_ffo(number: u32) {
        let &(_, board, black, score, best) = FFO.iter().find(|p| p.0 == number).unwrap();
        let state = ffo(board, black);
        let mut solver = EndgameSolver::new();
        let s = solver
            .solve(&state, SolveMode::Exact, Budget::UNLIMITED)
            .unwrap();
        assert_eq!(s.score, score, "FFO #{number}");
        assert!(
            best.iter().any(|b| cell(b) == s.best),
            "FFO #{number}: {}",
            s.best
        );
        let w = solver
            .solve(&state, SolveMode::WinLossDraw, Budget::UNLIMITED)
            .unwrap();
        assert_eq!(w.score, score.signum(), "FFO #{number}");
        eprintln!(
            "FFO #{number}: {} empties, score {}, move {}, {} nodes in {:.2?} ({:.1} M nodes/s); WLD {} nodes in {:.2?}",
            empties(&state),
            s.score,
            s.best,
            s.nodes,
            s.elapsed,
            s.nodes as f64 / s.elapsed.as_secs_f64() / 1e6,
            w.nodes,
            w.elapsed
        );
    }

    #[test]
    #[ignore = "about 3 s in release, exact and WLD (cargo test --release -- --ignored)"]
    fn ffo_40() {
        solve_ffo(40);
    }
    #[test]
    #[ignore = "about 14 s in release, exact and WLD (cargo test --release -- --ignored)"]
    fn ffo_41() {
        solve_ffo(41);
    }
    #[test]
    #[ignore = "about 27 s in release, exact and WLD (cargo test --release -- --ignored)"]
    fn ffo_42() {
        solve_ffo(42);
    }
    #[test]
    #[ignore = "about 20 s in release, exact and WLD (cargo test --release -- --ignored)"]
    fn ffo_43() {
        solve_ffo(43);
    }
    #[test]
    #[ignore = "about 16 s in release, exact and WLD (cargo test --release -- --ignored)"]
    fn ffo_44() {
        solve_ffo(44);
    }
}
