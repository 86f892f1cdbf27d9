import FirestoreWire
import Testing

@testable import FirestoreClient

/// What a stream asks for after its reply broke: the rest of the query from the last
/// document read, at that document's read time.
@Suite("Query stream: reading on after a broken reply")
struct QueryStreamResumeTests {
  private static let c = "projects/p/databases/(default)/documents/c"

  private static func element(_ id: String, _ i: Int, readTime: String) -> String {
    #"{"document":{"name":"\#(c)/\#(id)","fields":{"i":{"integerValue":"\#(i)"}},"#
      + #""createTime":"2026-01-01T00:00:00Z","updateTime":"2026-01-01T00:00:00Z"},"readTime":"\#(readTime)"}"#
  }

  @Test("the rest starts after the last document, with the limit less what was read, no offset, at its read time")
  func restOfQuery() async throws {
    let read = "2026-01-01T00:00:05Z"
    let broken = "[" + Self.element("a", 1, readTime: read) + "," + Self.element("b", 2, readTime: read) + ","
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Offline.root + ":runQuery",
        response: .broken(200, broken, FirestoreError(.unavailable, "connection reset"))),
      .init(
        method: "POST", path: Offline.root + ":runQuery",
        body: #"""
          {"structuredQuery":{"from":[{"collectionId":"c"}],
           "orderBy":[{"field":{"fieldPath":"i"},"direction":"ASCENDING"},{"field":{"fieldPath":"__name__"},"direction":"ASCENDING"}],
           "startAt":{"values":[{"integerValue":"2"},{"referenceValue":"\#(Self.c)/b"}]},
           "limit":3},
           "readTime":"2026-01-01T00:00:05Z"}
          """#,
        response: .json(200, "[" + Self.element("c", 3, readTime: "2026-01-01T00:00:05Z") + "]")),
    ])
    let db = Offline.firestore(transport)
    var ids: [String] = []
    for try await document in db.collection("c").order(by: "i").offset(1).limit(to: 5).stream() { ids.append(document.documentID) }
    #expect(ids == ["a", "b", "c"])
    #expect(transport.unmetExpectations.isEmpty)
  }

  @Test("a server that ignores the cursor ends the stream instead of sending the same documents round after round")
  func cursorIgnored() async throws {
    let read = "2026-01-01T00:00:05Z"
    let broken = "[" + Self.element("a", 1, readTime: read) + "," + Self.element("b", 2, readTime: read) + ","
    let cut = FirestoreError(.unavailable, "connection reset")
    let transport = ScriptedTransport([
      .init(method: "POST", path: Offline.root + ":runQuery", response: .broken(200, broken, cut)),
      .init(method: "POST", path: Offline.root + ":runQuery", response: .broken(200, broken, cut)),
    ])
    let db = Offline.firestore(transport)
    var ids: [String] = []
    let error = await #expect(throws: FirestoreError.self) {
      for try await document in db.collection("c").order(by: "i").stream() { ids.append(document.documentID) }
    }
    #expect(error?.code == .internal && error?.message.contains("not after") == true)
    #expect(ids == ["a", "b"])
  }

  @Test("a reply that breaks with an error no read retries ends the stream with it")
  func permanentError() async throws {
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Offline.root + ":runQuery",
        response: .broken(
          200, "[" + Self.element("a", 1, readTime: "2026-01-01T00:00:05Z") + ",", FirestoreError(.permissionDenied, "revoked")))
    ])
    let db = Offline.firestore(transport)
    var ids: [String] = []
    let error = await #expect(throws: FirestoreError.self) {
      for try await document in db.collection("c").stream() { ids.append(document.documentID) }
    }
    #expect(error?.code == .permissionDenied)
    #expect(ids == ["a"])
  }
}
