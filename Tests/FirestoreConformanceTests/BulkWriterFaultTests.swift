import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// A clock whose sleeps return at once and move its time forward, so pacing and backoff
/// can be checked without waiting.
final class ManualClock: Sendable {
  private let time = Locked(Duration.zero)
  private let slept = Locked<[Duration]>([])

  /// The simulated time.
  var now: Duration { time.withLock { $0 } }
  /// Every wait asked for, in order.
  var sleeps: [Duration] { slept.withLock { $0 } }

  var clock: BulkWriterClock {
    BulkWriterClock(
      now: { [self] in time.withLock { $0 } },
      sleep: { [self] d in
        slept.withLock { $0.append(d) }
        time.withLock { $0 += d }
        await Task.yield()
      })
  }
}

/// The bulk writer against a mock server of each test's own: request sizes from its
/// request log, retries under injected faults, pacing with a manual clock.
@Suite("Bulk writer: requests, faults and pacing", .requires(.mock))
struct BulkWriterFaultTests {
  private func makeServer() throws -> (MockFirestoreServer, Firestore) {
    let server = try MockFirestoreServer.start()
    let settings = FirestoreSettings.emulator(host: server.hostAndPort)
    settings.retryPolicy.sleep = { _ in }
    settings.timeout = hangLimit
    return (server, Firestore(projectID: "bulk", settings: settings))
  }

  private func options(_ clock: ManualClock) -> BulkWriterOptions {
    var options = BulkWriterOptions.unlimited
    options.clock = clock.clock
    options.partialBatchDelay = .seconds(3_600)
    return options
  }

