//! The [`Game`] implementation.

use ply_core::{Game, GameInfo, Outcome, ParseMoveError, Seat};

use super::board::{EndRule, MOVE_LIMIT, Taunt};
use super::moves::Move;

static INFO: GameInfo = GameInfo {
    name: "taunt",
    title: "Taunt (HackerEarth)",
    seats: 2,
    max_plies: MOVE_LIMIT,
    summary: "HackerEarth Battle of Bots 9 Taunt on 10x4: three piece types, 100 moves, most pieces wins",
};

impl Game for Taunt {
    type Move = Move;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn start() -> Self {
        Taunt::initial()
    }

    /// Player 1 when the move counter is even.
    fn to_move(&self) -> Seat {
        if self.moves.is_multiple_of(2) {
            Seat::FIRST
        } else {
            Seat::SECOND
        }
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.moves >= MOVE_LIMIT {
            return;
        }
        self.generate(self.to_move(), moves);
        if self.rule == EndRule::EitherStuck && !self.has_move(self.to_move().next(2)) {
            moves.clear();
        }
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        Some(Outcome::by_majority([
            self.count(Seat::FIRST),
            self.count(Seat::SECOND),
        ]))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        text.parse()
    }

    fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for p in &self.cells {
            let b = p.map_or(0u64, |p| {
                1 + p.seat.index() as u64 * 6 + (p.kind as u64 - 1) * 2 + p.dir as u64
            });
            h = (h ^ b).wrapping_mul(0x0000_0100_0000_01b3);
        }
        h = (h ^ u64::from(self.moves)).wrapping_mul(0x0000_0100_0000_01b3);
        let h = (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        (h ^ (h >> 32)) ^ u64::from(self.rule == EndRule::EitherStuck)
    }

    fn diagram(&self) -> String {
        self.picture()
    }

    fn explain_illegal(&self, mv: Move) -> String {
        let ((r1, c1), (r2, c2)) = (mv.from(), mv.to());
        let me = self.to_move();
        match self.at(r1, c1) {
            None => return format!("cell {r1} {c1} is empty"),
            Some(p) if p.seat != me => return format!("the piece on {r1} {c1} is not yours"),
            _ => {}
        }
        if self.at(r2, c2).is_some_and(|p| p.seat == me) && (r1, c1) != (r2, c2) {
            return format!("cell {r2} {c2} holds one of your own pieces");
        }
        let p = self.at(r1, c1).expect("checked above");
        let how = match p.kind {
            1 => "a type 1 piece moves one cell up, down, left or right".to_string(),
            2 => format!(
                "a type 2 piece moves one cell sideways or two rows {} (reflected at the edge)",
                if p.dir.step() > 0 { "down" } else { "up" }
            ),
            _ => format!(
                "a type 3 piece moves two rows {} and two columns sideways (reflected at the edge), over a middle cell on the grid",
                if p.dir.step() > 0 { "down" } else { "up" }
            ),
        };
        format!("{r2} {c2} is not a destination of the piece on {r1} {c1}: {how}")
    }
}

impl Taunt {
    /// Whether the game is over: the move counter reached 100, or the player to move (under
    /// [`EndRule::EitherStuck`], either player) has no move.
    pub fn is_over(&self) -> bool {
        self.moves >= MOVE_LIMIT
            || !self.has_move(self.to_move())
            || (self.rule == EndRule::EitherStuck && !self.has_move(self.to_move().next(2)))
    }
}
