//! The [`Game`] implementation.

use ply_core::{Game, GameInfo, Outcome, ParseMoveError, Seat};

use super::board::Draughts;
use super::moves::Move;

static INFO: GameInfo = GameInfo {
    name: "draughts",
    title: "Draughts (HackerEarth)",
    seats: 2,
    // Every move takes a man at least one row forward: 24 men, 7 rows each.
    max_plies: 168,
    summary: "HackerEarth Battle of Bots 6 Draughts: men only, forward only, jump chains to the end",
};

impl Game for Draughts {
    type Move = Move;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn start() -> Self {
        Draughts::initial()
    }

    fn to_move(&self) -> Seat {
        self.turn
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.generate(moves);
    }

    fn play_unchecked(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_move(self.turn) {
            return None;
        }
        Some(Outcome::by_majority([
            self.men[0].count_ones(),
            self.men[1].count_ones(),
        ]))
    }

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        text.parse()
    }

    fn key(&self) -> u64 {
        let mix = |x: u64| {
            let x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            x ^ (x >> 31)
        };
        mix(self.men[0])
            ^ mix(self.men[1] ^ 0x9e37_79b9_7f4a_7c15).rotate_left(23)
            ^ u64::from(self.turn.number())
    }

    fn diagram(&self) -> String {
        self.picture()
    }

    fn explain_illegal(&self, mv: Move) -> String {
        explain(self, mv)
    }
}

/// Why `mv` is refused, naming the first step that breaks a rule.
fn explain(state: &Draughts, mv: Move) -> String {
    let me = state.turn;
    let cell = |c: usize| format!("{} {}", c / 8, c % 8);
    let from = mv.from();
    match state.at(from / 8, from % 8) {
        None => return format!("cell {} is empty", cell(from)),
        Some(s) if s != me => return format!("the man on {} is not yours", cell(from)),
        _ => {}
    }
    let forward: isize = if me == Seat::FIRST { 1 } else { -1 };
    let mut board = *state;
    let mut at = from;
    let landings = mv.landings();
    for (k, &land) in landings.iter().enumerate() {
        let land = land as usize;
        let dr = (land / 8) as isize - (at / 8) as isize;
        let dc = (land % 8) as isize - (at % 8) as isize;
        if board.at(land / 8, land % 8).is_some() {
            return format!("cell {} is not empty", cell(land));
        }
        if dr == forward && dc.abs() == 1 {
            if k > 0 {
                return format!(
                    "{} is a plain step, but after a jump only further jumps are allowed",
                    cell(land)
                );
            }
            if landings.len() > 1 {
                return "a plain step ends the move; nothing can follow it".into();
            }
            return "not a legal move in this position".into();
        }
        if dr != 2 * forward || dc.abs() != 2 {
            return format!(
                "{} is not one diagonal step or jump forward from {}",
                cell(land),
                cell(at)
            );
        }
        let over = (at + land) / 2;
        if board.at(over / 8, over % 8) != Some(me.next(2)) {
            return format!(
                "the jump to {} does not go over a man of the other player",
                cell(land)
            );
        }
        board.men[1 - me.index()] &= !(1 << over);
        board.men[me.index()] = (board.men[me.index()] & !(1 << at)) | (1 << land);
        at = land;
    }
    format!(
        "after landing on {} another jump is possible, and a capture must go on while it can",
        cell(at)
    )
}
