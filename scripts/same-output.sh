#!/usr/bin/env bash
# The command line's output before and after a change: runs each command
# below with two builds, each in a folder of its own, and compares stdout,
# stderr, exit status and every file written (times and rates masked).
#   scripts/same-output.sh OLD_GRUNDY NEW_GRUNDY
set -uo pipefail
old=$(realpath "$1") new=$(realpath "$2")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
commands=(
    "octal 0.07 -n 100000 --backend cpu --out f.csv"
    "octal 0.6 -n 300000 --backend cpu --checkpoint c.ck --format raw --out g.raw"
    "octal 0.6 -n 300000 --keep-prefix 2048 --keep-window 65536 --backend cpu"
    "graph 0.33 --graphs trees:12 --out trees.csv"
    "graph 0.03 --graphs grids:12 --moves --out grids.csv"
    "arrows --graphs spiders:7 --out spiders.csv"
    "cycles --graphs grids:9 --out cycles.csv"
    "arrows --spiders 8 --out sp3.csv"
    "arrows --spiders 6"
    "arrows --spiders 5 --legs 4 --trimmed --out sp4.csv"
    "survey --digits 2 -n 2000 --out whole.csv"
    "survey --digits 2 -n 2000 --shard 0/2 --out p0.csv"
    "survey --digits 2 -n 2000 --shard 1/2 --out p1.csv"
    "survey merge merged.csv p0.csv p1.csv"
    "survey merge missing.csv p0.csv"
    "play octal 0.07 5,7,9"
    "play octal 4!.0 10,11,12 --json"
    "play octal 0.07 5,9 --min-diff 1"
    "play graph 0.33 grid:2x3+path:4"
    "play arrows pode:2,2,2 --trimmed --state 0>1"
    "play rect 3x5,2x7"
    "play delete-nim --rule delete 0,5"
    "play cycles --graph grid:2x3 --state 0>1,1>2"
    "play hackenbush --graph path:3"
    "play subtraction 1,3,4 6,7"
    "play octal 0.77 1000000,3 --limit 3"
    "survey --digits 9 -n 10"
    "arrows --spiders 0"
    "arrows --spiders 3 --legs 5"
    "arrows --graphs nofile"
    "graph 0.33 --graphs grids:0"
    "octal 0.6 -n 10 --checkpoint e.ck --checkpoint-every 0"
    "hunt 0.6 --budget 0 --dir h"
    "survey --codes nofile -n 10"
    "octal 0.07 -n 2000 --plot seq.svg"
    "survey --digits 1 -n 500 --plot survey.svg"
    "octal 0.07 -n 100 --out made/here/f.csv --mkdir"
    "octal 0.07 -n 100 --out missing/f.csv"
    "rect --max 12 --out rect.csv --plot rect.png"
)
run() { # BUILD DIR: every command, its outputs in DIR
    local bin=$1 dir=$2 i=0
    mkdir -p "$dir"
    for c in "${commands[@]}"; do
        i=$((i + 1))
        # shellcheck disable=SC2086 # the command's words, split on purpose
        (cd "$dir" && set -f && "$bin" $c >"out.$i" 2>"err.$i"; echo $? >"status.$i")
    done
    for env in GRUNDY_SIMD=sse9 GRUNDY_GPU_MAX_BINDING=4k GRUNDY_STRETCHES=1; do
        i=$((i + 1))
        (cd "$dir" && env "$env" "$bin" octal 0.6 -n 100000 --backend cpu --out "env.$i.csv" \
            >"out.$i" 2>"err.$i"; echo $? >"status.$i")
    done
}
run "$old" "$work/old"
run "$new" "$work/new"
# Times, rates and the builds' own names differ run to run.
mask() { sed -E 's#[0-9]+ (values|heaps)/s#R#g; s/[0-9]+\.[0-9]+/T/g; s/"seconds": ?[0-9.e-]+/"seconds":T/g' "$1"; }
differ=0
while read -r name; do
    [[ $name == *.ck ]] && continue # a checkpoint records its run's time
    if ! cmp -s <(mask "$work/old/$name") <(mask "$work/new/$name"); then
        echo "differs: $name"
        diff <(mask "$work/old/$name") <(mask "$work/new/$name") | head -6
        differ=1
    fi
done < <(cd "$work/old" && find . -type f | sort)
files() { (cd "$1" && find . -type f | sort); }
cmp -s <(files "$work/old") <(files "$work/new") || { echo "not the same files"; differ=1; }
echo "$(files "$work/old" | wc -l) files compared over ${#commands[@]} commands and 3 settings"
exit $differ
