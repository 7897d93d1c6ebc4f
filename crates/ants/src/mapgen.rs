//! A map generator: symmetric, connected maze maps in the original format.
//!
//! The map is cut into one tile per player (`tile_rows` x `tile_cols` tiles) and every tile
//! is the same maze, so the map has the translational symmetry the original's symmetric food
//! (`get_map_symmetry`, orientation 0) recognises, and every player's start looks alike. The
//! maze is carved on the tile as a torus by a randomised depth-first search over cells of
//! `corridor` land squares separated by one-square walls, then `openness` of the remaining
//! inner walls are knocked down to make loops. Land not connected to the hills is filled
//! with water, and the generator retries until every hill is reachable.

use std::collections::VecDeque;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::geometry::{Dir, Torus};
use super::map::AntsMap;

/// The generator's parameters.
#[derive(Clone, Debug, PartialEq)]
pub struct MapGenParams {
    /// Players, 2 to 10.
    pub players: usize,
    /// Rows of the whole map.
    pub rows: usize,
    /// Columns of the whole map.
    pub cols: usize,
    /// Width of corridors, in squares.
    pub corridor: usize,
    /// Fraction of walls knocked down after carving, 0 to 1.
    pub openness: f64,
    /// Hills per player.
    pub hills: usize,
}

impl Default for MapGenParams {
    fn default() -> Self {
        MapGenParams {
            players: 4,
            rows: 60,
            cols: 90,
            corridor: 2,
            openness: 0.15,
            hills: 1,
        }
    }
}

/// Why no map could be made.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot generate the map: {0}")]
pub struct GenerateMapError(String);

/// How the players' tiles are laid out: `(tile rows, tile columns)`.
fn layout(players: usize) -> (usize, usize) {
    match players {
        4 => (2, 2),
        6 => (2, 3),
        8 => (2, 4),
        9 => (3, 3),
        10 => (2, 5),
        n => (1, n),
    }
}

/// The largest number of rows or columns [`generate`] makes (the original's maps are at
/// most 200 on a side).
pub const MAX_MAP_SIDE: usize = 1000;

/// The most hills per player [`generate`] places.
pub const MAX_HILLS: usize = 9;

