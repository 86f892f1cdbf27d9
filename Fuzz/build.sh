#!/usr/bin/env bash
# Builds the libFuzzer targets: `bash Fuzz/build.sh [TARGET...]` (default: all);
# `bash Fuzz/build.sh --list` prints their names.
#
# The library modules a target needs (the package's modules its harness imports, and theirs,
# as `swift package dump-package` describes them) are compiled straight with swiftc
# (whole-module, -O, `-sanitize=fuzzer,address`, `-enable-testing` so harnesses can reach
# internal parsers) into Fuzz/.build, apart from SwiftPM's .build tree, which this never
# touches. A module is rebuilt only when one of its sources, a module it imports or
# Package.swift is newer than its object.
# Each harness Fuzz/Targets/<target>.swift is then compiled and linked into
# Fuzz/.build/bin/fuzz-<target>.
#
# Environment: FUZZ_OPT (default -O) is the optimisation flag of every compile.
set -euo pipefail

FUZZ_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$FUZZ_DIR")
OUT=$FUZZ_DIR/.build
OPT=${FUZZ_OPT:--O}
if ! command -v swiftc >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swiftc ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swiftc >/dev/null 2>&1 || {
  echo "error: swiftc not found on PATH" >&2
  exit 1
}

# Every harness in Fuzz/Targets but the support file compiled into each.
ALL_TARGETS=()
for harness in "$FUZZ_DIR"/Targets/*.swift; do
  name=$(basename "$harness" .swift)
  [[ $name == FuzzSupport ]] || ALL_TARGETS+=("$name")
done

COMMON_FLAGS=(-swift-version 6 "$OPT" -g -sanitize=fuzzer,address -package-name swift_firestore -I "$OUT/modules")

# The package description as SwiftPM reads it, dumped again when Package.swift changes:
# the module graph comes from it, never from a list of its own here.
package_json() {
  local json=$OUT/package.json
  if stale "$json" "$ROOT/Package.swift"; then
    (cd "$ROOT" && swift package dump-package) >"$json.tmp"
    mv "$json.tmp" "$json"
  fi
  echo "$json"
}

# The modules a target links, in dependency order, one `NAME|DIR|DEPS|SYSTEM_LIBRARIES`
# line each: the package's modules its harness and FuzzSupport.swift import, and theirs.
graph_of() {
  local harness=$FUZZ_DIR/Targets/$1.swift
  [[ -f $harness ]] || {
    echo "error: unknown fuzz target '$1' (known: ${ALL_TARGETS[*]})" >&2
    return 1
  }
  local -a imports
  mapfile -t imports < <(sed -n 's/^\(@testable \)\{0,1\}import \([A-Za-z0-9_]*\).*/\2/p' "$harness" "$FUZZ_DIR/Targets/FuzzSupport.swift" | sort -u)
  python3 "$FUZZ_DIR/package-graph.py" "$(package_json)" "$ROOT" "${imports[@]}"
}

# lld links quietly; gold warns about every ASan symbol.
LINK_FLAGS=(-use-ld=lld)

log() { printf '==> %s\n' "$*"; }

# True when $1 (an output file) is missing or older than any file in the rest of the arguments.
stale() {
  local out=$1
  shift
  [[ -e $out ]] || return 0
  [[ -n $(find "$@" -newer "$out" -print -quit 2>/dev/null) ]]
}

build_module() {  # $1 = a graph line
  local module dir deps system
  IFS='|' read -r module dir deps system <<<"$1"
  local obj=$OUT/objects/$module.o swiftmodule=$OUT/modules/$module.swiftmodule
  local -a inputs=("$dir" "$FUZZ_DIR/build.sh" "$ROOT/Package.swift") extra=()
  local dep lib
  for dep in $deps; do inputs+=("$OUT/objects/$dep.o"); done
  for lib in $system; do
    inputs+=("${lib#*:}")
    extra+=(-Xcc "-fmodule-map-file=${lib#*:}/module.modulemap")
  done
  if ! stale "$obj" "${inputs[@]}"; then
    return 0
  fi
  log "compiling $module ($OPT, fuzzer+address)"
  local start=$SECONDS
  local -a sources
  mapfile -t sources < <(find "$dir" -name '*.swift' | sort)
  swiftc -parse-as-library -wmo -enable-testing -module-name "$module" "${COMMON_FLAGS[@]}" "${extra[@]}" \
    -emit-module -emit-module-path "$swiftmodule" -emit-object -o "$obj" "${sources[@]}"
  # swiftc leaves an unchanged object file alone; its time must still say "up to date".
  touch "$obj"
  log "compiled $module in $((SECONDS - start))s"
}

build_target() {
  local target=$1 line module dir deps system lib
  local harness=$FUZZ_DIR/Targets/$target.swift
  local binary=$OUT/bin/fuzz-$target
  local -a lines objects=() extra=() libs=()
  mapfile -t lines < <(graph_of "$target")
  for line in "${lines[@]}"; do
    build_module "$line"
    IFS='|' read -r module dir deps system <<<"$line"
    objects+=("$OUT/objects/$module.o")
    for lib in $system; do
      extra+=(-Xcc "-fmodule-map-file=${lib#*:}/module.modulemap")
      # The libraries its module map links (`link "curl"` is -lcurl).
      mapfile -t -O "${#libs[@]}" libs < <(sed -n 's/^ *link "\(.*\)"/-l\1/p' "${lib#*:}/module.modulemap")
    done
  done
  if ! stale "$binary" "$harness" "$FUZZ_DIR/Targets/FuzzSupport.swift" "${objects[@]}"; then
    log "fuzz-$target is up to date"
    return 0
  fi
  log "linking fuzz-$target"
  # FuzzSupport.swift (input splitting, checks) is compiled into every harness.
  swiftc -parse-as-library -module-name "fuzz_$target" "${COMMON_FLAGS[@]}" "${extra[@]}" "${LINK_FLAGS[@]}" \
    "$harness" "$FUZZ_DIR/Targets/FuzzSupport.swift" "${objects[@]}" "${libs[@]}" -o "$binary"
}

main() {
  if [[ ${1:-} == --list ]]; then
    printf '%s\n' "${ALL_TARGETS[@]}"
    return 0
  fi
  local -a targets=("$@")
  if ((${#targets[@]} == 0)); then targets=("${ALL_TARGETS[@]}"); fi
  local t
  mkdir -p "$OUT/modules" "$OUT/objects" "$OUT/bin"
  for t in "${targets[@]}"; do graph_of "$t" >/dev/null; done
  local start=$SECONDS
  for t in "${targets[@]}"; do build_target "$t"; done
  log "fuzz targets built in $((SECONDS - start))s: ${targets[*]} (in $OUT/bin)"
}

main "$@"
