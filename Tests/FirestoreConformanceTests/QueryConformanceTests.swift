import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// Five cities with a mix of types, written once per test into a fresh collection.
private func seedCities(_ backend: Backend, _ hint: String = #function) async throws -> CollectionReference {
  let collection = backend.collection(hint)
  let batch = backend.db.batch()
  let rows: [(String, [String: any Sendable])] = [
    ("c1", ["name": "Aa", "pop": 1, "country": "JP", "tags": ["big", "old"], "score": Double.nan, "capital": true]),
    ("c2", ["name": "Bb", "pop": 2, "country": "JP", "tags": ["new"], "score": 1.5, "capital": false]),
    ("c3", ["name": "Cc", "pop": 2.5, "country": "FR", "tags": ["old"], "score": NSNull(), "capital": false]),
    ("c4", ["name": "Dd", "pop": 4, "country": "FR", "tags": [String](), "score": 3.0, "capital": true]),
    ("c5", ["name": "Ee", "pop": 5, "country": "US", "tags": ["big"], "capital": false]),
  ]
  for (id, data) in rows { batch.setData(data, forDocument: collection.document(id)) }
  try await batch.commit()
  return collection
}

private func ids(_ q: some QueryConvertible) async throws -> [String] {
  try await q.getDocuments().documents.map(\.documentID)
}

/// Written as code against the Apple SDK is: it takes a `Query`, and is handed collections.
private func cityNames(_ query: Query, country: String?) async throws -> [String] {
  var query = query
  if let country { query = query.whereField("country", isEqualTo: country) }
  return try await query.order(by: "name").getDocuments().documents.compactMap { $0.get("name") as? String }
}

@Suite("Conformance: queries")
struct QueryConformanceTests {
  @Test("a collection is a Query: Apple-SDK code that stores and passes it as one runs unchanged", arguments: Backend.all)
  func collectionIsQuery(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    var query: Query = c
    #expect(try await cityNames(query, country: nil) == ["Aa", "Bb", "Cc", "Dd", "Ee"])
    #expect(try await cityNames(c, country: "FR") == ["Cc", "Dd"])
    query = query.whereField("capital", isEqualTo: true)
    #expect(try await cityNames(query, country: "JP") == ["Aa"])
    let queries: [Query] = [c, c.limit(to: 1), backend.db.collectionGroup(c.collectionID)]
    var counts: [Int] = []
    for q in queries { counts.append(try await q.getDocuments().count) }
    #expect(counts == [5, 1, 5])
    // The collection still is itself, and its query still reads only its own documents.
    #expect((query as? CollectionReference) == nil)
    #expect((queries[0] as? CollectionReference)?.path == c.path)
  }

  @Test("every comparison operator", arguments: Backend.all)
  func operators(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    #expect(try await ids(c.whereField("country", isEqualTo: "JP")) == ["c1", "c2"])
    #expect(try await ids(c.whereField("country", isNotEqualTo: "JP").order(by: "country")) == ["c3", "c4", "c5"])
    #expect(try await ids(c.whereField("pop", isLessThan: 2.5)) == ["c1", "c2"])
    #expect(try await ids(c.whereField("pop", isLessThanOrEqualTo: 2.5)) == ["c1", "c2", "c3"])
    #expect(try await ids(c.whereField("pop", isGreaterThan: 4)) == ["c5"])
    #expect(try await ids(c.whereField("pop", isGreaterThanOrEqualTo: 4)) == ["c4", "c5"])
    #expect(try await ids(c.whereField("tags", arrayContains: "old")) == ["c1", "c3"])
    #expect(try await ids(c.whereField("tags", arrayContainsAny: ["new", "big"])) == ["c1", "c2", "c5"])
    #expect(try await ids(c.whereField("country", in: ["FR", "US"])) == ["c3", "c4", "c5"])
    #expect(try await ids(c.whereField("country", notIn: ["JP", "US"])) == ["c3", "c4"])
    #expect(try await ids(c.whereField(FieldPath.documentID(), isEqualTo: "c3")) == ["c3"])
    #expect(try await ids(c.whereField(FieldPath.documentID(), in: ["c4", c.document("c2")])) == ["c2", "c4"])
  }

  @Test("nil and NaN become IS_NULL / IS_NAN and their NOT forms", arguments: Backend.all)
  func nullAndNaN(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    #expect(try await ids(c.whereField("score", isEqualTo: nil as Int? as Any)) == ["c3"])
    #expect(try await ids(c.whereField("score", isEqualTo: NSNull())) == ["c3"])
    #expect(try await ids(c.whereField("score", isEqualTo: Double.nan)) == ["c1"])
    #expect(try await ids(c.whereField("score", isNotEqualTo: NSNull())) == ["c1", "c2", "c4"])
    // Like every not-equal filter, IS_NOT_NAN also leaves out null values.
    #expect(try await ids(c.whereField("score", isNotEqualTo: Double.nan)) == ["c2", "c4"])
  }

