import FirestoreEngine
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The persistent cache's field indexes end to end, through cache-only queries of clients
/// that never reach a server: the same results as a scan, fewer documents read, indexes
/// created as the Apple SDK creates them, shared through the file, and damaged tables that
/// cost the indexes but never a query.
@Suite("Persistent cache indexes")
struct CacheIndexTests {
  private static let root = "projects/p/databases/(default)/documents"

  private static func document(_ path: String, _ fields: [String: Value]) -> Document {
    Document(
      name: root + "/" + path, fields: fields, createTime: Timestamp(seconds: 1, nanoseconds: 0),
      updateTime: Timestamp(seconds: 1, nanoseconds: 0))
  }

  /// A client with `cache` whose transport fails any request: everything here is local.
  private static func client(_ cache: LocalCacheSettings) -> Firestore {
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = ScriptedTransport([])
    settings.cache = cache
    return Firestore(projectID: "p", settings: settings)
  }

  private static func persistent(_ directory: URL) -> Firestore {
    client(.persistent(directory: directory, sizeBytes: LocalCacheSettings.defaultSizeBytes))
  }

  /// Stores `documents` as if a server read had returned them, and waits until they are in.
  private static func load(_ documents: [Document], into db: Firestore) {
    db.localStore.didRead(documents.map { ($0.name, Optional($0)) })
    db.localStore.flush()
  }

  private static let twoTo53: Int64 = 1 << 53

  /// Values of `n`: numbers of both kinds where they meet (`5` and `5.0`, `2^53` and its
  /// neighbours, `-0.0`, `NaN`, infinities) and values of every other type.
  private static let numbers: [Value] = [
    .integer(0), .double(-0.0), .double(0), .integer(1), .double(1.5), .integer(2), .integer(3), .integer(5), .double(5),
    .integer(-1), .double(-1.5), .double(.nan), .double(.infinity), .double(-.infinity), .integer(twoTo53),
    .integer(twoTo53 + 1), .double(Double(twoTo53)), .integer(twoTo53 - 1), .integer(.max), .integer(.min), .integer(100),
    .null, .string("5"), .string("m"), .boolean(true), .timestamp(Timestamp(seconds: 5, nanoseconds: 0)), .bytes(Data([5])),
    .reference(root + "items/i5"), .geoPoint(GeoPoint(latitude: 5, longitude: 5)), .array([.integer(5)]), .map(["x": .integer(5)]),
    .vector([5]),
  ]
  private static let strings: [Value] = [
    .string(""), .string("a"), .string("b"), .string("é"), .string("e\u{301}"), .string("日本"), .string("zz"), .string("a\u{0}b"),
    .integer(7), .null,
  ]
  private static let tagLists: [Value] = [
    .array([]), .array([.string("a")]), .array([.string("a"), .string("b")]), .array([.integer(1), .double(2)]),
    .array([.null, .double(.nan)]), .string("a"), .array([.array([.string("a")])]), .array([.string("b"), .integer(1), .string("b")]),
    .array([.double(1)]),
  ]

  /// About 300 documents of `items` (at the root and under two shops, for group queries),
  /// with fields of mixed types, some missing.
  private static func corpus() -> [Document] {
    var g = SplitMix64(seed: 42)
    var documents: [Document] = []
    for i in 0..<300 {
      var fields: [String: Value] = [:]
      if i % 17 != 0 { fields["n"] = numbers.randomElement(using: &g)! }
      if i % 5 != 0 { fields["s"] = strings.randomElement(using: &g)! }
      if i % 3 != 0 { fields["t"] = tagLists.randomElement(using: &g)! }
      fields["b"] = .boolean(i % 4 == 0)
      if i % 7 != 0 { fields["m"] = .map(["x": .integer(Int64(i % 6))]) }
      fields["ts"] = .timestamp(Timestamp(seconds: Int64(i % 10), nanoseconds: Int32(i % 3)))
      let parent = i % 10 == 0 ? "shops/s\(i % 3)/" : ""
      documents.append(document(parent + "items/i\(i)", fields))
    }
    return documents
  }

