#!/usr/bin/env bash
# Packs what a lent GPU machine (the `device` tool) needs to check and time
# grundy: it has no Rust toolchain and no network. The release binary and
# the test binaries that open the GPU, stripped, in .device/bins.tar.xz;
# Vulkan's loader in .gl/. Both are ignored by git: carry them, then run
# scripts/gpu-figures.sh there (see BENCHMARKS.md, "On a real GPU").
set -euo pipefail
cd "$(dirname "$0")/.."
exclude=$(git rev-parse --git-path info/exclude)
mkdir -p "$(dirname "$exclude")"
for dir in /.device/ /.gl/; do
    grep -qsx "$dir" "$exclude" || echo "$dir" >>"$exclude"
done

cargo build --release
rm -rf .device && mkdir -p .device/bin
cp target/release/grundy .device/bin/
# the test binaries whose GPU tests need an adapter (library-only: they do
# not run the grundy binary, whose path is compiled into the CLI tests)
GRUNDY_REQUIRE_GPU=1 cargo test --release --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, shutil, sys
wanted = {"gpu", "graphs", "survey_kernel", "arrows", "tuples", "rare_gpu"}
for line in sys.stdin:
    m = json.loads(line)
    name = m.get("target", {}).get("name")
    if m.get("reason") == "compiler-artifact" and m.get("executable") and name in wanted \
            and "test" in m["target"]["kind"]:
        shutil.copy(m["executable"], ".device/bin/test-" + name)
'
strip .device/bin/*
tar -C .device -cJf .device/bins.tar.xz bin
rm -r .device/bin

# Vulkan's loader (the machine has NVIDIA's driver but maybe not libvulkan)
mkdir -p .gl /tmp/amd64/partial
apt_amd64=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
apt-get "${apt_amd64[@]}" update -qq
(cd .gl && apt-get "${apt_amd64[@]}" download libvulkan1 >/dev/null)
du -sh .device .gl
