#!/usr/bin/env bash
# On a lent GPU machine, after scripts/gpu-prepare.sh here and with .device
# and .gl carried: the GPU tests on the card, then the figures BENCHMARKS.md
# asks for, written under $OUT. One stage per call, each well inside the
# device tool's 10 minutes:
#   bash scripts/gpu-figures.sh all      every stage below in this order, each cut
#                                        off at its own cap or at one deadline
#                                        (ALL_SECONDS, default 480): what one short
#                                        lease allows; STAGES="tests:200 long:60"
#                                        runs those stages with those caps instead
#   bash scripts/gpu-figures.sh tests    every test binary with GRUNDY_REQUIRE_GPU=1 (only the
#                                        tests whose names hold TESTS_FILTER, when set);
#                                        a binary that dies runs its unfinished
#                                        tests again one at a time
#   bash scripts/gpu-figures.sh bench    grundy bench (every part) and --only grids;
#                                        with BENCH_ONLY (e.g. tables,edges) those
#                                        parts alone
#   bash scripts/gpu-figures.sh survey   512 three-digit codes to 2^16, GPU (three
#                                        workgroup sizes) then CPU
#   bash scripts/gpu-figures.sh auto     the default backend against --backend cpu
#                                        (scripts/auto-vs-cpu.sh: auto must take the card)
#   bash scripts/gpu-figures.sh long     rare values with the pass on the card (launched
#                                        ahead, and not) against the CPU: Officers and
#                                        4!.0 to 2^22 (LONG_N), .1777 to 2*10^7, tables
#                                        compared
#   bash scripts/gpu-figures.sh finish   the finish in stretches: Officers, 4!.0 and .161 to
#                                        2^24 (FINISH_N), card and 16 threads, the default
#                                        and stretches (in rounds) once a pass is done
#                                        (idle), tables compared; the threads' ladder to 2^22 both ways
#                                        (FINISH_LADDER_N; FINISH_LADDER=0 skips it); about
#                                        6 minutes: issue 62's next figures
#   bash scripts/gpu-figures.sh misere   misère tables in blocks, card against the CPU twin:
#                                        0.[3] and 0.3[03] to 2^15 and 2^16 (MISERE_N),
#                                        CSVs compared; issue 76's card figures
#   bash scripts/gpu-figures.sh ladder   the CPU on 1, 2, 4, 8, 16 threads: Officers and
#                                        4!.0 to 2^24 (LADDER_N)
#   bash scripts/gpu-figures.sh threads  two threads against one on two dedicated cores
#                                        (taskset 0,1): Officers and 4!.0 to 2^24, two
#                                        rounds (THREADS_ROUNDS), with two one-thread
#                                        processes at once beside (scripts/two-threads.py);
#                                        issue 75's last figure off a shared VM
#   bash scripts/gpu-figures.sh dense    the brute force on the card against the CPU: .16
#                                        to 2^18, .04 and .06 to 2^19 (DENSE_N) with tables
#                                        compared, then the card alone to 2^20 and 2^21
#                                        (DENSE_CARD); DENSE_BINS="grundy grundy-old" runs
#                                        gpu-prepare.sh's OTHER_BINS too, old against new
#   bash scripts/gpu-figures.sh pieces   Grundy's game to 2^22 with the table bound in
#                                        eight pieces of 1 MiB (GRUNDY_GPU_MAX_BINDING)
#                                        against one binding, tables compared
#   bash scripts/gpu-figures.sh simd     the SIMD paths on two of its cores against
#                                        ogsolve on a third (when gpu-prepare.sh
#                                        found it; after them with SIMD_BESIDE=0):
#                                        Officers to 2^22 (SIMD_N), and .1777
#                                        certified with SIMD_1777=1; every path,
#                                        or SIMD_PATHS's (the first is compared)
# Logs (all stages of `all` in one) and bench.csv go to $OUT (the tool brings
# back 8 files); tables and other CSVs to /tmp/gpu-data.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-/tmp/gpu-figures}
mkdir -p "$OUT"
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[ -f "$icd" ] && export VK_DRIVER_FILES=$icd
[ -x /tmp/bin/grundy ] || tar -C /tmp -xJf .device/bins.tar.xz
bin=/tmp/bin
data=/tmp/gpu-data
mkdir -p "$data"
log="$OUT/${GPU_FIGURES_LOG:-${1:-none}}.log"
{
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
    nproc
    "$bin/grundy" --version
} 2>&1 | tee -a "$log"

