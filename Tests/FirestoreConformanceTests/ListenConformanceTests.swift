import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The last error a callback saw.
final class ErrorBox: Sendable {
  private let error = Locked<(any Error)?>(nil)
  func set(_ value: (any Error)?) { error.withLock { $0 = value } }
  var value: (any Error)? { error.withLock { $0 } }
}

@Suite("Conformance: real-time listeners")
struct ListenConformanceTests {
  private func summary(_ snapshot: QuerySnapshot) -> [String] {
    snapshot.documentChanges.map { change in
      let type: String
      switch change.type {
      case .added: type = "added"
      case .modified: type = "modified"
      case .removed: type = "removed"
      }
      return "\(type) \(change.document.documentID) \(change.oldIndex)→\(change.newIndex)"
    }
  }

  /// A document snapshot's `n` and metadata, for a failure message.
  private static func describe(_ snapshot: DocumentSnapshot) -> String {
    let n = snapshot.exists ? (snapshot.get("n") as? Int).map(String.init) ?? "no n" : "missing"
    return "\(n)\(snapshot.metadata.isFromCache ? " cache" : "")\(snapshot.metadata.hasPendingWrites ? " pending" : "")"
  }

  @Test("a query listener's first snapshot holds the current results, all added", arguments: Backend.all)
  func initialQuerySnapshot(_ backend: Backend) async throws {
    let writer = backend.db
    let cities = backend.collection()
    try await cities.document("b").setData(["pop": 2])
    try await cities.document("a").setData(["pop": 1])
    let db = backend.firestore()
    let listened = db.collection(cities.path).order(by: "pop")
    let collector = SequenceCollector(listened.snapshots)
    let first = try await collector.nextFromServer()
    #expect(first.documents.map(\.documentID) == ["a", "b"])
    #expect(summary(first) == ["added a -1→0", "added b -1→1"])
    #expect(first.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: false))
    #expect(first.documents.first?.get("pop") as? Int == 1)
    #expect(first.readTime != nil)
    _ = writer
  }

  /// As the Apple SDK's listeners of one query share one view: a second listener of a query
  /// already in sync starts from that state, from the server. (Its own first snapshot from
  /// the cache, then the server's with no change to show, left it from the cache for good
  /// without metadata changes.)
  @Test("a second listener of a query or document in sync starts from the server's state", arguments: Backend.all)
  func secondListenerStartsSynced(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await backend.db.document(items.path + "/a").setData(["v": 1])
    let first = SequenceCollector(items.snapshots(includeMetadataChanges: false))
    let firstDocument = SequenceCollector(items.document("a").snapshots(includeMetadataChanges: false))
    _ = try await first.next { !$0.metadata.isFromCache }
    _ = try await firstDocument.next { !$0.metadata.isFromCache }
    let second = SequenceCollector(items.snapshots(includeMetadataChanges: false))
    let shown = try await second.next()
    #expect(!shown.metadata.isFromCache && shown.documents.map(\.documentID) == ["a"])
    let secondDocument = SequenceCollector(items.document("a").snapshots(includeMetadataChanges: false))
    let document = try await secondDocument.next()
    #expect(!document.metadata.isFromCache && document.get("v") as? Int == 1)
    // Both go on hearing the server's changes.
    try await backend.db.document(items.path + "/b").setData(["v": 2])
    #expect(try await second.next().documents.map(\.documentID) == ["a", "b"])
    for collector in [first, second] { collector.cancel() }
    for collector in [firstDocument, secondDocument] { collector.cancel() }
  }

  @Test("adds, modifications and removals arrive with Firebase's indexes", arguments: Backend.all)
  func addModifyRemove(_ backend: Backend) async throws {
    let cities = backend.collection()
    try await cities.document("a").setData(["pop": 1])
    try await cities.document("b").setData(["pop": 2])
    let db = backend.firestore()
    let collector = SequenceCollector(db.collection(cities.path).whereField("pop", isGreaterThanOrEqualTo: 1).order(by: "pop").snapshots)
    #expect(summary(try await collector.nextFromServer()) == ["added a -1→0", "added b -1→1"])

    try await cities.document("c").setData(["pop": 3])
    var snapshot = try await collector.next()
    #expect(summary(snapshot) == ["added c -1→2"])

    try await cities.document("a").setData(["pop": 5])
    snapshot = try await collector.next()
    #expect(summary(snapshot) == ["modified a 0→2"])
    #expect(snapshot.documents.map(\.documentID) == ["b", "c", "a"])

    // b leaves the query by a field change, not a delete.
    try await cities.document("b").updateData(["pop": 0])
    snapshot = try await collector.next()
    #expect(summary(snapshot) == ["removed b 0→-1"])

    try await cities.document("c").delete()
    snapshot = try await collector.next()
    #expect(summary(snapshot) == ["removed c 0→-1"])
    #expect(snapshot.documents.map(\.documentID) == ["a"])
  }

