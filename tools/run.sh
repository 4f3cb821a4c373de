#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run the viewer.
#
#   tools/run.sh [PATH]
#
# With a display ($DISPLAY or $WAYLAND_DISPLAY set) the RigLens window opens.
# Without one (a server, CI, a container) the viewer runs under xvfb-run,
# saves a screenshot of its window to build/riglens-screenshot.png and prints
# that path; open the PNG to see what the viewer shows.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RIGLENS_BUILD_DIR:-$repo/build}"

"$repo/tools/setup.sh" --build-dir "$build_dir"

viewer="$build_dir/app/riglens"
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
  exec "$viewer" "$@"
fi

shot="$build_dir/riglens-screenshot.png"
echo "[run] no display: rendering the viewer under xvfb-run to a PNG"
# The viewer chooses its graphics API as on a desktop (Vulkan when a device
# exists: lavapipe here) and waits until the document is shown whole.
QT_QPA_PLATFORM=xcb \
  xvfb-run -a -s "-screen 0 1280x1024x24" "$viewer" "$@" --screenshot "$shot" --size 1280x800 >/dev/null
echo "[run] screenshot of the viewer: $shot"
