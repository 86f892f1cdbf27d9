import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

@Suite("Write queue: who sends an awaited write")
struct WritePipelineTests {
  /// Answers every commit with one result per write, noting which task sent it; the
  /// commits listed in `holding` (by arrival, from 1) are held until their sender is
  /// cancelled, and then fail as ``CurlTransport`` fails a cancelled request; those listed
  /// in `unavailable` are answered 503.
  final class CommitTransport: Transport {
    private let holding: Set<Int>
    private let unavailable: Set<Int>
    private let state = Locked<(senders: [Int?], bodies: [Data], held: Int)>(([], [], 0))

    init(holding: Set<Int> = [], unavailable: Set<Int> = []) {
      self.holding = holding
      self.unavailable = unavailable
    }

    /// Like ``CurlTransport``, the exchange runs in the sending task.
    var enforcesDeadlines: Bool { true }

    /// The task each commit came from, in arrival order.
    var senders: [Int?] { state.withLock { $0.senders } }
    /// Each commit's body, in arrival order.
    var bodies: [Data] { state.withLock { $0.bodies } }
    /// How many held commits wait for their sender's cancellation.
    var held: Int { state.withLock { $0.held } }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      let sender = withUnsafeCurrentTask { $0?.hashValue }
      let arrival = state.withLock { s in
        s.senders.append(sender)
        s.bodies.append(request.body ?? Data())
        return s.senders.count
      }
      if holding.contains(arrival) {
        let gate = Locked<CheckedContinuation<Void, Never>?>(nil)
        await withTaskCancellationHandler {
          await withCheckedContinuation { continuation in
            gate.withLock { $0 = continuation }
            state.withLock { $0.held += 1 }
            if Task.isCancelled { gate.withLock { $0.take() }?.resume() }
          }
        } onCancel: {
          gate.withLock { $0.take() }?.resume()
        }
        state.withLock { $0.held -= 1 }
        throw FirestoreError(.cancelled, "the request was cancelled")
      }
      if unavailable.contains(arrival) {
        return HTTPResponse(
          status: 503, headers: ["content-type": "application/json"],
          body: Data(#"{"error":{"code":503,"status":"UNAVAILABLE","message":"try again"}}"#.utf8))
      }
      let writes = (try? JSONParser.parse(request.body ?? Data()))?["writes"]
      let count = if case .array(let list) = writes { list.count } else { 0 }
      let results = Array(repeating: #"{"updateTime":"2024-01-01T00:00:00Z"}"#, count: count).joined(separator: ",")
      let body = #"{"commitTime":"2024-01-01T00:00:00Z","writeResults":["# + results + "]}"
      return HTTPResponse(
        status: 200, headers: ["content-type": "application/json"],
        body: AsyncThrowingStream { c in
          c.yield(Data(body.utf8))
          c.finish()
        })
    }
  }

  @Test("a single repeatable write with nothing ahead is sent from its caller's task; a batch or an increment from the queue's")
  func sender() async throws {
    let transport = CommitTransport()
    let db = Offline.firestore(transport)
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    try await db.document("a/one").setData(["n": 1])
    let batch = db.batch()
    batch.setData(["n": 2], forDocument: db.document("a/two"))
    batch.setData(["n": 3], forDocument: db.document("a/three"))
    try await batch.commit()
    try await db.document("a/one").updateData(["n": FieldValue.increment(Int64(1))])
    let senders = transport.senders
    #expect(senders.count == 3)
    #expect(senders.first == caller)
    #expect(senders.dropFirst().allSatisfy { $0 != caller })
  }

  @Test("a caller cancelled while its write is under way gets cancelled; the write stays queued and is sent again")
  func cancelledCaller() async throws {
    let transport = CommitTransport(holding: [1])
    let db = Offline.firestore(transport)
    let write = Task { try await db.document("a/b").setData(["n": 1]) }
    try await eventually("the commit to be held") { transport.held == 1 }
    write.cancel()
    let error = await #expect(throws: FirestoreError.self) { try await write.value }
    #expect(error?.code == .cancelled)
    // The queue sends it again, from its own task, and the server applies it.
    try await db.waitForPendingWrites()
    let bodies = transport.bodies
    #expect(bodies.count == 2)
    #expect(bodies.first == bodies.last)
    let cached = try await db.document("a/b").getDocument(source: .cache)
    #expect(cached.data()?["n"] as? Int == 1)
    #expect(!cached.metadata.hasPendingWrites)
  }

  @Test("a caller whose own attempt leaves its write queued gets the results of the queue's next attempt")
  func callerWaitsForTheQueue() async throws {
    let transport = CommitTransport(unavailable: [1])
    // One attempt a call: the unavailable reply ends the caller's attempt, not the call's
    // own retries.
    let db = Offline.firestore(transport, retries: 1)
    let caller = withUnsafeCurrentTask { $0?.hashValue }
    try await db.document("a/b").setData(["n": 1])
    let senders = transport.senders
    #expect(senders.count == 2)
    #expect(senders.first == caller)
    #expect(senders.last != caller)
    #expect(transport.bodies.first == transport.bodies.last)
    let cached = try await db.document("a/b").getDocument(source: .cache)
    #expect(!cached.metadata.hasPendingWrites)
  }
}
