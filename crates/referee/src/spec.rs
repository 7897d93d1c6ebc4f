//! Player specifications: `builtin:NAME[:key=value,...]` for an in-process AI, anything else
//! a command line run as an external bot. One grammar ([`BotSpec`]) for every game; each
//! family of games resolves the built-in names it knows: [`PlayerSpec`] for the HackerEarth
//! games (the table below), [`AntsSpec`] for Ants (`builtin:hunter`, `builtin:random`,
//! `builtin:hold`).
//!
//! | spec | player |
//! |---|---|
//! | `builtin:random` | a uniformly random legal move |
//! | `builtin:greedy` | the move whose position the game's evaluator likes best |
//! | `builtin:alphabeta:ms=100` | alpha-beta, iterative deepening for `ms` per move (`depth=N` to fix the depth, `threads=N` for a lazy-SMP search on N threads, `hash=MB` for the transposition table's size, 1 to 4096 MB, default 16); on a timed move the game's exact endgame solver (8x8 Othello) plays when it can finish in time, `endgame=0` turns it off; the midgame search is cut by the game's ProbCut where it has one (8x8 Othello's pattern evaluation: +149 Elo at 100 ms, docs/strength.md), `probcut=0` searches fully; `nmp=1` tries null moves and `lmr=1` reduces late quiet moves where the game allows them (Taunt; off by default, docs/strength.md); on a timed move with `book=1` the game's opening book (8x8 Othello's, made by `ply book build`) plays where it holds the position (off by default: its gain is not shown, docs/strength.md); `eval=classic` searches with the hand-written evaluator instead of the game's best (8x8 Othello's fitted patterns; the same evaluator in every other game), `eval=tempo` with 8x8 Othello's fitted patterns plus a tempo for the side to move, `eval=standoff` with Taunt's fitted evaluation plus each side's shortage of safe moves (both off by default: their gain is not shown, docs/strength.md) |
//! | `builtin:mcts:ms=100` | UCT for `ms` per move (`iterations=N` to fix the playouts) |
//! | `builtin:perfect` | alpha-beta to the end of the game (small games only) |
//! | `python3 bot.py` | the program, run afresh for every move |

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ply_ants::bot::{BuiltinBot as AntsBuiltin, UnknownBotError};
use ply_core::{Budget, Fault, Game, Player};
use ply_games::{BookChoice, Endgame, EvalChoice, HackerEarth, Heuristics, Searching};
use ply_search::{
    AlphaBeta, AlphaBetaPlayer, Config, GreedyPlayer, MctsConfig, MctsPlayer, RandomPlayer,
    SmpScheme, TtLayout,
};

use crate::bot::{Bot, BuiltinBot, PerMoveBot};
use crate::process::{CommandLine, Limits, ParseCommandError, Sandbox};

/// A bot as written, before any game gives the built-in names a meaning: the one grammar.
///
/// ```text
/// spec    = "builtin:" NAME [ ":" option { "," option } ] | command-line
/// option  = KEY "=" VALUE
/// ```
///
/// A command line is split into words as a shell does (quotes group, see [`CommandLine`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpec {
    /// `builtin:NAME[:options]`: the name and the options as written (non-empty, in order;
    /// [`split_option`] reads one).
    Builtin {
        /// The name after `builtin:`.
        name: String,
        /// The comma-separated options after the second `:`.
        options: Vec<String>,
    },
    /// Anything else: a program and its arguments.
    Command(CommandLine),
}

impl FromStr for BotSpec {
    type Err = ParseCommandError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let Some(rest) = s.trim().strip_prefix("builtin:") else {
            return Ok(BotSpec::Command(s.parse()?));
        };
        let (name, options) = rest.split_once(':').unwrap_or((rest, ""));
        Ok(BotSpec::Builtin {
            name: name.to_string(),
            options: options
                .split(',')
                .filter(|o| !o.trim().is_empty())
                .map(str::to_string)
                .collect(),
        })
    }
}

/// A built-in's option as `(key, value)`, both trimmed; `None` without a `=`.
pub fn split_option(option: &str) -> Option<(&str, &str)> {
    option.split_once('=').map(|(k, v)| (k.trim(), v.trim()))
}

/// The in-process AIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinKind {
    /// A uniformly random legal move.
    Random,
    /// One ply of lookahead with the game's evaluator.
    Greedy,
    /// Alpha-beta with iterative deepening under a time budget.
    Alphabeta,
    /// UCT Monte Carlo tree search.
    Mcts,
    /// Alpha-beta to the end of the game.
    Perfect,
}

