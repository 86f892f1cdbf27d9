#!/usr/bin/env bash
# Runs fuzz targets: `bash Fuzz/run.sh SECONDS [TARGET...]` (default: all targets), one
# after the other, each for SECONDS under `nice -n 10`, starting from its seed corpus.
#
# Builds the targets first (Fuzz/build.sh, incremental). Each run works in a scratch
# directory (printed; FUZZ_SCRATCH overrides the parent, default a new mktemp -d): the seed
# corpus Fuzz/corpus/<target> is copied there so that what libFuzzer adds never lands in
# the committed corpus, and crash, leak and timeout inputs are kept there as artifacts.
# Prints per target: execs, execs/s, the final `cov:` and `ft:`, corpus size, and the
# result; exits 1 when any target found a crash, a leak, a timeout (an input taking more
# than 10 s) or an out-of-memory, and prints the artifacts' paths.
#
# Extra libFuzzer flags can be passed in FUZZ_FLAGS (e.g. FUZZ_FLAGS=-max_len=16384).
set -euo pipefail

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
usage() {
  echo "usage: bash Fuzz/run.sh SECONDS [TARGET...]" >&2
  exit 2
}
(($# >= 1)) || usage
SECONDS_EACH=$1
shift
[[ $SECONDS_EACH =~ ^[1-9][0-9]*$ ]] || usage

mapfile -t ALL_TARGETS < <(bash "$FUZZ_DIR/build.sh" --list)
TARGETS=("$@")
if ((${#TARGETS[@]} == 0)); then TARGETS=("${ALL_TARGETS[@]}"); fi

bash "$FUZZ_DIR/build.sh" "${TARGETS[@]}"

# Swift's own crash backtracer would run inside the sanitizer's signal handling (and
# trip ASan reading memory); libFuzzer prints the stack itself.
export SWIFT_BACKTRACE=enable=no
# No allocation stacks and a small quarantine: every Swift value allocates, and with the
# defaults ASan's bookkeeping takes most of the time (reproduce a finding with
# ASAN_OPTIONS= to get full allocation stacks).
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0:quarantine_size_mb=16}

SCRATCH=${FUZZ_SCRATCH:-$(mktemp -d "${TMPDIR:-/tmp}/swift-firestore-fuzz.XXXXXX")}
mkdir -p "$SCRATCH"
echo "==> scratch directory: $SCRATCH"

# Reads "stat::name: value" from a libFuzzer log.
stat() { sed -n "s/^stat::$2: *//p" "$1" | tail -1; }
# The last value of "name: N" on libFuzzer's status lines (e.g. cov, ft).
status_field() { grep -aoE "^#[0-9]+.* $2: [0-9]+" "$1" | tail -1 | sed -E "s/.* $2: //"; }

declare -a ROWS=() FINDINGS=()
for target in "${TARGETS[@]}"; do
  work=$SCRATCH/$target
  rm -rf "$work"
  mkdir -p "$work/corpus" "$work/artifacts"
  cp "$FUZZ_DIR/corpus/$target/"* "$work/corpus/"
  seeds=$(find "$work/corpus" -type f | wc -l)
  log=$work/fuzz.log
  dict=()
  if [[ -f $FUZZ_DIR/dict/$target.dict ]]; then dict=("-dict=$FUZZ_DIR/dict/$target.dict"); fi
  echo "==> fuzz-$target: ${SECONDS_EACH}s from $seeds seeds (log: $log)"
  rc=0
  # shellcheck disable=SC2086  # FUZZ_FLAGS is a list of flags
  nice -n 10 "$FUZZ_DIR/.build/bin/fuzz-$target" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" "${dict[@]}" ${FUZZ_FLAGS:-} "$work/corpus" >"$log" 2>&1 || rc=$?
  execs=$(stat "$log" number_of_executed_units)
  rate=$(stat "$log" average_exec_per_sec)
  cov=$(status_field "$log" cov)
  ft=$(status_field "$log" ft)
  units=$(find "$work/corpus" -type f | wc -l)
  artifacts=$(find "$work/artifacts" -type f | sort)
  result=ok
  if ((rc != 0)) || [[ -n $artifacts ]]; then
    result="FOUND (exit $rc)"
    FINDINGS+=("$target: exit $rc, log $log")
    while IFS= read -r a; do
      [[ -n $a ]] && FINDINGS+=("  artifact: $a")
    done <<<"$artifacts"
    grep -aE "^(==[0-9]+==ERROR|fuzz property failed|Fatal error|SUMMARY|ALARM|.*Test unit written)" "$log" | head -8 | sed 's/^/    /' || true
  fi
  ROWS+=("$(printf '%-14s %6s %12s %9s %7s %7s %7s  %s' "$target" "$SECONDS_EACH" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$units" "$result")")
done

echo
printf '%-14s %6s %12s %9s %7s %7s %7s  %s\n' target secs execs execs/s cov ft corpus result
printf '%s\n' "${ROWS[@]}"
if ((${#FINDINGS[@]})); then
  echo
  echo "FINDINGS (reproduce: Fuzz/.build/bin/fuzz-TARGET ARTIFACT):"
  printf '  %s\n' "${FINDINGS[@]}"
  exit 1
fi
echo "no findings"
