import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The socket transport against scripted servers: reuse, recovery from connections the
/// server closed, broken replies, cancellation and header injection.
@Suite struct SocketTransportTests {
  static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

  func body(_ response: HTTPResponse) async throws -> String {
    String(decoding: try await response.collectBody(), as: UTF8.self)
  }

  @Test func keepAliveReusesOneConnection() async throws {
    let server = try RawHTTPServer { connection, _ in
      while connection.readRequest() != nil { connection.write(Self.ok) }
    }
    defer { server.stop() }
    let transport = SocketTransport()
    for _ in 0..<5 {
      let response = try await transport.send(HTTPRequest(method: "POST", url: server.url("/a?b=c%2Fd"), body: Data("{}".utf8)))
      #expect(response.status == 200)
      #expect(try await body(response) == "ok")
    }
    #expect(server.accepted == 1)
  }

  @Test func connectionCloseIsNotReused() async throws {
    let seen = Locked<[String]>([])
    let server = try RawHTTPServer { connection, _ in
      while let request = connection.readRequest() {
        seen.withLock { $0.append(request) }
        connection.write(Self.ok)
      }
    }
    defer { server.stop() }
    let transport = SocketTransport()
    for _ in 0..<2 {
      let response = try await transport.send(HTTPRequest(method: "GET", url: server.url(), headers: ["connection": "close"]))
      #expect(try await body(response) == "ok")
    }
    #expect(server.accepted == 2)
    #expect(seen.withLock { $0 }.allSatisfy { $0.contains("\r\nConnection: close\r\n") })
  }

  @Test func requestLineKeepsPercentEncodingAndSendsLength() async throws {
    let seen = Locked<String?>(nil)
    let server = try RawHTTPServer { connection, _ in
      seen.withLock { $0 = connection.readRequest() }
      connection.write(Self.ok)
    }
    defer { server.stop() }
    let response = try await SocketTransport().send(
      HTTPRequest(method: "POST", url: server.url("/v1/x/%28default%29/d:commit?q=a%2Bb"), headers: ["X-Test": "1"], body: Data("{}".utf8)))
    _ = try await body(response)
    let request = try #require(seen.withLock { $0 })
    #expect(request.hasPrefix("POST /v1/x/%28default%29/d:commit?q=a%2Bb HTTP/1.1\r\n"))
    #expect(request.contains("\r\nContent-Length: 2\r\n"))
    #expect(request.contains("\r\nX-Test: 1\r\n"))
    #expect(request.hasSuffix("\r\n\r\n{}"))
  }

  /// A server that answers once, then reads the next request and closes without replying.
  func closesAfterFirstReply() throws -> (RawHTTPServer, RequestCount) {
    let requests = RequestCount()
    let server = try RawHTTPServer { connection, index in
      guard connection.readRequest() != nil else { return }
      requests.value.withLock { $0 += 1 }
      connection.write(Self.ok)
      if index == 1 {
        // Close only once the client has sent its next request, so the client cannot see
        // the close before reusing the connection.
        if connection.readRequest() != nil { requests.value.withLock { $0 += 1 } }
        return
      }
      while connection.readRequest() != nil {
        requests.value.withLock { $0 += 1 }
        connection.write(Self.ok)
      }
    }
    return (server, requests)
  }

  /// An idempotent request on a connection the server closed without replying goes again,
  /// once, on a fresh connection.
  @Test func silentlyClosedConnectionIsReplacedForIdempotentRequests() async throws {
    let (server, _) = try closesAfterFirstReply()
    defer { server.stop() }
    let transport = SocketTransport()
    for _ in 0..<3 {
      let response = try await transport.send(HTTPRequest(method: "GET", url: server.url()))
      #expect(try await body(response) == "ok")
    }
    #expect(server.accepted == 2)
  }

