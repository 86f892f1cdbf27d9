#!/usr/bin/env bash
# 10,000 article writes through our BulkWriter and through google-cloud-firestore's
# bulk_writer(), in one run against one emulator, alternating the two ROUNDS times
# (default 3); prints every time, the medians and the ratio.
#
#   FIRESTORE_EMULATOR_HOST=127.0.0.1:8091 bash Benchmarks/bulk-writer.sh
#
# PEER_PYTHON (default Benchmarks/peer/.venv/bin/python, see Benchmarks/README.md) is a
# Python with google-cloud-firestore installed. MODES (default "unlimited default") picks
# the rate settings to compare: unlimited = no client rate limit on either side, default =
# each library's defaults (both start at 500 writes/s, so a run takes about 20 s). BULK_N
# overrides 10,000. Every run writes into a fresh collection of project "bench".
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST}"
PEER_PYTHON=${PEER_PYTHON:-Benchmarks/peer/.venv/bin/python}
[[ -x $PEER_PYTHON ]] || { echo "no $PEER_PYTHON: create the venv (Benchmarks/README.md) or set PEER_PYTHON" >&2; exit 1; }
MODES=${MODES:-unlimited default}
ROUNDS=${ROUNDS:-3}
swift build -c release --product firestore-bench >/dev/null
BENCH=$(swift build -c release --show-bin-path)/firestore-bench
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
ms() { sed -E 's/.* in ([0-9]+) ms.*/\1/'; }
for mode in $MODES; do
  py_times=()
  sw_times=()
  for ((r = 1; r <= ROUNDS; r++)); do
    if ((r % 2 == 1)); then order="py swift"; else order="swift py"; fi
    for what in $order; do
      if [[ $what == py ]]; then
        line=$(BULK_MODE=$mode "$PEER_PYTHON" Benchmarks/peer/bulk_writer.py)
        py_times+=("$(echo "$line" | ms)")
        echo "round $r python $line"
      else
        "$BENCH" bulk --bulk-mode "$mode" --bulk-n "${BULK_N:-10000}" --json "$OUT/bulk.json" >/dev/null
        line=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))[0]; print("bulk: %d writes in %.0f ms, %.0f writes/s, %d failed" % (int(sys.argv[2]), r["median_ms"], r["writes_per_s"], r["failed"]))' "$OUT/bulk.json" "${BULK_N:-10000}")
        sw_times+=("$(echo "$line" | ms)")
        echo "round $r swift  $line"
      fi
    done
  done
  median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
  p=$(median "${py_times[@]}")
  s=$(median "${sw_times[@]}")
  awk -v s="$s" -v p="$p" -v m="$mode" -v n="$ROUNDS" \
    'BEGIN { printf "%s, median of %d rounds: swift %d ms, python %d ms; swift/python %.2fx\n", m, n, s, p, s / p }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
