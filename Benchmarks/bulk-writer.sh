#!/usr/bin/env bash
# 10,000 article writes through our BulkWriter and through google-cloud-firestore's
# bulk_writer(), in one run against one emulator; prints both times and the ratio.
#
#   PEER_PYTHON=/path/to/.venv/bin/python FIRESTORE_EMULATOR_HOST=127.0.0.1:8091 \
#     bash Benchmarks/bulk-writer.sh
#
# PEER_PYTHON is a Python with google-cloud-firestore installed (`python3 -m venv .venv &&
# .venv/bin/pip install google-cloud-firestore`). MODES (default "unlimited default") picks
# the rate settings to compare: unlimited = no client rate limit on either side, default =
# each library's defaults (both start at 500 writes/s). BULK_N overrides 10,000.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST}"
: "${PEER_PYTHON:?set PEER_PYTHON to a python with google-cloud-firestore}"
MODES=${MODES:-unlimited default}
swift build -c release --product firestore-bench >/dev/null
BENCH=$(swift build -c release --show-bin-path)/firestore-bench
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for mode in $MODES; do
  py=$(BULK_MODE=$mode "$PEER_PYTHON" Benchmarks/peer/bulk_writer.py)
  sw=$(BULK_MODE=$mode "$BENCH" bulk)
  echo "python $py"
  echo "swift  $sw"
  pms=$(echo "$py" | sed -E 's/.* in ([0-9]+) ms.*/\1/')
  sms=$(echo "$sw" | sed -E 's/.* in ([0-9]+) ms.*/\1/')
  awk -v s="$sms" -v p="$pms" -v m="$mode" 'BEGIN { printf "%s: swift/python time %.2fx\n", m, s / p }'
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
