//! Lazy move sequences: a solution is planned as a short list of [`Step`]s (single moves and
//! whole tower transfers), and [`Moves`] expands them one move at a time, so memory stays
//! linear in the number of discs however long the solution is.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::frame_stewart::FrameStewart;
use super::three_peg::BinaryMoves;
use super::{Move, Peg};

/// One part of a plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// A single move.
    One(Move),
    /// The smallest `discs` discs, a perfect tower on `from`, go to `to` over `via`: the
    /// classic 2^n - 1 moves.
    Classic {
        discs: u32,
        from: u8,
        to: u8,
        via: u8,
    },
    /// A perfect tower of the smallest `discs` discs goes from `from` to `to` with the
    /// auxiliary pegs `aux`, by Frame–Stewart.
    Tower {
        discs: u32,
        from: u8,
        to: u8,
        aux: Vec<u8>,
    },
    /// The longest non-self-crossing transfer of a perfect tower on 3 pegs (3^n - 1 moves).
    Longest {
        discs: u32,
        from: u8,
        to: u8,
        via: u8,
    },
}

impl Step {
    /// The number of moves this step expands to.
    pub(crate) fn len(&self, fs: &mut FrameStewart) -> BigUint {
        match self {
            Step::One(_) => BigUint::one(),
            Step::Classic { discs, .. } => (BigUint::one() << *discs) - 1u32,
            Step::Tower { discs, aux, .. } => fs.count(*discs as usize, aux.len() + 2),
            Step::Longest { discs, .. } => BigUint::from(3u32).pow(*discs) - 1u32,
        }
    }

    /// The same transfer played backwards.
    pub(crate) fn reversed(&self) -> Step {
        match self.clone() {
            Step::One(mv) => Step::One(mv.reversed()),
            Step::Classic {
                discs,
                from,
                to,
                via,
            } => Step::Classic {
                discs,
                from: to,
                to: from,
                via,
            },
            Step::Tower {
                discs,
                from,
                to,
                aux,
            } => Step::Tower {
                discs,
                from: to,
                to: from,
                aux,
            },
            Step::Longest {
                discs,
                from,
                to,
                via,
            } => Step::Longest {
                discs,
                from: to,
                to: from,
                via,
            },
        }
    }
}

/// The total number of moves of a plan.
pub(crate) fn plan_len(steps: &[Step], fs: &mut FrameStewart) -> BigUint {
    steps.iter().fold(BigUint::zero(), |acc, s| acc + s.len(fs))
}

/// The reverse of a plan: the same positions visited backwards.
pub(crate) fn reverse_plan(steps: &[Step]) -> Vec<Step> {
    steps.iter().rev().map(Step::reversed).collect()
}

/// What [`Moves::fill_run`] gives next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Run {
    /// This many moves were written (0: the sequence is over).
    Moves(usize),
    /// The classic transfer of the smallest discs asked for, a tower on `from`, to `to` over
    /// `via` (2^discs - 1 moves).
    Tower { from: u8, to: u8, via: u8 },
}

/// A move sequence produced lazily. Created by the solvers of this module.
pub struct Moves {
    /// Steps still to expand, the next one last.
    stack: Vec<Step>,
    classic: Option<BinaryMoves>,
    fs: FrameStewart,
}

impl Moves {
    pub(crate) fn new(plan: Vec<Step>, fs: FrameStewart) -> Moves {
        let mut stack = plan;
        stack.reverse();
        Moves {
            stack,
            classic: None,
            fs,
        }
    }

    /// The given moves, in order (for paths computed whole, such as
    /// [`super::longest::longest_paths`]).
    pub fn from_moves(moves: Vec<Move>) -> Moves {
        Moves::new(
            moves.into_iter().map(Step::One).collect(),
            FrameStewart::new(),
        )
    }

    /// No move at all.
    pub fn empty() -> Moves {
        Moves::new(Vec::new(), FrameStewart::new())
    }

    /// Writes the next moves into `out`, as many as fit or remain; gives how many (0: the
    /// sequence is over). The same moves as [`Iterator::next`], but classic transfers are
    /// copied in blocks ([`BinaryMoves::fill`]): the fast way to stream long solutions.
    pub fn fill(&mut self, out: &mut [Move]) -> usize {
        let mut i = 0;
        while i < out.len() {
            if let Some(c) = &mut self.classic {
                i += c.fill(&mut out[i..]);
                if i == out.len() {
                    break;
                }
                // It stopped short: that transfer is over.
                self.classic = None;
            }
            match self.next() {
                Some(mv) => out[i] = mv,
                None => break,
            }
            i += 1;
        }
        i
    }
}

impl Iterator for Moves {
    type Item = Move;

