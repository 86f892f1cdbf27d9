import FirestoreWire
import Testing

@testable import FirestoreClient

@Suite("Answered queries")
struct AnsweredQueriesTests {
  private func query(_ id: String, limit: Int32? = nil) -> ViewQuery {
    var structured = StructuredQuery(from: [.init(collectionID: id)])
    structured.limit = limit
    return .query(structured, parent: "", collectionID: id, allDescendants: false)
  }

  @Test("equal queries are one; another limit or parent is another query; a document is known by its name")
  func keys() {
    var answered = AnsweredQueries()
    answered.insert(query("a"))
    #expect(answered.contains(query("a")))
    #expect(!answered.contains(query("a", limit: 1)))
    let below = ViewQuery.query(StructuredQuery(from: [.init(collectionID: "a")]), parent: "p/q", collectionID: "a", allDescendants: false)
    #expect(!answered.contains(below))
    answered.insert(documentNamed: "projects/p/databases/(default)/documents/a/b")
    #expect(answered.contains(.document(name: "projects/p/databases/(default)/documents/a/b", path: "a/b")))
  }

  @Test("past the limit, the least recently answered tenth is forgotten")
  func limit() {
    var answered = AnsweredQueries()
    for i in 0..<AnsweredQueries.limit { answered.insert(query("q\(i)")) }
    answered.insert(query("q0"))  // answered again: the most recent now
    answered.insert(query("new"))
    #expect(answered.contains(query("q0")))
    #expect(answered.contains(query("new")))
    let tenth = AnsweredQueries.limit / 10
    #expect((1...tenth).allSatisfy { !answered.contains(query("q\($0)")) })
    #expect(answered.contains(query("q\(tenth + 1)")))
  }
}
