import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Bundles built from what each backend returns, loaded into fresh caches: named queries
/// then run from the cache with the server's answers, without a request.
@Suite("Conformance: bundles")
struct BundleConformanceTests {
  /// A client for this backend's project whose every request would fail: it proves that
  /// what it reads comes from its cache.
  private func offlineClient(_ configure: (inout FirestoreSettings) -> Void = { _ in }) -> Firestore {
    var settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.retryPolicy = .none
    configure(&settings)
    return Firestore(projectID: Backend.projectID, settings: settings)
  }

  private func seed(_ backend: Backend) async throws -> CollectionReference {
    let c = backend.collection()
    let batch = backend.db.batch()
    for i in 0..<6 {
      batch.setData(
        ["n": i, "kind": i % 2 == 0 ? "even" : "odd", "tags": ["t\(i)"], "at": Timestamp(seconds: Int64(i), nanoseconds: 0)],
        forDocument: c.document("d\(i)"))
    }
    batch.setData(
      ["n": 99, "kind": "even", "emb": VectorValue([1, 2])], forDocument: c.document("sub").collection("deeper").document("x"))
    try await batch.commit()
    return c
  }

  @Test(
    "a bundle built here loads into a fresh cache; its named queries run from the cache with the server's results", arguments: Backend.all)
  func buildAndLoad(_ backend: Backend) async throws {
    let c = try await seed(backend)
    let queries: [(String, Query)] = [
      ("evens", c.whereField("kind", isEqualTo: "even").order(by: "n", descending: true)),
      ("first-two", c.order(by: "n").limit(to: 2)),
      ("last-two", c.order(by: "n").limit(toLast: 2)),
      ("range", c.order(by: "n").start(after: [1]).end(at: [4])),
      ("by-id", c.whereField(FieldPath.documentID(), isGreaterThanOrEqualTo: c.document("d3")).order(by: FieldPath.documentID())),
      ("tagged", c.whereFilter(.orFilter([.whereField("tags", arrayContains: "t1"), .whereField("n", in: [4, 5])]))),
      ("group", backend.db.collectionGroup("deeper").whereField("kind", isEqualTo: "even")),
    ]
    var builder = backend.db.bundle("conformance-\(c.collectionID)")
    var expected: [String: [String]] = [:]
    for (name, query) in queries {
      let snapshot = try await query.getDocuments()
      expected[name] = snapshot.documents.map(\.reference.path)
      try builder.add(queryName: name, querySnapshot: snapshot)
    }
    let extra = try await backend.db.getAll([c.document("d0"), c.document("gone")])
    for snapshot in extra { try builder.add(document: snapshot) }
    let bundle = builder.build()

    let offline = offlineClient()
    let progress = try await offline.loadBundle(bundle)
    #expect(progress.state == .success)
    // Each document once, however many queries returned it, the missing one included.
    let distinct = Set(expected.values.joined()).union(extra.map(\.reference.path))
    #expect(progress.totalDocuments == distinct.count && distinct.count >= 8)
    #expect(progress.documentsLoaded == progress.totalDocuments && progress.bytesLoaded == progress.totalBytes)
    for (name, _) in queries {
      let query = try #require(await offline.getQuery(named: name), "\(name)")
      let cached = try await query.getDocuments(source: .cache)
      #expect(cached.metadata.isFromCache)
      #expect(cached.documents.map(\.reference.path) == expected[name], "\(name)")
    }
    // The data arrives whole, vectors and timestamps included; a missing document stays unknown.
    let x = try await offline.document("\(c.path)/sub/deeper/x").getDocument(source: .cache)
    #expect(x.get("emb") as? VectorValue == VectorValue([1, 2]))
    #expect(
      try await offline.document("\(c.path)/d3").getDocument(source: .cache).get("at") as? Timestamp
        == Timestamp(seconds: 3, nanoseconds: 0))
    let gone = await #expect(throws: FirestoreError.self) { try await offline.document("\(c.path)/gone").getDocument(source: .server) }
    #expect(gone?.code == .unavailable, "the offline client really cannot reach a server")
    #expect(await offline.getQuery(named: "nothing") == nil)

