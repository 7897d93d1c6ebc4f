//! Seats: who sits at the table.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A seat at the table, counted from 0 internally and shown from 1 ("player 1"), as every
/// contest ply speaks to numbers its players from 1.
///
/// ```
/// use ply_core::Seat;
/// assert_eq!(Seat::FIRST.to_string(), "player 1");
/// assert_eq!(Seat::new(1).next(2), Seat::FIRST);
/// assert_eq!(Seat::from_number(2), Some(Seat::new(1)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(u8);

impl Seat {
    /// The seat that moves first.
    pub const FIRST: Seat = Seat(0);
    /// The second seat.
    pub const SECOND: Seat = Seat(1);

    /// The seat with 0-based index `index`.
    pub const fn new(index: u8) -> Seat {
        Seat(index)
    }

    /// The seat a contest calls "player `number`" (1-based); `None` for 0.
    pub fn from_number(number: u32) -> Option<Seat> {
        number
            .checked_sub(1)
            .and_then(|i| u8::try_from(i).ok())
            .map(Seat)
    }

    /// The 0-based index, for indexing arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The 1-based number contests use.
    pub const fn number(self) -> u32 {
        self.0 as u32 + 1
    }

    /// The seat after this one in a game of `seats` seats.
    pub const fn next(self, seats: usize) -> Seat {
        Seat(((self.0 as usize + 1) % seats) as u8)
    }

    /// Every seat of a game with `seats` seats, in order.
    pub fn all(seats: usize) -> impl Iterator<Item = Seat> {
        (0..seats).map(|i| Seat(i as u8))
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.number())
    }
}
