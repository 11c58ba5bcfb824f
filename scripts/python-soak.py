"""A soak of the Python module: mixed calls (sequences, graphs, surveys,
tables, play) from several threads, some stopped at a random moment by
their progress callback and resumed from their checkpoint. Every result is
compared with one computed alone first; resident memory is read after a
warm-up and at the end; a call that does not return within its limit is
a deadlock. Prints one JSON object; exits 1 on any wrong result.

    python scripts/python-soak.py [CALLS] [THREADS]   # 1000 and 8 by default
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import random
import sys
import tempfile
import time

import numpy

import grundy


class Stop(Exception):
    """Raised by a progress callback to stop its run."""


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def references() -> dict:
    """Each call's answer, computed alone before the soak."""
    return {
        "0.07": grundy.octal("0.07", n=2000).values.copy(),
        "4!.0": grundy.octal("4!.0", n=60_000).values.copy(),
        "0.6": grundy.octal("0.6", n=200_000).values.copy(),
        "graph": grundy.graph("0.33", "grid:3x4")["value"],
        "survey": grundy.survey(["0.07", "0.6", "0.16"], n=3000)["period"],
        "rect": list(grundy.rect(2, 24)["g"]),
        "play": grundy.play("octal", "0.07", [5, 9])["nim_sum"],
    }


def call(kind: str, rng: random.Random, ref: dict, folder: str) -> str:
    """One call of `kind`; returns what it checked, raises on a wrong result."""
    if kind == "sequence":
        code, n = rng.choice([("0.07", 2000), ("4!.0", 60_000)])
        n = rng.randrange(n // 2, n + 1)
        values = grundy.octal(code, n=n, backend="cpu").values
        assert numpy.array_equal(values, ref[code][: n + 1]), f"{code} to {n}"
        return f"octal {code}"
    if kind == "graph":
        assert grundy.graph("0.33", "grid:3x4", backend="cpu")["value"] == ref["graph"]
        return "graph"
    if kind == "survey":
        assert grundy.survey(["0.07", "0.6", "0.16"], n=3000)["period"] == ref["survey"]
        return "survey"
    if kind == "rect":
        assert list(grundy.rect(2, 24, backend="cpu")["g"]) == ref["rect"]
        return "rect"
    if kind == "play":
        assert grundy.play("octal", "0.07", [5, 9])["nim_sum"] == ref["play"]
        return "play"
    return interrupted(rng, ref, folder)


def interrupted(rng: random.Random, ref: dict, folder: str) -> str:
    """Officers to 200,000 with a checkpoint, stopped by its progress
    callback after a random number of calls, then resumed to the end."""
    path = os.path.join(folder, f"soak-{rng.getrandbits(64):x}.ck")
    stop_after = rng.randrange(1, 6)
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) >= stop_after:
            raise Stop()

    try:
        grundy.octal("0.6", n=200_000, backend="cpu", checkpoint=path,
                     checkpoint_every=1.0, progress=progress)
        outcome = "finished before its stop"
    except Stop:
        outcome = "stopped"
    if os.path.exists(path):
        values = grundy.octal("0.6", n=200_000, backend="cpu", resume=path).values
        os.remove(path)
        outcome += ", resumed"
    else:
        values = grundy.octal("0.6", n=200_000, backend="cpu").values
    assert numpy.array_equal(values, ref["0.6"]), f"0.6 after '{outcome}'"
    return f"interrupted: {outcome}"


def main() -> int:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    started = time.monotonic()
    ref = references()
    kinds = ["sequence"] * 4 + ["graph", "survey", "rect", "play", "interrupted", "interrupted"]
    rng = random.Random(0x5eed)
    plan = [rng.choice(kinds) for _ in range(calls)]
    seeds = [rng.getrandbits(64) for _ in range(calls)]
    warm = max(1, calls // 10)
    outcomes: dict = {}
    wrong: list = []
    rss = {"start": rss_mib()}
    limit = 120.0  # seconds a call may take before it counts as a deadlock
    with tempfile.TemporaryDirectory() as folder, \
            concurrent.futures.ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(call, kind, random.Random(seed), ref, folder)
                   for kind, seed in zip(plan, seeds)]
        for i, future in enumerate(futures):
            try:
                what = future.result(timeout=limit)
                outcomes[what] = outcomes.get(what, 0) + 1
            except concurrent.futures.TimeoutError:
                wrong.append(f"call {i} ({plan[i]}) did not return within {limit} s")
                break
            except Exception as e:  # a wrong value or an unexpected error
                wrong.append(f"call {i} ({plan[i]}): {type(e).__name__}: {e}")
            if i + 1 == warm:
                rss["after_warm_up"] = rss_mib()
    rss["end"] = rss_mib()
    report = {
        "calls": calls,
        "threads": threads,
        "seconds": round(time.monotonic() - started, 1),
        "outcomes": outcomes,
        "rss_mib": {k: round(v, 1) for k, v in rss.items()},
        "rss_growth_after_warm_up_mib": round(rss["end"] - rss.get("after_warm_up", rss["end"]), 1),
        "wrong": wrong,
    }
    print(json.dumps(report, indent=1))
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
