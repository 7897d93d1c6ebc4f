//! The [`Game`] implementation, for both board sizes.

use ply_core::{Game, GameInfo, Outcome, ParseMoveError, Seat};

use super::board::{Bits, Reversi, Size, Tracked};
use super::moves::{Place, flips, legal};

pub(crate) static OTHELLO_INFO: GameInfo = GameInfo {
    name: "othello",
    title: "Othello",
    seats: 2,
    // 60 placements, and at most one pass before each of them.
    max_plies: 120,
    summary: "standard 8x8 Othello; black (player 1) moves first, a pass is a move",
};

pub(crate) static REVERSI_INFO: GameInfo = GameInfo {
    name: "reversi",
    title: "Reversi 10x10 (HackerEarth)",
    seats: 2,
    // 96 placements, and at most one pass before each of them.
    max_plies: 192,
    summary: "HackerEarth Battle of Bots #5 Reversi on 10x10; player 1 moves first",
};

impl<S: Size> Reversi<S> {
    /// The cells the side to move may take.
    pub fn placements(&self) -> S::Bits {
        self.tracked
            .placements()
            .unwrap_or_else(|| legal::<S>(self.own, self.opp))
    }

    /// Whether the side to move must pass: it has no placement, the other side has one.
    pub fn must_pass(&self) -> bool {
        self.placements().is_empty() && !legal::<S>(self.opp, self.own).is_empty()
    }
}

impl<S: Size> Game for Reversi<S> {
    type Move = Place;

    fn info() -> &'static GameInfo {
        S::info()
    }

    fn start() -> Self {
        Reversi::initial()
    }

    fn to_move(&self) -> Seat {
        self.turn
    }

    fn legal_moves(&self, moves: &mut Vec<Place>) {
        moves.clear();
        let mut m = self.placements();
        if m.is_empty() {
            if !legal::<S>(self.opp, self.own).is_empty() {
                moves.push(Place::PASS);
            }
            return;
        }
        while !m.is_empty() {
            let i = m.lowest() as usize;
            m &= !S::Bits::cell(i);
            moves.push(Place::from_index(i, S::N));
        }
    }

    fn play_unchecked(&mut self, mv: Place) {
        // Field by field: the tracked data is most of the state's bytes and updates in place.
        if !mv.is_pass() {
            let i = mv.index(S::N);
            let f = flips::<S>(self.own, self.opp, i);
            self.tracked.place(self.turn, i, f);
            self.own |= f | S::Bits::cell(i);
            self.opp &= !f;
        }
        std::mem::swap(&mut self.own, &mut self.opp);
        self.turn = self.turn.next(2);
        self.tracked.turned(self.own, self.opp);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.placements().is_empty() || !legal::<S>(self.opp, self.own).is_empty() {
            return None;
        }
        let mut counts = [0; 2];
        counts[self.turn.index()] = self.own.count();
        counts[self.turn.next(2).index()] = self.opp.count();
        Some(Outcome::by_majority(counts))
    }

    fn parse_move(&self, text: &str) -> Result<Place, ParseMoveError> {
        let mv: Place = text.parse()?;
        match mv.cell() {
            Some((r, c)) if r >= S::N || c >= S::N => Err(ParseMoveError {
                text: text.to_string(),
                reason: format!("row and column are 0..{} on this board", S::N - 1),
            }),
            _ => Ok(mv),
        }
    }

    fn key(&self) -> u64 {
        let mix = |x: u64| {
            let x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        };
        let (a, b) = (self.own.to_u128(), self.opp.to_u128());
        let h = mix(a as u64)
            ^ mix((a >> 64) as u64 ^ 0x9e37_79b9_7f4a_7c15).rotate_left(7)
            ^ mix(b as u64 ^ 0x3c6e_f372_fe94_f82b).rotate_left(19)
            ^ mix((b >> 64) as u64 ^ 0xa54f_f53a_5f1d_36f1).rotate_left(37);
        h ^ u64::from(self.turn.number())
    }

    fn diagram(&self) -> String {
        self.picture()
    }

    fn explain_illegal(&self, mv: Place) -> String {
        match mv.cell() {
            None => "a pass is only allowed when you have no placement".to_string(),
            Some((r, c)) if r >= S::N || c >= S::N => {
                format!("cell {r} {c} is off the {0}x{0} board", S::N)
            }
            Some((r, c)) => match self.at(r, c) {
                Some(d) => format!("cell {r} {c} already holds a {d:?} disc"),
                None => format!("a disc on {r} {c} turns over no disc of the other side"),
            },
        }
    }
}
