import FirestoreMock
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The Apple SDK's spellings, each with its Apple semantics, on both backends: values as
/// `NSNumber`, `AggregateSource`, listen options, `Firestore.firestore()`, `terminate()`,
/// `clearPersistence()` and snapshots in sync.
@Suite("Conformance: Apple SDK spellings")
struct AppleSpellingTests {
  @Test("numbers read from the server cast as in the Apple SDK; a transaction counter read `as? Int64` counts", arguments: Backend.all)
  func valuesFromTheServer(_ backend: Backend) async throws {
    let ref = backend.collection().document("values")
    try await ref.setData(["int": 7, "double": 2.5, "flag": true, "nested": ["n": 3] as [String: Any], "list": [1, 2]])
    let snapshot = try await ref.getDocument(source: .server)
    #expect(snapshot.get("int") as? Int64 == 7)
    #expect(snapshot.get("int") as? Int == 7)
    #expect(snapshot.get("int") as? Double == 7)
    #expect((snapshot.get("int") as? NSNumber)?.intValue == 7)
    #expect(snapshot.get("double") as? Double == 2.5)
    #expect(snapshot.get("flag") as? Bool == true)
    #expect(snapshot.get("nested.n") as? Int64 == 3)
    #expect(snapshot.get("list") as? [Int64] == [1, 2])
    #expect(snapshot.data()?["int"] is NSNumber)

    let counter = backend.collection().document("counter")
    try await counter.setData(["n": 0])
    let db = counter.firestore
    for _ in 0..<3 {
      try await db.runTransaction { tx in
        let current = try await tx.getDocument(counter).get("n") as? Int64 ?? 0
        tx.updateData(["n": current + 1], forDocument: counter)
      }
    }
    #expect(try await counter.getDocument(source: .server).get("n") as? Int64 == 3)
  }

  @Test("count.getAggregation(source: .server) gives an NSNumber count; the completion form too", arguments: Backend.all)
  func aggregateSource(_ backend: Backend) async throws {
    let items = backend.collection()
    for i in 0..<3 { try await items.document("d\(i)").setData(["v": i]) }
    let snapshot = try await items.count.getAggregation(source: .server)
    #expect(snapshot.count == 3)
    #expect(snapshot.count.intValue == 3)
    let sum = try await items.aggregate([.sum("v"), .average("v")]).getAggregation(source: .server)
    #expect(sum.get(.sum("v")) as? Int64 == 3)
    #expect(sum.get(.average("v")) as? Double == 1)
    let viaCompletion = try await withCheckedThrowingContinuation { (done: CheckedContinuation<NSNumber, any Error>) in
      items.count.getAggregation(source: .server) { snapshot, error in
        if let snapshot { done.resume(returning: snapshot.count) } else { done.resume(throwing: error!) }
      }
    }
    #expect(viaCompletion == 3)
  }

  @Test(
    "a cache-only listener answers at once from the cache, hears local writes and what other reads bring in, and never asks the server",
    arguments: Backend.all)
  func cacheSourceListener(_ backend: Backend) async throws {
    let writer = backend.firestore()
    let path = backend.collection().path
    try await writer.collection(path).document("a").setData(["v": 1])
    let db = backend.firestore()
    Ledger.record(backend)
    let items = db.collection(path)
    let collector = SequenceCollector(items.snapshots(options: SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)))
    let first = try await collector.next()
    #expect(first.isEmpty && first.metadata.isFromCache, "an empty cache answers at once")
    _ = try await items.getDocuments()
    var fromRead = try await collector.next()
    #expect(fromRead.documents.map(\.documentID) == ["a"] && fromRead.metadata.isFromCache)
    try await items.document("b").setData(["v": 2])
    fromRead = try await collector.next()
    #expect(fromRead.documents.map(\.documentID) == ["a", "b"] && fromRead.metadata.hasPendingWrites, "the local write")
    // As in the Apple SDK, the acknowledgement alone settles nothing here; the server's
    // version of the document, which a read brings, does.
    _ = try await items.getDocuments()
    fromRead = try await collector.next { !$0.metadata.hasPendingWrites }
    #expect(fromRead.documents.map(\.documentID) == ["a", "b"])
    #expect(fromRead.metadata.isFromCache)
    #expect(await db.listenManager.handshakeCount == 0, "a cache-only listener opens no listen stream")
    collector.cancel()

