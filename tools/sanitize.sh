#!/usr/bin/env bash
# The test suite, or the tests named, built and run under AddressSanitizer +
# UndefinedBehaviorSanitizer (RIGLENS_SANITIZE=ON, in build-asan/):
#
#   tools/sanitize.sh [ctest arguments...]     e.g. tools/sanitize.sh -R tst_app_documents
#   tools/sanitize.sh --threads [ctest arguments...]
#
# --threads: ThreadSanitizer instead (RIGLENS_SANITIZE_THREADS=ON, in
# build-tsan/, the engine and its unit tests only: engine/core's and
# engine/media's threaded paths - the loader's part workers, the CPU splat
# rasteriser, GNM's evaluation threads, child processes - without Qt Quick,
# the render thread or a Vulkan driver, whose uninstrumented threads TSan
# cannot see synchronise).
#
# Qt, Mesa and the other libraries stay uninstrumented: what is found is in
# RigLens's code or in memory RigLens hands them (a freed buffer a GPU pass
# still writes, on lavapipe). Leak checking is off: Qt's and the drivers'
# process-lifetime allocations would drown ours. Any report fails the run.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ "${1:-}" == --threads ]]; then
  shift
  "$repo/tools/setup.sh" --no-build
  build_dir="${RIGLENS_TSAN_BUILD_DIR:-$repo/build-tsan}"
  cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGLENS_SANITIZE_THREADS=ON \
    -DRIGLENS_BUILD_RENDER=OFF -DRIGLENS_BUILD_APP=OFF -DRIGLENS_BUILD_BENCHMARKS=OFF \
    -DRIGLENS_INTEROP_TESTS=OFF >/dev/null
  cmake --build "$build_dir" --parallel "$(nproc)"
  # (tools/tsan.supp: races inside Qt's and OpenCV's uninstrumented
  # synchronisation, each argued there.)
  export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$repo/tools/tsan.supp"
  ctest --test-dir "$build_dir" --output-on-failure -L unit "$@"
  exit
fi
build_dir="${RIGLENS_ASAN_BUILD_DIR:-$repo/build-asan}"
# (--tests: the node packages too - tst_app_viewer's export check runs the
# Khronos validator from the build tree even without the interop label.
# No unity build: here every source compiles on its own, so one that leans
# on an include another source of its batch made fails here.)
"$repo/tools/setup.sh" --tests --build-dir "$build_dir" -DRIGLENS_SANITIZE=ON \
  -DRIGLENS_BUILD_BENCHMARKS=OFF -DRIGLENS_INTEROP_TESTS=OFF -DRIGLENS_UNITY_BUILD=OFF
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build_dir" --output-on-failure "$@"
