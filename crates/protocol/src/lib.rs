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
//! The persistent exchange of the 2011 AI Challenge (one process for the whole game, a turn
//! message in, orders and `go` out) gets its own module beside this one, with its message
//! enums and their parse/format functions; the referee's process layer already keeps a bot's
//! pipes and limits apart from the per-move policy, so it carries either.

pub mod hackerearth;
