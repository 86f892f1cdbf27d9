import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreMock

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A minimal REST caller for the mock, independent of the client library (shared by the
/// mock's service tests).
struct REST {
  let server: MockFirestoreServer
  let project = "mocktest"

  var base: String { "http://\(server.hostAndPort)/v1/projects/\(project)/databases/(default)/documents" }
  var root: String { "projects/\(project)/databases/(default)/documents" }

  func call(_ method: String, _ suffix: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
    var request = URLRequest(url: URL(string: base + suffix)!)
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = body.map { Data($0.utf8) }
    let (data, response) = try await URLSession.shared.data(for: request)
    return ((response as! HTTPURLResponse).statusCode, try? JSONParser.parse(data))
  }

  func begin() async throws -> String {
    let (_, json) = try await call("POST", ":beginTransaction", "{}")
    return try #require(json?["transaction"]?.stringValue)
  }

  func commitSet(_ id: String, _ value: Int, transaction: String? = nil) async throws -> (Int, JSONValue?) {
    let tx = transaction.map { #","transaction":"\#($0)""# } ?? ""
    return try await call(
      "POST", ":commit", #"{"writes":[{"update":{"name":"\#(root)/c/\#(id)","fields":{"v":{"integerValue":"\#(value)"}}}}]\#(tx)}"#)
  }

  func lockRead(_ id: String, transaction: String) async throws {
    let (status, body) = try await call("POST", ":batchGet", #"{"documents":["\#(root)/c/\#(id)"],"transaction":"\#(transaction)"}"#)
    #expect(status == 200, "\(String(describing: body))")
  }
}

@Suite("Mock Firestore service")
struct MockServiceTests {
  @Test("starts in milliseconds and answers the emulator's health check")
  func startsFast() async throws {
    let clock = ContinuousClock()
    var server: MockFirestoreServer?
    let elapsed = try clock.measure { server = try MockFirestoreServer.start() }
    let s = try #require(server)
    defer { s.stop() }
    let (data, _) = try await URLSession.shared.data(from: URL(string: "http://\(s.hostAndPort)/")!)
    #expect(String(decoding: data, as: UTF8.self) == "Ok")
    print("mock server start-up: \(elapsed)")
  }

  @Test("a write to a document read by an open transaction waits, then fails with ABORTED")
  func lockBlocksWriters() async throws {
    let clock = MockClock.manual()
    let server = try MockFirestoreServer.start(lockTimeout: .milliseconds(300), clock: clock)
    defer { server.stop() }
    let rest = REST(server: server)
    _ = try await rest.commitSet("a", 1)
    let tx = try await rest.begin()
    try await rest.lockRead("a", transaction: tx)
    async let blockedCommit = rest.commitSet("a", 2)
    try await eventually("the write waits for the transaction's lock") { server.commitsWaitingForLocks == 1 }
    clock.advance(by: .milliseconds(300))
    let (blocked, error) = try await blockedCommit
    #expect(blocked == 409)
    #expect(error?["error"]?["status"]?.stringValue == "ABORTED")
    #expect(server.commitsWaitingForLocks == 0)
    let (committed, _) = try await rest.commitSet("a", 3, transaction: tx)
    #expect(committed == 200)
    let (free, _) = try await rest.commitSet("a", 4)
    #expect(free == 200)
  }

  @Test("two transactions that read the same document: one commits, the other is aborted")
  func contention() async throws {
    // The clock never moves, so no lock wait can time out: only deadlock detection ends one.
    let server = try MockFirestoreServer.start(lockTimeout: .seconds(5), clock: .manual())
    defer { server.stop() }
    let rest = REST(server: server)
    _ = try await rest.commitSet("b", 0)
    let t1 = try await rest.begin()
    let t2 = try await rest.begin()
    try await rest.lockRead("b", transaction: t1)
    try await rest.lockRead("b", transaction: t2)
    async let first = rest.commitSet("b", 1, transaction: t1)
    try await eventually("t1's commit waits for t2's lock") { server.commitsWaitingForLocks == 1 }
    let second = try await rest.commitSet("b", 2, transaction: t2)
    let statuses = [try await first.0, second.0]
    // A deadlock is detected at once rather than after the lock timeout: the commit that
    // would close the cycle is the one aborted, and the waiting one goes through.
    #expect(statuses == [200, 409])
  }

  @Test("an abandoned transaction expires and stops blocking writers")
  func abandonedTransactionExpires() async throws {
    let clock = MockClock.manual()
    let server = try MockFirestoreServer.start(lockTimeout: .seconds(20), transactionIdleTimeout: .seconds(6), clock: clock)
    defer { server.stop() }
    let rest = REST(server: server)
    let tx = try await rest.begin()
    try await rest.lockRead("c", transaction: tx)
    async let write = rest.commitSet("c", 1)
    try await eventually("the write waits for the abandoned transaction's lock") { server.commitsWaitingForLocks == 1 }
    clock.advance(by: .seconds(6) + .milliseconds(1))
    let (status, _) = try await write
    #expect(status == 200)
    let (late, _) = try await rest.commitSet("c", 2, transaction: tx)
    #expect(late == 400)  // the expired transaction is gone
  }

  @Test("the emulator's reset endpoint empties one database")
  func reset() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let rest = REST(server: server)
    _ = try await rest.commitSet("d", 1)
    var request = URLRequest(url: URL(string: "http://\(server.hostAndPort)/emulator/v1/projects/mocktest/databases/(default)/documents")!)
    request.httpMethod = "DELETE"
    let (_, response) = try await URLSession.shared.data(for: request)
    #expect((response as! HTTPURLResponse).statusCode == 200)
    let (status, _) = try await rest.call("GET", "/c/d")
    #expect(status == 404)
  }

  @Test("faults through the admin endpoint, and the request log")
  func adminEndpoint() async throws {
    let server = try MockFirestoreServer.start()
    defer { server.stop() }
    let rest = REST(server: server)
    var request = URLRequest(url: URL(string: "http://\(server.hostAndPort)/mock/v1/faults")!)
    request.httpMethod = "POST"
    request.httpBody = Data(
      #"{"route":"commit","remaining":2,"error":{"status":503,"grpcStatus":"UNAVAILABLE","message":"injected"}}"#.utf8)
    _ = try await URLSession.shared.data(for: request)
    #expect(try await rest.commitSet("e", 1).0 == 503)
    #expect(try await rest.commitSet("e", 1).0 == 503)
    #expect(try await rest.commitSet("e", 1).0 == 200)
    #expect(server.requestLog.count(matching: ":commit") == 3)

    // A hold added over HTTP, and released over HTTP once the commit is in flight.
    request.httpBody = Data(#"{"route":"commit","remaining":1,"hold":"h"}"#.utf8)
    _ = try await URLSession.shared.data(for: request)
    let held = Task { try await rest.commitSet("e", 2).0 }
    try await eventually("the commit to reach the hold") { server.faults.arrivals(at: "h") == 1 }
    #expect(try await rest.call("GET", "/c/e").1?["fields"]?["v"]?["integerValue"]?.stringValue == "1", "not applied while held")
    var release = URLRequest(url: URL(string: "http://\(server.hostAndPort)/mock/v1/faults:release")!)
    release.httpMethod = "POST"
    release.httpBody = Data(#"{"hold":"h"}"#.utf8)
    let (answer, _) = try await URLSession.shared.data(for: release)
    #expect(try JSONParser.parse(answer)["arrivals"] == .integer(1))
    #expect(try await held.value == 200)
  }
}
