//! Facts about the shared vocabulary.

use ply_core::{Outcome, Score, Seat};

#[test]
fn seats_count_from_one_for_people() {
    assert_eq!(Seat::from_number(0), None);
    assert_eq!(Seat::from_number(1), Some(Seat::FIRST));
    assert_eq!(Seat::SECOND.number(), 2);
    assert_eq!(Seat::new(3).next(4), Seat::FIRST);
    assert_eq!(
        Seat::all(3).map(Seat::number).collect::<Vec<_>>(),
        [1, 2, 3]
    );
}

#[test]
fn ranking_payoffs_share_ties() {
    // Four seats: seat 0 first, seats 1 and 2 tied second, seat 3 last.
    let o = Outcome::Ranking(vec![0, 1, 1, 2]);
    assert_eq!(o.payoff(Seat::new(0), 4), 1.0);
    assert_eq!(o.payoff(Seat::new(1), 4), 0.5);
    assert_eq!(o.payoff(Seat::new(3), 4), 0.0);
    assert_eq!(o.winner(), Some(Seat::FIRST));
    assert_eq!(Outcome::Ranking(vec![0, 0]).winner(), None);
    // Payoffs of all seats add up to what a draw would give.
    let total: f64 = (0..4).map(|i| o.payoff(Seat::new(i), 4)).sum();
    assert_eq!(total, 2.0);
}

#[test]
fn mate_scores_order_by_distance_and_survive_the_table() {
    assert!(Score::win_in(2) > Score::win_in(4));
    assert!(Score::win_in(40) > Score(500_000));
    assert!(Score::loss_in(9) > Score::loss_in(1));
    assert!(!Score(12_345).is_proven());
    for ply in [0, 3, 17] {
        for s in [Score::win_in(25), Score::loss_in(25), Score(77)] {
            assert_eq!(s.to_node(ply).from_node(ply), s);
        }
    }
    // A win in 5 from the root, seen from a node 3 plies deep, is a win in 2 from there.
    assert_eq!(Score::win_in(5).to_node(3), Score::win_in(2));
    assert_eq!(Score::win_in(3).to_string(), "win in 3");
    assert_eq!(Score::loss_in(2).to_string(), "loss in 2");
}
