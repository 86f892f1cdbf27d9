import FirestoreEngine
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Listeners' views in the local store: what they show while writes are queued, when the
/// stream goes down and comes back, and when they read the cache only.
@Suite("Local views")
struct LocalViewTests {
  private static let root = "projects/p/databases/(default)/documents"
  private static let query = StructuredQuery(from: [.init(collectionID: "favorites")])
  private static let view = ViewQuery.query(query, parent: "", collectionID: "favorites", allDescendants: false)

  private final class Delivered: Sendable {
    let snapshots = Locked<[ViewSnapshot]>([])
    var last: ViewSnapshot? { snapshots.withLock { $0.last } }
    var count: Int { snapshots.withLock { $0.count } }
  }

  private func store(_ settings: LocalCacheSettings = .memory()) -> LocalStore {
    LocalStore(settings: settings, projectID: "p", databaseID: "(default)", documentsRoot: Self.root, log: { _ in })
  }

  private func document(_ id: String, at seconds: Int64) -> Document {
    Document(
      name: "\(Self.root)/favorites/\(id)", fields: ["v": .integer(1)], createTime: Timestamp(seconds: seconds, nanoseconds: 0),
      updateTime: Timestamp(seconds: seconds, nanoseconds: 0))
  }

  private func write(_ id: String) -> Write {
    Write(operation: .update(Document(name: "\(Self.root)/favorites/\(id)", fields: ["v": .integer(1)])))
  }

  private func addView(_ store: LocalStore, source: ListenSource = .default) -> (Int, Delivered) {
    let delivered = Delivered()
    let id = store.addView(Self.view, source: source, includeMetadataChanges: true) { snapshot in
      delivered.snapshots.withLock { $0.append(snapshot) }
    }
    return (id, delivered)
  }

  @Test("a listen's document older than the cache's shows the cache's version: no step back and forward again")
  func staleWatchDocumentShowsNewer() throws {
    let store = store()
    let (first, firstDelivered) = addView(store)
    func version(_ seconds: Int64, v: Int64) -> Document {
      var document = document("m1", at: seconds)
      document.fields["v"] = .integer(v)
      return document
    }
    store.applyWatch(first, WatchSnapshot(documents: [version(30, v: 2)], changes: [], readTime: at(30), isInitial: true))
    #expect(firstDelivered.last?.documents.map { $0.fields["v"] } == [.integer(2)])
    let count = firstDelivered.count
    // The stream replays an older state (a resumed target, a lagging replica).
    store.applyWatch(first, WatchSnapshot(documents: [version(20, v: 1)], changes: [], readTime: at(31), isInitial: false))
    #expect(firstDelivered.count == count, "\(firstDelivered.snapshots.withLock { $0 })")
    #expect(firstDelivered.last?.documents.map { $0.fields["v"] } == [.integer(2)])
    // A second listener whose first answer is older than the cache starts from the newer version.
    let (second, secondDelivered) = addView(store)
    store.applyWatch(second, WatchSnapshot(documents: [version(20, v: 1)], changes: [], readTime: at(20), isInitial: true))
    #expect(secondDelivered.snapshots.withLock { $0 }.allSatisfy { $0.documents.map { $0.fields["v"] } == [.integer(2)] })
    // A newer version replaces it as usual.
    store.applyWatch(first, WatchSnapshot(documents: [version(40, v: 3)], changes: [], readTime: at(40), isInitial: false))
    #expect(firstDelivered.last?.documents.map { $0.fields["v"] } == [.integer(3)])
  }

