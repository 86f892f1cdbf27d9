#!/usr/bin/env bash
# Records the fuzz seed corpora from a real Firestore emulator: `bash Fuzz/record-seeds.sh`
# with FIRESTORE_EMULATOR_HOST=127.0.0.1:PORT of a running emulator (data is written under
# project `fuzz-seeds`, which is wiped first).
#
# Every REST and WebChannel seed is a response exactly as the emulator sent it; request
# seeds are the bytes curl sends for the same calls (captured by a one-shot listener);
# extended-JSON seeds are the `firestore get` output (the CLI is built if needed) for the
# recorded documents; path seeds are the document paths and field paths of the recorded
# documents. Re-running replaces the recorded files (names stay the same); crash inputs
# (`crash-*`) and hand-written seeds (`hand-*`) are kept.
set -euo pipefail
if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

HOST=${FIRESTORE_EMULATOR_HOST:?set FIRESTORE_EMULATOR_HOST=host:port of a running emulator}
PROJECT=fuzz-seeds
ROOT="projects/$PROJECT/databases/(default)/documents"
BASE="http://$HOST/v1/$ROOT"
CHANNEL="http://$HOST/google.firestore.v1.Firestore/Listen/channel"
DB_PARAM="database=projects%2F$PROJECT%2Fdatabases%2F(default)"
CORPUS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/corpus
AUTH=(-H "Authorization: Bearer owner")
JSON=(-H "Content-Type: application/json")

mkdir -p "$CORPUS"/{wire_json,webchannel,http_request,paths,extended_json,bundle}
cd "$CORPUS"
# Raw HTTP replies the WebChannel seeds are cut from.
RAW=$(mktemp -d)
trap 'rm -rf "$RAW"' EXIT

curl -sf -X DELETE "http://$HOST/emulator/v1/projects/$PROJECT/databases/(default)/documents" >/dev/null

# --- documents with every value kind ----------------------------------------------------
put() {  # $1 = path below the documents root, $2 = fields JSON
  curl -sgf -o /dev/null -X PATCH "${AUTH[@]}" "${JSON[@]}" -d "{\"fields\":$2}" "$BASE/$1"
}
put types/all '{
  "null":{"nullValue":null}, "yes":{"booleanValue":true}, "no":{"booleanValue":false},
  "int":{"integerValue":"42"}, "intMax":{"integerValue":"9223372036854775807"}, "intMin":{"integerValue":"-9223372036854775808"},
  "double":{"doubleValue":1.5}, "tiny":{"doubleValue":5e-324}, "huge":{"doubleValue":1e300}, "negZero":{"doubleValue":-0.0},
  "nan":{"doubleValue":"NaN"}, "inf":{"doubleValue":"Infinity"}, "negInf":{"doubleValue":"-Infinity"},
  "ts":{"timestampValue":"2024-02-29T23:59:59.123456Z"}, "tsMin":{"timestampValue":"0001-01-01T00:00:00Z"},
  "tsMax":{"timestampValue":"9999-12-31T23:59:59.999999Z"}, "tsOffset":{"timestampValue":"2024-01-02T03:04:05.5+01:00"},
  "str":{"stringValue":"héllo wörld"}, "emoji":{"stringValue":"é😀👩‍👩‍👧 𝄞 日本語"},
  "escapes":{"stringValue":"quote \" backslash \\ slash / tab \t newline \n nul \u0000 bell \u0007 apostrophe '"'"'"},
  "empty":{"stringValue":""},
  "bytes":{"bytesValue":"AAEC/w=="}, "urlBytes":{"bytesValue":"_-8"},
  "ref":{"referenceValue":"projects/fuzz-seeds/databases/(default)/documents/cities/c1"},
  "otherRef":{"referenceValue":"projects/other/databases/(default)/documents/a/b/c/d"},
  "geo":{"geoPointValue":{"latitude":48.8566,"longitude":2.3522}}, "geoEdge":{"geoPointValue":{"latitude":-90,"longitude":180}},
  "geoZero":{"geoPointValue":{}},
  "array":{"arrayValue":{"values":[{"integerValue":"1"},{"stringValue":"two"},{"doubleValue":3.0},{"nullValue":null}]}},
  "emptyArray":{"arrayValue":{}}, "emptyMap":{"mapValue":{}},
  "map":{"mapValue":{"fields":{"a.b":{"stringValue":"dotted key"},"`tick`":{"booleanValue":true},"with space":{"integerValue":"1"},"ключ":{"stringValue":"значение"}}}}
}'
put types/nested '{
  "deep":{"mapValue":{"fields":{"l1":{"mapValue":{"fields":{"l2":{"arrayValue":{"values":[{"mapValue":{"fields":{"l3":{"arrayValue":{"values":[{"mapValue":{"fields":{"empty":{"arrayValue":{}}}}},{"mapValue":{"fields":{"l4":{"timestampValue":"1970-01-01T00:00:00.000001Z"}}}}]}}}}}]}}}}}}}},
  "list":{"arrayValue":{"values":[{"geoPointValue":{"latitude":1.5,"longitude":-2.25}},{"bytesValue":""},{"referenceValue":"projects/fuzz-seeds/databases/(default)/documents/types/all"}]}}
}'
put "types/id%20with%20spaces%20%C3%A9%F0%9F%98%80" '{"n":{"integerValue":"1"}}'
for i in 1 2 3; do
  put "cities/c$i" "{\"name\":{\"stringValue\":\"city$i ✓\"},\"pop\":{\"integerValue\":\"$((i * 1000))\"},\"area\":{\"doubleValue\":$i.25}}"
