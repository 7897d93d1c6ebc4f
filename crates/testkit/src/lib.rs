//! ply's shared test kit (not published).
//!
//! * [`conformance!`]: the suite every game runs, seeded random playouts that check the
//!   contracts of [`Game`] at every position ([`check_playouts`]).
//! * [`run_perft_file`]: perft figures from a data file (`perft <depth> <nodes>` lines);
//!   every game's files live in one folder, [`game_data`].
//! * [`PlainRules`], [`plain_perft`], [`check_against_plain`]: a game's obviously correct
//!   generator, written in its tests, checked against the fast one on random positions and
//!   by perft; the loop is written here once, each game writes only its plain rules.
//! * [`assert_playthrough`]: a seeded random game written out move by move and compared
//!   with the game's golden playthrough file.
//! * [`assert_golden`]: compare output with a file kept in the repository; set
//!   `PLY_UPDATE_GOLDEN=1` to rewrite the files after a deliberate change.
//! * [`playthrough`]: a game recorded move by move, for golden files.
//! * [`shared_data`]: the path of a file under `../shared/data`, or `None` (tests then skip).
//! * [`postgres::Cluster`]: a throwaway PostgreSQL server for the store's and the workers'
//!   tests.
//! * [`procs::marked`]: the live processes that carry a test's marker, to prove that
//!   nothing of a bot outlived it.

pub mod postgres;
pub mod procs;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_core::Game;

/// Expands to a `#[test]` that runs [`check_playouts`] on the game's start position.
///
/// ```ignore
/// ply_testkit::conformance!(ply_games::tictactoe::TicTacToe, games = 300);
/// ```
#[macro_export]
macro_rules! conformance {
    ($game:ty) => {
        $crate::conformance!($game, games = 200);
    };
    ($game:ty, games = $n:expr) => {
        #[test]
        fn conformance_random_playouts() {
            $crate::check_playouts::<$game>(&<$game as ply_core::Game>::start(), $n, 0x5EED);
        }
    };
}

/// Plays `games` seeded random games from `start` and checks, at every position:
/// * legal moves are sorted ascending and unique;
/// * no legal moves exactly when there is an outcome;
/// * every legal move is accepted by `play`, which then equals `play_unchecked`;
/// * moves legal elsewhere but not here are refused by `play`, leaving the state unchanged;
/// * every move's text parses back to the move;
/// * the one-line text has no newline and parses back to an equal state with an equal key;
/// * a clone is equal and has the same key;
/// * the game ends within `max_plies`.
///
/// # Panics
/// On the first broken contract, with the position, the move and the seed.
pub fn check_playouts<G: Game>(start: &G, games: usize, seed: u64) {
    let info = G::info();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pool: Vec<G::Move> = Vec::new();
    let mut pooled: HashSet<G::Move> = HashSet::new();
    let mut moves = Vec::new();
    for game in 0..games {
        let mut state = start.clone();
        let mut plies = 0u32;
        loop {
            let ctx = || {
                format!(
                    "{} game {game} (seed {seed}) ply {plies} at `{state}`",
                    info.name
                )
            };
            let text = state.to_string();
            assert!(!text.contains('\n'), "{}: text form has a newline", ctx());
            let parsed: G = text
                .parse()
                .unwrap_or_else(|e| panic!("{}: text does not parse back: {e}", ctx()));
            assert_eq!(
                parsed,
                state,
                "{}: text round trip changed the state",
                ctx()
            );
            assert_eq!(
                parsed.key(),
                state.key(),
                "{}: equal states, different keys",
                ctx()
            );
            let copy = state.clone();
            assert_eq!(copy, state, "{}: clone differs", ctx());

            state.legal_moves(&mut moves);
            assert!(
                moves.windows(2).all(|w| w[0] < w[1]),
                "{}: legal moves not sorted and unique: {moves:?}",
                ctx()
            );
            let outcome = state.outcome();
            assert_eq!(
                moves.is_empty(),
                outcome.is_some(),
                "{}: moves {moves:?} but outcome {outcome:?}",
                ctx()
            );
            for &mv in &moves {
                let parsed = state
                    .parse_move(&mv.to_string())
                    .unwrap_or_else(|e| panic!("{}: move {mv} does not parse back: {e}", ctx()));
                assert_eq!(parsed, mv, "{}: move text round trip", ctx());
                if pooled.insert(mv) {
                    pool.push(mv);
                }
            }
            // A sample of moves legal elsewhere but not here must be refused.
            for _ in 0..pool.len().min(8) {
                let mv = pool[rng.random_range(0..pool.len())];
                if moves.binary_search(&mv).is_err() {
                    let mut s = state.clone();
                    assert!(s.play(mv).is_err(), "{}: play accepted illegal {mv}", ctx());
                    assert_eq!(s, state, "{}: refused {mv} changed the state", ctx());
                }
            }
            if outcome.is_some() {
                break;
            }
            assert!(
                plies < info.max_plies,
                "{}: longer than max_plies {}",
                ctx(),
                info.max_plies
            );
            let mv = moves[rng.random_range(0..moves.len())];
            let mut checked = state.clone();
            checked
                .play(mv)
                .unwrap_or_else(|e| panic!("{}: play refused legal {mv}: {e}", ctx()));
            let mut fast = state.clone();
            fast.play_unchecked(mv);
            assert_eq!(
                checked,
                fast,
                "{}: play and play_unchecked differ on {mv}",
                ctx()
            );
            state = fast;
            plies += 1;
        }
    }
}

