#!/usr/bin/env bash
# Quick start (2): install what is missing, build with warnings as errors,
# run the whole test suite (every label) and build the .deb.
#
#   tools/test.sh [ctest arguments...]     e.g. tools/test.sh -L unit
#
# .ci/run calls this verbatim. Exits non-zero when anything fails.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RIGLENS_BUILD_DIR:-$repo/build}"

"$repo/tools/check-self-contained.sh"
"$repo/tools/setup.sh" --tests --build-dir "$build_dir" -DRIGLENS_WERROR=ON

echo "[test] ctest"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"

if (($# == 0)); then
  echo "[test] cpack -G DEB"
  (cd "$build_dir" && cpack -G DEB >/dev/null && ls -1 "$build_dir"/riglens_*.deb)
fi
