import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The local cache when the server is slow, failing or gone, and across restarts: each test
/// has a mock server of its own, so its faults and request log are its own.
@Suite("Local cache under faults and restarts", .requires(.mock))
struct CacheFaultTests {
  private func makeServer(cache: LocalCacheSettings = .memory()) throws -> (MockFirestoreServer, Firestore) {
    let server = try MockFirestoreServer.start()
    return (server, client(host: server.hostAndPort, cache: cache))
  }

  private func client(host: String, cache: LocalCacheSettings, log: (@Sendable (String) -> Void)? = nil) -> Firestore {
    let settings = FirestoreSettings.emulator(host: host)
    settings.retryPolicy.sleep = { _ in }
    settings.timeout = hangLimit
    settings.cache = cache
    if let log { settings.logHandler = log }
    return Firestore(projectID: "cache", settings: settings)
  }

  @Test("a .cache read makes no request, as the mock's request log shows")
  func cacheReadMakesNoRequest() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    try await db.document("users/ada").setData(["name": "Ada"])
    _ = try await db.collection("users").getDocuments()
    let before = server.requestLog.count()
    #expect(try await db.document("users/ada").getDocument(source: .cache).get("name") as? String == "Ada")
    #expect(try await db.collection("users").whereField("name", isEqualTo: "Ada").getDocuments(source: .cache).count == 1)
    await #expect(throws: FirestoreError.self) { try await db.document("users/bob").getDocument(source: .cache) }
    #expect(server.requestLog.count() == before)
    _ = try await db.document("users/ada").getDocument(source: .server)
    #expect(server.requestLog.count() == before + 1)
  }

  @Test(".default falls back to the cache when the server is down; .server reports the failure")
  func defaultFallsBack() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    try await db.document("users/ada").setData(["name": "Ada"])
    try await db.document("users/bob").setData(["name": "Bob"])
    let online = try await db.document("users/ada").getDocument()
    #expect(!online.metadata.isFromCache)
    _ = try await db.collection("users").getDocuments()
    server.faults.add(FaultRule(fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "server down")))
    let offline = try await db.document("users/ada").getDocument()
    #expect(offline.metadata.isFromCache)
    #expect(offline.get("name") as? String == "Ada")
    let query = try await db.collection("users").order(by: "name").getDocuments()
    #expect(query.metadata.isFromCache)
    #expect(query.documents.map(\.documentID) == ["ada", "bob"])
    let serverError = await #expect(throws: FirestoreError.self) { try await db.document("users/ada").getDocument(source: .server) }
    #expect(serverError?.code == .unavailable)
    // Not cached: the server's error, not a made-up missing document.
    let uncached = await #expect(throws: FirestoreError.self) { try await db.document("users/eve").getDocument() }
    #expect(uncached?.code == .unavailable)
    // A refusal is not an outage: no fallback.
    server.faults.removeAll()
    server.faults.add(FaultRule(fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: "rules")))
    let denied = await #expect(throws: FirestoreError.self) { try await db.document("users/ada").getDocument() }
    #expect(denied?.code == .permissionDenied)
  }

  @Test("a listener shows a write before its delayed commit answers, then the confirmed state")
  func pendingBeforeCommitResponse() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let favorites = db.collection("users/u1/favorites")
    let collector = SequenceCollector(favorites.snapshots(includeMetadataChanges: true))
    #expect(try await collector.next().isEmpty)
    // The commit is held until the pending snapshot has been seen.
    server.faults.add(FaultRule(route: "commit", fault: .hold("commit"), remaining: 1))
    let done = Locked(false)
    let write = Task {
      try await favorites.document("meal1").setData(["starredAt": FieldValue.serverTimestamp()])
      done.withLock { $0 = true }
    }
    let pending = try await collector.next()
    #expect(done.withLock { $0 } == false, "the pending snapshot must come before the commit answers")
    #expect(pending.documents.map(\.documentID) == ["meal1"])
    #expect(pending.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: true))
    #expect((pending.documents.first?.get("starredAt") as? NSNull) != nil)
    try await eventually("the commit to reach the server") { server.faults.arrivals(at: "commit") == 1 }
    #expect(done.withLock { $0 } == false)
    server.faults.release("commit")
    try await write.value
    let settled = try await collector.next { !$0.metadata.hasPendingWrites }
    #expect(settled.documents.map(\.documentID) == ["meal1"])
    #expect((settled.documents.first?.get("starredAt") as? Timestamp) != nil)
    collector.cancel()
  }

  @Test("a write the server fails is rolled back and the caller gets the error")
  func failedWriteRollsBack() async throws {
    let (server, db) = try makeServer()
    defer { server.stop() }
    let favorites = db.collection("users/u1/favorites")
    try await favorites.document("keep").setData(["v": 1])
    let collector = SequenceCollector(favorites.snapshots)
    _ = try await collector.next { !$0.metadata.isFromCache || !$0.documents.isEmpty }
    // Held, so that the listener shows the write before the server refuses it.
    server.faults.add(FaultRule(route: "commit", fault: .hold("commit"), remaining: 1))
    server.faults.add(
      FaultRule(route: "commit", fault: .error(status: 403, grpcStatus: "PERMISSION_DENIED", message: "denied"), remaining: 1))
    let write = Task { try await favorites.document("keep").setData(["v": 2]) }
    let shown = try await collector.next()
    #expect(shown.documents.first?.get("v") as? Int == 2)
    #expect(shown.metadata.hasPendingWrites)
    server.faults.release("commit")
    let error = await #expect(throws: FirestoreError.self) { try await write.value }
    #expect(error?.code == .permissionDenied)
    let rolledBack = try await collector.next()
    #expect(rolledBack.documents.first?.get("v") as? Int == 1)
    #expect(!rolledBack.metadata.hasPendingWrites)
    #expect(try await favorites.document("keep").getDocument(source: .cache).get("v") as? Int == 1)
    collector.cancel()
  }

  @Test("terminate() waits for a write under way: its acknowledgement reaches the file, so the next instance sends nothing again")
  func terminateWaitsForSend() async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "commit", fault: .hold("commit"), remaining: 1))
    let first = client(host: server.hostAndPort, cache: .persistent(directory: directory))
    func writeWithoutWaiting() { first.document("items/a").setData(["v": 1]) }
    writeWithoutWaiting()
    try await eventually("the commit to reach the hold") { server.faults.arrivals(at: "commit") == 1 }
    let terminating = Task { try await first.terminate() }
    server.faults.release("commit")
    try await terminating.value
    let second = client(host: server.hostAndPort, cache: .persistent(directory: directory))
    try await second.waitForPendingWrites()
    #expect(try await second.document("items/a").getDocument(source: .server).get("v") as? Int == 1)
    #expect(server.requestLog.count(matching: ":commit", method: "POST") == 1, "sent once")
  }

  /// The server aborts the commit under way while the instance terminates: its retry is not
  /// sent, and the write is not lost with it (as the Apple SDK's queue keeps it).
  @Test("a write whose retry terminate() stops stays queued, and the next instance sends it")
  func terminateKeepsWriteWhoseRetryStopped() async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    server.faults.add(FaultRule(route: "commit", fault: .hold("commit"), remaining: 1))
    server.faults.add(FaultRule(route: "commit", fault: .error(status: 409, grpcStatus: "ABORTED", message: "contention"), remaining: 1))
    let first = client(host: server.hostAndPort, cache: .persistent(directory: directory))
    func writeWithoutWaiting() { first.document("items/a").setData(["v": 1]) }
    writeWithoutWaiting()
    try await eventually("the commit to reach the hold") { server.faults.arrivals(at: "commit") == 1 }
    let terminating = Task { try await first.terminate() }
    try await eventually("the instance to be terminating") { first.network.mode == .terminated }
    server.faults.release("commit")
    try await terminating.value
    #expect(server.requestLog.count(matching: ":commit", method: "POST") == 1, "the retry was not sent")
    let second = client(host: server.hostAndPort, cache: .persistent(directory: directory))
    try await second.waitForPendingWrites()
    #expect(try await second.document("items/a").getDocument(source: .server).get("v") as? Int == 1)
    #expect(server.requestLog.count(matching: ":commit", method: "POST") == 2)
  }

  @Test("a persistent cache survives the instance: a second one reads it with the network blocked")
  func persistenceAcrossInstances() async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    do {
      let first = client(host: server.hostAndPort, cache: .persistent(directory: directory))
      try await first.document("users/ada").setData(["name": "Ada", "born": 1815])
      try await first.document("users/ada/privateUserInfo/private").setData(["email": "ada@example.com"])
      _ = try await first.collection("users").getDocuments()
      try await first.terminate()
    }
    // Port 1 refuses connections: nothing can come from the network.
    let second = client(host: "127.0.0.1:1", cache: .persistent(directory: directory))
    let profile = try await second.document("users/ada").getDocument(source: .cache)
    #expect(profile.get("name") as? String == "Ada")
    #expect(profile.metadata.isFromCache)
    #expect(
      try await second.document("users/ada/privateUserInfo/private").getDocument(source: .cache).get("email") as? String
        == "ada@example.com")
    #expect(
      try await second.collection("users").whereField("born", isLessThan: 1900).getDocuments(source: .cache).documents.map(\.documentID)
        == ["ada"])
    let fallback = try await second.document("users/ada").getDocument()
    #expect(fallback.metadata.isFromCache)
    #expect(
      FileManager.default.fileExists(
        atPath: directory.appendingPathComponent(LocalStore.fileName(projectID: "cache", databaseID: "(default)")).path))
  }

  @Test("a truncated cache file is reported once and rebuilt, never a crash", arguments: [0.02, 0.5, 0.95])
  func truncatedFileRecovers(keeping fraction: Double) async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    do {
      let first = client(host: server.hostAndPort, cache: .persistent(directory: directory))
      let batch = first.batch()
      for i in 0..<200 { batch.setData(["i": i, "text": String(repeating: "x", count: 500)], forDocument: first.document("items/d\(i)")) }
      try await batch.commit()
      #expect(try await first.collection("items").getDocuments(source: .cache).count == 200)
      // Closed before the file is damaged: until then its pages may sit in the write-ahead
      // log (the file was 4 KiB in one CI run), and the instance may still be alive and
      // serving the second one from the same open store.
      try await first.terminate()
    }
    let file = directory.appendingPathComponent(LocalStore.fileName(projectID: "cache", databaseID: "(default)"))
    let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
    #expect(size > 50_000)
    let handle = try FileHandle(forWritingTo: file)
    try handle.truncate(atOffset: UInt64(Double(size) * fraction))
    try handle.close()

    let messages = Locked<[String]>([])
    let second = client(host: server.hostAndPort, cache: .persistent(directory: directory)) { message in
      messages.withLock { $0.append(message) }
    }
    // Whatever the damage, the reads answer (nothing half-read is served) ...
    let cached = try await second.collection("items").getDocuments(source: .cache)
    #expect(cached.isEmpty)
    await #expect(throws: FirestoreError.self) { try await second.document("items/d1").getDocument(source: .cache) }
    #expect(messages.withLock { $0.count } == 1, "\(messages.withLock { $0 })")
    #expect(messages.withLock { $0.first?.contains(file.path) } == true)
    // ... and the rebuilt cache works.
    _ = try await second.collection("items").getDocuments()
    #expect(try await second.document("items/d1").getDocument(source: .cache).get("i") as? Int == 1)
    #expect(messages.withLock { $0.count } == 1)
  }

  @Test("a file that is not a cache of this client is reported once and replaced")
  func incompatibleFileRebuilt() async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent(LocalStore.fileName(projectID: "cache", databaseID: "(default)"))
    try Data("this is not an SQLite database, just some text that happens to be here".utf8).write(to: file)
    let messages = Locked<[String]>([])
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let db = client(host: server.hostAndPort, cache: .persistent(directory: directory)) { message in
      messages.withLock { $0.append(message) }
    }
    try await db.document("a/b").setData(["v": 1])
    #expect(try await db.document("a/b").getDocument(source: .cache).get("v") as? Int == 1)
    #expect(messages.withLock { $0.count } == 1)
  }

  @Test("a cache over its size evicts the documents used least recently", arguments: ["memory", "persistent"])
  func evictionBySize(_ kind: String) async throws {
    let directory = try makeTemporaryDirectory("firestore-cache")
    defer { try? FileManager.default.removeItem(at: directory) }
    let size = LocalCacheSettings.minimumSizeBytes
    let (server, db) = try makeServer(
      cache: kind == "memory" ? .memory(sizeBytes: size) : .persistent(directory: directory, sizeBytes: size))
    defer { server.stop() }
    let text = String(repeating: "x", count: 100_000)
    for i in 0..<8 { try await db.document("big/d\(i)").setData(["text": text]) }
    // d0 is read again, so d1 is now the least recently used.
    _ = try await db.document("big/d0").getDocument(source: .cache)
    for i in 8..<14 { try await db.document("big/d\(i)").setData(["text": text]) }
    #expect(db.localStore.cachedBytes <= size)
    #expect(try await db.document("big/d0").getDocument(source: .cache).exists)
    await #expect(throws: FirestoreError.self) { try await db.document("big/d1").getDocument(source: .cache) }
    #expect(try await db.document("big/d13").getDocument(source: .cache).exists)
    // Evicted is only gone from the cache: the server still has it.
    #expect(try await db.document("big/d1").getDocument().exists)
  }

  @Test("cache settings below the minimum size are rejected, naming the size")
  func invalidCacheSettings() async throws {
    let db = client(host: "127.0.0.1:1", cache: .memory(sizeBytes: 1000))
    let error = await #expect(throws: FirestoreError.self) { try await db.document("a/b").getDocument(source: .cache) }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("1000") == true)
  }

  @Test("with no cache, .cache finds nothing and server results are not kept")
  func noCache() async throws {
    let (server, db) = try makeServer(cache: .none)
    defer { server.stop() }
    try await db.document("a/b").setData(["v": 1])
    _ = try await db.document("a/b").getDocument()
    await #expect(throws: FirestoreError.self) { try await db.document("a/b").getDocument(source: .cache) }
    #expect(try await db.collection("a").getDocuments(source: .cache).isEmpty)
  }
}