done
put cities/c1/landmarks/l1 '{"name":{"stringValue":"Tour Eiffel"}}'

# --- REST responses (the wire_json target takes the JSON body) --------------------------
curl -sg "${AUTH[@]}" "$BASE/types/all" >wire_json/get-all.json
curl -sg "${AUTH[@]}" "$BASE/types/nested" >wire_json/get-nested.json
curl -sg "${AUTH[@]}" "$BASE/types/id%20with%20spaces%20%C3%A9%F0%9F%98%80" >wire_json/get-odd-id.json
curl -sg "${AUTH[@]}" "$BASE/cities?pageSize=2" >wire_json/list-page.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"structuredQuery":{"from":[{"collectionId":"cities"}],"orderBy":[{"field":{"fieldPath":"pop"},"direction":"DESCENDING"}]}}' \
  "$BASE:runQuery" >wire_json/runquery.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"structuredQuery":{"from":[{"collectionId":"types"}]},"newTransaction":{"readOnly":{}}}' \
  "$BASE:runQuery" >wire_json/runquery-transaction.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"structuredQuery":{"from":[{"collectionId":"cities"}],"select":{"fields":[{"fieldPath":"__name__"}]},"offset":1,"limit":5}}' \
  "$BASE:runQuery" >wire_json/runquery-ids-offset.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"structuredQuery":{"from":[{"collectionId":"nothing"}]}}' \
  "$BASE:runQuery" >wire_json/runquery-empty.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d "{\"documents\":[\"$ROOT/cities/c1\",\"$ROOT/cities/none\",\"$ROOT/types/nested\"]}" \
  "$BASE:batchGet" >wire_json/batchget.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d "{\"documents\":[\"$ROOT/cities/c2\"],\"newTransaction\":{\"readOnly\":{}}}" \
  "$BASE:batchGet" >wire_json/batchget-transaction.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"structuredAggregationQuery":{"structuredQuery":{"from":[{"collectionId":"cities"}]},"aggregations":[{"alias":"n","count":{}},{"alias":"s","sum":{"field":{"fieldPath":"pop"}}},{"alias":"a","avg":{"field":{"fieldPath":"area"}}}]}}' \
  "$BASE:runAggregationQuery" >wire_json/aggregation.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d "{\"writes\":[{\"update\":{\"name\":\"$ROOT/cities/c4\",\"fields\":{\"n\":{\"integerValue\":\"4\"}}},\"updateTransforms\":[{\"fieldPath\":\"at\",\"setToServerValue\":\"REQUEST_TIME\"},{\"fieldPath\":\"n\",\"increment\":{\"integerValue\":\"1\"}}]},{\"delete\":\"$ROOT/cities/none\"}]}" \
  "$BASE:commit" >wire_json/commit.json
