#!/usr/bin/env bash
# From start to picture, RigLens against F3D (a peer viewer: Debian's f3d,
# installed here on demand) in the same run, on the same models:
#   - `riglens-cli render` of the large sample (64 parts, 2.72M triangles) to
#     a 1280x720 PNG, at the default quality and with --samples 1, against
#     `f3d --output` of the same model exported as one GLB;
#   - the same render against F3D drawing RigLens's view of it (the camera
#     `riglens-cli render --print-camera` reports, handed to F3D's
#     --camera-* options): F3D frames the model its own way (the large
#     sample edge-on, a few percent of the pixels), so this row is the one
#     in which both programs draw the same triangles onto the same pixels;
#   - the viewer's cold start on the tank sample (`riglens PATH --screenshot`,
#     1280x800) against `f3d --output` of the tank's GLB.
# Whole-process wall time and peak memory (GNU time's maximum resident set),
# medians of RUNS runs (default 5), each after IDLE seconds with nothing
# running (RIGLENS_BENCH_IDLE, default 4), as a program started once finds the
# machine: on a VM the kernel hands idle free memory back to the host after
# about two seconds, and a run right after another reuses what it freed,
# which flatters whatever faults most (huge pages on such a VM: the large
# render 2.2 s back to back, 3.8 s after an idle gap; malloc_tunables.h). F3D
# runs twice: as installed, and with glibc's huge-page malloc tunable (which
# halved its time on a VM whose every first touch was slow, 2026-12-03), so
# neither side is compared on its allocator alone. F3D and the viewer need an
# X server: one Xvfb serves the whole script, so its start-up is not counted.
# RIGLENS_BEFORE_BUILD=DIR adds a column for an older build's executables
# (DIR/app/riglens-cli, DIR/app/riglens). Then bench_render's tank and large frames.
# Usage: tools/bench-render.sh [RUNS]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RIGLENS_BUILD_DIR:-$repo/build}"
runs="${1:-5}"
idle="${RIGLENS_BENCH_IDLE:-4}"
before="${RIGLENS_BEFORE_BUILD:-}"
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
"$cli" samples --out "$work" --name tank-cubes >/dev/null
"$cli" export "$work/large" --out "$work/large.glb" >/dev/null
"$cli" export "$work/tank-cubes" --out "$work/tank.glb" >/dev/null

display=":$((RANDOM % 400 + 100))"
Xvfb "$display" -screen 0 1920x1080x24 >/dev/null 2>&1 &
xvfb_pid=$!
sleep 1
export DISPLAY="$display"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# "SECONDS MEGABYTES": the medians of the wall time and the peak resident set.
measure() {
  local times="$work/times"
  : >"$times"
  for _ in $(seq "$runs"); do
    sleep "$idle"
    /usr/bin/time -f "%e %M" -a -o "$times" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; return 1; }
  done
  echo "$(awk '{print $1}' "$times" | median) $(awk '{print $2 / 1024}' "$times" | median)"
}
row() {  # row NAME RIGLENS_ARGS... -- F3D_ARGS...
  local name="$1"; shift
  local ours=() peer=()
  while [[ "$1" != "--" ]]; do ours+=("$1"); shift; done
  shift
  peer=("$@")
  local now then="" f3d huge
  now=$(measure "${ours[@]}")
  if [[ -n "$before" ]]; then then=$(measure "${ours[@]/#$build/$before}"); fi
  f3d=$(measure f3d "${peer[@]}")
  huge=$(measure env GLIBC_TUNABLES=glibc.malloc.hugetlb=1 f3d "${peer[@]}")
  read -r now_s now_mb <<<"$now"
  read -r f3d_s f3d_mb <<<"$f3d"
  read -r huge_s huge_mb <<<"$huge"
  local before_cell=""
  if [[ -n "$then" ]]; then
    read -r then_s then_mb <<<"$then"
    before_cell=$(printf '%.2f s (%.0f MB) | ' "$then_s" "$then_mb")
  fi
  local best  # the peer at its faster allocator
  best=$(echo "if ($f3d_s < $huge_s) $f3d_s else $huge_s" | bc -l)
  printf '| %s | %s%.2f s (%.0f MB) | %.2f s (%.0f MB) | %.2f s (%.0f MB) | %.2fx |\n' "$name" "$before_cell" \
    "$now_s" "$now_mb" "$f3d_s" "$f3d_mb" "$huge_s" "$huge_mb" "$(echo "$best / $now_s" | bc -l)"
}

