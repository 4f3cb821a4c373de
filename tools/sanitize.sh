#!/usr/bin/env bash
# The test suite, or the tests named, built and run under AddressSanitizer +
# UndefinedBehaviorSanitizer (RIGLENS_SANITIZE=ON, in build-asan/):
#
#   tools/sanitize.sh [ctest arguments...]     e.g. tools/sanitize.sh -R tst_app_documents
#
# Qt, Mesa and the other libraries stay uninstrumented: what is found is in
# RigLens's code or in memory RigLens hands them (a freed buffer a GPU pass
# still writes, on lavapipe). Leak checking is off: Qt's and the drivers'
# process-lifetime allocations would drown ours. Any report fails the run.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RIGLENS_ASAN_BUILD_DIR:-$repo/build-asan}"

"$repo/tools/setup.sh" --no-build
cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRIGLENS_SANITIZE=ON \
  -DRIGLENS_BUILD_BENCHMARKS=OFF -DRIGLENS_INTEROP_TESTS=OFF >/dev/null
cmake --build "$build_dir" --parallel "$(nproc)"
export ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:halt_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
ctest --test-dir "$build_dir" --output-on-failure "$@"
