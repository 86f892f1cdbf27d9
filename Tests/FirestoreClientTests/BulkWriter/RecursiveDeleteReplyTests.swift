import FirestoreWire
import Testing

@testable import FirestoreClient

/// A recursive delete against a server whose query replies cannot be trusted: it deletes
/// only what lies below what it was asked to delete, and a reply that does not move past
/// the names already read ends it instead of looping.
@Suite("Recursive delete: replies it refuses")
struct RecursiveDeleteReplyTests {
  private static func found(_ paths: [String]) -> String {
    let items = paths.map { #"{"document":{"name":"projects/p/databases/(default)/documents/\#($0)"},"readTime":"2026-01-01T00:00:00Z"}"# }
    return "[" + items.joined(separator: ",") + "]"
  }

  @Test("a name outside the collection is refused, and nothing is deleted for it")
  func nameOutsideSubtree() async throws {
    let transport = ScriptedTransport([
      .init(method: "POST", path: Offline.root + ":runQuery", response: .json(200, Self.found(["other/x"])))
    ])
    let db = Offline.firestore(transport)
    let error = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(db.collection("c")) }
    #expect(error?.code == .internal)
    #expect(error?.message.contains("other/x") == true)
    #expect(transport.requests.count == 1, "a batchWrite was sent")
  }

  @Test("a reply that lists a name again (a cursor ignored) ends the delete")
  func replyGoingBack() async throws {
    let transport = ScriptedTransport([
      .init(method: "POST", path: Offline.root + ":runQuery", response: .json(200, Self.found(["c/b", "c/a"]))),
      .init(
        method: "POST", path: Offline.root + ":batchWrite",
        body: #"{"writes":[{"delete":"projects/p/databases/(default)/documents/c/b"}]}"#,
        response: .json(200, #"{"writeResults":[{}],"status":[{}]}"#)),
    ])
    let db = Offline.firestore(transport)
    let error = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(db.collection("c")) }
    #expect(error?.code == .internal)
    #expect(error?.message.contains("out of order") == true)
    #expect(transport.unmetExpectations.isEmpty)
  }

  @Test("a closed writer is refused before anything is asked, even with nothing to delete")
  func closedWriter() async throws {
    let (db, transport) = Offline.noNetwork()
    let writer = db.bulkWriter()
    await writer.close()
    let collection = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(db.collection("c"), bulkWriter: writer) }
    #expect(collection?.code == .failedPrecondition)
    let document = await #expect(throws: FirestoreError.self) { try await db.recursiveDelete(db.document("c/d"), bulkWriter: writer) }
    #expect(document?.code == .failedPrecondition)
    #expect(transport.requests.isEmpty)
  }
}