  /// Queries of every operator the index can serve (and some it cannot), with orderings,
  /// limits and cursors.
  private static func queries(_ db: Firestore) -> [(String, Query)] {
    let items = db.collection("items")
    let group = db.collectionGroup("items").query
    let base = items.query
    return [
      ("n == 5", base.whereField("n", isEqualTo: 5)),
      ("n == 5.0", base.whereField("n", isEqualTo: 5.0)),
      ("n == 0", base.whereField("n", isEqualTo: 0)),
      ("n == -0.0", base.whereField("n", isEqualTo: -0.0)),
      ("n == 2^53", base.whereField("n", isEqualTo: twoTo53)),
      ("n == 2^53 + 1", base.whereField("n", isEqualTo: twoTo53 + 1)),
      ("n == 2^53 as double", base.whereField("n", isEqualTo: Double(twoTo53))),
      ("n == NaN", base.whereField("n", isEqualTo: Double.nan)),
      ("n == null", base.whereField("n", isEqualTo: NSNull())),
      ("n == '5'", base.whereField("n", isEqualTo: "5")),
      ("n == [5]", base.whereField("n", isEqualTo: [5])),
      ("n == {x: 5}", base.whereField("n", isEqualTo: ["x": 5])),
      ("n == vector", base.whereField("n", isEqualTo: Value.vector([5]))),
      ("n < 3", base.whereField("n", isLessThan: 3)),
      ("n <= 0", base.whereField("n", isLessThanOrEqualTo: 0)),
      ("n > 2^53", base.whereField("n", isGreaterThan: twoTo53)),
      ("n >= -1.5", base.whereField("n", isGreaterThanOrEqualTo: -1.5)),
      ("n > -inf and n < 2.5", base.whereField("n", isGreaterThan: -Double.infinity).whereField("n", isLessThan: 2.5)),
      ("n > 'a'", base.whereField("n", isGreaterThan: "a")),
      ("n < timestamp", base.whereField("n", isLessThan: Timestamp(seconds: 9, nanoseconds: 0))),
      ("n >= reference", base.whereField("n", isGreaterThanOrEqualTo: db.document("items/a"))),
      ("n > geo point", base.whereField("n", isGreaterThan: GeoPoint(latitude: 1, longitude: 1))),
      ("n < [9]", base.whereField("n", isLessThan: [9])),
      ("n in [1, 2.0, '5', null, NaN]", base.whereField("n", in: [1, 2.0, "5", NSNull(), Double.nan])),
      ("n in [null]", base.whereField("n", in: [NSNull()])),
      ("n not in [1, 2]", base.whereField("n", notIn: [1, 2])),
      ("n != 3", base.whereField("n", isNotEqualTo: 3)),
      ("t contains 'a'", base.whereField("t", arrayContains: "a")),
      ("t contains 1", base.whereField("t", arrayContains: 1)),
      ("t contains any ['b', 2, null]", base.whereField("t", arrayContainsAny: ["b", 2, NSNull()])),
      ("t contains 'a' and b == true", base.whereField("t", arrayContains: "a").whereField("b", isEqualTo: true)),
      ("s == 'é'", base.whereField("s", isEqualTo: "é")),
      ("s >= 'b' by s desc limit 5", base.whereField("s", isGreaterThanOrEqualTo: "b").order(by: "s", descending: true).limit(to: 5)),
      ("b == true and n > 1", base.whereField("b", isEqualTo: true).whereField("n", isGreaterThan: 1)),
      ("b == false by n desc", base.whereField("b", isEqualTo: false).order(by: "n", descending: true)),
      ("by n limit 10", base.order(by: "n").limit(to: 10)),
      ("by n desc limit to last 7", base.order(by: "n", descending: true).limit(toLast: 7)),
      ("by n start at 1 end before 100", base.order(by: "n").start(at: [1]).end(before: [100])),
      ("by s start after 'a'", base.order(by: "s").start(after: ["a"])),
      ("m.x == 3", base.whereField("m.x", isEqualTo: 3)),
      (
        "m.x in [1, 4] and ts > 4",
        base.whereField("m.x", in: [1, 4]).whereField("ts", isGreaterThan: Timestamp(seconds: 4, nanoseconds: 0))
      ),
      ("ts == (3, 0)", base.whereField("ts", isEqualTo: Timestamp(seconds: 3, nanoseconds: 0))),
      ("n == 1 or s == 'a'", base.whereFilter(.orFilter([.whereField("n", isEqualTo: 1), .whereField("s", isEqualTo: "a")]))),
      (
        "b == true and (n == 1 or s == 'a')",
        base.whereField("b", isEqualTo: true).whereFilter(.orFilter([.whereField("n", isEqualTo: 1), .whereField("s", isEqualTo: "a")]))
      ),
      (
        "s == 'a' and t contains 'b' and b == false",
        base.whereField("s", isEqualTo: "a").whereField("t", arrayContains: "b").whereField("b", isEqualTo: false)
      ),
      ("n in [5, 0] and s > 'a'", base.whereField("n", in: [5, 0]).whereField("s", isGreaterThan: "a")),
      ("group n in [5, 100]", group.whereField("n", in: [5, 100])),
      ("group t contains 'b' by ts desc", group.whereField("t", arrayContains: "b").order(by: "ts", descending: true)),
      ("shop s1 items n >= 2", db.collection("shops/s1/items").query.whereField("n", isGreaterThanOrEqualTo: 2)),
    ]
  }

