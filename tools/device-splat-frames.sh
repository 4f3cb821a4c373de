#!/usr/bin/env bash
# The three splat frames of docs/benchmarks.md (dense and 6 cm 1M tori at
# 1280x720, the scene-like 3M SH-3 cloud at 1920x1080; compute tiles, no
# render pass) with the compute tiles' parts as built and with every run
# whole (RIGLENS_RASTER_PART_KEYS=0), one process per case, alternated, so
# the parts' default is timed against the kernel without them in one
# sitting. tools/pack-bench-render.sh puts it in the pack beside
# bench_render; on the GPU host, in the unpacked folder:
#   ./device-splat-frames.sh [ROUNDS]     (default 2)
# Prints the machine's strings, then per case the medians of 3 repetitions
# of --benchmark_min_time=0.5: wall ms, gpu_ms, the raster's share, the keys.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here"
export LD_LIBRARY_PATH="$here/lib:/usr/local/nvidia/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export QT_PLUGIN_PATH="$here/plugins" QT_QPA_PLATFORM=vkkhrdisplay
rounds="${1:-2}"
command -v nvidia-smi >/dev/null &&
  nvidia-smi --query-gpu=name,driver_version,vbios_version,clocks.max.sm,clocks.max.mem --format=csv,noheader
./bench_render --benchmark_filter=NONE 2>&1 | grep -m1 '^device:'
frame() {  # frame LABEL FILTER [ENV...]: the median row's columns, found by the CSV header
  local label="$1" filter="$2"
  shift 2
  env "$@" ./bench_render --benchmark_filter="$filter" --benchmark_min_time=0.5 --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true --benchmark_format=csv 2>/dev/null |
    awk -F, -v l="$label" 'NR == 1 { for (i = 1; i <= NF; i++) { gsub(/"/, "", $i); col[$i] = i } }
      /_median"/ { printf "%-44s wall %.3f ms, gpu %.3f ms, raster %.3f ms, tile keys %d\n", l,
        $col["real_time"], $col["gpu_ms"], $col["gpu_raster_ms"], $col["tile_keys"] }'
}
cases=("dense 1M torus, 1280x720|^BM_SplatFrame/n:1048576/passes:3/raster:0/scene:0/samples:1/pass:0/"
  "6 cm 1M torus, 1280x720|^BM_SplatFrame/n:1048576/passes:3/raster:0/scene:1/samples:1/pass:0/"
  "scene-like 3M SH 3, 1920x1080|^BM_SplatFrame/n:3145728/passes:3/raster:0/scene:2/samples:1/pass:0/")
for round in $(seq "$rounds"); do
  echo "round $round"
  for c in "${cases[@]}"; do
    frame "${c%%|*}, parts as built" "${c#*|}" RIGLENS_UNUSED=1
    frame "${c%%|*}, every run whole" "${c#*|}" RIGLENS_RASTER_PART_KEYS=0
  done
done
