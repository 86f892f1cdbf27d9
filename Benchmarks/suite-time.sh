#!/usr/bin/env bash
# Times the conformance suite (with the app layer's tests, which run the same way) on the
# mock server and on the emulator, in one run, alternating
# the two ROUNDS times (default 5), and prints the medians and their ratio.
#
#   FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 bash Benchmarks/suite-time.sh
#
# The suite is built in release mode (with testing enabled) so that client CPU does not
# hide the servers' difference. The time is Swift Testing's own "Test run … after N seconds".
# The ratio compares the same work: each timed run is that backend's cases of the conformance
# suite with FIRESTORE_SUITE_SAME_WORK=1, which leaves out the tests of one backend alone
# (`.requires(.mock)`: the fault tests on mock servers of their own; `.requires(.emulator)`:
# security rules) and those that do other work on each backend (`.differsByBackend`), and
# sizes every test as on the emulator (`Backend.workload`). The mock's whole run, its fault
# tests included, is timed beside it and printed, outside the ratio.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
: "${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST to a running emulator}"
ROUNDS=${ROUNDS:-5}
FLAGS=(-c release -Xswiftc -enable-testing)
swift build "${FLAGS[@]}" --build-tests >/dev/null

log=$(mktemp)
trap 'rm -f "$log"' EXIT
run() {  # $1 = backend, $2 = 1 for the same work on both; prints seconds, or the failures
  FIRESTORE_CONFORMANCE_BACKENDS=$1 FIRESTORE_SUITE_SAME_WORK=$2 swift test "${FLAGS[@]}" --skip-build --filter 'FirestoreConformanceTests|FirestoreRepositoriesTests' >"$log" 2>&1 || true
  sed -n 's/.*Test run with .* passed after \([0-9.]*\) seconds.*/\1/p' "$log"
  grep '^✘ Test .*recorded an issue' "$log" >&2 || true
}

median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

mock=() emulator=() whole=()
for ((i = 1; i <= ROUNDS; i++)); do
  m=$(run mock 1)
  e=$(run emulator 1)
  w=$(run mock 0)
  [[ -n $m && -n $e && -n $w ]] || { echo "a run failed" >&2; exit 1; }
  echo "round $i: same work: mock ${m}s, emulator ${e}s; the mock's whole run ${w}s"
  mock+=("$m")
  emulator+=("$e")
  whole+=("$w")
done
m=$(printf '%s\n' "${mock[@]}" | median)
e=$(printf '%s\n' "${emulator[@]}" | median)
w=$(printf '%s\n' "${whole[@]}" | median)
awk -v m="$m" -v e="$e" -v w="$w" 'BEGIN {
  printf "conformance suite, same work, median of %d: mock %.3f s, emulator %.3f s, emulator/mock %.1fx\n", '"$ROUNDS"', m, e, e / m
  printf "the mock'\''s whole run (its fault tests and mock-sized cases too): %.3f s\n", w
}'
