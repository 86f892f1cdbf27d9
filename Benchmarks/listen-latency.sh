#!/usr/bin/env bash
# Write -> snapshot latency of our listener beside the official Python client's on_snapshot
# and beside WebChannel's floor on this emulator (peer/webchannel_floor.py: curl reading the
# back channel, no client), in one run against one emulator, the three in turn ROUNDS times
# (default 4).
#
#   FIRESTORE_EMULATOR_HOST=127.0.0.1:8091 bash Benchmarks/listen-latency.sh
#
# PEER_DIR (default Benchmarks/peer) holds bench-peer's scripts and a .venv with
# google-cloud-firestore (`python3 -m venv .venv && .venv/bin/pip install
# google-cloud-firestore`, see Benchmarks/README.md). Prints the median over rounds of each
# round's median and p95, and our/Python ratios. (Benchmarks/peer/run_all.sh runs s6 beside
# every other scenario; this is the quick listen-only comparison.)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST}"
PEER_DIR=$(cd "${PEER_DIR:-Benchmarks/peer}" && pwd)
ROUNDS=${ROUNDS:-4}
OUT=$(mktemp -d)
swift build -c release --product firestore-bench >/dev/null
BENCH=$(swift build -c release --show-bin-path)/firestore-bench
PY="$PEER_DIR/.venv/bin/python"

(cd "$PEER_DIR" && "$PY" seed.py >/dev/null)
# Warm-up of both (discarded): the emulator JIT-compiles its listen path first.
(cd "$PEER_DIR" && "$PY" bench_python.py --only s6 --scale 0.2 --json "$OUT/warm.json" >/dev/null)
"$BENCH" listen-latency --reps 10 >/dev/null

for ((r = 1; r <= ROUNDS; r++)); do
  case $((r % 3)) in
    1) order="py swift floor" ;;
    2) order="swift floor py" ;;
    *) order="floor py swift" ;;
  esac
  for what in $order; do
    if [[ $what == floor ]]; then
      (cd "$PEER_DIR" && "$PY" webchannel_floor.py 100) | sed -n 's/.*median \([0-9.]*\) ms p95 \([0-9.]*\) ms.*/\1 \2/p' >>"$OUT/floor.txt"
      echo "round $r webchannel floor: $(tail -n 1 "$OUT/floor.txt")"
      continue
    fi
    if [[ $what == py ]]; then
      (cd "$PEER_DIR" && "$PY" bench_python.py --only s6 --scale 2 --json "$OUT/py$r.json" >/dev/null)
      "$PY" - "$OUT/py$r.json" <<'PY' >>"$OUT/py.txt"
import json, sys
s6 = json.load(open(sys.argv[1]))["results"]["s6"]
print(s6["median_ms"], s6["p95_ms"])
PY
      echo "round $r python: $(tail -n 1 "$OUT/py.txt")"
    else
      "$BENCH" listen-latency --json "$OUT/swift$r.json" >/dev/null
      "$PY" - "$OUT/swift$r.json" <<'PY' >>"$OUT/swift.txt"
import json, sys
s6 = next(r for r in json.load(open(sys.argv[1])) if r["scenario"] == "listen-latency")
print(s6["median_ms"], s6["p95_ms"])
PY
      echo "round $r swift: $(tail -n 1 "$OUT/swift.txt")"
    fi
  done
done

"$PY" - "$OUT/py.txt" "$OUT/swift.txt" "$OUT/floor.txt" <<'PY'
import statistics, sys
def load(p):
    rows = [tuple(map(float, l.split())) for l in open(p) if l.strip()]
    return statistics.median(r[0] for r in rows), statistics.median(r[1] for r in rows)
py, sw, floor = load(sys.argv[1]), load(sys.argv[2]), load(sys.argv[3])
print(f"write->snapshot, median of per-round values: swift median {sw[0]:.2f} ms (p95 {sw[1]:.2f}), "
      f"python median {py[0]:.2f} ms (p95 {py[1]:.2f}), webchannel floor median {floor[0]:.2f} ms (p95 {floor[1]:.2f}); "
      f"swift/python median {sw[0]/py[0]:.2f}x, p95 {sw[1]/py[1]:.2f}x; swift/floor p95 {sw[1]/floor[1]:.2f}x")
PY
rm -rf "$OUT"
