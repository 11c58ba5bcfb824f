"""Two threads against one on the rare-value engine, alternated, and where
the second thread's time goes (BENCHMARKS-log.md, "Two threads: where the
last 4 % goes").

Each round runs every code on one thread, then on two, then two one-thread
runs of it at once (two processes: what the machine's shared caches, memory
and clocks cost a busy pair of cores, with no schedule between them). Per
run it prints the wall seconds and, from `--json`'s `rare_blocks`, the
block passes' thread-seconds and the finish's own (less its waits); for two
threads, `idle` is 2 x wall less both: a thread waiting at a block's end,
and the stretches' extra work. Last, per code, the ratio of the means and
the spread.

    python3 scripts/two-threads.py [ROUNDS]       (default 3)

GRUNDY names the binary (default target/release/grundy); N the heaps
(default 2^24); CODES the codes (default "0.6 4!.0"); TASKSET=1 pins the
runs to cores 0 and 1 (a many-core host's figure for two dedicated cores).
"""
import json, os, statistics, subprocess, sys, time

BIN = os.environ.get("GRUNDY", "target/release/grundy")
N = os.environ.get("N", str(1 << 24))
CODES = os.environ.get("CODES", "0.6 4!.0").split()
PIN = os.environ.get("TASKSET") == "1"


def command(code, threads, cores):
    pin = ["taskset", "-c", cores] if PIN else []
    args = ["octal", code, "-n", N, "--backend", "cpu", "-q", "--json"]
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    return pin + [BIN] + args, env


def parsed(proc, code):
    out, err = proc.communicate()
    if proc.returncode != 0:
        sys.exit(f"{code}: exit {proc.returncode}: {err.decode()[:300]}")
    report = json.loads(out.decode().splitlines()[0])
    blocks = report.get("rare_blocks") or {}
    passes = blocks.get("pass_nanos", 0) / 1e9
    finish = (blocks.get("finish_nanos", 0) - blocks.get("finish_wait_nanos", 0)) / 1e9
    return report["seconds"], passes, finish


def run(code, threads, cores):
    cmd, env = command(code, threads, cores)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return parsed(proc, code)


def pair(code):
    """Two one-thread runs at once, on cores 0 and 1 when pinned."""
    procs = []
    for cores in ("0", "1"):
        cmd, env = command(code, 1, cores)
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    return [parsed(p, code) for p in procs]


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    walls = {code: {"one": [], "two": [], "pair": []} for code in CODES}
    print(f"{BIN}, {N} heaps, {rounds} rounds, {'pinned' if PIN else 'not pinned'}", flush=True)
    for r in range(1, rounds + 1):
        for code in CODES:
            wall, passes, finish = run(code, 1, "0")
            walls[code]["one"].append(wall)
            print(f"round {r} {code} 1 thread : {wall:7.2f} s  pass {passes:6.2f}  finish {finish:5.2f}", flush=True)
            wall, passes, finish = run(code, 2, "0,1")
            walls[code]["two"].append(wall)
            idle = 2 * wall - passes - finish
            print(f"round {r} {code} 2 threads: {wall:7.2f} s  pass {passes:6.2f}  finish {finish:5.2f}  idle {idle:5.2f}", flush=True)
            both = pair(code)
            walls[code]["pair"].extend(w for w, _, _ in both)
            shown = ", ".join(f"{w:.2f} s (pass {p:.2f})" for w, p, _ in both)
            print(f"round {r} {code} 2 processes of 1 thread at once: {shown}", flush=True)
    for code, w in walls.items():
        one, two, side = (statistics.mean(w[k]) for k in ("one", "two", "pair"))
        print(f"{code}: 1 thread {min(w['one']):.2f}-{max(w['one']):.2f} s, "
              f"2 threads {min(w['two']):.2f}-{max(w['two']):.2f} s: {one / two:.3f}x (ratio of the means); "
              f"a one-thread run beside another: {side / one:.3f}x its time alone")


if __name__ == "__main__":
    start = time.time()
    main()
    print(f"{time.time() - start:.0f} s in all")
