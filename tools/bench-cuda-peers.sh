#!/usr/bin/env bash
# Builds bench/peers/cuda_peers.cu with the host's nvcc (CUB and cuBLAS come
# with the CUDA toolkit) and runs it: the sort and GEMV peers of
# bench_render, called directly, on the machine's first GPU. Run it in the
# same sitting as the packed bench_render (tools/pack-bench-render.sh), e.g.
# on the H200 host through /work/.library's `device` tool.
# Usage: tools/bench-cuda-peers.sh [BUILD_DIR]   (default: a temporary folder)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
nvcc --version | tail -2
# The GPU's own architecture where nvcc can find it, else Hopper (the H200).
arch=native
nvcc -arch=native --dryrun -x cu /dev/null >/dev/null 2>&1 || arch=sm_90
nvcc -O3 -std=c++17 -arch="$arch" "$repo/bench/peers/cuda_peers.cu" -lcublas -o "$out/cuda_peers"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader || true
"$out/cuda_peers"
