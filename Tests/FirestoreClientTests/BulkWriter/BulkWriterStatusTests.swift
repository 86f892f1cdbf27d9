import FirestoreWire
import Testing

@testable import FirestoreClient

/// How the bulk writer reads per-write statuses, on scripted replies: which failures are
/// retried (only the failed writes, in a request of their own) and which are reported.
@Suite("Bulk writer per-write statuses")
struct BulkWriterStatusTests {
  private static let path = Offline.root + ":batchWrite"

  private static func set(_ id: String, _ v: Int) -> String {
    #"{"update":{"name":"projects/p/databases/(default)/documents/c/\#(id)","fields":{"v":{"integerValue":"\#(v)"}}}}"#
  }

  private static func writer(_ transport: ScriptedTransport) -> BulkWriter {
    var options = BulkWriterOptions.unlimited
    options.clock = BulkWriterClock(now: { .zero }, sleep: { _ in })
    options.partialBatchDelay = .seconds(3_600)
    return Offline.firestore(transport).bulkWriter(options: options)
  }

  @Test("an ABORTED write is resent alone; the OK and the ALREADY_EXISTS ones are not")
  func retriesOnlyRetryableWrites() async throws {
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Self.path, body: #"{"writes":[\#(Self.set("a", 1)),\#(Self.set("b", 2)),\#(Self.set("c", 3))]}"#,
        response: .json(
          200,
          #"{"writeResults":[{"updateTime":"2026-01-01T00:00:01Z"},{},{}],"#
            + #""status":[{},{"code":10,"message":"contention"},{"code":6,"message":"exists"}]}"#)),
      .init(
        method: "POST", path: Self.path, body: #"{"writes":[\#(Self.set("b", 2))]}"#,
        response: .json(200, #"{"writeResults":[{"updateTime":"2026-01-01T00:00:02Z"}],"status":[{}]}"#)),
    ])
    let writer = Self.writer(transport)
    let a = try writer.setData(["v": 1], forDocument: writer.firestore.document("c/a"))
    let b = try writer.setData(["v": 2], forDocument: writer.firestore.document("c/b"))
    let c = try writer.setData(["v": 3], forDocument: writer.firestore.document("c/c"))
    await writer.close()
    #expect(try await a.result().updateTime == Timestamp(seconds: 1_767_225_601, nanoseconds: 0))
    #expect(try await b.result().updateTime == Timestamp(seconds: 1_767_225_602, nanoseconds: 0))
    let error = try await #require(throws: FirestoreError.self, "ALREADY_EXISTS reported as success") { try await c.result() }
    #expect(error.code == .alreadyExists)
    #expect(error.message.contains("c/c") && error.message.contains("exists"))
    #expect([a.attempts, b.attempts, c.attempts] == [1, 2, 1])
    #expect(transport.unmetExpectations.isEmpty)
  }

  @Test("a reply with the wrong number of results fails every write of the request")
  func malformedReply() async throws {
    let transport = ScriptedTransport([
      .init(
        method: "POST", path: Self.path, body: #"{"writes":[\#(Self.set("a", 1)),\#(Self.set("b", 2))]}"#,
        response: .json(200, #"{"writeResults":[{}],"status":[{}]}"#))
    ])
    let writer = Self.writer(transport)
    let a = try writer.setData(["v": 1], forDocument: writer.firestore.document("c/a"))
    let b = try writer.setData(["v": 2], forDocument: writer.firestore.document("c/b"))
    await writer.close()
    for op in [a, b] {
      let error = try await #require(throws: FirestoreError.self, "a write of a malformed reply succeeded") { try await op.result() }
      #expect(error.code == .internal)
      #expect(error.message.contains("1 results"))
    }
  }
}
