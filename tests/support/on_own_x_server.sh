#!/usr/bin/env bash
# Runs one test on an X server of its own (Xvfb), so that ctest can run
# several such tests at once:
#   on_own_x_server.sh WIDTHxHEIGHTxDEPTH COMMAND [ARGS...]
#
# Xvfb chooses the display number itself (-displayfd): it takes the first
# number whose lock file and socket it can create and writes the number once
# it accepts connections. xvfb-run -a instead looks for a free lock file and
# then starts the server, so two started together could pick the same
# number; the X tests ran one at a time because of that.
#
# XDG_CONFIG_HOME points at a folder of this run only: the viewer that a test
# launches (riglens --screenshot, the compare window) keeps its settings there,
# not in the user's ~/.config, and tests running at the same time do not see
# each other's look or recent files. Caches (XDG_CACHE_HOME: Mesa's and Qt's
# shader caches) stay shared; they are written safely by several processes.
set -uo pipefail
screen="$1"
shift
run_dir="$(mktemp -d "${TMPDIR:-/tmp}/riglens-x-test.XXXXXX")"
coproc xserver { exec Xvfb -displayfd 1 -screen 0 "$screen" -nolisten tcp 2>"$run_dir/xvfb.log"; }
xserver_pid=$xserver_PID
trap 'kill "$xserver_pid" 2>/dev/null; wait "$xserver_pid" 2>/dev/null; rm -rf "$run_dir"' EXIT
if ! read -r -t 60 display <&"${xserver[0]}" || [[ -z "$display" ]]; then
  echo "on_own_x_server.sh: Xvfb did not start (screen $screen); its output:" >&2
  cat "$run_dir/xvfb.log" >&2
  exit 1
fi
mkdir "$run_dir/config"
DISPLAY=":$display" XDG_CONFIG_HOME="$run_dir/config" "$@"
