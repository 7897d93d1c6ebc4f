//! The games ply plays, one folder per game with the same files (OpenSpiel's layout):
//!
//! * `mod.rs`: the rules in words, every rule choice made and why;
//! * `board.rs`: the state and its text forms; `moves.rs`: the move type and its notation;
//! * `rules.rs`: the [`Game`] implementation, nothing else;
//! * `eval.rs`: heuristics for search (rules know nothing of them);
//! * `hackerearth.rs` (contest games): the exact stdin/stdout format of the contest;
//! * `tests.rs`: facts the game must satisfy.
//!
//! [`GameKind`] names every game for the command line, and [`with_game!`] turns a kind into
//! its concrete type, so that generic code (perft, search, the referee) runs on any game.
//! A game never imports another game.

pub mod draughts;
pub mod reversi;
pub mod solve;
pub mod taunt;
pub mod text;
pub mod tictactoe;

use std::fmt;
use std::marker::PhantomData;
use std::str::FromStr;

use ply_core::{
    Budget, Evaluator, Fault, Game, GameInfo, MoveOrdering, ParseMoveError, ParseStateError, Player,
};

/// Every game ply knows, selected by name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Noughts and crosses on 3x3.
    TicTacToe,
    /// HackerEarth's 10x10 Reversi.
    Reversi,
    /// Standard 8x8 Othello.
    Othello,
    /// HackerEarth's Draughts: men only, forward only.
    Draughts,
    /// HackerEarth's Taunt on 10x4.
    Taunt,
}

impl GameKind {
    /// Every game, in the order `ply games` lists them.
    pub const ALL: &'static [GameKind] = &[
        GameKind::TicTacToe,
        GameKind::Reversi,
        GameKind::Othello,
        GameKind::Draughts,
        GameKind::Taunt,
    ];

    /// The game's static facts.
    pub fn info(self) -> &'static GameInfo {
        with_game!(self, G => G::info())
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        self.info().name
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is no game of ply's.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game {name:?}; the games are: {known}")]
pub struct UnknownGameError {
    /// The name given.
    pub name: String,
    /// The known names, comma separated.
    pub known: String,
}

