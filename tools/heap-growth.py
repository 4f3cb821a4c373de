#!/usr/bin/python3
"""Which allocation sites grow steadily over a heaptrack recording.

heaptrack_print reports what is allocated at the peak and what is never
freed; a long-running process that frees everything at exit but keeps
more and more while it runs (a cache keyed by dead addresses, a pool that
never shrinks) shows in neither. This reads the recording itself: for each
allocation site, the bytes it holds at snapshots between two times, and its
"floor growth" - the least it held over the last quarter of the snapshots
minus the least over the first quarter - so memory that comes and goes
with each round of work (a document open at the moment of a snapshot)
cancels, and only what accumulates is left.

    tools/heap-growth.py RECORDING.zst FROM_S TO_S [TOP]

Record with `heaptrack -o RECORDING PROGRAM ...` (the soak:
tools/soak.sh's command under heaptrack), stopping the program with
SIGKILL mid-run if its exit would free what it kept. Times are seconds
since the program started. Needs zstd (zstdcat) for the recording.
"""
import collections
import subprocess
import sys

SNAPSHOT_MS = 20000


class Recording:
    """heaptrack's interpreted format: s(tring), i(nstruction), t(race),
    a(llocation info: size, trace), +/- (allocation/free of an info),
    c(lock, ms)."""

    def __init__(self):
        self.strings = [None]
        self.ips = [None]
        self.traces = [(0, 0)]
        self.infos = []

    def read_definition(self, kind, rest):
        if kind == 's':
            self.strings.append(rest.rstrip('\n').split(' ', 1)[-1])
        elif kind == 'i':
            fields = rest.split()
            frames = [int(f, 16) for f in fields[2::3]]  # function, file, line triples
            self.ips.append((int(fields[1], 16), frames))
        elif kind == 't':
            ip, parent = rest.split()
            self.traces.append((int(ip, 16), int(parent, 16)))
        elif kind == 'a':
            size, trace = rest.split()
            self.infos.append((int(size, 16), int(trace, 16)))

    def stack(self, trace, depth=16):
        out = []
        while trace and len(out) < depth:
            ip, parent = self.traces[trace]
            module, frames = self.ips[ip]
            if frames:
                out.extend(self.strings[f][:120] for f in frames)
            else:
                out.append('?? ' + self.strings[module])
            trace = parent
        return out


def snapshots(path, start_ms, end_ms):
    """The recording and, every SNAPSHOT_MS in [start, end], the live count of each allocation info."""
    recording, live, taken = Recording(), collections.Counter(), []
    now, next_snapshot = 0, start_ms
    reader = subprocess.Popen(['zstdcat', path], stdout=subprocess.PIPE, text=True, errors='replace')
    for line in reader.stdout:
        kind, rest = line[:1], line[2:]
        if kind == '+':
            live[int(rest, 16)] += 1
        elif kind == '-':
            live[int(rest, 16)] -= 1
        elif kind == 'c':
            now = int(rest, 16)
            while next_snapshot <= min(now, end_ms):
                taken.append(dict(live))
                next_snapshot += SNAPSHOT_MS
        else:
            recording.read_definition(kind, rest)
    return recording, taken, now


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, start, end = sys.argv[1], float(sys.argv[2]) * 1000, float(sys.argv[3]) * 1000
    top = int(sys.argv[4]) if len(sys.argv) > 4 else 20
    recording, taken, last = snapshots(path, start, end)
    if len(taken) < 4:
        sys.exit(f'{path}: fewer than 4 snapshots between {start / 1000:.0f} and {end / 1000:.0f} s '
                 f'(the recording ends at {last / 1000:.0f} s)')
    held = collections.defaultdict(lambda: [0] * len(taken))  # bytes per site per snapshot
    for k, live in enumerate(taken):
        for info, count in live.items():
            size, trace = recording.infos[info]
            held[trace][k] += count * size
    quarter = max(1, len(taken) // 4)
    growth = {trace: min(s[-quarter:]) - min(s[:quarter]) for trace, s in held.items()}
    print(f'{len(taken)} snapshots from {start / 1000:.0f} to {end / 1000:.0f} s; '
          f'floor growth of every site together: {sum(growth.values()) / 1048576:+.2f} MiB')
    for trace in sorted(growth, key=lambda t: -growth[t])[:top]:
        series = ' '.join(f'{b / 1024:.0f}' for b in held[trace])
        print(f'\n{growth[trace] / 1024:+.1f} KiB; held (KiB) at each snapshot: {series}')
        for frame in recording.stack(trace):
            print('    ' + frame)


if __name__ == '__main__':
    main()
