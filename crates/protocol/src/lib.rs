//! Bot wire formats: what the referee writes to a bot and how it judges what the bot answers.
//! Pure functions over text; the processes that carry the text live in `ply-referee`.
//!
//! * [`hackerearth`]: the per-move exchange of HackerEarth's Battle of Bots. A fresh process
//!   per move reads the whole state on stdin and prints its move on stdout. The byte-exact
//!   state and move formats of each game live in that game's `hackerearth.rs`
//!   ([`ply_games::HackerEarth`]); this module adds the judging: an empty answer, an answer
//!   that is no move, and a move that is not legal are told apart so that the referee can give
//!   each its verdict.
//!
//! * [`ai_challenge`]: the persistent exchange of the 2011 AI Challenge (one process for the
//!   whole game, a turn's text in, order lines and `go` out): cutting what the bot wrote into
//!   the turn's orders against the output cap. The turn texts themselves are the game's
//!   (`ply_ants`), as the HackerEarth states are each game's.
//!
//! The referee's process layer (`ply_referee::process`, `persistent`) carries the bytes, the
//! clock and the jail for both, and knows no game.

pub mod ai_challenge;
pub mod hackerearth;
