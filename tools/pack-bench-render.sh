#!/usr/bin/env bash
# Packs bench_render with the Debian shared libraries it needs (Qt 6.4, the
# Vulkan loader, the vkkhrdisplay platform plugin; not glibc/libstdc++) into
# one tarball, so the GPU benchmarks run on a machine without Qt, e.g. the
# NVIDIA H200 host reached with /work/.library's `device` tool, whose driver
# ships the Vulkan ICD. On that machine:
#   tar -xJf bench-render.tar.xz && cd bench-render &&
#   LD_LIBRARY_PATH=$PWD/lib:/usr/local/nvidia/lib64 QT_PLUGIN_PATH=$PWD/plugins \
#   QT_QPA_PLATFORM=vkkhrdisplay ./bench_render
# Usage: tools/pack-bench-render.sh [OUT.tar.xz] [BENCH]...   (default build/bench-render.tar.xz, bench_render)
# Each BENCH is a benchmark (bench/NAME) or a test (tests/render/NAME, e.g.
# tst_render_character, to check the GPU passes on that GPU: the goldens are
# read from the repository's path, where the device tool puts the tree).
# bench_decoded also packs its decoders (build/bench/decoders), bench_render
# the app's sample decoders and tools/device-splat-frames.sh, and both the ICT
# face they build the sample character from; OpenCV's libraries come with ldd. bench_shader_stats also
# packs the SPIR-V of every compute shader (spirv/, out of the .qsb files
# with Qt's qsb): `./bench_shader_stats spirv/*.spv` there prints what the
# GPU's driver made of each.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${RIGLENS_BUILD_DIR:-$repo/build}"
out="${1:-$build/bench-render.tar.xz}"
shift || true
benches=("$@")
[[ ${#benches[@]} -gt 0 ]] || benches=(bench_render)
cmake --build "$build" --target "${benches[@]}" >/dev/null
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
dir="$stage/bench-render"
mkdir -p "$dir/lib" "$dir/plugins/platforms"
binaries=()
# Every compute shader's SPIR-V (the .qsb's Vulkan variant, and the sort's
# per-subgroup-size builds) into $1.
pack_spirv() {
  mkdir -p "$1"
  local qsb
  for qsb in "$build"/engine/render/.qsb/*.comp.qsb; do
    /usr/lib/qt6/bin/qsb -x spirv,100 -o "$1/$(basename "$qsb" .qsb).spv" "$qsb" >/dev/null 2>&1
  done
  cp "$build"/engine/render/spirv/*.spv "$1/"
}
for bench in "${benches[@]}"; do
  binary="$build/bench/$bench"
  [[ -x $binary ]] || binary="$build/tests/render/$bench"
  cp "$binary" "$dir/" && strip "$dir/$bench"
  binaries+=("$binary")
  [[ $bench == bench_decoded ]] && cp -r "$build/bench/decoders" "$dir/decoders"
  # bench_render's decoded character: the app's sample decoders; and the
  # splat frames' parts-against-whole-runs script
  if [[ $bench == bench_render ]]; then
    cp -r "$build/share/riglens/sample-decoders" "$dir/sample-decoders"
    cp "$repo/tools/device-splat-frames.sh" "$dir/"
  fi
  [[ $bench == bench_shader_stats ]] && pack_spirv "$dir/spirv"
  # bench_decoded and bench_render build the sample character from it
  if [[ $bench == bench_decoded || $bench == bench_render ]] && [[ ! -d $dir/ict-face ]]; then
    cp -r "$repo/data/ict-face" "$dir/ict-face"
  fi
done
plugin=/usr/lib/x86_64-linux-gnu/qt6/plugins/platforms/libqvkkhrdisplay.so
cp -L "$plugin" "$dir/plugins/platforms/"
# Every library the binaries, the plugin and the Vulkan loader pull in, except
# the C/C++ runtime the target's own (newer) glibc and libstdc++ provide.
for binary in "${binaries[@]}" "$plugin" /usr/lib/x86_64-linux-gnu/libvulkan.so.1; do ldd "$binary"; done |
  awk '$3 ~ /^\// {print $3}' | sort -u |
  grep -vE '/(libc|libm|libmvec|libstdc\+\+|libgcc_s|ld-linux-x86-64|libpthread|libdl|librt)\.so' |
  xargs -I{} cp -L {} "$dir/lib/"
cp -L /usr/lib/x86_64-linux-gnu/libvulkan.so.1 "$dir/lib/"
tar -C "$stage" -cJf "$out" bench-render
echo "$out"
