//! Perft and search speed of the HackerEarth games.
//!
//! `cargo bench -p ply-games --bench games`; leaves or nodes per second are the counts
//! printed before each group divided by criterion's time per iteration. Figures go in
//! docs/benchmarks.md.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};

use ply_core::{Budget, Game};
use ply_games::Heuristics;
use ply_games::draughts::Draughts;
use ply_games::reversi::{Eight, Othello, Reversi10, perft_bits};
use ply_games::taunt::Taunt;
use ply_search::{AlphaBeta, Config, Deepening, perft};

fn perft_benches(c: &mut Criterion) {
    let (own, opp) = Othello::start().sides();
    eprintln!(
        "othello bitboard perft 8: {} leaves",
        perft_bits::<Eight>(own, opp, 8)
    );
    let mut g = c.benchmark_group("perft");
    g.sample_size(10);
    g.bench_function("othello_bitboard_8", |b| {
        b.iter(|| perft_bits::<Eight>(black_box(own), black_box(opp), 8))
    });
    g.bench_function("othello_generic_7", |b| {
        b.iter(|| perft(black_box(&Othello::start()), 7))
    });
    g.bench_function("reversi10_generic_7", |b| {
        b.iter(|| perft(black_box(&Reversi10::start()), 7))
    });
    g.bench_function("draughts_generic_7", |b| {
        b.iter(|| perft(black_box(&Draughts::start()), 7))
    });
    g.bench_function("taunt_generic_6", |b| {
        b.iter(|| perft(black_box(&Taunt::start()), 6))
    });
    g.finish();
}

fn search_fixed<G: Heuristics>(state: &G, depth: u32) -> u64 {
    let config = Config {
        deepening: Deepening::Fixed,
        ..Config::default()
    };
    let mut s =
        AlphaBeta::<G::Searched, _, _>::with(G::Eval::default(), G::Ordering::default(), config);
    s.search(&G::Searched::from(state.clone()), Budget::depth(depth))
        .nodes
}

fn search_benches(c: &mut Criterion) {
    eprintln!(
        "search nodes: othello d8 {}, reversi d7 {}, draughts d10 {}, taunt d7 {}",
        search_fixed(&Othello::start(), 8),
        search_fixed(&Reversi10::start(), 7),
        search_fixed(&Draughts::start(), 10),
        search_fixed(&Taunt::start(), 7)
    );
    let mut g = c.benchmark_group("alphabeta");
    g.sample_size(10);
    g.bench_function("othello_depth_8", |b| {
        b.iter(|| search_fixed(black_box(&Othello::start()), 8))
    });
    g.bench_function("reversi10_depth_7", |b| {
        b.iter(|| search_fixed(black_box(&Reversi10::start()), 7))
    });
    g.bench_function("draughts_depth_10", |b| {
        b.iter(|| search_fixed(black_box(&Draughts::start()), 10))
    });
    g.bench_function("taunt_depth_7", |b| {
        b.iter(|| search_fixed(black_box(&Taunt::start()), 7))
    });
    g.finish();
}

criterion_group!(benches, perft_benches, search_benches);
criterion_main!(benches);
