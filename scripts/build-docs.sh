#!/usr/bin/env bash
# Builds the DocC documentation (Docs.docc plus the public API of every library product of
# Package.swift) with the toolchain's `docc convert`; no SwiftPM plugin is needed.
#
#   bash scripts/build-docs.sh          # output in .build/docs (a static site)
#
# Fails if the package does not build or docc prints any warning.
#
# Symbol graphs come from `swift package dump-symbol-graph`, which extracts them from the
# modules of the ordinary debug build. (`swift build -Xswiftc -emit-symbol-graph
# -Xswiftc -emit-symbol-graph-dir -Xswiftc DIR` works too, but changes the compiler flags,
# so it and the next plain `swift build` each recompile the library modules.)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"

GRAPH_DIR=.build/symbol-graphs
OUT_DIR=.build/docs
LOG=.build/docs-build.log

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || {
  echo "error: swift not found on PATH" >&2
  exit 1
}

# The modules of the library products, as the package description names them.
mapfile -t DOC_MODULES < <(swift package dump-package | python3 -c '
import json, sys
for product in json.load(sys.stdin)["products"]:
    if "library" in product["type"]:
        print("\n".join(product["targets"]))')
DOCC=$(command -v docc || true)
if [[ -z $DOCC ]]; then
  DOCC=$(dirname "$(readlink -f "$(command -v swift)")")/docc
fi
[[ -x $DOCC ]] || {
  echo "error: docc not found next to swift or on PATH" >&2
  exit 1
}

echo "==> swift build"
swift build

echo "==> swift package dump-symbol-graph"
SRC_GRAPHS=$(dirname "$(swift build --show-bin-path)")/symbolgraph   # .build/<triple>/symbolgraph
rm -rf "$SRC_GRAPHS"
# It also extracts the test targets' modules, and exits non-zero when those have not been
# built (plain `swift build` does not build them); that is fine as long as the documented
# modules' graphs were written.
dump_status=0
dump_output=$(swift package dump-symbol-graph 2>&1) || dump_status=$?
written=$(sed -n 's/^Files written to //p' <<<"$dump_output" | tail -n 1)
if [[ -n $written ]]; then
  SRC_GRAPHS=$written
fi
for module in "${DOC_MODULES[@]}"; do
  if [[ ! -f $SRC_GRAPHS/$module.symbols.json ]]; then
    printf '%s\n' "$dump_output" >&2
    echo "error: swift package dump-symbol-graph (exit $dump_status) wrote no graph for $module in $SRC_GRAPHS" >&2
    exit 1
  fi
done
if ((dump_status != 0)); then
  echo "    (graphs of modules that are not built, such as test targets, were skipped)"
fi

# Keep only the documented modules' graphs: Module.symbols.json and the extension graphs
# Module@Other.symbols.json (test targets and anything else are left out).
rm -rf "$GRAPH_DIR"
mkdir -p "$GRAPH_DIR"
for module in "${DOC_MODULES[@]}"; do
  cp "$SRC_GRAPHS/$module.symbols.json" "$GRAPH_DIR/"
  for extension_graph in "$SRC_GRAPHS/$module@"*.symbols.json; do
    if [[ -f $extension_graph ]]; then
      cp "$extension_graph" "$GRAPH_DIR/"
    fi
  done
done
echo "    symbol graphs: $(cd "$GRAPH_DIR" && echo *.json)"

echo "==> docc convert Docs.docc"
rm -rf "$OUT_DIR"
set +e
"$DOCC" convert Docs.docc \
  --additional-symbol-graph-dir "$GRAPH_DIR" \
  --fallback-display-name SwiftFirestore \
  --fallback-bundle-identifier dev.swift-firestore \
  --output-path "$OUT_DIR" 2>&1 | tee "$LOG"
status=${PIPESTATUS[0]}
set -e

if ((status != 0)); then
  echo "error: docc convert failed (exit $status); output in $LOG" >&2
  exit "$status"
fi
if grep -q "warning:" "$LOG"; then
  echo "error: docc printed $(grep -c "warning:" "$LOG") warning(s); see above or $LOG" >&2
  exit 1
fi
echo "==> documentation written to $OUT_DIR (no warnings)"
