#!/usr/bin/env python3
"""Each request's critical path, split between the client process and the server.

Reads `perf sched timehist -w` of a run in which one process sends requests one at a time
to a server process on the same machine (`firestore-bench paired --side ...`, the emulator),
and cuts the run at the wake-ups between the two: the server waking a thread of the client
(its reply arrived) starts the client's share of a request, the client waking a thread of
the server (the next request went out) ends it. What the client does between the two is
on the request's critical path however many threads it takes; the server's answer time,
which varies from run to run far more than the client's share, is measured apart.

    perf sched record -o client.data -- firestore-bench paired --side client --target s7a --reps 300
    perf sched timehist -w -i client.data > client.txt
    python3 Benchmarks/peer/critical_path.py client.txt

Prints the medians, per request, of the client's share and the server's share, and the
run time of each of the client's threads (by thread name) within each: what the client
runs while the server answers takes the cores the server's threads would run on. The
first and last tenth of the requests (warm-up, the end of the run) are left out.
"""

import re
import statistics
import sys
from collections import defaultdict

LINE = re.compile(r"^\s*(\d+\.\d+)\s+\[(\d+)\]\s+(.+?)\[(\d+)(?:/(\d+))?\]\s+(.*)$")
WAKE = re.compile(r"awakened:\s+(.+?)\[(\d+)(?:/(\d+))?\]")


def parse(path):
    """Run intervals per thread, wake-ups, and each thread's name and process."""
    runs = []  # (start, end, tid)
    wakes = []  # (time, waker tid, wakee tid)
    process = {}
    names = {}
    for line in open(path):
        match = LINE.match(line)
        if not match:
            continue
        time, _, name, tid, pid, rest = match.groups()
        time = float(time) * 1e6
        tid = int(tid)
        names[tid] = name.strip()
        if pid:
            process[tid] = int(pid)
        wake = WAKE.search(rest)
        if wake:
            wakee = int(wake.group(2))
            names.setdefault(wakee, wake.group(1).strip())
            if wake.group(3):
                process[wakee] = int(wake.group(3))
            wakes.append((time, tid, wakee))
            continue
        fields = rest.split()
        if len(fields) >= 3 and name.strip() != "<idle>":
            run = float(fields[2]) * 1e3
            runs.append((time - run, time, tid))
    return runs, wakes, process, names


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: critical_path.py TIMEHIST_FILE")
    runs, wakes, process, names = parse(sys.argv[1])
    # The server: the process whose threads are named as the emulator's JVM names them; the
    # client: the one whose threads it wakes and that wake it back the most.
    server = {p for t, p in process.items() if names.get(t, "").startswith(("nioEventLoop", "grpc-", "pool-"))}
    pairs = defaultdict(int)
    for _, waker, wakee in wakes:
        a, b = process.get(waker), process.get(wakee)
        if a in server and b is not None and b not in server:
            pairs[b] += 1
    if not server or not pairs:
        sys.exit("no wake-ups between a server process and another process in this trace")
    client = max(pairs, key=pairs.get)

    def side(tid):
        p = process.get(tid)
        return "server" if p in server else "client" if p == client else None

    # Segments: [server wakes client, client wakes server) is the client's share, the
    # reverse the server's.
    segments = []
    state, since = None, None
    for time, waker, wakee in wakes:
        a, b = side(waker), side(wakee)
        if a == "server" and b == "client" and state != "client":
            if state == "server":
                segments.append(("server", since, time))
            state, since = "client", time
        elif a == "client" and b == "server" and state == "client":
            segments.append(("client", since, time))
            state, since = "server", time
    clients = [s for s in segments if s[0] == "client"]
    servers = [s for s in segments if s[0] == "server"]
    cut = len(clients) // 10
    clients = clients[cut : len(clients) - cut]
    servers = servers[cut : len(servers) - cut]
    if not clients:
        sys.exit("no requests found")

    runs.sort()

    def run_time(segments):
        """Each client thread's run time within each of `segments`, by thread name."""
        by_thread = defaultdict(lambda: [0.0] * len(segments))
        j = 0
        for start, end, tid in runs:
            if process.get(tid) != client:
                continue
            while j < len(segments) and segments[j][2] <= start:
                j += 1
            k = j
            while k < len(segments) and segments[k][1] < end:
                overlap = min(end, segments[k][2]) - max(start, segments[k][1])
                if overlap > 0:
                    by_thread[re.sub(r"\d+$", "", names.get(tid, str(tid)))][k] += overlap
                k += 1
        return by_thread

    def median(values):
        return statistics.median(values) if values else float("nan")

    print(f"requests: {len(clients)} (client process {client}, server process(es) {sorted(server)})")
    print(f"client's share, µs:  median {median([e - s for _, s, e in clients]):8.1f}")
    print(f"server's share, µs:  median {median([e - s for _, s, e in servers]):8.1f}")
    for title, segments in (("client's", clients), ("server's", servers)):
        by_thread = run_time(segments)
        total = [sum(values) for values in zip(*by_thread.values())] if by_thread else []
        print(f"client threads' run time within the {title} share, µs: median of the sum {median(total):.1f}")
        for name, values in sorted(by_thread.items(), key=lambda item: -statistics.mean(item[1])):
            print(f"  {name:24s} median {median(values):8.1f}   mean {statistics.mean(values):8.1f}")


if __name__ == "__main__":
    main()