  /// One document of a query's answer as it shows.
  private struct Shown: Equatable, CustomStringConvertible {
    let path: String
    let fields: [String: Value]
    let pending: Bool
    var description: String { path + (pending ? " (pending)" : "") }
  }

  /// What a query's answer shows: each document's path, fields and pending state, in order.
  private static func outcome(_ query: Query) async throws -> [Shown] {
    try await query.getDocuments(source: .cache).documents.map {
      Shown(path: $0.reference.path, fields: $0.document.fields, pending: $0.metadata.hasPendingWrites)
    }
  }

  @Test("cache-only queries give the same results with indexes as without, also with pending writes")
  func sameResults() async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    let reference = Self.client(.memory())
    let indexed = Self.persistent(directory)
    let corpus = Self.corpus()
    Self.load(corpus, into: reference)
    Self.load(corpus, into: indexed)
    // Three sets of indexes in turn: those the queries create, the same with every
    // direction reversed, and others of several fields.
    var created: [FieldIndex] = []
    for (_, query) in Self.queries(indexed) {
      let lowered = try query.lowered()
      if let index = QueryIndexMatcher(lowered.structuredQuery)?.indexToCreate(collectionGroup: "items") { created.append(index) }
    }
    let reversed = created.map { index in
      FieldIndex(
        collectionGroup: index.collectionGroup,
        segments: index.segments.map {
          .init(names: $0.names, kind: $0.kind == .ascending ? .descending : ($0.kind == .descending ? .ascending : .contains))
        })
    }
    func segment(_ name: String, _ kind: FieldIndex.Kind) -> FieldIndex.Segment { FieldIndex.Segment(names: [name], kind: kind) }
    let others = [
      FieldIndex(collectionGroup: "items", segments: [segment("b", .descending), segment("n", .descending)]),
      FieldIndex(collectionGroup: "items", segments: [segment("n", .descending), segment("s", .ascending)]),
      FieldIndex(collectionGroup: "items", segments: [segment("t", .contains), segment("s", .descending)]),
      FieldIndex(
        collectionGroup: "items", segments: [FieldIndex.Segment(names: ["m", "x"], kind: .ascending), segment("ts", .descending)]),
      FieldIndex(collectionGroup: "items", segments: [segment("s", .descending), segment("t", .contains), segment("b", .ascending)]),
    ]