impl BuiltinKind {
    /// Every built-in AI, as named in specs.
    pub const ALL: &'static [(&'static str, BuiltinKind)] = &[
        ("random", BuiltinKind::Random),
        ("greedy", BuiltinKind::Greedy),
        ("alphabeta", BuiltinKind::Alphabeta),
        ("mcts", BuiltinKind::Mcts),
        ("perfect", BuiltinKind::Perfect),
    ];

    /// The name used in specs.
    pub fn name(self) -> &'static str {
        BuiltinKind::ALL
            .iter()
            .find(|(_, k)| *k == self)
            .map(|(n, _)| *n)
            .expect("every kind is listed")
    }
}

/// The options of a built-in AI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BuiltinOptions {
    /// Thinking time per move (`ms=`); alphabeta and mcts default to 100 ms.
    pub ms: Option<u64>,
    /// Fixed search depth for alphabeta (`depth=`).
    pub depth: Option<u32>,
    /// Fixed playouts for mcts (`iterations=`).
    pub iterations: Option<u64>,
    /// Search threads for alphabeta (`threads=`, 1 to 64; default 1, reproducible).
    pub threads: Option<u32>,
    /// Whether a timed alphabeta lets the game's endgame solver play when it can (`endgame=`
    /// 1, the default, or 0).
    pub endgame: Option<bool>,
    /// The evaluator of alphabeta and greedy (`eval=best`, the default, or `eval=classic`).
    pub eval: Option<EvalChoice>,
    /// Size of alphabeta's transposition table in MB (`hash=`, 1 to [`MAX_HASH_MB`];
    /// default 16).
    pub hash_mb: Option<u32>,
    /// How alphabeta's table groups its slots (`tt=buckets`, the default, four a cache
    /// line, or `tt=direct`, one an index as before session 39).
    pub tt_layout: Option<TtLayout>,
    /// How alphabeta's threads divide the work (`smp=ahead`, the default, odd helpers a
    /// depth ahead, or `smp=defer`, one depth with moves under search left for last).
    pub smp: Option<SmpScheme>,
    /// Whether alphabeta cuts by ProbCut where the evaluator offers it (`probcut=` 1 or 0;
    /// default [`DEFAULT_PROBCUT`]).
    pub probcut: Option<bool>,
    /// Whether a timed alphabeta plays the game's opening book where it holds the position
    /// (`book=` 1 or 0, the default: the game's [`Heuristics::book_by_default`]; 8x8 Othello's
    /// committed book).
    pub book: Option<bool>,
    /// Whether alphabeta tries null moves where the game's ordering offers them (`nmp=` 1 or
    /// 0; default [`DEFAULT_NULL_MOVE`]; Taunt only).
    pub null_move: Option<bool>,
    /// Whether alphabeta searches late quiet moves a ply shallower first where the game's
    /// ordering marks them (`lmr=` 1 or 0; default [`DEFAULT_LATE_MOVES`]; Taunt only).
    pub late_moves: Option<bool>,
}

/// Whether alphabeta uses ProbCut without a `probcut=` option: yes, measured +149 Elo
/// [+101, +204] in 8x8 Othello at 100 ms a move (docs/strength.md); games without a fitted
/// ProbCut are unaffected.
pub const DEFAULT_PROBCUT: bool = true;

/// Whether alphabeta tries null moves without an `nmp=` option. Games whose ordering offers
/// none (all but Taunt) are unaffected.
pub const DEFAULT_NULL_MOVE: bool = false;

/// Whether alphabeta reduces late quiet moves without an `lmr=` option. Games whose ordering
/// reduces none (all but Taunt) are unaffected.
pub const DEFAULT_LATE_MOVES: bool = false;

/// The largest transposition table a spec may ask for (`hash=`), in MB.
pub const MAX_HASH_MB: u64 = 4096;

/// Who takes a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// An in-process AI.
    Builtin(BuiltinKind, BuiltinOptions),
    /// An external program.
    Command(CommandLine),
}

/// A spec that names no player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseSpecError {
    /// `builtin:` with an unknown name.
    #[error(
        "unknown built-in AI {name:?}; the built-ins are: random, greedy, alphabeta, mcts, perfect"
    )]
    UnknownBuiltin {
        /// The name given.
        name: String,
    },
    /// An option that is not `key=value` with a known key and a number.
    #[error("bad option {option:?} for builtin:{ai}: {reason}")]
    BadOption {
        /// The built-in AI.
        ai: &'static str,
        /// The option as written.
        option: String,
        /// What is expected.
        reason: String,
    },
    /// A command line that cannot be split.
    #[error(transparent)]
    Command(#[from] ParseCommandError),
}

