import FirestorePlatform
import FirestoreWire
import Testing

@testable import FirestoreClient

/// A commit's reply that cannot be used, and writes that come too late for their batch.
@Suite("Commits: unusable replies and late writes")
struct CommitReplyTests {
  private static let doc = "projects/p/databases/(default)/documents/c"

  @Test("a commit answered with results for another number of writes fails once, and is not sent again")
  func resultsOfAnotherCount() async throws {
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Offline.root + ":commit",
        response: .json(200, #"{"commitTime":"2026-01-01T00:00:00Z","writeResults":[{"updateTime":"2026-01-01T00:00:00Z"}]}"#))
    ])
    let db = Offline.firestore(transport)
    let batch = db.batch()
    batch.setData(["v": 1], forDocument: db.document("c/a"))
    batch.setData(["v": 2], forDocument: db.document("c/b"))
    let error = await #expect(throws: FirestoreError.self) { try await batch.commit() }
    #expect(error?.code == .internal && error?.message.contains("1 results for 2 writes") == true)
    // Settled: nothing is left to send, nothing waits.
    try await db.waitForPendingWrites()
    #expect(transport.requests.count == 1)
  }

  @Test("a write added to a committed batch is not kept, and the log says so")
  func writeAfterCommit() async throws {
    let logged = Locked<[String]>([])
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Offline.root + ":commit",
        response: .json(200, #"{"commitTime":"2026-01-01T00:00:00Z","writeResults":[{"updateTime":"2026-01-01T00:00:00Z"}]}"#))
    ])
    let settings = FirestoreSettings.emulator(host: "127.0.0.1:1")
    settings.transport = transport
    settings.logHandler = { line in logged.withLock { $0.append(line) } }
    let db = Firestore(projectID: "p", settings: settings)
    let batch = db.batch()
    batch.setData(["v": 1], forDocument: db.document("c/a"))
    try await batch.commit()
    batch.setData(["v": 2], forDocument: db.document("c/late"))
    #expect(batch.count == 1)
    #expect(logged.withLock { $0 }.contains { $0.contains("c/late") && $0.contains("already committed") })
    let again = await #expect(throws: FirestoreError.self) { try await batch.commit() }
    #expect(again?.code == .invalidArgument)
  }
}
