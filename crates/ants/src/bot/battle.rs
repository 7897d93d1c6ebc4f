//! The engine's focus rule as a bot can simulate it over candidate moves.
//!
//! The phalanx's battle search scores every candidate position by it; a differential test
//! (`battle_simulation_predicts_the_engines_deaths`) holds it to the engine's own combat
//! resolution. The boundary: positions and owners in, deaths out; no water, no moves.

use super::super::geometry::Torus;
use super::super::map::Loc;

/// Which of `ants` (square, owner) die by the engine's focus rule when they stand as given:
/// an ant dies if some enemy within `attackradius2` has no more enemies in range than it
/// has. Ants on one square (a collision) are not handled here.
pub(super) fn focus_deaths(t: Torus, attackradius2: usize, ants: &[(Loc, u8)]) -> Vec<bool> {
    let n = ants.len();
    let fights = |i: usize, j: usize| {
        ants[i].1 != ants[j].1 && t.distance(ants[i].0, ants[j].0) <= attackradius2
    };
    let weakness: Vec<usize> = (0..n)
        .map(|i| (0..n).filter(|&j| fights(i, j)).count())
        .collect();
    (0..n)
        .map(|i| weakness[i] > 0 && (0..n).any(|j| fights(i, j) && weakness[j] <= weakness[i]))
        .collect()
}
