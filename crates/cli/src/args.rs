//! Command-line arguments, as plain data. `cmd` validates them into configurations.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// ply: solve classic puzzles exactly, play board games against search AIs, and referee bot
/// contests.
#[derive(Debug, Parser)]
#[command(name = "ply", version, about, long_about = None, after_help = EXAMPLES)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Colour: auto (when stdout is a terminal and NO_COLOR is unset), always or never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Only warnings and errors on stderr: no progress bars, no summaries.
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub quiet: bool,
    /// More on stderr: -v for debug lines, -vv for tracing.
    #[arg(short, long, global = true, action = clap::ArgAction::Count)]
    pub verbose: u8,
}

/// When to colour stdout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// When stdout is a terminal and NO_COLOR is unset or empty.
    Auto,
    /// Always (ANSI escapes).
    Always,
    /// Never.
    Never,
}

const EXAMPLES: &str = "\
Examples:
  ply games                  # the games and puzzles
  ply play tictactoe         # play against the perfect AI
  ply perft tictactoe 9      # last line: 127872
  printf '1 1 0\\n2 2 0\\n0 0 0\\n1\\n' | ply bot tictactoe   # last line: 0 2

Every command's --help has examples; `ply help COMMAND` shows it.";

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the games and puzzles ply knows, one line each.
    #[command(after_help = "Examples:\n  ply games\n  ply games --json")]
    Games(GamesArgs),
    /// Play a game against an AI in the terminal.
    #[command(
        after_help = "Example:\n  ply play tictactoe --you o --ai mcts --seed 7\n\n\
Moves are typed in the game's notation; for tic-tac-toe `row col` (0-based, as HackerEarth\n\
writes them) or the cell number 1-9 shown on the board. Type `help` for the legal moves,\n\
`quit` to stop."
    )]
    Play(PlayArgs),
    /// Count the move sequences of a given length (perft), to check a move generator.
    #[command(
        after_help = "Example:\n  ply perft tictactoe 9     # last line: 127872\n  \
ply perft tictactoe 2 --divide --position 'x../.../...'"
    )]
    Perft(PerftArgs),
    /// Prove a position's exact result and a best move (Othello and Draughts endgames).
    Solve(crate::cmd::solve::SolveArgs),
    /// Act as a contest bot: read one state on stdin, print a move on stdout.
    #[command(
        after_help = "Example:\n  printf '1 0 0\\n0 2 0\\n0 0 0\\n1\\n' | ply bot tictactoe\n\n\
The input and output formats are the contest's own (HackerEarth's for its games); every\n\
game's format, with an example state and answer, is in docs/formats.md, and\n\
`ply judge GAME --start` prints a game's first input to try a bot on."
    )]
    Bot(BotArgs),
    /// Referee a match of several games between two players (built-in AIs or bot programs).
    Match(crate::cmd::matches::MatchArgs),
    /// Run a rated round-robin tournament among bots, stored so that it resumes after a kill.
    Tournament(crate::cmd::tournament::TournamentArgs),
    /// Measure a bot against others in pairs of games from seeded openings: Elo differences
    /// with 95% intervals, stopped early by an SPRT (for docs/strength.md).
    Ladder(crate::cmd::ladder::LadderArgs),
    /// Show the standings of a stored tournament.
    Leaderboard(crate::cmd::leaderboard::LeaderboardArgs),
    /// Play queued tournament games from a shared database (`ply tournament --enqueue`).
    Worker(crate::cmd::worker::WorkerArgs),
    /// List the workers of a shared database, with their last heartbeat and games played.
    Workers(crate::cmd::worker::WorkersArgs),
    /// Play back a replay file in the terminal.
    Replay(crate::cmd::replay::ReplayArgs),
    /// The sorting lab: benchmark and check the seed's "stack sort" against the classic sorts.
    Sort(crate::cmd::sort::SortArgs),
    /// Judge one HackerEarth move: print the state fed to the other bot, or why it is invalid.
    #[command(
        after_help = "Examples:\n  ply judge taunt --start > state.txt   # the first input of a game\n  \
ply bot taunt < state.txt > move.txt\n  \
ply judge taunt --state state.txt --move move.txt\n\n\
It prints the state the other bot is fed next, or `invalid move: ...` with exit code 1."
    )]
    Judge(crate::cmd::judge::JudgeArgs),
    /// Ants (the 2011 AI Challenge): play games with built-in bots, generate maps.
    Ants(crate::cmd::ants::AntsArgs),
    /// Sudoku of any box shape: solve, generate, explain, grade, bench.
    #[command(after_help = "Examples:\n  \
