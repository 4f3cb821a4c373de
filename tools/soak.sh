#!/usr/bin/env bash
# The viewer soaked for a set time (default an hour): tests/app/tst_app_soak
# with RIGLENS_SOAK_SECONDS, in the real window under Xvfb, every document
# kind opened, played, decoded and reloaded round after round. Prints the
# test's summary (resident memory after the warm-up and at the end, MB per
# hour) and leaves the curve - resident memory and each document's GPU
# memory per round - in build/test-output/soak-<seconds>s.csv.
#
#   tools/soak.sh [SECONDS]        builds first (tools/setup.sh --tests)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RIGLENS_BUILD_DIR:-$repo/build}"
seconds="${1:-3600}"

"$repo/tools/setup.sh" --tests --build-dir "$build_dir" >/dev/null
cmake --build "$build_dir" --target tst_app_soak
out="$build_dir/test-output/soak-${seconds}s"
mkdir -p "$out"
echo "[soak] ${seconds} s; the curve: $out/soak.csv"
status=0
RIGLENS_SOAK_SECONDS="$seconds" RIGLENS_TEST_OUTPUT_DIR="$out" QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 2000x1200x24" "$build_dir/tests/app/tst_app_soak" -maxwarnings 0 2>&1 |
  grep -E "^(PASS|FAIL|QINFO|Totals)" || status=$?
# The curve is kept whatever the verdict: a failed soak's is the one to read.
cp "$out/soak.csv" "$build_dir/test-output/soak-${seconds}s.csv"
exit "$status"
