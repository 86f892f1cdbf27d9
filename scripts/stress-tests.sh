#!/usr/bin/env bash
# The suite's load check: `bash scripts/stress-tests.sh [RUNS] [swift test args...]`.
#
# Runs the whole `scripts/test.sh` RUNS times (default 5), each while two CPU-bound
# processes compete for the cores, as other builds beside the suite do; prints each run's
# result and the tests that failed, and a last line `stress: N passed, N failed` counting
# runs. Exits non-zero when any run failed.
#
# Each run is what CI runs: scripts/test.sh with REQUIRE_EMULATOR=1, which starts the
# emulator and the intermediaries (or uses the emulator at FIRESTORE_EMULATOR_HOST).
# STRESS_LOAD_PROCESSES sets how many CPU-bound processes compete (default 2).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RUNS=${1:-5}
shift || true
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || {
  echo "usage: bash scripts/stress-tests.sh [RUNS] [swift test args...]" >&2
  exit 2
}
LOAD=${STRESS_LOAD_PROCESSES:-2}
LOGDIR="$ROOT/.build/stress-logs"
mkdir -p "$LOGDIR"
rm -f "$LOGDIR"/run-*.log "$LOGDIR"/failures-*.txt

LOAD_PIDS=()
start_load() {
  local i
  for ((i = 0; i < LOAD; i++)); do
    # A busy loop in its own process: it takes a core whenever the scheduler gives it one.
    bash -c 'while :; do :; done' &
    LOAD_PIDS+=($!)
  done
}
stop_load() {
  local pid
  for pid in "${LOAD_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${LOAD_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  LOAD_PIDS=()
}
trap stop_load EXIT

passed=0 failed=0
declare -a RESULTS=()
for ((run = 1; run <= RUNS; run++)); do
  log="$LOGDIR/run-$run.log"
  echo "==> run $run of $RUNS, with $LOAD CPU-bound processes beside it (log: $log)"
  start_load
  start=$SECONDS rc=0
  REQUIRE_EMULATOR=1 bash "$ROOT/scripts/test.sh" "$@" >"$log" 2>&1 || rc=$?
  stop_load
  totals=$(grep -E '^tests: [0-9]+ passed' "$log" | tail -n 1 || true)
  if ((rc == 0)); then
    passed=$((passed + 1))
    RESULTS+=("run $run: ok in $((SECONDS - start))s, ${totals:-no totals}")
  else
    failed=$((failed + 1))
    RESULTS+=("run $run: FAILED (exit $rc) in $((SECONDS - start))s, ${totals:-no totals}")
    # Swift Testing's failure lines name the test and the expectation.
    grep -E '✘ Test .* (recorded an issue|failed)' "$log" | sed 's/^/    /' | head -n 40 >>"$LOGDIR/failures-$run.txt" || true
    grep -E '^error: ' "$log" | sed 's/^/    /' | head -n 10 >>"$LOGDIR/failures-$run.txt" || true
  fi
  echo "${RESULTS[-1]}"
  [[ -s $LOGDIR/failures-$run.txt ]] && cat "$LOGDIR/failures-$run.txt"
done

printf '%s\n' "${RESULTS[@]}"
echo "stress: $passed passed, $failed failed"
((failed == 0))