ply sudoku generate --seed 7 | ply sudoku solve\n  \
ply sudoku generate --size 16 --seed 16 --grid\n  \
ply sudoku generate --seed 7 | ply sudoku explain\n\n\
`ply sudoku COMMAND --help` has more.")]
    Sudoku(crate::cmd::sudoku::SudokuArgs),
    /// Peg solitaire: solve (one peg, fewest moves, contest score), count, score, packages.
    #[command(after_help = "Examples:\n  \
ply peg solve --board english          # one peg left, any hole\n  \
ply peg show --board french\n  \
ply peg count --board triangle --start 11\n\n\
`ply peg COMMAND --help` has more.")]
    Peg(crate::cmd::peg::PegArgs),
    /// Tower of Hanoi on any number of pegs: solve, search, draw, play.
    #[command(after_help = "Examples:\n  \
ply hanoi solve --discs 3              # 7 moves, peg 1 to peg 3\n  \
ply hanoi solve --discs 6 --pegs 4 --count   # last line: 17\n  \
ply hanoi graph --discs 3 > hanoi3.svg\n\n\
`ply hanoi COMMAND --help` has more.")]
    Hanoi(crate::cmd::hanoi::HanoiArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Examples:\n  \
ply completions bash > ply.bash   # then `source ply.bash`, or put it in\n  \
                                  # ~/.local/share/bash-completion/completions/ply\n  \
ply completions zsh > _ply        # a folder on $fpath\n  \
ply completions fish > ply.fish   # ~/.config/fish/completions/")]
    Completions(CompletionsArgs),
    /// Print the manual page (roff), or write one page per command into a folder.
    #[command(after_help = "Examples:\n  \
ply man > ply.1                # then `man -l ply.1`\n  \
ply man --out-dir man/         # ply.1, ply-sudoku.1, ply-sudoku-solve.1, ...")]
    Man(ManArgs),
    /// Block Breaker: play in the terminal, watch the autopilot, replay traces.
    #[command(after_help = "Examples:\n  \
ply breaker play                       # arrows or a/d, space, p, q\n  \
ply breaker autoplay --level 1 --json\n\n\
`ply breaker COMMAND --help` has more.")]
    Breaker(crate::cmd::breaker::BreakerArgs),
    /// Opening books made by ply's own deep searches (8x8 Othello): build one, look a
    /// position up, convert an old one.
    #[command(after_help = "Examples:\n  \
ply book lookup othello                # the committed book's move at the start\n\n\
`ply book COMMAND --help` has more.")]
    Book(crate::cmd::book::BookArgs),
    /// Serve the browser front end: play the AIs and the puzzles, watch tournaments and replays.
    Serve(crate::cmd::serve::ServeArgs),
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts instead of a table")))]
pub struct GamesArgs {
    #[command(flatten)]
    pub json: crate::out::Json,
}

/// Which side a person takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    /// Player 1 (X in tic-tac-toe), moves first.
    #[value(alias = "1", alias = "first")]
    X,
    /// Player 2 (O in tic-tac-toe).
    #[value(alias = "2", alias = "second")]
    O,
}

/// The built-in AIs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum AiKind {
    /// Searches to the end of the game: never loses, wins as fast as it can (small games).
    Perfect,
    /// Alpha-beta with iterative deepening for --think-ms per move.
    Alphabeta,
    /// Monte Carlo tree search (UCT) for --think-ms per move.
    Mcts,
    /// A uniformly random legal move.
    Random,
}

/// How the threads of `ply bot --threads N` divide the work (ply_search's `SmpScheme`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Smp {
    /// Odd helpers search one depth ahead of the main thread.
    Ahead,
    /// Every thread searches the same depth; a move another thread is searching waits
    /// for last (ABDADA's idea).
    Defer,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The game (see `ply games`).
    pub game: String,
    /// Your side: x (moves first) or o.
    #[arg(long, value_enum, default_value = "x")]
    pub you: Side,
    /// The AI you play against (default: perfect where the game is short enough to search
    /// to the end, as tic-tac-toe is; alphabeta otherwise).
    #[arg(long, value_enum)]
    pub ai: Option<AiKind>,
    /// Seed of the AI's random choices; the same seed and moves give the same game.
    /// Default: a fresh one, printed at the start.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Thinking time per AI move, for alphabeta and mcts.
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
}

