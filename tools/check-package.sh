#!/usr/bin/env bash
# Checks the built .deb as a user would get it: Debian policy (lintian, no
# errors allowed), then the package extracted into an empty root with
# dpkg-deb -x and run from there, relocated: --version, the sample character
# from the face data it ships (found relative to the executable) and an
# offscreen render of it. Also refuses a binary that still carries the build
# machine's paths.
#
#   tools/check-package.sh [BUILD_DIR]       (tools/test.sh runs it after cpack)
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$repo/build}" && pwd)"
deb=$(ls -1 "$build"/riglens_*.deb | tail -1)
say() { printf '\033[1m[package]\033[0m %s\n' "$*"; }

say "lintian $deb"
lintian --fail-on error --allow-root "$deb"

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "$deb" "$root"
cli="$root/usr/bin/riglens-cli"
say "running the extracted package from $root"
log="$root/log"
run() { "$@" >>"$log" 2>&1 || { cat "$log" >&2; echo "failed: $*" >&2; exit 1; }; }
"$cli" --version
run "$cli" character make-sample --out "$root/out"
run env QT_QPA_PLATFORM=vkkhrdisplay "$cli" render "$root/out/sample-bundle" --out "$root/out/face.png" --size 256x256
run "$cli" samples --out "$root/out" --name tank-cubes
run env QT_QPA_PLATFORM=vkkhrdisplay "$cli" render "$root/out/tank-cubes" --out "$root/out/tank.png" --size 256x256
# A video: FFmpeg's writer is a module the CLI opens beside its library.
run env QT_QPA_PLATFORM=vkkhrdisplay "$cli" render "$root/out/tank-cubes" --turntable 4 --video "$root/out/turn.mp4" \
  --fps 4 --size 128x96
for png in face tank; do
  [[ -s "$root/out/$png.png" ]] || { echo "the extracted riglens-cli rendered no $png.png" >&2; exit 1; }
done
[[ -s "$root/out/turn.mp4" ]] || { echo "the extracted riglens-cli wrote no turn.mp4" >&2; exit 1; }
say "make-sample and render ran from the extract: $(ls "$root/out" | tr "\n" " ")"

# A Qt app imports the installed RigLens.Quick3D module (Qt Quick Test, on
# the extracted tree's QML directory only) and poses the tank with it.
qml_dir=$(find "$root/usr/lib" -type d -path "*/qt6/qml" | head -1)
[[ -f "$qml_dir/RigLens/Quick3D/qmldir" ]] || { echo "the package installs no RigLens.Quick3D module" >&2; exit 1; }
cat >"$root/out/tst_installed.qml" <<QML
import QtQuick
import QtQuick3D
import QtTest
import RigLens.Quick3D
Item {
    View3D { VoxelRig { id: rig; source: "file://$root/out/tank-cubes" } }
    TestCase {
        name: "InstalledModule"
        function test_posesTheTank() {
            compare(rig.status, VoxelRig.Ready)
            verify(rig.setJoint("turret_yaw", 0.64))
            compare(rig.partNames.length, 5)
        }
    }
}
QML
qmltestrunner=$(command -v qmltestrunner || echo /usr/lib/qt6/bin/qmltestrunner)
run env QT_QPA_PLATFORM=offscreen "$qmltestrunner" -import "$qml_dir" -input "$root/out/tst_installed.qml"
say "a QML test imported RigLens.Quick3D from $qml_dir"

# (The executables and the programs' private libraries they open,
# app/launch/program_library.h.)
libraries=("$root"/usr/lib/*/riglens/*.so)
[[ -f "${libraries[0]}" ]] || { echo "the package installs no program library under /usr/lib/<arch>/riglens" >&2; exit 1; }
for binary in "$root"/usr/bin/* "${libraries[@]}"; do
  if grep -aqF -e "$repo" -e "$build" "$binary"; then
    echo "$binary names a path of the build machine ($repo or $build): it would not work installed" >&2
    exit 1
  fi
done
say "ok: lintian clean, the extracted package runs relocated"