  /// The Apple SDK's array-contains tests: a null or NaN operand is sent, not refused, and
  /// matches no document, though some arrays hold null and NaN; the cache agrees.
  @Test("array-contains null or NaN is sent and matches nothing, on the server and the cache alike", arguments: Backend.all)
  func arrayContainsNullOrNaN(_ backend: Backend) async throws {
    let items = backend.collection()
    try await items.document("null").setData(["array": [NSNull()] as [any Sendable]])
    try await items.document("nan").setData(["array": [Double.nan]])
    try await items.document("number").setData(["array": [42]])
    let db = backend.firestore()
    let mine = db.collection(items.path)
    _ = try await mine.getDocuments()
    for operand in [NSNull() as any Sendable, Double.nan] {
      let query = mine.whereField("array", arrayContains: operand)
      #expect(try await query.getDocuments(source: .server).isEmpty, "\(operand)")
      #expect(try await query.getDocuments(source: .cache).isEmpty, "\(operand)")
    }
    #expect(try await mine.whereField("array", arrayContains: 42).getDocuments().documents.map(\.documentID) == ["number"])
  }

  /// The Apple SDK's validation tests: a document cursor can only use a server timestamp
  /// the server has set; a pending one has no value yet to start or end at.
  @Test("a document cursor on a server timestamp not yet set is refused before sending", arguments: Backend.all)
  func cursorOnPendingServerTimestamp(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await db.disableNetwork()
    func write() { items.document("ts").setData(["t": FieldValue.serverTimestamp()]) }
    write()
    let pending = try await items.document("ts").getDocument(source: .cache)
    #expect(pending.metadata.hasPendingWrites)
    for query in [items.order(by: "t").start(atDocument: pending), items.order(by: "t").end(beforeDocument: pending)] {
      let error = await #expect(throws: FirestoreError.self) { try await query.getDocuments(source: .cache) }
      #expect(error?.code == .invalidArgument && error?.message.contains("server timestamp the server has not set yet") == true)
    }
    try await db.enableNetwork()
    try await db.waitForPendingWrites()
    let set = try await items.document("ts").getDocument(source: .server)
    #expect(try await items.order(by: "t").start(atDocument: set).getDocuments().documents.map(\.documentID) == ["ts"])
  }

  @Test("AND / OR composite filters", arguments: Backend.all)
  func composites(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    let or = Filter.orFilter([.whereField("pop", isEqualTo: 1), .whereField("name", isEqualTo: "Cc")])
    #expect(try await ids(c.whereFilter(or)) == ["c1", "c3"])
    let nested = Filter.andFilter([
      .whereField("capital", isEqualTo: false),
      .orFilter([.whereField("tags", arrayContains: "new"), .whereField("country", in: ["US"])]),
    ])
    #expect(try await ids(c.whereFilter(nested)) == ["c2", "c5"])
  }

  @Test("order, limit and limit(toLast:) (results in the order asked)", arguments: Backend.all)
  func ordering(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    #expect(try await ids(c.order(by: "pop", descending: true)) == ["c5", "c4", "c3", "c2", "c1"])
    #expect(try await ids(c.order(by: "country").order(by: "pop", descending: true)) == ["c4", "c3", "c2", "c1", "c5"])
    #expect(try await ids(c.order(by: "pop").limit(to: 2)) == ["c1", "c2"])
    #expect(try await ids(c.order(by: "pop").limit(toLast: 2)) == ["c4", "c5"])
    #expect(try await ids(c.order(by: "pop", descending: true).limit(toLast: 2)) == ["c2", "c1"])
    #expect(try await ids(c.order(by: "pop").start(at: [2]).limit(toLast: 2)) == ["c4", "c5"])
    #expect(try await ids(c.order(by: "pop").end(before: [4]).limit(toLast: 2)) == ["c2", "c3"])
    #expect(try await ids(c.order(by: "pop").offset(3)) == ["c4", "c5"])
  }

