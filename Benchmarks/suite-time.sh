#!/usr/bin/env bash
# Times the conformance suite on the mock server and on the emulator, in one run, alternating
# the two ROUNDS times (default 5), and prints the medians and their ratio.
#
#   FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 bash Benchmarks/suite-time.sh
#
# The suite is built in release mode (with testing enabled) so that client CPU does not
# hide the servers' difference. The time is Swift Testing's own "Test run … after N seconds".
# Each run is every test of that backend: its cases of the conformance suite, and the tests
# of that backend alone (`.requires(.mock)`: the fault tests on mock servers of their own;
# `.requires(.emulator)`: security rules), which FIRESTORE_CONFORMANCE_BACKENDS narrows too.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST to a running emulator}"
ROUNDS=${ROUNDS:-5}
FLAGS=(-c release -Xswiftc -enable-testing)
swift build "${FLAGS[@]}" --build-tests >/dev/null

run() {  # $1 = backend; prints seconds
  FIRESTORE_CONFORMANCE_BACKENDS=$1 swift test "${FLAGS[@]}" --skip-build --filter FirestoreConformanceTests 2>&1 |
    sed -n 's/.*Test run with .* passed after \([0-9.]*\) seconds.*/\1/p'
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

mock=() emulator=()
for ((i = 1; i <= ROUNDS; i++)); do
  m=$(run mock)
  e=$(run emulator)
  [[ -n $m && -n $e ]] || { echo "a run failed" >&2; exit 1; }
  echo "round $i: mock ${m}s, emulator ${e}s"
  mock+=("$m")
  emulator+=("$e")
done
m=$(printf '%s\n' "${mock[@]}" | median)
e=$(printf '%s\n' "${emulator[@]}" | median)
awk -v m="$m" -v e="$e" 'BEGIN { printf "conformance suite, median of %d: mock %.3f s, emulator %.3f s, emulator/mock %.1fx\n", '"$ROUNDS"', m, e, e / m }'
