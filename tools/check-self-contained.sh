#!/usr/bin/env bash
# Fails when anything in the repository refers to a folder outside it (the
# reference shelf some developers keep beside their clone, or a build
# machine's absolute path): everything the product and its tests read must be
# in the tree. tools/test.sh (and so CI) runs this first.
#
#   tools/check-self-contained.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

# Patterns of a path that leaves the repository: the shelf folder beside the
# clone (its name is assembled here, so this script names no path outside the
# tree and can check itself), its data folder, CMake's source dir followed by
# /.., and a few absolute build-machine roots.
shelf="sha""red"
patterns=(
  -e "\\.\\./${shelf}"
  -e "(^|[^a-z_])${shelf}/data"
  -e '(SOURCE_DIR|SOURCE_DIR\})/\.\.([/"]|$)'
  -e '"/(work|home|tmp/ci)/'
)
if hits=$(git grep -nIE "${patterns[@]}" -- .); then
  echo "[self-contained] these lines refer to a folder outside the repository:" >&2
  echo "$hits" >&2
  echo "[self-contained] copy what they need into the repository (with its source and licence) instead." >&2
  exit 1
fi
echo "[self-contained] no reference to a folder outside the repository"
