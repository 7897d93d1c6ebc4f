//! Peg solitaire as a [`ply_core::Puzzle`], so that the plain generic searches of
//! `ply_search::puzzle` can check the specialised solvers: one jump a move ([`PegPuzzle`]) or
//! one run of jumps a move ([`PegChains`], for fewest moves).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use ply_core::Puzzle;

use super::board::{Board, Hole, Jump, bits_of};
use super::fewest::for_each_chain;
use super::solve::Goal;

/// One jump, by holes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HoleJump {
    /// Start.
    pub from: Hole,
    /// Landing hole.
    pub to: Hole,
}

impl fmt::Display for HoleJump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A position with its board and goal; a move is one jump. Equality and hashing look at
/// the pegs only: states of one search share their board and goal.
#[derive(Clone, Debug)]
pub struct PegPuzzle {
    /// The board.
    pub board: Arc<Board>,
    /// The pegs.
    pub pegs: u64,
    /// When it is solved.
    pub goal: Goal,
}

impl PartialEq for PegPuzzle {
    fn eq(&self, other: &Self) -> bool {
        self.pegs == other.pegs
    }
}
impl Eq for PegPuzzle {}
impl Hash for PegPuzzle {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.pegs.hash(state);
    }
}

impl Puzzle for PegPuzzle {
    type Move = HoleJump;

    fn legal_moves(&self, moves: &mut Vec<HoleJump>) {
        moves.clear();
        for j in self.board.jumps() {
            if j.legal(self.pegs) {
                moves.push(HoleJump {
                    from: self.board.hole(j.from),
                    to: self.board.hole(j.to),
                });
            }
        }
        moves.sort_unstable();
    }

    fn play_unchecked(&mut self, mv: HoleJump) {
        let j = find_jump(&self.board, mv.from, mv.to).expect("a legal jump");
        self.pegs = j.apply(self.pegs);
    }

    fn is_solved(&self) -> bool {
        self.goal.reached(self.pegs)
    }
}

fn find_jump(board: &Board, from: Hole, to: Hole) -> Option<Jump> {
    let f = board.bit(from)?;
    let t = board.bit(to)?;
    board.jumps_from(f).iter().copied().find(|j| j.to == t)
}

/// One move: the peg that moves and the pegs after the run of jumps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ChainMove {
    /// Where the moving peg starts.
    pub from: Hole,
    /// The pegs afterwards.
    pub after: u64,
}

impl fmt::Display for ChainMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}->{:#x}", self.from, self.after)
    }
}

/// A position with its board and goal; a move is a whole run of jumps by one peg, so that
/// breadth-first search counts moves.
#[derive(Clone, Debug)]
pub struct PegChains(pub PegPuzzle);

impl PartialEq for PegChains {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for PegChains {}
impl Hash for PegChains {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl Puzzle for PegChains {
    type Move = ChainMove;

    fn legal_moves(&self, moves: &mut Vec<ChainMove>) {
        moves.clear();
        let p = &self.0;
        let mut path = Vec::new();
        for peg in bits_of(p.pegs) {
            let from = p.board.hole(peg);
            for_each_chain(&p.board, p.pegs, peg, &mut path, &mut |_, after| {
                moves.push(ChainMove { from, after });
                true
            });
        }
        moves.sort_unstable();
        moves.dedup();
    }

    fn play_unchecked(&mut self, mv: ChainMove) {
        self.0.pegs = mv.after;
    }

    fn is_solved(&self) -> bool {
        self.0.is_solved()
    }
}
