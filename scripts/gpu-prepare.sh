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
# OTHER_BINS="path:name ...": other builds (an earlier commit, an experiment)
# beside it, for the dense stage's builds in one run (DENSE_BINS there)
for other in ${OTHER_BINS:-}; do
    cp "${other%%:*}" ".device/bin/${other#*:}"
done
# every test binary of the workspace, named test-<target>-<kind>. The CLI
# tests run the grundy binary at the path compiled into them (under this
# checkout), so the checkout's path travels too: gpu-figures.sh links it to
# the copy there and puts the binary at target/release/grundy in it
pwd >.device/bin/root
GRUNDY_REQUIRE_GPU=1 cargo test --release --workspace --no-run --message-format=json 2>/dev/null |
    python3 -c '
import json, shutil, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        t = m["target"]
        shutil.copy(m["executable"], ".device/bin/test-%s-%s" % (t["name"], t["kind"][0]))
'
# ogsolve, when installed here, for the simd stage's ratio
og=$(command -v ogsolve || true)
[ -n "$og" ] && cp "$og" .device/bin/ogsolve
strip .device/bin/grundy* .device/bin/test-*
tar -C .device -cJf .device/bins.tar.xz bin
rm -r .device/bin

# Vulkan's loader, and glvnd: NVIDIA's Vulkan driver is libGLX_nvidia.so.0,
# which needs libGLdispatch.so.0 (without it the loader finds no device:
# "no GPU adapter found", seen on the first lent H100)
rm -rf .gl && mkdir -p .gl /tmp/amd64/partial
apt_amd64=(-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64)
apt-get "${apt_amd64[@]}" update -qq
(cd .gl && apt-get "${apt_amd64[@]}" download libvulkan1 libglvnd0 libegl1 libgl1 libglx0 \
    libopengl0 libgles2 >/dev/null)
du -sh .device .gl
