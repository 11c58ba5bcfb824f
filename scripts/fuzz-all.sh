#!/usr/bin/env bash
# Fuzzes every target of grundy::fuzz::TARGETS with cargo afl (docs/fuzzing.md),
# JOBS at a time for SECONDS each (defaults 2 and 600), from fuzz/corpus/TARGET,
# into fuzz/out/TARGET; then prints each target's executions, coverage and
# findings. Needs `cargo install cargo-afl` and `cd fuzz && cargo afl build --release`.
set -uo pipefail
cd "$(dirname "$0")/../fuzz"
seconds=${SECONDS_EACH:-600}
jobs=${JOBS:-2}
targets=(code graph graph_code raw heap_checkpoint survey_checkpoint heaps boxes)
mkdir -p out
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
for ((i = 0; i < ${#targets[@]}; i += jobs)); do
    for t in "${targets[@]:i:jobs}"; do
        GRUNDY_FUZZ_TARGET=$t cargo afl fuzz -i "corpus/$t" -o "out/$t" -V "$seconds" \
            target/release/grundy-fuzz >"out/$t.log" 2>&1 &
    done
    wait
done
for t in "${targets[@]}"; do
    stats=out/$t/default/fuzzer_stats
    printf '%s: ' "$t"
    grep -E '^(run_time|execs_done|execs_per_sec|corpus_count|bitmap_cvg|saved_crashes|saved_hangs) ' "$stats" |
        awk '{printf "%s=%s ", $1, $3} END {print ""}'
done
