#!/usr/bin/env bash
# The run behind docs/unsolved.md: the published list of unsolved octal
# games hunted in SHARDS shards at once, each shard pinned to its own 2
# cores (taskset, 2 rayon threads) as a 2-core machine would run it, every
# code given BUDGET seconds on the CPU. Needs 2 x SHARDS cores. The rows
# go to DIR/part-K.csv and DIR/*.row, the frequency files to DIR/*.freq.
#
#   BUDGET=44 SHARDS=8 DIR=hunt-unsolved scripts/unsolved-page.sh
set -euo pipefail
budget=${BUDGET:-44}
shards=${SHARDS:-8}
dir=${DIR:-hunt-unsolved}
bin=${GRUNDY:-target/release/grundy}
mkdir -p "$dir"
for ((k = 0; k < shards; k++)); do
    taskset -c "$((2 * k)),$((2 * k + 1))" env RAYON_NUM_THREADS=2 \
        "$bin" hunt --unsolved --budget "$budget" --dir "$dir" --shard "$k/$shards" \
        --backend cpu --out "$dir/part-$k.csv" -q 2>"$dir/part-$k.log" &
done
wait
cat "$dir"/part-*.csv | sort -u | grep -v '^code,' | wc -l
