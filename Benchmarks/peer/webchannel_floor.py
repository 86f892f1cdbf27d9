"""s6 with no Firestore client: curl reads the listen back channel, http.client writes.

What a listener over WebChannel can see at best on this emulator. The session is opened
with one handshake POST (curl) that adds s6's query target (users/u1/favorites, by name);
`curl -N` then streams the back channel, and a thread stamps each read. Each write is one
`:commit` of one favorite (http.client, one keep-alive connection), 20 ms apart as in s6;
its latency runs from the write's start to the read that holds the global targetChange
following the written document: the point where any client can raise the snapshot.

    FIRESTORE_EMULATOR_HOST=127.0.0.1:8765 python3 webchannel_floor.py [N]

Prints the median and p95 of N writes (default 100, after 5 discarded), and the samples.
The seeded favorites are left as they were: the written ones are deleted before and after.
"""
import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse

from stats import pct

HOST = os.environ.get("FIRESTORE_EMULATOR_HOST", "127.0.0.1:8765")
DB = "projects/bench/databases/(default)"
FAVORITES = f"{DB}/documents/users/u1/favorites"
CHANNEL = f"http://{HOST}/google.firestore.v1.Firestore/Listen/channel"
OWNER = "Authorization: Bearer owner"
WARM = 5


def open_session():
    """The handshake, carrying s6's target; returns the session ID."""
    target = {"database": DB, "addTarget": {"targetId": 2, "query": {
        "parent": f"{DB}/documents/users/u1",
        "structuredQuery": {"from": [{"collectionId": "favorites"}],
                            "orderBy": [{"field": {"fieldPath": "__name__"}, "direction": "ASCENDING"}]}}}}
    body = "count=1&ofs=0&req0___data__=" + urllib.parse.quote(json.dumps(target, separators=(",", ":")), safe="")
    url = f"{CHANNEL}?database={urllib.parse.quote(DB, safe='()')}&VER=8&RID={random.randint(0, 99999)}&CVER=22&zx=hs&t=1"
    reply = subprocess.run(["curl", "-sS", "-H", OWNER, "-H", "Content-Type: application/x-www-form-urlencoded",
                            url, "--data-binary", body], capture_output=True, text=True, check=True).stdout
    # `52\n[[0,["c",SID,"",8,12,30000]]]`
    return json.loads(reply[reply.index("\n") + 1:])[0][1][1]


class BackChannel:
    """`curl -N` on the back channel; every read kept with the time it came."""

    def __init__(self, sid):
        url = (f"{CHANNEL}?database={urllib.parse.quote(DB, safe='()')}&VER=8&RID=rpc"
               f"&SID={urllib.parse.quote(sid, safe='')}&AID=0&CI=0&TYPE=xmlhttp&zx=bc&t=1")
        self.curl = subprocess.Popen(["curl", "-sS", "-N", "-H", OWNER, url], stdout=subprocess.PIPE, bufsize=0)
        self.reads = []  # (time, bytes)
        self.changed = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        while chunk := os.read(self.curl.stdout.fileno(), 1 << 20):
            now = time.perf_counter()
            with self.changed:
                self.reads.append((now, chunk))
                self.changed.notify_all()

    def snapshot_time(self, since, doc_id, timeout=15):
        """When the reads from index `since` on first held `doc_id` and, after it, the
        global targetChange; `None` if not within `timeout` seconds."""
        end = time.monotonic() + timeout
        with self.changed:
            while True:
                reads = self.reads[since:]
                text = b"".join(chunk for _, chunk in reads)
                at = text.find(doc_id.encode())
                if at >= 0:
                    marks = [text.find(m, at) for m in (b'"targetChange":{"resumeToken"', b'"targetChange":{"readTime"')]
                    found = min((m for m in marks if m >= 0), default=-1)
                    if found >= 0:
                        total = 0
                        for when, chunk in reads:
                            total += len(chunk)
                            if total > found:
                                return when
                left = end - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)

    def close(self):
        self.curl.kill()


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    writer = http.client.HTTPConnection(HOST)

    def commit(writes):
        writer.request("POST", f"/v1/{DB}/documents:commit", json.dumps({"writes": writes}),
                       {"Authorization": "Bearer owner", "Content-Type": "application/json"})
        reply = writer.getresponse()
        reply.read()
        if reply.status != 200:
            sys.exit(f"commit answered {reply.status}")

    ids = [f"wcfloor{i:04d}" for i in range(n + WARM)]
    commit([{"delete": f"{FAVORITES}/{i}"} for i in ids])
    back = BackChannel(open_session())
    time.sleep(1)  # the initial snapshot
    latencies = []
    try:
        for k, doc_id in enumerate(ids):
            with back.changed:
                since = len(back.reads)
            start = time.perf_counter()
            commit([{"update": {"name": f"{FAVORITES}/{doc_id}",
                                "fields": {"starredAt": {"timestampValue": "2026-01-01T00:00:00Z"}}}}])
            arrived = back.snapshot_time(since, doc_id)
            if arrived is None:
                sys.exit(f"the back channel never showed {doc_id}")
            if k >= WARM:
                latencies.append((arrived - start) * 1000)
            time.sleep(0.02)
    finally:
        back.close()
        commit([{"delete": f"{FAVORITES}/{i}"} for i in ids])
    median = statistics.median(latencies)
    late = sum(1 for x in latencies if x > median + 30)
    print(f"webchannel floor: n {len(latencies)} median {median:.2f} ms p95 {pct(latencies, 95):.2f} ms "
          f"max {max(latencies):.2f} ms; {late} more than 30 ms over the median")
    print("samples " + " ".join(f"{x:.1f}" for x in latencies))


if __name__ == "__main__":
    main()