impl FromStr for PlayerSpec {
    type Err = ParseSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (name, options) = match s.parse::<BotSpec>()? {
            BotSpec::Command(c) => return Ok(PlayerSpec::Command(c)),
            BotSpec::Builtin { name, options } => (name, options),
        };
        let kind = BuiltinKind::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| *k)
            .ok_or_else(|| ParseSpecError::UnknownBuiltin { name: name.clone() })?;
        let mut opts = BuiltinOptions::default();
        for option in &options {
            let bad = |reason: &str| ParseSpecError::BadOption {
                ai: kind.name(),
                option: option.clone(),
                reason: reason.to_string(),
            };
            let (key, value) = split_option(option)
                .ok_or_else(|| bad("write options as key=value, e.g. ms=100"))?;
            let takes = match kind {
                BuiltinKind::Alphabeta => {
                    "alphabeta takes ms=, depth=, threads=, smp=, hash=, tt=, endgame=, probcut=, nmp=, lmr=, book= and eval="
                }
                BuiltinKind::Mcts => "mcts takes ms= and iterations=",
                BuiltinKind::Greedy => "greedy takes eval=",
                _ => "this AI takes no options",
            };
            if key == "eval" {
                if !matches!(kind, BuiltinKind::Alphabeta | BuiltinKind::Greedy) {
                    return Err(bad(takes));
                }
                opts.eval = Some(match value {
                    "best" => EvalChoice::Best,
                    "classic" => EvalChoice::Classic,
                    "tempo" => EvalChoice::Tempo,
                    "standoff" => EvalChoice::Standoff,
                    _ => return Err(bad("eval is best, classic, tempo or standoff")),
                });
                continue;
            }
            if key == "tt" {
                if kind != BuiltinKind::Alphabeta {
                    return Err(bad(takes));
                }
                opts.tt_layout = Some(match value {
                    "buckets" => TtLayout::Buckets,
                    "direct" => TtLayout::Direct,
                    _ => return Err(bad("tt is buckets or direct")),
                });
                continue;
            }
            if key == "smp" {
                if kind != BuiltinKind::Alphabeta {
                    return Err(bad(takes));
                }
                opts.smp = Some(match value {
                    "ahead" => SmpScheme::Ahead,
                    "defer" => SmpScheme::Defer,
                    _ => return Err(bad("smp is ahead or defer")),
                });
                continue;
            }
            let number: u64 = value
                .parse()
                .map_err(|_| bad("the value must be a whole number"))?;
            // An on/off option: 1 or 0.
            let switch = || match number {
                0 | 1 => Ok(number == 1),
                _ => Err(bad(&format!("{key} is 1 (on) or 0 (off)"))),
            };
            match (kind, key) {
                (BuiltinKind::Alphabeta | BuiltinKind::Mcts, "ms") => opts.ms = Some(number),
                (BuiltinKind::Alphabeta, "depth") => {
                    opts.depth =
                        Some(u32::try_from(number).map_err(|_| bad("the depth is too large"))?)
                }
                (BuiltinKind::Mcts, "iterations") => opts.iterations = Some(number),
                (BuiltinKind::Alphabeta, "endgame") => opts.endgame = Some(switch()?),
                (BuiltinKind::Alphabeta, "book") => opts.book = Some(switch()?),
                (BuiltinKind::Alphabeta, "probcut") => opts.probcut = Some(switch()?),
                (BuiltinKind::Alphabeta, "nmp") => opts.null_move = Some(switch()?),
                (BuiltinKind::Alphabeta, "lmr") => opts.late_moves = Some(switch()?),
                (BuiltinKind::Alphabeta, "threads") => {
                    if !(1..=64).contains(&number) {
                        return Err(bad("threads must be 1 to 64"));
                    }
                    opts.threads = Some(number as u32);
                }
                (BuiltinKind::Alphabeta, "hash") => {
                    if !(1..=MAX_HASH_MB).contains(&number) {
                        return Err(bad(&format!(
                            "hash is the table's size in MB, 1 to {MAX_HASH_MB}"
                        )));
                    }
                    opts.hash_mb = Some(number as u32);
                }
                _ => return Err(bad(takes)),
            }
        }
        Ok(PlayerSpec::Builtin(kind, opts))
    }
}

/// Who takes an Ants seat: a built-in bot of `ply_ants` or a program, run for the whole
/// game (the AI Challenge's persistent exchange). Same grammar as every spec ([`BotSpec`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AntsSpec {
    /// An in-process bot.
    Builtin(AntsBuiltin),
    /// An external program.
    Command(CommandLine),
}

