import FirestoreWire
import Testing

@testable import FirestoreClient

@Suite("Query lowering")
struct QueryLoweringTests {
  let db = Offline.noNetwork().0

  private func json(_ q: some QueryConvertible) throws -> String {
    ScriptedTransport.canonical(try q.query.lowered().structuredQuery.json)
  }

  @Test("filters, orders, limits and the implicit document-key order")
  func basic() throws {
    let q = db.collection("articles").whereField("category", isEqualTo: "swift").order(by: "publishedAt", descending: true).limit(to: 20)
    #expect(
      try json(q)
        == #"{"from":[{"collectionId":"articles"}],"limit":20,"orderBy":[{"direction":"DESCENDING","field":{"fieldPath":"publishedAt"}},{"direction":"DESCENDING","field":{"fieldPath":"__name__"}}],"where":{"fieldFilter":{"field":{"fieldPath":"category"},"op":"EQUAL","value":{"stringValue":"swift"}}}}"#
    )
  }

  @Test("every query sends an order that ends with the document key: the Enterprise edition guarantees no order without one")
  func stableOrderOnEveryEdition() throws {
    let c = db.collection("c")
    let queries: [Query] = [
      c, c.whereField("a", isEqualTo: 1), c.whereField("a", isGreaterThan: 1), c.order(by: "b", descending: true).limit(to: 2),
      c.order(by: "b").limit(toLast: 2), db.collectionGroup("g").whereField("x", arrayContains: 1).limit(to: 5),
      c.order(by: "b").start(after: [1]),
    ]
    for query in queries {
      let order = try query.lowered().structuredQuery.orderBy
      #expect(order.last?.fieldPath == "__name__", "\(order)")
    }
  }

  @Test("inequality fields join the order before the document key")
  func inequalityOrder() throws {
    let lowered = try db.collection("c").whereField("b", isGreaterThan: 1).whereField("a", isNotEqualTo: 2).query.lowered()
    #expect(lowered.structuredQuery.orderBy.map(\.fieldPath) == ["a", "b", "__name__"])
  }

  @Test("limit(toLast:) flips orders and swaps cursors")
  func limitToLast() throws {
    let lowered = try db.collection("c").order(by: "n").start(at: [1]).end(before: [9]).limit(toLast: 2).query.lowered()
    #expect(lowered.reversesResults)
    #expect(lowered.structuredQuery.orderBy.map(\.descending) == [true, true])
    #expect(lowered.structuredQuery.startAt == .init(values: [.integer(9)], before: false))
    #expect(lowered.structuredQuery.endAt == .init(values: [.integer(1)], before: false))
  }

  @Test("subcollection queries run under their parent document")
  func parentPath() throws {
    let lowered = try db.collection("users/u 1/favorites").query.lowered()
    #expect(FirestoreRPC.runQuery(parent: lowered.parentPath).path == "documents/users/u%201:runQuery")
    #expect(try db.collectionGroup("x").query.lowered().structuredQuery.from == [.init(collectionID: "x", allDescendants: true)])
  }

  @Test("document IDs in filters and cursors become references")
  func documentKeys() throws {
    let lowered = try db.collection("c").whereField(FieldPath.documentID(), in: ["a", "b"]).order(by: FieldPath.documentID())
      .start(after: ["a"]).query.lowered()
    let prefix = "projects/p/databases/(default)/documents/c/"
    #expect(
      lowered.structuredQuery.filter
        == .field(path: "__name__", op: .in, value: .array([.reference(prefix + "a"), .reference(prefix + "b")])))
    #expect(lowered.structuredQuery.startAt?.values == [.reference(prefix + "a")])
  }

  @Test("an empty projection becomes the ID-only projection")
  func emptyProjection() throws {
    #expect(try db.collection("c").select([]).query.lowered().structuredQuery.select == ["__name__"])
    #expect(try db.collection("c").select(["a", FieldPath(["b-c"])]).query.lowered().structuredQuery.select == ["a", "`b-c`"])
  }
}
