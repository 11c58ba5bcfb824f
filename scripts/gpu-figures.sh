#!/usr/bin/env bash
# On a lent GPU machine, after scripts/gpu-prepare.sh here and with .device
# and .gl carried: the GPU tests on the card, then the figures BENCHMARKS.md
# asks for, written under $OUT. One stage per call, each well inside the
# device tool's 10 minutes:
#   bash scripts/gpu-figures.sh tests    GRUNDY_REQUIRE_GPU=1 test binaries
#   bash scripts/gpu-figures.sh bench    grundy bench (every part) and --only grids
#   bash scripts/gpu-figures.sh survey   512 three-digit codes to 2^16, GPU (three
#                                        workgroup sizes) then CPU
#   bash scripts/gpu-figures.sh auto     the default backend against --backend cpu
#                                        (scripts/auto-vs-cpu.sh: auto must take the card)
#   bash scripts/gpu-figures.sh long     rare values with the pass on the card against
#                                        the CPU: Officers to 2^26, 4!.0 to 2^26, .1777
#   bash scripts/gpu-figures.sh records  Grundy's game and Officers to 2^26 on the card
#                                        and on the CPU, each projected to 2^35 and
#                                        2^36 heaps from its seconds per heap (the cost
#                                        per heap is flat: 2^26 to 2^30 took 16.2x for
#                                        16x the heaps on the CPU), and the same run
#                                        with --memory 64M (its table in a file); then
#                                        Grundy's game to 2^26 with the table in eight
#                                        pieces of 16 MiB (GRUNDY_GPU_MAX_BINDING)
#                                        against one binding, tables compared
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-figures}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
tar -C /tmp -xJf .device/bins.tar.xz
bin=/tmp/bin
log="$OUT/$1.log"
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nproc
    "$bin/grundy" --version
} 2>&1 | tee "$log"

case "$1" in
auto)
    bash scripts/auto-vs-cpu.sh "$bin/grundy" 2>&1 | tee -a "$log"
    ;;
long)
    # values/s and the pass's share: the target is Officers at 5 million
    # values/s at 2^26, and 5x the CPU backend of the same machine
    for args in "0.6 -n 67108864" "4!.0 -n 67108864" "0.1777 -n 200000000 --no-fill"; do
        for backend in gpu cpu; do
            TIMEFORMAT="octal $args --backend $backend: %R s"
            # shellcheck disable=SC2086
            { time "$bin/grundy" octal $args --backend "$backend" -q --json \
                --format raw --out "$OUT/long.raw"; } 2>&1 | tee -a "$log"
        done
    done
    "$bin/grundy" bench --only long --out "$OUT/long.csv" 2>&1 | tee -a "$log"
    ;;
records)
    for code in '4!.0' 0.6; do
        for args in "--backend gpu" "--backend cpu" "--backend gpu --memory 64M"; do
            # shellcheck disable=SC2086
            seconds=$("$bin/grundy" octal "$code" -n 67108863 $args -q --json \
                --format raw --out "$OUT/records.raw" | sed -n 's/.*"seconds":\([0-9.]*\).*/\1/p')
            awk -v c="$code" -v a="$args" -v s="$seconds" 'BEGIN {
                printf "octal %s -n 2^26 %s: %.1f s; projected 2^35: %.1f h, 2^36: %.1f h\n",
                    c, a, s, s * 512 / 3600, s * 1024 / 3600 }' | tee -a "$log"
        done
    done
    # the pass over a table bound in pieces (as past 2^29 values on Vulkan,
    # 1 GiB a binding) against one binding: same table, the cost of pieces
    for cap in "" 16777216; do
        TIMEFORMAT="octal 4!.0 -n 2^26 --backend gpu, binding cap ${cap:-none}: %R s"
        { time ${cap:+env GRUNDY_GPU_MAX_BINDING=$cap} "$bin/grundy" octal '4!.0' -n 67108863 \
            --backend gpu -q --format raw --out "$OUT/pieces${cap}.raw"; } 2>&1 | tee -a "$log"
    done
    cmp "$OUT/pieces.raw" "$OUT/pieces16777216.raw" && echo "pieces: same table" | tee -a "$log"
    ;;
tests)
    export GRUNDY_REQUIRE_GPU=1
    for t in gpu graphs survey_kernel arrows tuples rare_gpu; do
        echo "== $t"
        # rare_gpu's checkpoint test runs the grundy binary of the build
        # machine: skipped here
        "$bin/test-$t" --skip a_checkpoint_resumes 2>&1 | grep -E "^test result|FAILED|panicked|SKIPPED"
    done 2>&1 | tee -a "$log"
    ;;
bench)
    "$bin/grundy" bench --out "$OUT/bench.csv" 2>&1 | tee -a "$log"
    "$bin/grundy" bench --only grids --out "$OUT/grids.csv" 2>&1 | tee -a "$log"
    # the runner's counters on a long brute-force sequence: pipelines built
    # once, submissions, bytes each way (JSON "gpu")
    for n in 262144 1048576; do
        "$bin/grundy" octal 0.007 -n "$n" --algorithm naive --backend gpu --json -q 2>&1 | tee -a "$log"
    done
    ;;
survey)
    # the default threads per code (256 on a GPU), then 64 and 1024, then the
    # CPU; each run's JSON (seconds, kernel_seconds) goes to the log
    survey() {
        local name=$1
        shift
        TIMEFORMAT="survey $name: %R s"
        { time "$bin/grundy" survey --digits 3 -n 65536 -q --json \
            --out "$OUT/survey-$name.csv" "$@"; } 2>&1 | tee -a "$log"
    }
    survey gpu --backend gpu
    for wg in 64 1024; do survey "gpu-wg$wg" --backend gpu --workgroup "$wg"; done
    survey cpu --backend cpu
    for f in "$OUT"/survey-gpu*.csv; do
        cmp "$f" "$OUT/survey-cpu.csv" && echo "$(basename "$f"): GPU rows = CPU rows" | tee -a "$log"
    done
    ;;
*)
    echo "stage: tests, bench, survey, auto, long or records" >&2
    exit 2
    ;;
esac
