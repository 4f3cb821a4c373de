#!/usr/bin/env bash
# Fails when a tracked C++ file differs from the project's .clang-format
# (Debian's clang-format). Fix a diff with
#   git ls-files '*.cpp' '*.h' | xargs clang-format -i
#
#   tools/check-format.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
if ! git ls-files -z '*.cpp' '*.h' | xargs -0 clang-format --dry-run --Werror 2>/tmp/riglens-format.$$; then
  grep -E '^[^ ].*error:' /tmp/riglens-format.$$ | cut -d: -f1 | sort -u | sed 's/^/[format] differs from .clang-format: /' >&2
  rm -f /tmp/riglens-format.$$
  echo "[format] run: git ls-files '*.cpp' '*.h' | xargs clang-format -i" >&2
  exit 1
fi
rm -f /tmp/riglens-format.$$
echo "[format] every C++ file is formatted"
