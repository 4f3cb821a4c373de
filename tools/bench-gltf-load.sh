#!/usr/bin/env bash
# One big glTF file, loaded by RigLens and by three.js side by side: the
# large sample (64 parts, 2.72M triangles) exported to one GLB (~228 MB),
# then, alternating, 5 runs each of
#   riglens-cli inspect FILE.glb   the viewer's load: the file read, parsed by
#                                  tinygltf, every primitive decoded into the
#                                  mesh the GPU gets, the node tree and clips
#   node three_load.mjs FILE.glb   three.js GLTFLoader.parse, every accessor a
#                                  typed array
# reporting the median whole-process wall time and peak memory (max RSS) of
# each, and the file's size. RIGLENS_CLI_BEFORE=/path/to/an/older/riglens-cli
# adds its row (a before/after in the same sitting).
# Usage: tools/bench-gltf-load.sh [RUNS]
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RIGLENS_BUILD_DIR:-$repo/build}"
runs="${1:-5}"
"$repo/tools/setup.sh" --tests --build-dir "$build" >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cli="$build/app/riglens-cli"
"$cli" samples --out "$work" --name large >/dev/null
"$cli" export "$work/large" --out "$work/large.glb" >/dev/null
file_mb=$(($(stat -c %s "$work/large.glb") / 1000000))

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
: >"$work/riglens" && : >"$work/three" && : >"$work/before"
for _ in $(seq "$runs"); do
  /usr/bin/time -f '%e %M' -o "$work/t" "$cli" inspect "$work/large.glb" >/dev/null 2>&1
  cat "$work/t" >>"$work/riglens"
  if [[ -n "${RIGLENS_CLI_BEFORE:-}" ]]; then
    /usr/bin/time -f '%e %M' -o "$work/t" "$RIGLENS_CLI_BEFORE" inspect "$work/large.glb" >/dev/null 2>&1
    cat "$work/t" >>"$work/before"
  fi
  (cd "$build/interop-node" && /usr/bin/time -f '%e %M' -o "$work/t" node three_load.mjs "$work/large.glb" >/dev/null)
  cat "$work/t" >>"$work/three"
done
row() {  # name, file of "seconds kilobytes" lines
  local s kb
  s=$(cut -d' ' -f1 "$2" | median)
  kb=$(cut -d' ' -f2 "$2" | median)
  awk -v name="$1" -v s="$s" -v kb="$kb" -v mb="$file_mb" \
    'BEGIN { printf "| %-38s | %6.2f s | %6d MB | %4.2fx the file |\n", name, s, kb / 1000, kb / 1000 / mb }'
}
echo "large sample as one GLB: ${file_mb} MB, medians of $runs runs"
echo "| load | wall time | peak memory | peak / file |"
echo "|---|---|---|---|"
row "riglens-cli inspect (the viewer's load)" "$work/riglens"
if [[ -n "${RIGLENS_CLI_BEFORE:-}" ]]; then row "riglens-cli inspect, before" "$work/before"; fi
row "three.js GLTFLoader.parse (node)" "$work/three"
