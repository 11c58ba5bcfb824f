#!/usr/bin/env bash
# Runs that keep a prefix and a window against runs that keep the whole
# table: each code to N heaps both ways, the raw tables compared byte for
# byte and the statistics (with every power of two's) compared in --json;
# the seconds, the sizes a kept run ended with and how often it read back.
# Usage: scripts/kept-equal.sh [BINARY]   (N=67108863 P=1048576 W=1048576
# CODES="0.6 0.161 0.167 0.1777 4!.0")
set -euo pipefail
bin=${1:-target/release/grundy}
n=${N:-67108863}
prefix=${P:-1048576}
window=${W:-1048576}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
figures='{stats: .first_p_positions, max: .max_value, first: .first_max_at,
  mask: .rare_mask, rare: .rare_count, last: .last_rare, milestones}'
for code in ${CODES:-0.6 0.161 0.167 0.1777 4!.0}; do
    common=(octal "$code" -n "$n" --backend cpu --format raw --stats-at pow2 --json)
    "$bin" "${common[@]}" -q --out "$dir/whole.u16" >"$dir/whole.json"
    "$bin" "${common[@]}" --out "$dir/kept.u16" --keep-prefix "$prefix" \
        --keep-window "$window" >"$dir/kept.json" 2>"$dir/kept.err"
    same=differ
    if cmp -s "$dir/whole.u16" "$dir/kept.u16" &&
        [[ "$(jq -c "$figures" "$dir/whole.json")" == "$(jq -c "$figures" "$dir/kept.json")" ]]; then
        same=same
    fi
    printf '%-7s whole %8.2f s  kept %8.2f s  %s  kept at the end %s  read back %d times\n' \
        "$code" "$(jq .seconds "$dir/whole.json")" "$(jq .seconds "$dir/kept.json")" "$same" \
        "$(jq -c .kept "$dir/kept.json")" "$(grep -c 'read them back' "$dir/kept.err" || true)"
done
