//! Sequential perfect-information games.

use std::fmt::{Debug, Display};
use std::hash::Hash;
use std::str::FromStr;

use crate::{Outcome, Seat};

/// The static facts of a game, apart from any state (OpenSpiel's `GameType`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The name used on the command line, lowercase (`tictactoe`).
    pub name: &'static str,
    /// The name shown to people (`Tic-tac-toe`).
    pub title: &'static str,
    /// How many seats play.
    pub seats: usize,
    /// An upper bound on the number of plies in any game, passes included.
    pub max_plies: u32,
    /// One line on what the game is and where its rules come from.
    pub summary: &'static str,
}

/// A move that is not legal in the position it was played in; gives the move back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {mv}: {reason}")]
pub struct IllegalMoveError<M: Display + Debug> {
    /// The move that was refused.
    pub mv: M,
    /// Why, in words a player understands (`cell 0 0 is taken`).
    pub reason: String,
}

/// Text that is not a move of this game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read {text:?} as a move: {reason}")]
pub struct ParseMoveError {
    /// The text as given.
    pub text: String,
    /// What was wrong and what was expected.
    pub reason: String,
}

/// Text that is not a position of this game; says where and what was expected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {reason}")]
pub struct ParseStateError {
    /// 1-based line of the first problem.
    pub line: usize,
    /// 1-based column of the first problem.
    pub column: usize,
    /// What was wrong and what was expected.
    pub reason: String,
}

impl ParseStateError {
    /// An error at `line`, `column` (both 1-based).
    pub fn new(line: usize, column: usize, reason: impl Into<String>) -> Self {
        ParseStateError {
            line,
            column,
            reason: reason.into(),
        }
    }
}

/// A sequential game of perfect information with any number of seats, implemented by the
/// state type itself.
///
/// Contracts that the shared conformance suite (`ply_testkit::conformance!`) checks for every
/// game:
/// * [`Game::legal_moves`] is sorted ascending, without duplicates, and empty exactly when
///   [`Game::outcome`] is `Some`;
/// * [`Game::play`] accepts exactly the moves of [`Game::legal_moves`];
/// * `Display` and `FromStr` round-trip every reachable position (one line, no newline);
/// * every game ends within [`GameInfo::max_plies`].
///
/// A game in which a seat may have to pass models the pass as a move, so that "no legal moves"
/// always means "the game is over".
pub trait Game:
    Clone + Eq + Hash + Debug + Display + FromStr<Err = ParseStateError> + Send + Sync + 'static
{
    /// One move. `Ord` fixes the order of [`Game::legal_moves`].
    type Move: Copy + Ord + Hash + Debug + Display + Send + Sync + 'static;

    /// The static facts of the game.
    fn info() -> &'static GameInfo;

    /// The usual starting position.
    fn start() -> Self;

    /// The seat to move. Once the game is over, the seat that would move next if play went on:
    /// searches score a finished game from that seat's point of view.
    fn to_move(&self) -> Seat;

    /// Appends the legal moves, sorted ascending, to `moves` (which it clears first).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays `mv`, which must be legal.
    ///
    /// # Panics
    /// May panic, or leave a nonsensical state, if `mv` is not in [`Game::legal_moves`].
    fn play_unchecked(&mut self, mv: Self::Move);

    /// The result, once the game is over; `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// Reads a move in this game's usual notation, in this position's context.
    ///
    /// # Errors
    /// [`ParseMoveError`] when `text` is not a move's notation (it may still be illegal).
    fn parse_move(&self, text: &str) -> Result<Self::Move, ParseMoveError>;

    /// Plays `mv` if it is legal.
    ///
    /// # Errors
    /// Gives the move back in an [`IllegalMoveError`] when it is not legal here; the state is
    /// then unchanged.
    fn play(&mut self, mv: Self::Move) -> Result<(), IllegalMoveError<Self::Move>> {
        self.check(mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Whether `mv` is legal here, with the reason when it is not: the one place legality is
    /// judged ([`Game::play`], the referee's judge of a bot's answer and its check of a
    /// built-in's all call it).
    ///
    /// # Errors
    /// Gives the move back in an [`IllegalMoveError`] when it is not legal here (`the game is
    /// over` when nothing is).
    fn check(&self, mv: Self::Move) -> Result<(), IllegalMoveError<Self::Move>> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.binary_search(&mv).is_ok() {
            return Ok(());
        }
        let reason = if moves.is_empty() {
            "the game is over".to_string()
        } else {
            self.explain_illegal(mv)
        };
        Err(IllegalMoveError { mv, reason })
    }

    /// Why `mv`, which is not legal here, is refused, in words a player understands
    /// (`cell 5 already holds X`). Games override the generic answer.
    fn explain_illegal(&self, mv: Self::Move) -> String {
        let _ = mv;
        "not a legal move in this position".to_string()
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.outcome().is_some()
    }

    /// A 64-bit key for transposition tables. The default hashes the whole state; games with
    /// Zobrist keys override it.
    fn key(&self) -> u64 {
        use std::hash::Hasher;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }

    /// A multi-line picture of the position for people (the default is the one-line text).
    fn diagram(&self) -> String {
        self.to_string()
    }
}