  @Test("cursors from values and from document snapshots", arguments: Backend.all)
  func cursors(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    let byPop = c.order(by: "pop")
    #expect(try await ids(byPop.start(at: [2])) == ["c2", "c3", "c4", "c5"])
    #expect(try await ids(byPop.start(after: [2])) == ["c3", "c4", "c5"])
    #expect(try await ids(byPop.end(at: [2.5])) == ["c1", "c2", "c3"])
    #expect(try await ids(byPop.end(before: [2.5])) == ["c1", "c2"])
    #expect(try await ids(c.order(by: "country").order(by: "name").start(at: ["JP", "Bb"])) == ["c2", "c5"])

    // Pagination by document: the implicit __name__ ordering breaks ties.
    let byCountry = c.order(by: "country").limit(to: 2)
    let page1 = try await byCountry.getDocuments()
    #expect(page1.documents.map(\.documentID) == ["c3", "c4"])
    let page2 = try await byCountry.start(afterDocument: try #require(page1.documents.last)).getDocuments()
    #expect(page2.documents.map(\.documentID) == ["c1", "c2"])
    let c2 = try await c.document("c2").getDocument()
    #expect(try await ids(c.order(by: "country").start(atDocument: c2)) == ["c2", "c5"])
    #expect(try await ids(c.order(by: "country").end(beforeDocument: c2)) == ["c3", "c4", "c1"])
    // An inequality filter adds its field to the implicit order, so the cursor carries it.
    #expect(try await ids(c.whereField("pop", isGreaterThan: 1).start(afterDocument: c2)) == ["c3", "c4", "c5"])
  }

  @Test(
    "the implicit orderings are the server's: field names by UTF-8 bytes, none for a not-in that matches nothing", arguments: Backend.all)
  func implicitOrder(_ backend: Backend) async throws {
    let c = backend.collection()
    // The Angstrom sign sorts after "Ç" by UTF-8 bytes, but before it as Swift compares
    // strings (its canonical form is "Å").
    let angstrom = "\u{212B}"
    let cedilla = "\u{00C7}"
    try await c.document("d1").setData([angstrom: 1, cedilla: 2, "b": 2])
    try await c.document("d2").setData([angstrom: 2, cedilla: 1, "b": 1])
    let both = c.whereField(angstrom, isGreaterThan: 0).whereField(cedilla, isGreaterThan: 0)
    let sent = try both.lowered().structuredQuery
    #expect(
      sent.orderBy.map(\.fieldPath).elementsEqual(["`\(cedilla)`", "`\(angstrom)`", "__name__"]) { Array($0.utf8) == Array($1.utf8) })
    #expect(try await ids(both) == ["d2", "d1"])
    // The server's own order, asked with no orderings at all, is the same.
    var bare = sent
    bare.orderBy = []
    guard
      case .array(let elements) = try await backend.db.rest.unary(
        .init(.runQuery(parent: .root), body: RunQueryRequest(structuredQuery: bare).json))
    else {
      Issue.record("runQuery reply is not an array")
      return
    }
    #expect(elements.compactMap { $0["document"]?["name"]?.stringValue?.split(separator: "/").last.map(String.init) } == ["d2", "d1"])
    // A listener orders the same on the client's side.
    let listened = try await SequenceCollector(both.snapshots).next()
    #expect(listened.documents.map(\.documentID) == ["d2", "d1"])

    // not-in with only null can match nothing, so it orders by nothing; with another value
    // it orders by its field.
    let notNull = c.whereField("b", notIn: [NSNull()])
    #expect(try notNull.lowered().structuredQuery.orderBy.map(\.fieldPath) == ["__name__"])
    #expect(try await ids(notNull) == [])
    let notFive = c.whereField("b", notIn: [5])
    #expect(try notFive.lowered().structuredQuery.orderBy.map(\.fieldPath) == ["b", "__name__"])
    #expect(try await ids(notFive) == ["d2", "d1"])
  }

  @Test("select and the ID-only projection", arguments: Backend.all)
  func projections(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    let named = try await c.select(["name"]).order(by: "name").getDocuments()
    #expect(named.documents.first?.fields == ["name": .string("Aa")])
    let idsOnly = try await c.whereField("country", isEqualTo: "FR").selectDocumentIDs().getDocuments()
    #expect(idsOnly.documents.map(\.documentID) == ["c3", "c4"])
    #expect(idsOnly.documents.allSatisfy { $0.fields.isEmpty && $0.updateTime != nil })
    #expect(try await c.select([]).getDocuments().documents.allSatisfy(\.fields.isEmpty))
  }