/// An Ants spec that names no bot.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseAntsSpecError {
    /// `builtin:` with an unknown name.
    #[error(transparent)]
    UnknownBuiltin(#[from] UnknownBotError),
    /// Options on a built-in Ants bot (none takes any).
    #[error("builtin:{bot} takes no options (got {options:?})")]
    Options {
        /// The bot.
        bot: AntsBuiltin,
        /// The options as written.
        options: String,
    },
    /// A command line that cannot be split.
    #[error(transparent)]
    Command(#[from] ParseCommandError),
}

impl FromStr for AntsSpec {
    type Err = ParseAntsSpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.parse::<BotSpec>()? {
            BotSpec::Command(c) => Ok(AntsSpec::Command(c)),
            BotSpec::Builtin { name, options } => {
                let bot: AntsBuiltin = name.parse()?;
                if options.is_empty() {
                    Ok(AntsSpec::Builtin(bot))
                } else {
                    Err(ParseAntsSpecError::Options {
                        bot,
                        options: options.join(","),
                    })
                }
            }
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Builtin(kind, o) => {
                write!(f, "builtin:{}", kind.name())?;
                let mut opts = Vec::new();
                if let Some(ms) = o.ms {
                    opts.push(format!("ms={ms}"));
                }
                if let Some(d) = o.depth {
                    opts.push(format!("depth={d}"));
                }
                if let Some(i) = o.iterations {
                    opts.push(format!("iterations={i}"));
                }
                if let Some(t) = o.threads {
                    opts.push(format!("threads={t}"));
                }
                if let Some(h) = o.hash_mb {
                    opts.push(format!("hash={h}"));
                }
                if let Some(t) = o.tt_layout {
                    opts.push(
                        match t {
                            TtLayout::Buckets => "tt=buckets",
                            TtLayout::Direct => "tt=direct",
                        }
                        .to_string(),
                    );
                }
                if let Some(m) = o.smp {
                    opts.push(
                        match m {
                            SmpScheme::Ahead => "smp=ahead",
                            SmpScheme::Defer => "smp=defer",
                        }
                        .to_string(),
                    );
                }
                if let Some(e) = o.endgame {
                    opts.push(format!("endgame={}", u8::from(e)));
                }
                if let Some(p) = o.probcut {
                    opts.push(format!("probcut={}", u8::from(p)));
                }
                if let Some(n) = o.null_move {
                    opts.push(format!("nmp={}", u8::from(n)));
                }
                if let Some(l) = o.late_moves {
                    opts.push(format!("lmr={}", u8::from(l)));
                }
                if let Some(b) = o.book {
                    opts.push(format!("book={}", u8::from(b)));
                }
                if let Some(e) = o.eval {
                    opts.push(
                        match e {
                            EvalChoice::Best => "eval=best",
                            EvalChoice::Classic => "eval=classic",
                            EvalChoice::Tempo => "eval=tempo",
                            EvalChoice::Standoff => "eval=standoff",
                        }
                        .to_string(),
                    );
                }
                if !opts.is_empty() {
                    write!(f, ":{}", opts.join(","))?;
                }
                Ok(())
            }
            PlayerSpec::Command(c) => {
                let quote = |w: &str| {
                    if w.is_empty() || w.contains(|c: char| c.is_whitespace() || "'\"".contains(c))
                    {
                        format!("'{}'", w.replace('\'', ""))
                    } else {
                        w.to_string()
                    }
                };
                let mut words = vec![quote(&c.program)];
                words.extend(c.args.iter().map(|a| quote(a)));
                f.write_str(&words.join(" "))
            }
        }
    }
}

/// A built-in AI refused for this game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "builtin:perfect searches to the end of the game, which {game} is too long for; use builtin:alphabeta"
)]
pub struct BuildPlayerError {
    /// The game's name.
    pub game: &'static str,
}

/// The strongest built-in that plays `G`: `perfect` where the game is short enough to
/// search to the end, `alphabeta` otherwise.
pub fn strongest_builtin<G: ply_core::Game>() -> BuiltinKind {
    if G::info().max_plies <= PERFECT_MAX_PLIES {
        BuiltinKind::Perfect
    } else {
        BuiltinKind::Alphabeta
    }
}

/// Games with at most this many plies are small enough for `perfect`.
const PERFECT_MAX_PLIES: u32 = 16;

/// Default thinking time of alphabeta and mcts.
const DEFAULT_MS: u64 = 100;

