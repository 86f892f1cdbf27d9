import FirestoreMock
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// How the client behaves when the server misbehaves, injected through a mock server of
/// each test's own (so that rules cannot touch other tests).
@Suite("Client under injected faults", .requires(.mock))
struct FaultInjectionTests {
  private func makeServer() throws -> (MockFirestoreServer, Firestore) {
    let server = try MockFirestoreServer.start()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { _ in }
    settings.timeout = hangLimit
    return (server, Firestore(projectID: "faults", settings: settings))
  }

  @Test("failed requests are retried until the server recovers")
  func failNextThenRecover() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "commit", fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected"), remaining: 2))
    try await db.document("c/d").setData(["v": 1])
    #expect(server.requestLog.count(matching: ":commit") == 3)
    #expect(try await db.document("c/d").getDocument().get("v") as? Int == 1)
  }

  @Test("a transaction the server no longer knows runs again from the start; other commit errors do not")
  func expiredTransactionRestarts() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    try await db.document("c/n").setData(["n": 1])
    server.faults.add(
      FaultRule(
        route: "commit", fault: .error(status: 400, grpcStatus: "INVALID_ARGUMENT", message: "Transaction is invalid or closed."),
        remaining: 1))
    let runs = Counter()
    let n = try await db.runTransaction { tx in
      runs.increment()
      let n = try await tx.getDocument(db.document("c/n")).get("n") as? Int ?? 0
      tx.updateData(["n": n + 1], forDocument: db.document("c/n"))
      return n + 1
    }
    #expect(n == 2 && runs.value == 2)
    #expect(try await db.document("c/n").getDocument().get("n") as? Int == 2)

    server.faults.add(
      FaultRule(
        route: "commit", fault: .error(status: 400, grpcStatus: "INVALID_ARGUMENT", message: "Value for field n is invalid."), remaining: 1)
    )
    let error = await #expect(throws: FirestoreError.self) {
      try await db.runTransaction { tx in tx.updateData(["n": 0], forDocument: db.document("c/n")) }
    }
    #expect(error?.code == .invalidArgument)
    #expect(try await db.document("c/n").getDocument().get("n") as? Int == 2)
  }

  @Test("a transaction idle past the server's limit is let go, and runs again from the start")
  func idleTransactionRunsAgain() async throws {
    let clock = MockClock.manual()
    let server = try MockFirestoreServer.start(transactionIdleTimeout: .seconds(30), clock: clock)
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { _ in }
    let db = Firestore(projectID: "faults", settings: settings)
    try await db.document("c/n").setData(["n": 1])
    let runs = Counter()
    let n = try await db.runTransaction { tx in
      runs.increment()
      let n = try await tx.getDocument(db.document("c/n")).get("n") as? Int ?? 0
      // The first run pauses past the limit (a busy machine): its next read finds it gone.
      if runs.value == 1 { clock.advance(by: .seconds(31)) }
      _ = try await tx.getDocument(db.document("c/other"))
      tx.updateData(["n": n + 1], forDocument: db.document("c/n"))
      return n + 1
    }
    #expect(n == 2 && runs.value == 2)
    #expect(try await db.document("c/n").getDocument().get("n") as? Int == 2)
  }

  @Test("a non-idempotent write is not retried after an ambiguous failure, and nothing is doubled")
  func incrementNotDoubled() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    try await db.document("c/n").setData(["n": 0])
    // The write reaches the server, but its answer is cut off after the headers: the
    // client cannot know whether it applied, so it must not send it again. (The cut
    // comes after the headers because FoundationNetworking on Linux traps on a response
    // cut inside its head, and hangs on a reused connection closed without any reply.)
    server.faults.add(FaultRule(route: "commit", fault: .truncateStream(afterBytes: 5), remaining: 1))
    let error = await #expect(throws: FirestoreError.self) {
      try await db.document("c/n").updateData(["n": FieldValue.increment(1)])
    }
    #expect(error?.code == .unavailable)
    #expect(server.requestLog.count(matching: ":commit") == 2)
    #expect(try await db.document("c/n").getDocument().get("n") as? Int == 1)
  }

  @Test("a truncated query stream is retried as a whole when nothing was returned yet")
  func truncatedQuery() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let batch = db.batch()
    for i in 0..<20 { batch.setData(["i": i], forDocument: db.document("items/d\(i)")) }
    try await batch.commit()
    server.faults.add(FaultRule(route: "runQuery", fault: .truncateStream(afterBytes: 300), remaining: 1))
    let snapshot = try await db.collection("items").getDocuments()
    #expect(snapshot.count == 20)
    #expect(server.requestLog.count(matching: ":runQuery") == 2)
  }

  @Test("a stream whose reply breaks mid-iteration reads on from its last document, each document once")
  func truncatedStream() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let batch = db.batch()
    for i in 0..<20 { batch.setData(["i": i], forDocument: db.document("items/d\(i)")) }
    try await batch.commit()
    let items = db.collection("items").order(by: "i")
    for (query, expected) in [(items, Array(0..<20)), (items.offset(3).limit(to: 10), Array(3..<13))] {
      server.requestLog.clear()
      server.faults.add(FaultRule(route: "runQuery", fault: .truncateStream(afterBytes: 600), remaining: 1))
      var received: [Int] = []
      for try await document in query.stream() { received.append(document.get("i") as? Int ?? -1) }
      #expect(received == expected)
      #expect(server.requestLog.count(matching: ":runQuery") == 2)
    }
    // Replies cut one after another: each asks for the rest after the last document it brought.
    server.faults.add(FaultRule(route: "runQuery", fault: .truncateStream(afterBytes: 700), remaining: 3))
    var all: [String] = []
    for try await document in db.collection("items").stream() { all.append(document.documentID) }
    #expect(all == (0..<20).map { "d\($0)" }.sorted())
    // A reply that breaks before any document gives nothing to read on from: the error ends it.
    server.faults.add(FaultRule(route: "runQuery", fault: .truncateStream(afterBytes: 0)))
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy = .none
    let once = Firestore(projectID: db.projectID, settings: settings)
    await #expect(throws: FirestoreError.self) {
      for try await _ in once.collection("items").stream() {}
    }
  }

  @Test("a stalled server hits the per-call deadline")
  func stall() async throws {
    let (server, _) = try makeServer()
    defer { server.stop() }
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.timeout = .milliseconds(200)
    settings.retryPolicy = .none
    let db = Firestore(projectID: "faults", settings: settings)
    server.faults.add(FaultRule(route: "GET ", fault: .stall, remaining: 1))
    let error = try await #require(throws: FirestoreError.self) { try await db.document("c/x").getDocument() }
    #expect(error.code == .deadlineExceeded)
  }

  @Test("latency is tolerated within the deadline")
  func latency() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "GET ", fault: .latency(milliseconds: 50), remaining: 1))
    #expect(try await db.document("c/x").getDocument().exists == false)
  }

  @Test("getAll of many documents is one round trip")
  func roundTrips() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let refs = (0..<25).map { db.document("c/d\($0)") }
    server.requestLog.clear()
    _ = try await db.getAll(refs)
    #expect(server.requestLog.count(matching: ":batchGet") == 1)
    #expect(server.requestLog.entries.count == 1)
  }
}
