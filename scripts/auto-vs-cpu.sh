#!/usr/bin/env bash
# Times the default backend (auto) against --backend cpu, and the software
# adapter forced with --backend gpu, on the same commands in one run: on a
# machine whose only Vulkan device is llvmpipe, auto must cost no more than
# the CPU backend. Usage: bash scripts/auto-vs-cpu.sh [path/to/grundy]
set -euo pipefail
bin=${1:-target/release/grundy}
export NODEVICE_SELECT=1

# Wall seconds of one command (its own output dropped); bash's own timer,
# so the script needs nothing a bare lent machine may lack.
seconds() {
    local TIMEFORMAT=%R
    { time "$@" >/dev/null 2>&1; } 2>&1 || true
}

row() {
    local name=$1; shift
    local auto cpu gpu
    auto=$(seconds "$bin" "$@")
    cpu=$(seconds "$bin" "$@" --backend cpu)
    gpu=$(seconds "$bin" "$@" --backend gpu)
    printf '%-44s %9.2f %9.2f %9.2f %9.2f\n' "$name" "$auto" "$cpu" "$gpu" \
        "$(awk -v a="$auto" -v c="$cpu" 'BEGIN { print (c > 0 ? a / c : 0) }')"
}

"$bin" bench --only heaps --quick --backend gpu 2>/dev/null | grep '^GPU:' || echo "GPU: none"
printf '%-44s %9s %9s %9s %9s\n' command "auto s" "cpu s" "gpu s" auto/cpu
row "octal 0.07 -n 100000" octal 0.07 -n 100000
row "octal 0.07 -n 100000 --no-fill" octal 0.07 -n 100000 --no-fill
row "octal 0.07 -n 100000 --algorithm naive" octal 0.07 -n 100000 --algorithm naive --no-fill
row "rect --max 200" rect --max 200
row "delete-nim --rule single --heaps 3 --max 60" delete-nim --rule single --heaps 3 --max 60
row "survey --digits 2 -n 20000" survey --digits 2 -n 20000
row "bench --quick" bench --quick
