//! The [`Game`] implementation.

use ply_core::{Game, GameInfo, Outcome, ParseMoveError, Seat};

use super::board::{Mark, TicTacToe};
use super::moves::Cell;

static INFO: GameInfo = GameInfo {
    name: "tictactoe",
    title: "Tic-tac-toe",
    seats: 2,
    max_plies: 9,
    summary: "three in a row on 3x3; X (player 1) moves first",
};

impl Game for TicTacToe {
    type Move = Cell;

    fn info() -> &'static GameInfo {
        &INFO
    }

    fn start() -> Self {
        TicTacToe::EMPTY
    }

    fn to_move(&self) -> Seat {
        self.mark_to_move().seat()
    }

    fn legal_moves(&self, moves: &mut Vec<Cell>) {
        moves.clear();
        if self.has_line(Mark::X) || self.has_line(Mark::O) {
            return;
        }
        let mut empty = self.empty_mask();
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            moves.push(Cell::from_index(i).expect("a grid bit"));
            empty &= empty - 1;
        }
    }

    fn play_unchecked(&mut self, mv: Cell) {
        match self.mark_to_move() {
            Mark::X => self.x |= mv.bit(),
            Mark::O => self.o |= mv.bit(),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_line(Mark::X) {
            Some(Outcome::Win(Seat::FIRST))
        } else if self.has_line(Mark::O) {
            Some(Outcome::Win(Seat::SECOND))
        } else if self.empty_mask() == 0 {
            Some(Outcome::Draw)
        } else {
            None
        }
    }

    fn parse_move(&self, text: &str) -> Result<Cell, ParseMoveError> {
        text.parse()
    }

    fn key(&self) -> u64 {
        (u64::from(self.x) << 9) | u64::from(self.o)
    }

    fn diagram(&self) -> String {
        self.picture()
    }

    fn explain_illegal(&self, mv: Cell) -> String {
        match self.mark(mv) {
            Some(m) => format!(
                "cell {} (row {}, column {}) already holds {m:?}",
                mv.index() + 1,
                mv.row(),
                mv.col()
            ),
            None => "not a legal move in this position".to_string(),
        }
    }
}