curl -sg "${AUTH[@]}" "$BASE/cities/none" >wire_json/error-404.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"structuredQuery":{"from":[{"collectionId":"cities"}],"where":{"fieldFilter":{"field":{"fieldPath":"my-field"},"op":"EQUAL","value":{"integerValue":"1"}}}}}' \
  "$BASE:runQuery" >wire_json/error-400.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"fields":{"n":{"integerValue":"1"}}}' \
  "$BASE/cities?documentId=c1" >wire_json/error-409.json
curl -sg "${AUTH[@]}" "${JSON[@]}" -X POST -d '{"fields":{"bad":{"integerValue":"9223372036854775808"}}}' \
  "$BASE/cities" >wire_json/error-400-payload.json

# --- extended JSON: the `firestore` CLI's own output for the documents ----------------------
# `firestore get` prints one NDJSON line per document, its data in extended JSON (what
# `firestore set` and `import` read); each line is kept as printed.
FIRESTORE_BIN=$(cd "$CORPUS/../.." && swift build --product firestore >&2 && swift build --show-bin-path)/firestore
i=0
while IFS= read -r line; do
  printf '%s' "$line" >"extended_json/cli-get-$i.json"
  i=$((i + 1))
done < <(FIRESTORE_EMULATOR_HOST=$HOST "$FIRESTORE_BIN" get types/all types/nested "types/id with spaces é😀" cities/c1 --project "$PROJECT")

# --- bundles: built by the `firestore` CLI from the recorded documents -------------------
FIRESTORE_EMULATOR_HOST=$HOST "$FIRESTORE_BIN" bundle seeds cities --order-by name --limit 2 --query-name first-cities \
  --document types/all --document types/none --project "$PROJECT" >bundle/cli-bundle-query.bundle
FIRESTORE_EMULATOR_HOST=$HOST "$FIRESTORE_BIN" bundle seeds-last cities --order-by name --limit-to-last 1 --query-name last-city \
  --project "$PROJECT" >bundle/cli-bundle-last.bundle

# --- WebChannel listen ------------------------------------------------------------------
# Handshake carrying a query target on cities and a documents target (one missing doc).
add_query="{\"database\":\"projects/$PROJECT/databases/(default)\",\"addTarget\":{\"query\":{\"parent\":\"$ROOT\",\"structuredQuery\":{\"from\":[{\"collectionId\":\"cities\"}],\"orderBy\":[{\"field\":{\"fieldPath\":\"__name__\"},\"direction\":\"ASCENDING\"}]}},\"targetId\":2}}"
add_docs="{\"database\":\"projects/$PROJECT/databases/(default)\",\"addTarget\":{\"documents\":{\"documents\":[\"$ROOT/types/all\",\"$ROOT/types/none\"]},\"targetId\":4}}"
curl -sSi --raw "${AUTH[@]}" "$CHANNEL?$DB_PARAM&VER=8&RID=1000&CVER=22&X-HTTP-Session-Id=gsessionid&zx=seed&t=1" \
  --data count=2 --data ofs=0 --data-urlencode "req0___data__=$add_query" --data-urlencode "req1___data__=$add_docs" \
  >"$RAW"/webchannel-handshake.http
