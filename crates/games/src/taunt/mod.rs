//! Taunt as HackerEarth's Battle of Bots 9 plays it, on a 10x4 grid.
//!
//! # Rules
//! Each player has nine pieces; player 1 (orange) starts at the top and moves first, player
//! 2 (green) at the bottom. A cell is written `PTD`: player (1, 2), type (1, 2, 3) and
//! direction (0 up, 1 down); `000` is empty. Player 1 moves when the number of moves played
//! is even. A piece may not end on a cell holding a piece of its own side, except its own
//! cell; an enemy piece on the destination is captured.
//! * **Type 1** steps to an orthogonally adjacent cell.
//! * **Type 2** steps to a horizontally adjacent cell, or goes two rows forward.
//! * **Type 3** goes two rows forward and two columns sideways (either side).
//!
//! A two-row move passes a middle cell (straight ahead for type 2, diagonally ahead for
//! type 3): an enemy piece there is captured too, an own piece there stays. The game ends
//! when 100 moves have been played or the player to move has no move; more pieces win,
//! equal is a draw.
//!
//! # Choices made, and why
//! Evidence: the statement's sample, in which player 1's legal moves are exactly
//! `(1,3)->(0,3) (1,3)->(1,2) (2,2)->(1,2) (2,2)->(2,1) (2,2)->(3,2) (2,3)->(0,1)
//! (7,0)->(7,1) (7,0)->(9,0) (8,2)->(8,2) (8,2)->(8,0)` and `8 2 -> 8 0` gives the published
//! next state byte for byte (both are tests), plus issue 6's reading of two independent
//! top-ranked public bots.
//! * **Reflection at the edges**: a destination past the edge reflects back (row 10 -> 8,
//!   row -1 -> 1, column 4 -> 2, column -1 -> 1); the sample's `8 2 -> 8 0` is a type 3
//!   piece going down from row 8 to "row 10, column 0", reflected to row 8. A move can
//!   reflect onto its own cell (the statement's "move to its own position"; the sample's
//!   `(8,2)->(8,2)`).
//! * **The middle cell must be on the grid** (issue 6's reading). For type 3 a middle
//!   cell off the grid (column -1 or 4) always reflects to the same destination as the
//!   move to the other side (`(2,3)->(0,1)` both ways in the sample), so the move list is
//!   the same either way; the rule only removes moves of a piece standing on its far row
//!   while still heading there, which no game from the start reaches.
//! * **Captures**: the destination's enemy piece and the middle's ("captures opponent's
//!   piece by jumping on or over"); the sample's `8 2 -> 8 0` takes the enemy on `9 1`.
//! * **Turning round**: types 2 and 3 flip direction when the middle cell or the
//!   destination lies on the far row of their current direction (row 9 going down, row 0
//!   going up): "touches the last row"; the sample's piece becomes `130` after passing row
//!   9. Type 1's digit never changes. The rule applies to a sideways step too, which only
//!   matters for positions no game reaches (a type 2 on its far row still heading there).
//! * **The end**: the counter reaching 100, or the player to move having no move (the
//!   judge only asks that player). [`EndRule::EitherStuck`] ends the game when either
//!   player has no move instead, the statement's literal words; the one-line text marks it
//!   with ` either`.
//! * The HackerEarth input's player id must agree with the counter's parity, else the input
//!   is rejected (it is redundant, so a mismatch means a broken state).
//! * The one-line text form is the ten rows of cells separated by `,` and `/`, a space and
//!   the move counter; moves are written `(8,2)->(8,0)`.

mod board;
mod endgame;
mod eval;
mod fitted;
pub mod hackerearth;
mod moves;
mod rules;
#[cfg(test)]
mod tests;

pub use board::{COLS, Direction, EndRule, MOVE_LIMIT, Piece, ROWS, Taunt};
pub use endgame::{Choice, SWINDLE_MOVES_LEFT, Swindle, material, model_plies, model_replies};
pub use eval::{
    CapturesFirst, FEATURES, Fitted, Material, NULL_MOVE_END_MARGIN, NULL_MOVE_MIN_PIECES,
    SIDE_FEATURES, STANDOFF_FREE_MOVES, STANDOFF_WEIGHT, TauntEval, features, standoff,
};
pub use moves::Move;

/// The model stage (`ply bot taunt --model true`) runs only when the main search's score is
/// within this of level (a piece is about 120): the draws it is for are level games.
pub const MODEL_LEVEL: i32 = 90;

impl crate::Heuristics for Taunt {
    type Searched = Self;
    type Eval = TauntEval;
    type Ordering = CapturesFirst;

    /// The last moves' exact search that prefers drawn moves setting traps for a shallow
    /// material-only opponent ([`Swindle`]).
    fn endgame() -> Option<Box<dyn crate::Endgame<Self>>> {
        Some(Box::new(endgame::Timed::default()))
    }

    /// Off unless asked for (`ply bot --endgame true`, `endgame=1`): its gain is not shown
    /// (docs/strength.md, "Session 42").
    fn endgame_by_default() -> bool {
        false
    }

    /// The top-10 entry's replies as its source plays them ([`model_replies`]).
    fn opponent_model(state: &Self) -> Option<Vec<Self>> {
        Some(model_replies(state))
    }

    /// Level games (the main search's score under [`MODEL_LEVEL`]) before the last moves
    /// (where the exact search and [`Swindle`] belong) and not yet decided.
    fn model_wanted(state: &Self, score: ply_core::Score, depth: u32) -> bool {
        MOVE_LIMIT.saturating_sub(state.moves_played()) > SWINDLE_MOVES_LEFT
            && score.0.abs() < MODEL_LEVEL
            && depth >= 2
    }

    fn evaluator(choice: crate::EvalChoice) -> TauntEval {
        match choice {
            crate::EvalChoice::Best | crate::EvalChoice::Tempo => TauntEval::Fitted,
            crate::EvalChoice::Classic => TauntEval::Classic,
            crate::EvalChoice::Standoff => TauntEval::Standoff,
        }
    }
}
