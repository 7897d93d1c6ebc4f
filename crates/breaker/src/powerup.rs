//! Power-ups: what falls from a broken brick, what each does, and for how long.
//!
//! | kind | letter | effect | steps (at 60 a second) |
//! |---|---|---|---|
//! | Wide | W | paddle 7 -> 11 columns | 1200 |
//! | Multi | M | every ball splits in three (at most 8 balls) | - |
//! | Slow | S | balls at 60% speed | 600 |
//! | Sticky | C | the ball sticks to the paddle; space (or 3 s) launches it | 900 |
//! | Life | L | one more life (at most 9) | - |
//! | Fireball | F | balls break breakable bricks without bouncing (ply's own) | 480 |
//! | Net | N | a net under the paddle returns one ball, then tears (ply's own) | 1800 |
//! | Shrink | - | paddle 7 -> 4 columns (a bad one) | 900 |
//! | Fast | ! | balls at 140% speed (a bad one) | 600 |
//!
//! Wide and Shrink replace each other, as do Slow and Fast. Catching one again restarts
//! its time. Losing a life ends every timed effect but the net.

/// A power-up (or power-down).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PowerUp {
    /// Wider paddle.
    Wide,
    /// Three balls for each.
    Multi,
    /// Slower balls.
    Slow,
    /// Balls stick to the paddle.
    Sticky,
    /// One more life.
    Life,
    /// Balls go through breakable bricks, breaking them.
    Fireball,
    /// A net that saves one ball.
    Net,
    /// Narrower paddle (bad).
    Shrink,
    /// Faster balls (bad).
    Fast,
}

impl PowerUp {
    /// Every kind, in a fixed order.
    pub const ALL: [PowerUp; 9] = [
        PowerUp::Wide,
        PowerUp::Multi,
        PowerUp::Slow,
        PowerUp::Sticky,
        PowerUp::Life,
        PowerUp::Fireball,
        PowerUp::Net,
        PowerUp::Shrink,
        PowerUp::Fast,
    ];

    /// How often each kind drops, out of the sum of these weights (100).
    pub fn weight(self) -> u32 {
        match self {
            PowerUp::Wide => 16,
            PowerUp::Multi => 14,
            PowerUp::Slow => 11,
            PowerUp::Sticky => 11,
            PowerUp::Life => 5,
            PowerUp::Fireball => 8,
            PowerUp::Net => 9,
            PowerUp::Shrink => 14,
            PowerUp::Fast => 12,
        }
    }

    /// How many steps its effect lasts (0: it acts once).
    pub fn duration(self) -> u32 {
        match self {
            PowerUp::Wide => 1200,
            PowerUp::Slow | PowerUp::Fast => 600,
            PowerUp::Sticky | PowerUp::Shrink => 900,
            PowerUp::Fireball => 480,
            PowerUp::Net => 1800,
            PowerUp::Multi | PowerUp::Life => 0,
        }
    }

    /// Whether a player wants it.
    pub fn is_good(self) -> bool {
        !matches!(self, PowerUp::Shrink | PowerUp::Fast)
    }

    /// The letter on its capsule.
    pub fn letter(self) -> char {
        match self {
            PowerUp::Wide => 'W',
            PowerUp::Multi => 'M',
            PowerUp::Slow => 'S',
            PowerUp::Sticky => 'C',
            PowerUp::Life => 'L',
            PowerUp::Fireball => 'F',
            PowerUp::Net => 'N',
            PowerUp::Shrink => '-',
            PowerUp::Fast => '!',
        }
    }

    /// Its name, for people.
    pub fn name(self) -> &'static str {
        match self {
            PowerUp::Wide => "wide",
            PowerUp::Multi => "multi-ball",
            PowerUp::Slow => "slow",
            PowerUp::Sticky => "sticky",
            PowerUp::Life => "extra life",
            PowerUp::Fireball => "fireball",
            PowerUp::Net => "net",
            PowerUp::Shrink => "shrink",
            PowerUp::Fast => "fast",
        }
    }

    /// The kind a random draw in `0..100` picks.
    pub fn from_draw(mut draw: u32) -> PowerUp {
        for p in PowerUp::ALL {
            if draw < p.weight() {
                return p;
            }
            draw -= p.weight();
        }
        PowerUp::Fast
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_100_and_every_kind_can_drop() {
        assert_eq!(PowerUp::ALL.iter().map(|p| p.weight()).sum::<u32>(), 100);
        let drawn: std::collections::BTreeSet<_> = (0..100).map(PowerUp::from_draw).collect();
        assert_eq!(drawn.len(), PowerUp::ALL.len());
    }
}
