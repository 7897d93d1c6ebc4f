"""Prints the reference values of CPython's `random` that `pyrandom.txt` holds.

Run with CPython 3 (made with 3.11): python3 make_pyrandom_fixtures.py > pyrandom.txt
Each line: `seed SEED OP ARGS -> VALUES`, the ops drawn in order from one generator per seed.
"""
import random

SEEDS = [0, 1, 7, 42, -5, 2**32 + 3, 2**70 + 12345, 123456789]

for s in SEEDS:
    r = random.Random(s)
    out = []
    out.append(("getrandbits", "32", [r.getrandbits(32) for _ in range(5)]))
    out.append(("getrandbits", "7", [r.getrandbits(7) for _ in range(5)]))
    out.append(("getrandbits", "70", [r.getrandbits(70) for _ in range(3)]))
    out.append(("random", "", [repr(r.random()) for _ in range(5)]))
    out.append(("randrange", "5 12", [r.randrange(5, 12) for _ in range(8)]))
    out.append(("randrange", "1000003", [r.randrange(1000003) for _ in range(5)]))
    out.append(("randint", "-3 3", [r.randint(-3, 3) for _ in range(8)]))
    out.append(("choice", "1", [r.choice([0]) for _ in range(3)]))
    out.append(("choice", "10", [r.choice(range(10)) for _ in range(8)]))
    xs = list(range(20))
    r.shuffle(xs)
    out.append(("shuffle", "20", xs))
    xs = list(range(3))
    r.shuffle(xs)
    out.append(("shuffle", "3", xs))
    out.append(("sample", "30 5", r.sample(range(30), 5)))
    out.append(("sample", "10 4", r.sample(range(10), 4)))
    out.append(("random", "", [repr(r.random()) for _ in range(2)]))
    for op, args, vals in out:
        print(f"seed {s} {op} {args} -> {' '.join(str(v) for v in vals)}")