  @Test("collection-group queries, at the root and below a document", arguments: Backend.all)
  func collectionGroups(_ backend: Backend) async throws {
    let group = "landmarks\(AutoID.make().prefix(6))"
    let root = backend.collection()
    try await root.document("a").collection(group).document("l1").setData(["type": "museum"])
    try await root.document("b").collection(group).document("l2").setData(["type": "park"])
    try await backend.db.collection(group).document("l3").setData(["type": "museum"])
    let museums = try await backend.db.collectionGroup(group).whereField("type", isEqualTo: "museum").getDocuments()
    #expect(Set(museums.documents.map(\.reference.path)) == ["\(root.path)/a/\(group)/l1", "\(group)/l3"])
    let all = try await backend.db.collectionGroup(group).order(by: FieldPath.documentID()).getDocuments()
    #expect(all.count == 3)
    let underA = try await root.document("a").collection(group).getDocuments()
    #expect(underA.documents.map(\.documentID) == ["l1"])
  }

  @Test("a query at a past readTime sees the old result", arguments: Backend.all)
  func queryReadTime(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    let before = try await c.getDocuments()
    let written = try await c.document("c9").setData(["pop": 9])
    let readTime = try #require(before.readTime)
    try #require(written.updateTime > readTime, "a commit after a read has a later time")
    #expect(try await c.getDocuments(readTime: readTime).count == 5)
    #expect(try await c.getDocuments().count == 6)
  }

  @Test("stream() yields the same documents as getDocuments()", arguments: Backend.all)
  func streaming(_ backend: Backend) async throws {
    let c = try await seedCities(backend)
    var streamed: [String] = []
    for try await document in c.order(by: "pop", descending: true).stream() { streamed.append(document.documentID) }
    #expect(streamed == ["c5", "c4", "c3", "c2", "c1"])
    var last: [String] = []
    for try await document in c.order(by: "pop").limit(toLast: 2).stream() { last.append(document.documentID) }
    #expect(last == ["c4", "c5"])
  }

  @Test("invalid queries fail before any request, naming the problem", arguments: Backend.all)
  func invalidQueries(_ backend: Backend) async throws {
    let c = backend.collection()
    let cases: [(any QueryConvertible, String)] = [
      (c.whereField("x", in: Array(0..<31)), "31 values"),
      (c.whereField("x", notIn: Array(0..<11)), "11 values"),
      (c.whereField("x", in: [any Sendable]()), "non-empty"),
      (c.whereField("a", isNotEqualTo: 1).whereField("b", notIn: [2]), "only one"),
      (c.whereField("a", arrayContains: 1).whereField("b", arrayContains: 2), "cannot be combined"),
      // not-in rules out in, array-contains-any and OR anywhere in the query, as the server does.
      (
        c.whereFilter(
          .orFilter([
            .andFilter([.whereField("a", isEqualTo: 1), .whereField("c", in: [1, 2])]),
            .andFilter([.whereField("e", isEqualTo: 2), .whereField("g", notIn: [3, 4])]),
          ])), "'not-in' and 'in'"
      ),
      (
        c.whereField("g", notIn: [3]).whereFilter(.orFilter([.whereField("a", arrayContainsAny: [1]), .whereField("b", isEqualTo: 2)])),
        "'not-in' and 'array-contains-any'"
      ),
      (c.whereField("g", notIn: [3]).whereFilter(.orFilter([.whereField("a", isEqualTo: 1), .whereField("b", isEqualTo: 2)])), "OR"),
      (c.order(by: "a").start(at: [1, 2]), "2 values"),
      (c.limit(toLast: 3), "order(by:)"),
      (c.whereField("a..b", isEqualTo: 1), "empty field name"),
      (c.whereField("a", isLessThan: NSNull()), "null"),
      (c.limit(to: 0), "limit"),
      (c.start(at: [1]).order(by: "a"), "before"),
      (c.whereField("a", isEqualTo: FieldValue.serverTimestamp()), "FieldValue"),
      // Orderings the server refuses: one field twice, anything after the document ID.
      (c.order(by: "a").order(by: FieldPath(["a"]), descending: true), "twice"),
      (c.order(by: FieldPath.documentID()).order(by: "a"), "must be the last"),
      // The document ID compared with another database's document.
      (c.whereField(FieldPath.documentID(), isEqualTo: backend.firestore(database: "elsewhere").document(c.path + "/d")), "elsewhere"),
      (c.whereField(FieldPath.documentID(), in: [backend.firestore(database: "elsewhere").document(c.path + "/d")]), "elsewhere"),
    ]
    for (query, needle) in cases {
      let error = try await #require(throws: FirestoreError.self) { try await query.getDocuments() }
      #expect(error.code == .invalidArgument)
      #expect(error.message.contains(needle), "\(error.message) should mention \(needle)")
      #expect(error.requestPath == nil)
    }
  }
}
