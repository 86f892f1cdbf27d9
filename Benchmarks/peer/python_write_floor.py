"""s7a for the official Python client beside its own floor, call by call.

Three ways to write one small document (one timestamp field, as s7a), taken in turn so
that the emulator's drift reaches each alike:

- the client's `set()`, as bench_python.py times it;
- the same write as a raw `Commit` through the client's own gRPC stub, with the request
  made before the timing: what the client's transport costs with no client around it;
- the same write as a raw REST `:commit` over one keep-alive `http.client` connection,
  the body made before the timing: the emulator's REST path, which swift-firestore and
  curl take, from the same process.

    FIRESTORE_EMULATOR_HOST=127.0.0.1:8765 .venv/bin/python python_write_floor.py [N]

Prints the median and quartiles of each over N rounds (default 300, after 30 discarded).
Each way writes its own cycle of 1000 documents under users/u1/favorites_w (names
p0000.., g0000.., r0000..), beside s7a's w0000...
"""
import datetime
import http.client
import json
import os
import statistics
import sys
import time

from google.cloud import firestore
from google.cloud.firestore_v1.types import document as document_types
from google.cloud.firestore_v1.types import write as write_types
from google.protobuf import timestamp_pb2

import dataset as ds

N = int(sys.argv[1]) if len(sys.argv) > 1 else 300
WARM = 30

db = firestore.Client(project=ds.PROJECT)
stub = db._firestore_api
database = db._database_string
documents = f"{database}/documents"
rest = http.client.HTTPConnection(os.environ["FIRESTORE_EMULATOR_HOST"])
counters = {"p": 0, "g": 0, "r": 0}


def next_path(prefix):
    """The next document of `prefix`'s cycle, below the documents root."""
    counters[prefix] += 1
    return f"users/{ds.UID}/favorites_w/{prefix}{counters[prefix] % 1000:04d}"


def client_set():
    return lambda: db.document(next_path("p")).set({"starredAt": datetime.datetime.now(datetime.timezone.utc)})


def grpc_commit():
    stamp = timestamp_pb2.Timestamp()
    stamp.GetCurrentTime()
    write = write_types.Write(
        update=document_types.Document(name=f"{documents}/{next_path('g')}", fields={"starredAt": {"timestamp_value": stamp}}))
    request = {"database": database, "writes": [write]}
    return lambda: stub.commit(request=request, metadata=db._rpc_metadata)


def rest_commit():
    now = datetime.datetime.now(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
    body = json.dumps({"writes": [{"update": {"name": f"{documents}/{next_path('r')}", "fields": {"starredAt": {"timestampValue": now}}}}]})
    headers = {"Content-Type": "application/json", "Authorization": "Bearer owner"}

    def send():
        rest.request("POST", f"/v1/{database}/documents:commit", body=body, headers=headers)
        reply = rest.getresponse()
        reply.read()
        if reply.status != 200:
            raise SystemExit(f"REST commit: HTTP {reply.status}")

    return send


WAYS = [("python set()", client_set), ("python gRPC Commit, no client", grpc_commit), ("REST :commit, http.client", rest_commit)]
times = {name: [] for name, _ in WAYS}
for round_number in range(WARM + N):
    for name, make in WAYS:
        call = make()
        start = time.perf_counter()
        call()
        if round_number >= WARM:
            times[name].append((time.perf_counter() - start) * 1000)
for name, _ in WAYS:
    q1, q2, q3 = statistics.quantiles(times[name], n=4)
    print(f"{name:32s} median {q2:.3f} ms  quartiles {q1:.3f} {q3:.3f}  (n={len(times[name])})")
