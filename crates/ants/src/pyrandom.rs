//! CPython's `random` module, exactly: the Mersenne Twister MT19937 seeded from an int as
//! `random.seed(n)` does (`init_by_array` over the 32-bit words of `abs(n)`), `getrandbits`,
//! `_randbelow` by rejection on `getrandbits(n.bit_length())`, `random()` from two 32-bit
//! draws, `randrange`, `randint`, `choice`, `shuffle` and `sample` as in CPython 3.11
//! (`Lib/random.py`, `Modules/_randommodule.c`).
//!
//! The original Ants engine draws every random choice from this stream, so reproducing it
//! is what makes a game identical to the original's for the same engine seed.
//! `tests/data/pyrandom.txt` holds values printed by CPython 3.11 for several seeds (made by
//! `tests/data/make_pyrandom_fixtures.py`) and the tests below check every one.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// The generator of CPython's `random.Random`.
#[derive(Clone)]
pub struct PyRandom {
    mt: Box<[u32; N]>,
    index: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyRandom")
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

impl PyRandom {
    /// `random.Random(seed)` for an int seed (the sign is dropped, as CPython does).
    pub fn new(seed: i128) -> PyRandom {
        let mut n = seed.unsigned_abs();
        let mut key = Vec::new();
        while n > 0 {
            key.push(n as u32);
            n >>= 32;
        }
        if key.is_empty() {
            key.push(0);
        }
        let mut r = PyRandom {
            mt: Box::new([0; N]),
            index: N,
        };
        r.init_by_array(&key);
        r
    }

    fn init_genrand(&mut self, s: u32) {
        self.mt[0] = s;
        for i in 1..N {
            let prev = self.mt[i - 1];
            self.mt[i] = 1_812_433_253u32
                .wrapping_mul(prev ^ (prev >> 30))
                .wrapping_add(i as u32);
        }
        self.index = N;
    }

    fn init_by_array(&mut self, key: &[u32]) {
        self.init_genrand(19_650_218);
        let (mut i, mut j) = (1usize, 0usize);
        let mut k = N.max(key.len());
        while k > 0 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
            k -= 1;
        }
        k = N - 1;
        while k > 0 {
            let prev = self.mt[i - 1];
            self.mt[i] = (self.mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941))
                .wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                self.mt[0] = self.mt[N - 1];
                i = 1;
            }
            k -= 1;
        }
        self.mt[0] = 0x8000_0000;
    }

    /// `genrand_uint32`: the next 32 bits.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            let mag = |y: u32| if y & 1 == 1 { MATRIX_A } else { 0 };
            for kk in 0..N {
                let y = (self.mt[kk] & UPPER_MASK) | (self.mt[(kk + 1) % N] & LOWER_MASK);
                self.mt[kk] = self.mt[(kk + M) % N] ^ (y >> 1) ^ mag(y);
            }
            self.index = 0;
        }
        let mut y = self.mt[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// `getrandbits(k)` for `k <= 128`: 32-bit words, least significant first, the last one
    /// cut to its top bits.
    ///
    /// # Panics
    /// If `k > 128`.
    pub fn getrandbits(&mut self, k: u32) -> u128 {
        assert!(k <= 128, "getrandbits({k}): at most 128 bits");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u128::from(self.next_u32() >> (32 - k));
        }
        let mut out = 0u128;
        let mut left = k;
        let mut shift = 0;
        while left > 0 {
            let mut r = self.next_u32();
            if left < 32 {
                r >>= 32 - left;
            }
            out |= u128::from(r) << shift;
            shift += 32;
            left = left.saturating_sub(32);
        }
        out
    }

    /// `_randbelow(n)`: uniform in `0..n` by rejection (`n >= 1`; 0 for `n == 0`, which
    /// CPython's callers never pass).
    pub fn randbelow(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        let k = 64 - n.leading_zeros();
        loop {
            let r = self.getrandbits(k) as u64;
            if r < n {
                return r;
            }
        }
    }

    /// `random()`: 53 bits from two draws, in `[0, 1)`.
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `randrange(start, stop)` with `start < stop` (`start` when empty, where CPython
    /// raises).
    pub fn randrange(&mut self, start: i64, stop: i64) -> i64 {
        if stop <= start {
            return start;
        }
        start + self.randbelow((stop - start) as u64) as i64
    }

    /// `randint(a, b)`: `randrange(a, b + 1)`.
    pub fn randint(&mut self, a: i64, b: i64) -> i64 {
        self.randrange(a, b + 1)
    }

    /// `choice(seq)`: an index into a sequence of `len` items (`len >= 1`).
    pub fn choice_index(&mut self, len: usize) -> usize {
        self.randbelow(len as u64) as usize
    }

    /// `shuffle(x)`: Fisher-Yates from the end.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }

    /// `sample(range(n), k)`: both of CPython's methods (a pool for small `n`, a set of
    /// picks otherwise), chosen as it chooses.
    ///
    /// # Panics
    /// If `k > n`.
    pub fn sample(&mut self, n: usize, k: usize) -> Vec<usize> {
        assert!(k <= n, "sample larger than population");
        let mut setsize = 21usize;
        if k > 5 {
            // 4 ** ceil(log(k * 3, 4))
            let mut p = 1usize;
            while p < k * 3 {
                p *= 4;
            }
            setsize += p;
        }
        let mut result = Vec::with_capacity(k);
        if n <= setsize {
            let mut pool: Vec<usize> = (0..n).collect();
            for i in 0..k {
                let j = self.randbelow((n - i) as u64) as usize;
                result.push(pool[j]);
                pool[j] = pool[n - i - 1];
            }
        } else {
            let mut selected = std::collections::HashSet::new();
            for _ in 0..k {
                let mut j = self.randbelow(n as u64) as usize;
                while selected.contains(&j) {
                    j = self.randbelow(n as u64) as usize;
                }
                selected.insert(j);
                result.push(j);
            }
        }
        result
    }
}

