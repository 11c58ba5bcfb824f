#!/usr/bin/env bash
# Bounded memory against in memory, in one run: the same sequence computed
# twice, with --memory (its values in a memory-mapped file) and without;
# the raw tables compared byte for byte; for each run its wall time and its
# peak anonymous memory (RssAnon, sampled every 50 ms: the page cache that
# holds the file's pages is not counted, as a memory cgroup reclaims it).
#
#   scripts/bounded-memory.sh [CODE] [N] [MEMORY]    (default: 4!.0 2^26−1 16M)
#
# CGROUP=DIR runs the --memory run inside that memory cgroup (v1 or v2: the
# folder whose cgroup.procs takes the process; its limit set beforehand,
# e.g. MEMORY + 64 MiB), as a Slurm job's --mem would.
set -euo pipefail
code=${1:-'4!.0'}
n=${2:-67108863}
memory=${3:-16M}
bin=${GRUNDY:-target/release/grundy}
dir=$(mktemp -d "${TMPDIR:-/tmp}/grundy-bounded.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# Runs grundy with "$@"; prints its wall seconds and peak RssAnon in MiB.
measure() {
    local start end pid peak=0 kib
    start=$(date +%s.%N)
    if [ -n "${in_cgroup:-}" ]; then
        sh -c 'echo $$ > "$0/cgroup.procs" && exec "$@"' "$in_cgroup" "$bin" "$@" &
    else
        "$bin" "$@" &
    fi
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        kib=$(awk '/^RssAnon:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
        if [ -n "$kib" ] && [ "$kib" -gt "$peak" ]; then peak=$kib; fi
        sleep 0.05
    done
    wait "$pid"
    end=$(date +%s.%N)
    awk -v s="$start" -v e="$end" -v p="$peak" 'BEGIN { printf "%.2f s, peak RssAnon %.1f MiB\n", e - s, p / 1024 }'
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "grundy octal '$code' -n $n --backend cpu --format raw"
echo -n "in memory:        "
measure octal "$code" -n "$n" --backend cpu --format raw --out "$dir/memory.raw" -q
echo -n "--memory $memory${CGROUP:+ (in $CGROUP)}: "
in_cgroup=${CGROUP:-} measure octal "$code" -n "$n" --backend cpu --format raw --out "$dir/file.raw" --memory "$memory" -q
if cmp -s "$dir/memory.raw" "$dir/file.raw"; then
    echo "tables: byte-identical ($(stat -c %s "$dir/file.raw") bytes)"
else
    echo "tables: DIFFER" >&2
    exit 1
fi
