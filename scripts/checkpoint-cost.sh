#!/usr/bin/env bash
# What checkpoints cost a long run: Grundy's game to N heaps with no
# checkpoint, then saving every S seconds, for each binary given (the new
# appended checkpoints against an older build that rewrote the whole table
# each time), alternating, the median of RUNS runs each; also how long a
# resume takes to read and check the checkpoint.
# Usage: scripts/checkpoint-cost.sh NEW [OLD]   (N=67108863 S=5 RUNS=1)
set -euo pipefail
new=${1:?usage: checkpoint-cost.sh NEW_BINARY [OLD_BINARY]}
old=${2:-}
n=${N:-67108863}
every=${S:-5}
runs=${RUNS:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the wall seconds "$@" takes, its stdout to $OUT (else nowhere); the CPU
# seconds it used (user + system) are added to $dir/cpu.$KEY, because this
# VM's wall times drift more than a checkpoint costs
seconds() {
  local t0 t1; t0=$(date +%s.%N)
  /usr/bin/time -f '%U + %S' -o "$dir/time" "$@" > "${OUT:-/dev/null}"
  t1=$(date +%s.%N)
  [ -n "${KEY:-}" ] && bc <<< "$(cat "$dir/time")" >> "$dir/cpu.$KEY"
  echo "$t1 - $t0" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
base=(octal '4!.0' -n "$n" --backend cpu -q --format raw --out "$dir/g.raw")
declare -A took
for _ in $(seq "$runs"); do
  took[none]+="$(KEY=none seconds "$new" "${base[@]}") "
  rm -f "$dir/new.ck"
  took[new]+="$(KEY=new OUT="$dir/new.json" seconds "$new" "${base[@]}" --json --checkpoint "$dir/new.ck" --checkpoint-every "$every") "
  if [ -n "$old" ]; then
    rm -f "$dir/old.ck"
    took[old]+="$(KEY=old seconds "$old" "${base[@]}" --checkpoint "$dir/old.ck" --checkpoint-every "$every") "
  fi
done
none=$(tr ' ' '\n' <<< "${took[none]}" | grep . | median)
cpu_none=$(median < "$dir/cpu.none")
printf '%-44s %9s %8s %9s %8s\n' "run (4!.0 to $n heaps)" "wall s" "/ none" "CPU s" "/ none"
printf '%-44s %9.2f %8.3f %9.2f %8.3f\n' "no checkpoint" "$none" 1 "$cpu_none" 1
for k in new old; do
  [ -z "${took[$k]:-}" ] && continue
  t=$(tr ' ' '\n' <<< "${took[$k]}" | grep . | median)
  cpu=$(median < "$dir/cpu.$k")
  printf '%-44s %9.2f %8.3f %9.2f %8.3f\n' "$k binary, a checkpoint every $every s" "$t" \
    "$(echo "$t / $none" | bc -l)" "$cpu" "$(echo "$cpu / $cpu_none" | bc -l)"
done
ls -l "$dir/new.ck" | awk '{print "checkpoint bytes:", $5}'
echo "the new binary's last run, as its --json says:" \
  "$(grep -o '"checkpoint_saves":[0-9]*' "$dir/new.json")" \
  "$(grep -o '"checkpoint_seconds":[0-9.e-]*' "$dir/new.json")" \
  "$(grep -o '"seconds":[0-9.e-]*' "$dir/new.json" | tail -1)"
t=$(seconds "$new" octal '4!.0' -n "$n" --backend cpu -q --resume "$dir/new.ck")
echo "resume from it (read, checked, summarised): $t s"