case "$1" in
auto)
    bash scripts/auto-vs-cpu.sh "$bin/grundy" 2>&1 | tee -a "$log"
    ;;
long)
    # values/s of rare values with the pass on the card against the CPU. The
    # target is Officers at 5 million values/s at 2^26 and 5x the CPU; the
    # first H100 ran the pass at 0.22 million values/s at 2^20, so 2^26
    # would outlast a lease: 2^22 unless LONG_N says otherwise
    n=${LONG_N:-4194304}
    for args in "0.6 -n $n" "4!.0 -n $n" "0.1777 -n 20000000 --no-fill"; do
        # gpu: the pass launched ahead (the default); gpu-alone: each
        # block's pass, then its finish (GRUNDY_PASS_AHEAD=0)
        for backend in gpu gpu-alone cpu; do
            ahead=$([ "$backend" = gpu-alone ] && echo 0 || echo "")
            TIMEFORMAT="octal $args --backend $backend: %R s"
            # the JSON's gpu object (in flight, the host's waits on the
            # card, the card's idle time) and rare_blocks (the host's
            # finish) say which side is the bottleneck
            # shellcheck disable=SC2086
            { time GRUNDY_PASS_AHEAD=$ahead "$bin/grundy" octal $args --backend "${backend%-alone}" -q --json \
                --format raw --out "$data/long-$backend.raw" |
                grep -oE '"(seconds|kernel_seconds|gpu|rare_blocks)":(\{[^}]*\}|[0-9.e-]+|null)'; } 2>&1 | tee -a "$log"
        done
        cmp "$data/long-gpu.raw" "$data/long-cpu.raw" && cmp "$data/long-gpu-alone.raw" "$data/long-cpu.raw" &&
            echo "octal $args: same table" | tee -a "$log"
    done
    ;;
threads)
    # on two cores no other process shares: the ratio a 2-core VM's
    # neighbours blur (BENCHMARKS-log.md, "Two threads: where the last 4 %
    # goes")
    if command -v python3 >/dev/null && command -v taskset >/dev/null; then
        GRUNDY="$bin/grundy" TASKSET=1 python3 scripts/two-threads.py "${THREADS_ROUNDS:-2}" 2>&1 | tee -a "$log"
    else
        echo "threads: needs python3 and taskset on this machine" | tee -a "$log"
    fi
    ;;
ladder)
    # the CPU backend on 1, 2, 4, 8 and 16 threads (and 16 with the passes
    # started ahead), Officers and Grundy's game to 2^24 (LADDER_N)
    n=${LADDER_N:-16777216}
    for code in 0.6 '4!.0'; do
        for t in 1 2 4 8 16 16-ahead; do
            TIMEFORMAT="octal $code -n $n, $t threads: %R s"
            ahead=$([ "$t" = 16-ahead ] && echo 1 || echo "")
            { time RAYON_NUM_THREADS=${t%-ahead} GRUNDY_PASS_AHEAD=$ahead "$bin/grundy" octal "$code" -n "$n" \
                --backend cpu -q --json --format raw --out /dev/null |
                grep -oE '"(seconds|rare_blocks)":(\{[^}]*\}|[0-9.e-]+|null)'; } 2>&1 | tee -a "$log"
        done
    done
    ;;
