"""Times google-cloud-firestore's bulk_writer() on the articles of firestore-bench's `bulk`
scenario: BULK_N (10,000) sets into a fresh collection of project "bench" on
FIRESTORE_EMULATOR_HOST (BULK_COLLECTION names it), after a 500-write warm-up.

    FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 BULK_MODE=unlimited python bulk_writer.py

BULK_MODE=unlimited lifts the client's rate limit (initial and maximum ops/s set very
high); BULK_MODE=default keeps the library's defaults (500 ops/s). Prints one line:
`bulk: N writes (MODE) in T ms, R writes/s, F failed`.
"""
import datetime
import os
import random
import time

from google.cloud import firestore
from google.cloud.firestore_v1.bulk_writer import BulkWriterOptions

WORDS = ["lorem", "ipsum", "dolor", "sit", "amet", "swift", "linux", "firestore", "query", "snapshot",
         "listener", "document", "collection", "index", "latency", "bulk"]
CATEGORIES = ["tech", "science", "sports", "culture", "business"]
TAGS = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
BASE = datetime.datetime(2024, 1, 1, tzinfo=datetime.timezone.utc)


def text(seed, length):
    """The same fixed word rule as BulkArticles.text in the Swift scenario."""
    out = ""
    k = 0
    while len(out) < length:
        if out:
            out += " "
        out += WORDS[(seed * 31 + k * 7 + k // 16) % len(WORDS)]
        k += 1
    return out[:length]


def article(i):
    return {
        "title": "Article %05d: " % i + text(i, 26),
        "content": text(i + 1, 2048),
        "category": CATEGORIES[i % len(CATEGORIES)],
        "publishedAt": BASE + datetime.timedelta(minutes=37 * i),
        "views": (i * 7919) % 1_000_000,
        "tags": [TAGS[i % 8], TAGS[(i + 3) % 8], TAGS[(i + 5) % 8]],
    }


def run(db, collection, articles, indices, mode):
    failed = []
    start = time.perf_counter()
    if mode == "unlimited":
        options = BulkWriterOptions(initial_ops_per_second=10_000_000, max_ops_per_second=10_000_000)
    else:
        options = BulkWriterOptions()
    writer = db.bulk_writer(options=options)
    writer.on_write_error(lambda failure: failed.append(failure) and False)
    for i in indices:
        writer.set(collection.document("a%05d" % i), articles[i])
    writer.close()
    return time.perf_counter() - start, len(failed)


def main():
    if not os.environ.get("FIRESTORE_EMULATOR_HOST"):
        raise SystemExit("set FIRESTORE_EMULATOR_HOST")
    n = int(os.environ.get("BULK_N", "10000"))
    mode = os.environ.get("BULK_MODE", "unlimited")
    if mode not in ("unlimited", "default"):
        raise SystemExit("BULK_MODE must be unlimited or default, got %s" % mode)
    db = firestore.Client(project="bench")
    articles = [article(i) for i in range(n)]
    # A fresh collection per run: re-setting documents to what they hold already is
    # cheaper for the server than real writes.
    name = os.environ.get("BULK_COLLECTION") or "bulk-articles-%d" % random.getrandbits(32)
    run(db, db.collection(name + "-warmup"), articles, range(min(500, n)), mode)  # warm-up
    elapsed, failed = run(db, db.collection(name), articles, range(n), mode)
    ms = elapsed * 1000
    print("bulk: %d writes (%s) in %.0f ms, %.0f writes/s, %d failed" % (n, mode, ms, n / elapsed, failed))


if __name__ == "__main__":
    main()
