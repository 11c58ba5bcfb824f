#!/usr/bin/env python3
# Usage: python3 scripts/check-grundys-game.py TABLE.raw SEED [HEAP ...]
# An independent check of a raw table of Grundy's game (`grundy octal 4!.0
# --format raw`), with numpy and nothing of grundy: the heaps named, twelve
# random heaps (from SEED) and the last four, each valued from the rule;
# then the P-positions and the values of 256 and more. Exit 1 on a mismatch.
# G(n) = mex { G(a) ^ G(n - a) : 1 <= a < n - a }: split into two unequal heaps.
import sys, numpy as np
path = sys.argv[1]
with open(path, 'rb') as f:
    header = f.readline()
g = np.memmap(path, dtype='<u2', mode='r', offset=len(header))
N = len(g)
def value(n):
    seen = np.zeros(1 << 16, dtype=bool)
    hi = (n - 1) // 2
    step = 1 << 26
    for lo in range(1, hi + 1, step):
        a = np.arange(lo, min(hi, lo + step - 1) + 1, dtype=np.int64)
        seen[np.bitwise_xor(g[a], g[n - a])] = True
    return int(np.argmin(seen))
rng = np.random.default_rng(int(sys.argv[2]))
heaps = [int(x) for x in sys.argv[3:]]
heaps += [int(x) for x in rng.integers(2, N, 12)]
heaps += list(range(N - 4, N))
bad = 0
for n in heaps:
    v = value(n)
    ok = v == int(g[n])
    bad += not ok
    print(f"G({n}) = {int(g[n])}  rule: {v}  {'ok' if ok else 'WRONG'}", flush=True)
zeros = np.flatnonzero(g == 0)
print("P-positions:", len(zeros), "the last", int(zeros[-1]))
big = np.flatnonzero(g >= 256)
print("max value", int(g.max()), "first at", int(np.argmax(g)))
if len(big):
    print("values >= 256:", len(big), "first at", int(big[0]), "last at", int(big[-1]))
sys.exit(1 if bad else 0)