    var narrowed: [Int] = []
    for round in ["cached", "with pending writes"] {
      for (set, definitions) in [("created", created), ("reversed", reversed), ("others", others)] {
        indexed.persistentCacheIndexManager?.deleteAllIndexes()
        for definition in definitions { _ = indexed.localStore.addFieldIndex(definition) }
        #expect(!indexed.localStore.fieldIndexes.isEmpty)
        var count = 0
        for ((name, query), (_, same)) in zip(Self.queries(indexed), Self.queries(reference)) {
          let want = try await Self.outcome(same)
          let before = indexed.localStore.documentsReadByQueries
          let got = try await Self.outcome(query)
          #expect(got == want, "\(name), \(set) indexes, \(round)")
          if indexed.localStore.documentsReadByQueries - before < corpus.count / 2 { count += 1 }
        }
        narrowed.append(count)
      }
      if round == "cached" {
        // Writes the server never sees: they overlay the cache in both clients alike.
        for db in [reference, indexed] {
          try await db.disableNetwork()
          Self.writeWithoutWaiting(db)
        }
      }
    }
    #expect(narrowed[0] >= 30 && narrowed[1] >= 30 && narrowed[2] >= 5, "most queries read through an index: \(narrowed)")
  }

  /// Writes that stay pending (the network is off): one makes a document match, one makes
  /// another stop matching, a delete, new documents.
  private static func writeWithoutWaiting(_ db: Firestore) {
    db.document("items/i1").setData(["n": 5, "t": ["a"], "b": true])
    db.document("items/i2").updateData(["n": 2.5, "s": "é"])
    db.document("items/i3").delete()
    db.document("items/i4").updateData(["t": FieldValue.arrayUnion(["a"])])
    db.document("items/new").setData(["n": twoTo53 + 1, "s": "b", "t": ["b"], "ts": Timestamp(seconds: 4, nanoseconds: 1)])
    db.document("shops/s1/items/new").setData(["n": 100, "t": ["b", "a"]])
  }

  @Test("auto creation: a scan of 100+ documents that matched few creates an index, and the next query reads through it")
  func autoCreation() async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = Self.persistent(directory)
    let manager = try #require(db.persistentCacheIndexManager)
    Self.load(
      (0..<150).map { Self.document("tickets/t\($0)", ["state": .string($0 % 50 == 0 ? "open" : "closed"), "n": .integer(Int64($0))]) },
      into: db)
    let open = db.collection("tickets").whereField("state", isEqualTo: "open")

    // Off by default: scans stay scans.
    #expect(try await open.getDocuments(source: .cache).count == 3)
    #expect(db.localStore.fieldIndexes.isEmpty)

    manager.enableIndexAutoCreation()
    var before = db.localStore.documentsReadByQueries
    #expect(try await open.getDocuments(source: .cache).count == 3)
    #expect(db.localStore.documentsReadByQueries - before == 150, "this query scanned")
    let created = db.localStore.fieldIndexes
    #expect(created.map(\.collectionGroup) == ["tickets"])
    #expect(created.first?.segments == [FieldIndex.Segment(names: ["state"], kind: .ascending)])

    before = db.localStore.documentsReadByQueries
    #expect(try await open.getDocuments(source: .cache).documents.map(\.documentID) == ["t0", "t100", "t50"])
    #expect(db.localStore.documentsReadByQueries - before == 3, "read through the index")

    // A query that matches most documents is cheaper as a scan: no index for it.
    #expect(try await db.collection("tickets").whereField("n", isGreaterThan: 10).getDocuments(source: .cache).count == 139)
    #expect(db.localStore.fieldIndexes.count == 1)

    // Disabled: no new index, but the existing one is still used.
    manager.disableIndexAutoCreation()
    #expect(try await db.collection("tickets").whereField("n", isEqualTo: 7).getDocuments(source: .cache).count == 1)
    #expect(db.localStore.fieldIndexes.count == 1)
    before = db.localStore.documentsReadByQueries
    #expect(try await open.getDocuments(source: .cache).count == 3)
    #expect(db.localStore.documentsReadByQueries - before == 3)

    // Entries follow the documents: a change, a new document, a removal.
    Self.load(
      [Self.document("tickets/t1", ["state": .string("open")]), Self.document("tickets/t200", ["state": .string("open")])], into: db)
    db.localStore.didRead([(Self.root + "/tickets/t0", nil)])
    db.localStore.flush()
    before = db.localStore.documentsReadByQueries
    #expect(try await open.getDocuments(source: .cache).documents.map(\.documentID) == ["t1", "t100", "t200", "t50"])
    #expect(db.localStore.documentsReadByQueries - before == 4)

    manager.deleteAllIndexes()
    #expect(db.localStore.fieldIndexes.isEmpty)
    before = db.localStore.documentsReadByQueries
    #expect(try await open.getDocuments(source: .cache).count == 4)
    #expect(db.localStore.documentsReadByQueries - before == 150, "scans again")
  }

  @Test("a collection below the minimum size creates no index, however selective the query")
  func smallCollection() async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = Self.persistent(directory)
    db.persistentCacheIndexManager?.enableIndexAutoCreation()
    Self.load((0..<99).map { Self.document("c/d\($0)", ["n": .integer(Int64($0))]) }, into: db)
    #expect(try await db.collection("c").whereField("n", isEqualTo: 5).getDocuments(source: .cache).count == 1)
    #expect(db.localStore.fieldIndexes.isEmpty)
    Self.load([Self.document("c/d99", ["n": .integer(99)])], into: db)
    #expect(try await db.collection("c").whereField("n", isEqualTo: 5).getDocuments(source: .cache).count == 1)
    #expect(db.localStore.fieldIndexes.count == 1)
  }

  @Test("indexes live in the file: another instance uses them and keeps them up to date")
  func sharedThroughTheFile() async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    let first = Self.persistent(directory)
    first.persistentCacheIndexManager?.enableIndexAutoCreation()
    Self.load((0..<200).map { Self.document("c/d\($0)", ["n": .integer(Int64($0 % 50))]) }, into: first)
    let query = { (db: Firestore) in db.collection("c").whereField("n", isEqualTo: 7) }
    #expect(try await query(first).getDocuments(source: .cache).count == 4)
    #expect(first.localStore.fieldIndexes.count == 1)

    let second = Self.persistent(directory)
    #expect(second.localStore.fieldIndexes == first.localStore.fieldIndexes)
    // The second instance's changes reach the first one's index.
    Self.load([Self.document("c/new", ["n": .integer(7)]), Self.document("c/d7", ["n": .integer(8)])], into: second)
    second.localStore.didRead([(Self.root + "/c/d57", nil)])
    second.localStore.flush()
    var before = first.localStore.documentsReadByQueries
    #expect(try await query(first).getDocuments(source: .cache).documents.map(\.documentID) == ["d107", "d157", "new"])
    #expect(first.localStore.documentsReadByQueries - before == 3)
    before = second.localStore.documentsReadByQueries
    #expect(try await query(second).getDocuments(source: .cache).count == 3)
    #expect(second.localStore.documentsReadByQueries - before == 3, "auto creation is off here, the index is used all the same")

    second.persistentCacheIndexManager?.deleteAllIndexes()
    #expect(first.localStore.fieldIndexes.isEmpty)
    #expect(try await query(first).getDocuments(source: .cache).count == 3)
  }

  @Test("evicted documents leave the index with the cache")
  func evictionRemovesEntries() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).sqlite").path
    defer { SQLiteCacheStorage.remove(path: path) }
    let storage = try SQLiteCacheStorage(path: path, sizeLimit: LocalCacheSettings.minimumSizeBytes)
    let index = try #require(
      try storage.addFieldIndex(FieldIndex(collectionGroup: "c", segments: [FieldIndex.Segment(names: ["k"], kind: .ascending)])))
    let big = Value.string(String(repeating: "x", count: 100_000))
    for i in 0..<20 { try storage.apply([("c/d\(i)", .document(Self.document("c/d\(i)", ["k": .integer(1), "b": big])))]) }
    let query = StructuredQuery(from: [.init(collectionID: "c")], filter: .field(path: "k", op: .equal, value: .integer(1)))
    let found = try #require(try storage.indexedDocuments(query, parent: "", collectionID: "c", allDescendants: false))
    let cached = try storage.documents(parent: "", collectionID: "c", allDescendants: false)
    #expect(cached.count < 20, "some were evicted")
    #expect(Set(found.map(\.name)) == Set(cached.map(\.name)))
    let connection = try SQLiteConnection(path: path)
    defer { connection.close() }
    let entries = try connection.query("SELECT COUNT(*) FROM index_entries WHERE index_id = ?", [.integer(index.id)])
    #expect(entries.first?.first?.integer == Int64(cached.count))
  }

  @Test("documents written by a client that knows no indexes are still found")
  func writerWithoutIndexes() async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    let db = Self.persistent(directory)
    Self.load((0..<10).map { Self.document("c/d\($0)", ["n": .integer(Int64($0))]) }, into: db)
    _ = db.localStore.addFieldIndex(FieldIndex(collectionGroup: "c", segments: [FieldIndex.Segment(names: ["n"], kind: .ascending)]))
    // An earlier version of this client writes the documents table as it always did.
    let file = directory.appendingPathComponent(LocalStore.fileName(projectID: "p", databaseID: "(default)")).path
    let old = try SQLiteConnection(path: file)
    for (id, n) in [("d3", 30), ("x", 4)] {
      let body = JSONWriter.bytes(Self.document("c/\(id)", ["n": .integer(Int64(n))]).json)
      try old.query(
        "INSERT OR REPLACE INTO documents VALUES (?, 'c', 'c', ?, 10, 1, 1, 0)", [.text("c/\(id)"), .blob(body)])
    }
    try old.query("UPDATE documents SET body = ? WHERE path = 'c/d5'", [.blob(JSONWriter.bytes(Self.document("c/d5", [:]).json))])
    old.close()
    let query = db.collection("c").whereField("n", isGreaterThan: 2).whereField("n", isLessThan: 10)
    #expect(try await query.getDocuments(source: .cache).documents.map(\.documentID) == ["d4", "x", "d6", "d7", "d8", "d9"])
    #expect(try await db.collection("c").whereField("n", isEqualTo: 30).getDocuments(source: .cache).count == 1)
  }

  @Test("damaged index tables never fail a query or a change: the indexes are dropped and made again")
  func damagedTables() async throws {
    let damages = [
      "DROP TABLE index_entries",
      "DROP TABLE field_indexes",
      "DROP TABLE unindexed_documents",
      "DROP TABLE index_entries; CREATE TABLE index_entries (x)",
      """
      DROP TABLE index_entries; CREATE TABLE index_entries (
        index_id INTEGER NOT NULL, array_value BLOB NOT NULL, key BLOB NOT NULL, path TEXT NOT NULL,
        PRIMARY KEY (index_id, array_value, key, path)) WITHOUT ROWID
      """,
      "DROP TRIGGER documents_index_delete",
      "DROP TRIGGER documents_index_insert; CREATE TRIGGER documents_index_insert AFTER INSERT ON documents BEGIN SELECT 1; END",
      "DROP INDEX index_entries_by_path; CREATE TABLE index_entries_by_path (x)",
      "CREATE VIEW v AS SELECT 1",
      "UPDATE field_indexes SET segments = '{not json'",
      "UPDATE field_indexes SET segments = '[{\"fieldPath\": \"n\", \"kind\": \"SIDEWAYS\"}]'",
      "UPDATE field_indexes SET segments = '[{\"fieldPath\": \"n\", \"kind\": \"CONTAINS\"}, {\"fieldPath\": \"m\", \"kind\": \"CONTAINS\"}]'",
      "UPDATE field_indexes SET segments = '[{\"fieldPath\": \"a.\", \"kind\": \"ASCENDING\"}]'",
      "INSERT INTO field_indexes (collection_group, segments) VALUES ('c', x'00ff'), ('', '[]'), ('c', 5)",
      "INSERT INTO unindexed_documents VALUES ('c/none', 'c'), (x'00', 'c')",
      "DELETE FROM field_indexes",
    ]
    for damage in damages {
      let directory = try makeTemporaryDirectory("firestore-index")
      defer { try? FileManager.default.removeItem(at: directory) }
      let messages = Locked<[String]>([])
      let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
      settings.transport = ScriptedTransport([])
      settings.cache = .persistent(directory: directory)
      settings.logHandler = { message in messages.withLock { $0.append(message) } }
      let db = Firestore(projectID: "p", settings: settings)
      Self.load((0..<10).map { Self.document("c/d\($0)", ["n": .integer(Int64($0 % 3))]) }, into: db)
      _ = db.localStore.addFieldIndex(FieldIndex(collectionGroup: "c", segments: [FieldIndex.Segment(names: ["n"], kind: .ascending)]))
      let file = directory.appendingPathComponent(LocalStore.fileName(projectID: "p", databaseID: "(default)")).path
      let connection = try SQLiteConnection(path: file)
      try connection.execute(damage)
      connection.close()
      let query = db.collection("c").whereField("n", isEqualTo: 1)
      #expect(try await query.getDocuments(source: .cache).documents.map(\.documentID) == ["d1", "d4", "d7"], "\(damage)")
      // Changes go on, and the indexes work again once made again.
      Self.load([Self.document("c/d2", ["n": .integer(1)])], into: db)
      #expect(db.isCachedForTest("c/d2"), "\(damage)")
      _ = db.localStore.addFieldIndex(FieldIndex(collectionGroup: "c", segments: [FieldIndex.Segment(names: ["n"], kind: .descending)]))
      #expect(try await query.getDocuments(source: .cache).documents.map(\.documentID) == ["d1", "d2", "d4", "d7"], "\(damage)")
      // A second instance opens the file as usual.
      let second = Self.persistent(directory)
      #expect(try await second.collection("c").whereField("n", isEqualTo: 1).getDocuments(source: .cache).count == 4, "\(damage)")
      #expect(messages.withLock { $0 }.allSatisfy { !$0.contains("discarding") }, "\(damage): \(messages.withLock { $0 })")
    }
  }

  @Test("index entries refuse keys that are not blobs")
  func entryTypesChecked() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("index-\(UUID().uuidString).sqlite").path
    defer { SQLiteCacheStorage.remove(path: path) }
    let storage = try SQLiteCacheStorage(path: path, sizeLimit: LocalCacheSettings.minimumSizeBytes)
    _ = try storage.addFieldIndex(FieldIndex(collectionGroup: "c", segments: [FieldIndex.Segment(names: ["n"], kind: .ascending)]))
    try storage.apply([("c/d", .document(Self.document("c/d", ["n": .integer(1)])))])
    let connection = try SQLiteConnection(path: path)
    defer { connection.close() }
    #expect(throws: CacheStorageError.self) { try connection.execute("UPDATE index_entries SET key = 'text'") }
    #expect(throws: CacheStorageError.self) { try connection.execute("UPDATE index_entries SET array_value = 5") }
    #expect(throws: CacheStorageError.self) { try connection.execute("INSERT INTO index_entries VALUES (1, x'', NULL, 'c/e')") }
  }

  @Test("the index manager: nil without a persistent cache, the same object on every call, distinct per instance")
  func managerIdentity() async throws {
    let directory = try makeTemporaryDirectory("firestore-index")
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(Self.client(.memory()).persistentCacheIndexManager == nil)
    #expect(Self.client(.eagerMemory).persistentCacheIndexManager == nil)
    #expect(Self.client(.none).persistentCacheIndexManager == nil)
    #expect(Self.client(.persistent(directory: directory, sizeBytes: 1)).persistentCacheIndexManager == nil, "invalid settings")
    let db5 = Self.persistent(directory)
    let db7 = Self.persistent(directory)
    #expect(db5.persistentCacheIndexManager != nil)
    #expect(db5.persistentCacheIndexManager == db5.persistentCacheIndexManager)
    #expect(db5.persistentCacheIndexManager != db7.persistentCacheIndexManager)
    #expect(Set([db5.persistentCacheIndexManager, db5.persistentCacheIndexManager, db7.persistentCacheIndexManager]).count == 2)
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = ScriptedTransport([])
    settings.cacheSettings = PersistentCacheSettings(directory: directory)
    #expect(Firestore(projectID: "p", settings: settings).persistentCacheIndexManager != nil, "the Apple SDK's spelling")
    // After terminate the methods do nothing.
    try await db7.terminate()
    db7.persistentCacheIndexManager?.enableIndexAutoCreation()
    db7.persistentCacheIndexManager?.deleteAllIndexes()
    db7.persistentCacheIndexManager?.disableIndexAutoCreation()
  }
}

extension Firestore {
  /// Whether the cache holds the document at `path` (below the root), for tests.
  fileprivate func isCachedForTest(_ path: String) -> Bool { localStore.isCached(documentsRoot + "/" + path) }
}
