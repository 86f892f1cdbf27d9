"""The reference for firestore-bench's `decode`: CPython's json.loads (the C parser) of the
same recorded :runQuery body, timed in-process (stdlib only).

  python3 decode_python.py BODY.json [--reps 20] [--warmup 3] [--json OUT.json]

Prints one TSV row like stats.py (label n median_ms p95_ms min_ms mean_ms ops_per_s) plus
process CPU ms per parse, and writes {"json_loads": {...}} to --json.
"""
import argparse
import json
import time

from stats import row, summary

ap = argparse.ArgumentParser()
ap.add_argument("body")
ap.add_argument("--reps", type=int, default=20)
ap.add_argument("--warmup", type=int, default=3)
ap.add_argument("--json")
args = ap.parse_args()

with open(args.body, "rb") as f:
    raw = f.read()
for _ in range(args.warmup):
    json.loads(raw)
ts = []
p0 = time.process_time()
for _ in range(args.reps):
    t0 = time.perf_counter()
    parsed = json.loads(raw)
    ts.append(time.perf_counter() - t0)
p1 = time.process_time()
s = summary(ts)
s["cpu_ms"] = (p1 - p0) / args.reps * 1e3
s["bytes"] = len(raw)
s["docs"] = sum(1 for e in parsed if "document" in e)
label = "json.loads of %d B (%d docs)" % (len(raw), s["docs"])
print(row(label, s) + "\t%.2f" % s["cpu_ms"])
if args.json:
    with open(args.json, "w") as f:
        json.dump({"json_loads": {"label": label, **s}}, f, indent=1)
