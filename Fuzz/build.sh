#!/usr/bin/env bash
# Builds the libFuzzer targets: `bash Fuzz/build.sh [TARGET...]` (default: all).
#
# The library modules a target needs are compiled straight with swiftc (whole-module, -O,
# `-sanitize=fuzzer,address`, `-enable-testing` so harnesses can reach internal parsers)
# into Fuzz/.build, apart from SwiftPM's .build tree, which this never touches. A module is
# rebuilt only when one of its sources, or a module it imports, is newer than its object.
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

ALL_TARGETS=(wire_json webchannel extended_json bundle http_request http_framing paths command_line)

# The library modules each target links, in dependency order.
modules_of() {
  case $1 in
    wire_json | webchannel | extended_json | bundle) echo FirestoreWire ;;
    http_request) echo FirestorePlatform FirestoreWire HTTP1Server ;;
    http_framing) echo FirestorePlatform FirestoreWire HTTP1Server ;;
    paths) echo FirestorePlatform FirestoreWire FirestoreEngine FirestoreClient ;;
    command_line) echo FirestorePlatform FirestoreWire CommandLineSupport ;;
    *)
      echo "error: unknown fuzz target '$1' (known: ${ALL_TARGETS[*]})" >&2
      return 1
      ;;
  esac
}

source_dir_of() {
  case $1 in
    FirestorePlatform) echo "$ROOT/Sources/FirestorePlatform" ;;
    FirestoreWire) echo "$ROOT/Sources/FirestoreWire" ;;
    FirestoreEngine) echo "$ROOT/Sources/FirestoreEngine" ;;
    FirestoreClient) echo "$ROOT/Sources/FirestoreClient" ;;
    HTTP1Server) echo "$ROOT/Mocks/HTTP1Server" ;;
    CommandLineSupport) echo "$ROOT/Sources/CommandLineSupport" ;;
    FirestoreMock) echo "$ROOT/Mocks/FirestoreMock" ;;
  esac
}

deps_of() {
  case $1 in
    FirestorePlatform | FirestoreWire) ;;
    FirestoreEngine) echo FirestoreWire ;;
    HTTP1Server | CommandLineSupport) echo FirestorePlatform ;;
    FirestoreClient) echo FirestorePlatform FirestoreWire FirestoreEngine ;;
    FirestoreMock) echo FirestorePlatform FirestoreWire FirestoreEngine HTTP1Server ;;
  esac
}

COMMON_FLAGS=(-swift-version 6 "$OPT" -g -sanitize=fuzzer,address -package-name swift_firestore -I "$OUT/modules")
# The system-library targets (Sources/C*) a module imports, as SwiftPM passes them.
c_modules_of() {
  case $1 in
    FirestoreClient) echo COpenSSL CSQLite CCurl ;;
    FirestoreMock) echo CZlib ;;
  esac
}

c_flags_of() {
  local c
  for c in $(c_modules_of "$1"); do printf '%s\n' -Xcc "-fmodule-map-file=$ROOT/Sources/$c/module.modulemap"; done
}

libs_of() {
  case $1 in
    FirestoreClient) echo -lssl -lcrypto -lsqlite3 -lcurl ;;
    FirestoreMock) echo -lz ;;
  esac
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

build_module() {
  local module=$1 dir obj swiftmodule dep
  dir=$(source_dir_of "$module")
  obj=$OUT/objects/$module.o
  swiftmodule=$OUT/modules/$module.swiftmodule
  local -a inputs=("$dir" "$FUZZ_DIR/build.sh")
  for dep in $(deps_of "$module"); do inputs+=("$OUT/objects/$dep.o"); done
  local c
  for c in $(c_modules_of "$module"); do inputs+=("$ROOT/Sources/$c"); done
  if ! stale "$obj" "${inputs[@]}"; then
    return 0
  fi
  log "compiling $module ($OPT, fuzzer+address)"
  local start=$SECONDS
  local -a sources extra=()
  mapfile -t sources < <(find "$dir" -name '*.swift' | sort)
  mapfile -t extra < <(c_flags_of "$module")
  swiftc -parse-as-library -wmo -enable-testing -module-name "$module" "${COMMON_FLAGS[@]}" "${extra[@]}" \
    -emit-module -emit-module-path "$swiftmodule" -emit-object -o "$obj" "${sources[@]}"
  # swiftc leaves an unchanged object file alone; its time must still say "up to date".
  touch "$obj"
  log "compiled $module in $((SECONDS - start))s"
}

build_target() {
  local target=$1 module
  local harness=$FUZZ_DIR/Targets/$target.swift
  local binary=$OUT/bin/fuzz-$target
  local -a modules objects=() extra=() libs=() more=()
  read -r -a modules <<<"$(modules_of "$target")"
  for module in "${modules[@]}"; do
    build_module "$module"
    objects+=("$OUT/objects/$module.o")
    mapfile -t -O "${#extra[@]}" extra < <(c_flags_of "$module")
    read -r -a more <<<"$(libs_of "$module")"
    libs+=("${more[@]}")
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
  local -a targets=("$@")
  if ((${#targets[@]} == 0)); then targets=("${ALL_TARGETS[@]}"); fi
  local t
  for t in "${targets[@]}"; do modules_of "$t" >/dev/null; done
  mkdir -p "$OUT/modules" "$OUT/objects" "$OUT/bin"
  local start=$SECONDS
  for t in "${targets[@]}"; do build_target "$t"; done
  log "fuzz targets built in $((SECONDS - start))s: ${targets[*]} (in $OUT/bin)"
}

main "$@"
