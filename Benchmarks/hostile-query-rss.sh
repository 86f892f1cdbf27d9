#!/usr/bin/env bash
# Peak resident memory of `firestore query` against a raw server that sends the worst
# streamed replies: one document then silence (stall), one document then an element that
# never ends (endless), an element that never ends before the first (huge), and the same as
# a gzip bomb (gzip). The client must end each with an error (deadlineExceeded after
# FirestoreSettings.timeout for the stall, resourceExhausted at the 256 MB reply limit for
# the others) and stay far below the bytes sent.
#
#   bash Benchmarks/hostile-query-rss.sh                      # release build, 1024 MB per reply
#   SIZE_MB=8 CASES="endless gzip" FIRESTORE_BIN=.build/debug/firestore bash Benchmarks/hostile-query-rss.sh
#
# SIZE_MB: the most the server sends per reply (decompressed for gzip); below the 256 MB
# limit the reply simply ends cut short (unavailable), which checks the script, not the
# limit. CASES: which replies (default all four; the stall takes the 60 s timeout).
# FIRESTORE_BIN: the `firestore` to measure (default: a release build of this tree).
# Prints one row per case: peak RSS, wall time, exit status and the error line.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SIZE_MB=${SIZE_MB:-1024}
CASES=${CASES:-"stall endless huge gzip"}
if [[ -z ${FIRESTORE_BIN:-} ]]; then
  swift build -c release --product firestore >/dev/null
  FIRESTORE_BIN=$(swift build -c release --show-bin-path)/firestore
fi
OUT=$(mktemp -d)
SERVER=
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$OUT"' EXIT

python3 - "$OUT/port" "$SIZE_MB" <<'PY' &
import socket, sys, threading, zlib
port_file, size = sys.argv[1], int(sys.argv[2]) << 20
DOC = b'{"document":{"name":"projects/p/databases/(default)/documents/c/a","fields":{}}}'
ENDLESS = b'{"document":{"name":"projects/p/databases/(default)/documents/c/b","fields":{"s":{"stringValue":"'
PIECE = b"a" * (1 << 20)
HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"

def read_request(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        more = conn.recv(65536)
        if not more: return None
        data += more
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((int(l.split(b":")[1]) for l in head.split(b"\r\n") if l.lower().startswith(b"content-length:")), 0)
    while len(body) < length:
        more = conn.recv(65536)
        if not more: return None
        body += more
    return body

def endless(conn, opening):
    conn.sendall(HEAD + b"\r\n" + opening)
    for _ in range(size >> 20): conn.sendall(PIECE)

def serve(conn):
    try:
        body = read_request(conn)
        if body is None: return
        case = next((c for c in ("stall", "endless", "huge", "gzip") if ('"' + c + '"').encode() in body), "stall")
        if case == "stall":
            conn.sendall(HEAD + b"\r\n[" + DOC + b",")
            conn.recv(1)  # until the client gives up
        elif case == "endless":
            endless(conn, b"[" + DOC + b"," + ENDLESS)
        elif case == "huge":
            endless(conn, b"[" + ENDLESS)
        else:
            gz = zlib.compressobj(9, zlib.DEFLATED, 31)
            conn.sendall(HEAD + b"Content-Encoding: gzip\r\n\r\n" + gz.compress(b"[" + ENDLESS))
            for _ in range(size >> 20):
                conn.sendall(gz.compress(PIECE))
            conn.sendall(gz.flush())
    except OSError:
        pass
    finally:
        conn.close()

listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(16)
with open(port_file + ".tmp", "w") as f: f.write(str(listener.getsockname()[1]))
import os; os.rename(port_file + ".tmp", port_file)
while True:
    conn, _ = listener.accept()
    threading.Thread(target=serve, args=(conn,), daemon=True).start()
PY
SERVER=$!
while [[ ! -s $OUT/port ]]; do
  kill -0 "$SERVER" || { echo "the raw server did not start" >&2; exit 1; }
  sleep 0.1
done
PORT=$(cat "$OUT/port")

printf '%-8s %12s %9s %5s  %s\n' case "peak RSS MB" "wall s" exit "error"
for case in $CASES; do
  status=0
  /usr/bin/time -f '%M %e' -o "$OUT/time" "$FIRESTORE_BIN" --emulator "127.0.0.1:$PORT" --project p query "$case" \
    >/dev/null 2>"$OUT/err" || status=$?
  read -r rss wall < <(tail -n 1 "$OUT/time")
  printf '%-8s %12.1f %9s %5s  %s\n' "$case" "$(echo "$rss / 1024" | bc -l)" "$wall" "$status" "$(tail -n 1 "$OUT/err" | cut -c1-120)"
done
