//! What the front ends read besides the standings: the list of tournaments, the rating after
//! every round, and the results between each pair of bots (`ply serve` draws all three).

use std::sync::Arc;
use std::time::Duration;

use ply_arena::{Entrant, Format, TournamentPlan, head_to_head, rating_history, run_tournament};
use ply_referee::process::MemoryGuard;
use ply_referee::{Limits, Sandbox};
use ply_store::{SqliteStore, Store};

fn plan(seed: u64) -> TournamentPlan {
    let bot = |name: &str, spec: &str| Entrant {
        name: name.into(),
        spec: spec.parse().unwrap(),
    };
    TournamentPlan {
        game: "tictactoe".into(),
        bots: vec![
            bot("rand", "builtin:random"),
            bot("ab", "builtin:alphabeta:depth=2"),
            bot("greedy", "builtin:greedy"),
        ],
        rounds: 3,
        format: Format::RoundRobin,
        seed,
        limits: Limits {
            time: Duration::from_secs(1),
            memory: 256 << 20,
            output: 64 << 10,
            cpus: 1,
        },
        concurrency: 1,
        new: false,
    }
}

#[test]
fn history_ends_at_the_standings_and_head_to_head_adds_up() {
    let mut store = SqliteStore::in_memory().unwrap();
    assert!(store.tournaments(10).unwrap().is_empty());
    let sandbox = Arc::new(Sandbox::with_guard(MemoryGuard::Rlimit));
    let first = run_tournament(&mut store, &plan(1), &sandbox, |_| {}).unwrap();
    let second = run_tournament(&mut store, &plan(2), &sandbox, |_| {}).unwrap();

    let listed: Vec<i64> = store
        .tournaments(10)
        .unwrap()
        .iter()
        .map(|t| t.id)
        .collect();
    assert_eq!(listed, vec![second.tournament.id, first.tournament.id]);
    assert_eq!(store.tournaments(1).unwrap().len(), 1);

    let games = store.games(first.tournament.id).unwrap();
    let history = rating_history(&games, 3, 3);
    assert_eq!(history.len(), 3);
    let last = &history[2];
    for s in &first.standings {
        let i = first
            .tournament
            .config
            .bots
            .iter()
            .position(|b| b.name == s.bot)
            .unwrap();
        assert!((last[i].rating - s.rating.rating).abs() < 1e-9, "{}", s.bot);
        assert!((last[i].deviation - s.rating.deviation).abs() < 1e-9);
    }

    let table = head_to_head(&games, 3);
    for (a, row) in table.iter().enumerate() {
        assert_eq!(row[a].1, 0);
        for (b, &(points, games)) in row.iter().enumerate().filter(|&(b, _)| b != a) {
            // Each pair plays twice a round, once moving first.
            assert_eq!(games, 6);
            assert!((points + table[b][a].0 - 6.0).abs() < 1e-9);
        }
    }
}
