"""Prints `list(set(locations))` for lists of (row, col) squares, as `pyset.txt` holds.

Run with CPython 3 (made with 3.11): python3 make_pyset_fixtures.py > pyset.txt
Each line: the squares in list order, `->`, the squares in the set's iteration order.
"""
import random

r = random.Random(3)
for n in list(range(1, 11)) * 6 + [12, 15, 20, 30]:
    rows, cols = r.choice([(20, 20), (60, 90), (200, 200), (5, 7)])
    locs = [(r.randrange(rows), r.randrange(cols)) for _ in range(n)]
    if n > 3 and r.random() < 0.3:
        locs[-1] = locs[0]  # a duplicate, as when two starts are equally far
    fmt = lambda ls: " ".join(f"{a},{b}" for a, b in ls)
    print(f"{fmt(locs)} -> {fmt(list(set(locs)))}")