  @Test("at most 20 writes per request; a document seen twice starts a new request")
  func requestSizes() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let writer = db.bulkWriter(options: options(ManualClock()))
    for i in 0..<45 { try writer.setData(["i": i], forDocument: db.document("c/d\(i)")) }
    await writer.flush()
    #expect(server.requestLog.count(matching: ":batchWrite") == 3)  // 20 + 20 + 5
    // Requests run concurrently, so they may arrive in any order: two of 20 writes, one of 5.
    let sizes = server.requestLog.entries.filter { $0.path.hasSuffix(":batchWrite") }.map(\.bodySize).sorted()
    #expect(sizes.count == 3 && sizes[1] > sizes[0] * 3 && sizes[2] - sizes[1] < sizes[0], "\(sizes)")
    server.requestLog.clear()
    try writer.setData(["v": 1], forDocument: db.document("c/a"))
    try writer.setData(["v": 1], forDocument: db.document("c/b"))
    try writer.setData(["v": 2], forDocument: db.document("c/a"))
    try writer.setData(["v": 2], forDocument: db.document("c/b"))
    await writer.close()
    #expect(server.requestLog.count(matching: ":batchWrite") == 2)
    #expect(try await db.document("c/a").getDocument().get("v") as? Int == 2)
    #expect(try await db.collection("c").getDocuments().count == 47)
  }

  @Test("a retryable failure is retried with backoff until the server recovers")
  func retriesUntilRecovery() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(
      FaultRule(route: "batchWrite", fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected"), remaining: 2))
    let clock = ManualClock()
    let writer = db.bulkWriter(options: options(clock))
    // Creates are not idempotent: the server's error answer is what makes them safe to resend.
    let operations = try (0..<20).map { try writer.create(["i": $0], forDocument: db.document("r/d\($0)")) }
    await writer.close()
    for operation in operations {
      _ = try await operation.result()
      #expect(operation.attempts == 3)
    }
    #expect(server.requestLog.count(matching: ":batchWrite") == 3)
    #expect(clock.sleeps.count == 2)
    // 1 s then 1.5 s, each ±25 %.
    #expect(clock.sleeps[0] >= .milliseconds(750) && clock.sleeps[0] <= .milliseconds(1_250))
    #expect(clock.sleeps[1] >= .milliseconds(1_125) && clock.sleeps[1] <= .milliseconds(1_875))
    #expect(try await db.collection("r").getDocuments().count == 20)
  }

  @Test("an overloaded server (RESOURCE_EXHAUSTED) gets the longest backoff at once, every time")
  func overloadWaitsLongest() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(
      FaultRule(route: "batchWrite", fault: .error(status: 429, grpcStatus: "RESOURCE_EXHAUSTED", message: "quota"), remaining: 2))
    let clock = ManualClock()
    let writer = db.bulkWriter(options: options(clock))
    let write = try writer.setData(["v": 1], forDocument: db.document("o/a"))
    await writer.close()
    _ = try await write.result()
    #expect(write.attempts == 3)
    // 60 s, -25 % at most, each time: not the 1 s and 1.5 s of a passing failure.
    #expect(clock.sleeps.count == 2 && clock.sleeps.allSatisfy { $0 >= .seconds(45) && $0 <= .seconds(60) }, "\(clock.sleeps)")
  }

  @Test("awaiting a write already sent leaves the batch being filled to fill")
  func awaitingSentWriteKeepsOpenBatch() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "batchWrite", fault: .hold("first"), remaining: 1))
    var settings = options(ManualClock())
    settings.maximumBatchSize = 2
    let writer = db.bulkWriter(options: settings)
    let first = try writer.setData(["v": 1], forDocument: db.document("w/a"))
    try writer.setData(["v": 1], forDocument: db.document("w/b"))
    try await eventually("the full batch to reach the server") { server.faults.arrivals(at: "first") == 1 }
    try writer.setData(["v": 1], forDocument: db.document("w/c"))
    let waiting = Task { try await first.result() }
    try await eventually("the caller to wait for the sent write") { first.isAwaited }
    // Had the wait sent the batch of c alone, d would start a batch of its own.
    try writer.setData(["v": 1], forDocument: db.document("w/d"))
    server.faults.release("first")
    _ = try await waiting.value
    await writer.close()
    #expect(server.requestLog.count(matching: ":batchWrite") == 2)
  }

  @Test("a recursive delete whose query reply breaks asks again from the last name it read")
  func recursiveDeleteResumesBrokenReply() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let batch = db.batch()
    for i in 0..<40 { batch.setData(["i": i], forDocument: db.document("t/d\(String(format: "%02d", i))")) }
    try await batch.commit()
    server.requestLog.clear()
    server.faults.add(FaultRule(route: "runQuery", fault: .truncateStream(afterBytes: 2_000), remaining: 1))
    try await db.recursiveDelete(db.collection("t"), bulkWriter: db.bulkWriter(options: options(ManualClock())))
    let queries = server.requestLog.entries.filter { $0.path.hasSuffix(":runQuery") }
    #expect(try await db.collection("t").getDocuments(source: .server).isEmpty)
    // The broken page, then the rest from its last name (a page that started again would
    // list names already read, which the delete refuses).
    #expect(queries.count == 2)
  }

  @Test("retries stop after maximumAttempts with the last error; other errors are not retried")
  func givesUp() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "batchWrite", fault: .error(status: 409, grpcStatus: "ABORTED", message: "contention")))
    var settings = options(ManualClock())
    settings.maximumAttempts = 3
    let writer = db.bulkWriter(options: settings)
    let doomed = try writer.setData(["v": 1], forDocument: db.document("g/a"))
    await writer.flush()
    let gaveUp = try await #require(throws: FirestoreError.self, "a write kept failing but reported success") { try await doomed.result() }
    #expect(gaveUp.code == .aborted)
    #expect(gaveUp.message.contains("gave up after 3 attempts"))
    #expect(server.requestLog.count(matching: ":batchWrite") == 3)
    server.faults.removeAll()
    server.faults.add(
      FaultRule(route: "batchWrite", fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: "no"), remaining: 1))
    server.requestLog.clear()
    let denied = try writer.setData(["v": 1], forDocument: db.document("g/b"))
    await writer.close()
    let refused = try await #require(throws: FirestoreError.self, "a denied write reported success") { try await denied.result() }
    #expect(refused.code == .permissionDenied)
    #expect(denied.attempts == 1)
    #expect(server.requestLog.count(matching: ":batchWrite") == 1)
  }

  @Test("after a lost connection only writes that are safe to repeat are sent again")
  func lostConnection() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "batchWrite", fault: .dropConnection(afterResponseBytes: 0), remaining: 1))
    let writer = db.bulkWriter(options: options(ManualClock()))
    let create = try writer.create(["v": 1], forDocument: db.document("l/a"))
    let set = try writer.setData(["v": 1], forDocument: db.document("l/b"))
    let increment = try writer.updateData(["n": FieldValue.increment(1)], forDocument: db.document("l/c"))
    await writer.close()
    // The server applied the first request before the connection dropped: the create and the
    // increment must not be sent again (one would fail, the other count twice).
    await #expect(throws: FirestoreError.self) { try await create.result() }
    await #expect(throws: FirestoreError.self) { try await increment.result() }
    _ = try await set.result()
    #expect(create.attempts == 1 && increment.attempts == 1 && set.attempts == 2)
    #expect(try await db.document("l/a").getDocument().get("v") as? Int == 1)
  }

  @Test("onWriteError hears of a write lost with its connection, but cannot make it be sent twice")
  func callbackCannotRepeatUnsafeWrite() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    try await db.document("u/c").setData(["n": 0])
    server.faults.add(FaultRule(route: "batchWrite", fault: .dropConnection(afterResponseBytes: 0), remaining: 1))
    let writer = db.bulkWriter(options: options(ManualClock()))
    let heard = Locked<[String: Int]>([:])
    writer.onWriteError { error in
      heard.withLock { $0[error.document.documentID, default: 0] += 1 }
      return true
    }
    let increment = try writer.updateData(["n": FieldValue.increment(1)], forDocument: db.document("u/c"))
    let set = try writer.setData(["v": 1], forDocument: db.document("u/b"))
    await writer.close()
    await #expect(throws: FirestoreError.self) { try await increment.result() }
    _ = try await set.result()
    #expect(heard.withLock { $0 } == ["c": 1, "b": 1])
    #expect(increment.attempts == 1 && set.attempts == 2)
    // The increment the server applied before the connection dropped counted once.
    #expect(try await db.document("u/c").getDocument().get("n") as? Int == 1)
  }

  @Test("pacing: 1,000 writes starting at 100 per second take 9 simulated seconds")
  func rampUpPacing() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let clock = ManualClock()
    var settings = options(clock)
    settings.initialOperationsPerSecond = 100
    let writer = db.bulkWriter(options: settings)
    for i in 0..<1_000 { try writer.setData(["i": i], forDocument: db.document("p/d\(i)")) }
    await writer.close()
    // A full bucket covers the first 100; the other 900 come at 100 per second.
    #expect(clock.now >= .milliseconds(8_900) && clock.now <= .seconds(11), "\(clock.now)")
    #expect(server.requestLog.count(matching: ":batchWrite") == 50)
    #expect(try await db.collection("p").getDocuments().count == 1_000)
  }
}
