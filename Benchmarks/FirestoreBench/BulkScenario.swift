import FirestoreClient

/// `bulk`: `--bulk-n` articles (10,000) through a `BulkWriter` on the emulator, into a fresh
/// collection of project `bench`, after a 500-write warm-up; the same documents as
/// `Benchmarks/peer/bulk_writer.py` writes with Python's `bulk_writer()`.
enum BulkScenario {
  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    let db = try PeerDataset.firestore(options)
    let n = options.bulkCount
    // A fresh collection per run: re-setting documents to what they hold already is cheaper
    // for the server than real writes.
    let name = "bulk-articles-\(UInt32.random(in: 0...UInt32.max))"
    let articles = (0..<n).map(BulkArticles.article)
    func write(_ range: Range<Int>, into collection: CollectionReference) async throws -> (Double, Int) {
      let clock = ContinuousClock()
      let start = clock.now
      var writerOptions = options.bulkMode == "unlimited" ? BulkWriterOptions.unlimited : BulkWriterOptions()
      if let concurrency = options.bulkConcurrency { writerOptions.maximumConcurrentRequests = concurrency }
      let writer = db.bulkWriter(options: writerOptions)
      var operations: [BulkWriteOperation] = []
      operations.reserveCapacity(range.count)
      for i in range {
        operations.append(try writer.setData(articles[i], forDocument: collection.document(WriteScenarios.name("a", i, 5))))
      }
      await writer.close()
      let elapsed = Statistics.milliseconds(clock.now - start)
      var failed = 0
      for operation in operations {
        do { _ = try await operation.result() } catch { failed += 1 }
      }
      return (elapsed, failed)
    }
    _ = try await write(0..<min(500, n), into: db.collection(name + "-warmup"))  // connections, the emulator's JIT
    let (elapsed, failed) = try await write(0..<n, into: db.collection(name))
    var result = BenchResult(scenario: "bulk", label: "\(n) article writes through a BulkWriter (\(options.bulkMode))", samples: [elapsed])
    result.add("writes_per_s", .number(Double(n) / elapsed * 1000))
    result.add("failed", .integer(failed))
    return [result]
  }
}