    /// The hot path, a move of a classic transfer, is small enough to inline into the
    /// caller's loop; the rest (a new step) is a call.
    #[inline]
    fn next(&mut self) -> Option<Move> {
        if let Some(c) = &mut self.classic
            && let Some(mv) = c.next()
        {
            return Some(mv);
        }
        self.next_step()
    }
}

impl Moves {
    #[inline(never)]
    fn next_step(&mut self) -> Option<Move> {
        if !self.settle() {
            return None;
        }
        match &mut self.classic {
            Some(c) => c.next(),
            None => match self.stack.pop() {
                Some(Step::One(mv)) => Some(mv),
                _ => unreachable!("settle leaves a single move on top"),
            },
        }
    }

    /// Expands steps until the next move is ready: in an unfinished classic transfer
    /// (`self.classic`), or a [`Step::One`] on top of the stack. False when none is left.
    fn settle(&mut self) -> bool {
        loop {
            if let Some(c) = &self.classic {
                if !c.is_over() {
                    return true;
                }
                self.classic = None;
            }
            match self.stack.pop() {
                None => return false,
                Some(Step::One(mv)) => {
                    self.stack.push(Step::One(mv));
                    return true;
                }
                Some(Step::Classic {
                    discs,
                    from,
                    to,
                    via,
                }) => {
                    self.classic = Some(BinaryMoves::new(
                        discs as usize,
                        Peg(from),
                        Peg(to),
                        Peg(via),
                    ));
                }
                Some(Step::Tower {
                    discs,
                    from,
                    to,
                    aux,
                }) => self.expand_tower(discs, from, to, aux),
                Some(Step::Longest {
                    discs,
                    from,
                    to,
                    via,
                }) => {
                    if discs == 0 {
                        continue;
                    }
                    let sub = Step::Longest {
                        discs: discs - 1,
                        from,
                        to,
                        via,
                    };
                    // L(n-1, f->t), f->v, L(n-1, t->f), v->t, L(n-1, f->t); pushed backwards.
                    self.stack.push(sub.clone());
                    self.stack.push(Step::One(Move::new(via, to)));
                    self.stack.push(Step::Longest {
                        discs: discs - 1,
                        from: to,
                        to: from,
                        via,
                    });
                    self.stack.push(Step::One(Move::new(from, via)));
                    self.stack.push(sub);
                }
            }
        }
    }

    /// Like [`Moves::fill`], but where the next moves are a whole classic transfer of the
    /// `discs` smallest discs (`1 <= discs < 64`) of a classic transfer, skips them and
    /// gives the transfer instead ([`Run::Tower`]), for a caller that keeps such transfers
    /// ready-made (as text: [`super::text::write_moves`]). Moves are written into `out` up
    /// to such a transfer, so that a run of moves never contains one; `Run::Moves(0)`: the
    /// sequence is over.
    pub(crate) fn fill_run(&mut self, out: &mut [Move], discs: usize) -> Run {
        let mut i = 0;
        while i < out.len() && self.settle() {
            match &mut self.classic {
                Some(c) => {
                    if i == 0
                        && let Some((from, to, via)) = c.take_tower(discs)
                    {
                        return Run::Tower { from, to, via };
                    }
                    if i > 0 && c.tower_next(discs) {
                        // The next call gives the transfer.
                        break;
                    }
                    let room = c.moves_to_tower(discs).min((out.len() - i) as u64) as usize;
                    i += c.fill(&mut out[i..i + room]);
                }
                None => match self.stack.pop() {
                    Some(Step::One(mv)) => {
                        out[i] = mv;
                        i += 1;
                    }
                    _ => unreachable!("settle leaves a single move on top"),
                },
            }
        }
        Run::Moves(i)
    }

    fn expand_tower(&mut self, discs: u32, from: u8, to: u8, aux: Vec<u8>) {
        match (discs, aux.len()) {
            (0, _) => {}
            (1, _) => self.stack.push(Step::One(Move::new(from, to))),
            (_, 0) => unreachable!("a tower of several discs needs an auxiliary peg"),
            (_, 1) => self.stack.push(Step::Classic {
                discs,
                from,
                to,
                via: aux[0],
            }),
            _ => {
                let k = aux.len() + 2;
                let l = self.fs.split(discs as usize, k) as u32;
                let park = aux[0];
                let rest = &aux[1..];
                let with = |extra: u8| {
                    let mut v = rest.to_vec();
                    v.push(extra);
                    v
                };
                // Park the l smallest on `park` with every peg, move the others with one peg
                // fewer, then bring the l smallest back: pushed backwards.
                self.stack.push(Step::Tower {
                    discs: l,
                    from: park,
                    to,
                    aux: with(from),
                });
                self.stack.push(Step::Tower {
                    discs: discs - l,
                    from,
                    to,
                    aux: rest.to_vec(),
                });
                self.stack.push(Step::Tower {
                    discs: l,
                    from,
                    to: park,
                    aux: with(to),
                });
            }
        }
    }
}
