#!/usr/bin/env bash
# Installs the Debian packages RigLens needs (only the missing ones), then
# configures and builds the project with CMake + Ninja.
#
#   tools/setup.sh [--tests] [--no-build] [--build-dir DIR] [extra cmake -D options...]
#
# --tests also installs the node packages the interop tests run (npm ci from
# tests/interop/package-lock.json into BUILD_DIR/interop-node, which CMake
# fills with the package files and scripts at configure time).
#
# Works as root or through sudo. Safe to run again: a no-op when everything is
# installed and the build is up to date.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RIGLENS_BUILD_DIR:-$repo/build}"
do_build=1
with_tests=0
cmake_args=()
while (($#)); do
  case "$1" in
    --no-build) do_build=0 ;;
    --tests) with_tests=1 ;;
    --build-dir) build_dir="$2"; shift ;;
    *) cmake_args+=("$1") ;;
  esac
  shift
done

log() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"
  elif command -v sudo >/dev/null; then sudo "$@"
  else log "need root to install packages: run as root or install sudo"; exit 1
  fi
}

mapfile -t wanted < <(grep -Ev '^\s*(#|$)' "$repo/tools/packages.txt")
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
# Node.js (with npm) runs the interop tests; a machine may already carry a
# newer Node from elsewhere, which ships its own npm, so only fall back to
# Debian's when there is none.
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)

if ((${#missing[@]})); then
  log "installing ${#missing[@]} missing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  as_root apt-get update -qq
  as_root apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  log "all Debian packages present"
fi

((do_build)) || exit 0

log "configuring in $build_dir"
cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-RelWithDebInfo}" "${cmake_args[@]}" >/dev/null

if ((with_tests)); then
  node_dir="$build_dir/interop-node"
  stamp="$node_dir/node_modules/.riglens-lock"
  if [[ ! -f "$stamp" ]] || ! cmp -s "$node_dir/package-lock.json" "$stamp"; then
    log "installing the interop tests' node packages (npm ci in $node_dir)"
    (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
    cp "$node_dir/package-lock.json" "$stamp"
  else
    log "interop node packages present"
  fi
fi
log "building"
cmake --build "$build_dir" --parallel "$(nproc)"