/// Checks every `perft <depth> <nodes>` line of `path` from the position given by the
/// nearest `position <text>` line above it (the start position when there is none), skipping
/// lines whose node count exceeds `max_nodes` (for the debug-profile test run). Lines starting
/// with `#` are comments. Returns how many figures were checked.
///
/// # Panics
/// On a malformed line or a wrong count, naming the file and line.
pub fn run_perft_file<G: Game>(path: impl AsRef<Path>, max_nodes: u64) -> usize {
    let path = path.as_ref();
    let text =
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let mut state = G::start();
    let mut checked = 0;
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), i + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(rest) = line.strip_prefix("position ") {
            state = rest
                .parse()
                .unwrap_or_else(|e| panic!("{}: bad position: {e}", at()));
        } else if line == "start" {
            state = G::start();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let nums: Vec<u64> = rest
                .split_whitespace()
                .map(|t| {
                    t.parse()
                        .unwrap_or_else(|_| panic!("{}: not a number: {t}", at()))
                })
                .collect();
            let [depth, nodes] = nums[..] else {
                panic!("{}: expected `perft <depth> <nodes>`", at());
            };
            if nodes > max_nodes {
                continue;
            }
            let got = ply_search::perft(&state, depth as u32);
            assert_eq!(got, nodes, "{}: perft {depth} from `{state}`", at());
            checked += 1;
        } else {
            panic!("{}: expected `position`, `start`, `perft` or `#`", at());
        }
    }
    checked
}

/// The folder of every game's data files: perft figures (`<game>.perft`) and golden
/// playthroughs (`<game>.playthrough`).
pub fn game_data(file: &str) -> PathBuf {
    workspace_root().join("crates/games/data").join(file)
}

/// A game's plain reference rules, written the obvious way in its tests (coordinates,
/// grids, recursion on copies) to check the fast generator against.
pub trait PlainRules: Game {
    /// What is compared after a move: the whole state, or a projection of it (a grid) when
    /// the plain rules do not build whole states.
    type After: PartialEq + std::fmt::Debug;

    /// Every legal move, in the game's sorted order, with what the position is after it.
    fn plain_moves(&self) -> Vec<(Self::Move, Self::After)>;

    /// The projection of this state that [`PlainRules::plain_moves`] predicts.
    fn after(&self) -> Self::After;
}

/// Perft counted with the plain generator (moves applied with `play_unchecked`, whose
/// results [`check_against_plain`] checks).
pub fn plain_perft<G: PlainRules>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    state
        .plain_moves()
        .into_iter()
        .map(|(mv, _)| {
            let mut next = state.clone();
            next.play_unchecked(mv);
            plain_perft(&next, depth - 1)
        })
        .sum()
}

/// Plays `games` seeded random games, each from `start(game, rng)` (the start position, or
/// a scattered random board that reaches what the start rarely does), and checks at every
/// position that the fast legal moves equal the plain ones, in order, and that each fast
/// successor equals the plain one. `visit` sees every position and its moves (to count
/// what a game's test wants reached). Returns the number of positions checked.
///
/// # Panics
/// On the first difference, with the position and the move.
pub fn check_against_plain<G: PlainRules>(
    games: usize,
    seed: u64,
    mut start: impl FnMut(usize, &mut ChaCha8Rng) -> G,
    mut visit: impl FnMut(&G, &[G::Move]),
) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut positions = 0;
    for game in 0..games {
        let mut state = start(game, &mut rng);
        loop {
            state.legal_moves(&mut moves);
            let plain = state.plain_moves();
            let plain_list: Vec<G::Move> = plain.iter().map(|(m, _)| *m).collect();
            assert_eq!(moves, plain_list, "legal moves of `{state}` (seed {seed})");
            for (mv, expected) in &plain {
                let mut fast = state.clone();
                fast.play_unchecked(*mv);
                assert_eq!(
                    &fast.after(),
                    expected,
                    "after [{mv}] in `{state}` (seed {seed})"
                );
            }
            visit(&state, &moves);
            positions += 1;
            if moves.is_empty() {
                break;
            }
            state.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
    }
    positions
}

/// Checks the perft file [`game_data`]`(file)` (figures up to `max_nodes`, at least
/// `min_checked` of them) and that the plain generator gives the same counts as the fast
/// one from the start position up to `plain_depth`.
///
/// # Panics
/// On a wrong figure, or when fewer than `min_checked` were checked.
pub fn check_perft<G: PlainRules>(
    file: &str,
    max_nodes: u64,
    min_checked: usize,
    plain_depth: u32,
) {
    let checked = run_perft_file::<G>(game_data(file), max_nodes);
    assert!(
        checked >= min_checked,
        "{file}: only {checked} figures checked"
    );
    for d in 1..=plain_depth {
        assert_eq!(
            plain_perft(&G::start(), d),
            ply_search::perft(&G::start(), d),
            "{file}: plain and fast perft {d}"
        );
    }
}