  @Test("a RESET that re-sends unchanged documents yields no snapshot", arguments: Backend.all)
  func resetWithoutChanges(_ backend: Backend) async throws {
    let cities = backend.collection()
    try await cities.document("a").setData(["pop": 1])
    let db = backend.firestore()
    let collector = SequenceCollector(db.collection(cities.path).whereField("pop", isGreaterThanOrEqualTo: 1).snapshots)
    _ = try await collector.nextFromServer()
    // A write to the collection outside the query: the emulator RESETs the target and
    // re-sends "a" unchanged.
    try await cities.document("outside").setData(["pop": -1])
    // Then a real change, which must be the very next snapshot and carry only its change.
    try await cities.document("b").setData(["pop": 2])
    var snapshot = try await collector.next()
    #expect(summary(snapshot) == ["added b -1→1"])
    // A sentinel change: the snapshot after b's must be its own, with nothing between.
    try await cities.document("c").setData(["pop": 3])
    snapshot = try await collector.next()
    #expect(summary(snapshot) == ["added c -1→2"])
  }

  @Test("a limit(toLast:) listener delivers documents in the query's order", arguments: Backend.all)
  func limitToLast(_ backend: Backend) async throws {
    let cities = backend.collection()
    for (id, pop) in [("a", 1), ("b", 2), ("c", 3)] { try await cities.document(id).setData(["pop": pop]) }
    let db = backend.firestore()
    let collector = SequenceCollector(db.collection(cities.path).order(by: "pop").limit(toLast: 2).snapshots)
    var snapshot = try await collector.nextFromServer()
    #expect(snapshot.documents.map(\.documentID) == ["b", "c"])
    #expect(summary(snapshot) == ["added b -1→0", "added c -1→1"])
    try await cities.document("d").setData(["pop": 4])
    snapshot = try await collector.next()
    #expect(snapshot.documents.map(\.documentID) == ["c", "d"])
    #expect(summary(snapshot) == ["removed b 0→-1", "added d -1→1"])
  }

  @Test("a document listener sees a missing document, its creation and its deletion", arguments: Backend.all)
  func documentListener(_ backend: Backend) async throws {
    let ref = backend.collection().document("doc")
    let db = backend.firestore()
    let collector = SequenceCollector(db.document(ref.path).snapshots)
    // From the server, or from the cache when the first attempt to reach it failed: missing either way.
    var snapshot = try await collector.next()
    #expect(!snapshot.exists)
    #expect(snapshot.documentID == "doc")

    try await ref.setData(["v": 1])
    snapshot = try await collector.next()
    #expect(snapshot.exists)
    #expect(snapshot.get("v") as? Int == 1)

    try await ref.delete()
    snapshot = try await collector.next()
    #expect(!snapshot.exists)
  }

