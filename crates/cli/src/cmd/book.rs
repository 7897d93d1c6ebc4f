//! `ply book`: make an opening book by ply's own deep searches, and look positions up in one
//! (the book itself is `ply_games::reversi::book`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, Subcommand};

use ply_core::{Budget, Game};
use ply_games::GameKind;
use ply_games::reversi::book::{self, Book, BuildConfig};
use ply_games::reversi::{CornersFirst, IndexedOthello, Othello, OthelloEval};
use ply_search::{AlphaBeta, Config};

use crate::bad_input;

#[derive(Debug, Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Make an opening book: every position of the first plies expanded, each leaf labelled
    /// by a fixed-depth search (the bot's evaluation, ProbCut on), values propagated by
    /// negamax, then the most likely lines expanded best first.
    #[command(after_help = "Examples:\n  \
ply book build othello --out tiny.book --depth 2 --full-plies 1 --positions 40\n  \
ply book build othello --out othello-book.bin --threads 2   # the committed book\n\n\
crates/games/data/othello-book.md says how long the committed book took. The same options give the same bytes, whatever --threads. `ply bot othello --book-file FILE`\n\
plays a book made here; the committed one is compiled into ply.")]
    Build(BuildArgs),
    /// Look a position up in a book: its move and value (for the side to move).
    #[command(after_help = "Examples:\n  \
ply book lookup othello                # the start, in the committed book\n  \
ply book lookup othello --book-file tiny.book \\\n    \
--position '......../......../......../...ox.../...xo.../......../......../........ x'\n\n\
It prints `not in the book` and exits with 1 when the book does not hold the position.")]
    Lookup(LookupArgs),
    /// Convert a book of format 1 (PLYBOOK1, session 34's, which did not record the
    /// evaluation that labelled it) to format 2, once this build's evaluation is shown to
    /// have labelled it: a sample of its leaves is searched again at their depth and must give
    /// the book's values and moves.
    #[command(after_help = "Examples:\n  \
ply book convert othello --book-file old.book --out new.book --check 60\n  \
ply book convert othello --book-file tiny.book --out new.book   # of format 2 already: exit 2\n\n\
It refuses (exit 2) when a leaf searched again differs: the book was made by another\n\
evaluation, and `ply book build othello` makes one with this build's.")]
    Convert(ConvertArgs),
}

#[derive(Debug, Args)]
pub struct BuildArgs {
    /// The game: only othello has books.
    pub game: String,
    /// Where to write the book.
    #[arg(long)]
    pub out: PathBuf,
    /// Depth of the search of each leaf one ply past --full-plies; a leaf a ply further is
    /// searched a ply less, so that every leaf stops at the same ply.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// The most positions the book may hold (20 bytes each).
    #[arg(long, default_value_t = 6000)]
    pub positions: usize,
    /// Every position this many plies from the start or fewer is expanded (the ladder's
    /// openings are 4 random plies).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=8))]
    pub full_plies: u32,
    /// Threads searching leaves at once; the book does not depend on it.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub threads: u32,
}

#[derive(Debug, Args)]
pub struct LookupArgs {
    /// The game: only othello has books.
    pub game: String,
    /// A book file made by `ply book build` [default: the committed book].
    #[arg(long)]
    pub book_file: Option<PathBuf>,
    /// The position, in the game's one-line text [default: the start].
    #[arg(long)]
    pub position: Option<String>,
}

#[derive(Debug, Args)]
pub struct ConvertArgs {
    /// The game: only othello has books.
    pub game: String,
    /// The book of format 1.
    #[arg(long)]
    pub book_file: PathBuf,
    /// Where to write the book of format 2.
    #[arg(long)]
    pub out: PathBuf,
    /// How many of its leaves to search again (spread evenly over the book; all of them
    /// when it has fewer).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    pub check: u32,
}

pub fn run(args: &BookArgs) -> Result<ExitCode> {
    match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Lookup(a) => lookup(a),
        BookCommand::Convert(a) => convert(a),
    }
}

fn only_othello(game: &str) -> Result<()> {
    let kind = super::game_kind(game)?;
    if kind != GameKind::Othello {
        return Err(bad_input!(
            "{kind} has no opening book; only othello has one"
        ));
    }
    Ok(())
}

/// A leaf's search: the bot's evaluation and ordering with ProbCut, to a fixed depth, from
/// an empty table so that the result depends on the position alone.
fn leaf_search() -> impl FnMut(&Othello, u32) -> (ply_core::Score, Option<ply_games::reversi::Place>)
{
    let mut search = AlphaBeta::with(
        OthelloEval::Pattern,
        CornersFirst,
        Config {
            tt_bytes: 16 << 20,
            probcut: true,
            ..Config::default()
        },
    );
    move |state, depth| {
        search.clear();
        let r = search.search(&IndexedOthello::from(*state), Budget::depth(depth));
        (r.score, r.best)
    }
}