/// The in-process AI `kind` for game `G`, its random choices seeded with `seed`.
///
/// # Errors
/// `perfect` on a game too long to search to the end.
pub fn builtin_player<G: Heuristics>(
    kind: BuiltinKind,
    options: BuiltinOptions,
    seed: u64,
) -> Result<Box<dyn Player<G>>, BuildPlayerError> {
    let think = Duration::from_millis(options.ms.unwrap_or(DEFAULT_MS));
    let eval = G::evaluator(options.eval.unwrap_or_default());
    // Alpha-beta plays on the game's searched state (both Reversi boards' keep their
    // evaluations' indices), converted from each position it is asked about.
    let search = || {
        AlphaBeta::<G::Searched, _, _>::with(
            eval.clone(),
            G::Ordering::default(),
            Config {
                threads: options.threads.map_or(1, |t| t as usize),
                tt_bytes: options
                    .hash_mb
                    .map_or(Config::default().tt_bytes, |mb| (mb as usize) << 20),
                tt_layout: options.tt_layout.unwrap_or_default(),
                smp: options.smp.unwrap_or_default(),
                probcut: options.probcut.unwrap_or(DEFAULT_PROBCUT),
                null_move: options.null_move.unwrap_or(DEFAULT_NULL_MOVE),
                late_moves: options.late_moves.unwrap_or(DEFAULT_LATE_MOVES),
                ..Config::default()
            },
        )
    };
    Ok(match kind {
        BuiltinKind::Random => Box::new(RandomPlayer::new(seed)),
        BuiltinKind::Greedy => Box::new(GreedyPlayer::new(eval.clone(), seed)),
        BuiltinKind::Alphabeta => {
            let time = (options.depth.is_none() || options.ms.is_some()).then_some(think);
            let player = Searching::new(AlphaBetaPlayer::new(search(), options.depth, time));
            let player: Box<dyn Player<G>> = match (
                time,
                options.endgame.unwrap_or_else(G::endgame_by_default),
                G::endgame(),
            ) {
                (Some(per_move), true, Some(solver)) => {
                    Box::new(SolvingPlayer::new(player, solver, per_move))
                }
                _ => Box::new(player),
            };
            // The book, like the solver, only for a timed player: a fixed depth stays a
            // plain search to that depth.
            match (
                time,
                options.book.unwrap_or_else(G::book_by_default),
                G::book(),
            ) {
                (Some(_), true, Some(_)) => Box::new(BookPlayer {
                    book: BookChoice::Committed,
                    player,
                }),
                _ => player,
            }
        }
        BuiltinKind::Mcts => {
            let time = (options.iterations.is_none() || options.ms.is_some()).then_some(think);
            Box::new(MctsPlayer::new(
                MctsConfig::default(),
                seed,
                options.iterations,
                time,
            ))
        }
        BuiltinKind::Perfect => {
            if G::info().max_plies > PERFECT_MAX_PLIES {
                return Err(BuildPlayerError {
                    game: G::info().name,
                });
            }
            Box::new(Searching::new(
                AlphaBetaPlayer::new(search(), None, None).named("perfect"),
            ))
        }
    })
}

/// A player that plays its opening book's move where the book holds the position.
struct BookPlayer<G: Game + 'static> {
    book: BookChoice<G>,
    player: Box<dyn Player<G>>,
}

impl<G: Heuristics> Player<G> for BookPlayer<G> {
    fn name(&self) -> String {
        self.player.name()
    }

    fn choose(&mut self, state: &G, budget: Budget) -> Result<G::Move, Fault> {
        match self.book.book_move(state) {
            Some(mv) => Ok(mv),
            None => self.player.choose(state, budget),
        }
    }

    fn new_game(&mut self) {
        self.player.new_game();
    }
}

/// A timed player that lets the game's endgame solver choose when it proves a move in time,
/// and searches otherwise, within the same deadline.
struct SolvingPlayer<G: Game, P> {
    search: P,
    solver: Box<dyn Endgame<G>>,
    per_move: Duration,
}

impl<G: Game, P: Player<G>> SolvingPlayer<G, P> {
    fn new(search: P, solver: Box<dyn Endgame<G>>, per_move: Duration) -> Self {
        SolvingPlayer {
            search,
            solver,
            per_move,
        }
    }
}

impl<G: Game, P: Player<G>> Player<G> for SolvingPlayer<G, P> {
    fn name(&self) -> String {
        self.search.name()
    }

    fn choose(&mut self, state: &G, budget: Budget) -> Result<G::Move, Fault> {
        // One deadline for both, fixed now: the search gets what the solver left.
        let own = Instant::now() + self.per_move;
        let deadline = budget.deadline.map_or(own, |d| d.min(own));
        if let Some(mv) = self.solver.solve(state, deadline) {
            return Ok(mv);
        }
        self.search.choose(
            state,
            Budget {
                deadline: Some(deadline),
                ..budget
            },
        )
    }

    fn new_game(&mut self) {
        self.search.new_game();
    }
}

