#!/usr/bin/env bash
# Quick start (2): install what is missing, check the tree refers to nothing
# outside it, that includes point the allowed way and that every C++ file is
# formatted (before building), build with warnings as errors, run the whole
# test suite (every label), build the .deb and check it (lintian, run extracted), then a short,
# reproducible run of every fuzz target: seed 1, RIGLENS_FUZZ_RUNS inputs
# (default 30000), at most RIGLENS_FUZZ_SECONDS (default 90) each, one target
# per core (RIGLENS_FUZZ_JOBS, default nproc: the fuzzers are all built before
# the first runs, so nothing else wants the cores). A fixed seed and input
# count make the smoke's verdict a property of the commit, not of the
# machine's speed; the 90 s cap leaves every target but model_formats (a real
# Assimp child per input) room to finish its inputs while sharing the
# machine. Open-ended fuzzing is tools/fuzz.sh without them.
#
#   tools/test.sh [ctest arguments...]     e.g. tools/test.sh -L unit
#
# .ci/run calls this verbatim. Exits non-zero when anything fails.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RIGLENS_BUILD_DIR:-$repo/build}"

"$repo/tools/check-self-contained.sh"
"$repo/tools/check-layers.sh"
"$repo/tools/check-tolerances.py"
# The packages first (clang-format among them), so a formatting slip fails in
# seconds rather than after a 30-minute build.
"$repo/tools/setup.sh" --no-build
"$repo/tools/check-format.sh"
"$repo/tools/setup.sh" --tests --build-dir "$build_dir" -DRIGLENS_WERROR=ON

echo "[test] ctest"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"

if (($# == 0)); then
  echo "[test] cpack -G DEB"
  (cd "$build_dir" && cpack -G DEB >/dev/null && ls -1 "$build_dir"/riglens_*.deb)
  "$repo/tools/check-package.sh" "$build_dir"
  echo "[test] fuzz smoke: every target, ${RIGLENS_FUZZ_RUNS:-30000} inputs from seed 1"
  RIGLENS_FUZZ_JOBS="${RIGLENS_FUZZ_JOBS:-$(nproc)}" RIGLENS_FUZZ_RUNS="${RIGLENS_FUZZ_RUNS:-30000}" \
    "$repo/tools/fuzz.sh" all "${RIGLENS_FUZZ_SECONDS:-90}"
fi