  /// The Apple SDK's server timestamp tests: a listener hears of a write with a server
  /// timestamp twice, first pending with the field unset (`null`), then settled with the
  /// server's time; never with the server's time while still pending, which a listener
  /// without metadata changes would be left with.
  @Test(
    "a server timestamp reaches a listener pending and then settled, once each, with or without metadata changes",
    arguments: Backend.all, [false, true])
  func serverTimestampEvents(_ backend: Backend, includeMetadataChanges: Bool) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    for awaited in [true, false] {
      let ref = items.document(awaited ? "awaited" : "queued")
      let collector = SequenceCollector(ref.snapshots(includeMetadataChanges: includeMetadataChanges))
      #expect(try await !collector.next().exists)
      let data: [String: any Sendable] = ["a": 42, "when": FieldValue.serverTimestamp()]
      if awaited {
        try await ref.setData(data)
      } else {
        // From synchronous code: the write is queued and not awaited.
        func write() { ref.setData(data) }
        write()
      }
      let settled = try await collector.next { !$0.metadata.hasPendingWrites }
      let events = collector.values.dropFirst().map { snapshot in
        "\(snapshot.get("when") is Timestamp ? "time" : String(describing: snapshot.get("when") ?? "absent"))"
          + (snapshot.metadata.hasPendingWrites ? " pending" : "")
      }
      #expect(events == ["<null> pending", "time"], "awaited: \(awaited)")
      #expect(settled.get("a") as? Int == 42)
      collector.cancel()
    }
  }

  /// A pending server timestamp sorts where the server's time will put it, as the SDKs
  /// sort it: after numbers and timestamps, before strings, and two of one write by their
  /// documents' keys, whatever each replaced; so the acknowledgement moves nothing.
  @Test("pending server timestamps sort where the server's time will, and the acknowledgement moves nothing", arguments: Backend.all)
  func pendingServerTimestampOrder(_ backend: Backend) async throws {
    let seeded = backend.collection()
    try await seeded.document("b").setData(["t": 5])
    try await seeded.document("s").setData(["t": "text"])
    let db = backend.firestore()
    // A handshake slower than its timeout would take the listen offline, adding a snapshot
    // from the cache between the ones this test reads: the deadline is the test's.
    let deadline = ManualTimer()
    await db.listenManager.setRequestTimer { try await deadline.wait($0) }
    let items = db.collection(seeded.path)
    let collector = SequenceCollector(items.order(by: "t").snapshots(includeMetadataChanges: true))
    #expect(try await collector.next { !$0.metadata.isFromCache }.documents.map(\.documentID) == ["b", "s"])
    let seen = collector.values.count
    let batch = db.batch()
    batch.setData(["t": FieldValue.serverTimestamp()], forDocument: items.document("a"))
    batch.updateData(["t": FieldValue.serverTimestamp()], forDocument: items.document("b"))
    try await batch.commit()
    _ = try await collector.next { snapshot in
      !snapshot.metadata.hasPendingWrites && snapshot.documents.first { $0.documentID == "a" }?.get("t") is Timestamp
    }
    let after = collector.values.dropFirst(seen)
    #expect(after.first.map(summary) == ["added a -1→1", "modified b 0→1"])
    #expect(after.first?.metadata.hasPendingWrites == true)
    for snapshot in after {
      #expect(snapshot.documents.map(\.documentID) == ["a", "b", "s"], "\(summary(snapshot))")
    }
    for snapshot in after.dropFirst() {
      #expect(snapshot.documentChanges.allSatisfy { $0.oldIndex == $0.newIndex }, "\(summary(snapshot))")
    }
    collector.cancel()
  }

  /// A listen of a query an ended listen held resumes from its token (the server sends only
  /// what changed since, or, as the emulator does, everything after a reset): what changed
  /// meanwhile, deleted included, reaches the new listener.
  @Test("a re-listen resumes from the ended listen's token and hears what changed meanwhile", arguments: Backend.all)
  func relistenResumes(_ backend: Backend) async throws {
    let seeded = backend.collection()
    try await seeded.document("a").setData(["v": 1])
    try await seeded.document("b").setData(["v": 1])
    let db = backend.firestore()
    let items = db.collection(seeded.path)
    let first = SequenceCollector(items.snapshots(includeMetadataChanges: true))
    #expect(try await first.nextFromServer().documents.map(\.documentID) == ["a", "b"])
    first.cancel()
    try await eventually("the listen to end") { await db.listenManager.listenerCount == 0 }
    try await seeded.document("a").setData(["v": 2])
    try await seeded.document("b").delete()
    try await seeded.document("c").setData(["v": 1])
    let second = SequenceCollector(items.snapshots(includeMetadataChanges: true))
    let synced = try await second.nextFromServer()
    #expect(synced.documents.map { "\($0.documentID)=\($0.get("v") as? Int ?? 0)" } == ["a=2", "c=1"])
    #expect(await db.listenManager.resumedListens == 1)
    second.cancel()
  }

  @Test("two listeners share one WebChannel session", arguments: Backend.all)
  func twoListenersOneSession(_ backend: Backend) async throws {
    let cities = backend.collection()
    try await cities.document("a").setData(["pop": 1])
    let db = backend.firestore()
    let queryListener = SequenceCollector(db.collection(cities.path).snapshots)
    let documentListener = SequenceCollector(db.document(cities.document("a").path).snapshots)
    // Whichever listener's answer reaches the cache first, the other may show it from there.
    _ = try await queryListener.next { $0.count == 1 }
    _ = try await documentListener.next(where: \.exists)
    try await cities.document("a").setData(["pop": 7])
    #expect(summary(try await queryListener.next()) == ["modified a 0→0"])
    #expect(try await documentListener.next().get("pop") as? Int == 7)
    // One session for both; a second only to recover from a lost one (a cold emulator
    // sometimes holds a handshake past the request timeout).
    let lastCloseError = await db.listenManager.lastCloseError
    let handshakes = await db.listenManager.handshakeCount
    #expect(
      handshakes == 1 || (backend.reachesEmulator && lastCloseError != nil),
      "\(handshakes) sessions, last lost: \(String(describing: lastCloseError))")
    #expect(await db.listenManager.listenerCount == 2)
  }

  /// The emulator (and the mock, like it) closes the connection after every channel reply
  /// without a `Connection: close` header. A commit that took such a connection from the
  /// pool failed with "the connection closed before a response arrived" and, not being
  /// idempotent, could not be sent again.
  // Not through the HTTP/2 front: there the client holds one connection to nghttpx, and
  // what meets the emulator's silent closes is the front's own pool, not the client's.
  @Test(
    "a commit right after a listener starts never lands on a connection the channel used", arguments: Backend.all.filter { $0 != .http2 })
  func commitAfterChannelRequest(_ backend: Backend) async throws {
    let counter = backend.collection().document("counter")
    let db = backend.firestore()
    let rounds = 12
    for round in 1...rounds {
      let listener = SequenceCollector(db.document(counter.path).snapshots)
      _ = try await listener.next()
      // An increment is not idempotent: a lost reply cannot be papered over by a resend.
      try await db.document(counter.path).setData(["n": FieldValue.increment(1)], merge: true)
      let shown = try await listener.next().get("n") as? Int
      #expect(shown == round, "round \(round), every snapshot: \(listener.values.map(Self.describe))")
      listener.cancel()
    }
    #expect(try await counter.getDocument().get("n") as? Int == rounds)
    if backend == .mock {
      let channel = Backend.mockServer.requestLog.entries.filter { $0.path.hasSuffix("/Listen/channel") }
      #expect(!channel.isEmpty)
      let pooled = channel.filter { entry in
        !entry.headers.contains { $0.name.lowercased() == "connection" && $0.value.lowercased() == "close" }
      }
      #expect(pooled.isEmpty, "\(pooled.count) of \(channel.count) channel requests lack Connection: close")
    }
  }

  @Test("registration.remove() stops callbacks and removes the target", arguments: Backend.all)
  func removeRegistration(_ backend: Backend) async throws {
    let cities = backend.collection()
    let db = backend.firestore()
    let calls = Counter()
    let registration = db.collection(cities.path).addSnapshotListener { snapshot, error in
      #expect(error == nil)
      #expect(snapshot != nil)
      calls.increment()
    }
    try await eventually("the first callback") { calls.value == 1 }
    registration.remove()
    registration.remove()
    try await eventually("the target to go") { await db.listenManager.listenerCount == 0 }
    #expect(await db.listenManager.currentChannel == nil)
    try await cities.document("x").setData(["v": 1])
    // A listener of the same instance started after the write sees it: had the removed one
    // still been attached, it would have been called by then.
    let sentinel = SequenceCollector(db.collection(cities.path).snapshots)
    _ = try await sentinel.next { !$0.metadata.isFromCache && $0.count == 1 }
    sentinel.cancel()
    #expect(calls.value == 1)
  }

  @Test("cancelling the iterating task stops the listen", arguments: Backend.all)
  func taskCancellation(_ backend: Backend) async throws {
    let cities = backend.collection()
    let db = backend.firestore()
    let collector = SequenceCollector(db.collection(cities.path).snapshots)
    _ = try await collector.next()
    collector.cancel()
    try await eventually("the target to go") { await db.listenManager.listenerCount == 0 }
    try await cities.document("x").setData(["v": 1])

    // Breaking out of a loop stops it too, and a new listen opens a new session. Its
    // snapshot from the server shows the write, so a cancelled listen still attached would
    // have had it too. (The first may come from the cache, which holds the first listen's
    // empty answer, as in the Apple SDK.)
    for try await snapshot in db.collection(cities.path).snapshots where !snapshot.metadata.isFromCache {
      #expect(snapshot.count == 1)
      break
    }
    #expect(collector.pending == 0)
    try await eventually("the target to go") { await db.listenManager.listenerCount == 0 }
    // The second session; more only to recover from a lost one (a cold emulator sometimes
    // holds a handshake past the request timeout, and the client then opens one more).
    let handshakes = await db.listenManager.handshakeCount
    let lastCloseError = await db.listenManager.lastCloseError
    #expect(
      handshakes == 2 || (backend.reachesEmulator && lastCloseError != nil),
      "\(handshakes) sessions, last lost: \(String(describing: lastCloseError))")
  }

  @Test("an invalid query fails the listener before anything is sent", arguments: Backend.all)
  func invalidQuery(_ backend: Backend) async throws {
    let db = backend.firestore()
    let collector = SequenceCollector(db.collection("cities").limit(toLast: 2).snapshots)
    let error = try await collector.failure()
    #expect((error as? FirestoreError)?.code == .invalidArgument)

    let failed = ErrorBox()
    let registration = db.collection("a/b").addSnapshotListener { snapshot, error in
      #expect(snapshot == nil)
      failed.set(error)
    }
    try await eventually("the callback error") { failed.value != nil }
    #expect((failed.value as? FirestoreError)?.code == .invalidArgument)
    registration.remove()
    #expect(await db.listenManager.handshakeCount == 0)
  }
}