impl PlayerSpec {
    /// A bot for one game, named `name`: built-ins seeded with `seed`, programs run in
    /// `sandbox` under `limits`.
    ///
    /// # Errors
    /// `builtin:perfect` on a game too long for it.
    pub fn build<G: HackerEarth + Heuristics>(
        &self,
        name: &str,
        seed: u64,
        sandbox: &Arc<Sandbox>,
        limits: &Limits,
    ) -> Result<Box<dyn Bot<G>>, BuildPlayerError> {
        Ok(match self {
            PlayerSpec::Builtin(kind, options) => Box::new(BuiltinBot::new(
                name.to_string(),
                builtin_player::<G>(*kind, *options, seed)?,
                limits.time,
            )),
            PlayerSpec::Command(command) => Box::new(PerMoveBot::new(
                name.to_string(),
                command.clone(),
                Arc::clone(sandbox),
                *limits,
            )),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print_back() {
        for text in [
            "builtin:random",
            "builtin:alphabeta:ms=100",
            "builtin:alphabeta:depth=3",
            "builtin:alphabeta:ms=200,threads=2",
            "builtin:mcts:ms=50,iterations=200",
            "python3 bot.py",
            "python3 'my bot.py'",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
    }

    #[test]
    fn endgame_is_an_alphabeta_switch() {
        let spec: PlayerSpec = "builtin:alphabeta:ms=100,endgame=0".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:alphabeta:ms=100,endgame=0");
        for bad in ["builtin:alphabeta:endgame=2", "builtin:mcts:endgame=1"] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(
                e.contains("endgame") || e.contains("mcts takes"),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn book_is_an_alphabeta_switch() {
        let spec: PlayerSpec = "builtin:alphabeta:ms=100,book=0".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:alphabeta:ms=100,book=0");
        for bad in ["builtin:alphabeta:book=2", "builtin:mcts:book=1"] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains("book") || e.contains("mcts takes"), "{bad}: {e}");
        }
    }

    /// A timed Othello alphabeta held to depth 1 plays the committed book's move in every
    /// position of 4 plies (the book's moves come from depth-16 searches, which depth 1 often
    /// disagrees with), with `book=0` its search's own, and with no `book=` what
    /// [`Heuristics::book_by_default`] says (off for every game).
    #[test]
    fn timed_othello_alphabeta_plays_the_book_s_move() {
        use ply_games::reversi::{Othello, book};
        let layer = book::positions_after(4);
        let player = |book: Option<bool>| {
            let options = BuiltinOptions {
                ms: Some(2000),
                depth: Some(1),
                book,
                ..BuiltinOptions::default()
            };
            builtin_player::<Othello>(BuiltinKind::Alphabeta, options, 0).unwrap()
        };
        let (mut with, mut without) = (player(Some(true)), player(Some(false)));
        let mut by_default = player(None);
        let mut differ = 0;
        for state in &layer {
            let expected = book::committed().book_move(state).unwrap();
            assert_eq!(with.choose(state, Budget::UNLIMITED).unwrap(), expected);
            let own = without.choose(state, Budget::UNLIMITED).unwrap();
            let default = if Othello::book_by_default() {
                expected
            } else {
                own
            };
            assert_eq!(
                by_default.choose(state, Budget::UNLIMITED).unwrap(),
                default
            );
            differ += usize::from(own != expected);
        }
        assert!(differ > 0, "depth 1 agreed with the book everywhere");
    }

    #[test]
    fn eval_chooses_alphabeta_and_greedy_evaluators() {
        let spec: PlayerSpec = "builtin:alphabeta:ms=100,eval=classic".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:alphabeta:ms=100,eval=classic");
        let PlayerSpec::Builtin(_, o) = spec else {
            panic!("a built-in")
        };
        assert_eq!(o.eval, Some(EvalChoice::Classic));
        let spec: PlayerSpec = "builtin:greedy:eval=best".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:greedy:eval=best");
        let spec: PlayerSpec = "builtin:alphabeta:eval=tempo".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:alphabeta:eval=tempo");
        for (bad, says) in [
            (
                "builtin:alphabeta:eval=fancy",
                "best, classic, tempo or standoff",
            ),
            ("builtin:mcts:eval=classic", "mcts takes"),
            ("builtin:random:eval=classic", "no options"),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    /// `eval=classic` gives Othello's alphabeta the hand-written evaluator back: at depth 3
    /// it plays what a plain search with `Positional` plays, and the default plays what one
    /// with the fitted patterns plays.
    #[test]
    fn othello_alphabeta_searches_with_the_chosen_evaluator() {
        use ply_games::reversi::{CornersFirst, Othello, OthelloEval};
        let mut differ = 0;
        let mut random = ply_search::RandomPlayer::new(3);
        let mut state = Othello::start();
        for _ in 0..30 {
            if state.outcome().is_some() {
                break;
            }
            for (choice, eval) in [
                (EvalChoice::Classic, OthelloEval::Classic),
                (EvalChoice::Best, OthelloEval::Pattern),
                (EvalChoice::Tempo, OthelloEval::Tempo),
            ] {
                let options = BuiltinOptions {
                    depth: Some(3),
                    eval: Some(choice),
                    ..BuiltinOptions::default()
                };
                let mut player =
                    builtin_player::<Othello>(BuiltinKind::Alphabeta, options, 1).unwrap();
                let mut plain = AlphaBeta::with(eval, CornersFirst, Config::default());
                assert_eq!(
                    player.choose(&state, Budget::UNLIMITED).unwrap(),
                    plain.search(&state, Budget::depth(3)).best.unwrap(),
                    "{choice:?} in {state}"
                );
            }
            let mut a = AlphaBeta::with(OthelloEval::Classic, CornersFirst, Config::default());
            let mut b = AlphaBeta::with(OthelloEval::Pattern, CornersFirst, Config::default());
            differ += usize::from(
                a.search(&state, Budget::depth(3)).best != b.search(&state, Budget::depth(3)).best,
            );
            let mv = random.choose(&state, Budget::UNLIMITED).unwrap();
            state.play_unchecked(mv);
        }
        // The two evaluators are really different players.
        assert!(differ > 0);
    }

    /// A timed Othello alphabeta with 12 empties left plays a move the exact solver proves
    /// best; held to depth 1, its search alone often does not (`endgame=0`), which shows that
    /// the solver chose.
    #[test]
    fn timed_othello_alphabeta_plays_the_solved_move_near_the_end() {
        use ply_games::reversi::{EndgameSolver, Othello, SolveMode, empties};
        let mut solver = EndgameSolver::new();
        let mut value = |state: &Othello| -> i32 {
            match solver.solve(state, SolveMode::Exact, Budget::UNLIMITED) {
                Some(s) => s.score,
                None => {
                    // Over: the final count for the side to move, empties to the winner.
                    let (black, white) = state.counts();
                    let d = black as i32 - white as i32;
                    let d = d + d.signum() * (64 - black - white) as i32;
                    if state.to_move() == ply_core::Seat::FIRST {
                        d
                    } else {
                        -d
                    }
                }
            }
        };
        let (mut positions, mut search_missed) = (0, 0);
        for seed in 0..8 {
            let mut random = ply_search::RandomPlayer::new(seed);
            let mut state = Othello::start();
            while empties(&state) > 12 && state.outcome().is_none() {
                let mv = random.choose(&state, Budget::UNLIMITED).unwrap();
                state.play_unchecked(mv);
            }
            if state.outcome().is_some() {
                continue;
            }
            let best = value(&state);
            for endgame in [true, false] {
                let options = BuiltinOptions {
                    ms: Some(2000),
                    depth: Some(1),
                    endgame: Some(endgame),
                    ..BuiltinOptions::default()
                };
                let mut player =
                    builtin_player::<Othello>(BuiltinKind::Alphabeta, options, seed).unwrap();
                let mv = player.choose(&state, Budget::UNLIMITED).unwrap();
                let mut child = state;
                child.play(mv).unwrap();
                let after = value(&child);
                let after = if child.to_move() == state.to_move() {
                    after
                } else {
                    -after
                };
                if endgame {
                    assert_eq!(after, best, "seed {seed}: {mv} in {state}");
                } else if after != best {
                    search_missed += 1;
                }
            }
            positions += 1;
        }
        assert!(positions > 0);
        assert!(
            search_missed > 0,
            "depth 1 alone found every best move: no evidence"
        );
    }

    #[test]
    fn threads_are_for_alphabeta_and_range_checked() {
        for bad in [
            "builtin:alphabeta:threads=0",
            "builtin:alphabeta:threads=65",
            "builtin:mcts:threads=2",
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains("threads"), "{bad}: {e}");
        }
    }

    #[test]
    fn tt_chooses_the_tables_layout() {
        for (text, layout) in [
            ("builtin:alphabeta:ms=100,tt=direct", TtLayout::Direct),
            ("builtin:alphabeta:ms=100,tt=buckets", TtLayout::Buckets),
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            let PlayerSpec::Builtin(_, options) = spec else {
                panic!("a built-in")
            };
            assert_eq!(options.tt_layout, Some(layout));
        }
        for bad in [
            "builtin:alphabeta:tt=lines",
            "builtin:alphabeta:tt=1",
            "builtin:mcts:tt=direct",
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains("tt"), "{bad}: {e}");
        }
    }

    #[test]
    fn smp_chooses_how_threads_divide_the_work() {
        for (text, scheme) in [
            (
                "builtin:alphabeta:ms=100,threads=2,smp=defer",
                SmpScheme::Defer,
            ),
            (
                "builtin:alphabeta:ms=100,threads=2,smp=ahead",
                SmpScheme::Ahead,
            ),
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            let PlayerSpec::Builtin(_, options) = spec else {
                panic!("a built-in")
            };
            assert_eq!(options.smp, Some(scheme));
        }
        for bad in [
            "builtin:alphabeta:smp=abdada",
            "builtin:alphabeta:smp=1",
            "builtin:mcts:smp=defer",
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains("smp"), "{bad}: {e}");
        }
    }

    #[test]
    fn hash_sizes_the_table_and_is_range_checked() {
        let spec: PlayerSpec = "builtin:alphabeta:ms=100,hash=64".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:alphabeta:ms=100,hash=64");
        let PlayerSpec::Builtin(_, options) = spec else {
            panic!("a built-in")
        };
        assert_eq!(options.hash_mb, Some(64));
        for bad in [
            "builtin:alphabeta:hash=0",
            "builtin:alphabeta:hash=4097",
            "builtin:alphabeta:hash=big",
            "builtin:mcts:hash=16",
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(
                e.contains("hash") || e.contains("whole number"),
                "{bad}: {e}"
            );
        }
        let e = "builtin:alphabeta:hash=0"
            .parse::<PlayerSpec>()
            .unwrap_err()
            .to_string();
        assert!(e.contains("1 to 4096"), "{e}");
    }

    #[test]
    fn probcut_is_an_alphabeta_switch() {
        let spec: PlayerSpec = "builtin:alphabeta:ms=100,probcut=1".parse().unwrap();
        assert_eq!(spec.to_string(), "builtin:alphabeta:ms=100,probcut=1");
        for bad in ["builtin:alphabeta:probcut=2", "builtin:mcts:probcut=1"] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains("probcut"), "{bad}: {e}");
        }
    }

    #[test]
    fn null_move_and_late_moves_are_alphabeta_switches() {
        let spec: PlayerSpec = "builtin:alphabeta:ms=100,nmp=0,lmr=1".parse().unwrap();
        let PlayerSpec::Builtin(_, o) = &spec else {
            panic!("a built-in")
        };
        assert_eq!((o.null_move, o.late_moves), (Some(false), Some(true)));
        assert_eq!(spec.to_string(), "builtin:alphabeta:ms=100,nmp=0,lmr=1");
        for (bad, word) in [
            ("builtin:alphabeta:nmp=2", "nmp"),
            ("builtin:alphabeta:lmr=yes", "whole number"),
            ("builtin:mcts:lmr=1", "mcts takes"),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(word), "{bad}: {e}");
        }
    }

