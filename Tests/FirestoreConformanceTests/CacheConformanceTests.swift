import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The local cache and `FirestoreSource`, on the mock and the emulator alike: what the
/// server returns fills the cache, what it reports missing the cache keeps as missing, and
/// queries evaluated on the cache agree with the server's answers.
@Suite("Conformance: local cache")
struct CacheConformanceTests {
  private struct Favorite: Codable, Sendable {
    @ServerTimestamp var starredAt: Timestamp?
    var title: String
  }

  @Test(".cache after a server read returns the document, marked as from the cache", arguments: Backend.all)
  func cacheAfterServerRead(_ backend: Backend) async throws {
    let db = backend.firestore()
    let users = db.collection(backend.collection().path)
    try await backend.db.document(users.path + "/ada").setData(["name": "Ada", "born": 1815])
    let fresh = try await users.document("ada").getDocument(source: .server)
    #expect(fresh.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: false))
    let cached = try await users.document("ada").getDocument(source: .cache)
    #expect(cached.exists)
    #expect(cached.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: false))
    #expect(cached.get("name") as? String == "Ada")
    #expect(cached.updateTime == fresh.updateTime)
  }

  /// As in the Apple SDK, a one-time read's snapshot lists every document as added, in
  /// order, whichever source answered: code that walks `documentChanges` of a read, as of a
  /// listener's first snapshot, finds them all.
  @Test("a query read's documentChanges list every document as added, in order, from any source", arguments: Backend.all)
  func readsListAdditions(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    for (id, n) in [("a", 3), ("b", 1), ("c", 2)] { try await backend.db.document(items.path + "/" + id).setData(["n": n]) }
    let ordered = items.order(by: "n")
    let server = try await ordered.getDocuments(source: .server)
    let cached = try await ordered.getDocuments(source: .cache)
    try await db.disableNetwork()
    let offline = try await ordered.getDocuments()
    try await db.enableNetwork()
    for (source, snapshot) in [("server", server), ("cache", cached), ("offline default", offline)] {
      let changes = snapshot.documentChanges
      #expect(changes.map(\.document.documentID) == ["b", "c", "a"], "\(source)")
      #expect(changes.allSatisfy { $0.type == .added && $0.oldIndex == -1 }, "\(source)")
      #expect(changes.map(\.newIndex) == [0, 1, 2], "\(source)")
      #expect(snapshot.documentChanges(includeMetadataChanges: true).count == 3, "\(source)")
    }
  }

  /// The cache learns from a read after the caller has its result; nothing else need touch
  /// the cache for it to happen: a listener of the cache alone sees what reads brought.
  @Test("what a server read brings reaches cache-only listeners by itself", arguments: Backend.all)
  func serverReadsReachCacheListeners(_ backend: Backend) async throws {
    let db = backend.firestore()
    let users = db.collection(backend.collection().path)
    try await backend.db.document(users.path + "/ada").setData(["name": "Ada"])
    try await backend.db.document(users.path + "/bob").setData(["name": "Bob"])
    let cacheOnly = SnapshotListenOptions().withSource(.cache)
    let queryListener = SequenceCollector(users.snapshots(options: cacheOnly))
    let documentListener = SequenceCollector(users.document("ada").snapshots(options: cacheOnly))
    #expect(try await queryListener.next().isEmpty)
    #expect(try await documentListener.next().exists == false)

    let read = try await users.document("ada").getDocument(source: .server)
    #expect(read.get("name") as? String == "Ada")
    #expect(try await documentListener.next().get("name") as? String == "Ada")
    #expect(try await queryListener.next().documents.map(\.documentID) == ["ada"])

    let all = try await users.getDocuments(source: .server)
    #expect(all.documents.map(\.documentID) == ["ada", "bob"])
    #expect(try await queryListener.next().documents.map(\.documentID) == ["ada", "bob"])
    queryListener.cancel()
    documentListener.cancel()
  }

