import FirestoreClient
import Foundation

/// The write scenarios: writes, as `bench_python.py` makes them: single `setData()` calls of a small and of
/// an article-shaped document, and a batch of 500 article-shaped sets.
enum WriteScenarios {
  /// set-small: `users/u1/favorites_w/wNNNN` (cycling over 1000) set to `{starredAt: now}`; and
  /// `set-small.transport`: `make_rest_bodies.py`'s `commit_small.json` through the transport alone.
  static func setSmall(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run(
        "set-small", "setData() small doc (1 timestamp field)", options, countAtScaleOne: 200, warmup: 10, smallSets()),
      try await TransportProbe.run(
        "set-small.transport", "set-small's :commit through CurlTransport alone", options, countAtScaleOne: 200, warmup: 10,
        requests: [
          (
            "POST", ":commit",
            #"{"writes":[{"update":{"name":"projects/bench/databases/(default)/documents/users/u1/favorites_w/c0001","fields":{"starredAt":{"timestampValue":"2024-01-01T00:00:00.000000Z"}}}}]}"#
          )
        ]),
    ]
  }

  /// set-article: `bench_writes/wNNNN` (cycling over 1000) set to the next seeded article (~2.2 KB).
  static func setArticle(_ options: BenchOptions) async throws -> [BenchResult] {
    let articles = try await PeerDataset.articles(in: try PeerDataset.firestore(options))
    return [
      try await EmulatorScenario.run(
        "set-article", "setData() article-shaped doc (~2.2 KB)", options, countAtScaleOne: 200, warmup: 10, articleSets(articles))
    ]
  }

  /// batch-500: one `WriteBatch` setting `bench_batch/b000..b499` to the first 500 articles.
  static func batch500(_ options: BenchOptions) async throws -> [BenchResult] {
    let articles = try await PeerDataset.articles(in: try PeerDataset.firestore(options))
    return [
      try await EmulatorScenario.run(
        "batch-500", "WriteBatch of 500 setData() (article-shaped) committed", options, countAtScaleOne: 15, warmup: 2
      ) { try await commitBatch500($0, articles) },
      // The part of batch-500 no client can skip and curl does: its body is made once,
      // before the timing. Added to curl's time, it is a floor for any client of this API.
      try await EmulatorScenario.run(
        "batch-500.build", "batch-500's WriteBatch of 500 setData() built, not committed (no network)", options, countAtScaleOne: 15,
        warmup: 2
      ) { _ = filledBatch500($0, articles) },
    ]
  }

  /// batch-500's `WriteBatch`, filled and not committed.
  static func filledBatch500(_ db: Firestore, _ articles: [[String: Any]]) -> WriteBatch {
    let batch = db.batch()
    let collection = db.collection("bench_batch")
    for i in 0..<500 { batch.setData(articles[i], forDocument: collection.document(name("b", i, 3))) }
    return batch
  }

  /// One run of batch-500: the batch filled and committed.
  static func commitBatch500(_ db: Firestore, _ articles: [[String: Any]]) async throws {
    let results = try await filledBatch500(db, articles).commit()
    try PeerDataset.expect(results.count, 500, "batch-500 write results")
  }

  /// set-small's calls: `{starredAt: now}` on `users/u1/favorites_w/wNNNN`.
  static func smallSets() -> (Firestore) async throws -> Void {
    cyclingSets(in: "users/\(PeerDataset.uid)/favorites_w") { _ in ["starredAt": Date()] }
  }

  /// set-article's calls: the next seeded article on `bench_writes/wNNNN`.
  static func articleSets(_ articles: [[String: Any]]) -> (Firestore) async throws -> Void {
    cyclingSets(in: "bench_writes") { articles[$0 % articles.count] }
  }

  /// Single `setData()` calls on `collection/wNNNN`, cycling over 1000 documents, the n-th
  /// call (from 1) setting `data(n)`.
  private static func cyclingSets(
    in collection: String, data: @escaping (Int) -> [String: Any]
  ) -> (Firestore) async throws -> Void {
    var counter = 0
    return { db in
      counter += 1
      _ = try await db.collection(collection).document(name("w", counter % 1000, 4)).setData(data(counter))
    }
  }

  /// `w0042` for ("w", 42, 4).
  static func name(_ prefix: String, _ number: Int, _ digits: Int) -> String {
    let text = String(number)
    return prefix + String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