    #[test]
    fn one_grammar_reads_every_spec() {
        assert_eq!(
            "builtin:mcts:ms=50, iterations=200"
                .parse::<BotSpec>()
                .unwrap(),
            BotSpec::Builtin {
                name: "mcts".into(),
                options: vec!["ms=50".into(), " iterations=200".into()]
            }
        );
        assert_eq!(split_option(" iterations=200"), Some(("iterations", "200")));
        let BotSpec::Command(c) = "python3 'my bot.py'".parse::<BotSpec>().unwrap() else {
            panic!("a command line")
        };
        assert_eq!(
            (c.program.as_str(), c.args.as_slice()),
            ("python3", &["my bot.py".to_string()][..])
        );
    }

    #[test]
    fn ants_specs_use_the_same_grammar_with_their_own_names() {
        assert_eq!(
            "builtin:hunter".parse::<AntsSpec>().unwrap(),
            AntsSpec::Builtin(AntsBuiltin::Hunter)
        );
        assert!(matches!(
            "python3 MyBot.py".parse::<AntsSpec>().unwrap(),
            AntsSpec::Command(_)
        ));
        let e = "builtin:alphabeta".parse::<AntsSpec>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown built-in ants bot \"alphabeta\"; the bots are: hold, random, hunter, phalanx"
        );
        let e = "builtin:hunter:ms=5".parse::<AntsSpec>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "builtin:hunter takes no options (got \"ms=5\")"
        );
        // And a HackerEarth name is no Ants bot, nor the other way round.
        assert!("builtin:hunter".parse::<PlayerSpec>().is_err());
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let e = "builtin:minimax".parse::<PlayerSpec>().unwrap_err();
        assert!(e.to_string().contains("alphabeta, mcts"), "{e}");
        let e = "builtin:random:ms=5".parse::<PlayerSpec>().unwrap_err();
        assert!(e.to_string().contains("takes no options"), "{e}");
        let e = "builtin:mcts:ms=fast".parse::<PlayerSpec>().unwrap_err();
        assert!(e.to_string().contains("whole number"), "{e}");
    }
}
