import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The libcurl transport against scripted HTTP/1.1 servers: reuse, recovery from
/// connections the server closed, broken replies, cancellation, header injection,
/// back-pressure and deadlines.
@Suite struct CurlTransportTests {
  static let ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"

  func body(_ response: HTTPResponse) async throws -> String {
    String(decoding: try await response.collectBody(), as: UTF8.self)
  }

  @Test func keepAliveReusesOneConnection() async throws {
    let server = try RawHTTPServer { connection, _ in
      while connection.readRequest() != nil { connection.write(Self.ok) }
    }
    defer { server.stop() }
    let transport = CurlTransport()
    for _ in 0..<5 {
      let response = try await transport.send(HTTPRequest(method: "POST", url: server.url("/a?b=c%2Fd"), body: Data("{}".utf8)))
      #expect(response.status == 200)
      #expect(try await body(response) == "ok")
    }
    #expect(server.accepted == 1)
    let statistics = transport.statistics
    #expect(statistics.requests == 5 && statistics.connectionsOpened == 1 && statistics.bytesSent == 10, "\(statistics)")
  }

  #if os(Linux)
    /// The loop thread carries its name where the system lists the process's threads.
    @Test func theLoopThreadIsNamed() async throws {
      let server = try RawHTTPServer { connection, _ in
        while connection.readRequest() != nil { connection.write(Self.ok) }
      }
      defer { server.stop() }
      let transport = CurlTransport()
      let response = try await transport.send(HTTPRequest(method: "GET", url: server.url("/named")))
      #expect(try await body(response) == "ok")
      // The loop thread lives as long as the transport: held until the names are read.
      let names = withExtendedLifetime(transport) { ThreadNames.current() }
      #expect(names.contains(CurlEventLoop.threadName), "\(names)")
    }
  #endif

  /// A reader that falls behind pauses the transfer: the server cannot push the whole body
  /// into the client's memory, and nothing is lost when the reader catches up.
  @Test func slowReaderPausesTheTransfer() async throws {
    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
    let chunks = 256  // 16 MiB
    let written = Locked(0)
    let socket = Locked<Int32?>(nil)
    let server = try RawHTTPServer { connection, _ in
      guard connection.readRequest() != nil else { return }
      connection.limitSendBuffer(64 << 10)
      socket.withLock { $0 = connection.fd }
      connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(chunk.count * chunks)\r\n\r\n")
      for _ in 0..<chunks {
        guard connection.write(bytes: chunk) else { return }
        written.withLock { $0 += chunk.count }
      }
    }
    defer { server.stop() }
    let response = try await CurlTransport().send(HTTPRequest(method: "GET", url: server.url("/big")))
    // Settled: the transport paused the transfer, and then the server could write no more.
    try await eventually("the transfer to pause") { response.body.transferIsPaused }
    let fd = try #require(socket.withLock { $0 })
    try await eventually("the server's writes to block") { !RawHTTPServer.Connection.isWritable(fd) }
    // While nobody reads: the transport's buffer plus the two sockets' buffers, far from 16 MiB.
    let whileIdle = written.withLock { $0 }
    #expect(whileIdle < 8 << 20, "the server wrote \(whileIdle) bytes while the reader was idle")
    var total = 0
    for try await piece in response.body { total += piece.count }
    #expect(total == chunk.count * chunks)
  }