    // addSnapshotListener(options:listener:) with the same options.
    let seen = Locked<[Int]>([])
    let registration = items.addSnapshotListener(options: SnapshotListenOptions().withSource(.cache)) { snapshot, _ in
      seen.withLock { $0.append(snapshot?.count ?? -1) }
    }
    try await eventually("the cache listener's first snapshot") { seen.withLock { $0.first } == 2 }
    registration.remove()
  }

  @Test("a listener is marked isFromCache when its stream goes down and unmarked when it is back in sync", arguments: Backend.all)
  func isFromCacheFollowsTheStream(_ backend: Backend) async throws {
    let db = backend.firestore()
    Ledger.record(backend)
    let ref = db.document(backend.collection().document("d").path)
    try await ref.setData(["v": 1])
    let collector = SequenceCollector(ref.snapshots(includeMetadataChanges: true))
    var snapshot = try await collector.nextFromServer()
    try await db.disableNetwork()
    snapshot = try await collector.next()
    #expect(snapshot.metadata.isFromCache && snapshot.get("v") as? Int == 1)
    try await db.enableNetwork()
    snapshot = try await collector.next()
    #expect(!snapshot.metadata.isFromCache && snapshot.get("v") as? Int == 1, "back in sync, with no change to the document")
    collector.cancel()
  }

  @Test("Firestore.firestore() finds the project and the emulator in the environment", arguments: ApplePortTests.plainBackends)
  func sharedInstanceFromEnvironment(_ backend: Backend) async throws {
    Ledger.record(backend)
    let db = Firestore.makeShared(
      database: "(default)", environment: ["FIRESTORE_EMULATOR_HOST": backend.host, "GOOGLE_CLOUD_PROJECT": Backend.projectID])
    #expect(db.projectID == Backend.projectID)
    let path = backend.collection().document("d").path
    try await backend.db.document(path).setData(["v": 1])
    #expect(try await db.document(path).getDocument().get("v") as? Int == 1)
    // Its cache is a file, as the Apple SDK's instance's is; this test leaves none behind.
    #expect(db.persistentCacheIndexManager != nil)
    try await db.terminate()
    try await db.clearPersistence()
  }

  @Test("terminate() stops listeners and makes later calls fail; clearPersistence() needs it and deletes the file", arguments: Backend.all)
  func terminateAndClearPersistence(_ backend: Backend) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("firestore-terminate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = backend.firestore { $0.cacheSettings = PersistentCacheSettings(directory: directory) }
    Ledger.record(backend)
    let ref = db.document(backend.collection().document("d").path)
    try await ref.setData(["v": 1])
    let file = directory.appendingPathComponent(LocalStore.fileName(projectID: Backend.projectID, databaseID: "(default)"))
    #expect(FileManager.default.fileExists(atPath: file.path))
    let early = await #expect(throws: FirestoreError.self) { try await db.clearPersistence() }
    #expect(early?.code == .failedPrecondition)
    let collector = SequenceCollector(ref.snapshots)
    _ = try await collector.next()
    try await db.terminate()
    #expect(try await collector.failure() == nil, "the sequence ends without an error")
    let after = await #expect(throws: FirestoreError.self) { try await ref.getDocument() }
    #expect(after?.code == .failedPrecondition)
    let cacheRead = await #expect(throws: FirestoreError.self) { try await ref.getDocument(source: .cache) }
    #expect(cacheRead?.code == .failedPrecondition)
    try await db.clearPersistence()
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test("snapshots in sync: once at once, then after every listener a write concerns was called", arguments: Backend.all)
  func snapshotsInSync(_ backend: Backend) async throws {
    let db = backend.firestore()
    Ledger.record(backend)
    // A handshake slower than its timeout on a busy machine would take the listen offline:
    // each listener would then hear the empty cache first, and the server's empty answer,
    // a change of metadata only, not at all. The handshake's deadline is the test's.
    let deadline = ManualTimer()
    await db.listenManager.setRequestTimer { try await deadline.wait($0) }
    let items = db.collection(backend.collection().path)
    let events = Locked<[String]>([])
    // A listener may first hear the cache and then the server; the sync listener is added
    // once both have heard the server, so no earlier event can follow its registration.
    let fromServer = Locked<Set<String>>([])
    func record(_ name: String, _ snapshot: QuerySnapshot?) {
      events.withLock { $0.append("\(name) \(snapshot?.count ?? -1)") }
      if snapshot?.metadata.isFromCache == false { fromServer.withLock { _ = $0.insert(name) } }
    }
    let all = items.addSnapshotListener { snapshot, _ in record("all", snapshot) }
    let even = items.whereField("even", isEqualTo: true).addSnapshotListener { snapshot, _ in record("even", snapshot) }
    try await eventually("both listeners' snapshots from the server") { fromServer.withLock { $0.count } == 2 }
    let sync = db.addSnapshotsInSyncListener { events.withLock { $0.append("sync") } }
    try await eventually("the sync event at registration") { events.withLock { $0.last } == "sync" }
    events.withLock { $0 = [] }
    // Rounds that ended around the sync listener's registration may still call it after
    // the events were cleared: such calls come before the write's listener events.
    let afterWrite = { events.withLock { Array($0.drop { $0 == "sync" }) } }
    func write() { items.document("d").setData(["even": true]) }
    write()
    try await eventually("both listeners and a sync event") { afterWrite().contains("sync") }
    let seen = afterWrite()
    #expect(Array(seen.prefix(3)).sorted() == ["all 1", "even 1", "sync"].sorted() && seen[2] == "sync", "\(seen)")
    sync.remove()
    all.remove()
    even.remove()
  }
}