dense)
    # codes whose rare counts grow with n: the brute force on both sides
    dense() {
        local name=$1 code=$2 n=$3 backend=$4
        TIMEFORMAT="octal $code -n $n --algorithm naive --backend $backend ($name): %R s"
        { time "$bin/$name" octal "$code" -n "$n" --algorithm naive --backend "$backend" -q --json \
            --format raw --out "$data/dense-$name-$backend.raw" |
            grep -oE '"(seconds|kernel_seconds|max_value|gpu)":(\{[^}]*\}|[0-9.e-]+|null)'; } 2>&1 | tee -a "$log"
    }
    # DENSE_BINS: several builds in one run (gpu-prepare.sh's OTHER_BINS)
    names=${DENSE_BINS:-grundy}
    for w in "0.16 262144" "0.04 ${DENSE_N:-524288}" "0.06 ${DENSE_N:-524288}"; do
        read -r code n <<<"$w"
        for name in $names; do dense "$name" "$code" "$n" gpu; done
        dense grundy "$code" "$n" cpu
        for name in $names; do
            cmp "$data/dense-$name-gpu.raw" "$data/dense-grundy-cpu.raw" &&
                echo "octal $code -n $n ($name): GPU table = CPU table" | tee -a "$log"
        done
    done
    for n in ${DENSE_CARD:-1048576 2097152}; do
        for code in 0.04 0.06; do
            for name in $names; do dense "$name" "$code" "$n" gpu; done
            for name in $names; do
                cmp "$data/dense-grundy-gpu.raw" "$data/dense-$name-gpu.raw" &&
                    echo "octal $code -n $n: $name's table = grundy's" | tee -a "$log"
            done
        done
    done
    ;;
pieces)
    # the pass over a table bound in pieces (as past 2^29 values on Vulkan,
    # 1 GiB a binding) against one binding: same table, the cost of pieces
    for cap in "" 1048576; do
        TIMEFORMAT="octal 4!.0 -n 2^22 --backend gpu, binding cap ${cap:-none}: %R s"
        { time ${cap:+env GRUNDY_GPU_MAX_BINDING=$cap} "$bin/grundy" octal '4!.0' -n 4194303 \
            --backend gpu -q --format raw --out "$data/pieces${cap}.raw"; } 2>&1 | tee -a "$log"
    done
    cmp "$data/pieces.raw" "$data/pieces1048576.raw" && echo "pieces: same table" | tee -a "$log"
    ;;
tests)
    export GRUNDY_REQUIRE_GPU=1
    # the CLI tests run target/release/grundy under the build's checkout
    root=$(cat "$bin/root")
    if [ "$root" != "$PWD" ] && [ ! -e "$root" ]; then
        mkdir -p "$(dirname "$root")" && ln -s "$PWD" "$root"
    fi
    mkdir -p target/release && cp "$bin/grundy" target/release/grundy
    for t in "$bin"/test-*; do
        name=$(basename "$t")
        echo "== $name"
        TIMEFORMAT="$name: %R s"
        # shellcheck disable=SC2086
        time "$t" ${TESTS_FILTER:-} 2>&1 | tee "$data/$name.log" | tee -a "$OUT/tests-full.log" |
            grep -E "^test result|FAILED|panicked|SKIPPED|^---- "
        status=${PIPESTATUS[0]}
        [ "$status" = 0 ] && continue
        echo "$name: exit status $status"
        grep -q "^test result" "$data/$name.log" && continue
        # A binary that dies prints no summary and names no culprit: the
        # tests it never finished again, one at a time, each line flushed,
        # so the last line of the log is the test that kills it
        "$t" --list --format terse 2>/dev/null | sed -n 's/: test$//p' | sort >"$data/$name.all"
        grep -oE '^test [^ ]+ \.\.\. (ok|FAILED|ignored)' "$data/$name.log" |
            awk '{print $2}' | sort >"$data/$name.done"
        unfinished=$(comm -23 "$data/$name.all" "$data/$name.done")
        echo "$name: $(wc -w <<<"$unfinished") tests unfinished, again one at a time"
        echo "== $name, the unfinished tests one at a time" >>"$OUT/tests-full.log"
        # shellcheck disable=SC2086
        "$t" --exact --test-threads=1 $unfinished 2>&1 | tee -a "$OUT/tests-full.log" |
            grep --line-buffered -E "^test result|FAILED|panicked|^error|^grundy:"
        echo "$name one at a time: exit status ${PIPESTATUS[0]}"
        echo "$name: last line: $(tail -n 1 "$OUT/tests-full.log")"
    done 2>&1 | tee -a "$log"
    df -h /tmp | tee -a "$log"
    dmesg 2>/dev/null | grep -iE "oom|killed process|segfault" | tail -5 | tee -a "$log" || true
    ;;
