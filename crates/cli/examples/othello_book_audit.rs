//! Which moves of a ladder's games the Othello book answers, and how they compare with the
//! bot's own search and a deeper one (docs/strength.md, session 36). Untimed: the bot's 1 s
//! search is stood for by a fixed depth (`--bot-depth`), so the games are those of a
//! fixed-depth bot, the openings exactly the ladder's.
//!
//! ```text
//! cargo run --release -p ply-cli --example othello_book_audit -- SEED:PAIRS... \
//!     [--bot-depth 14] [--deep 18] [--book-file FILE]
//! ```
//! For each pair's opening (`ply ladder othello --seed SEED --opening-plies 4`) and each
//! colour of the book side, it plays the game on until the book no longer answers, printing
//! every book answer: the ply, the book's move and value (and whether it is a leaf), the
//! fixed-depth bot's move, and where they differ the deep search's value of each (the child
//! searched a ply less, on the actual board).
//!
//! ```text
//! othello_book_audit --offsets --book-file FILE [--horizon PLIES]
//! ```
//! For every expanded position of 5 plies or more, its book value against a direct search
//! of it to the book's leaf depth (or to `PLIES` plies from the start): how far expanding a
//! position moves its value. It reads the entries raw, so a book of session 35 (whose leaves
//! stop at different plies, refused by `Book::from_bytes` now) is read too.

use ply_core::{Budget, Game, Score, Seat};
use ply_games::reversi::book::{self, Book};
use ply_games::reversi::{CornersFirst, IndexedOthello, Othello, OthelloEval, Place};
use ply_search::{AlphaBeta, Config};

fn searcher() -> AlphaBeta<IndexedOthello, OthelloEval, CornersFirst> {
    AlphaBeta::with(
        OthelloEval::Pattern,
        CornersFirst,
        Config {
            tt_bytes: 16 << 20,
            probcut: true,
            ..Config::default()
        },
    )
}

fn search(
    s: &mut AlphaBeta<IndexedOthello, OthelloEval, CornersFirst>,
    state: &Othello,
    depth: u32,
) -> (Score, Option<Place>) {
    s.clear();
    let r = s.search(&IndexedOthello::from(*state), Budget::depth(depth));
    (r.score, r.best)
}

