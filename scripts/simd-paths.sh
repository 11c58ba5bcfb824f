#!/usr/bin/env bash
# Every SIMD path this machine has (GRUNDY_SIMD) against ogsolve 0.0.7
# (`cargo install ogsolve`, method rc2, one thread: it has no other), one
# run after another on an idle machine: Officers to 2^24, .1777 to the heap
# that certifies its period, Grundy's game to 2^24 (ogsolve does not run
# it). Wall time and CPU-seconds (user + system) of each, and each path's
# ratios to ogsolve.
#
#   scripts/simd-paths.sh [GRUNDY] [OGSOLVE]   (OGSOLVE none: grundy alone)
#   WORK="officers grundy" scripts/simd-paths.sh     (a subset)
#   PATHS="avx2 portable" scripts/simd-paths.sh      (some paths only)
set -euo pipefail
bin=${1:-target/release/grundy}
og=${2:-$(command -v ogsolve || true)}
[ "$og" = none ] && og=''
work=${WORK:-officers 1777 grundy}
dir=$(mktemp -d "${TMPDIR:-/tmp}/grundy-simd.XXXXXX")
trap 'rm -rf "$dir"' EXIT

# The paths this CPU has, narrowest first (portable: SSE4.2 on x86, NEON
# on ARM).
paths=${PATHS:-plain}
if [ -z "${PATHS:-}" ]; then
    { grep -qw sse4_2 /proc/cpuinfo || [ "$(uname -m)" = aarch64 ]; } && paths="$paths portable"
    grep -qw avx2 /proc/cpuinfo && paths="$paths avx2"
    grep -qw avx512bw /proc/cpuinfo && paths="$paths avx512"
fi

declare -A code heaps
code[officers]=0.6 heaps[officers]=16777216
code[1777]=0.1777 heaps[1777]=443139470
code[grundy]='4!.0' heaps[grundy]=16777216

# "wall cpu" seconds of "$@", its output discarded.
timed() {
    /usr/bin/time -f "%e %U %S" -o "$dir/time" "$@" > /dev/null
    awk '{ printf "%.2f %.1f\n", $1, $2 + $3 }' "$dir/time"
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "grundy: $("$bin" --version); ogsolve: ${og:-absent}"
printf '%-10s %-9s %9s %8s %10s %12s\n' run path wall CPU-s "wall ratio" "per CPU-s"
for w in $work; do
    og_wall='' og_cpu=''
    if [ -n "$og" ] && [ "$w" != grundy ]; then
        read -r og_wall og_cpu < <(timed "$og" -m rc2 -n "${heaps[$w]}" "${code[$w]}")
        printf '%-10s %-9s %9s %8s\n' "$w" ogsolve "$og_wall" "$og_cpu"
    fi
    for path in $paths; do
        read -r wall cpu < <(GRUNDY_SIMD=$path timed "$bin" octal "${code[$w]}" \
            -n "${heaps[$w]}" --backend cpu -q --format raw --out "$dir/$w-$path.raw")
        if [ -n "$og_wall" ]; then
            awk -v w="$w" -v p="$path" -v a="$wall" -v c="$cpu" -v ow="$og_wall" -v oc="$og_cpu" \
                'BEGIN { printf "%-10s %-9s %9s %8s %9.2fx %11.2fx\n", w, p, a, c, ow / a, oc / c }'
        else
            printf '%-10s %-9s %9s %8s\n' "$w" "$path" "$wall" "$cpu"
        fi
    done
    for path in $paths; do
        cmp -s "$dir/$w-plain.raw" "$dir/$w-$path.raw" 2>/dev/null ||
            [ ! -f "$dir/$w-plain.raw" ] || { echo "$w: the $path table differs" >&2; exit 1; }
    done
done
