"""Misère against normal play over the same positions: each case run three
times per convention, alternated, the least wall time kept (BENCHMARKS-log.md,
"Misère play"). Names given as arguments pick the cases whose name holds one.
GRUNDY names the binary (default target/release/grundy)."""
import os, subprocess, time, sys
B = os.environ.get("GRUNDY", "target/release/grundy")
cases = [
 ("0.33 on grid:5x6, dense (connected positions only)", "graph 0.33 --graph grid:5x6 --solver dense --backend cpu --json"),
 ("0.33 on grid:4x6, every subset (table written)", "graph 0.33 --graph grid:4x6 --solver dense --backend cpu --out /tmp/bm.csv"),
 ("0.137 on grid:4x6, dense (every subset)", "graph 0.137 --graph grid:4x6 --solver dense --backend cpu --json"),
 ("0.33 podes, up to 10 legs of lengths 1..3 (memo)", "podes 0.33 --max-legs 10 --max-length 3 --json"),
 ("0.33 bipodes, a1..b2 up to 6, middle 2 (memo)", "bipodes 0.33 --max 6 --middle 2 --json"),
 ("0.33 on every tree of 16 vertices (memo, batch)", "graph 0.33 --graphs trees:16 --json"),
 ("Delete Nim, vdn to 2048", "delete-nim --rule vdn --max 2048 --backend cpu --json"),
 ("Delete Nim, abo on 4 heaps to 40", "delete-nim --rule abo --heaps 4 --max 40 --backend cpu --json"),
 ("Game of Arrows on grid:3x4 (17 edges, dense)", "arrows --graph grid:3x4 --solver dense --backend cpu --json"),
 ("Green Hackenbush on grid:3x4, ground 0,1,2,3", "hackenbush --graph grid:3x4 --ground 0,1,2,3 --json"),
]
only = sys.argv[1:] 
for name, args in cases:
    if only and not any(o in name for o in only): continue
    best = {}
    for _ in range(3):
        for m in ("", " --misere"):
            cmd = [B] + (args + m).split()
            subprocess.run(["rm", "-f", "/tmp/bm.csv"])
            t = time.perf_counter()
            r = subprocess.run(cmd, capture_output=True)
            dt = time.perf_counter() - t
            if r.returncode != 0:
                print(name, m, "FAILED", r.stderr.decode()[:300]); dt = float("nan")
            best[m] = min(best.get(m, 1e9), dt)
    n, mi = best[""], best[" --misere"]
    print(f"| {name} | {n:.2f} | {mi:.2f} | {mi/n:.2f}x |", flush=True)
