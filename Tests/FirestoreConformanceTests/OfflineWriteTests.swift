import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Writes that outlive the network, as the Apple SDK makes them: queued while the server
/// cannot be reached, shown at once, sent in order and once when it can be, rolled back
/// when refused. The network is taken away with `disableNetwork()`, which works the same
/// on both backends; `OfflineFaultTests` takes it away with the mock's faults instead.
@Suite("Conformance: offline writes")
struct OfflineWriteTests {
  /// A client of its own (the tests disable its network).
  private func client(_ backend: Backend, cache: LocalCacheSettings = .memory()) -> Firestore {
    Ledger.record(backend)
    return backend.firestore { $0.cache = cache }
  }

  @Test(
    "writes while the network is disabled show at once (pending, from the cache) and reach the server in order, once, when it is back",
    arguments: Backend.all)
  func queuedWhileDisabled(_ backend: Backend) async throws {
    let db = client(backend)
    let items = db.collection(backend.collection().path)
    let collector = SequenceCollector(items.snapshots(includeMetadataChanges: true))
    let first = try await collector.nextFromServer()
    #expect(first.isEmpty)

    try await db.disableNetwork()
    var offline = try await collector.next()
    #expect(offline.metadata.isFromCache, "the listener is told its stream is gone")

    // Fire-and-forget, as in the Apple SDK (from synchronous code: in an `async` context the
    // same call is the `async` form), and one caller that waits for the server.
    func writeWithoutWaiting() -> DocumentReference {
      items.document("counter").setData(["n": 0])
      for _ in 0..<3 { items.document("counter").updateData(["n": FieldValue.increment(Int64(1))]) }
      items.document("twice").setData(["v": "first"])
      items.document("twice").setData(["v": "second"])
      return items.addDocument(data: ["kind": "added"])
    }
    let added = writeWithoutWaiting()
    let acknowledged = Locked(false)
    let awaited = Task {
      try await items.document("awaited").setData(["v": 1])
      acknowledged.withLock { $0 = true }
    }
    while offline.count < 4 || offline.documents.first(where: { $0.documentID == "counter" })?.get("n") as? Int != 3 {
      offline = try await collector.next()
    }
    #expect(offline.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: true))
    #expect(offline.documents.first { $0.documentID == "twice" }?.get("v") as? String == "second")
    #expect(Set(offline.documents.map(\.documentID)) == ["counter", "twice", added.documentID, "awaited"])

    // Reads answer from the cache; what needs the server fails at once.
    let cached = try await items.document("counter").getDocument()
    #expect(cached.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: true))
    #expect(cached.get("n") as? Int64 == 3)
    let serverRead = await #expect(throws: FirestoreError.self) { try await items.document("counter").getDocument(source: .server) }
    #expect(serverRead?.code == .unavailable)
    let aggregation = await #expect(throws: FirestoreError.self) { try await items.count.getAggregation(source: .server) }
    #expect(aggregation?.code == .unavailable)
    let transaction = await #expect(throws: FirestoreError.self) {
      try await db.runTransaction { tx in try await tx.getDocument(items.document("counter")).exists }
    }
    #expect(transaction?.code == .unavailable)
    #expect(acknowledged.withLock { $0 } == false, "the awaiting caller waits for the server")

