import FirestoreEngine
import FirestoreWire
import Testing

/// ``QueryEvaluator``'s membership test against its full evaluation.
@Suite("Engine: query evaluation")
struct QueryEvaluatorTests {
  private static func doc(_ id: String, _ fields: [String: Value]) -> Document {
    Document(name: "projects/p/databases/(default)/documents/c/" + id, fields: fields)
  }

  private static func ids(_ documents: [Document]) -> [String] {
    documents.map { $0.name.split(separator: "/").last.map(String.init) ?? "" }
  }

  @Test("unboundedMatches: the filter's matches that have every ordered field, in the candidates' order, whatever the bounds")
  func unboundedMatches() {
    let query = StructuredQuery(
      from: [.init(collectionID: "c")], filter: .field(path: "pop", op: .greaterThanOrEqual, value: .integer(2)),
      orderBy: [.init(fieldPath: "rank", descending: false)], startAt: .init(values: [.integer(0)], before: false), offset: 1,
      limit: 1)
    let candidates = [
      Self.doc("d", ["pop": .integer(5), "rank": .integer(2)]),
      Self.doc("a", ["pop": .integer(1), "rank": .integer(3)]),  // the filter leaves it out
      Self.doc("c", ["pop": .integer(3)]),  // no rank: no place in the order
      Self.doc("b", ["pop": .integer(2), "rank": .integer(0)]),
      Self.doc("e", ["pop": .integer(4), "rank": .integer(1)]),
    ]
    #expect(Self.ids(QueryEvaluator.unboundedMatches(query, over: candidates)) == ["d", "b", "e"])
    // The full evaluation orders them (b, e, d), starts after rank 0 (e, d), skips one (d)
    // and keeps one.
    #expect(Self.ids(QueryEvaluator.evaluate(query, over: candidates)) == ["d"])
  }
}