    // Loading the same bundle again changes nothing and succeeds.
    #expect(try await offline.loadBundle(bundle).state == .success)
  }

  @Test("named queries survive in a persistent cache", arguments: Backend.all)
  func persistent(_ backend: Backend) async throws {
    let c = try await seed(backend)
    var builder = backend.db.bundle("persistent")
    try builder.add(queryName: "odds", querySnapshot: try await c.whereField("kind", isEqualTo: "odd").getDocuments())
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let persistent: (inout FirestoreSettings) -> Void = { $0.cache = .persistent(directory: directory) }
    _ = try await offlineClient(persistent).loadBundle(builder.build())
    let reopened = offlineClient(persistent)
    let query = try #require(await reopened.getQuery(named: "odds"))
    #expect(try await query.getDocuments(source: .cache).documents.map(\.documentID) == ["d1", "d3", "d5"])
  }

  @Test(
    "what cannot be bundled fails with invalidArgument, what cannot be loaded with unknown as in the Apple SDK; both name the problem",
    arguments: Backend.all)
  func refusals(_ backend: Backend) async throws {
    let c = try await seed(backend)
    var builder = backend.db.bundle("refusals")
    let snapshot = try await c.getDocuments()
    try builder.add(queryName: "all", querySnapshot: snapshot)
    let duplicate = #expect(throws: FirestoreError.self) { try builder.add(queryName: "all", querySnapshot: snapshot) }
    #expect(duplicate?.message.contains("already") == true)
    for (query, message) in [(c.select(["n"]), "select"), (c.offset(1), "offset")] {
      let snapshot = try await query.getDocuments()
      let error = #expect(throws: FirestoreError.self) { try builder.add(queryName: message, querySnapshot: snapshot) }
      #expect(error?.code == .invalidArgument && error?.message.contains(message) == true, "\(String(describing: error))")
    }
    let search = try await c.findNearest(vectorField: "emb", queryVector: [1, 2], limit: 1, distanceMeasure: .euclidean).getDocuments()
    let vector = #expect(throws: FirestoreError.self) { try builder.add(queryName: "v", querySnapshot: search) }
    #expect(vector?.message.contains("vector search") == true)
    let plain = try await c.document("d1").getDocument()
    let noReadTime = #expect(throws: FirestoreError.self) { try builder.add(document: plain) }
    #expect(noReadTime?.message.contains("getAll") == true)

    let bundle = Array(builder.build())
    let offline = offlineClient()
    let broken: [([UInt8], String)] = [
      (Array(bundle.dropLast(3)), "truncated"),
      (Array("6{\"x\":1".utf8), "not valid JSON"),
      (
        BundleElement.documentMetadata(.init(name: "\(c.path)/d1", readTime: Timestamp(seconds: 1, nanoseconds: 0), exists: false))
          .lengthPrefixed, "first element is not the bundle's metadata"
      ),
      (Array("x{}".utf8), "expected the decimal length"),
      (Array(bundle) + Array("2{}".utf8), "bundle element"),
      ([], "empty"),
    ]
    for (bytes, message) in broken {
      let error = await #expect(throws: FirestoreError.self) { try await offline.loadBundle(Data(bytes)) }
      #expect(error?.code == .unknown && error?.message.contains(message) == true, "\(message): \(String(describing: error))")
    }
    #expect(await offline.getQuery(named: "all") == nil, "nothing of a refused bundle is applied")
    // Another project's bundle does not load into this database.
    let foreign = FirestoreSettings.emulator(host: "127.0.0.1:1")
    foreign.retryPolicy = .none
    let elsewhere = Firestore(projectID: "demo-elsewhere", settings: foreign)
    let wrongDatabase = await #expect(throws: FirestoreError.self) { try await elsewhere.loadBundle(Data(bundle)) }
    #expect(wrongDatabase?.message.contains("not to this database") == true)
    // Without a cache there is nowhere to load it.
    let uncached = offlineClient { $0.cache = .none }
    let noCache = await #expect(throws: FirestoreError.self) { try await uncached.loadBundle(Data(bundle)) }
    #expect(noCache?.code == .failedPrecondition)
  }
}