fn build(args: &BuildArgs) -> Result<ExitCode> {
    only_othello(&args.game)?;
    let config = BuildConfig {
        depth: args.depth,
        full_plies: args.full_plies,
        positions: args.positions,
        threads: args.threads as usize,
        evaluation: book::evaluation_fingerprint(),
    };
    let start = Instant::now();
    let bar = crate::out::progress(args.positions as u64, "positions");
    let made = book::build(&config, leaf_search, |n| bar.set_position(n as u64));
    bar.finish_and_clear();
    let made = made.map_err(|e| bad_input!("{e}"))?;
    let bytes = made.to_bytes();
    std::fs::write(&args.out, &bytes)
        .with_context(|| format!("writing the book to {}", args.out.display()))?;
    let expanded = made.entries().iter().filter(|e| e.is_expanded()).count();
    outln!(
        "{} positions ({expanded} expanded, {} leaves searched to {} plies from the start: depth {} at {} plies, a ply less a ply further), {} bytes, {:.1} s: {}",
        made.len(),
        made.len() - expanded,
        args.depth + args.full_plies + 1,
        args.depth,
        args.full_plies + 1,
        bytes.len(),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn lookup(args: &LookupArgs) -> Result<ExitCode> {
    only_othello(&args.game)?;
    let own;
    let book = match &args.book_file {
        None => book::committed(),
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| bad_input!("reading the book {}: {e}", path.display()))?;
            own = Book::from_bytes(&bytes).map_err(|e| bad_input!("{}: {e}", path.display()))?;
            if let Some(why) = ply_games::OpeningBook::mismatch(&own) {
                tracing::warn!("{}: {why}", path.display());
            }
            &own
        }
    };
    let state = match &args.position {
        None => Othello::start(),
        Some(text) => text
            .parse::<Othello>()
            .map_err(|e| bad_input!("--position {text:?}: {e}"))?,
    };
    match book.lookup(&state) {
        None => {
            outln!("not in the book ({} positions)", book.len());
            Ok(ExitCode::from(1))
        }
        Some(found) => {
            let how = if found.depth == 0 {
                "negamax of its children".to_string()
            } else {
                format!("a depth-{} search", found.depth)
            };
            let mv = found
                .mv
                .map_or("none (the game is over)".into(), |m| m.to_string());
            outln!(
                "move {mv}, value {:+.2} discs for {} ({how})",
                f64::from(found.value) / 100.0,
                state.to_move()
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn convert(args: &ConvertArgs) -> Result<ExitCode> {
    only_othello(&args.game)?;
    let path = &args.book_file;
    let bytes =
        std::fs::read(path).map_err(|e| bad_input!("reading the book {}: {e}", path.display()))?;
    if Book::from_bytes(&bytes).is_ok() {
        return Err(bad_input!(
            "{} is a book of format 2 already: nothing to convert",
            path.display()
        ));
    }
    let old = Book::from_format1(&bytes, book::evaluation_fingerprint())
        .map_err(|e| bad_input!("{}: {e}", path.display()))?;
    let depth = old.labels().depth;
    let leaves: Vec<_> = old.entries().iter().filter(|e| !e.is_expanded()).collect();
    let n = (args.check as usize).min(leaves.len());
    let start = Instant::now();
    let mut search = leaf_search();
    let mut differ = Vec::new();
    for i in 0..n {
        let e = leaves[i * leaves.len() / n];
        // The entry's own position (its normal form): the book's move is the search's as is.
        let state = e.position(ply_core::Seat::FIRST);
        let depth = u32::from(e.depth);
        let (score, mv) = search(&state, depth);
        let found = old.lookup(&state).expect("the entry's own position");
        if book::book_value(score) != found.value || mv != found.mv {
            let show =
                |m: Option<ply_games::reversi::Place>| m.map_or("none".into(), |m| m.to_string());
            differ.push(format!(
                "{state}: the book has {} {:+.2}, a depth-{depth} search {} {:+.2}",
                show(found.mv),
                f64::from(found.value) / 100.0,
                show(mv),
                f64::from(book::book_value(score)) / 100.0,
            ));
        }
    }
    if !differ.is_empty() {
        return Err(bad_input!(
            "{} of {n} leaves searched again differ from the book, so this build's evaluation did not make it; rebuild it with `ply book build othello`:\n  {}",
            differ.len(),
            differ.join("\n  ")
        ));
    }
    let new = Book::new(old.entries().to_vec(), book::Labels::compiled(depth))
        .map_err(|e| bad_input!("{}: {e}", path.display()))?;
    let out = new.to_bytes();
    std::fs::write(&args.out, &out)
        .with_context(|| format!("writing the book to {}", args.out.display()))?;
    outln!(
        "{n} of {} leaves searched again to their depth (at most {depth}) in {:.1} s, all as the book says: {} positions, {} bytes, evaluation {:016x}: {}",
        leaves.len(),
        start.elapsed().as_secs_f64(),
        new.len(),
        out.len(),
        new.labels().evaluation,
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}
