#!/usr/bin/env bash
# The whole test suite under ThreadSanitizer and AddressSanitizer:
#
#   bash scripts/sanitizers.sh [thread|address ...]     (default: both)
#
# Each sanitizer builds into its own directory (.build/thread, .build/address), so the
# normal build is left alone, and runs through scripts/test.sh, which starts an emulator
# when FIRESTORE_EMULATOR_HOST is unset. A sanitizer report fails the run: it makes the
# test process exit non-zero (and the CLI tests, which run the sanitized `firestore`,
# see its report on stderr). Takes about 5 minutes per sanitizer on 2 cores.
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
  if ! bash scripts/test.sh --sanitize="$sanitizer" --scratch-path ".build/$sanitizer"; then
    failed+=("$sanitizer")
  fi
done
if ((${#failed[@]})); then
  echo "sanitizers failed: ${failed[*]}" >&2
  exit 1
fi
echo "sanitizers passed: ${sanitizers[*]}"