  /// As in the Apple SDK: a listener of the cache alone hears of its client's write once,
  /// pending, and not of the acknowledgement, which brings nothing from the server's own
  /// reads; nor of a transaction's write. The server's version, once a read brings it,
  /// settles the write.
  @Test(
    "a cache-only listener hears a write once, pending, until a read brings the server's version; not a transaction",
    arguments: Backend.all)
  func cacheListenerAndAcknowledgements(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    let options = SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)
    let listener = SequenceCollector(items.snapshots(options: options))
    let state = { (snapshot: QuerySnapshot) in
      snapshot.documents.map { "\($0.documentID)\($0.metadata.hasPendingWrites ? " pending" : "")" }
    }
    #expect(try await listener.next().isEmpty)
    try await items.document("a").setData(["k": "a"])
    #expect(state(try await listener.next()) == ["a pending"])
    _ = try await db.runTransaction { transaction, _ in
      transaction.setData(["k": "t"], forDocument: items.document("t"))
      return nil
    }
    // The next thing the listener hears is this write: neither the acknowledgement nor the
    // transaction came in between.
    try await items.document("b").setData(["k": "b"])
    #expect(state(try await listener.next()) == ["a pending", "b pending"])
    _ = try await items.getDocuments(source: .server)
    let settled = try await listener.next { $0.documents.count == 3 && !$0.metadata.hasPendingWrites }
    #expect(state(settled) == ["a", "b", "t"] && settled.metadata.isFromCache)
    listener.cancel()
  }

  /// Reads close together share one background task for their cache learning. A read after
  /// that task ran gets a task of its own; one made while someone else had just applied the
  /// backlog gets there too.
  @Test("reads in a row, looked at in between or not, all reach a cache-only listener", arguments: Backend.all)
  func readsInARowReachCacheListeners(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    let ids = ["d0", "d1", "d2", "d3"]
    for id in ids { try await backend.db.document(items.path + "/" + id).setData(["id": id]) }
    let listener = SequenceCollector(items.snapshots(options: SnapshotListenOptions().withSource(.cache)))
    #expect(try await listener.next().isEmpty)
    let shown = { (snapshot: QuerySnapshot) in snapshot.documents.map(\.documentID) }
    // Nothing but the background task applies the first read.
    _ = try await items.document("d0").getDocument(source: .server)
    _ = try await listener.next { shown($0) == ["d0"] }
    _ = try await items.document("d1").getDocument(source: .server)
    _ = try await listener.next { shown($0) == ["d0", "d1"] }
    // A look through the cache applies what waits; the read right after it may find the
    // task still on its way.
    _ = try await items.document("d2").getDocument(source: .server)
    #expect(try await items.document("d2").getDocument(source: .cache).get("id") as? String == "d2")
    _ = try await items.document("d3").getDocument(source: .server)
    _ = try await listener.next { shown($0) == ids }
    listener.cancel()
  }

  @Test(".cache with nothing cached: a get is unavailable, a query is empty", arguments: Backend.all)
  func cacheWithNothing(_ backend: Backend) async throws {
    let db = backend.firestore()
    let users = db.collection(backend.collection().path)
    try await backend.db.document(users.path + "/ada").setData(["name": "Ada"])
    let error = await #expect(throws: FirestoreError.self) { try await users.document("ada").getDocument(source: .cache) }
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains(users.path + "/ada") == true)
    let empty = try await users.getDocuments(source: .cache)
    #expect(empty.isEmpty)
    #expect(empty.metadata.isFromCache)
  }

  /// A merge (or `mergeFields`) over a document the cache does not hold makes a document
  /// whatever the server holds, as the Apple SDK's local view shows it; an update, which
  /// needs the document to exist, says nothing of it.
  @Test("a pending merge over a document the cache does not hold reads from the cache; a pending update does not", arguments: Backend.all)
  func pendingMergeOfUnknownDocument(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await db.disableNetwork()
    items.document("merged").setData(["a": 1], merge: true, completion: nil)
    items.document("fields").setData(["a": 1, "b": 2], mergeFields: ["a"], completion: nil)
    items.document("updated").updateData(["a": 1], completion: nil)
    for (id, expected) in [("merged", ["a": 1]), ("fields", ["a": 1])] {
      let snapshot = try await items.document(id).getDocument(source: .cache)
      #expect(snapshot.data() as? [String: Int] == expected, "\(id)")
      #expect(snapshot.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: true), "\(id)")
    }
    let error = await #expect(throws: FirestoreError.self) { try await items.document("updated").getDocument(source: .cache) }
    #expect(error?.code == .unavailable)
    try await db.enableNetwork()
    try await db.waitForPendingWrites()
  }

  /// The Apple SDK's cache keeps a `NoDocument` for a document its client deleted or found
  /// missing, and its integration tests read it back with the network disabled: no error,
  /// a snapshot that does not exist, from the cache. Only a document the cache knows nothing
  /// of is `unavailable`.
  @Test(
    "a document deleted through this client or found missing reads from the cache as missing, offline too",
    arguments: Backend.all, [false, true])
  func missingFromCache(_ backend: Backend, persistent: Bool) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = backend.firestore { if persistent { $0.cache = .persistent(directory: directory) } }
    let items = db.collection(backend.collection().path)
    try await items.document("deleted").setData(["v": 1])
    try await items.document("deleted").delete()
    #expect(try await items.document("never").getDocument().exists == false)
    #expect(try await db.getAll([items.document("batched")]).first?.exists == false)

    try await db.disableNetwork()
    for id in ["deleted", "never", "batched"] {
      for source in [FirestoreSource.cache, .default] {
        let snapshot = try await items.document(id).getDocument(source: source)
        #expect(!snapshot.exists, "\(id), \(source)")
        #expect(snapshot.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: false), "\(id), \(source)")
      }
    }
    let error = await #expect(throws: FirestoreError.self) { try await items.document("unknown").getDocument(source: .cache) }
    #expect(error?.code == .unavailable)
    #expect(try await items.getDocuments(source: .cache).isEmpty, "a missing document is in no query's results")

    // Created elsewhere: the next read replaces the word that it is missing.
    try await db.enableNetwork()
    try await backend.db.document(items.path + "/never").setData(["v": 2])
    #expect(try await items.document("never").getDocument().get("v") as? Int == 2)
    #expect(try await items.document("never").getDocument(source: .cache).get("v") as? Int == 2)
    #expect(try await items.getDocuments(source: .cache).documents.map(\.documentID) == ["never"])
  }

  /// The Apple SDK raises a listener's first snapshot from the cache for a query it holds
  /// results for, even empty ones (its integration tests read an empty collection, or
  /// delete its only document, then listen). An eager cache keeps no results once nothing
  /// listens, so its listener waits for the server.
  @Test(
    "a listener's first snapshot comes from the cache when the server answered the query before, even empty",
    arguments: Backend.all, [LocalCacheSettings.memory(), .eagerMemory])
  func firstSnapshotFromCachedEmptyResults(_ backend: Backend, cache: LocalCacheSettings) async throws {
    let db = backend.firestore { $0.cache = cache }
    // A handshake slower than its timeout on a busy machine would take the listen offline,
    // and an offline listener gets a first snapshot from the cache, even empty: the
    // handshake's deadline is the test's, and never passes.
    let deadline = ManualTimer()
    await db.listenManager.setRequestTimer { try await deadline.wait($0) }
    let empty = db.collection(backend.collection().path)
    #expect(try await empty.getDocuments().isEmpty)
    let emptied = db.collection(backend.collection().path)
    try await emptied.document("a").setData(["foo": 1])
    #expect(try await emptied.getDocuments().count == 1)
    try await emptied.document("a").delete()
    for query in [empty, emptied] {
      let collector = SequenceCollector(query.snapshots(includeMetadataChanges: true))
      let first = try await collector.next()
      #expect(first.isEmpty)
      #expect(first.metadata.isFromCache == (cache != .eagerMemory), "\(query.path)")
      let synced = first.metadata.isFromCache ? try await collector.next { !$0.metadata.isFromCache } : first
      #expect(synced.isEmpty)
      collector.cancel()
    }
  }

  @Test("a listener keeps the cache up to date", arguments: Backend.all)
  func listenerUpdatesCache(_ backend: Backend) async throws {
    let db = backend.firestore()
    let path = backend.collection().path + "/doc"
    let collector = SequenceCollector(db.document(path).snapshots)
    #expect(try await collector.next().exists == false)
    // Another client writes; this one learns it only through its listener.
    try await backend.db.document(path).setData(["v": 1])
    #expect(try await collector.next().get("v") as? Int == 1)
    #expect(try await db.document(path).getDocument(source: .cache).get("v") as? Int == 1)
    try await backend.db.document(path).setData(["v": 2])
    #expect(try await collector.next().get("v") as? Int == 2)
    #expect(try await db.document(path).getDocument(source: .cache).get("v") as? Int == 2)
    try await backend.db.document(path).delete()
    #expect(try await collector.next().exists == false)
    // The cache keeps the listener's word that it is gone, as the Apple SDK keeps a
    // `NoDocument`: a read from the cache answers "missing", not "not cached".
    let gone = try await db.document(path).getDocument(source: .cache)
    #expect(!gone.exists && gone.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: false))
    collector.cancel()
  }

  @Test(
    "a complete query drops the cached matches it no longer returns; a limited query and a vector search drop none",
    arguments: Backend.all)
  func completeQueryPrunes(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    for (id, v) in [("a", 1.0), ("b", 2.0), ("c", 3.0)] {
      try await backend.db.document(items.path + "/" + id).setData(["v": v, "e": FieldValue.vector([v, 0])])
    }
    _ = try await items.getDocuments()
    db.localStore.flush()
    let cached = { Set(try await items.getDocuments(source: .cache).documents.map(\.documentID)) }
    #expect(try await cached() == ["a", "b", "c"])
    // Deleted elsewhere. A bounded answer does not say c is gone: it may lie past the bound.
    try await backend.db.document(items.path + "/c").delete()
    #expect(try await items.order(by: "v").limit(to: 1).getDocuments().documents.map(\.documentID) == ["a"])
    let nearest = items.findNearest(vectorField: "e", queryVector: [2, 0], limit: 1, distanceMeasure: .euclidean)
    #expect(try await nearest.getDocuments().documents.map(\.documentID) == ["b"])
    db.localStore.flush()
    #expect(try await cached() == ["a", "b", "c"])
    // A complete answer does: c matches v > 1 locally, and the server left it out.
    #expect(try await items.whereField("v", isGreaterThan: 1).getDocuments().documents.map(\.documentID) == ["b"])
    db.localStore.flush()
    #expect(try await cached() == ["a", "b"])
  }

  @Test(
    "a document found missing on the server leaves the cache, or reads from it as missing when the server said when",
    arguments: Backend.all)
  func notFoundRemoves(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await backend.db.document(items.path + "/a").setData(["v": 1])
    try await backend.db.document(items.path + "/b").setData(["v": 2])
    _ = try await items.getDocuments()
    #expect(try await items.getDocuments(source: .cache).count == 2)
    // Deleted by someone else: a get, a batch get and a query each find it missing.
    try await backend.db.document(items.path + "/a").delete()
    try await backend.db.document(items.path + "/b").delete()
    // A get's 404 says no time: it cannot be ordered against the version held, which goes.
    #expect(try await items.document("a").getDocument(source: .server).exists == false)
    await #expect(throws: FirestoreError.self) { try await items.document("a").getDocument(source: .cache) }
    #expect(try await db.getAll([items.document("b")]).first?.exists == false)
    let b = try await items.document("b").getDocument(source: .cache)
    #expect(!b.exists && b.metadata.isFromCache)
    try await backend.db.document(items.path + "/c").setData(["v": 3])
    _ = try await items.document("c").getDocument()
    try await backend.db.document(items.path + "/c").delete()
    #expect(try await items.getDocuments(source: .server).isEmpty)
    #expect(try await items.getDocuments(source: .cache).isEmpty)
  }

  @Test("queries on the cache give the server's results", arguments: Backend.all)
  func localQueriesMatchServer(_ backend: Backend) async throws {
    let db = backend.firestore()
    let root = backend.collection()
    let cities = db.collection(root.path + "/us/cities")
    let batch = backend.db.batch()
    let rows: [(String, [String: any Sendable])] = [
      ("sf", ["name": "San Francisco", "state": "CA", "pop": 860_000, "tags": ["coast", "tech"], "area": 121.4]),
      ("la", ["name": "Los Angeles", "state": "CA", "pop": 3_900_000, "tags": ["coast"], "area": 1302.0]),
      ("sd", ["name": "San Diego", "state": "CA", "pop": 1_380_000, "tags": ["coast", "navy"]]),
      ("ny", ["name": "New York", "state": "NY", "pop": 8_300_000, "tags": ["tech"], "area": 783.8]),
      ("bo", ["name": "Boston", "state": "MA", "pop": 650_000, "tags": ["tech", "coast"], "area": 232.1]),
      ("au", ["name": "Austin", "state": "TX", "pop": 960_000, "tags": [] as [any Sendable], "area": 827.0]),
      ("ch", ["name": "Chicago", "state": "IL", "pop": 2_700_000, "area": NSNull()]),
      ("dv", ["name": "Denver", "state": "CO", "pop": 715_000.5, "tags": ["mountain"], "area": Double.nan]),
    ]
    for (id, data) in rows { batch.setData(data, forDocument: backend.db.document(cities.path + "/" + id)) }
    // A city in another country's collection, for the collection group.
    batch.setData(["name": "Toronto", "state": "ON", "pop": 2_790_000], forDocument: backend.db.document(root.path + "/ca/cities/to"))
    try await batch.commit()
    // Fill the cache: the whole collection and the group.
    _ = try await cities.getDocuments()
    _ = try await db.collectionGroup(cities.collectionID).getDocuments()

    let queries: [(String, Query)] = [
      ("equality", cities.whereField("state", isEqualTo: "CA")),
      ("range + order", cities.whereField("pop", isGreaterThan: 900_000).order(by: "pop", descending: true)),
      ("not-in", cities.whereField("state", notIn: ["CA", "NY"])),
      ("not-equal", cities.whereField("state", isNotEqualTo: "CA")),
      ("array-contains", cities.whereField("tags", arrayContains: "tech")),
      ("array-contains-any", cities.whereField("tags", arrayContainsAny: ["navy", "mountain"])),
      ("in", cities.whereField("state", in: ["TX", "IL", "XX"])),
      (
        "or",
        cities.whereFilter(
          .orFilter([
            .whereField("state", isEqualTo: "NY"),
            .andFilter([.whereField("state", isEqualTo: "CA"), .whereField("pop", isLessThan: 1_000_000)]),
          ]))
      ),
      ("order + limit", cities.order(by: "name").limit(to: 3)),
      ("limit to last", cities.order(by: "pop").limit(toLast: 2)),
      ("cursors", cities.order(by: "pop").start(after: [700_000]).end(at: [2_700_000])),
      ("cursor before", cities.order(by: "name", descending: true).end(before: ["Chicago"])),
      ("missing field excluded by order", cities.order(by: "area")),
      ("null and NaN", cities.whereField("area", isEqualTo: NSNull())),
      ("offset", cities.order(by: "pop").offset(2).limit(to: 3)),
      ("group", db.collectionGroup(cities.collectionID).whereField("pop", isGreaterThan: 2_000_000).order(by: "pop")),
    ]
    for (name, query) in queries {
      let server = try await query.getDocuments(source: .server).documents.map(\.reference.path)
      let cached = try await query.getDocuments(source: .cache)
      #expect(cached.documents.map(\.reference.path) == server, "\(name)")
      #expect(cached.metadata.isFromCache, "\(name)")
      #expect(!server.isEmpty, "\(name) should match something")
    }
  }

  @Test("a listener's first snapshot comes from the cache, then the server confirms it", arguments: Backend.all)
  func listenerCacheFirst(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await backend.db.document(items.path + "/a").setData(["n": 1])
    _ = try await items.getDocuments()
    let collector = SequenceCollector(items.snapshots(includeMetadataChanges: true))
    let first = try await collector.next()
    #expect(first.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: false))
    #expect(first.documents.map(\.documentID) == ["a"])
    #expect(first.readTime == nil)
    let second = try await collector.next()
    #expect(second.metadata == SnapshotMetadata(isFromCache: false, hasPendingWrites: false))
    #expect(second.documentChanges.isEmpty)
    #expect(second.documents.map(\.documentID) == ["a"])
    collector.cancel()

    // Without metadata changes the server's identical answer is not delivered again.
    let quiet = SequenceCollector(items.snapshots)
    #expect(try await quiet.next().metadata.isFromCache)
    try await backend.db.document(items.path + "/b").setData(["n": 2])
    // Generous: an emulator on a busy machine can take seconds to deliver a change.
    let next = try await quiet.next(timeout: .seconds(30))
    #expect(next.documents.map(\.documentID) == ["a", "b"])
    #expect(!next.metadata.isFromCache)
    quiet.cancel()
  }

  @Test("latency compensation: a local write shows at once, pending, then confirmed", arguments: Backend.all)
  func latencyCompensation(_ backend: Backend) async throws {
    let db = backend.firestore()
    let favorites = db.collection(backend.collection().path)
    let collector = SequenceCollector(favorites.order(by: "starredAt").snapshots(includeMetadataChanges: true))
    #expect(try await collector.nextFromServer().isEmpty)
    try await favorites.document("meal1").setData(["starredAt": FieldValue.serverTimestamp(), "title": "Soup"])
    let pending = try await collector.next()
    #expect(pending.metadata.hasPendingWrites)
    #expect(pending.documents.map(\.documentID) == ["meal1"])
    let doc = try #require(pending.documents.first)
    #expect(doc.metadata.hasPendingWrites)
    #expect((doc.get("starredAt") as? NSNull) != nil)
    #expect((doc.get("starredAt", serverTimestampBehavior: .estimate) as? Timestamp) != nil)
    #expect((doc.get("starredAt", serverTimestampBehavior: .previous) as? NSNull) != nil)
    #expect(doc.get("title") as? String == "Soup")
    #expect(try doc.data(as: Favorite.self).starredAt == nil)
    #expect(try doc.snapshot.data(as: Favorite.self, with: .estimate).starredAt != nil)
    let confirmed = try await collector.next { !$0.metadata.hasPendingWrites }
    #expect((confirmed.documents.first?.get("starredAt") as? Timestamp) != nil)
    #expect(confirmed.documents.first?.metadata.hasPendingWrites == false)
    collector.cancel()
  }

  @Test(
    "listeners of one query share one view: a cache-only listener shows the state a server listener of the query has synced",
    arguments: Backend.all)
  func cacheListenerSharesTheSyncedView(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await backend.db.document(items.path + "/a").setData(["sort": 0])
    try await backend.db.document(items.path + "/b").setData(["sort": 1])
    let query = items.whereField("sort", isGreaterThanOrEqualTo: 1).order(by: "sort")
    let cacheOnly = SnapshotListenOptions().withSource(.cache).withIncludeMetadataChanges(true)

    // The cache listener comes first: the cache is empty, so it shows that, from the cache.
    let cached = SequenceCollector(query.snapshots(options: cacheOnly))
    let first = try await cached.next()
    #expect(first.isEmpty && first.metadata.isFromCache)
    // A server listener of the same query syncs; the cache listener follows it.
    let server = SequenceCollector(query.snapshots(includeMetadataChanges: true))
    #expect(try await server.nextFromServer().documents.map(\.documentID) == ["b"])
    let followed = try await cached.next { !$0.metadata.isFromCache }
    #expect(followed.documents.map(\.documentID) == ["b"])

    // A local write shows in both as pending, and its confirmation reaches both.
    try await items.document("c").setData(["sort": 2])
    let confirmed = try await cached.next { $0.count == 2 && !$0.metadata.hasPendingWrites }
    #expect(confirmed.documents.map(\.documentID) == ["b", "c"])
    #expect(!confirmed.metadata.isFromCache)
    #expect(cached.values.contains { $0.count == 2 && $0.metadata.hasPendingWrites && !$0.metadata.isFromCache })

    // A cache listener added while the server listener is in sync starts in sync.
    let late = SequenceCollector(query.snapshots(options: SnapshotListenOptions().withSource(.cache)))
    let lateFirst = try await late.next()
    #expect(lateFirst.documents.map(\.documentID) == ["b", "c"])
    #expect(!lateFirst.metadata.isFromCache)
    for collector in [cached, late] { collector.cancel() }
    server.cancel()
  }

  @Test(
    "a cache-only listener without metadata changes gets the server listener's first results once, already in sync",
    arguments: Backend.all)
  func cacheListenerFirstThenServer(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await backend.db.document(items.path + "/a").setData(["sort": 0])
    try await backend.db.document(items.path + "/b").setData(["sort": 1])
    let query = items.whereField("sort", isNotEqualTo: 0).order(by: "sort")
    let cached = SequenceCollector(query.snapshots(options: SnapshotListenOptions().withSource(.cache)))
    let first = try await cached.next()
    #expect(first.isEmpty && first.metadata.isFromCache)
    let server = SequenceCollector(query.snapshots(includeMetadataChanges: false))
    let synced = try await server.next()
    #expect(synced.documents.map(\.documentID) == ["b"] && !synced.metadata.isFromCache)
    // The documents the server listener brought into the cache come with its state: one
    // snapshot, not a cached one that a metadata change (which this listener does not
    // hear) would have to correct.
    let second = try await cached.next()
    #expect(second.documents.map(\.documentID) == ["b"])
    #expect(!second.metadata.isFromCache)
    cached.cancel()
    server.cancel()
  }

  /// Queues writes without waiting for the server, as synchronous code does.
  private static func writeWithoutWaiting(_ document: DocumentReference, set fields: [String: Any]) {
    document.setData(fields)
  }

  private static func writeWithoutWaiting(_ document: DocumentReference, update fields: [String: Any]) {
    document.updateData(fields)
  }

  @Test(
    "a pending server timestamp's .previous is the field's value from before the write, after a set and an update",
    arguments: Backend.all)
  func previousValueOfPendingTimestamp(_ backend: Backend) async throws {
    let db = backend.firestore()
    let document = db.document(backend.collection().path + "/d")
    let first = Timestamp(seconds: 1_700_000_000, nanoseconds: 0)
    try await document.setData(["at": first, "n": 1])
    try await db.disableNetwork()
    Self.writeWithoutWaiting(document, set: ["at": FieldValue.serverTimestamp()])
    let set = try await document.getDocument(source: .cache)
    #expect(set.metadata.hasPendingWrites)
    #expect(set.get("at", serverTimestampBehavior: .previous) as? Timestamp == first)
    #expect(set.get("n") == nil, "the set replaced the document")
    Self.writeWithoutWaiting(document, update: ["at": FieldValue.serverTimestamp()])
    let updated = try await document.getDocument(source: .cache)
    #expect(updated.get("at", serverTimestampBehavior: .previous) as? Timestamp == first, "a placeholder over one keeps the first value")
    try await db.enableNetwork()
    try await db.waitForPendingWrites()
    let confirmed = try await document.getDocument(source: .server)
    let confirmedTime = confirmed.get("at") as? Timestamp
    #expect(confirmedTime.map { $0 > first } == true, "the server's time replaced the placeholder")
    try await db.terminate()
  }

  /// The server's version of a document can reach a listener before the commit that
  /// changed it answers, with the change in it. A pending increment applied again over that
  /// version would show the sum twice, then fall back once the commit answers.
  @Test(
    "a listener shows each increment of a counter once, also when the listen answers before the commit, with a cache or none",
    arguments: Backend.all, [.memory(), .none] as [LocalCacheSettings])
  func incrementShownOnce(_ backend: Backend, cache: LocalCacheSettings) async throws {
    let db = backend.firestore { $0.cache = cache }
    let counter = db.document(backend.collection().path + "/counter")
    let collector = SequenceCollector(counter.snapshots(includeMetadataChanges: true))
    #expect(try await !collector.nextFromServer().exists)
    for round in 1...20 {
      try await counter.setData(["n": FieldValue.increment(1)], merge: true)
      let shown = collector.values.compactMap { snapshot in
        (snapshot.get("n") as? Int).map { (n: $0, pending: snapshot.metadata.hasPendingWrites) }
      }
      // Only this client writes: every value shown so far is an increment it made, in order,
      // and one still pending is above every confirmed one before it.
      var confirmed = 0
      let ordered = shown.allSatisfy { value in
        defer { if !value.pending { confirmed = value.n } }
        return value.n <= round && value.n >= confirmed && (!value.pending || value.n > confirmed)
      }
      #expect(ordered, "after \(round) increments: \(shown.map { "\($0.n)\($0.pending ? " pending" : "")" })")
    }
    let settled = try await collector.wait("the confirmed count") { !$0.metadata.hasPendingWrites && !$0.metadata.isFromCache }
    #expect(settled.get("n") as? Int == 20)
    collector.cancel()
  }

  /// As the Apple SDK: the confirmation of a write whose data the listener already shows
  /// changes only metadata, which a listener without metadata changes does not hear of.
  @Test("without metadata changes, a listener hears of its own write once", arguments: Backend.all)
  func ownWriteOnce(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    let query = SequenceCollector(items.snapshots)
    let document = SequenceCollector(items.document("a").snapshots)
    #expect(try await query.next().isEmpty)
    #expect(try await !document.next().exists)
    for value in 1...3 {
      try await items.document("a").setData(["v": value])
      let shown = try await query.next()
      #expect(shown.documents.first?.get("v") as? Int == value)
      #expect(shown.documentChanges.map(\.type) == [value == 1 ? .added : .modified])
      #expect(try await document.next().get("v") as? Int == value)
    }
    // Sentinels written by another client, so they reach the listeners through the server's
    // stream, after any repeat of this client's writes: the next snapshot of each must be
    // the sentinel's change alone.
    let other = backend.db
    try await other.document("\(items.path)/z").setData(["v": 0])
    let sentinel = try await query.next()
    #expect(sentinel.documentChanges.map(\.document.documentID) == ["z"], "a repeat of a's write came first")
    try await other.document("\(items.path)/a").setData(["v": 4])
    #expect(try await document.next().get("v") as? Int == 4, "a repeat of a's write came first")
  }

  @Test("a rejected write is rolled back in listeners and its error reaches the caller", arguments: Backend.all)
  func rejectedWriteRollsBack(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await items.document("taken").setData(["v": 0])
    let collector = SequenceCollector(items.snapshots(includeMetadataChanges: true))
    let first = try await collector.nextFromServer()
    #expect(first.documents.map(\.documentID) == ["taken"])
    // The batch fails as a whole (the create finds the document existing).
    let batch = db.batch()
    batch.setData(["v": 1], forDocument: items.document("new"))
    batch.create(["v": 2], forDocument: items.document("taken"))
    let error = await #expect(throws: FirestoreError.self) { try await batch.commit() }
    #expect(error?.code == .alreadyExists)
    let shown = try await collector.next()
    #expect(shown.documents.map(\.documentID) == ["new", "taken"])
    #expect(shown.metadata.hasPendingWrites)
    let rolledBack = try await collector.next()
    #expect(rolledBack.documents.map(\.documentID) == ["taken"])
    #expect(rolledBack.documentChanges.map(\.type) == [.removed])
    #expect(!rolledBack.metadata.hasPendingWrites)
    await #expect(throws: FirestoreError.self) { try await items.document("new").getDocument(source: .cache) }
    collector.cancel()
  }

  @Test("writes through this client update the cache with the server's outcome", arguments: Backend.all)
  func writesUpdateCache(_ backend: Backend) async throws {
    let db = backend.firestore()
    let ref = db.document(backend.collection().path + "/counter")
    let written = try await ref.setData(["n": 1, "at": FieldValue.serverTimestamp()])
    var cached = try await ref.getDocument(source: .cache)
    #expect(cached.get("n") as? Int == 1)
    #expect(cached.get("at") as? Timestamp == written.transformResults.first.flatMap { if case .timestamp(let t) = $0 { t } else { nil } })
    #expect(cached.updateTime == written.updateTime)
    try await ref.updateData(["n": FieldValue.increment(2), "list": FieldValue.arrayUnion(["x"])])
    cached = try await ref.getDocument(source: .cache)
    let server = try await ref.getDocument(source: .server)
    #expect(cached.get("n") as? Int == 3)
    #expect(cached.fields == server.fields)
    #expect(cached.updateTime == server.updateTime)
    // Deleted: known missing since the commit, as the Apple SDK's cache-only read finds a
    // document this client deleted.
    try await ref.delete()
    let deleted = try await ref.getDocument(source: .cache)
    #expect(!deleted.exists && deleted.metadata == SnapshotMetadata(isFromCache: true, hasPendingWrites: false))
  }

  /// A whole-document set replaces the document before its transforms apply, so its
  /// outcome needs no cached version: the cache holds it once the server has it, as the
  /// Apple SDK's does (its array transform tests write to a document they never read).
  @Test("a set with transforms over a document this client never read is cached as the server has it", arguments: Backend.all)
  func setWithTransformsCached(_ backend: Backend) async throws {
    let db = backend.firestore()
    let ref = db.document(backend.collection().path + "/d")
    try await backend.db.document(ref.path).setData(["n": 5, "array": [9], "other": true])
    try await ref.setData(["array": FieldValue.arrayUnion([1, 2]), "n": FieldValue.increment(Int64(1))])
    let cached = try await ref.getDocument(source: .cache)
    let server = try await ref.getDocument(source: .server)
    #expect(server.data()?["array"] as? [Int] == [1, 2])
    #expect(server.get("n") as? Int == 1, "the set replaced the document: the increment starts from nothing")
    #expect(cached.fields == server.fields)
    #expect(!cached.metadata.hasPendingWrites)
  }

  @Test("settled writes are forgotten, also those a listener never shows", arguments: Backend.all)
  func settledWritesForgotten(_ backend: Backend) async throws {
    let db = backend.firestore()
    let tasks = db.collection(backend.collection().path)
    let collector = SequenceCollector(tasks.whereField("open", isEqualTo: true).snapshots(includeMetadataChanges: true))
    #expect(try await collector.nextFromServer().isEmpty)
    try await tasks.document("open").setData(["open": true])
    let snapshot = try await collector.next { !$0.metadata.hasPendingWrites }
    #expect(snapshot.documents.map(\.documentID) == ["open"])
    // Writes after the last change the listener sees: its listen reports nothing newer.
    for i in 0..<5 { try await tasks.document("closed\(i)").setData(["open": false]) }
    #expect(db.localStore.unsettledBatchCount == 0)
    #expect(collector.pending == 0)
    collector.cancel()
  }

  @Test("a projected listen (select) leaves its partial documents out of the cache", arguments: Backend.all)
  func projectedListenIsNotCached(_ backend: Backend) async throws {
    let db = backend.firestore()
    let cities = db.collection(backend.collection().path)
    try await backend.db.document(cities.path + "/sf").setData(["name": "San Francisco", "state": "CA"])
    var iterator = cities.selectDocumentIDs().snapshots.makeAsyncIterator()
    // The empty cache answers first when the listen's connection fails before the server does.
    var first = try #require(try await iterator.next())
    while first.metadata.isFromCache { first = try #require(try await iterator.next()) }
    #expect(first.documents.map(\.documentID) == ["sf"])
    #expect(first.documents.first?.data().isEmpty == true)
    // Nothing whole was read, so the cache has nothing to answer with.
    let error = await #expect(throws: FirestoreError.self) { try await cities.document("sf").getDocument(source: .cache) }
    #expect(error?.code == .unavailable)
    #expect(try await cities.getDocuments(source: .cache).isEmpty)
    // A whole read still fills it.
    _ = try await cities.document("sf").getDocument(source: .server)
    #expect(try await cities.document("sf").getDocument(source: .cache).get("state") as? String == "CA")
  }

  @Test(
    "with index auto creation, cache-only queries give the server's results and read through the indexes they create",
    arguments: Backend.all)
  func indexedCacheQueries(_ backend: Backend) async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = backend.firestore { $0.cache = .persistent(directory: directory) }
    let manager = try #require(db.persistentCacheIndexManager)
    let tickets = db.collection(backend.collection().path)
    let batch = backend.db.batch()
    for i in 0..<120 {
      let state = i % 30 == 0 ? "open" : (i % 30 == 1 ? "pending" : "closed")
      let tags: [any Sendable] = i % 10 == 0 ? ["x", i] : ["y"]
      batch.setData(
        ["state": state, "n": i % 2 == 0 ? i : Double(i) + 0.5, "tags": tags], forDocument: backend.db.document(tickets.path + "/t\(i)"))
    }
    try await batch.commit()
    // The cache learns every document from one server read.
    #expect(try await tickets.getDocuments(source: .server).count == 120)
    db.localStore.flush()
    manager.enableIndexAutoCreation()

    let queries: [(String, Query)] = [
      ("equality", tickets.whereField("state", isEqualTo: "open")),
      ("range", tickets.whereField("n", isGreaterThanOrEqualTo: 100)),
      ("array-contains", tickets.whereField("tags", arrayContains: "x")),
      ("in + order + limit", tickets.whereField("state", in: ["open", "pending"]).order(by: "n", descending: true).limit(to: 3)),
    ]
    for (name, query) in queries {
      let server = try await query.getDocuments(source: .server).documents.map(\.documentID)
      db.localStore.flush()
      // The first run scans and creates an index (unless one serves it already); the second
      // reads through one.
      #expect(try await query.getDocuments(source: .cache).documents.map(\.documentID) == server, "\(name)")
      let before = db.localStore.documentsReadByQueries
      let cached = try await query.getDocuments(source: .cache)
      #expect(cached.documents.map(\.documentID) == server, "\(name)")
      #expect(cached.metadata.isFromCache)
      #expect(db.localStore.documentsReadByQueries - before < 60, "\(name) read through an index")
    }
    // The `in` query found the equality's index on `state` usable, so it scanned nothing and
    // created none, as in the Apple SDK.
    #expect(db.localStore.fieldIndexes.count == 3)

    // This client's write reaches the cache, the index and the cache-only listener.
    let open = queries[0].1
    let listener = SequenceCollector(open.snapshots(options: SnapshotListenOptions().withSource(.cache)))
    #expect(try await listener.next().documents.map(\.documentID) == ["t0", "t30", "t60", "t90"])
    try await tickets.document("t5").updateData(["state": "open"])
    db.localStore.flush()
    let server = try await open.getDocuments(source: .server).documents.map(\.documentID)
    #expect(server == ["t0", "t30", "t5", "t60", "t90"])
    #expect(try await open.getDocuments(source: .cache).documents.map(\.documentID) == server)
    _ = try await listener.wait("t5 open") { $0.documents.map(\.documentID) == server }
    // Another client's change reaches the cache through a read, and the listener through the index.
    try await backend.db.document(tickets.path + "/t30").updateData(["state": "closed"])
    _ = try await tickets.document("t30").getDocument(source: .server)
    _ = try await listener.wait("t30 closed") { $0.documents.map(\.documentID) == ["t0", "t5", "t60", "t90"] }
    listener.cancel()

    manager.deleteAllIndexes()
    #expect(db.localStore.fieldIndexes.isEmpty)
    #expect(try await open.getDocuments(source: .cache).documents.map(\.documentID) == ["t0", "t5", "t60", "t90"])
  }
}
