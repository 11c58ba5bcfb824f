#!/bin/bash
# Where the rare values' finish goes, and what stays in order when it runs
# in stretches (BENCHMARKS-log.md, "The finish in stretches"). For each code:
# one thread heap by heap (the default on one thread), one thread with every
# block it can in stretches (GRUNDY_STRETCHES=1: the guessing is then the
# part other cores can take; the check and the redone heaps stay in order),
# and every thread of the machine (the default); then 16 runs a stretch
# on one thread (GRUNDY_STRETCH_RUNS=16: the model of a 16-core host),
# whose critical path (per round the longest run, in heaps and in time,
# and the heaps redone in order) bounds the stretches' gain on 16 cores;
# last two threads with every pass started ahead, heap by heap and 16 runs
# a stretch (the card's path: a window of two blocks, every host core free
# for the finish).
# Prints each run's wall seconds and the counts the model reads from
# `rare_blocks`.
#   bash scripts/finish-model.sh [N]     (N: 2^24 unless given; .1777 to 2·10^7)
set -euo pipefail
bin=${BIN:-target/release/grundy}
n=${1:-16777216}
summary() {
    python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["rare_blocks"] or {}
s = d["seconds"]
def sec(key):
    return r.get(key, 0) * 1e-9
finish = sec("finish_nanos") - sec("finish_wait_nanos")
in_order = finish - sec("guess_nanos")
print("%8.2f s  finish %6.2f s (%4.1f %%)  in order %6.2f s (%4.1f %%)  guess %6.2f s  check %5.2f s"
      % (s, finish, 100 * finish / s, in_order, 100 * in_order / s, sec("guess_nanos"), sec("check_nanos")),
      " heaps: in order %d, rescans %d, kept %d, redone %d"
      % tuple(r.get(k, 0) for k in ("in_order", "rescans", "guessed_kept", "guessed_redone")))
heaps = r.get("guessed_kept", 0) + r.get("guessed_redone", 0)
path = r.get("path_heaps", 0) + r.get("guessed_redone", 0)
if heaps:
    print("%33s rounds %d (%d heaps again, %d kept unmoved), critical path %d heaps: %.1fx the stretches heap by heap"
          % ("", r.get("rounds", 0), r.get("round_heaps", 0), r.get("round_unmoved", 0), path, heaps / max(path, 1)))
    print("%33s the finish on the path: in order %.2f s + the rounds %.2f s = %.2f s (%.1f %% of this run)"
          % ("", in_order, sec("path_nanos"), in_order + sec("path_nanos"),
             100 * (in_order + sec("path_nanos")) / s))'
}
works=("0.6 -n $n" "4!.0 -n $n" "0.161 -n $n" "0.1777 -n 20000000 --no-fill")
# ONLY=K: the K-th of them alone (0 to 3)
[ -n "${ONLY:-}" ] && works=("${works[$ONLY]}")
for w in "${works[@]}"; do
    for run in "1 0" "1 1" "$(nproc) " "1 1 16" "2 0 - 1" "2 1 16 1"; do
        read -r threads stretches runs ahead <<<"$run"
        printf '%-22s %2s threads, stretches %-5s runs %-2s ahead %-2s' "$w" "$threads" \
            "${stretches:-auto}" "${runs:--}" "${ahead:--}"
        # shellcheck disable=SC2086
        RAYON_NUM_THREADS=$threads GRUNDY_STRETCHES=$stretches GRUNDY_STRETCH_RUNS=${runs#-} \
            GRUNDY_PASS_AHEAD=$ahead "$bin" octal $w --backend cpu -q --json \
            --format raw --out /dev/null | summary
    done
done
