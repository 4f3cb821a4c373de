#!/usr/bin/env bash
# riglens-cli review on a real Slurm (Debian's slurm-wlm), on this machine:
# starts slurmctld and slurmd in a temporary configuration (no munge:
# auth/none, one node, this machine's CPUs), submits docs/review's sbatch
# script as a 3-task array over sample runs (two good, one broken), merges
# the shards in a job that depends on the array, checks the report against
# an unsharded review of the same items, and stops the daemons.
#
#   tests/app/review_on_slurm.sh RIGLENS_CLI_DIR    (CTest passes the build's app/)
# Runs on any Debian machine with slurm-wlm installed (tools/setup.sh --tests).
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PATH="$1:$PATH"
tmp="$(mktemp -d)"
export SLURM_CONF="$tmp/slurm.conf"
stop() {
  for pid in "$tmp"/slurmd.pid "$tmp"/slurmctld.pid; do [[ -f $pid ]] && kill "$(cat "$pid")" 2>/dev/null || true; done
  sleep 1
  rm -rf "$tmp"
}
trap stop EXIT
host="$(hostname -s)"
user="$(id -un)"
port=$((20000 + ($$ % 5000) * 2))  # two ports of our own: CTest runs tests side by side
cat >"$SLURM_CONF" <<CONF
ClusterName=riglens-test
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/none
CredType=cred/none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=review Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$tmp/state" "$tmp/spool"
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
for _ in $(seq 60); do [[ "$(sinfo -h -o %t 2>/dev/null)" == idle ]] && break; sleep 0.5; done
echo "slurm: $(sinfo --version); node $(sinfo -h -o '%N %t %c CPUs')"

items="$tmp/items"
riglens-cli samples --out "$items" --name walker-cubes --name tank-cubes --name gaussians >/dev/null
mkdir -p "$items/broken" && echo '{"parts": 5}' >"$items/broken/rig.json"
quick=(--size 160x90 --frames 4 --fps 8)
array=$(sbatch --parsable --array=0-2 --cpus-per-task=1 -o "$tmp/task-%a.log" \
  "$repo/docs/review/review-array.sbatch" "$tmp/report" "$items" "${quick[@]}")
sbatch --parsable --wait --dependency="afterany:$array" -o "$tmp/merge.log" \
  --wrap "riglens-cli review --merge $tmp/report" >/dev/null
for log in "$tmp"/task-*.log "$tmp/merge.log"; do echo "== $(basename "$log")"; cat "$log"; done
queued=$(squeue -h | wc -l)
[[ $queued == 0 ]] || { echo "jobs still queued"; exit 1; }

riglens-cli review "$items" --out "$tmp/whole" "${quick[@]}" >/dev/null 2>&1
python3 - "$tmp/report/report.jsonl" "$tmp/whole/report.jsonl" "$tmp/report/shards" <<'PY'
import json, os, sys
def records(path):
    return {r["path"]: r for r in map(json.loads, open(path))}
merged, whole = records(sys.argv[1]), records(sys.argv[2])
shards = sorted(os.listdir(sys.argv[3]))
assert shards == ["shard-0-of-3.jsonl", "shard-1-of-3.jsonl", "shard-2-of-3.jsonl"], shards
assert merged.keys() == whole.keys(), (merged.keys(), whole.keys())
for path, r in whole.items():
    for field in ("id", "status", "error", "facts", "problems", "inputHash"):
        assert merged[path].get(field) == r.get(field), (path, field)
failed = [os.path.basename(p) for p, r in merged.items() if r["status"] != "ok"]
assert failed == ["broken"], failed
print(f"slurm review: {len(merged)} items in 3 shards, merged equal to the unsharded review; failed: {failed}")
PY