/// CPython 3.11's `hash((a, b))` for two small non-negative ints (xxHash-based, as
/// `tuplehash` in `Objects/tupleobject.c`; `hash(n) == n` for such ints).
pub fn tuple_hash(items: &[u64]) -> u64 {
    const P1: u64 = 11_400_714_785_074_694_791;
    const P2: u64 = 14_029_467_366_897_019_727;
    const P5: u64 = 2_870_177_450_012_600_261;
    let mut acc = P5;
    for &lane in items {
        acc = acc.wrapping_add(lane.wrapping_mul(P2));
        acc = acc.rotate_left(31);
        acc = acc.wrapping_mul(P1);
    }
    acc = acc.wrapping_add((items.len() as u64) ^ (P5 ^ 3_527_539));
    if acc == u64::MAX {
        return 1_546_275_796;
    }
    acc
}

/// `list(set(locs))` for squares `(row, col)`: the order in which CPython 3.11 iterates a
/// set built from them (open addressing as `set_add_entry`, resizing as
/// `set_table_resize`), duplicates dropped. The original lists each symmetric food set in
/// this order, and that order decides which food is placed first.
pub fn set_order(locs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    const LINEAR_PROBES: usize = 9;
    type Table = Vec<Option<(u64, (usize, usize))>>;
    fn insert_clean(table: &mut Table, hash: u64, key: (usize, usize)) {
        let mask = table.len() - 1;
        let mut perturb = hash;
        let mut i = (hash as usize) & mask;
        loop {
            if table[i].is_none() {
                table[i] = Some((hash, key));
                return;
            }
            if i + LINEAR_PROBES <= mask {
                for j in 1..=LINEAR_PROBES {
                    if table[i + j].is_none() {
                        table[i + j] = Some((hash, key));
                        return;
                    }
                }
            }
            perturb >>= 5;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        }
    }
    let mut table: Table = vec![None; 8];
    let mut used = 0usize;
    for &key in locs {
        let hash = tuple_hash(&[key.0 as u64, key.1 as u64]);
        let mask = table.len() - 1;
        let mut perturb = hash;
        let mut i = (hash as usize) & mask;
        let slot = 'probe: loop {
            let probes = if i + LINEAR_PROBES <= mask {
                LINEAR_PROBES
            } else {
                0
            };
            for j in 0..=probes {
                match table[i + j] {
                    None => break 'probe Some(i + j),
                    Some((h, k)) if h == hash && k == key => break 'probe None,
                    Some(_) => {}
                }
            }
            perturb >>= 5;
            i = (i
                .wrapping_mul(5)
                .wrapping_add(1)
                .wrapping_add(perturb as usize))
                & mask;
        };
        let Some(slot) = slot else { continue };
        table[slot] = Some((hash, key));
        used += 1;
        // no deletions, so fill == used
        if used * 5 >= mask * 3 {
            let minused = if used > 50_000 { used * 2 } else { used * 4 };
            let mut size = 8;
            while size <= minused {
                size <<= 1;
            }
            let old = std::mem::replace(&mut table, vec![None; size]);
            for (h, k) in old.into_iter().flatten() {
                insert_clean(&mut table, h, k);
            }
        }
    }
    table.into_iter().flatten().map(|(_, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::{PyRandom, set_order};

    /// Every line of `tests/data/pyrandom.txt`, drawn in order from one generator per seed.
    #[test]
    fn the_stream_is_cpythons_for_every_fixture() {
        let text = include_str!("../tests/data/pyrandom.txt");
        let mut current: Option<(String, PyRandom)> = None;
        let mut checked = 0;
        for line in text.lines() {
            let (lhs, want) = line.split_once(" -> ").unwrap();
            let words: Vec<&str> = lhs.split_whitespace().collect();
            let seed = words[1];
            if current.as_ref().is_none_or(|(s, _)| s != seed) {
                current = Some((seed.to_string(), PyRandom::new(seed.parse().unwrap())));
            }
            let r = &mut current.as_mut().unwrap().1;
            let n = want.split_whitespace().count();
            let args: Vec<i64> = words[3..].iter().map(|a| a.parse().unwrap()).collect();
            let got: Vec<String> = match words[2] {
                "getrandbits" => (0..n)
                    .map(|_| r.getrandbits(args[0] as u32).to_string())
                    .collect(),
                "random" => (0..n).map(|_| format!("{:?}", r.random())).collect(),
                "randrange" if args.len() == 1 => (0..n)
                    .map(|_| r.randrange(0, args[0]).to_string())
                    .collect(),
                "randrange" => (0..n)
                    .map(|_| r.randrange(args[0], args[1]).to_string())
                    .collect(),
                "randint" => (0..n)
                    .map(|_| r.randint(args[0], args[1]).to_string())
                    .collect(),
                "choice" => (0..n)
                    .map(|_| r.choice_index(args[0] as usize).to_string())
                    .collect(),
                "shuffle" => {
                    let mut xs: Vec<usize> = (0..args[0] as usize).collect();
                    r.shuffle(&mut xs);
                    xs.iter().map(usize::to_string).collect()
                }
                "sample" => r
                    .sample(args[0] as usize, args[1] as usize)
                    .iter()
                    .map(usize::to_string)
                    .collect(),
                op => panic!("unknown op {op}"),
            };
            assert_eq!(got.join(" "), want, "{line}");
            checked += 1;
        }
        assert_eq!(checked, 112);
    }

    /// Every line of `tests/data/pyset.txt`: `list(set(squares))` as CPython 3.11 orders it.
    #[test]
    fn set_order_is_cpythons_for_every_fixture() {
        let text = include_str!("../tests/data/pyset.txt");
        let parse = |s: &str| -> Vec<(usize, usize)> {
            s.split_whitespace()
                .map(|p| {
                    let (a, b) = p.split_once(',').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect()
        };
        let mut n = 0;
        for line in text.lines() {
            let (input, want) = line.split_once(" -> ").unwrap();
            assert_eq!(set_order(&parse(input)), parse(want), "{line}");
            n += 1;
        }
        assert_eq!(n, 64);
    }
}
