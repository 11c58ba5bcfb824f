#!/usr/bin/env bash
# How evenly --shard K/N splits a survey's work: every shard of a survey
# run one after another (the CPU backend, all cores each), for each binary
# given; prints the slowest and fastest shard and their ratio.
# Usage: scripts/shard-spread.sh NEW [OLD]   (labelled new and old)
set -euo pipefail
bins=("$@")
[ ${#bins[@]} -ge 1 ] || { echo "usage: shard-spread.sh NEW_BINARY [OLD_BINARY]" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
surveys=(
  "2 100000 2"
  "3 65536 8"
  "3 65536 64"
)
# SURVEYS="DIGITS N SHARDS" lines choose others.
if [ -n "${SURVEYS:-}" ]; then mapfile -t surveys <<< "$SURVEYS"; fi
printf '%-8s %-34s %9s %9s %9s %8s\n' binary survey "all s" "slowest" "fastest" ratio
labels=(new old)
for i in "${!bins[@]}"; do
  b=${bins[$i]}
  label=${labels[$i]:-$i}
  for s in "${surveys[@]}"; do
    read -r digits n shards <<< "$s"
    times=()
    for k in $(seq 0 $((shards - 1))); do
      t0=$(date +%s.%N)
      "$b" survey --digits "$digits" -n "$n" --shard "$k/$shards" --backend cpu -q --out "$dir/p.csv"
      t1=$(date +%s.%N)
      times+=("$(echo "$t1 - $t0" | bc)")
    done
    sorted=$(printf '%s\n' "${times[@]}" | sort -n)
    lo=$(head -1 <<< "$sorted"); hi=$(tail -1 <<< "$sorted")
    all=$(printf '%s\n' "${times[@]}" | paste -sd+ | bc)
    printf '%-8s %-34s %9.2f %9.2f %9.2f %8.2f\n' "$label" \
      "$digits digits to $n, $shards shards" "$all" "$hi" "$lo" "$(echo "$hi / $lo" | bc -l)"
  done
done
