//! What each bot is told: the setup block, per-turn visible changes with owners renumbered
//! for the bot, and the player-order of end-of-game lists.

use super::game::AntsGame;

/// One line of `get_state_changes`: kind (`h`, `a`, `f`, `d`), flat square, owner.
pub(crate) type Change = (u8, usize, u8);

fn push_num(out: &mut String, mut v: usize) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
    }
}

impl AntsGame {
    // ---- what bots see ----------------------------------------------------------------

    /// The setup block (`turn 0` ... `player_seed`), without the final `ready`.
    pub fn player_start(&self) -> String {
        let s = &self.settings;
        format!(
            "turn 0\nloadtime {}\nturntime {}\nrows {}\ncols {}\nturns {}\nviewradius2 {}\n\
             attackradius2 {}\nspawnradius2 {}\nplayer_seed {}\n",
            s.loadtime,
            s.turntime,
            self.torus.rows,
            self.torus.cols,
            s.turns,
            s.viewradius2,
            s.attackradius2,
            s.spawnradius2,
            s.player_seed
        )
    }

    /// What `player` is told about the state (the original `render_changes`): newly seen
    /// water, then visible hills, ants, food and dead ants (its own dead always), each
    /// sorted, owners renumbered for `player`. Renumbering may give a number to an owner
    /// first seen here, hence `&mut self`.
    /// `get_state_changes`: unrazed hills, live ants, food, then the ants killed this turn,
    /// each group sorted by (row, col, owner).
    fn build_changes(&self) -> Vec<Change> {
        let t = self.torus;
        let mut out = Vec::with_capacity(self.live.len() + self.current_food.len() + 16);
        let mut hills: Vec<Change> = self
            .hills
            .iter()
            .filter(|h| h.killed_by.is_none())
            .map(|h| (b'h', t.index(h.loc), h.owner))
            .collect();
        hills.sort_unstable();
        out.extend(hills);
        let start = out.len();
        out.extend(self.live.iter().map(|&id| {
            let a = &self.ants[id as usize];
            (b'a', t.index(a.loc), a.owner)
        }));
        out[start..].sort_unstable();
        let start = out.len();
        out.extend(
            self.current_food
                .iter()
                .map(|&f| (b'f', t.index(self.foods[f as usize].loc), 0)),
        );
        out[start..].sort_unstable();
        let start = out.len();
        out.extend(self.killed_ants.iter().map(|&id| {
            let a = &self.ants[id as usize];
            (b'd', t.index(a.loc), a.owner)
        }));
        out[start..].sort_unstable();
        out
    }

    /// What `player` is told about the state (the original `render_changes`): newly seen
    /// water, then visible hills, ants, food and dead ants (its own dead always), each
    /// sorted, owners renumbered for `player`. Renumbering may give a number to an owner
    /// first seen here, hence `&mut self`.
    pub fn player_state(&mut self, player: usize) -> String {
        let t = self.torus;
        let changes = match self.changes.take() {
            Some(c) => c,
            None => self.build_changes(),
        };
        let mut out = String::with_capacity(16 * (changes.len() + 8));
        for &i in &self.revealed_water[player] {
            let (r, c) = t.loc(i);
            out.push_str("w ");
            push_num(&mut out, r);
            out.push(' ');
            push_num(&mut out, c);
            out.push('\n');
        }
        let vis = &self.vision[player];
        let switch = &mut self.switch[player];
        for &(kind, i, owner) in &changes {
            let visible = vis[i] > 0 || (kind == b'd' && usize::from(owner) == player);
            if !visible {
                continue;
            }
            let (r, c) = t.loc(i);
            out.push(kind as char);
            out.push(' ');
            push_num(&mut out, r);
            out.push(' ');
            push_num(&mut out, c);
            if kind != b'f' {
                let o = usize::from(owner);
                let n = match switch[o] {
                    Some(x) => x,
                    None => {
                        // an ant can appear in view and die the same turn, or a hill be
                        // seen before its owner's ants: number the owner now
                        let next = switch.iter().filter(|s| s.is_some()).count() as u8;
                        switch[o] = Some(next);
                        next
                    }
                };
                out.push(' ');
                push_num(&mut out, usize::from(n));
            }
            out.push('\n');
        }
        self.changes = Some(changes);
        out
    }

    /// `data` reordered for `player`'s numbering (the original `order_for_player`): `None`
    /// for players it never saw.
    pub fn order_for_player<T: Clone>(&self, player: usize, data: &[T]) -> Vec<Option<T>> {
        let s = &self.switch[player];
        (0..data.len().max(self.players))
            .map(|i| {
                s.iter()
                    .position(|x| *x == Some(i as u8))
                    .map(|p| data[p].clone())
            })
            .collect()
    }
}
