import FirestoreMock
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The write queue and listeners when the mock's faults stand in for the network: a server
/// that refuses connections, answers `503`, or drops the listen stream. Mock only (each test
/// has a server of its own); the emulator cannot be taken away like this.
@Suite("Offline writes under faults", .requires(.mock))
struct OfflineFaultTests {
  private func client(_ host: String) -> Firestore {
    let settings = FirestoreSettings.emulator(host: host)
    settings.timeout = hangLimit
    // Short real waits: retries against a server that is gone must not spin.
    settings.retryPolicy.sleep = { try await Task.sleep(for: min($0, .milliseconds(50))) }
    return Firestore(projectID: "offline-faults", settings: settings)
  }

  @Test(
    "while connections are refused, writes queue and listeners show them from the cache; a server back on the address gets each once, in order"
  )
  func unreachableServer() async throws {
    // The server comes back on the same address: a port no other test's server can be given.
    let first = try FixedPort.start { try MockFirestoreServer.start(port: $0) }
    let port = first.port
    let db = client(first.hostAndPort)
    let items = db.collection("items")
    let collector = SequenceCollector(items.snapshots(includeMetadataChanges: true))
    var snapshot = try await collector.nextFromServer()

    first.stop()
    snapshot = try await collector.next()
    #expect(snapshot.metadata.isFromCache, "the dropped stream marks the listener")
    let awaited = Task { try await items.document("a").setData(["v": 1]) }
    func writeWithoutWaiting() {
      items.document("counter").setData(["n": FieldValue.increment(Int64(1))], merge: true)
      items.document("counter").setData(["n": FieldValue.increment(Int64(1))], merge: true)
      items.document("b").setData(["v": "first"])
      items.document("b").setData(["v": "second"])
    }
    writeWithoutWaiting()
    // Each write may raise a snapshot of its own: wait for the state after the last one.
    while snapshot.count < 3 || snapshot.documents.first(where: { $0.documentID == "counter" })?.get("n") as? Int != 2
      || snapshot.documents.first(where: { $0.documentID == "b" })?.get("v") as? String != "second"
    {
      snapshot = try await collector.next()
    }
    #expect(snapshot.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: true))
    // A transaction fails at once while the server cannot be reached.
    try await eventually("a request to have found the server unreachable") { db.network.isOffline }
    let transaction = await #expect(throws: FirestoreError.self) {
      try await db.runTransaction { tx in try await tx.getDocument(items.document("a")).exists }
    }
    #expect(transaction?.code == .unavailable)
    #expect(
      transaction?.message.contains("was not started") == true, "refused at once, not after retries: \(String(describing: transaction))")

    let second = try MockFirestoreServer.start(port: port)
    defer { second.stop() }
    _ = try await awaited.value
    try await db.waitForPendingWrites()
    let check = client(second.hostAndPort)
    #expect(try await check.document("items/counter").getDocument().get("n") as? Int == 2, "each increment once")
    #expect(try await check.document("items/b").getDocument().get("v") as? String == "second", "in order")
    #expect(second.requestLog.count(matching: ":commit", method: "POST") == 5, "each batch sent once")
    while snapshot.metadata != SnapshotMetadata(isFromCache: false, hasPendingWrites: false) { snapshot = try await collector.next() }
    #expect(snapshot.count == 3)
    collector.cancel()
  }

  @Test("a write the server answers 503 is kept and sent again when repeating it is harmless")
  func unavailableIdempotentWriteRetried() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let db = client(server.hostAndPort)
    // More failures than one call's retries: the queue sends it again after a backoff.
    server.faults.add(FaultRule(route: "commit", fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "down"), remaining: 8))
    try await db.document("c/d").setData(["v": 1])
    #expect(server.requestLog.count(matching: ":commit", method: "POST") == 9)
    #expect(try await db.document("c/d").getDocument(source: .server).get("v") as? Int == 1)
  }

  @Test(
    "a listener is marked from the cache when the stream is offline (it keeps failing), not for one failure the reconnect hides, and unmarked once back in sync"
  )
  func listenerFollowsTheStream() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let db = client(server.hostAndPort)
    try await db.document("c/d").setData(["v": 1])
    let collector = SequenceCollector(db.document("c/d").snapshots(includeMetadataChanges: true))
    _ = try await collector.nextFromServer()

    // One failure of a stream in sync: the cut breaks the back channel mid-response, and the
    // next handshake succeeds. As in the Apple SDK the stream was online, so it becomes
    // unknown, not offline, and listeners are told nothing.
    server.cutListenBackChannels()
    try await eventually("a second session") { await db.listenManager.handshakeCount == 2 }
    #expect(await db.listenManager.lastCloseError?.code == .unavailable)
    try await Firestore(projectID: "offline-faults", settings: .emulator(host: server.hostAndPort)).document("c/d").setData(["v": 2])
    var snapshot = try await collector.next()
    #expect(snapshot.get("v") as? Int == 2)
    #expect(snapshot.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: false))

    // A stream whose reopening fails too is offline.
    server.faults.add(FaultRule(route: "Listen", fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "down")))
    server.cutListenBackChannels()
    snapshot = try await collector.next()
    #expect(snapshot.metadata.isFromCache && snapshot.get("v") as? Int == 2)
    server.faults.removeAll()
    snapshot = try await collector.next()
    #expect(!snapshot.metadata.isFromCache && snapshot.get("v") as? Int == 2)
    collector.cancel()
  }
}