/// Compares a seeded random game ([`playthrough`]) with the golden file
/// [`game_data`]`("<name>.playthrough")`, where `<name>` is the game's name.
///
/// # Panics
/// When they differ (`PLY_UPDATE_GOLDEN=1` rewrites the file after a deliberate change).
pub fn assert_playthrough<G: Game>(seed: u64) {
    let file = format!("{}.playthrough", G::info().name);
    assert_golden(game_data(&file), &playthrough(&G::start(), seed));
}

/// Compares `actual` with the golden file at `path`; with `PLY_UPDATE_GOLDEN=1` in the
/// environment, writes it instead.
///
/// # Panics
/// When they differ, showing the first differing line.
pub fn assert_golden(path: impl AsRef<Path>, actual: &str) {
    let path = path.as_ref();
    if std::env::var_os("PLY_UPDATE_GOLDEN").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("creating golden directory");
        }
        std::fs::write(path, actual).expect("writing golden file");
        return;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "golden file {} unreadable ({e}); run with PLY_UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "output differs from {} at line {}:\nexpected: {:?}\nactual:   {:?}\n(PLY_UPDATE_GOLDEN=1 rewrites it after a deliberate change)",
            path.display(),
            line + 1,
            expected.lines().nth(line),
            actual.lines().nth(line)
        );
    }
}

/// A seeded random game recorded move by move: each ply's position, its legal moves and
/// the move played, then the outcome. For golden "playthrough" files.
pub fn playthrough<G: Game>(start: &G, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = start.clone();
    let mut out = String::new();
    let mut moves = Vec::new();
    let _ = writeln!(out, "game {}\nseed {seed}", G::info().name);
    loop {
        state.legal_moves(&mut moves);
        let _ = writeln!(out, "\nposition {state}");
        let listed: Vec<String> = moves.iter().map(|m| format!("[{m}]")).collect();
        let _ = writeln!(out, "legal {}", listed.join(" "));
        if let Some(o) = state.outcome() {
            let _ = writeln!(out, "outcome {o}");
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let _ = writeln!(out, "{} plays [{mv}]", state.to_move());
        state.play_unchecked(mv);
    }
    out
}

/// The path of `rel` under the shared reference data (`../shared/data` from the workspace
/// root), or `None` when it is absent, as in a user's fresh clone. Tests that get `None`
/// print why and return early.
pub fn shared_data(rel: &str) -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let p = root.join("shared/data").join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "skipping: {} is absent (reference data lives in ../shared/data)",
            p.display()
        );
        None
    }
}

/// The workspace root, for tests that read the project's own fixtures.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The Ants case folders (those with a `scenario.map`) under `root`, sorted.
pub fn ants_cases_in(root: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("reading {}: {e}", root.display()))
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.join("scenario.map").exists())
        .collect();
    v.sort();
    v
}

/// The cases made with the original Ants engine (`../shared/ants-conformance/cases`), or
/// `None`, with a message saying why, when they are absent, as in a user's fresh clone.
pub fn ants_conformance_cases() -> Option<Vec<PathBuf>> {
    ants_conformance_cases_in("cases")
}

/// The normal games with food on made with the original Ants engine
/// (`../shared/ants-conformance/cases-random`), or `None` with a message when absent.
pub fn ants_conformance_random_cases() -> Option<Vec<PathBuf>> {
    ants_conformance_cases_in("cases-random")
}

fn ants_conformance_cases_in(folder: &str) -> Option<Vec<PathBuf>> {
    let root = workspace_root()
        .join("../shared/ants-conformance")
        .join(folder);
    if !root.exists() {
        eprintln!("skipping: {} is absent", root.display());
        return None;
    }
    let cases = ants_cases_in(&root);
    assert!(!cases.is_empty(), "no cases in {}", root.display());
    Some(cases)
}

/// The `replaydata` fields an Ants replay must share with the original engine's, beyond
/// `extra` (the in-process driver does not know the bots' time limits; the live one does).
const ANTS_REPLAY_KEYS: &[&str] = &[
    "revision",
    "players",
    "turns",
    "viewradius2",
    "attackradius2",
    "spawnradius2",
    "player_seed",
    "engine_seed",
    "map",
    "ants",
    "food",
    "hills",
    "scores",
    "bonus",
    "hive_history",
    "winning_turn",
    "ranking_turn",
    "cutoff",
];

/// Asserts that two Ants replays (whole stored games) agree on every compared
/// `replaydata` field and on `extra`, naming the case and the field that differs.
pub fn assert_ants_replays_agree(
    got: &serde_json::Value,
    want: &serde_json::Value,
    case: &str,
    extra: &[&str],
) {
    let (g, w) = (&got["replaydata"], &want["replaydata"]);
    for key in ANTS_REPLAY_KEYS.iter().chain(extra) {
        assert_eq!(g[key], w[key], "{case}: replaydata.{key}");
    }
}
