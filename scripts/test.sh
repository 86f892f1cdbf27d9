#!/usr/bin/env bash
# The project's test command: `bash scripts/test.sh [swift test args...]`.
#
# 1. Finds a Firestore emulator: FIRESTORE_EMULATOR_HOST if set, else starts one with
#    `gcloud emulators firestore start` on a free loopback port (stopped again on exit),
#    else runs the unit tests only (the emulator suite is skipped), which is an error
#    when REQUIRE_EMULATOR=1 or CI=true.
# 2. Builds and (with an emulator) runs Examples/QuickStart.
# 3. `swift build --build-tests`, then (with an emulator) `firestore demo` against it, then
#    `swift test "$@"`, logged to .build/test-logs/.
# 4. Counts the tests that reached the emulator (each writes a line to the ledger named by
#    FIRESTORE_TEST_LEDGER) and the conformance tests that were skipped (from the xunit
#    files); when the emulator is required, any skipped or none ran is a failure.
#
# 5. With an emulator, starts the real intermediaries users meet in front of it: `nghttpx`
#    as a TLS + HTTP/2 front with a certificate from a test CA, and `tinyproxy` as an HTTPS
#    proxy; the conformance suite runs through the front as a backend of its own.
#
# It first installs the system packages the build and the tests need
# (libcurl4-openssl-dev, zlib1g-dev, nghttp2-proxy, tinyproxy) when they are missing and
# it runs as root; otherwise it names the package and the command that installs it. It
# also puts the official Python client (google-cloud-firestore, from PyPI) in
# .build/pipeline-python, for the test that compares pipeline requests with its own.
#
# Environment:
#   FIRESTORE_PIPELINE_PYTHON  a python that has google-cloud-firestore (skips the install)
#   FIRESTORE_EMULATOR_HOST  use this emulator (host:port) instead of starting one
#   REQUIRE_EMULATOR=1       fail when no emulator (or no front and proxy) can be had
#                            (implied by CI=true)
#   EMULATOR_START_TIMEOUT   seconds to wait for a started emulator (default 90)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/packages.sh
source "$ROOT/scripts/packages.sh"

# The test targets whose skipped tests count as a skipped emulator suite (xunit classname, ERE).
EMULATOR_TEST_MODULES_RE='^(FirestoreConformanceTests|FirestoreRepositoriesTests)(\.|$)'
NO_EMULATOR_MSG="Firestore emulator not found (install Debian package google-cloud-cli-firestore-emulator and Java 17); running unit tests only — the emulator suite will be SKIPPED."

FRONT_DIR=""     # temp dir of the TLS front and the proxy (certificates, configs, logs, pgids)
EMU_DIR=""       # temp dir of the emulator this script started (pgid file, gcloud config)
EMU_PID=""       # pid of the background job that became the emulator's session leader
EMU_HOST=""      # host:port of the emulator in use, if any

log() { printf '==> %s\n' "$*"; }
err() { printf 'error: %s\n' "$*" >&2; }

# --- processes -------------------------------------------------------------------------

