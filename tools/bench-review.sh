#!/usr/bin/env bash
# Items per minute of `riglens-cli review` at --jobs 1..N on this machine,
# over copies of the tank sample, the sample character (a bundle with
# decoders) and the large sample (64 parts, 2.7M triangles), with each item's
# time split into inspect, load, render and video encode (from the report's
# timings). Prints a Markdown table and the machine it ran on.
#   tools/bench-review.sh [COPIES] [MAX_JOBS]      (default 4 copies, jobs up to nproc)
# RIGLENS_BENCH_LARGE=0 leaves the large sample out (one item of ~36 s that
# otherwise bounds the wall time at any --jobs).
# Uses build/app/riglens-cli (RIGLENS_BUILD_DIR to choose another build).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${RIGLENS_BUILD_DIR:-$repo/build}/app/riglens-cli"
copies="${1:-4}"
max_jobs="${2:-$(nproc)}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
unset QT_QPA_PLATFORM  # the renders choose vkkhrdisplay
"$cli" samples --out "$work/src" --name tank-cubes --large >/dev/null
"$cli" character make-sample --out "$work/chars" >/dev/null
for i in $(seq "$copies"); do
  mkdir -p "$work/items"
  cp -r "$work/src/tank-cubes" "$work/items/tank-$i"
  cp -r "$work/chars/sample-bundle" "$work/items/character-$i"
done
[[ ${RIGLENS_BENCH_LARGE:-1} == 0 ]] || cp -r "$work/src/large" "$work/items/large-1"
echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | xargs)"
echo "riglens-cli: $("$cli" --version); $(vulkaninfo --summary 2>/dev/null | grep -m1 deviceName | xargs)"
echo
echo "| --jobs | items | wall | items/min | speed-up |"
echo "|---|---|---|---|---|"
base=""
for jobs in $(seq "$max_jobs"); do
  start=$(date +%s.%N)
  "$cli" review "$work/items" --out "$work/report" --redo --jobs "$jobs" >/dev/null 2>"$work/review-$jobs.log"
  end=$(date +%s.%N)
  python3 - "$work/report/report.jsonl" "$start" "$end" "$jobs" "${base:-0}" >"$work/row" <<'PY'
import json, sys
records = [json.loads(l) for l in open(sys.argv[1])]
wall = float(sys.argv[3]) - float(sys.argv[2])
base = float(sys.argv[5]) or wall
print(f"| {sys.argv[4]} | {len(records)} | {wall:.1f} s | {len(records) / wall * 60:.1f} | {base / wall:.2f}x |")
print(wall)
PY
  head -1 "$work/row"
  [[ -n $base ]] || base=$(tail -1 "$work/row")
  cp "$work/report/report.jsonl" "$work/report-$jobs.jsonl"
done
echo
echo "Per item at --jobs 1 (medians, milliseconds):"
echo
python3 - "$work/report-1.jsonl" <<'PY'
import json, statistics, sys
by_kind = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    kind = r["name"].rsplit("-", 1)[0]
    t = r.get("timings", {})
    s = t.get("renderStages", {})
    start = s.get("process start (exec to main)", 0) + s.get("Qt init (QGuiApplication)", 0)
    row = {"total": t.get("totalMs", 0), "inspect": t.get("inspectMs", 0), "render": t.get("renderMs", 0),
           "start": start, "load": s.get("load", 0), "gpu": s.get("GPU device", 0),
           "encode": s.get("video encode", 0), "png": s.get("PNG encode and write", 0), "ok": r["status"] == "ok"}
    row["frames"] = row["render"] - start - row["load"] - row["gpu"] - row["encode"] - row["png"]
    by_kind.setdefault(kind, []).append(row)
cols = ["total", "inspect", "render", "start", "load", "gpu", "frames", "encode"]
print("| item | n | total | inspect process | render process | of which: process + Qt start | load | GPU device | frames (draw, read back, the rest) | video encode | encode share |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for kind, rows in sorted(by_kind.items()):
    med = {k: statistics.median(r[k] for r in rows) for k in cols}
    failed = sum(not r["ok"] for r in rows)
    cells = " | ".join(f"{med[k]:.0f}" for k in cols)
    share = med["encode"] / med["render"] if med["render"] else 0
    print(f"| {kind}{' (' + str(failed) + ' failed)' if failed else ''} | {len(rows)} | {cells} | {share:.1%} |")
PY