bench)
    # BENCH_ONLY picks parts (e.g. tables,edges when the others were measured).
    # The card's clocks, sampled meanwhile (a small kernel after the CPU
    # twins' idle stretch may meet low clocks), go to $OUT/clocks.csv
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,utilization.gpu \
        --format=csv -lms 100 >"$OUT/clocks.csv" 2>/dev/null &
    clocks=$!
    "$bin/grundy" bench ${BENCH_ONLY:+--only "$BENCH_ONLY"} --out "$OUT/bench.csv" 2>&1 | tee -a "$log"
    kill "$clocks" 2>/dev/null
    [ -n "${BENCH_ONLY:-}" ] && exit 0
    "$bin/grundy" bench --only grids --out "$data/grids.csv" 2>&1 | tee -a "$log"
    # the runner's counters on a long brute-force sequence: pipelines built
    # once, submissions, bytes each way (JSON "gpu")
    for n in 262144 1048576; do
        "$bin/grundy" octal 0.007 -n "$n" --algorithm naive --backend gpu --json -q 2>&1 | tee -a "$log"
    done
    ;;
misere)
    # Misère tables of codes that take without bound, in blocks: the card
    # (genus_below, genus_finish) against the CPU twin, CSVs compared
    for n in ${MISERE_N:-32768 65000}; do
        for code in '0.[3]' '0.3[03]'; do
            for backend in gpu cpu; do
                TIMEFORMAT="misere $code $n $backend: %R s"
                { time "$bin/grundy" octal "$code" -n "$n" --misere --backend "$backend" \
                    --json -q --out "$data/misere-$backend.csv"; } 2>&1 | tee -a "$log"
            done
            cmp "$data/misere-gpu.csv" "$data/misere-cpu.csv" &&
                echo "misere $code $n: card rows = CPU rows" | tee -a "$log"
        done
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
            --out "$data/survey-$name.csv" "$@"; } 2>&1 | tee -a "$log"
    }
    survey gpu --backend gpu
    for wg in 64 1024; do survey "gpu-wg$wg" --backend gpu --workgroup "$wg"; done
    survey cpu --backend cpu
    for f in "$data"/survey-gpu*.csv; do
        cmp "$f" "$data/survey-cpu.csv" && echo "$(basename "$f"): GPU rows = CPU rows" | tee -a "$log"
    done
    ;;
simd)
    # The issue's targets are for a 2-core machine: two of this one's cores
    # run grundy while ogsolve (one thread) runs on a third, so one lease
    # holds both (SIMD_BESIDE=0: ogsolve after them, on the same two, with
    # no neighbour sharing the cache). Officers to SIMD_N heaps (2^22;
    # 16777216 is the targets' size) and, with SIMD_1777=1, .1777
    # certified; tables compared
    n=${SIMD_N:-4194304}
    two='' third=''
    if command -v taskset >/dev/null; then
        two="taskset -c 0,1" third="taskset -c $(($(nproc) / 2))"
    fi
    beside=${SIMD_BESIDE:-1}
    [ "$beside" = 1 ] || third=$two
    read -r -a paths <<<"${SIMD_PATHS:-avx512 avx2 portable plain}"
    work=("0.6 $n")
    [ "${SIMD_1777:-0}" = 1 ] && work+=("0.1777 443139470")
    run_ogsolve() {
        [ -x "$bin/ogsolve" ] || return 0
        TIMEFORMAT="ogsolve $code to $heaps (-m rc2), on ${third:-any core}: %R s wall, %U+%S s CPU"
        { time $third "$bin/ogsolve" -m rc2 -n "$heaps" "$code" >/dev/null; } 2>&1 | tee -a "$log"
    }
    for w in "${work[@]}"; do
        read -r code heaps <<<"$w"
        [ "$beside" = 1 ] && run_ogsolve &
        for path in "${paths[@]}"; do
            TIMEFORMAT="$code to $heaps, GRUNDY_SIMD=$path, 2 cores: %R s wall, %U+%S s CPU"
            { time GRUNDY_SIMD=$path $two "$bin/grundy" octal "$code" -n "$heaps" --backend cpu \
                -q --format raw --out "$data/simd-$path.raw"; } 2>&1 | tee -a "$log"
        done
        for path in "${paths[@]:1}"; do
            cmp -s "$data/simd-${paths[0]}.raw" "$data/simd-$path.raw" ||
                echo "$code: the $path table differs from ${paths[0]}'s" | tee -a "$log"
        done
        [ "$beside" = 1 ] || run_ogsolve
        wait
    done
    ;;