  /// The deadline on a request is kept by the transport: a server that never answers costs
  /// the caller the deadline, no more.
  @Test func deadlineEndsAHangingRequest() async throws {
    // The deadline is real time; a run counts once the request reached the server before
    // the call failed. The server holds it until the test is done, and without the
    // deadline its close would end the call then, as unavailable.
    try await withGrowingMargin("the request reaching the server before the deadline", from: .milliseconds(300)) { margin in
      let requests = RequestCount()
      let release = DispatchSemaphore(value: 0)
      let server = try RawHTTPServer { connection, _ in
        if connection.readRequest() != nil { requests.value.withLock { $0 += 1 } }
        release.wait()
      }
      defer {
        release.signal()
        server.stop()
      }
      let error = await #expect(throws: FirestoreError.self) {
        _ = try await CurlTransport().send(HTTPRequest(method: "GET", url: server.url("/slow"), deadline: .now + margin))
      }
      #expect(error?.code == .deadlineExceeded, "\(String(describing: error))")
      return requests.value.withLock { $0 } == 1 ? .conclusive : .tooShort
    }
  }

  /// A body dropped before its end aborts its transfer: the connection is not reused.
  @Test func droppedBodyAbortsTheTransfer() async throws {
    let server = try RawHTTPServer { connection, index in
      guard connection.readRequest() != nil else { return }
      if index == 1 {
        connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
        // Hold the connection open; the client must give up on it by itself.
        connection.waitUntilClosed()
        return
      }
      connection.write(Self.ok)
      while connection.readRequest() != nil { connection.write(Self.ok) }
    }
    defer { server.stop() }
    let transport = CurlTransport()
    do {
      let response = try await transport.send(HTTPRequest(method: "GET", url: server.url("/endless")))
      var iterator = response.body.makeAsyncIterator()
      #expect(try await iterator.next() == Data("first".utf8))
    }
    let next = try await transport.send(HTTPRequest(method: "GET", url: server.url("/again")))
    #expect(try await body(next) == "ok")
    #expect(server.accepted == 2)
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
    let transport = CurlTransport()
    for _ in 0..<2 {
      let response = try await transport.send(HTTPRequest(method: "GET", url: server.url(), headers: ["connection": "close"]))
      #expect(try await body(response) == "ok")
    }
    #expect(server.accepted == 2)
    #expect(seen.withLock { $0 }.allSatisfy { $0.contains("\r\nConnection: close\r\n") })
  }

  @Test("headers go out as given; framing headers, in any case, and a kept-alive `Connection` are left to libcurl")
  func headersOnTheWire() async throws {
    let seen = Locked<String?>(nil)
    let server = try RawHTTPServer { connection, _ in
      guard let request = connection.readRequest() else { return }
      seen.withLock { $0 = request }
      connection.write(Self.ok)
    }
    defer { server.stop() }
    let headers = [
      "X-Empty": "", "HOST": "elsewhere.example", "content-LENGTH": "99", "Transfer-Encoding": "chunked", "EXPECT": "100-continue",
      "Connection": "keep-alive", "x-goog-request-params": "project_id=p&database_id=(default)",
    ]
    let response = try await CurlTransport().send(
      HTTPRequest(method: "POST", url: server.url("/h"), headers: headers, body: Data("{}".utf8)))
    #expect(try await body(response) == "ok")
    let request = try #require(seen.withLock { $0 }).lowercased()
    #expect(request.contains("\r\nx-empty:\r\n"))
    #expect(request.contains("\r\nx-goog-request-params: project_id=p&database_id=(default)\r\n"))
    #expect(request.contains("\r\ncontent-length: 2\r\n"))
    for absent in ["elsewhere.example", "content-length: 99", "chunked", "expect:", "keep-alive"] { #expect(!request.contains(absent)) }
  }

  @Test func requestLineKeepsPercentEncodingAndSendsLength() async throws {
    let seen = Locked<String?>(nil)
    let server = try RawHTTPServer { connection, _ in
      seen.withLock { $0 = connection.readRequest() }
      connection.write(Self.ok)
    }
    defer { server.stop() }
    let response = try await CurlTransport().send(
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
    let transport = CurlTransport()
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
    let transport = CurlTransport()
    _ = try await body(try await transport.send(HTTPRequest(method: "POST", url: server.url(), body: Data("{}".utf8))))
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await transport.send(HTTPRequest(method: "POST", url: server.url(), body: Data("{}".utf8)))
    }
    #expect(error?.code == .unavailable)
    #expect(error?.requestNotSent == false)
    // The message says it happened on a reused connection, for whoever debugs it.
    #expect(
      error?.message.contains("closed before a response arrived (on a reused connection; not sent again)") == true,
      "\(String(describing: error))")
    // libcurl may open a new connection before it finds it cannot rewind the body, but the
    // request never goes out again.
    #expect(requests.value.withLock { $0 } == 2)
  }

  @Test(arguments: [
    ("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-Cut", "inside the response head"),
    ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "before the response body was complete"),
    ("", "closed before a response arrived"),
    ("SSH-2.0-OpenSSH\r\n\r\n", "invalid status line or head"),
  ])
  func brokenRepliesAreErrorsNotCrashes(reply: String, problem: String) async throws {
    let server = try RawHTTPServer { connection, _ in
      _ = connection.readRequest()
      connection.write(reply)
    }
    defer { server.stop() }
    let error = await #expect(throws: FirestoreError.self) {
      let response = try await CurlTransport().send(HTTPRequest(method: "GET", url: server.url("/x")))
      _ = try await response.collectBody()
    }
    #expect(error?.code == .unavailable)
    #expect(error?.message.contains(problem) == true, "\(String(describing: error))")
  }

  @Test func connectionRefusedWasNotSent() async throws {
    // Port 1: a stopped server's port could be given to another test's server meanwhile.
    let url = URL(string: "http://127.0.0.1:1/x")!
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await CurlTransport().send(HTTPRequest(method: "POST", url: url, body: Data()))
    }
    #expect(error?.code == .unavailable)
    #expect(error?.requestNotSent == true)
    #expect(error?.message.contains("cannot connect to 127.0.0.1") == true)
  }

  @Test func headerInjectionIsRefused() async throws {
    let server = try RawHTTPServer { _, _ in }
    defer { server.stop() }
    let error = await #expect(throws: FirestoreError.self) {
      _ = try await CurlTransport().send(HTTPRequest(method: "GET", url: server.url(), headers: ["X-Evil": "a\r\nHost: b"]))
    }
    #expect(error?.code == .invalidArgument)
    #expect(error?.message.contains("X-Evil") == true)
    #expect(server.accepted == 0)
  }

  /// A streamed body arrives piece by piece, and cancelling the reader shuts the
  /// connection down: the next request needs a new one.
  @Test func streamingAndCancellation() async throws {
    let release = DispatchSemaphore(value: 0)
    let server = try RawHTTPServer { connection, index in
      guard index == 1 else {
        while connection.readRequest() != nil { connection.write(Self.ok) }
        return
      }
      guard connection.readRequest() != nil else { return }
      connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nfirst\r\n")
      // Hold the rest until the test says so; the client must see "first" before then.
      release.wait()
      connection.write("6\r\nsecond\r\n")
    }
    defer { server.stop() }
    let transport = CurlTransport()
    let response = try await transport.send(HTTPRequest(method: "GET", url: server.url("/listen")))
    let seen = Locked<[String]>([])
    let reader = Task { () -> [String] in
      var pieces: [String] = []
      for try await chunk in response.body {
        pieces.append(String(decoding: chunk, as: UTF8.self))
        seen.withLock { $0 = pieces }
      }
      return pieces
    }
    try await eventually("the first piece") { !seen.withLock { $0 }.isEmpty }
    #expect(seen.withLock { $0 } == ["first"])
    reader.cancel()
    release.signal()
    let pieces = try? await reader.value
    #expect(pieces == nil || pieces?.first == "first")
    let next = try await transport.send(HTTPRequest(method: "GET", url: server.url("/again")))
    #expect(try await body(next) == "ok")
    #expect(server.accepted == 2)
  }

}

/// How many requests a scripted server read.
final class RequestCount: Sendable {
  let value = Locked(0)
}