SID=$(grep -ao '\["c","[^"]*"' "$RAW"/webchannel-handshake.http | sed 's/.*"c","//; s/"$//')
SID_ENC=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$SID")
# Strip the HTTP framing for the frame-level seed of the handshake reply.
curl -sS "${AUTH[@]}" "$CHANNEL?$DB_PARAM&VER=8&RID=2000&CVER=22" --data count=0 >webchannel/handshake.txt
# Back channel, long-poll mode (CI=1): the answer ends by itself with what was queued.
curl -sS "$CHANNEL?$DB_PARAM&VER=8&RID=rpc&SID=$SID_ENC&AID=0&CI=1&TYPE=xmlhttp&zx=bc&t=1" >webchannel/backchannel-initial.txt
# A write while a streaming back channel (CI=0) is open: RESET, documents, CURRENT, global.
last=$(grep -ao '\[[0-9]*,\[' webchannel/backchannel-initial.txt | tail -1 | tr -dc 0-9)
(sleep 2 && put cities/c2 '{"name":{"stringValue":"renamed ✓ 😀"},"pop":{"integerValue":"2500"}}' && sleep 1 &&
  curl -sgf -o /dev/null -X DELETE "${AUTH[@]}" "$BASE/types/all") &
curl -si --raw --max-time 6 "$CHANNEL?$DB_PARAM&VER=8&RID=rpc&SID=$SID_ENC&AID=$last&CI=0&TYPE=xmlhttp&zx=bc2&t=1" \
  >"$RAW"/webchannel-backchannel.http || true
wait
sed '1,/^\r$/d' "$RAW"/webchannel-backchannel.http |
  python3 -c '
import sys
data = sys.stdin.buffer.read()
out = b""
while data:
    line, _, data = data.partition(b"\r\n")
    size = int(line.split(b";")[0] or b"0", 16)
    if size == 0:
        break
    out += data[:size]
    data = data[size + 2:]
sys.stdout.buffer.write(out)' >webchannel/backchannel-stream.txt
# A forward POST (removeTarget) and its reply, then terminate.
curl -sS "$CHANNEL?$DB_PARAM&VER=8&SID=$SID_ENC&RID=1001&AID=$last&zx=fw&t=1" \
  --data count=1 --data ofs=2 --data-urlencode "req0___data__={\"database\":\"projects/$PROJECT/databases/(default)\",\"removeTarget\":4}" \
  >webchannel/forward-reply.txt
curl -sS -o /dev/null "$CHANNEL?$DB_PARAM&VER=8&SID=$SID_ENC&RID=1002&TYPE=terminate&zx=end&t=1"

# Every ListenResponse of the streams on its own, for the wire_json target.
python3 - webchannel/backchannel-initial.txt webchannel/backchannel-stream.txt <<'PY'
import json, sys
seen = set()
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    while text:
        length, _, text = text.partition("\n")
        units = int(length)
        # The length counts UTF-16 code units.
        taken, i = 0, 0
        while taken < units:
            taken += 2 if ord(text[i]) > 0xFFFF else 1
            i += 1
        frame, text = text[:i], text[i:]
        for array_id, payload in json.loads(frame):
            if isinstance(payload[0], dict):
                kind = next(iter(payload[0]))
                if kind == "targetChange":
                    kind += "-" + payload[0][kind].get("targetChangeType", "NO_CHANGE")
                if kind not in seen:
                    seen.add(kind)
                    with open(f"wire_json/listen-{kind}.json", "w", encoding="utf-8") as f:
                        json.dump(payload[0], f, ensure_ascii=False, separators=(",", ":"))
PY

# --- requests, as curl sends them ---------------------------------------------------------
# A one-shot listener records the bytes of one connection and answers 200 with close.
capture() {  # $1 = output file, rest = curl arguments (URL without host: use @HOST@)
  local out=$1 port
  shift
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
  python3 - "$port" "$out" <<'PY' &
import socket, sys, time
srv = socket.socket(); srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
srv.bind(("127.0.0.1", int(sys.argv[1]))); srv.listen(1)
conn, _ = srv.accept(); conn.settimeout(0.5)
data = b""
deadline = time.time() + 5
while time.time() < deadline:
    try:
        chunk = conn.recv(65536)
    except socket.timeout:
        if b"\r\n\r\n" in data and (b"100-continue" not in data.lower() or data.count(b"\r\n\r\n") > 1 or not data.endswith(b"\r\n\r\n")):
            break
        if b"100-continue" in data.lower():
            conn.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
        continue
    if not chunk:
        break
    data += chunk
open(sys.argv[2], "wb").write(data)
conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
conn.close()
PY
  sleep 0.3
  local -a args=()
  local a
  for a in "$@"; do args+=("${a//@HOST@/127.0.0.1:$port}"); done
  curl -sg -o /dev/null --max-time 5 "${args[@]}" || true
  wait
}
capture http_request/get.http "${AUTH[@]}" "http://@HOST@/v1/$ROOT/types/all"
capture http_request/patch-json.http "${AUTH[@]}" "${JSON[@]}" -X PATCH -d '{"fields":{"s":{"stringValue":"é😀"}}}' \
  "http://@HOST@/v1/$ROOT/cities/c1?updateMask.fieldPaths=s&currentDocument.exists=true"