finish)
    # the finish in stretches on the card's host: Officers, Grundy's game and
    # .161 to 2^24 (FINISH_N) with the pass on the card and on 16 threads,
    # stretches as the default has them, on (-on: GRUNDY_STRETCHES=1),
    # off (-off: GRUNDY_STRETCHES=0) or once a block's pass is done (-idle:
    # GRUNDY_STRETCHES=idle), tables compared (FINISH_RUNS names
    # the variants, FINISH_CODES the codes); then the threads' ladder to 2^22
    # (FINISH_LADDER_N), each run's JSON (seconds, the host's finish in
    # rare_blocks, the card's idle time in gpu) to the log
    n=${FINISH_N:-16777216}
    for code in ${FINISH_CODES:-0.6 4!.0 0.161}; do
        # (on the CPU -off is the default past two threads; -on lost
        # everywhere on 16 before stretches went in rounds; on the card's
        # path the default is -idle, which is -on there: its passes come
        # back whole, so the cores are free at once; gpu-off is the finish
        # heap by heap)
        for run in ${FINISH_RUNS:-cpu gpu cpu-idle gpu-off}; do
            backend=${run%%-*} forced=''
            case $run in *-off) forced=0 ;; *-on) forced=1 ;; *-idle) forced=idle ;; esac
            TIMEFORMAT="octal $code -n $n --backend $backend, stretches ${forced:-auto}: %R s"
            { time GRUNDY_STRETCHES=$forced "$bin/grundy" octal "$code" -n "$n" \
                --backend "$backend" -q --json --format raw --out "$data/finish-$run.raw" |
                grep -oE '"(seconds|gpu|rare_blocks)":(\{[^}]*\}|[0-9.e-]+|null)'; } 2>&1 | tee -a "$log"
        done
        first=$(set -- ${FINISH_RUNS:-cpu}; echo "$1")
        for run in ${FINISH_RUNS:-cpu gpu cpu-idle gpu-off}; do
            cmp "$data/finish-$first.raw" "$data/finish-$run.raw" &&
                echo "octal $code -n $n: $run table = $first table" | tee -a "$log"
        done
    done
    [ "${FINISH_LADDER:-1}" = 1 ] || exit 0
    ladder_n=${FINISH_LADDER_N:-4194304}
    for code in 0.6 '4!.0' 0.161; do
        # the default and stretches once a block's pass is done (FINISH_RUNGS
        # names others: -on, -off)
        for t in ${FINISH_RUNGS:-1 2 2-idle 4 4-idle 8 8-idle 16 16-idle}; do
            forced=''
            case $t in *-off) forced=0 ;; *-on) forced=1 ;; *-idle) forced=idle ;; esac
            TIMEFORMAT="octal $code -n $ladder_n, ${t%-*} threads, stretches ${forced:-auto}: %R s"
            { time RAYON_NUM_THREADS=${t%-*} GRUNDY_STRETCHES=$forced "$bin/grundy" octal "$code" \
                -n "$ladder_n" --backend cpu -q --json --format raw --out /dev/null |
                grep -oE '"(seconds|rare_blocks)":(\{[^}]*\}|[0-9.e-]+|null)'; } 2>&1 | tee -a "$log"
        done
    done
    ;;
all)
    # one deadline for the stages, most wanted first; a stage cut off by
    # it still leaves its log
    deadline=$((SECONDS + ${ALL_SECONDS:-480}))
    export GPU_FIGURES_LOG=all
    for stage_cap in ${STAGES:-tests:150 bench:200 misere:90 survey:80 auto:40 long:90 ladder:120 pieces:40 simd:40}; do
        stage=${stage_cap%:*}
        left=$((deadline - SECONDS))
        [ "$left" -gt "${stage_cap#*:}" ] && left=${stage_cap#*:}
        [ "$left" -gt 5 ] || { echo "$stage: no time left" | tee -a "$log"; continue; }
        echo "== $stage ($left s left)" | tee -a "$log"
        timeout -k 5 "$left" bash "$0" "$stage"
        echo "$stage: exit $?, at $SECONDS s" | tee -a "$log"
    done
    ;;
*)
    echo "stage: all, tests, bench, misere, survey, auto, long, finish, threads, ladder, pieces or simd" >&2
    exit 2
    ;;
esac