impl FromStr for GameKind {
    type Err = UnknownGameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let wanted = s.trim().to_ascii_lowercase().replace(['-', '_', ' '], "");
        GameKind::ALL
            .iter()
            .copied()
            .find(|k| k.name() == wanted)
            .ok_or_else(|| UnknownGameError {
                name: s.to_string(),
                known: GameKind::ALL
                    .iter()
                    .map(|k| k.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }
}

/// Runs `$body` with `$G` bound to the concrete game type of `$kind`.
///
/// ```
/// use ply_core::Game;
/// use ply_games::{with_game, GameKind};
/// let n = with_game!(GameKind::TicTacToe, G => G::info().seats);
/// assert_eq!(n, 2);
/// ```
#[macro_export]
macro_rules! with_game {
    ($kind:expr, $G:ident => $body:expr) => {
        match $kind {
            $crate::GameKind::TicTacToe => {
                type $G = $crate::tictactoe::TicTacToe;
                $body
            }
            $crate::GameKind::Reversi => {
                type $G = $crate::reversi::Reversi10;
                $body
            }
            $crate::GameKind::Othello => {
                type $G = $crate::reversi::Othello;
                $body
            }
            $crate::GameKind::Draughts => {
                type $G = $crate::draughts::Draughts;
                $body
            }
            $crate::GameKind::Taunt => {
                type $G = $crate::taunt::Taunt;
                $body
            }
        }
    };
}

/// The heuristics a game offers to searches: its best evaluator and move ordering, and the
/// state its searches play on. Rules never use them; the command line and the referee pick
/// them for `alphabeta` players.
pub trait Heuristics: Game {
    /// The state alpha-beta searches play on: the game itself, or the same game carrying
    /// data its evaluator reads at every leaf and its moves keep up to date (8x8 Othello's
    /// [`reversi::IndexedOthello`], 10x10's [`reversi::IndexedReversi10`]), which the plain
    /// game does not carry so that what never evaluates (perft, MCTS) does not pay for it.
    /// Same moves, same rules; a search converts the position it is given ([`Searching`]).
    type Searched: Game<Move = Self::Move> + From<Self>;
    /// The evaluator strong players use, on the game and on its searched state alike.
    type Eval: Evaluator<Self> + Evaluator<Self::Searched> + Default + Clone + 'static;
    /// The move ordering strong players use.
    type Ordering: MoveOrdering<Self::Searched> + Default + Clone + 'static;

    /// An exact solver for positions near the end, if the game has one (8x8 Othello).
    fn endgame() -> Option<Box<dyn Endgame<Self>>> {
        None
    }

    /// Whether players use [`Heuristics::endgame`] unless told (`endgame=` in a bot spec,
    /// `ply bot --endgame`): a solver that has not shown a gain stays off by default
    /// (Draughts', docs/strength.md).
    fn endgame_by_default() -> bool {
        true
    }

    /// For `ply bot --model true` (`ply_search::modelled::model_choice`): the positions after the
    /// replies the opponent is expected to pick from in `state` (the opponent to move), or
    /// `None` where the game has no model of its opponent (all but Taunt).
    fn opponent_model(state: &Self::Searched) -> Option<Vec<Self::Searched>> {
        let _ = state;
        None
    }

    /// Whether the model stage runs at the root `state`, whose main search scored `score`
    /// for the side to move at `depth` plies.
    fn model_wanted(state: &Self, score: ply_core::Score, depth: u32) -> bool {
        let _ = (state, score, depth);
        false
    }

    /// The game's committed opening book, if it has one (8x8 Othello's, made by `ply book
    /// build othello`): players told to (`book=1` in a bot spec, `ply bot --book true`, or
    /// by [`Heuristics::book_by_default`]) play its move where it holds the position.
    fn book() -> Option<&'static dyn OpeningBook<Self>> {
        None
    }

    /// Whether players use [`Heuristics::book`] unless told: a book stays off by default
    /// until it has shown a gain at the contest's time. 8x8 Othello's committed book
    /// (session 36's, rebuilt after session 35's lost 32-11-57) scored 70-12-60 in 142
    /// games against the same bot without it at 1 s a move, +24 Elo with a 95% interval of
    /// [-30, +81] (docs/strength.md): not shown, so no game's book is on by default.
    fn book_by_default() -> bool {
        false
    }

    /// Reads a book file of this game (`ply bot --book-file`).
    ///
    /// # Errors
    /// [`ReadOpeningBookError::NoBook`] for a game without books, or what is wrong with the
    /// file.
    fn read_book(bytes: &[u8]) -> Result<Box<dyn OpeningBook<Self>>, ReadOpeningBookError> {
        let _ = bytes;
        Err(ReadOpeningBookError::NoBook {
            game: Self::info().name,
        })
    }

    /// The evaluator `choice` names. Games whose best evaluator is the hand-written one
    /// (all but the two Reversi boards, Draughts and Taunt) give it for every choice.
    fn evaluator(choice: EvalChoice) -> Self::Eval {
        let _ = choice;
        Self::Eval::default()
    }
}

/// A player of a game's searched state ([`Heuristics::Searched`]) playing the game itself:
/// each position it is asked about is converted first (for 8x8 Othello, its pattern indices
/// computed once, then kept up to date by the search's moves).
pub struct Searching<S, P> {
    player: P,
    searched: PhantomData<fn() -> S>,
}

impl<S, P> Searching<S, P> {
    /// `player`, playing the game whose searched state is `S`.
    pub fn new(player: P) -> Self {
        Searching {
            player,
            searched: PhantomData,
        }
    }

    /// The player of the searched state (for its last report).
    pub fn inner(&self) -> &P {
        &self.player
    }
}

impl<G, S, P> Player<G> for Searching<S, P>
where
    G: Game,
    S: Game<Move = G::Move> + From<G>,
    P: Player<S>,
{
    fn name(&self) -> String {
        self.player.name()
    }

    fn choose(&mut self, state: &G, budget: Budget) -> Result<G::Move, Fault> {
        self.player.choose(&S::from(state.clone()), budget)
    }

    fn new_game(&mut self) {
        self.player.new_game();
    }
}

/// Which of a game's evaluators a built-in player searches with (`eval=` in a bot spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EvalChoice {
    /// The game's best evaluator ([`Heuristics::Eval`]'s default): for 8x8 Othello and 10x10
    /// Reversi the fitted pattern evaluation.
    #[default]
    Best,
    /// The hand-written evaluator, kept to compare against (both Reversi boards'
    /// [`reversi::Positional`], Draughts' and Taunt's `Material`); the same as `Best` in
    /// every other game.
    Classic,
    /// The best evaluator with a tempo for the side to move where one was measured (8x8
    /// Othello's [`reversi::OthelloEval::Tempo`]: it takes out the swing of search values
    /// with the depth's parity; not the default, its gain is not shown: docs/strength.md);
    /// the same as `Best` in every other game.
    Tempo,
    /// The best evaluator with a term for the standoff where one was tried (Taunt's
    /// [`taunt::TauntEval::Standoff`]: each side's shortage of safe moves, so the search
    /// steers to positions where the other side runs out of free moves; not the default, its
    /// gain is not shown: docs/strength.md); the same as `Best` in every other game.
    Standoff,
}

/// An opening book: the move to play in the positions it holds.
pub trait OpeningBook<G: Game>: Send + Sync {
    /// The book's move in `state`, if it holds the position and the game goes on there.
    fn book_move(&self, state: &G) -> Option<G::Move>;

    /// How many positions it holds.
    fn positions(&self) -> usize;