echo "start to picture, medians of $runs runs, each after ${idle} s idle, $(nproc) cores, $(date -u +%Y-%m-%d)"
echo "peer: $(f3d --version 2>&1 | head -1); $(glxinfo -B 2>/dev/null | grep -E 'OpenGL renderer' || echo 'glxinfo not installed')"
if [[ -n "$before" ]]; then
  echo "| what | RigLens before | RigLens | F3D | F3D, huge pages | F3D (faster of the two) / RigLens |"
  echo "|---|---|---|---|---|---|"
else
  echo "| what | RigLens | F3D | F3D, huge pages | F3D (faster of the two) / RigLens |"
  echo "|---|---|---|---|---|"
fi
row "riglens-cli render, large sample, 1280x720 (4 samples)" \
  env QT_QPA_PLATFORM=vkkhrdisplay "$build/app/riglens-cli" render "$work/large" --out "$work/r.png" --size 1280x720 \
  -- --output "$work/f.png" --resolution 1280,720 "$work/large.glb"
row "the same with --samples 1" \
  env QT_QPA_PLATFORM=vkkhrdisplay "$build/app/riglens-cli" render "$work/large" --out "$work/r.png" --size 1280x720 \
  --samples 1 -- --output "$work/f.png" --resolution 1280,720 "$work/large.glb"
# riglens-cli's camera as F3D's options: "camera: eye=X,Y,Z target=X,Y,Z up=X,Y,Z fov-y=DEG".
read -r eye target up fov < <(QT_QPA_PLATFORM=vkkhrdisplay "$cli" render "$work/large" --out "$work/r.png" \
  --size 1280x720 --print-camera | sed -n 's/^camera: eye=\([^ ]*\) target=\([^ ]*\) up=\([^ ]*\) fov-y=\([^ ]*\)$/\1 \2 \3 \4/p')
[[ -n "$fov" ]] || { echo "riglens-cli render --print-camera printed no camera" >&2; exit 1; }
row "the same, F3D drawing RigLens's view (same camera)" \
  env QT_QPA_PLATFORM=vkkhrdisplay "$build/app/riglens-cli" render "$work/large" --out "$work/r.png" --size 1280x720 \
  -- --output "$work/f.png" --resolution 1280,720 --camera-position="$eye" --camera-focal-point="$target" \
  --camera-view-up="$up" --camera-view-angle="$fov" "$work/large.glb"
row "the same in the PBR look (F3D's is PBR)" \
  env QT_QPA_PLATFORM=vkkhrdisplay "$build/app/riglens-cli" render "$work/large" --out "$work/r.png" --size 1280x720 \
  --look pbr -- --output "$work/f.png" --resolution 1280,720 "$work/large.glb"
row "the PBR look with --samples 1 (F3D does not antialias by default)" \
  env QT_QPA_PLATFORM=vkkhrdisplay "$build/app/riglens-cli" render "$work/large" --out "$work/r.png" --size 1280x720 \
  --look pbr --samples 1 -- --output "$work/f.png" --resolution 1280,720 "$work/large.glb"
row "viewer cold start to a saved window, tank, 1280x800" \
  "$build/app/riglens" "$work/tank-cubes" --screenshot "$work/g.png" --size 1280x800 \
  -- --output "$work/f.png" --resolution 1280,800 "$work/tank.glb"
echo
echo "where riglens-cli render's time goes (large sample, default quality, one run):"
QT_QPA_PLATFORM=vkkhrdisplay "$cli" render "$work/large" --out "$work/r.png" --size 1280x720 --timings 2>&1 >/dev/null |
  sed -n '/^timings/,$p'
echo "where the viewer's cold start goes (tank, one run):"
"$build/app/riglens" "$work/tank-cubes" --screenshot "$work/g.png" --size 1280x800 --timings 2>&1 >/dev/null |
  sed -n '/^timings/,$p'
echo
# The two frames the rows draw (every benchmark would take an hour on lavapipe).
QT_QPA_PLATFORM=vkkhrdisplay "$build/bench/bench_render" --benchmark_filter='BM_RenderFrame/(tank|large)/' 2>&1 | tail -4
