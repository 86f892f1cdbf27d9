import BenchmarkSupport
import FirestoreClient

/// The get scenarios: reading the 20 documents of `dataset.get_ids_20()`, in one `:batchGet` or with
/// one `getDocument()` each.
enum GetScenarios {
  static func references(_ db: Firestore) -> [DocumentReference] {
    PeerDataset.ids20.map { db.collection("articles").document($0) }
  }

  /// The 20 references of a client, made on its first call and kept: the peer benchmark
  /// makes its `refs20` once, before the timing.
  private static func keptReferences() -> (Firestore) -> [DocumentReference] {
    var kept: [DocumentReference] = []
    return { db in
      if kept.first?.firestore !== db { kept = references(db) }
      return kept
    }
  }

  /// get-all's calls: one `getAll` of the 20, each turned into a dictionary.
  static func getAllCalls() -> (Firestore) async throws -> Void {
    let references = keptReferences()
    return { db in
      let rows = try await db.getAll(references(db)).compactMap { $0.data() }
      try PeerDataset.expect(rows.count, 20, "get-all documents")
    }
  }

  /// get-sequential's calls: the 20 with `getDocument()`, one after another.
  static func getSequentialCalls() -> (Firestore) async throws -> Void {
    let references = keptReferences()
    return { db in
      var rows = 0
      for reference in references(db) where try await reference.getDocument().data() != nil { rows += 1 }
      try PeerDataset.expect(rows, 20, "get-sequential documents")
    }
  }

  /// get-all: `getAll` of the 20, each turned into a dictionary; and `get-all.transport`: its
  /// `:batchGet` through the transport alone.
  static func getAll(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run(
        "get-all", "getAll(20 refs) -> data()", options, countAtScaleOne: 100, warmup: 5, getAllCalls()),
      try await TransportProbe.run(
        "get-all.transport", "get-all's :batchGet through CurlTransport alone (body read, not parsed)", options, countAtScaleOne: 100,
        warmup: 5,
        requests: [
          (
            "POST", ":batchGet",
            #"{"documents":["#
              + PeerDataset.ids20.map { #""projects/\#(PeerDataset.project)/databases/(default)/documents/articles/\#($0)""# }
              .joined(separator: ",") + "]}"
          )
        ]),
    ]
  }

  /// get-sequential: the 20 with `getDocument()`, one after another; the time is per batch of 20. Also
  /// `get-sequential.transport`: the same 20 GETs through the transport alone.
  static func getSequential(_ options: BenchOptions) async throws -> [BenchResult] {
    [
      try await EmulatorScenario.run(
        "get-sequential", "20 x getDocument() sequential (per batch of 20)", options, countAtScaleOne: 50, warmup: 3,
        getSequentialCalls()),
      try await TransportProbe.run(
        "get-sequential.transport", "get-sequential's 20 GETs through CurlTransport alone (bodies read, not parsed)", options,
        countAtScaleOne: 50, warmup: 3,
        requests: PeerDataset.ids20.map { ("GET", "/articles/" + $0, nil) }),
    ]
  }

  /// `get-concurrent.h2`: get-concurrent through a TLS + HTTP/2 front of the same emulator (`--front`,
  /// `--ca-file`), on a transport of its own: also how many connections the timed runs
  /// opened (one, multiplexed, when HTTP/2 works).
  static func getConcurrentHTTP2(_ options: BenchOptions) async throws -> [BenchResult] {
    guard let front = options.front, let ca = options.caFile else {
      throw ToolFailure.usage("get-concurrent.h2 needs --front HOST:PORT and --ca-file PEM (a TLS + HTTP/2 front of the emulator)")
    }
    let transport = CurlTransport(trustedCertificates: ca)
    let settings = FirestoreSettings.emulator(host: front)
    settings.isSSLEnabled = true
    settings.transport = transport
    let db = Firestore(projectID: PeerDataset.project, settings: settings)
    let references = references(db)
    let operation = { @Sendable () async throws in
      let rows = try await withThrowingTaskGroup(of: Bool.self) { group in
        for reference in references { group.addTask { try await reference.getDocument().data() != nil } }
        return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
      }
      try PeerDataset.expect(rows, 20, "get-concurrent.h2 documents")
    }
    try await operation()
    let before = transport.statistics
    let measurement = try await Measurement.run(warmup: 3, reps: options.runs(50)) { try await operation() }
    let after = transport.statistics
    var result = BenchResult(
      scenario: "get-concurrent.h2", label: "get-concurrent through a TLS + HTTP/2 front (nghttpx), one transport", measurement: measurement
    )
    result.add("connections_opened", .integer(after.connectionsOpened - before.connectionsOpened))
    result.add("http2_requests", .integer(after.http2Requests - before.http2Requests))
    return [result]
  }

  /// get-concurrent: the 20 `getDocument()` calls at once in a task group; the time is per batch.
  static func getConcurrent(_ options: BenchOptions) async throws -> [BenchResult] {
    let references = keptReferences()
    return [
      try await EmulatorScenario.run(
        "get-concurrent", "20 x getDocument() concurrent, task group (per batch of 20)", options, countAtScaleOne: 50, warmup: 3
      ) { db in
        let rows = try await withThrowingTaskGroup(of: Bool.self) { group in
          for reference in references(db) { group.addTask { try await reference.getDocument().data() != nil } }
          return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try PeerDataset.expect(rows, 20, "get-concurrent documents")
      }
    ]
  }
}
