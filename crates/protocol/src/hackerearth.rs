//! HackerEarth's per-move exchange: the state in, one move out, judged against the rules.

use ply_games::HackerEarth;

/// Why a bot's answer is not a move the referee can play.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JudgeMoveError {
    /// The bot printed nothing but white space.
    #[error("the bot printed no move")]
    Empty,
    /// The first tokens are not a move in the game's notation.
    #[error("cannot read a move from {first_line:?}: {reason}")]
    Unreadable {
        /// The first non-blank line of the answer, cut to 80 characters.
        first_line: String,
        /// What the format expects.
        reason: String,
    },
    /// A well-formed move that the rules refuse here.
    #[error("illegal move {mv}: {reason}")]
    Illegal {
        /// The move, in the game's notation.
        mv: String,
        /// Why the rules refuse it.
        reason: String,
    },
}

/// The text the bot reads on stdin in `state`: the game's contest input, byte for byte.
///
/// ```
/// use ply_core::Game;
/// use ply_games::tictactoe::TicTacToe;
/// assert_eq!(ply_protocol::hackerearth::request(&TicTacToe::start()), "0 0 0\n0 0 0\n0 0 0\n1\n");
/// ```
pub fn request<G: HackerEarth>(state: &G) -> String {
    state.write_input()
}

/// Judges a bot's whole stdout in `state`: the move it names, if that move is legal. Only the
/// tokens the format needs count; whatever follows them (debug lines) is ignored, as
/// HackerEarth's judge does.
///
/// # Errors
/// A [`JudgeMoveError`] saying whether the answer was empty, unreadable or illegal.
///
/// ```
/// use ply_core::Game;
/// use ply_games::tictactoe::TicTacToe;
/// use ply_protocol::hackerearth::{judge, JudgeMoveError};
/// let start = TicTacToe::start();
/// assert_eq!(judge(&start, "1 1\ndebug: thinking\n").unwrap().to_string(), "1 1");
/// assert_eq!(judge(&start, "  \n"), Err(JudgeMoveError::Empty));
/// ```
pub fn judge<G: HackerEarth>(state: &G, output: &str) -> Result<G::Move, JudgeMoveError> {
    let Some(first_line) = output.lines().find(|l| !l.trim().is_empty()) else {
        return Err(JudgeMoveError::Empty);
    };
    let mv = state
        .read_move(output)
        .map_err(|e| JudgeMoveError::Unreadable {
            first_line: first_line.chars().take(80).collect(),
            reason: e.reason,
        })?;
    state
        .check(mv)
        .map(|()| mv)
        .map_err(|e| JudgeMoveError::Illegal {
            mv: e.mv.to_string(),
            reason: e.reason,
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_core::Game;
    use ply_games::tictactoe::TicTacToe;

    #[test]
    fn a_taken_cell_is_illegal_with_the_game_s_reason() {
        let state: TicTacToe = "x../.../...".parse().unwrap();
        let err = judge(&state, "0 0\n").unwrap_err();
        let JudgeMoveError::Illegal { mv, reason } = err else {
            panic!("{err:?}")
        };
        assert_eq!(mv, "0 0");
        assert!(!reason.is_empty());
    }

    #[test]
    fn garbage_is_unreadable_and_quotes_the_line() {
        let err = judge(&TicTacToe::start(), "\nhello world\n").unwrap_err();
        assert!(
            matches!(&err, JudgeMoveError::Unreadable { first_line, .. } if first_line == "hello world"),
            "{err:?}"
        );
    }

    #[test]
    fn request_round_trips_through_the_game_s_reader() {
        let state: TicTacToe = "x../.o./...".parse().unwrap();
        assert_eq!(TicTacToe::read_input(&request(&state)).unwrap(), state);
    }
}
