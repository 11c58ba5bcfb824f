#!/usr/bin/env bash
# The CPU path of two grundy binaries on the same workloads, alternating,
# three runs each: the median wall seconds of each and old/new (above 1:
# the new binary is faster). Usage: scripts/new-vs-old.sh OLD NEW
set -euo pipefail
old=${1:?usage: new-vs-old.sh OLD_BINARY NEW_BINARY}
new=${2:?usage: new-vs-old.sh OLD_BINARY NEW_BINARY}
runs=${RUNS:-3}
workloads=(
  "octal 0.007 -n 65536 --backend cpu"
  "octal 4!.0 -n 1048576 --backend cpu"
  "octal 0.F -n 16000 --backend cpu"
  "graph 0.33 -g grid:4x6 --solver dense --backend cpu"
  "graph 0.33 -g grid:4x7 --solver memo"
  "graph 0.33 -g grid:4x6 --solver reach --moves"
  "rect --max 800 --backend cpu"
  "delete-nim --rule vdn --max 3000 --backend cpu"
  "arrows --graph tree:0,1,2,3,4,5,6,7,8,9,10,11,12,1,2,3 --solver dense --backend cpu"
  "arrows --spiders 16"
  "survey --digits 2 -n 20000 --backend cpu"
)
seconds() { local t0 t1; t0=$(date +%s.%N); "$@" -q > /dev/null; t1=$(date +%s.%N); echo "$t1 - $t0" | bc; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
printf '%-90s %8s %8s %8s\n' workload "old s" "new s" old/new
for w in "${workloads[@]}"; do
  read -r -a args <<< "$w"
  o=(); n=()
  for _ in $(seq "$runs"); do
    o+=("$(seconds "$old" "${args[@]}")")
    n+=("$(seconds "$new" "${args[@]}")")
  done
  mo=$(printf '%s\n' "${o[@]}" | median); mn=$(printf '%s\n' "${n[@]}" | median)
  printf '%-90s %8.3f %8.3f %8.2f\n' "$w" "$mo" "$mn" "$(echo "$mo / $mn" | bc -l)"
done