#[derive(Debug, Args)]
#[command(mut_arg("json", |a| a.help("Print JSON for scripts")))]
pub struct PerftArgs {
    /// The game (see `ply games`).
    pub game: String,
    /// How many plies deep.
    pub depth: u32,
    /// Start from this position (the game's one-line text) instead of the start.
    #[arg(long)]
    pub position: Option<String>,
    /// Also print the count below each first move.
    #[arg(long)]
    pub divide: bool,
    #[command(flatten)]
    pub json: crate::out::Json,
}

#[derive(Debug, Args)]
pub struct BotArgs {
    /// The game (see `ply games`).
    pub game: String,
    /// Time budget for the whole answer, in milliseconds.
    #[arg(long, default_value_t = 900)]
    pub time_ms: u64,
    /// Search threads, 1 to 64 (lazy SMP sharing one table): 2 on a two-core judge. With
    /// more than one the move depends on timing; 1 is reproducible.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
    /// How two or more threads divide the work: `ahead` (odd helpers a depth ahead) or
    /// `defer` (one depth, moves another thread is searching left for last) [default: the
    /// search's, docs/strength.md].
    #[arg(long, value_enum)]
    pub smp: Option<Smp>,
    /// Size of the transposition table in MB, 1 to 4096 [default: the search's, 16].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=ply_referee::spec::MAX_HASH_MB as i64))]
    pub hash_mb: Option<u32>,
    /// Cut the midgame search by ProbCut where the game has it (8x8 Othello); `--probcut
    /// false` searches fully.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub probcut: bool,
    /// Try null moves where the game allows them (Taunt, away from move 100); `--nmp true`
    /// turns them on [default: off, docs/strength.md].
    #[arg(long, default_value_t = ply_referee::spec::DEFAULT_NULL_MOVE, action = clap::ArgAction::Set)]
    pub nmp: bool,
    /// Search late quiet moves a ply shallower first where the game allows it (Taunt);
    /// `--lmr true` turns it on [default: off, docs/strength.md].
    #[arg(long, default_value_t = ply_referee::spec::DEFAULT_LATE_MOVES, action = clap::ArgAction::Set)]
    pub lmr: bool,
    /// Let the game's exact endgame solver choose the move when it proves one in time (8x8
    /// Othello: win/loss/draw from 20 empties at 900 ms, the exact score from about 16);
    /// `--endgame false` leaves every move to the search. Default: on, but for Draughts and
    /// Taunt, whose solvers have shown no gain yet (`--endgame true` turns them on; Taunt's
    /// plays the last 9 moves' wins and the drawn moves most likely to trap the top-10
    /// entry).
    #[arg(long, action = clap::ArgAction::Set)]
    pub endgame: Option<bool>,
    /// Give part of the move's time to a stage that models the opponent's replies (Taunt:
    /// the top-10 entry's, from its source): the main search gets `--model-share` of the
    /// time, then among root moves close to the best at a shallower depth the one after
    /// which the modelled replies leave the opponent worst is played, if clearly better.
    /// Default: on, for Taunt, the one game with a model: 122 wins of 130 against the entry
    /// with it, 109 without, on the same openings (docs/strength.md, "Session 44");
    /// `--model false` gives the whole time to the search.
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub model: bool,
    /// The share of the search's time the main search gets with `--model true` (0 to 1).
    #[arg(long, default_value_t = 0.6, value_parser = crate::ranges::fraction)]
    pub model_share: f64,
    /// Play the opening book's move where the book holds the position (8x8 Othello's
    /// committed book, made by `ply book build`). Default: off (the committed book's gain is
    /// not shown: docs/strength.md), but on with --book-file.
    #[arg(long, action = clap::ArgAction::Set)]
    pub book: Option<bool>,
    /// A book file of your own (`ply book build othello --out FILE`) instead of the
    /// committed one; played with a warning when another evaluation than this build's
    /// labelled it.
    #[arg(long)]
    pub book_file: Option<std::path::PathBuf>,
    /// The evaluation: `best` (the game's fitted one), `classic` (the hand-written one it
    /// replaced) or `tempo` (8x8 Othello's fitted patterns plus a tempo for the side to move,
    /// which takes out the swing of search values with the depth's parity; not the default:
    /// its gain is not shown, docs/strength.md) or `standoff` (Taunt's fitted evaluation plus
    /// each side's shortage of safe moves, aimed at the level-material standoff; not the
    /// default: its gain is not shown, docs/strength.md).
    #[arg(long, default_value = "best", value_parser = ["best", "classic", "tempo", "standoff"])]
    pub eval: String,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write one page per command (ply.1, ply-sudoku.1, ...) into this folder instead of
    /// printing the main page.
    #[arg(long)]
    pub out_dir: Option<std::path::PathBuf>,
}
