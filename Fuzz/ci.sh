#!/usr/bin/env bash
# CI entry point for fuzzing: `bash Fuzz/ci.sh` builds every fuzz target (Fuzz/build.sh)
# and runs each for FUZZ_CI_SECONDS (default 30) from its seed corpus (Fuzz/run.sh), one
# after the other. Exits non-zero when the build fails or any target finds a crash, leak,
# timeout or out-of-memory; the artifacts' paths are printed. Self-contained: needs only
# the Swift toolchain (swiftc on PATH or in /opt/swift) and libssl-dev/libsqlite3-dev.
set -euo pipefail

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_EACH=${FUZZ_CI_SECONDS:-30}
start=$SECONDS

echo "==> fuzz CI: building the fuzz targets"
bash "$FUZZ_DIR/build.sh"
built=$((SECONDS - start))

echo "==> fuzz CI: running each target for ${SECONDS_EACH}s"
rc=0
bash "$FUZZ_DIR/run.sh" "$SECONDS_EACH" || rc=$?
echo "==> fuzz CI: build ${built}s, runs $((SECONDS - start - built))s, total $((SECONDS - start))s"
if ((rc != 0)); then
  echo "==> fuzz CI: FAILED (a target found a problem; see FINDINGS above)" >&2
fi
exit "$rc"
