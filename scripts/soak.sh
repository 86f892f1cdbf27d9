#!/usr/bin/env bash
# Soak test: `bash scripts/soak.sh [SECONDS]` (default 600).
#
# Runs firestore-soak: a query listener and a document listener on a firestore-mock-server
# child process, a write every 100 ms, the Listen back channel cut every 20 s. It checks
# that both listeners end in the server's state with no duplicate, unknown, lost or stale
# change, that every cut was followed by snapshots, and that resident memory stayed flat
# (start and end RSS are printed). Exit 0 when all checks pass.
#
# SOAK_CONFIGURATION=release builds optimised binaries (default: debug, which CI has
# already built).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
seconds=${1:-600}
configuration=${SOAK_CONFIGURATION:-debug}
swift build -c "$configuration" --product firestore-mock-server
swift build -c "$configuration" --product firestore-soak
bin=$(swift build -c "$configuration" --show-bin-path)
exec "$bin/firestore-soak" --seconds "$seconds" --mock-server "$bin/firestore-mock-server"
