import BenchmarkSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire
import Foundation

/// `stream100k`: peak resident memory of this process while it streams a query of 100,000
/// documents (~0.6 KB each) with `Query.stream()`, counting them without keeping them.
///
/// The server is a `firestore-mock-server` child process (`--mock-server`, or the one
/// beside this executable), so the server's memory is not counted. It is seeded through
/// the client with 200 `WriteBatch` commits of 500 (a client with its cache off), then
/// the whole response is read once without keeping it, to learn its size. Before each
/// measured stream the allocator's free memory is handed back to the kernel and the
/// kernel's high-water mark (`VmHWM`) is reset; the figures are the resident set before the
/// stream, the peak during it, and the time to the first document (the mock builds the
/// whole response before it sends the first byte).
///
/// - `stream100k`: a client with default settings (which include the 100 MB memory
///   cache: the streamed documents go into it).
/// - `stream100k.nocache`: the cache off, which leaves the streaming path alone.
///
/// The target is a peak of at most 64 MB.
enum Stream100kScenario {
  static let documentCount = 100_000
  static let collection = "stream100k"

  static func run(_ options: BenchOptions) async throws -> [BenchResult] {
    let server = try MockServerProcess.start(options.mockServer, for: "stream100k")
    defer { server.stop() }
    let host = server.hostAndPort
    // Seeded by a child process: what building 100,000 writes leaves in an allocator is
    // not this process's to carry into the measurement.
    try seedInChild(host)
    let responseBytes = try await responseSize(host)

    var results: [BenchResult] = []
    for (name, cache) in [("stream100k.nocache", LocalCacheSettings.none), ("stream100k", .memory())] {
      let settings = FirestoreSettings.emulator(host: host)
      settings.cache = cache
      let db = Firestore(projectID: PeerDataset.project, settings: settings)
      // What the seeding (or the previous variant) freed is not this stream's.
      ResidentMemory.releaseFreeMemory()
      guard ResidentMemory.resetPeak(), let before = ResidentMemory.current() else {
        throw ToolFailure("stream100k: cannot read or reset this process's resident memory (/proc/self/status, /proc/self/clear_refs)")
      }
      let clock = ContinuousClock()
      let start = clock.now
      var count = 0
      var firstDocument: Double?
      for try await document in db.collection(collection).stream() {
        guard document.get("i") != nil else { throw ToolFailure("stream100k: document \(document.documentID) has no field i") }
        if count == 0 { firstDocument = Statistics.milliseconds(clock.now - start) }
        count += 1
      }
      let elapsed = Statistics.milliseconds(clock.now - start)
      let peak = ResidentMemory.peak() ?? 0
      try PeerDataset.expect(count, documentCount, "stream100k documents")
      let what = name == "stream100k" ? "default settings (memory cache)" : "cache off"
      var result = BenchResult(
        scenario: name, label: "stream() of \(documentCount) docs from a mock child process, \(what); time = the whole stream",
        samples: [elapsed])
      result.add("peak_rss_mb", .number(Double(peak) / 1_048_576))
      result.add("rss_before_mb", .number(Double(before) / 1_048_576))
      result.add("first_doc_ms", .number(firstDocument ?? .nan))
      result.add("docs", .integer(count))
      result.add("bytes_received", .integer(responseBytes))
      results.append(result)
    }
    return results
  }

  /// Document `i`: a small article, about 0.6 KB of JSON on the wire.
  static func document(_ i: Int) -> [String: any Sendable] {
    [
      "i": i,
      "title": "Document \(i): " + BulkArticles.text(i, 26),
      "summary": BulkArticles.text(i + 7, 200),
      "category": BulkArticles.categories[i % BulkArticles.categories.count],
      "views": (i * 7919) % 1_000_000,
      "publishedAt": Timestamp(seconds: BulkArticles.baseSeconds + Int64(i) * 60, nanoseconds: 0),
      "tags": [BulkArticles.tags[i % 8], BulkArticles.tags[(i + 3) % 8]],
    ]
  }

  /// Runs `firestore-bench stream100k-seed --emulator HOST` and waits for it.
  static func seedInChild(_ host: String) throws {
    let process = try ChildProcess(
      executable: URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path,
      arguments: ["stream100k-seed", "--emulator", host], environment: ProcessInfo.processInfo.environment,
      standardError: .descriptor(2))
    guard process.waitForExit().shellStatus == 0 else { throw ToolFailure("stream100k: seeding in a child process failed") }
  }

  /// `stream100k-seed`: seeds the mock at `--emulator` (the child's side of ``seedInChild``).
  static func seedOnly(_ options: BenchOptions) async throws -> [BenchResult] {
    try await seed(try options.emulatorHost())
    return []
  }

  /// Writes the documents in batches of 500, four commits in flight.
  static func seed(_ host: String) async throws {
    let settings = FirestoreSettings.emulator(host: host)
    settings.cache = .none
    let db = Firestore(projectID: PeerDataset.project, settings: settings)
    let target = db.collection(collection)
    try await withThrowingTaskGroup(of: Void.self) { group in
      var next = 0
      func add() {
        guard next < documentCount else { return }
        let first = next
        next += 500
        group.addTask {
          let batch = db.batch()
          for i in first..<min(first + 500, documentCount) { batch.setData(document(i), forDocument: target.document("d\(i)")) }
          _ = try await batch.commit()
        }
      }
      for _ in 0..<4 { add() }
      while try await group.next() != nil { add() }
    }
  }

  /// The size of the query's response body, read once and not kept.
  static func responseSize(_ host: String) async throws -> Int {
    let url = URL(string: "http://\(host)/v1/projects/\(PeerDataset.project)/databases/(default)/documents:runQuery")!
    let body = #"{"structuredQuery":{"from":[{"collectionId":"\#(collection)"}]}}"#
    let response = try await CurlTransport().send(
      HTTPRequest(
        method: "POST", url: url, headers: ["Content-Type": "application/json", "Authorization": "Bearer owner"], body: Data(body.utf8)))
    var size = 0
    for try await chunk in response.body { size += chunk.count }
    guard response.status == 200 else { throw ToolFailure("stream100k: the mock answered HTTP \(response.status) to the query") }
    return size
  }
}