  /// A request that is not idempotent (a commit) is never sent twice by the transport: the
  /// server may have applied it before closing, so the caller gets an error that says the
  /// request went out.
  @Test func silentlyClosedConnectionFailsANonIdempotentRequest() async throws {
    let (server, requests) = try closesAfterFirstReply()
    defer { server.stop() }
    let transport = SocketTransport()
    _ = try await body(try await transport.send(HTTPRequest(method: "POST", url: server.url(), body: Data("{}".utf8))))
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await transport.send(HTTPRequest(method: "POST", url: server.url(), body: Data("{}".utf8)))
    }
    #expect(error?.code == .unavailable)
    #expect(error?.requestNotSent == false)
    // The message says what the reused connection had carried, for whoever debugs it.
    #expect(error?.message.contains("reused after 1 requests, the last POST /") == true, "\(String(describing: error))")
    #expect(requests.value.withLock { $0 } == 2)
    #expect(server.accepted == 1)
  }

  @Test(arguments: [
    ("HTTP/1.1 200 OK\r\nContent-Le", "inside the response head"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "before the response body was complete"),
    ("", "closed before a response arrived"),
    ("SSH-2.0-OpenSSH\r\n\r\n", "invalid status line"),
  ])
  func brokenRepliesAreErrorsNotCrashes(reply: String, problem: String) async throws {
    let server = try RawHTTPServer { connection, _ in
      _ = connection.readRequest()
      connection.write(reply)
    }
    defer { server.stop() }
    let error = await #expect(throws: FirestoreError.self) {
      let response = try await SocketTransport().send(HTTPRequest(method: "GET", url: server.url("/x")))
      _ = try await response.collectBody()
    }
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
  }

  @Test func connectionRefusedWasNotSent() async throws {
    let server = try RawHTTPServer { _, _ in }
    let url = server.url("/x")
    server.stop()
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await SocketTransport().send(HTTPRequest(method: "POST", url: url, body: Data()))
    }
    #expect(error?.code == .unavailable)
    #expect(error?.requestNotSent == true)
    #expect(error?.message.contains("cannot connect to 127.0.0.1") == true)
  }

  @Test func headerInjectionIsRefused() async throws {
    let server = try RawHTTPServer { _, _ in }
    defer { server.stop() }
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await SocketTransport().send(HTTPRequest(method: "GET", url: server.url(), headers: ["X-Evil": "a\r\nHost: b"]))
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("X-Evil") == true)
    #expect(server.accepted == 0)
  }

  /// A streamed body arrives piece by piece, and cancelling the reader shuts the
  /// connection down: the next request needs a new one.
  @Test func streamingAndCancellation() async throws {
    let release = Locked(false)
    let server = try RawHTTPServer { connection, index in
      guard index == 1 else {
        while connection.readRequest() != nil { connection.write(Self.ok) }
        return
      }
      guard connection.readRequest() != nil else { return }
      connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
      // Hold the rest until the test says so; the client must see "first" before then.
      while !release.withLock({ $0 }) { usleep(1000) }
      connection.write("6\r\nsecond\r\n")
    }
    defer { server.stop() }
    let transport = SocketTransport()
    let response = try await transport.send(HTTPRequest(method: "GET", url: server.url("/listen")))
    let reader = Task { () -> [String] in
      var pieces: [String] = []
      for try await chunk in response.body { pieces.append(String(decoding: chunk, as: UTF8.self)) }
      return pieces
    }
    try await Task.sleep(for: .milliseconds(50))
    reader.cancel()
    release.withLock { $0 = true }
    let pieces = try? await reader.value
    #expect(pieces == nil || pieces?.first == "first")
    let next = try await transport.send(HTTPRequest(method: "GET", url: server.url("/again")))
    #expect(try await body(next) == "ok")
    #expect(server.accepted == 2)
  }

  @Test func httpsGoesToTheFallback() async throws {
    let scripted = ScriptedTransport([.init(method: "GET", path: "/secure", response: .json(200, "via fallback"))])
    let transport = SocketTransport(fallback: scripted)
    let response = try await transport.send(HTTPRequest(method: "GET", url: URL(string: "https://example.com/secure")!))
    #expect(try await body(response) == "via fallback")
  }
}

/// How many requests a scripted server read.
final class RequestCount: Sendable {
  let value = Locked(0)
}
