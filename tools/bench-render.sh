#!/usr/bin/env bash
# Time from start to PNG: `riglens-cli render` against F3D (a peer viewer,
# Debian's f3d, installed here on demand) on the same model: the large sample
# (64 parts, 2.72M triangles) for RigLens, its exported GLB for F3D, both at
# 1280x720, each run 3 times, medians reported. F3D needs an X server: one
# Xvfb is started for the whole script so its start-up is not counted.
# Also runs bench_render (frame times). Usage: tools/bench-render.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RIGLENS_BUILD_DIR:-$repo/build}"
"$repo/tools/setup.sh" --build-dir "$build" >/dev/null
if ! command -v f3d >/dev/null; then
  echo "[bench] installing f3d (Debian package) for the comparison"
  if [[ $(id -u) -eq 0 ]]; then apt-get install -y -qq --no-install-recommends f3d >/dev/null
  else sudo apt-get install -y -qq --no-install-recommends f3d >/dev/null; fi
fi
work="$(mktemp -d)"
trap 'kill "${xvfb_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
cli="$build/app/riglens-cli"
"$cli" samples --out "$work" --name large >/dev/null
"$cli" export "$work/large" --out "$work/large.glb" >/dev/null

display=":$((RANDOM % 400 + 100))"
Xvfb "$display" -screen 0 1280x1024x24 >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_runs() {  # prints the median wall time in seconds of 3 runs of "$@"
  for _ in 1 2 3; do
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1
    end=$(date +%s.%N)
    echo "$end - $start" | bc -l
  done | median
}
riglens=$(time_runs "$cli" render "$work/large" --out "$work/riglens.png" --size 1280x720)
f3d=$(DISPLAY="$display" time_runs f3d --output "$work/f3d.png" --resolution 1280,720 "$work/large.glb")
printf 'render to PNG, large sample, 1280x720 (median of 3):\n  riglens-cli render  %.2f s\n  f3d --output        %.2f s\n  ratio riglens/f3d   %.2f\n' \
  "$riglens" "$f3d" "$(echo "$riglens / $f3d" | bc -l)"
QT_QPA_PLATFORM=vkkhrdisplay "$build/bench/bench_render" 2>&1 | tail -4
