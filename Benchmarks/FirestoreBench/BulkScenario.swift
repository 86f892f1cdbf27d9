import FirestoreClient
import FirestoreWire
import Foundation

/// The article documents of the `bulk` scenario; `Benchmarks/peer/bulk_writer.py` builds
/// the same ones, so both clients send the same bytes' worth.
enum BulkArticles {
  static let words = [
    "lorem", "ipsum", "dolor", "sit", "amet", "swift", "linux", "firestore", "query", "snapshot", "listener", "document",
    "collection", "index", "latency", "bulk",
  ]
  static let categories = ["tech", "science", "sports", "culture", "business"]
  static let tags = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
  /// 2024-01-01T00:00:00Z.
  static let baseSeconds: Int64 = 1_704_067_200

  /// `length` characters of words picked by a fixed rule from `seed`.
  static func text(_ seed: Int, _ length: Int) -> String {
    var out = ""
    var count = 0  // all ASCII: characters are bytes, counted without rescanning
    var k = 0
    while count < length {
      if count > 0 {
        out += " "
        count += 1
      }
      let word = words[(seed * 31 + k * 7 + k / 16) % words.count]
      out += word
      count += word.utf8.count
      k += 1
    }
    return String(out.utf8.prefix(length))!
  }

  /// The fields of article `i`.
  static func article(_ i: Int) -> [String: any Sendable] {
    [
      "title": String(format: "Article %05d: ", i) + text(i, 26),
      "content": text(i + 1, 2048),
      "category": categories[i % categories.count],
      "publishedAt": Timestamp(seconds: baseSeconds + Int64(i) * 37 * 60, nanoseconds: 0),
      "views": (i * 7919) % 1_000_000,
      "tags": [tags[i % 8], tags[(i + 3) % 8], tags[(i + 5) % 8]],
    ]
  }
}

/// Writes BULK_N (10,000) articles through a bulk writer and prints the wall time.
func bulkScenario() async throws {
  guard ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"] != nil else {
    throw FirestoreError(.failedPrecondition, "set FIRESTORE_EMULATOR_HOST to a running emulator")
  }
  let n = Int(ProcessInfo.processInfo.environment["BULK_N"] ?? "") ?? 10_000
  let mode = ProcessInfo.processInfo.environment["BULK_MODE"] ?? "unlimited"
  guard mode == "unlimited" || mode == "default" else {
    throw FirestoreError(.invalidArgument, "BULK_MODE must be unlimited or default, got \(mode)")
  }
  let db = Firestore(projectID: "bench")
  // A fresh collection per run: re-setting documents to what they hold already is cheaper
  // for the server than real writes.
  let name = ProcessInfo.processInfo.environment["BULK_COLLECTION"] ?? "bulk-articles-\(UInt32.random(in: 0...UInt32.max))"
  let articles = (0..<n).map(BulkArticles.article)
  func run(_ range: Range<Int>, into collection: CollectionReference) async throws -> (Duration, Int) {
    let clock = ContinuousClock()
    let start = clock.now
    var options = mode == "unlimited" ? BulkWriterOptions.unlimited : BulkWriterOptions()
    if let concurrency = ProcessInfo.processInfo.environment["BULK_CONCURRENCY"].flatMap({ Int($0) }) {
      options.maximumConcurrentRequests = concurrency
    }
    let writer = db.bulkWriter(options: options)
    var operations: [BulkWriteOperation] = []
    operations.reserveCapacity(range.count)
    for i in range {
      operations.append(try writer.setData(articles[i], forDocument: collection.document(String(format: "a%05d", i))))
    }
    await writer.close()
    let elapsed = clock.now - start
    var failed = 0
    for operation in operations {
      do { _ = try await operation.result() } catch { failed += 1 }
    }
    return (elapsed, failed)
  }
  _ = try await run(0..<min(500, n), into: db.collection(name + "-warmup"))  // connections, the emulator's JIT
  let (elapsed, failed) = try await run(0..<n, into: db.collection(name))
  let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
  print("bulk: \(n) writes (\(mode)) in " + String(format: "%.0f ms, %.0f writes/s, %d failed", ms, Double(n) / ms * 1000, failed))
}
