#!/usr/bin/env bash
# The whole test suite under ThreadSanitizer and AddressSanitizer:
#
#   bash scripts/sanitizers.sh [thread|address ...]     (default: both)
#
# Each sanitizer builds into its own directory (.build/thread, .build/address), so the
# normal build is left alone, and runs through scripts/test.sh, which starts an emulator
# when FIRESTORE_EMULATOR_HOST is unset. A sanitizer report fails the run: it makes the
# test process exit non-zero (and the CLI tests, which run the sanitized `firestore`,
# see its report on stderr). Takes 5 to 10 minutes per sanitizer on 2 cores.
#
# Two settings, and why:
# - Tests run one at a time (--no-parallel). Run in parallel under a sanitizer on this
#   2-core machine, the Swift runtime's lazy metadata initialization (swift_once) was seen
#   to leave threads waiting forever with no thread running the initializer, which hangs
#   the listeners of every test that shares the mock server; serial runs never hung.
# - LeakSanitizer is off (ASAN_OPTIONS=detect_leaks=0): Swift keeps enum tags in the spare
#   bits of pointers, which LeakSanitizer does not recognise as pointers, so it reports
#   live indirect-enum boxes (every Firestore Value) as leaked. AddressSanitizer's checks
#   of bounds, use after free and double free stay on.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sanitizers=("$@")
((${#sanitizers[@]})) || sanitizers=(thread address)
failed=()
for sanitizer in "${sanitizers[@]}"; do
  case $sanitizer in
    thread | address) ;;
    *)
      echo "error: unknown sanitizer \"$sanitizer\" (thread or address)" >&2
      exit 2
      ;;
  esac
  printf '\n======== %s sanitizer ========\n' "$sanitizer"
  if ! ASAN_OPTIONS=detect_leaks=0 bash scripts/test.sh --sanitize="$sanitizer" --scratch-path ".build/$sanitizer" --no-parallel; then
    failed+=("$sanitizer")
  fi
done
if ((${#failed[@]})); then
  echo "sanitizers failed: ${failed[*]}" >&2
  exit 1
fi
echo "sanitizers passed: ${sanitizers[*]}"
