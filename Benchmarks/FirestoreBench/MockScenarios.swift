import BenchmarkSupport
import FirestoreClient
import FirestoreMock
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Scenarios on an in-process mock server: its start-up time, and the local cache.
enum MockScenarios {
  /// `mock-startup`: `MockFirestoreServer.start()` until it has answered its first request
  /// over a fresh connection (5 warm-up starts, then 50 at scale 2).
  static func startup(_ options: BenchOptions) async throws -> [BenchResult] {
    let measurement = try await Measurement.run(warmup: 5, reps: options.runs(25)) {
      let server = try MockFirestoreServer.start()
      defer { server.stop() }
      let session = URLSession(configuration: .ephemeral)
      let (data, _) = try await session.data(from: URL(string: "http://\(server.hostAndPort)/")!)
      guard String(decoding: data, as: UTF8.self) == "Ok" else { throw ToolFailure("the mock server did not answer Ok") }
    }
    return [BenchResult(scenario: "mock-startup", label: "MockFirestoreServer.start() until the first answer", measurement: measurement)]
  }

  /// `cache`: with the memory cache, then the persistent (SQLite) one.
  static func cache(_ options: BenchOptions) async throws -> [BenchResult] {
    try await cache(options, kind: "memory") + cache(options, kind: "persistent")
  }

  /// A filtered, ordered, limited query over 2,000 documents from `.server` and from
  /// `.cache` (5 warm-up runs, then 50 at scale 2), and the latency-compensation echo:
  /// `setData()` start -> the same instance's listener showing the write pending, and
  /// showing it confirmed (5 warm-up writes, then 100 at scale 2).
  static func cache(_ options: BenchOptions, kind: String) async throws -> [BenchResult] {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    if kind == "persistent" { settings.cache = .persistent(directory: directory) }
    let db = Firestore(projectID: "bench", settings: settings)
    let items = db.collection("items")
    for chunk in stride(from: 0, to: 2000, by: 500) {
      let batch = db.batch()
      for i in chunk..<chunk + 500 {
        batch.setData(["i": i, "group": i % 10, "name": "item \(i)"], forDocument: items.document("d\(i)"))
      }
      _ = try await batch.commit()
    }
    _ = try await items.getDocuments(source: .server)
    let query = items.whereField("group", isEqualTo: 3).order(by: "i", descending: true).limit(to: 20)
    var results: [BenchResult] = []
    for source in [FirestoreSource.server, .cache] {
      let measurement = try await Measurement.run(warmup: 5, reps: options.runs(25)) {
        let result = try await query.getDocuments(source: source)
        try PeerDataset.expect(result.count, 20, "cache query results")
      }
      results.append(
        BenchResult(
          scenario: "cache.\(kind).\(source)", label: "\(kind) cache: limit-20 query over 2,000 docs from .\(source)",
          measurement: measurement))
    }

    let clock = ContinuousClock()
    let arrivals = Arrivals()
    let favorites = db.collection("users/u1/favorites")
    let listener = Task {
      for try await snapshot in favorites.snapshots(includeMetadataChanges: true) {
        let now = clock.now
        for document in snapshot.documents {
          arrivals.record((document.metadata.hasPendingWrites ? "pending " : "confirmed ") + document.documentID, at: now)
        }
      }
    }
    defer { listener.cancel() }
    var pending: [Double] = []
    var confirmed: [Double] = []
    let writes = options.runs(50)
    for i in 0..<writes + 5 {
      let id = "meal\(i)"
      let t0 = clock.now
      _ = try await favorites.document(id).setData(["starredAt": FieldValue.serverTimestamp()])
      let shown = await arrivals.wait("pending " + id)
      let settled = await arrivals.wait("confirmed " + id)
      if i >= 5 {
        pending.append(Statistics.milliseconds(shown - t0))
        confirmed.append(Statistics.milliseconds(settled - t0))
      }
    }
    results.append(
      BenchResult(scenario: "cache.\(kind).pending", label: "\(kind) cache: setData() -> own listener shows it pending", samples: pending))
    results.append(
      BenchResult(
        scenario: "cache.\(kind).confirmed", label: "\(kind) cache: setData() -> own listener shows it confirmed", samples: confirmed))
    return results
  }
}