# True when a process of process group $1 is running (with $2 = all: or is a zombie not
# yet reaped).
group_alive() {
  local pg=$1 which=${2:-running} f line rest st pgrp
  for f in /proc/[0-9]*/stat; do
    { read -r line <"$f"; } 2>/dev/null || continue
    rest=${line##*) }                  # after "pid (comm) ": state ppid pgrp ...
    read -r st _ pgrp _ <<<"$rest"
    if [[ $pgrp == "$pg" && ($st != Z || $which == all) ]]; then
      return 0
    fi
  done
  return 1
}

# Stops the emulator this script started: TERM to its whole process group (gcloud, the
# launcher script and java), KILL after 15 s, then waits until none of it remains.
stop_emulator() {
  [[ -n $EMU_DIR ]] || return 0
  local pgid="" i
  if [[ -s $EMU_DIR/pgid ]]; then
    pgid=$(<"$EMU_DIR/pgid")
  elif [[ -n $EMU_PID ]]; then
    pgid=$EMU_PID   # setsid ran in the job itself, so the job's pid is the group id
  fi
  if [[ $pgid =~ ^[0-9]+$ ]] && ((pgid > 1)) && group_alive "$pgid"; then
    kill -TERM -- "-$pgid" 2>/dev/null || true
    for ((i = 0; i < 150; i++)); do
      group_alive "$pgid" || break
      sleep 0.1
    done
    if group_alive "$pgid"; then
      kill -KILL -- "-$pgid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do
        group_alive "$pgid" || break
        sleep 0.1
      done
    fi
  fi
  if [[ -n $EMU_PID ]]; then
    wait "$EMU_PID" 2>/dev/null || true
  fi
  if [[ $pgid =~ ^[0-9]+$ ]] && ((pgid > 1)); then
    for ((i = 0; i < 30; i++)); do   # give init a moment to reap the rest
      group_alive "$pgid" all || break
      sleep 0.1
    done
  fi
  rm -rf "$EMU_DIR"
  EMU_DIR=""
  EMU_PID=""
}

# --- TLS + HTTP/2 front and HTTPS proxy ---------------------------------------------------

# Starts "$@" in a session of its own, its process group id in $FRONT_DIR/$1.pgid.
start_group() { # $1 = name, rest = command
  local name=$1
  shift
  # shellcheck disable=SC2016  # $$ and $1 are expanded by the inner bash
  setsid bash -c 'echo $$ > "$1"; shift; exec "$@"' "start-$name" "$FRONT_DIR/$name.pgid" "$@" \
    >"$FRONT_DIR/$name.out" 2>&1 </dev/null &
}

wait_for_port() { # $1 = port, $2 = name
  local i
  for ((i = 0; i < 100; i++)); do
    port_is_free "$1" || return 0
    sleep 0.1
  done
  err "$2 did not listen on 127.0.0.1:$1"
  tail -n 20 "$FRONT_DIR/$2.out" >&2 || true
  return 1
}

# With an emulator at EMU_HOST: a test CA and a certificate for localhost, nghttpx in front
# of the emulator (TLS, HTTP/2 by ALPN, HTTP/1.1 to the emulator), and tinyproxy; exports
# FIRESTORE_TEST_HTTP2_FRONT, FIRESTORE_TEST_CA, FIRESTORE_TEST_PROXY and its log.
start_fronts() { # $1 = 1 when they are required
  local required=$1
  if ! command -v nghttpx >/dev/null 2>&1 || ! command -v tinyproxy >/dev/null 2>&1 || ! command -v openssl >/dev/null 2>&1; then
    if ((required)); then
      err "nghttpx, tinyproxy and openssl are required here (apt-get install nghttp2-proxy tinyproxy openssl)"
      exit 1
    fi
    echo "note: nghttpx or tinyproxy is missing: the HTTP/2 front and proxy tests will not run"
    return 0
  fi
  FRONT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/firestore-fronts.XXXXXX")
  if ! (
    cd "$FRONT_DIR"
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >names.ext
    openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj "/CN=swift-firestore test CA"
    openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj "/CN=localhost"
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile names.ext
  ) >"$FRONT_DIR/openssl.log" 2>&1; then
    err "could not make the test certificates"
    cat "$FRONT_DIR/openssl.log" >&2
    exit 1
  fi
  local front_port proxy_port emu_port=${EMU_HOST##*:}
  front_port=$(free_port)
  # Each listen holds a backend connection for as long as it runs: allow plenty. The
  # emulator closes the connection after every Listen-channel reply without saying so, and
  # nghttpx pools a connection as soon as the reply is complete, before the close arrives; a
  # request handed that connection gets a 502, and nghttpx never resends a request it wrote.
  # So channel requests get a pool of their own, and the REST pool never holds such a
  # connection. nghttpx shares one pool between patterns whose backends are configured
  # alike: `group=listen` is what makes the channel's pool separate.
  # --conf=/dev/null: Debian's default configuration adds a frontend on port 3000.
  start_group nghttpx nghttpx --conf=/dev/null --frontend="127.0.0.1,$front_port" --backend="127.0.0.1,$emu_port;;proto=http/1.1" \
    --backend="127.0.0.1,$emu_port;/google.firestore.v1.Firestore/Listen/channel;proto=http/1.1;group=listen" \
    --workers=1 --no-ocsp --backend-connections-per-host=512 --accesslog-file="$FRONT_DIR/nghttpx-access.log" --errorlog-file="$FRONT_DIR/nghttpx-error.log" \
    --backend-read-timeout=10m --frontend-read-timeout=10m --stream-read-timeout=10m \
    "$FRONT_DIR/server.key" "$FRONT_DIR/server.pem"
  wait_for_port "$front_port" nghttpx || exit 1
  proxy_port=$(free_port)
  cat >"$FRONT_DIR/tinyproxy.conf" <<EOF
Port $proxy_port
Listen 127.0.0.1
Timeout 600
MaxClients 200
Allow 127.0.0.1
LogFile "$FRONT_DIR/tinyproxy.log"
LogLevel Connect
DisableViaHeader Yes
EOF
  start_group tinyproxy tinyproxy -d -c "$FRONT_DIR/tinyproxy.conf"
  wait_for_port "$proxy_port" tinyproxy || exit 1
  export FIRESTORE_TEST_HTTP2_FRONT="localhost:$front_port"
  export FIRESTORE_TEST_CA="$FRONT_DIR/ca.pem"
  export FIRESTORE_TEST_PROXY="http://127.0.0.1:$proxy_port"
  export FIRESTORE_TEST_PROXY_LOG="$FRONT_DIR/tinyproxy.log"
  if ((required)); then
    export FIRESTORE_TEST_FRONTS_REQUIRED=1
  fi
  log "TLS + HTTP/2 front (nghttpx) on localhost:$front_port, HTTPS proxy (tinyproxy) on 127.0.0.1:$proxy_port"
}

stop_fronts() {
  [[ -n $FRONT_DIR ]] || return 0
  local name pgid i
  for name in nghttpx tinyproxy; do
    [[ -s $FRONT_DIR/$name.pgid ]] || continue
    pgid=$(<"$FRONT_DIR/$name.pgid")
    if [[ $pgid =~ ^[0-9]+$ ]] && ((pgid > 1)); then
      kill -TERM -- "-$pgid" 2>/dev/null || true
      for ((i = 0; i < 50; i++)); do
        group_alive "$pgid" || break
        sleep 0.1
      done
      kill -KILL -- "-$pgid" 2>/dev/null || true
    fi
  done
  # What the front answered itself: a 502 is a backend connection the emulator was closing.
  local access=$FRONT_DIR/nghttpx-access.log total bad channel
  if [[ -s $access ]]; then
    total=$(wc -l <"$access")
    bad=$(grep -c '" 502 ' "$access" || true)
    channel=$(grep '" 502 ' "$access" | grep -c 'Listen/channel' || true)
    log "TLS + HTTP/2 front: $total requests, $bad answered 502 by the front ($channel of them Listen-channel requests)"
  fi
  rm -rf "$FRONT_DIR"
  FRONT_DIR=""
}

# --- emulator --------------------------------------------------------------------------

# The SDK's Firestore emulator is usable: gcloud, the emulator component and java.
emulator_available() {
  command -v gcloud >/dev/null 2>&1 || return 1
  command -v java >/dev/null 2>&1 || return 1
  local gcloud_bin sdk_root
  gcloud_bin=$(readlink -f "$(command -v gcloud)")
  sdk_root=$(dirname "$(dirname "$gcloud_bin")")
  [[ -d $sdk_root/platform/cloud-firestore-emulator ]] && return 0
  # Another layout (e.g. a user-installed SDK): ask dpkg for the Debian package.
  [[ $(dpkg-query -W -f='${Status}' google-cloud-cli-firestore-emulator 2>/dev/null) == "install ok installed" ]]
}

port_is_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port() {
  local p
  if command -v python3 >/dev/null 2>&1 &&
    p=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null) &&
    [[ $p =~ ^[0-9]+$ ]]; then
    echo "$p"
    return 0
  fi
  for ((p = 8790; p < 8990; p++)); do
    if port_is_free "$p"; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

emulator_answers() {  # $1 = host:port
  [[ $(curl -s --max-time 2 "http://$1/" 2>/dev/null) == Ok* ]]
}

# A few dozen small REST calls so the emulator's JIT has compiled the hot paths before
# tests with timeouts run.
warm_emulator() {  # $1 = host:port
  local base="http://$1/v1/projects/warmup/databases/(default)/documents" i
  local -a h=(-H "Authorization: Bearer owner" -H "Content-Type: application/json")
  for ((i = 0; i < 12; i++)); do
    curl -sg -o /dev/null --max-time 10 -X PATCH "${h[@]}" \
      -d "{\"fields\":{\"n\":{\"integerValue\":\"$i\"},\"s\":{\"stringValue\":\"warm\"}}}" "$base/warm/d$i" || true
    curl -sg -o /dev/null --max-time 10 "${h[@]}" "$base/warm/d$i" || true
    curl -sg -o /dev/null --max-time 10 -X POST "${h[@]}" \
      -d '{"structuredQuery":{"from":[{"collectionId":"warm"}],"where":{"fieldFilter":{"field":{"fieldPath":"n"},"op":"GREATER_THAN","value":{"integerValue":"3"}}},"orderBy":[{"field":{"fieldPath":"n"},"direction":"DESCENDING"}]}}' \
      "$base:runQuery" || true
  done
  curl -sg -o /dev/null --max-time 10 -X POST "${h[@]}" \
    -d "{\"writes\":[{\"delete\":\"projects/warmup/databases/(default)/documents/warm/d0\"}]}" "$base:commit" || true
}

# Starts `gcloud emulators firestore start` in its own session on a free port and sets
# EMU_HOST. Exits 1 (after printing the log tail) if it does not answer in time.
start_emulator() {
  local port timeout=${EMULATOR_START_TIMEOUT:-90} start waited
  port=$(free_port) || {
    err "no free port found for the Firestore emulator"
    exit 1
  }
  EMU_DIR=$(mktemp -d "${TMPDIR:-/tmp}/firestore-emulator.XXXXXX")
  mkdir -p "$ROOT/.build/test-logs"
  local emu_log="$ROOT/.build/test-logs/emulator.log"
  log "starting Firestore emulator on 127.0.0.1:$port (log: $emu_log)"
  (
    cd "$EMU_DIR"
    export CLOUDSDK_CORE_DISABLE_PROMPTS=1 CLOUDSDK_COMPONENT_MANAGER_DISABLE_UPDATE_CHECK=1
    export CLOUDSDK_CONFIG="$EMU_DIR/gcloud-config"
    # shellcheck disable=SC2016  # $$ and $1 are expanded by the inner bash
    exec setsid bash -c 'echo $$ > "$1"; shift; exec "$@"' start-emulator "$EMU_DIR/pgid" \
      gcloud emulators firestore start --host-port="127.0.0.1:$port"
  ) >"$emu_log" 2>&1 </dev/null &
  EMU_PID=$!
  start=$SECONDS
  until emulator_answers "127.0.0.1:$port"; do
    waited=$((SECONDS - start))
    if ((waited >= timeout)) || ! kill -0 "$EMU_PID" 2>/dev/null; then
      if ((waited >= timeout)); then
        err "the Firestore emulator did not answer on 127.0.0.1:$port within ${timeout}s"
      else
        err "the Firestore emulator exited before answering on 127.0.0.1:$port"
      fi
      echo "--- last lines of $emu_log ---" >&2
      tail -n 40 "$emu_log" >&2 || true
      echo "---" >&2
      exit 1
    fi
    sleep 0.5
  done
  EMU_HOST="127.0.0.1:$port"
  log "emulator ready after $((SECONDS - start))s; warming it up"
  warm_emulator "$EMU_HOST"
}

on_exit() {
  local status=$?
  trap - EXIT INT TERM
  stop_fronts
  stop_emulator
  exit "$status"
}

# Sets EMU_HOST (and FIRESTORE_EMULATOR_HOST) or explains why there is no emulator.
setup_emulator() {
  local required=0
  if [[ ${REQUIRE_EMULATOR:-} == 1 || ${CI:-} == true ]]; then
    required=1
  fi
  if [[ -n ${FIRESTORE_EMULATOR_HOST:-} ]]; then
    EMU_HOST=$FIRESTORE_EMULATOR_HOST
    if ! emulator_answers "$EMU_HOST"; then
      err "FIRESTORE_EMULATOR_HOST=$EMU_HOST does not answer (expected \"Ok\" from http://$EMU_HOST/)"
      exit 1
    fi
    log "using the Firestore emulator at FIRESTORE_EMULATOR_HOST=$EMU_HOST"
  elif emulator_available; then
    start_emulator
  else
    if ((required)); then
      err "$NO_EMULATOR_MSG"
      err "(an emulator is required here: REQUIRE_EMULATOR=1 or CI=true)"
      exit 1
    fi
    echo "$NO_EMULATOR_MSG"
    return 0
  fi
  export FIRESTORE_EMULATOR_HOST=$EMU_HOST
  export FIRESTORE_EMULATOR_REQUIRED=1
  start_fronts "$required"
}

# --- counting --------------------------------------------------------------------------

# Prints "ran skipped failed total_passed total_failed total_skipped" from the xunit files
# of `swift test` (Swift Testing writes <name>-swift-testing.xml, XCTest <name>.xml).
count_from_xunit() {
  python3 - "$EMULATOR_TEST_MODULES_RE" "$@" <<'PY'
import re, sys, xml.etree.ElementTree as ET
pattern = re.compile(sys.argv[1])
ran = skipped = failed = 0
tot_pass = tot_fail = tot_skip = 0
for path in sys.argv[2:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        continue
    for case in root.iter("testcase"):
        is_skip = case.find("skipped") is not None
        is_fail = case.find("failure") is not None or case.find("error") is not None
        if is_skip:
            tot_skip += 1
        elif is_fail:
            tot_fail += 1
        else:
            tot_pass += 1
        if pattern.search(case.get("classname", "")):
            if is_skip:
                skipped += 1
            else:
                ran += 1
                if is_fail:
                    failed += 1
print(ran, skipped, failed, tot_pass, tot_fail, tot_skip)
PY
}

# --- main ------------------------------------------------------------------------------

run_step() {  # $1 = title, rest = command
  local title=$1 start=$SECONDS
  shift
  log "$title"
  local rc=0
  "$@" || rc=$?
  if ((rc != 0)); then
    err "$title failed (exit $rc)"
    exit "$rc"
  fi
  log "$title: done in $((SECONDS - start))s"
}

# The official Python client, which the pipeline encoding test compares this library's
# requests with: a virtual environment under .build (no root needed), made once, pinned
# to the version the corpus was checked with. Without it that comparison is left out,
# which is an error when the emulator suite is required.
PIPELINE_CLIENT="google-cloud-firestore==2.34.1"
ensure_pipeline_python() {
  [[ -z ${FIRESTORE_PIPELINE_PYTHON:-} ]] || return 0
  local dir="$ROOT/.build/pipeline-python"
  local py="$dir/bin/python"
  if ! { [[ -x $py ]] && "$py" -c 'import google.cloud.firestore_v1.pipeline' 2>/dev/null; }; then
    log "installing $PIPELINE_CLIENT in $dir (for the pipeline encoding test)"
    if ! { python3 -m venv "$dir" && "$dir/bin/pip" install -q --disable-pip-version-check "$PIPELINE_CLIENT"; }; then
      err "could not install $PIPELINE_CLIENT (python3 -m venv $dir && $dir/bin/pip install $PIPELINE_CLIENT)"
      return 0
    fi
  fi
  export FIRESTORE_PIPELINE_PYTHON="$py"
}

main() {
  cd "$ROOT"
  ensure_swift

  trap on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  ensure_packages test
  ensure_pipeline_python
  setup_emulator

  run_step "swift build --package-path Examples/QuickStart" \
    swift build --package-path Examples/QuickStart
  if [[ -n $EMU_HOST ]]; then
    run_step "swift run --package-path Examples/QuickStart quickstart (FIRESTORE_EMULATOR_HOST=$EMU_HOST)" \
      swift run --skip-build --package-path Examples/QuickStart quickstart
  fi

  run_step "swift build --build-tests" swift build --build-tests
  if [[ -n $EMU_HOST ]]; then
    # The README's main command against the emulator: a smoke test, and a warm-up, since
    # a cold emulator under the whole parallel suite holds listen handshakes for seconds.
    run_step "firestore demo (FIRESTORE_EMULATOR_HOST=$EMU_HOST)" \
      "$(swift build --show-bin-path)/firestore" demo --project "demo-warmup-$RANDOM"
  fi

  local logdir="$ROOT/.build/test-logs" test_log xunit xunit_arg=1 a
  mkdir -p "$logdir"
  test_log="$logdir/swift-test.log"
  xunit="$logdir/xunit.xml"
  rm -f "$logdir"/xunit*.xml
  # Tests are counted from `swift test --xunit-output` (it names each test's module);
  # skip that when the caller passes their own or runs a subcommand such as `list`.
  for a in "$@"; do
    if [[ $a == --xunit-output* ]]; then
      xunit_arg=0
    fi
  done
  if [[ ${1:-} == list ]]; then
    xunit_arg=0
  fi
  # The conformance suite runs each case on the mock and, with an emulator, on the
  # emulator too; every test that reached the emulator writes one line here.
  export FIRESTORE_TEST_LEDGER="$logdir/emulator-ledger.txt"
  rm -f "$FIRESTORE_TEST_LEDGER"
  local -a test_cmd=(swift test "$@")
  if ((xunit_arg)); then
    test_cmd+=(--xunit-output "$xunit")
  fi

  log "${test_cmd[*]}"
  local start=$SECONDS status
  set +e
  "${test_cmd[@]}" 2>&1 | tee "$test_log"
  status=${PIPESTATUS[0]}
  set -e
  log "swift test exited $status after $((SECONDS - start))s (log: $test_log)"

  local required=0 ran=0 skipped=0 failed=0 tp tf ts totals="" counts
  if [[ -n $EMU_HOST && (${REQUIRE_EMULATOR:-} == 1 || ${CI:-} == true) ]]; then
    required=1
  fi
  local -a xunit_files=()
  for a in "${xunit%.xml}-swift-testing.xml" "$xunit"; do
    if [[ -s $a ]]; then
      xunit_files+=("$a")
    fi
  done
  if ((${#xunit_files[@]})) && command -v python3 >/dev/null 2>&1 &&
    counts=$(count_from_xunit "${xunit_files[@]}"); then
    read -r _ skipped failed tp tf ts <<<"$counts"
    totals="tests: $tp passed, $tf failed, $ts skipped"
  else
    # Without xunit files a skipped test cannot be attributed to its target.
    skipped=0
  fi
  ran=0
  if [[ -s $FIRESTORE_TEST_LEDGER ]]; then
    ran=$(sort -u "$FIRESTORE_TEST_LEDGER" | wc -l)
  fi
  if [[ -n $EMU_HOST ]]; then
    echo "emulator suite: $ran tests ran against FIRESTORE_EMULATOR_HOST=$EMU_HOST (the same cases also ran on the mock server), $skipped skipped"
  else
    echo "emulator suite: $skipped emulator-only tests skipped, conformance cases ran on the mock server only (no emulator)"
  fi

  if ((required)) && ((status == 0)); then
    if ((ran == 0)); then
      err "the emulator is required but no emulator test ran"
      status=1
    elif ((skipped > 0)); then
      err "the emulator is required but $skipped emulator test(s) were skipped"
      status=1
    fi
  fi
  if [[ -n $totals ]]; then
    echo "$totals"
  fi
  return "$status"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