  @Test("an acknowledged write stays applied, and pending, over a listen older than its commit")
  func acknowledgedWriteOverOlderListen() {
    let store = store()
    let (id, delivered) = addView(store)
    let name = "\(Self.root)/favorites/m1"
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(10), isInitial: true))
    let (batch, _) = store.enqueue([write("m1")], body: Data(), user: nil)
    acknowledge(batch, in: store, at: 30)
    // The listen, behind the commit, sends a version from before it.
    store.applyWatch(id, WatchSnapshot(documents: [document("m1", at: 20)], changes: [], readTime: at(25), isInitial: false))
    #expect(delivered.last?.pendingNames == [name])
    store.applyWatch(id, WatchSnapshot(documents: [document("m1", at: 30)], changes: [], readTime: at(30), isInitial: false))
    #expect(delivered.last?.pendingNames.isEmpty == true)
  }

  @Test("a write acknowledged before the view's first server snapshot is not hidden by an older snapshot")
  func ackBeforeFirstServerSnapshot() {
    let store = store()
    let (id, delivered) = addView(store)
    let (batch, _) = store.enqueue([write("m1")], body: Data(), user: nil)
    #expect(delivered.last?.documents.map(\.name) == ["\(Self.root)/favorites/m1"])
    let commit = Timestamp(seconds: 100, nanoseconds: 0)
    _ = store.finishSend(batch, .acknowledged([WriteResult(updateTime: commit, commitTime: commit, transformResults: [])]))
    // The listen's first answer was taken before the commit.
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: Timestamp(seconds: 99, nanoseconds: 0), isInitial: true))
    #expect(delivered.last?.documents.count == 1, "the write flickered out")
    // The next one has it: the batch is no longer needed.
    store.applyWatch(
      id,
      WatchSnapshot(documents: [document("m1", at: 100)], changes: [], readTime: Timestamp(seconds: 101, nanoseconds: 0), isInitial: false))
    #expect(delivered.last?.documents.count == 1)
    #expect(store.unsettledBatchCount == 0)
  }

  @Test("an acknowledged delete stays applied over a server snapshot past the commit that still holds the old version")
  func ackedDeleteOverStaleResync() {
    let store = store()
    let (id, delivered) = addView(store)
    store.applyWatch(
      id, WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: Timestamp(seconds: 11, nanoseconds: 0), isInitial: true)
    )
    let (batch, _) = store.enqueue([Write(operation: .delete("\(Self.root)/favorites/m1"))], body: Data(), user: nil)
    #expect(delivered.last?.documents.isEmpty == true)
    let commit = Timestamp(seconds: 20, nanoseconds: 0)
    _ = store.finishSend(batch, .acknowledged([WriteResult(updateTime: commit, commitTime: commit, transformResults: [])]))
    // A resumed target, consistent after the commit, that never heard of the delete.
    store.applyWatch(
      id,
      WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: Timestamp(seconds: 25, nanoseconds: 0), isInitial: false))
    #expect(delivered.last?.documents.isEmpty == true, "the deleted document came back")
    #expect(store.unsettledBatchCount == 1)
    // The removal arrives: the batch is no longer needed, and nothing changes for the listener.
    let count = delivered.count
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: Timestamp(seconds: 30, nanoseconds: 0), isInitial: false))
    #expect(store.unsettledBatchCount == 0)
    #expect(delivered.count == count && delivered.last?.documents.isEmpty == true)
  }

  @Test("an acknowledged write over a server snapshot past the commit that still holds the old version is shown settled")
  func ackedWriteOverStaleResyncSettles() {
    let store = store()
    let (id, delivered) = addView(store)
    let name = "\(Self.root)/favorites/m1"
    store.applyWatch(
      id, WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: Timestamp(seconds: 11, nanoseconds: 0), isInitial: true)
    )
    let (batch, _) = store.enqueue(
      [Write(operation: .update(Document(name: name, fields: ["v": .integer(2)])))], body: Data(), user: nil)
    #expect(delivered.last?.pendingNames == [name])
    let commit = Timestamp(seconds: 20, nanoseconds: 0)
    _ = store.finishSend(batch, .acknowledged([WriteResult(updateTime: commit, commitTime: commit, transformResults: [])]))
    // Acknowledged, and the listen not yet past the commit: still pending.
    #expect(delivered.last?.pendingNames == [name])
    // A resumed target, consistent after the commit, that never heard of the write.
    store.applyWatch(
      id,
      WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: Timestamp(seconds: 25, nanoseconds: 0), isInitial: false))
    #expect(delivered.last?.documents.first?.fields["v"] == .integer(2), "the replaced version came back")
    #expect(delivered.last?.pendingNames.isEmpty == true, "the write stays pending for good")
    #expect(delivered.last?.isFromCache == false)
  }

  @Test("with eager collection, a rejected write leaves nothing cached that nothing else holds")
  func eagerCollectionAfterRejection() {
    let store = store(.eagerMemory)
    let name = "\(Self.root)/favorites/a"
    let (set, _) = store.enqueue([write("a")], body: Data(), user: nil)
    _ = store.beginSend(set)
    acknowledge(set, in: store, at: 5)
    store.flush()
    let (patch, _) = store.enqueue(
      [Write(operation: .update(Document(name: name, fields: ["v": .integer(2)])), updateMask: ["v"], currentDocument: .exists(true))],
      body: Data(), user: nil)
    _ = store.beginSend(patch)
    _ = store.finishSend(patch, .rejected(outcomeUnknown: false))
    store.flush()
    #expect(store.document(name) == nil, "no listener and no write holds it")
  }

  private func at(_ seconds: Int64) -> Timestamp { Timestamp(seconds: seconds, nanoseconds: 0) }

  /// A store whose view had an empty first server snapshot at 5 s, then a write to `id`
  /// queued; returns the store, the view's ID and deliveries, and the write's batch.
  private func viewAfterWrite(to id: String) -> (store: LocalStore, view: Int, delivered: Delivered, batch: Int) {
    let store = store()
    let (view, delivered) = addView(store)
    store.applyWatch(view, WatchSnapshot(documents: [], changes: [], readTime: at(5), isInitial: true))
    let (batch, _) = store.enqueue([write(id)], body: Data(), user: nil)
    return (store, view, delivered, batch)
  }

  /// Acknowledges `batch`, one write committed at `seconds`.
  private func acknowledge(_ batch: Int, in store: LocalStore, at seconds: Int64) {
    _ = store.finishSend(batch, .acknowledged([WriteResult(updateTime: at(seconds), commitTime: at(seconds), transformResults: [])]))
  }

  /// A store whose view had m1 and m2 at 11 s, then a result set at 20 s without m1, which
  /// the server did not remove (the emulator's set after a RESET can miss a document that
  /// exists): m1 is in limbo.
  private func viewWithM1InLimbo() -> (store: LocalStore, view: Int, delivered: Delivered, m1: String) {
    let store = store()
    let (id, delivered) = addView(store)
    store.applyWatch(
      id, WatchSnapshot(documents: [document("m1", at: 10), document("m2", at: 10)], changes: [], readTime: at(11), isInitial: true))
    store.applyWatch(id, WatchSnapshot(documents: [document("m2", at: 10)], changes: [], readTime: at(20), isInitial: false))
    return (store, id, delivered, "\(Self.root)/favorites/m1")
  }

  @Test("a document a re-sent result set leaves out stays, out of sync, until its own listen answers")
  func limboDocumentStaysUntilResolved() {
    let (store, id, delivered, m1) = viewWithM1InLimbo()
    #expect(delivered.last?.documents.map(\.name) == [m1, "\(Self.root)/favorites/m2"], "the document flickered out")
    #expect(delivered.last?.isFromCache == true)
    #expect(store.limboNames == [m1])
    // Its own listen says it exists: shown at that version, still out of sync with the query.
    store.resolveLimbo(m1, document("m1", at: 15))
    #expect(delivered.last?.documents.first?.updateTime == at(15))
    #expect(delivered.last?.isFromCache == true)
    // The query's results have it again: back in sync, nothing more to listen to.
    store.applyWatch(
      id, WatchSnapshot(documents: [document("m1", at: 15), document("m2", at: 10)], changes: [], readTime: at(30), isInitial: false))
    #expect(delivered.last?.isFromCache == false)
    #expect(store.limboNames.isEmpty)
    // Left out again, and this time its listen says it is gone.
    store.applyWatch(id, WatchSnapshot(documents: [document("m2", at: 10)], changes: [], readTime: at(40), isInitial: false))
    #expect(store.limboNames == [m1])
    store.resolveLimbo(m1, nil)
    #expect(delivered.last?.documents.map(\.name) == ["\(Self.root)/favorites/m2"])
    #expect(delivered.last?.isFromCache == false)
    #expect(store.limboNames.isEmpty)
    #expect(!store.isCached(m1))
  }

  @Test("a document the server removed goes at once; one a pending write shows needs no listen")
  func removalsThatNeedNoLimbo() {
    let store = store()
    let (id, delivered) = addView(store)
    let m1 = "\(Self.root)/favorites/m1"
    let m2 = "\(Self.root)/favorites/m2"
    store.applyWatch(
      id, WatchSnapshot(documents: [document("m1", at: 10), document("m2", at: 10)], changes: [], readTime: at(11), isInitial: true))
    store.applyWatch(
      id, WatchSnapshot(documents: [document("m2", at: 10)], changes: [], readTime: at(20), isInitial: false, removedByServer: [m1]))
    #expect(delivered.last?.documents.map(\.name) == [m2])
    #expect(delivered.last?.isFromCache == false)
    _ = store.enqueue([write("m2")], body: Data(), user: nil)
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(30), isInitial: false))
    #expect(delivered.last?.documents.map(\.name) == [m2])
    #expect(store.limboNames.isEmpty)
  }

  @Test("an acknowledged write the listen never sent is kept until the document's own listen answers")
  func acknowledgedWriteInLimbo() {
    let (store, id, delivered, batch) = viewAfterWrite(to: "m1")
    let m1 = "\(Self.root)/favorites/m1"
    acknowledge(batch, in: store, at: 10)
    // Consistent past the commit, and without the document.
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(20), isInitial: false))
    #expect(delivered.last?.documents.map(\.name) == [m1], "the written document flickered out")
    #expect(store.limboNames == [m1])
    store.resolveLimbo(m1, document("m1", at: 10))
    #expect(delivered.last?.documents.map(\.name) == [m1])
    #expect(delivered.last?.pendingNames.isEmpty == true)
    store.applyWatch(id, WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: at(30), isInitial: false))
    #expect(delivered.last?.isFromCache == false)
    #expect(store.limboNames.isEmpty)
    #expect(store.unsettledBatchCount == 0)
  }

  @Test("a write acknowledged after a listen consistent past its commit without the document keeps it, in limbo")
  func ackAfterSnapshotWithoutTheDocument() {
    let (store, id, delivered, batch) = viewAfterWrite(to: "m1")
    let m1 = "\(Self.root)/favorites/m1"
    // The listen passes the commit (at 10) without the document before the answer comes.
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(20), isInitial: false))
    #expect(store.limboNames.isEmpty, "a write not yet acknowledged answers for its document")
    acknowledge(batch, in: store, at: 10)
    #expect(delivered.last?.documents.map(\.name) == [m1], "the written document flickered out")
    #expect(store.limboNames == [m1])
    #expect(delivered.last?.isFromCache == true)
  }

  @Test("an acknowledged write the listen has not reached yet is shown by the write, with no limbo listen")
  func ackedWriteAheadOfTheListen() {
    let (store, id, delivered, first) = viewAfterWrite(to: "m1")
    let m1 = "\(Self.root)/favorites/m1"
    let m2 = "\(Self.root)/favorites/m2"
    let (second, _) = store.enqueue([write("m2")], body: Data(), user: nil)
    acknowledge(first, in: store, at: 10)
    acknowledge(second, in: store, at: 11)
    // The listen reaches the first commit, not the second.
    store.applyWatch(id, WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: at(10), isInitial: false))
    #expect(delivered.last?.documents.map(\.name) == [m1, m2])
    #expect(store.limboNames.isEmpty)
    #expect(delivered.last?.isFromCache == false)
    #expect(delivered.last?.pendingNames == [m2])
  }

  @Test("a rejected write over a document the re-sent results left out shows it again, in limbo; a new write takes it out")
  func rejectedWriteOverLimboDocument() {
    let store = store()
    let (id, delivered) = addView(store)
    let m1 = "\(Self.root)/favorites/m1"
    store.applyWatch(id, WatchSnapshot(documents: [document("m1", at: 10)], changes: [], readTime: at(11), isInitial: true))
    let (batch, _) = store.enqueue([write("m1")], body: Data(), user: nil)
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(20), isInitial: false))
    _ = store.finishSend(batch, .rejected(outcomeUnknown: false))
    #expect(delivered.last?.documents.map(\.updateTime) == [at(10)], "the document the write was made over went")
    #expect(store.limboNames == [m1])
    // A new write answers for the document: no longer in limbo, and the view back in sync.
    _ = store.enqueue([write("m1")], body: Data(), user: nil)
    #expect(store.limboNames.isEmpty)
    #expect(delivered.last?.isFromCache == false)
  }

  @Test(
    "a pending increment shows its own result, also over a server version that has it already, with a cache or none",
    arguments: [nil, 5] as [Int64?], [.memory(), .none] as [LocalCacheSettings])
  func pendingIncrementOnce(_ before: Int64?, cache: LocalCacheSettings) {
    let store = store(cache)
    let (id, delivered) = addView(store)
    let name = "\(Self.root)/favorites/c"
    func counter(_ n: Int64, at seconds: Int64) -> Document {
      Document(
        name: name, fields: ["n": .integer(n)], createTime: Timestamp(seconds: 1, nanoseconds: 0),
        updateTime: Timestamp(seconds: seconds, nanoseconds: 0))
    }
    func shown() -> Value? { delivered.last?.documents.first { $0.name == name }?.fields["n"] }
    store.applyWatch(
      id,
      WatchSnapshot(
        documents: before.map { [counter($0, at: 1)] } ?? [], changes: [], readTime: Timestamp(seconds: 2, nanoseconds: 0),
        isInitial: true))
    let increment = Write(
      operation: .update(Document(name: name, fields: [:])), updateMask: [],
      updateTransforms: [FieldTransform(fieldPath: "n", kind: .increment(.integer(1)))])
    let expected = (before ?? 0) + 1
    // Twice in one batch, then once more: each starts where the one before it left off.
    let (first, _) = store.enqueue([increment, increment], body: Data(), user: nil)
    #expect(shown() == .integer(expected + 1))
    let (second, _) = store.enqueue([increment], body: Data(), user: nil)
    #expect(shown() == .integer(expected + 2))
    // The listen answers before the first commit does, with that commit applied.
    store.applyWatch(
      id,
      WatchSnapshot(
        documents: [counter(expected + 1, at: 3)], changes: [], readTime: Timestamp(seconds: 3, nanoseconds: 0), isInitial: false))
    #expect(shown() == .integer(expected + 2), "an increment the server version has was added again")
    #expect(delivered.last?.pendingNames == [name])
    let commit = Timestamp(seconds: 3, nanoseconds: 0)
    _ = store.finishSend(
      first,
      .acknowledged([
        WriteResult(updateTime: commit, commitTime: commit, transformResults: [.integer(expected)]),
        WriteResult(updateTime: commit, commitTime: commit, transformResults: [.integer(expected + 1)]),
      ]))
    #expect(shown() == .integer(expected + 2))
    let later = Timestamp(seconds: 4, nanoseconds: 0)
    _ = store.finishSend(
      second, .acknowledged([WriteResult(updateTime: later, commitTime: later, transformResults: [.integer(expected + 2)])]))
    store.applyWatch(
      id,
      WatchSnapshot(
        documents: [counter(expected + 2, at: 4)], changes: [], readTime: Timestamp(seconds: 5, nanoseconds: 0), isInitial: false))
    #expect(shown() == .integer(expected + 2))
    #expect(delivered.last?.pendingNames.isEmpty == true)
    let values = delivered.snapshots.withLock { $0 }.compactMap { $0.documents.first { $0.name == name }?.fields["n"] }
    #expect(values.allSatisfy { if case .integer(let n) = $0 { n <= expected + 2 } else { false } }, "shown: \(values)")
  }

  @Test("the stream going down marks the view from the cache; its target back in sync unmarks it")
  func staleWhileDisconnected() {
    let store = store()
    let (id, delivered) = addView(store)
    store.applyWatch(
      id, WatchSnapshot(documents: [document("a", at: 1)], changes: [], readTime: Timestamp(seconds: 2, nanoseconds: 0), isInitial: true))
    #expect(delivered.last?.isFromCache == false)
    store.listenConnectionLost()
    #expect(delivered.last?.isFromCache == true)
    #expect(delivered.last?.documents.count == 1, "the data stays")
    let before = delivered.count
    store.applyWatch(
      id, WatchSnapshot(documents: [document("a", at: 1)], changes: [], readTime: Timestamp(seconds: 3, nanoseconds: 0), isInitial: false))
    #expect(delivered.count == before + 1)
    #expect(delivered.last?.isFromCache == false)
  }

  @Test("with the stream down, a new view's first snapshot comes from the cache even when empty")
  func offlineFirstSnapshot() {
    let store = store()
    let (_, online) = addView(store)
    #expect(online.count == 0, "online, an empty cache waits for the server")
    store.listenConnectionLost()
    let (_, offline) = addView(store)
    #expect(offline.count == 1 && offline.last?.isFromCache == true && offline.last?.documents.isEmpty == true)
  }

  @Test("a cache-only view answers at once and hears of documents other reads bring into the cache")
  func cacheOnlyView() {
    let store = store()
    let (_, delivered) = addView(store, source: .cache)
    #expect(delivered.count == 1 && delivered.last?.documents.isEmpty == true && delivered.last?.isFromCache == true)
    store.didRead([(name: "\(Self.root)/favorites/x", document: document("x", at: 5))])
    store.flush()
    #expect(delivered.last?.documents.count == 1 && delivered.last?.isFromCache == true)
  }

  @Test(
    "a cache-only view keeps an acknowledged write it showed pending as pending, until the server's version reaches the cache",
    arguments: [false, true])
  func cacheOnlyViewHoldsAcknowledged(stamped: Bool) {
    let store = store()
    let (_, delivered) = addView(store, source: .cache)
    let name = "\(Self.root)/favorites/w"
    var write = write("w")
    if stamped { write.updateTransforms = [FieldTransform(fieldPath: "at", kind: .serverTimestamp)] }
    let (batch, _) = store.enqueue([write], body: Data(), user: nil)
    #expect(delivered.last?.pendingNames == [name])
    let shownPending = delivered.count
    let shownFields = delivered.last?.documents.map(\.fields)
    let result = WriteResult(updateTime: at(10), commitTime: at(10), transformResults: stamped ? [.timestamp(at(10))] : [])
    _ = store.finishSend(batch, .acknowledged([result]))
    store.flush()
    #expect(delivered.count == shownPending, "the acknowledgement alone changed what the view shows")
    // A write to another document: the first stays shown pending, with the data it had.
    let (other, _) = store.enqueue([self.write("x")], body: Data(), user: nil)
    #expect(delivered.count == shownPending + 1)
    #expect(delivered.last?.pendingNames == [name, "\(Self.root)/favorites/x"])
    #expect(delivered.last?.documents.first { $0.name == name }.map(\.fields) == shownFields?.first)
    _ = store.finishSend(other, .acknowledged([WriteResult(updateTime: at(11), commitTime: at(11), transformResults: [])]))
    store.flush()
    // An older version read from the server does not confirm the write; its own version does.
    store.didRead([(name: name, document: document("w", at: 5))])
    store.flush()
    #expect(delivered.count == shownPending + 1)
    var confirmed = document("w", at: 10)
    if stamped { confirmed.fields["at"] = .timestamp(at(10)) }
    store.didRead([(name: name, document: confirmed)], readTime: at(12))
    store.flush()
    #expect(delivered.count == shownPending + 2)
    #expect(delivered.last?.pendingNames == ["\(Self.root)/favorites/x"])
    #expect(delivered.last?.documents.first { $0.name == name }.map(\.fields) == confirmed.fields)
  }

  @Test(
    "a server timestamp reaches a listener pending, then settled once the listen has it; not with the server's time while pending",
    arguments: [false, true])
  func serverTimestampWaitsForListen(listenFirst: Bool) {
    let store = store()
    let (id, delivered) = addView(store)
    let name = "\(Self.root)/favorites/t"
    let at = { (seconds: Int64) in Timestamp(seconds: seconds, nanoseconds: 0) }
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(1), isInitial: true))
    let stamped = Write(
      operation: .update(Document(name: name, fields: ["a": .integer(1)])),
      updateTransforms: [FieldTransform(fieldPath: "at", kind: .serverTimestamp)])
    let (batch, _) = store.enqueue([stamped], body: Data(), user: nil)
    #expect(delivered.last?.pendingNames == [name])
    let shownPending = delivered.count
    let server = Document(name: name, fields: ["a": .integer(1), "at": .timestamp(at(10))], createTime: at(10), updateTime: at(10))
    let acknowledge = {
      let result = WriteResult(updateTime: at(10), commitTime: at(10), transformResults: [.timestamp(at(10))])
      _ = store.finishSend(batch, .acknowledged([result]))
      store.flush()
    }
    if listenFirst {
      // The listen has the commit before its acknowledgement comes: the pending write
      // applies over that version, and only the value its placeholder replaces changed.
      store.applyWatch(id, WatchSnapshot(documents: [server], changes: [], readTime: at(10), isInitial: false))
      #expect(delivered.count == shownPending)
      acknowledge()
    } else {
      acknowledge()
      #expect(delivered.count == shownPending, "the server's time shown while the write still counts as pending")
      store.applyWatch(id, WatchSnapshot(documents: [server], changes: [], readTime: at(11), isInitial: false))
    }
    #expect(delivered.count == shownPending + 1)
    #expect(delivered.last?.documents.map(\.fields) == [server.fields])
    #expect(delivered.last?.pendingNames.isEmpty == true)
  }

  @Test("a listen's word that a document is missing, older than this client's commit to it, is not kept")
  func missingOlderThanCommit() {
    let store = store()
    let name = "\(Self.root)/favorites/c"
    let at = { (seconds: Int64) in Timestamp(seconds: seconds, nanoseconds: 0) }
    let id = store.addView(.document(name: name, path: "favorites/c"), includeMetadataChanges: false) { _ in }
    // A merge whose outcome the cache cannot compute (no version before it) is acknowledged
    // before the listen's first answer, which was read before the commit.
    let merge = Write(operation: .update(Document(name: name, fields: ["n": .integer(1)])), updateMask: ["n"])
    let (batch, _) = store.enqueue([merge], body: Data(), user: nil)
    _ = store.finishSend(batch, .acknowledged([WriteResult(updateTime: at(10), commitTime: at(10), transformResults: [])]))
    store.flush()
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(5), isInitial: true))
    store.removeView(id)
    #expect(store.document(name) == nil, "the cache claims the document is missing, though this client wrote it after")
    // A word from after the commit is kept.
    store.didRead([(name: name, document: nil)], readTime: at(11))
    store.flush()
    #expect(store.document(name).map { $0.document == nil } == true)
  }

  @Test("a document the server answered before, but whose state the cache let go since, gives no first snapshot from the cache")
  func answeredButLetGo() {
    let store = store()
    let name = "\(Self.root)/favorites/c"
    let query = ViewQuery.document(name: name, path: "favorites/c")
    let at = { (seconds: Int64) in Timestamp(seconds: seconds, nanoseconds: 0) }
    let first = store.addView(query, includeMetadataChanges: false) { _ in }
    store.applyWatch(first, WatchSnapshot(documents: [], changes: [], readTime: at(5), isInitial: true))
    // A merge over it, acknowledged: the cache cannot tell the outcome and lets it go.
    let merge = Write(operation: .update(Document(name: name, fields: ["n": .integer(1)])), updateMask: ["n"])
    let (batch, _) = store.enqueue([merge], body: Data(), user: nil)
    _ = store.finishSend(batch, .acknowledged([WriteResult(updateTime: at(10), commitTime: at(10), transformResults: [])]))
    store.flush()
    store.removeView(first)
    let delivered = Locked(0)
    _ = store.addView(query, includeMetadataChanges: false) { _ in delivered.withLock { $0 += 1 } }
    #expect(delivered.value == 0, "a first snapshot from the cache claimed the document missing")
  }

  @Test("the word that a document is missing stands against an older version and gives way to a newer one")
  func missingAgainstVersions() {
    let store = store()
    let name = "\(Self.root)/favorites/x"
    store.didRead([(name: name, document: nil)], readTime: Timestamp(seconds: 10, nanoseconds: 0))
    store.flush()
    #expect(store.document(name).map { $0.document == nil } == true, "known missing")
    // A version from before the read that found it missing arrives late.
    store.didRead([(name: name, document: document("x", at: 5))])
    store.flush()
    #expect(store.document(name).map { $0.document == nil } == true, "the stale version is not stored")
    // Created again after it.
    store.didRead([(name: name, document: document("x", at: 12))])
    store.flush()
    #expect(store.document(name)?.document?.updateTime == Timestamp(seconds: 12, nanoseconds: 0))
    // Missing again, with no time said (a 404): it cannot be ordered against the version
    // held, which goes, and the cache tells nothing.
    store.didRead([(name: name, document: nil)])
    store.flush()
    #expect(store.document(name) == nil)
    // With nothing held, the same word is kept.
    store.didRead([(name: name, document: nil)])
    store.flush()
    #expect(store.document(name).map { $0.document == nil } == true)
  }

  @Test("a complete query result drops the cached matches it left out, but not those with a write in flight; a cut one drops none")
  func completeResultDropsWhatItLeftOut() {
    let store = store()
    let name = { (id: String) in "\(Self.root)/favorites/\(id)" }
    store.didRead(["a", "b", "c", "d"].map { (name: name($0), document: document($0, at: 1)) })
    _ = store.enqueue([write("c")], body: Data(), user: nil)
    // A result cut by a limit says nothing of what it left out.
    store.didRunQuery(Self.view, results: [document("a", at: 2)], isComplete: false)
    store.flush()
    #expect(["a", "b", "c", "d"].allSatisfy { store.isCached(name($0)) })
    store.didRunQuery(Self.view, results: [document("a", at: 2), document("d", at: 2)], isComplete: true)
    store.flush()
    #expect(store.isCached(name("a")) && store.isCached(name("d")), "returned")
    #expect(!store.isCached(name("b")), "left out: changed or deleted on the server")
    #expect(store.isCached(name("c")), "left out, but a queued write builds on it")
  }

  @Test("reads nobody watches wait for the next look, up to a few dozen documents; then a task applies them")
  func unwatchedReadsWait() async {
    let store = store()
    let limit = LocalStore.unwatchedBacklogDocuments
    let names = (0..<limit).map { "\(Self.root)/favorites/r\($0)" }
    for (index, name) in names.dropLast().enumerated() { store.didRead([(name: name, document: document("r\(index)", at: 1))]) }
    #expect(store.backlogState == (limit - 1, false), "no task for reads nobody watches")
    #expect(store.backlogDrain == nil)
    // A view added now shows them at once: the look applies what waits.
    let (id, delivered) = addView(store, source: .cache)
    #expect(delivered.last?.documents.count == limit - 1)
    #expect(store.backlogState.waiting == 0)
    store.removeView(id)
    // Unwatched again: what waits is counted in documents, and the one that makes enough
    // starts a task.
    store.didRead(names.dropLast().map { (name: $0, document: nil) })
    #expect(store.backlogState == (1, false))
    store.didRead([(name: names[limit - 1], document: nil)])
    await store.backlogDrain?.value
    #expect(store.backlogState == (0, false))
  }

  @Test("with a listener open, a read reaches a cache-only view without anyone looking")
  func watchedReadsReachViews() async {
    let store = store()
    let (_, delivered) = addView(store, source: .cache)
    store.didRead([(name: "\(Self.root)/favorites/x", document: document("x", at: 5))])
    await store.backlogDrain?.value
    #expect(delivered.last?.documents.map(\.name) == ["\(Self.root)/favorites/x"])
  }

  @Test("a persistent cache gets a task for a single read, so that the file keeps up")
  func persistentCacheKeepsUp() async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = store(.persistent(directory: directory))
    store.didRead([(name: "\(Self.root)/favorites/x", document: document("x", at: 5))])
    await store.backlogDrain?.value
    #expect(store.backlogState == (0, false))
  }

  /// An acknowledgement of batch `id` (one write) as the server's answer gives it.
  private func acknowledge(_ store: LocalStore, _ id: Int, at seconds: Int64) {
    let time = Timestamp(seconds: seconds, nanoseconds: 0)
    _ = store.finishSend(id, .acknowledged([WriteResult(updateTime: time, commitTime: time, transformResults: [])]))
  }

  @Test("applyWhenDue: an acknowledgement nobody watches waits as reads do; with a listener a task applies it; a persistent cache at once")
  func applyWhenDue() async throws {
    let memory = store()
    let (first, _) = memory.enqueue([write("x")], body: Data("{}".utf8), user: nil)
    acknowledge(memory, first, at: 5)
    memory.applyWhenDue(acknowledgedDocuments: 1)
    #expect(memory.backlogState == (1, false), "no task for one document nobody watches")
    #expect(memory.backlogDrain == nil)
    memory.applyWhenDue(acknowledgedDocuments: LocalStore.unwatchedBacklogDocuments)
    let drain = try #require(memory.backlogDrain, "enough documents get a task")
    await drain.value
    #expect(memory.backlogState == (0, false))
    #expect(memory.unsettledBatchCount == 0)

    let watched = store()
    _ = addView(watched)
    let (second, _) = watched.enqueue([write("y")], body: Data("{}".utf8), user: nil)
    acknowledge(watched, second, at: 6)
    watched.applyWhenDue(acknowledgedDocuments: 1)
    await watched.backlogDrain?.value
    #expect(watched.backlogState == (0, false), "a listener gets it at once")
    #expect(watched.document("\(Self.root)/favorites/y")?.document?.updateTime == Timestamp(seconds: 6, nanoseconds: 0))

    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let persistent = store(.persistent(directory: directory))
    let (third, _) = persistent.enqueue([write("z")], body: Data("{}".utf8), user: nil)
    acknowledge(persistent, third, at: 7)
    persistent.applyWhenDue(acknowledgedDocuments: 1)
    #expect(persistent.backlogState.waiting == 0, "applied before applyWhenDue returned")
  }

  @Test("an acknowledgement waiting unwatched: later writes and sends leave it, an increment or a read applies it first")
  func acknowledgementWaitsForALook() throws {
    let store = store()
    let name = "\(Self.root)/favorites/x"
    let (first, _) = store.enqueue([write("x")], body: Data("{}".utf8), user: nil)
    acknowledge(store, first, at: 5)
    store.applyWhenDue(acknowledgedDocuments: 1)
    // A plain write, its send and its acknowledgement read no cached document.
    let (second, _) = store.enqueue([write("y")], body: Data("{}".utf8), user: nil)
    #expect(store.beginSend(second) != nil)
    acknowledge(store, second, at: 6)
    #expect(store.backlogState.waiting == 2)
    // An increment starts from the document as the server wrote it.
    var increment = Write(operation: .update(Document(name: name, fields: [:])), updateMask: [])
    increment.updateTransforms = [FieldTransform(fieldPath: "v", kind: .increment(.integer(1)))]
    _ = store.enqueue([increment], body: Data("{}".utf8), user: nil)
    #expect(store.backlogState.waiting == 0, "applied before the increment's base was taken")
    let shown = try #require(store.document(name))
    #expect(shown.document?.fields["v"] == .integer(2) && shown.pending)
    // A read applies what waits: the acknowledged document, no longer pending.
    let (third, _) = store.enqueue([write("z")], body: Data("{}".utf8), user: nil)
    acknowledge(store, third, at: 7)
    #expect(store.backlogState.waiting == 1)
    let z = try #require(store.document("\(Self.root)/favorites/z"))
    #expect(z.document?.updateTime == Timestamp(seconds: 7, nanoseconds: 0) && !z.pending)
    #expect(store.backlogState.waiting == 0)
    // A write of the same user leaves what waits; another user's first write applies it,
    // since the switch sorts the batches by whether the server has them.
    let alice = TokenUser.authenticated("alice")
    let (fourth, _) = store.enqueue([write("a")], body: Data("{}".utf8), user: alice)
    acknowledge(store, fourth, at: 8)
    _ = store.enqueue([write("b")], body: Data("{}".utf8), user: alice)
    #expect(store.backlogState.waiting == 1)
    _ = store.enqueue([write("c")], body: Data("{}".utf8), user: .authenticated("bob"))
    #expect(store.backlogState.waiting == 0)
  }

  @Test("an acknowledged batch's documents reach the cache in their last state, also when it writes one twice")
  func acknowledgedBatchReachesCache() throws {
    let store = store()
    let name = { (id: String) in "\(Self.root)/favorites/\(id)" }
    let time = Timestamp(seconds: 9, nanoseconds: 0)
    let results = { (count: Int) in (0..<count).map { _ in WriteResult(updateTime: time, commitTime: time, transformResults: []) } }
    // Each document once: each builds on the cache (here nothing) and is stored.
    let (once, _) = store.enqueue([write("a"), write("b")], body: Data("{}".utf8), user: nil)
    _ = store.finishSend(once, .acknowledged(results(2)))
    #expect(try #require(store.document(name("a"))).document?.fields == ["v": .integer(1)])
    #expect(try #require(store.document(name("b"))).pending == false)
    // One document twice: the second write builds on the first; a delete then a set leaves the set.
    let merge = Write(operation: .update(Document(name: name("a"), fields: ["w": .integer(2)])), updateMask: ["w"])
    let delete = Write(operation: .delete(name("b")))
    let set = Write(operation: .update(Document(name: name("a"), fields: ["v": .integer(3)])))
    let (twice, _) = store.enqueue([set, merge, delete, write("b")], body: Data("{}".utf8), user: nil)
    _ = store.finishSend(twice, .acknowledged(results(4)))
    let a = try #require(store.document(name("a")))
    #expect(a.document?.fields == ["v": .integer(3), "w": .integer(2)] && !a.pending)
    #expect(try #require(store.document(name("b"))).document?.fields == ["v": .integer(1)])
    #expect(store.unsettledBatchCount == 0)
  }

  @Test("a removal the server made before the cached version was updated leaves it: a delete's commit, a read, a complete result")
  func removalOlderThanCachedVersion() {
    let store = store()
    let name = { (id: String) in "\(Self.root)/favorites/\(id)" }
    store.didRead(["a", "b", "c", "d", "e", "f"].map { (name: name($0), document: document($0, at: 10)) })
    // Deletes committed before the cached version (learned later, so newer) and after it.
    let (early, _) = store.enqueue([Write(operation: .delete(name("a")))], body: Data(), user: nil)
    _ = store.finishSend(early, .acknowledged([WriteResult(updateTime: at(5), commitTime: at(5), transformResults: [])]))
    let (late, _) = store.enqueue([Write(operation: .delete(name("b")))], body: Data(), user: nil)
    _ = store.finishSend(late, .acknowledged([WriteResult(updateTime: at(15), commitTime: at(15), transformResults: [])]))
    // Found missing by reads at 5 s and at 15 s.
    store.didRead([(name: name("c"), document: nil)], readTime: at(5))
    store.didRead([(name: name("d"), document: nil)], readTime: at(15))
    store.flush()
    #expect(store.isCached(name("a")) && store.isCached(name("c")), "removed before the cached version")
    #expect(!store.isCached(name("b")) && !store.isCached(name("d")), "removed after it")
    // Left out of complete results read at 5 s and at 15 s.
    store.didRunQuery(
      Self.view, results: [document("a", at: 10), document("c", at: 10), document("f", at: 10)], isComplete: true, readTime: at(5))
    store.didRunQuery(
      Self.view, results: [document("a", at: 10), document("c", at: 10), document("e", at: 10)], isComplete: true, readTime: at(15))
    store.flush()
    #expect(store.isCached(name("e")) && !store.isCached(name("f")))
    // With no time for the removal (a GET answered 404), it goes.
    store.didRead([(name: name("a"), document: nil)])
    store.flush()
    #expect(!store.isCached(name("a")))
  }

  @Test("a listen's removal keeps the version the cache learned from after its read time")
  func listenRemovalOlderThanCachedVersion() {
    let store = store()
    let name = "\(Self.root)/favorites/g"
    let (id, _) = addView(store)
    store.applyWatch(id, WatchSnapshot(documents: [document("g", at: 3)], changes: [], readTime: at(4), isInitial: true))
    store.didRead([(name: name, document: document("g", at: 10))])
    store.flush()
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(6), isInitial: false, removedByServer: [name]))
    #expect(store.isCached(name), "updated at 10 s, after the snapshot's 6 s")
    store.applyWatch(id, WatchSnapshot(documents: [document("g", at: 10)], changes: [], readTime: at(11), isInitial: false))
    store.applyWatch(id, WatchSnapshot(documents: [], changes: [], readTime: at(12), isInitial: false, removedByServer: [name]))
    #expect(!store.isCached(name), "removed at 12 s")
  }

  @Test("a limbo listen's answer that the document is gone keeps the version the cache learned from after its read time")
  func limboRemovalOlderThanCachedVersion() {
    let (store, _, _, m1) = viewWithM1InLimbo()
    #expect(store.limboNames == [m1])
    store.didRead([(name: m1, document: document("m1", at: 30))])
    store.resolveLimbo(m1, nil, readTime: at(25))
    #expect(store.limboNames.isEmpty)
    #expect(store.isCached(m1), "updated at 30 s, after the limbo listen's 25 s")
  }

  @Test("eager garbage collection keeps only what views show and pending writes touch")
  func eagerCollection() {
    let store = store(.eagerMemory)
    store.didRead([(name: "\(Self.root)/favorites/read", document: document("read", at: 1))])
    store.flush()
    #expect(!store.isCached("\(Self.root)/favorites/read"), "nothing shows it")
    let (id, _) = addView(store)
    store.applyWatch(
      id,
      WatchSnapshot(documents: [document("shown", at: 1)], changes: [], readTime: Timestamp(seconds: 2, nanoseconds: 0), isInitial: true))
    #expect(store.isCached("\(Self.root)/favorites/shown"))
    store.removeView(id)
    #expect(!store.isCached("\(Self.root)/favorites/shown"))
  }
}
