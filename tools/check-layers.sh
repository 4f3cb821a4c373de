#!/usr/bin/env bash
# Fails when an include points the wrong way (CONTRIBUTING.md, "Which way
# includes point"): engine/core and engine/samples include no Qt and nothing
# of render or the app; only engine/render includes QRhi's private headers;
# render includes nothing of the app; RigLens.Quick3D (quick3d/) uses the
# core (and engine/watch, live reload's file watching) only, not render,
# decode or the app; engine/watch includes nothing of render, decode or the
# app; only engine/media includes FFmpeg.
#
#   tools/check-layers.sh
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
failed=0
check() {  # check DESCRIPTION PATTERN PATHSPEC...
  local what="$1" pattern="$2"
  shift 2
  local hits
  if hits=$(git grep -nE "$pattern" -- "$@"); then
    echo "[layers] $what:" >&2
    echo "$hits" >&2
    failed=1
  fi
}
check "engine/core must not include Qt" '^\s*#\s*include\s*[<"]Qt|^\s*#\s*include\s*<Q[A-Z]' engine/core
check "engine/samples must not include Qt" '^\s*#\s*include\s*[<"]Qt|^\s*#\s*include\s*<Q[A-Z]' engine/samples
check "engine/core and engine/samples must not include render or the app" \
  '^\s*#\s*include\s*"riglens/(render|app)' engine/core engine/samples
check "only engine/render may include QRhi's private headers" \
  '^\s*#\s*include\s*[<"](QtGui/private/|qrhi_p\.h|qshader_p\.h)' ':!engine/render'
check "engine/render's public headers must not include QRhi's private headers" \
  '^\s*#\s*include\s*[<"](QtGui/private/|qrhi_p\.h|qshader_p\.h)' engine/render/include engine/render/parity/include
check "only engine/render may reach its private passes (src/); tests and bench go through render_parity" \
  '^\s*#\s*include\s*"(device|rig|splats|character)/[a-z_]+\.h"' tests bench app quick3d
check "only engine/decode may include OpenCV" '^\s*#\s*include\s*[<"]opencv2/' ':!engine/decode'
check "only engine/media may include FFmpeg" '^\s*#\s*include\s*[<"]lib(avcodec|avformat|avutil|swscale)/' ':!engine/media'
check "engine/render must not include the app" '^\s*#\s*include\s*"(app_controller|scene_viewport|character_controller)' engine/render
check "engine/watch must not include render, decode or the app" \
  '^\s*#\s*include\s*"(riglens/(render|decode|samples|media)/|app_controller|scene_viewport|main_window)' engine/watch
check "quick3d/ must use the core only" \
  '^\s*#\s*include\s*"(riglens/(render|decode|samples)/|app_controller|scene_viewport|main_window)' quick3d
((failed)) || echo "[layers] every include points the allowed way"
exit $failed
