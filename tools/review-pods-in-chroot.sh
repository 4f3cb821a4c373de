#!/usr/bin/env bash
# The pods of docs/review/review-indexed-job.yaml without a cluster: their
# containers' scripts, read from the manifest as written, run in a fresh
# Debian 12 root (debootstrap --variant=minbase bookworm, the apt sources a
# debian:bookworm image carries) with /data bound as the shared volume - each
# index with JOB_COMPLETION_INDEX set, then the merge Job's script - and the
# merged report compared with an unsharded review of the same runs by this
# machine's riglens-cli. What it does not exercise is Kubernetes itself
# (scheduling, the volume claim, retries).
#
#   sudo tools/review-pods-in-chroot.sh RIGLENS_DEB RUNS_FOLDER [WORK_DIR]
#
# Needs root, debootstrap and python3-yaml (Debian packages) and a Debian
# mirror; WORK_DIR (default /tmp/riglens-pods) ends up holding the root
# (~1.5 GB once the .deb's dependencies are in) and the data volume.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deb="$(realpath "$1")" runs="$(realpath "$2")" work="${3:-/tmp/riglens-pods}"
manifest="$repo/docs/review/review-indexed-job.yaml"
root="$work/root" data="$work/data"
cli="${RIGLENS_CLI:-$repo/build/app/riglens-cli}"

command -v debootstrap >/dev/null || { echo "[pods] needs debootstrap: apt-get install debootstrap" >&2; exit 2; }
python3 -c 'import yaml' 2>/dev/null || { echo "[pods] needs python3-yaml: apt-get install python3-yaml" >&2; exit 2; }
mkdir -p "$data/debs" "$data/runs"
cp "$deb" "$data/debs/"
cp -r "$runs/." "$data/runs/"
[[ -x "$root/bin/bash" ]] || debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian
rm -f "$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\nTypes: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\n' \
  >"$root/etc/apt/sources.list.d/debian.sources"
mkdir -p "$root/data"
mount --bind "$data" "$root/data"
mount -t proc proc "$root/proc"
mount --bind /dev "$root/dev"
trap 'umount "$root/data" "$root/proc" "$root/dev"' EXIT

# Each Job's container script, written to WORK_DIR/<job>.sh, and the review
# Job's completion count, from the manifest.
readarray -t jobs < <(python3 -c '
import sys, yaml
for job in yaml.safe_load_all(open(sys.argv[1])):
    name = job["metadata"]["name"]
    with open(f"{sys.argv[2]}/{name}.sh", "w") as script:
        script.write(job["spec"]["template"]["spec"]["containers"][0]["args"][0])
    print(name, job["spec"].get("completions", 1))
' "$manifest" "$work")
for job in "${jobs[@]}"; do
  read -r name completions <<<"$job"
  for ((i = 0; i < completions; ++i)); do
    echo "[pods] $name index $i"
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root JOB_COMPLETION_INDEX="$i" \
      chroot "$root" bash -c "$(cat "$work/$name.sh")" 2>&1 | grep -E '^riglens-cli|rror' || true
  done
done

echo "[pods] the same runs reviewed unsharded by $cli"
"$cli" review "$data/runs" --out "$work/unsharded" --jobs "$(nproc)" 2>/dev/null
python3 - "$data/report/report.jsonl" "$work/unsharded/report.jsonl" "$data" <<'EOF'
import json, sys
def items(path):
    return sorted((d["name"], d["status"], json.dumps(d.get("facts"), sort_keys=True),
                   d.get("error", "").replace(sys.argv[3], "/data")) for d in map(json.loads, open(path)))
pods, here = items(sys.argv[1]), items(sys.argv[2])
failed = [name for name, status, *_ in pods if status != "ok"]
print(f"[pods] {len(pods)} items merged from the pods (failed: {failed}); unsharded: {len(here)}")
sys.exit(0 if pods == here else "[pods] the merged report differs from the unsharded one")
EOF
echo "[pods] the merged report equals the unsharded one: $data/report/index.html"