/// Generates a map.
///
/// # Errors
/// A [`GenerateMapError`] when the parameters cannot give a playable map: players outside
/// 2..=10, a map that does not divide into equal tiles of whole maze cells, or no connected
/// maze after many tries.
pub fn generate(p: &MapGenParams, seed: u64) -> Result<AntsMap, GenerateMapError> {
    if !(2..=10).contains(&p.players) {
        return Err(GenerateMapError(format!(
            "players must be 2 to 10, got {}",
            p.players
        )));
    }
    // Ranges first, so that nothing below overflows or allocates by an absurd number.
    if !(1..=MAX_MAP_SIDE).contains(&p.rows) || !(1..=MAX_MAP_SIDE).contains(&p.cols) {
        return Err(GenerateMapError(format!(
            "rows and cols go from 1 to {MAX_MAP_SIDE}, got {}x{}",
            p.rows, p.cols
        )));
    }
    if !(1..=MAX_MAP_SIDE / 4).contains(&p.corridor) {
        return Err(GenerateMapError(format!(
            "the corridor width goes from 1 to {}, got {}",
            MAX_MAP_SIDE / 4,
            p.corridor
        )));
    }
    if !(1..=MAX_HILLS).contains(&p.hills) {
        return Err(GenerateMapError(format!(
            "hills per player go from 1 to {MAX_HILLS}, got {}",
            p.hills
        )));
    }
    if !(0.0..=1.0).contains(&p.openness) {
        return Err(GenerateMapError(format!(
            "openness is a fraction from 0 to 1, got {}",
            p.openness
        )));
    }
    let (tr, tc) = layout(p.players);
    let cell = p.corridor + 1;
    if !p.rows.is_multiple_of(tr) || !p.cols.is_multiple_of(tc) {
        return Err(GenerateMapError(format!(
            "{} players need rows divisible by {tr} and cols by {tc}",
            p.players
        )));
    }
    let (h, w) = (p.rows / tr, p.cols / tc);
    if h % cell != 0 || w % cell != 0 || h / cell < 2 || w / cell < 2 {
        return Err(GenerateMapError(format!(
            "each player's tile is {h}x{w}: both must be multiples of corridor+1 = {cell}, \
             at least twice that"
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..100 {
        if let Some(m) = attempt(p, (tr, tc), (h, w), cell, &mut rng) {
            return Ok(m);
        }
    }
    Err(GenerateMapError(
        "no connected map after 100 tries; try more openness".into(),
    ))
}

fn attempt(
    p: &MapGenParams,
    (_, tc): (usize, usize),
    (h, w): (usize, usize),
    cell: usize,
    rng: &mut ChaCha8Rng,
) -> Option<AntsMap> {
    let (ch, cw) = (h / cell, w / cell);
    let tile = Torus { rows: h, cols: w };
    let mut water = vec![true; h * w];
    let open_cell = |water: &mut Vec<bool>, r: usize, c: usize| {
        for dr in 0..cell - 1 {
            for dc in 0..cell - 1 {
                water[tile.index((r * cell + dr, c * cell + dc))] = false;
            }
        }
    };
    // walls between cell (r, c) and its east / south neighbour, on the tile torus
    let open_wall = |water: &mut Vec<bool>, r: usize, c: usize, east: bool| {
        for k in 0..cell - 1 {
            let sq = if east {
                (r * cell + k, c * cell + cell - 1)
            } else {
                (r * cell + cell - 1, c * cell + k)
            };
            water[tile.index(sq)] = false;
        }
    };
    let mut visited = vec![false; ch * cw];
    let mut stack = vec![(0usize, 0usize)];
    visited[0] = true;
    open_cell(&mut water, 0, 0);
    while let Some(&(r, c)) = stack.last() {
        let mut nbs = [
            (r, (c + 1) % cw, true, r, c),
            (r, (c + cw - 1) % cw, true, r, (c + cw - 1) % cw),
            ((r + 1) % ch, c, false, r, c),
            ((r + ch - 1) % ch, c, false, (r + ch - 1) % ch, c),
        ];
        nbs.shuffle(rng);
        let next = nbs.into_iter().find(|&(nr, nc, ..)| !visited[nr * cw + nc]);
        match next {
            Some((nr, nc, east, wr, wc)) => {
                visited[nr * cw + nc] = true;
                open_cell(&mut water, nr, nc);
                open_wall(&mut water, wr, wc, east);
                stack.push((nr, nc));
            }
            None => {
                stack.pop();
            }
        }
    }
    for r in 0..ch {
        for c in 0..cw {
            for east in [true, false] {
                if rng.random_bool(p.openness.clamp(0.0, 1.0)) {
                    open_wall(&mut water, r, c, east);
                }
            }
        }
    }
    // wall corners: open a few for variety
    for r in 0..ch {
        for c in 0..cw {
            if rng.random_bool((p.openness / 2.0).clamp(0.0, 1.0)) {
                water[tile.index((r * cell + cell - 1, c * cell + cell - 1))] = false;
            }
        }
    }
    // hills: distinct cells of the tile
    let mut cells: Vec<(usize, usize)> =
        (0..ch).flat_map(|r| (0..cw).map(move |c| (r, c))).collect();
    cells.shuffle(rng);
    let hill_cells: Vec<(usize, usize)> = cells.into_iter().take(p.hills.max(1)).collect();
    let full = Torus {
        rows: p.rows,
        cols: p.cols,
    };
    let mut grid = vec![true; full.area()];
    for r in 0..p.rows {
        for c in 0..p.cols {
            grid[full.index((r, c))] = water[tile.index((r % h, c % w))];
        }
    }
    let mut hills = Vec::new();
    for player in 0..p.players {
        let (ti, tj) = (player / tc, player % tc);
        let locs: Vec<_> = hill_cells
            .iter()
            .map(|&(r, c)| (ti * h + r * cell, tj * w + c * cell))
            .collect();
        hills.push((player as u8, locs));
    }
    // keep only land connected to the first hill; every hill must be in it
    let start = hills[0].1[0];
    let mut reach = vec![false; full.area()];
    let mut q = VecDeque::from([start]);
    reach[full.index(start)] = true;
    while let Some(c) = q.pop_front() {
        for d in Dir::ALL {
            let n = full.step(c, d);
            let i = full.index(n);
            if !reach[i] && !grid[i] {
                reach[i] = true;
                q.push_back(n);
            }
        }
    }
    if hills
        .iter()
        .flat_map(|(_, l)| l)
        .any(|&l| !reach[full.index(l)])
    {
        return None;
    }
    let water_locs = (0..full.area())
        .filter(|&i| grid[i] || !reach[i])
        .map(|i| full.loc(i))
        .collect();
    Some(AntsMap {
        rows: p.rows,
        cols: p.cols,
        players: p.players,
        water: water_locs,
        food: Vec::new(),
        ants: Vec::new(),
        hills,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AntsGame, FoodMode, Settings};

    #[test]
    fn maps_are_connected_and_symmetric_for_the_original_food() {
        for players in [2, 3, 4, 6, 8, 9, 10] {
            let (tr, tc) = layout(players);
            let p = MapGenParams {
                players,
                rows: tr * 18,
                cols: tc * 18,
                ..MapGenParams::default()
            };
            let map = generate(&p, 7).unwrap();
            // the text form parses back to the same map
            let back = AntsMap::parse(&map.to_text()).unwrap();
            assert_eq!(back.to_text(), map.to_text());
            // symmetric food accepts it (get_map_symmetry finds an orientation set)
            let s = Settings {
                food: FoodMode::Symmetric,
                ..Settings::default()
            };
            assert!(AntsGame::new(&back, s).is_ok(), "{players} players");
        }
    }

    #[test]
    fn bad_sizes_are_refused() {
        let p = MapGenParams {
            rows: 31,
            ..MapGenParams::default()
        };
        assert!(generate(&p, 1).is_err());
        let p = MapGenParams {
            players: 11,
            ..MapGenParams::default()
        };
        assert!(generate(&p, 1).is_err());
    }
}