capture http_request/runquery-chunked.http "${AUTH[@]}" "${JSON[@]}" -H "Transfer-Encoding: chunked" \
  -d '{"structuredQuery":{"from":[{"collectionId":"cities"}]}}' "http://@HOST@/v1/$ROOT:runQuery"
capture http_request/expect-continue.http "${AUTH[@]}" "${JSON[@]}" -H "Expect: 100-continue" \
  -d "{\"documents\":[\"$ROOT/cities/c1\"]}" "http://@HOST@/v1/$ROOT:batchGet"
capture http_request/webchannel-handshake.http "http://@HOST@/google.firestore.v1.Firestore/Listen/channel?$DB_PARAM&VER=8&RID=1000&CVER=22&X-HTTP-Session-Id=gsessionid&zx=seed&t=1" \
  --data-urlencode $'headers=Authorization:Bearer owner\r\n' --data count=1 --data ofs=0 --data-urlencode "req0___data__=$add_query"
capture http_request/webchannel-backchannel.http -H "Connection: close" \
  "http://@HOST@/google.firestore.v1.Firestore/Listen/channel?$DB_PARAM&VER=8&RID=rpc&SID=$SID_ENC&AID=3&CI=0&TYPE=xmlhttp&zx=bc&t=1"
capture http_request/absolute-form-http10.http -0 -x "http://@HOST@" "http://example.test/v1/$ROOT/types/all?mask.fieldPaths=a&mask.fieldPaths=%60b%60"
# Two pipelined requests on one connection.
cat http_request/get.http http_request/patch-json.http >http_request/pipelined.http

# --- paths: document names and field names taken from the recorded documents -------------
python3 - <<'PY'
import json, glob
names, fields = set(), set()
def walk(v, prefix):
    for k, val in v.items():
        fields.add(tuple(prefix + [k]))
        inner = val.get("mapValue", {}).get("fields")
        if inner:
            walk(inner, prefix + [k])
for path in glob.glob("wire_json/*.json"):
    try:
        doc = json.load(open(path, encoding="utf-8"))
    except ValueError:
        continue
    items = doc if isinstance(doc, list) else [doc]
    for item in items:
        for d in (item.get("document"), item.get("found"), item if "name" in item else None):
            if isinstance(d, dict) and "name" in d:
                names.add(d["name"])
                walk(d.get("fields", {}), [])
def quote(seg):
    import re
    if re.fullmatch(r"[A-Za-z_][A-Za-z_0-9]*", seg):
        return seg
    return "`" + seg.replace("\\", "\\\\").replace("`", "\\`") + "`"
i = 0
for name in sorted(names):
    rel = name.split("/documents/", 1)[1]
    open(f"paths/name-{i}.txt", "w", encoding="utf-8").write(rel); i += 1
for segs in sorted(fields):
    open(f"paths/field-{i}.txt", "w", encoding="utf-8").write(".".join(quote(s) for s in segs)); i += 1
PY

echo "recorded into $CORPUS:"
for d in wire_json webchannel http_request paths extended_json bundle; do
  printf '  %-14s %3d files, %6d bytes\n' "$d" "$(find "$d" -type f | wc -l)" "$(cat "$d"/* | wc -c)"
done