    /// Why the book's moves may not be the ones this build's evaluation would choose (it
    /// was made by another, say), if they may not; a player still plays it, and a front end
    /// warns.
    fn mismatch(&self) -> Option<String> {
        None
    }
}

/// Which opening book a player plays: the one choice `ply bot` (`--book`, `--book-file`),
/// the timed `builtin:alphabeta` (`book=`) and the web's computer player make, and
/// [`BookChoice::book_move`] the one lookup they share.
pub enum BookChoice<G: Game + 'static> {
    /// No book: every move is the player's own.
    Off,
    /// The game's committed book ([`Heuristics::book`]), where it has one.
    Committed,
    /// A book of the player's own, read by [`Heuristics::read_book`].
    Own(Box<dyn OpeningBook<G>>),
}

impl<G: Heuristics> BookChoice<G> {
    /// The book's move in `state`, if there is a book and it holds the position (and the
    /// game goes on there).
    ///
    /// ```
    /// use ply_core::Game;
    /// use ply_games::BookChoice;
    /// use ply_games::reversi::Othello;
    ///
    /// let start = Othello::start();
    /// assert!(BookChoice::<Othello>::Committed.book_move(&start).is_some());
    /// assert_eq!(BookChoice::<Othello>::Off.book_move(&start), None);
    /// ```
    pub fn book_move(&self, state: &G) -> Option<G::Move> {
        match self {
            BookChoice::Off => None,
            BookChoice::Committed => G::book()?.book_move(state),
            BookChoice::Own(book) => book.book_move(state),
        }
    }
}

/// A book file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadOpeningBookError {
    /// The game has no opening books.
    #[error("{game} has no opening book")]
    NoBook {
        /// The game's name.
        game: &'static str,
    },
    /// The file does not read as one of the game's books.
    #[error(transparent)]
    Othello(#[from] reversi::book::ReadBookError),
}

/// A solver of a game's last moves: perfect play where it can prove it in time.
pub trait Endgame<G: Game>: Send {
    /// A move proved best (or proved to win or draw) in `state`, if the solver expects to
    /// finish well before `deadline` and does; `None` otherwise, and then the caller searches
    /// as usual. It never runs past `deadline`.
    fn solve(&mut self, state: &G, deadline: std::time::Instant) -> Option<G::Move>;
}

/// A game with a HackerEarth "Battle of Bots" stdin/stdout format: the state a bot is fed,
/// and the move it prints. Byte-exact: contest players test their submissions with it.
pub trait HackerEarth: Game {
    /// Reads the input a bot receives.
    ///
    /// # Errors
    /// A [`ParseStateError`] with the line and column of the first problem.
    fn read_input(text: &str) -> Result<Self, ParseStateError>;

    /// Writes the input a bot receives in this position, exactly as the contest does.
    fn write_input(&self) -> String;

    /// Writes `mv` as a bot prints it, with the trailing newline.
    fn write_move(&self, mv: Self::Move) -> String;

    /// Reads a bot's answer: only the tokens the format needs, anything after them (debug
    /// lines) is ignored, as the contest's judge does.
    ///
    /// # Errors
    /// A [`ParseMoveError`] when the answer is not a move's notation.
    fn read_move(&self, output: &str) -> Result<Self::Move, ParseMoveError>;

    /// The move the contest's judge plays for the side to move *without running its
    /// program*, if there is one.
    ///
    /// In Reversi and Othello a side with no placement passes, and the HackerEarth judge
    /// skips it: its program is never asked, since the input it would get names the other
    /// player (see [`HackerEarth::write_input`]). A referee must apply this move itself.
    /// Games where every turn is the mover's own choice keep the default, `None`.
    fn forced_move(&self) -> Option<Self::Move> {
        None
    }
}

impl GameKind {
    /// Whether the game has a HackerEarth bot format (`ply bot` and the per-move referee).
    pub fn has_hackerearth_format(self) -> bool {
        with_hackerearth_game!(self, _G => true).unwrap_or(false)
    }
}

/// Like [`with_game!`] for games that implement [`HackerEarth`]: `Some($body)` with `$G` bound,
/// `None` for the other games.
#[macro_export]
macro_rules! with_hackerearth_game {
    ($kind:expr, $G:ident => $body:expr) => {
        #[allow(unreachable_patterns)]
        match $kind {
            $crate::GameKind::TicTacToe => {
                type $G = $crate::tictactoe::TicTacToe;
                Some($body)
            }
            $crate::GameKind::Reversi => {
                type $G = $crate::reversi::Reversi10;
                Some($body)
            }
            $crate::GameKind::Othello => {
                type $G = $crate::reversi::Othello;
                Some($body)
            }
            $crate::GameKind::Draughts => {
                type $G = $crate::draughts::Draughts;
                Some($body)
            }
            $crate::GameKind::Taunt => {
                type $G = $crate::taunt::Taunt;
                Some($body)
            }
            _ => None,
        }
    };
}