    try await db.enableNetwork()
    try await awaited.value
    try await db.waitForPendingWrites()
    // The server has each write once, in order: three increments after the set, the second set last.
    let check = backend.firestore()
    let counter = try await check.document(items.document("counter").path).getDocument(source: .server)
    #expect(counter.get("n") as? Int64 == 3)
    #expect(try await check.document(items.document("twice").path).getDocument(source: .server).get("v") as? String == "second")
    #expect(try await check.collection(items.path).getDocuments(source: .server).count == 4)
    let settled = try await collector.next { $0.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: false) }
    #expect(settled.count == 4)
    collector.cancel()
  }

  @Test("a queued write the server refuses is removed and rolled back, and its caller gets the error", arguments: Backend.all)
  func refusedWriteRollsBack(_ backend: Backend) async throws {
    let db = client(backend)
    let ref = db.document(backend.collection().document("doc").path)
    try await ref.setData(["v": 1])
    let collector = SequenceCollector(ref.snapshots(includeMetadataChanges: true))
    _ = try await collector.nextFromServer()
    try await db.disableNetwork()
    // An update time the document does not have: the server refuses it.
    let refused = Task { try await ref.updateData(["v": 2], precondition: .updateTime(Timestamp(seconds: 1_000, nanoseconds: 0))) }
    let shown = try await collector.next { $0.get("v") as? Int == 2 }
    #expect(shown.metadata.hasPendingWrites)
    try await db.enableNetwork()
    let error = await #expect(throws: FirestoreError.self) { try await refused.value }
    #expect(error?.code == .failedPrecondition)
    let rolledBack = try await collector.next { !$0.metadata.hasPendingWrites && !$0.metadata.isFromCache }
    #expect(rolledBack.get("v") as? Int == 1)
    #expect(db.localStore.queuedBatchCount == 0)
    collector.cancel()
  }

  @Test("5,000 writes queued while offline all reach the server", arguments: Backend.all)
  func largeQueueDrains(_ backend: Backend) async throws {
    // A project (and on the mock, a server) of its own: 5,000 commits would hold up the rest.
    let db = backend.isolatedFirestore()
    let items = db.collection("queued")
    try await db.disableNetwork()
    let count = 5_000
    func writeWithoutWaiting() { for i in 0..<count { items.document("d\(i)").setData(["i": i]) } }
    writeWithoutWaiting()
    #expect(db.localStore.queuedBatchCount == count)
    #expect(try await items.getDocuments(source: .cache).count == count)
    try await db.enableNetwork()
    try await db.waitForPendingWrites()
    #expect(db.localStore.queuedBatchCount == 0)
    let snapshot = try await items.count.getAggregation(source: .server)
    #expect(snapshot.count.intValue == count)
    let sum = try await items.aggregate([.sum("i")]).getAggregation(source: .server)
    #expect(sum.get(.sum("i")) as? Int == count * (count - 1) / 2, "each write arrived once")
  }

  @Test("a fire-and-forget write reports the server's refusal to its completion handler", arguments: Backend.all)
  func completionHandlers(_ backend: Backend) async throws {
    let db = client(backend)
    let items = db.collection(backend.collection().path)
    let outcomes = Locked<[String]>([])
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      items.document("a").setData(["v": 1]) { error in
        outcomes.withLock { $0.append(error == nil ? "set ok" : "set failed") }
        items.document("missing").updateData(["v": 2]) { error in
          outcomes.withLock {
            $0.append((error as? FirestoreError)?.code == .notFound ? "update notFound" : "update \(String(describing: error))")
          }
          done.resume()
        }
      }
    }
    #expect(outcomes.withLock { $0 } == ["set ok", "update notFound"])
    let read = try await withCheckedThrowingContinuation { (done: CheckedContinuation<DocumentSnapshot, any Error>) in
      items.document("a").getDocument(source: .server) { snapshot, error in
        if let snapshot { done.resume(returning: snapshot) } else { done.resume(throwing: error!) }
      }
    }
    #expect(read.get("v") as? Int == 1)
  }

  @Test("documents an active listener shows are never evicted from the cache", arguments: Backend.all)
  func listenedDocumentsStay(_ backend: Backend) async throws {
    let db = client(backend, cache: .memory(sizeBytes: LocalCacheSettings.minimumSizeBytes))
    let watched = db.collection(backend.collection("watched").path)
    for i in 0..<3 { try await watched.document("w\(i)").setData(["i": i]) }
    let collector = SequenceCollector(watched.snapshots(includeMetadataChanges: true))
    _ = try await collector.next { !$0.metadata.isFromCache && $0.count >= 3 }
    // Read twice the cache's size of other documents.
    let filler = db.collection(backend.collection("filler").path)
    let batch = db.batch()
    let text = String(repeating: "x", count: 60_000)
    for i in 0..<34 { batch.setData(["text": text], forDocument: filler.document("f\(i)")) }
    try await batch.commit()
    _ = try await filler.getDocuments()
    #expect(db.localStore.cachedBytes <= LocalCacheSettings.minimumSizeBytes)
    for i in 0..<3 { #expect(db.localStore.isCached(watched.document("w\(i)").name), "w\(i) was evicted") }
    #expect((0..<34).contains { !db.localStore.isCached(filler.document("f\($0)").name) }, "nothing was evicted")
    collector.cancel()
  }
}