/// The deep value of `mv` in `state` for the side to move: the child searched `deep - 1`.
fn value_of_move(
    s: &mut AlphaBeta<IndexedOthello, OthelloEval, CornersFirst>,
    state: &Othello,
    mv: Place,
    deep: u32,
) -> i32 {
    let mut c = *state;
    c.play_unchecked(mv);
    -search(s, &c, deep - 1).0.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut runs = Vec::new();
    let mut bot_depth = 14;
    let mut deep = 18;
    let mut file = None;
    let mut offsets = false;
    let mut horizon = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--bot-depth" => {
                bot_depth = args[i + 1].parse().expect("--bot-depth N");
                i += 1;
            }
            "--deep" => {
                deep = args[i + 1].parse().expect("--deep N");
                i += 1;
            }
            "--offsets" => offsets = true,
            "--horizon" => {
                horizon = Some(args[i + 1].parse::<u32>().expect("--horizon PLIES"));
                i += 1;
            }
            "--book-file" => {
                file = Some(args[i + 1].clone());
                i += 1;
            }
            run => {
                let (seed, pairs) = run.split_once(':').expect("SEED:PAIRS");
                runs.push((
                    seed.parse::<u64>().expect("a seed"),
                    pairs.parse::<u32>().expect("pairs"),
                ));
            }
        }
        i += 1;
    }
    if offsets {
        // Raw entries: a book of session 35 (leaves of mixed horizons) no longer reads.
        let bytes = std::fs::read(file.expect("--offsets needs --book-file")).expect("the book");
        let depth = u32::from_le_bytes(bytes[16..20].try_into().unwrap());
        let entries: Vec<book::Entry> = bytes[24..bytes.len() - 8]
            .chunks_exact(20)
            .map(|c| book::Entry {
                own: u64::from_le_bytes(c[0..8].try_into().unwrap()),
                opp: u64::from_le_bytes(c[8..16].try_into().unwrap()),
                value: i16::from_le_bytes([c[16], c[17]]),
                mv: c[18],
                depth: c[19],
            })
            .collect();
        print_offsets(&entries, depth, horizon, &mut searcher());
        return;
    }
    let own;
    let book: &Book = match file {
        None => book::committed(),
        Some(f) => {
            own = Book::from_bytes(&std::fs::read(&f).expect("the book file")).expect("a book");
            &own
        }
    };
    let mut s = searcher();
    let (mut answers, mut differ, mut loss_sum) = (0u32, 0u32, 0i64);
    println!(
        "seed\tpair\tbook_seat\tply\tposition\tbook_move\tbook_value\tbook_depth\tbot_move\tbot_value\tdeep_book\tdeep_bot\tloss"
    );
    for (seed, pairs) in runs {
        let match_seed = ply_arena::game_seed(seed, 2, 0);
        for pair in 0..pairs {
            let opening =
                ply_arena::random_opening::<Othello>(ply_arena::game_seed(match_seed, 1, pair), 4);
            for book_seat in [Seat::FIRST, Seat::SECOND] {
                let mut state = Othello::start();
                for &m in &opening {
                    state.play_unchecked(m);
                }
                let mut ply = opening.len();
                let mut misses = 0;
                while !state.is_terminal() && misses == 0 && ply < 12 {
                    let (bot_score, bot_mv) = search(&mut s, &state, bot_depth);
                    let bot_mv = bot_mv.expect("a move");
                    let mv = if state.to_move() == book_seat {
                        match book.lookup(&state) {
                            Some(found) => {
                                misses = 0;
                                answers += 1;
                                let bm = found.mv.expect("a move");
                                let (db, dt, loss) = if bm == bot_mv {
                                    (String::new(), String::new(), 0)
                                } else {
                                    differ += 1;
                                    let a = value_of_move(&mut s, &state, bm, deep);
                                    let b = value_of_move(&mut s, &state, bot_mv, deep);
                                    loss_sum += i64::from(b - a);
                                    (a.to_string(), b.to_string(), b - a)
                                };
                                println!(
                                    "{seed}\t{pair}\t{book_seat}\t{ply}\t{state}\t{bm}\t{}\t{}\t{bot_mv}\t{}\t{db}\t{dt}\t{loss}",
                                    found.value, found.depth, bot_score.0
                                );
                                bm
                            }
                            None => {
                                misses += 1;
                                bot_mv
                            }
                        }
                    } else {
                        bot_mv
                    };
                    state.play_unchecked(mv);
                    ply += 1;
                }
            }
        }
    }
    println!(
        "# {answers} book answers, {differ} differ from the depth-{bot_depth} bot; summed deep-{deep} loss of the book's move against the bot's: {loss_sum} (1/100 disc)"
    );
}

/// For every expanded position past the fully expanded plies (its value the negamax of its
/// children's), its value against a direct search of it to the book's leaf depth, or with
/// `horizon` to that many plies from the start: how far a position's value moves when it is
/// expanded, by its plies from the start.
fn print_offsets(
    entries: &[book::Entry],
    depth: u32,
    horizon: Option<u32>,
    s: &mut AlphaBeta<IndexedOthello, OthelloEval, CornersFirst>,
) {
    let mut by_plies: std::collections::BTreeMap<u32, Vec<i32>> = Default::default();
    println!("plies\tposition\tbook_value\tdirect (depth {depth}, horizon {horizon:?})\toffset");
    for e in entries.iter().filter(|e| e.is_expanded()) {
        let plies = book::plies(e.own, e.opp);
        if plies < 5 {
            continue;
        }
        let state = e.position(Seat::FIRST);
        let direct = search(s, &state, horizon.map_or(depth, |h| h - plies)).0.0;
        let offset = i32::from(e.value) - direct;
        println!("{plies}\t{state}\t{}\t{direct}\t{offset}", e.value);
        by_plies.entry(plies).or_default().push(offset);
    }
    for (plies, v) in by_plies {
        let n = v.len() as f64;
        let mean = v.iter().map(|&x| f64::from(x)).sum::<f64>() / n;
        let sd = (v
            .iter()
            .map(|&x| (f64::from(x) - mean).powi(2))
            .sum::<f64>()
            / (n - 1.0))
            .sqrt();
        let up = v.iter().filter(|&&x| x > 0).count();
        println!(
            "# {plies} plies: {} expanded positions, value - direct search: mean {mean:+.0}, sd {sd:.0}, {up} above (1/100 disc)",
            v.len()
        );
    }
}
