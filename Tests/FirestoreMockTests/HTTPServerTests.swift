import Dispatch
import FirestorePlatform
import FirestoreTestSupport
import FirestoreWire
import Testing

@testable import FirestoreMock

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Answers with a JSON echo of what the handler saw.
private let echo: MockHTTPServer.Handler = { request in
  .json(
    200,
    .object([
      ("method", .string(request.method)), ("path", .string(request.path)), ("rawPath", .string(request.rawPath)),
      ("query", .array(request.query.map { .array([.string($0.name), .string($0.value)]) })),
      ("body", .string(String(decoding: request.body, as: UTF8.self))), ("bodySize", .integer(Int64(request.body.count))),
    ]))
}

/// Runs `body` against a fresh server on an ephemeral port, stopping it afterwards (off the
/// test's thread: stop waits for the server's threads).
private func withServer(
  faults: FaultInjector = FaultInjector(), requestLog: RequestLog = RequestLog(),
  configuration: MockHTTPServerConfiguration = MockHTTPServerConfiguration(), handler: @escaping MockHTTPServer.Handler = echo,
  _ body: (MockHTTPServer) async throws -> Void
) async throws {
  let server = try MockHTTPServer.start(faults: faults, requestLog: requestLog, configuration: configuration, handler: handler)
  try await withStopping(server, stop: { $0.stop() }, body)
}

private func json(_ response: RawHTTPClient.Response) throws -> JSONValue {
  try JSONParser.parse(response.body)
}

private func get(_ path: String, _ extraHeaders: String = "") -> String {
  "GET \(path) HTTP/1.1\r\nHost: test\r\n\(extraHeaders)\r\n"
}

private func post(_ path: String, _ body: String, _ extraHeaders: String = "") -> String {
  "POST \(path) HTTP/1.1\r\nHost: test\r\nContent-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)"
}

/// Limits for tests that check what `stop()` reports: a stop timeout no stalled scheduler
/// reaches when every thread is released, so `stop() == false` can only mean one was not.
private var patientStop: MockHTTPServerConfiguration {
  var configuration = MockHTTPServerConfiguration()
  configuration.stopTimeoutMilliseconds = 120_000
  return configuration
}

/// How long a handler blocked on a test's signal waits for it at most: only a hang guard.
private let handlerHangGuard = DispatchTimeInterval.seconds(120)

private func milliseconds(_ duration: Duration) -> Int {
  Int(duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
}

private let tenMiB = 10 * 1024 * 1024

@Suite("Mock HTTP server")
struct HTTPServerTests {
  // MARK: - Requests and connections

  @Test("keep-alive: several requests on one connection")
  func keepAlive() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      for i in 0..<3 {
        try await client.send(i == 1 ? post("/r\(i)", "body\(i)") : get("/r\(i)"))
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(response.header("connection") == nil)
        #expect(response.header("content-type") == "application/json; charset=utf-8")
        #expect(response.header("server") != nil && response.header("date") != nil)
        #expect(try json(response)["path"] == .string("/r\(i)"))
      }
      #expect(server.requestLog.count() == 3)
    }
  }

  #if os(Linux)
    /// Tools that list a process's threads show the accept and connection threads by
    /// name: the connection is open and was answered, so both ran and named themselves.
    @Test func theServerThreadsAreNamed() async throws {
      try await withServer { server in
        let client = try await RawHTTPClient(port: server.port)
        try await client.send(get("/named"))
        #expect(try await client.readResponse().status == 200)
        // The connection thread lives as long as the connection: held until the names are read.
        let names = withExtendedLifetime(client) { ThreadNames.current() }
        #expect(names.contains(MockHTTPServerRuntime.acceptThreadName), "\(names)")
        #expect(names.contains(MockHTTPServerRuntime.connectionThreadName), "\(names)")
      }
    }
  #endif

  @Test("Connection: close and HTTP/1.0 end the connection; HTTP/1.0 keep-alive keeps it")
  func connectionClose() async throws {
    try await withServer { server in
      let closing = try await RawHTTPClient(port: server.port)
      try await closing.send(get("/a", "Connection: close\r\n"))
      #expect(try await closing.readResponse().header("connection") == "close")
      #expect(await closing.isClosedByServer())

      let old = try await RawHTTPClient(port: server.port)
      try await old.send("GET /b HTTP/1.0\r\n\r\n")
      #expect(try await old.readResponse().status == 200)
      #expect(await old.isClosedByServer())

      let oldKeepAlive = try await RawHTTPClient(port: server.port)
      for _ in 0..<2 {
        try await oldKeepAlive.send("GET /c HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let response = try await oldKeepAlive.readResponse()
        #expect(response.status == 200 && response.header("connection") == "keep-alive")
      }
    }
  }

  @Test("pipelined requests are answered in order")
  func pipelined() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/one") + post("/two", "2222") + get("/three") + post("/four", ""))
      for (path, body) in [("/one", ""), ("/two", "2222"), ("/three", ""), ("/four", "")] {
        let response = try await json(client.readResponse())
        #expect(response["path"] == .string(path))
        #expect(response["body"] == .string(body))
      }
    }
  }

  @Test("path and query are percent-decoded; + stays +")
  func percentDecoding() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/v1/a%20b/%28default%29/c%2Fd:run%51?x=1%2B2&y=a+b&x=3&flag&e=&%C3%A9=%E2%9C%93"))
      let echoed = try await json(client.readResponse())
      #expect(echoed["path"] == .string("/v1/a b/(default)/c/d:runQ"))
      #expect(echoed["rawPath"] == .string("/v1/a%20b/%28default%29/c%2Fd:run%51"))
      let pairs: [(String, String)] = [("x", "1+2"), ("y", "a+b"), ("x", "3"), ("flag", ""), ("e", ""), ("é", "✓")]
      #expect(echoed["query"] == .array(pairs.map { .array([.string($0.0), .string($0.1)]) }))
      #expect(server.requestLog.entries.first?.query == "x=1%2B2&y=a+b&x=3&flag&e=&%C3%A9=%E2%9C%93")
    }
  }

  @Test("chunked request body with extensions and trailers")
  func chunkedBody() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send("POST /c HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n7\r\n, world\r\n")
      try await client.send("A\r\n0123456789\r\n0\r\nX-Trailer: t\r\n\r\n")
      let echoed = try await json(client.readResponse())
      #expect(echoed["body"] == .string("hello, world0123456789"))
      // The connection is still in sync.
      try await client.send(get("/after"))
      #expect(try await json(client.readResponse())["path"] == .string("/after"))
    }
  }

  @Test("Expect: 100-continue gets 100 Continue before the body is sent")
  func expectContinue() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
      #expect(try await client.readHead().status == 100)
      try await client.send("hello")
      let response = try await client.readResponse()
      #expect(response.status == 200)
      #expect(try json(response)["body"] == .string("hello"))

      try await client.send("POST /big HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n")
      #expect(try await client.readHead().status == 100)
      try await client.send("3\r\nabc\r\n0\r\n\r\n")
      #expect(try await json(client.readResponse())["body"] == .string("abc"))
    }
  }

  @Test("a body of exactly 10 MiB is accepted")
  func maximumBody() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send("POST /max HTTP/1.1\r\nHost: t\r\nContent-Length: \(tenMiB)\r\n\r\n")
      try await client.send([UInt8](repeating: UInt8(ascii: "x"), count: tenMiB))
      let response = try await client.readResponse()
      #expect(response.status == 200)
      #expect(try json(response)["bodySize"] == .integer(Int64(tenMiB)))
    }
  }

  @Test("a body over 10 MiB gets 413 with a Firestore error and the connection closes")
  func payloadTooLarge() async throws {
    let expected =
      #"{"error":{"code":413,"message":"Request payload size exceeds the limit: 10485760 bytes.","status":"INVALID_ARGUMENT"}}"#
    try await withServer { server in
      // Declared length: refused before the body is read.
      let declared = try await RawHTTPClient(port: server.port)
      try await declared.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: \(tenMiB + 1)\r\n\r\n")
      let response = try await declared.readResponse()
      #expect(response.status == 413)
      #expect(response.text == expected)
      #expect(response.header("connection") == "close")
      #expect(await declared.isClosedByServer())

      // With Expect: 100-continue the client gets the 413 instead of 100 Continue.
      let expecting = try await RawHTTPClient(port: server.port)
      try await expecting.send("POST /big HTTP/1.1\r\nHost: t\r\nContent-Length: \(tenMiB + 1)\r\nExpect: 100-continue\r\n\r\n")
      #expect(try await expecting.readResponse().status == 413)

      // Chunked: refused once the chunks add up to more than the limit.
      let chunked = try await RawHTTPClient(port: server.port)
      try await chunked.send("POST /big HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
      let megabyte = Array("100000\r\n".utf8) + [UInt8](repeating: 0x61, count: 1 << 20) + Array("\r\n".utf8)
      for _ in 0..<10 { try await chunked.send(megabyte) }
      try await chunked.send("1\r\na\r\n0\r\n\r\n")
      let chunkedResponse = try await chunked.readResponse()
      #expect(chunkedResponse.status == 413)
      #expect(chunkedResponse.text == expected)
      #expect(await chunked.isClosedByServer())
      #expect(server.requestLog.count(matching: "/big") == 3)
      #expect(server.requestLog.entries.allSatisfy { $0.status == 413 })
    }
  }

  @Test(
    "malformed requests get 400 with a JSON error and close the connection",
    arguments: [
      "HELLO\r\n\r\n",
      "GET /x\r\n\r\n",
      "GET  /x HTTP/1.1\r\n\r\n",
      "GET /x HTTP/1.1 extra\r\n\r\n",
      "G(T /x HTTP/1.1\r\n\r\n",
      "GET /x HTTQ/1.1\r\n\r\n",
      "GET x HTTP/1.1\r\n\r\n",
      "GET /x HTTP/1.1\r\nNoColon\r\n\r\n",
      "GET /x HTTP/1.1\r\nBad Name: v\r\n\r\n",
      "GET /x HTTP/1.1\r\nA: b\r\n folded\r\n\r\n",
      "GET /x HTTP/1.1\r\nA: b\u{1}c\r\n\r\n",
      "GET /a%zz HTTP/1.1\r\n\r\n",
      "GET /a%FF HTTP/1.1\r\n\r\n",
      "GET /a?q=%4 HTTP/1.1\r\n\r\n",
      "POST /x HTTP/1.1\r\nContent-Length: abc\r\n\r\n",
      "POST /x HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\nab",
      "POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n",
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n",
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1234567890123456789\r\n",
      "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked, gzip\r\n\r\n",
      "\u{0}\u{1}\u{2}\u{FF}garbage\r\n\r\n",
    ])
  func malformed(_ input: String) async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(input)
      let response = try await client.readResponse()
      #expect(response.status == 400)
      let error = try json(response)["error"]
      #expect(error?["code"] == .integer(400))
      #expect(error?["status"] == .string("INVALID_ARGUMENT"))
      #expect(error?["message"]?.stringValue?.isEmpty == false)
      #expect(await client.isClosedByServer())

      // Other connections are unaffected.
      let other = try await RawHTTPClient(port: server.port)
      try await other.send(get("/fine"))
      #expect(try await other.readResponse().status == 200)
    }
  }

  @Test("unsupported transfer codings get 501, other HTTP versions 505")
  func unsupported() async throws {
    try await withServer { server in
      let gzip = try await RawHTTPClient(port: server.port)
      try await gzip.send("POST /x HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n")
      #expect(try await gzip.readResponse().status == 501)
      let http2 = try await RawHTTPClient(port: server.port)
      try await http2.send("GET /x HTTP/2.0\r\n\r\n")
      #expect(try await http2.readResponse().status == 505)
    }
  }

  @Test("a header block over 64 KiB gets 400")
  func headerTooLarge() async throws {
    try await withServer { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send("GET /x HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 70_000))\r\n\r\n")
      let response = try await client.readResponse()
      #expect(response.status == 400)
      #expect(try json(response)["error"]?["message"]?.stringValue?.contains("header") == true)
      #expect(await client.isClosedByServer())

      // Many smaller headers add up the same way; just under the limit is fine.
      let many = try await RawHTTPClient(port: server.port)
      try await many.send("GET /x HTTP/1.1\r\n" + String(repeating: "X-H: \(String(repeating: "b", count: 1000))\r\n", count: 70) + "\r\n")
      #expect(try await many.readResponse().status == 400)
      let fits = try await RawHTTPClient(port: server.port)
      try await fits.send("GET /x HTTP/1.1\r\n" + String(repeating: "X-H: \(String(repeating: "b", count: 1000))\r\n", count: 60) + "\r\n")
      #expect(try await fits.readResponse().status == 200)
    }
  }

  @Test("an idle keep-alive connection times out")
  func idleTimeout() async throws {
    var configuration = MockHTTPServerConfiguration()
    configuration.idleTimeoutMilliseconds = 200
    try await withServer(configuration: configuration) { server in
      // Sent in the step that connects: the server's idle timeout also ends a connection
      // on which no request arrives in time.
      let client = try await RawHTTPClient(port: server.port, sending: get("/x"))
      #expect(try await client.readResponse().status == 200)
      // Closed by the server on its own: within the client's read timeout, which is far
      // shorter than the default idle timeout, and never before the configured one.
      #expect(await client.isClosedByServer())
      #expect(milliseconds(client.connected.duration(to: .now)) >= 200)
      #expect(server.requestLog.count() == 1)
    }
  }

  @Test("200 concurrent keep-alive connections are served at the same time")
  func manyConnections() async throws {
    let count = 200
    let arrived = Locked(0)
    let allArrived = DispatchSemaphore(value: 0)
    let handler: MockHTTPServer.Handler = { request in
      let seen = arrived.withLock { value -> Int in
        value += 1
        return value
      }
      // The first round waits until every client's request is being handled at once: the
      // last to arrive lets them all go.
      if request.path == "/first" {
        if seen == count { for _ in 0..<count { allArrived.signal() } }
        _ = allArrived.wait(timeout: .now() + handlerHangGuard)
      }
      return .text(200, "\(seen) \(arrived.withLock { $0 })")
    }
    try await withServer(handler: handler) { server in
      var clients: [RawHTTPClient] = []
      for _ in 0..<count { clients.append(try await RawHTTPClient(port: server.port, timeoutSeconds: 180)) }
      for client in clients { try await client.send(get("/first")) }
      for client in clients {
        let response = try await client.readResponse()
        #expect(response.status == 200)
        #expect(response.text.hasSuffix(" \(count)"))
      }
      // Every connection is still usable.
      for client in clients { try await client.send(get("/second")) }
      for client in clients { #expect(try await client.readResponse().status == 200) }
      #expect(server.requestLog.count(matching: "/first") == count)
      #expect(server.requestLog.count(matching: "/second") == count)
    }
  }

  // MARK: - Streaming responses

  @Test("each streamed write arrives as its own chunk, at once")
  func streaming() async throws {
    let gate = DispatchSemaphore(value: 0)
    let handlerSawGate = Locked<Bool?>(nil)
    let handler: MockHTTPServer.Handler = { _ in
      MockHTTPResponse(
        status: 200, headers: [("content-type", "text/plain")],
        body: .streaming { writer in
          try writer.write(Array("first".utf8))
          // Chunk 2 is only written after the test has received chunk 1.
          let opened = gate.wait(timeout: .now() + handlerHangGuard) == .success
          handlerSawGate.withLock { $0 = opened }
          try writer.write([])
          try writer.write(Array("second".utf8))
        })
    }
    try await withServer(handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/stream"))
      let head = try await client.readHead()
      #expect(head.status == 200)
      #expect(head.header("transfer-encoding") == "chunked")
      #expect(head.header("content-length") == nil)
      // At once: chunk 1 arrives while the handler is still blocked before chunk 2.
      #expect(try await client.readChunk() == Array("first".utf8))
      gate.signal()
      #expect(try await client.readChunk() == Array("second".utf8))
      #expect(try await client.readChunk() == nil)
      #expect(handlerSawGate.withLock { $0 } == true)
      // The connection is reusable after the terminating chunk.
      try await client.send(get("/stream"))
      gate.signal()
      #expect(try await client.readResponse().text == "firstsecond")
    }
  }

  @Test("a streaming handler that throws ends the connection without the last chunk")
  func streamingThrows() async throws {
    struct Boom: Error {}
    let handler: MockHTTPServer.Handler = { _ in
      MockHTTPResponse(
        status: 200,
        body: .streaming { writer in
          try writer.write(Array("partial".utf8))
          throw Boom()
        })
    }
    try await withServer(handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/s"))
      _ = try await client.readHead()
      #expect(try await client.readChunk() == Array("partial".utf8))
      await #expect(throws: RawHTTPClient.ClientError.closed) { try await client.readChunk() }
    }
  }

  @Test("HTTP/1.0 clients get a streamed body delimited by the connection closing")
  func streamingHTTP10() async throws {
    let handler: MockHTTPServer.Handler = { _ in
      MockHTTPResponse(
        status: 200,
        body: .streaming { writer in
          try writer.write(Array("ab".utf8))
          try writer.write(Array("cd".utf8))
        })
    }
    try await withServer(handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send("GET /s HTTP/1.0\r\n\r\n")
      let head = try await client.readHead()
      #expect(head.header("transfer-encoding") == nil && head.header("connection") == "close")
      #expect(try await client.readToEOF() == Array("abcd".utf8))
    }
  }

  // MARK: - Faults

  @Test("latency delays the response")
  func latency() async throws {
    let faults = FaultInjector([FaultRule(route: "slow", fault: .latency(milliseconds: 150))])
    try await withServer(faults: faults) { server in
      let client = try await RawHTTPClient(port: server.port)
      let start = ContinuousClock.now
      try await client.send(post("/v1/x:slow", "{}"))
      #expect(try await client.readResponse().status == 200)
      #expect(milliseconds(start.duration(to: .now)) >= 150)
      #expect(faults.rules.count == 1)  // no `remaining`: applies forever
    }
  }

  @Test("fail the next K requests, then recover")
  func errorThenRecover() async throws {
    let calls = Locked(0)
    let handler: MockHTTPServer.Handler = { request in
      calls.withLock { $0 += 1 }
      return echo(request)
    }
    let faults = FaultInjector()
    faults.add(FaultRule(route: "commit", fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected"), remaining: 2))
    try await withServer(faults: faults, handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      let commit = post("/v1/projects/p/databases/(default)/documents:commit", "{}")
      for _ in 0..<2 {
        try await client.send(commit)
        let response = try await client.readResponse()
        #expect(response.status == 503)
        #expect(response.text == #"{"error":{"code":503,"message":"injected","status":"UNAVAILABLE"}}"#)
        #expect(response.header("content-type") == "application/json; charset=utf-8")
      }
      #expect(calls.withLock { $0 } == 0)
      try await client.send(post("/v1/projects/p/databases/(default)/documents:runQuery", "{}"))  // another route: untouched
      #expect(try await client.readResponse().status == 200)
      try await client.send(commit)
      #expect(try await client.readResponse().status == 200)
      #expect(calls.withLock { $0 } == 2)
      #expect(faults.rules.isEmpty)
      let statuses = server.requestLog.entries.map(\.status)
      #expect(statuses == [503, 503, 200, 200])
      #expect(server.requestLog.entries[0].faults == [.error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected")])
    }
  }

  @Test("dropConnection closes after N response bytes")
  func dropConnection() async throws {
    let faults = FaultInjector()
    try await withServer(faults: faults) { server in
      faults.add(FaultRule(fault: .dropConnection(afterResponseBytes: 10), remaining: 1))
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/x"))
      #expect(try await client.readToEOF() == Array("HTTP/1.1 2".utf8))

      faults.add(FaultRule(fault: .dropConnection(afterResponseBytes: 0), remaining: 1))
      let silent = try await RawHTTPClient(port: server.port)
      try await silent.send(get("/y"))
      #expect(try await silent.readToEOF().isEmpty)

      // A response shorter than the budget is sent in full, then the connection closes.
      faults.add(FaultRule(fault: .dropConnection(afterResponseBytes: 100_000), remaining: 1))
      let whole = try await RawHTTPClient(port: server.port)
      try await whole.send(get("/z"))
      #expect(try await whole.readResponse().status == 200)
      #expect(await whole.isClosedByServer())

      // Rule spent: back to normal.
      let normal = try await RawHTTPClient(port: server.port)
      try await normal.send(get("/w"))
      #expect(try await normal.readResponse().status == 200)
      #expect(server.requestLog.count() == 4)
    }
  }

  @Test("truncateStream cuts a Content-Length body")
  func truncateComplete() async throws {
    let body = [UInt8](repeating: UInt8(ascii: "b"), count: 100)
    let faults = FaultInjector([FaultRule(fault: .truncateStream(afterBytes: 30))])
    let handler: MockHTTPServer.Handler = { _ in MockHTTPResponse(status: 200, body: .complete(body)) }
    try await withServer(faults: faults, handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/x"))
      let head = try await client.readHead()
      #expect(head.header("content-length") == "100")
      #expect(try await client.readToEOF() == Array(body.prefix(30)))
    }
  }

  @Test("truncateStream cuts a chunked stream without the terminating chunk")
  func truncateStreaming() async throws {
    let writes = Locked<[String]>([])
    let handler: MockHTTPServer.Handler = { _ in
      MockHTTPResponse(
        status: 200,
        body: .streaming { writer in
          for _ in 0..<4 {
            do {
              try writer.write(Array("aaaaa".utf8))
              writes.withLock { $0.append("ok") }
            } catch {
              writes.withLock { $0.append("threw") }
              throw error
            }
          }
        })
    }
    let faults = FaultInjector([FaultRule(route: "GET /stream", fault: .truncateStream(afterBytes: 12))])
    try await withServer(faults: faults, configuration: patientStop, handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/stream"))
      #expect(try await client.readHead().header("transfer-encoding") == "chunked")
      #expect(try await client.readChunk() == Array("aaaaa".utf8))
      #expect(try await client.readChunk() == Array("aaaaa".utf8))
      #expect(try await client.readChunk() == Array("aa".utf8))
      await #expect(throws: RawHTTPClient.ClientError.closed) { try await client.readChunk() }
      // Once stop has seen every thread finish, the handler is done writing.
      #expect(await Blocking.run { server.stop() })
      #expect(writes.withLock { $0 } == ["ok", "ok", "threw"])
    }
  }

  @Test("replaceResponse answers with the given status, Content-Type and raw body, without calling the handler")
  func replaceResponse() async throws {
    let calls = Locked(0)
    let handler: MockHTTPServer.Handler = { request in
      calls.withLock { $0 += 1 }
      return echo(request)
    }
    let faults = FaultInjector()
    try await withServer(faults: faults, handler: handler) { server in
      let client = try await RawHTTPClient(port: server.port)
      let commit = post("/v1/projects/p/databases/(default)/documents:commit", "{}")
      faults.add(
        FaultRule(
          route: "commit", fault: .replaceResponse(status: 200, contentType: "text/html", body: Array("<html>hi</html>".utf8)), remaining: 1
        ))
      try await client.send(commit)
      let html = try await client.readResponse()
      #expect(html.status == 200 && html.header("content-type") == "text/html" && html.header("content-length") == "15")
      #expect(html.text == "<html>hi</html>")
      #expect(server.requestLog.entries[0].faults.map(\.description) == ["replaceResponse(200 text/html, 15 bytes)"])

      // An empty body without any Content-Type; the connection stays usable throughout.
      faults.add(FaultRule(route: "commit", fault: .replaceResponse(status: 502, contentType: nil, body: []), remaining: 1))
      try await client.send(commit)
      let empty = try await client.readResponse()
      #expect(empty.status == 502 && empty.header("content-type") == nil && empty.header("content-length") == "0" && empty.body.isEmpty)

      // JSON cut short but framed as complete.
      let cut = Array(#"{"name":"projects/p/data"#.utf8)
      faults.add(FaultRule(route: "commit", fault: .replaceResponse(status: 200, contentType: "application/json", body: cut), remaining: 1))
      try await client.send(commit)
      #expect(try await client.readResponse().body == cut)

      #expect(calls.withLock { $0 } == 0)
      try await client.send(commit)
      #expect(try await client.readResponse().status == 200)
      #expect(calls.withLock { $0 } == 1)
      #expect(server.requestLog.entries.map(\.status) == [200, 502, 200, 200])
      #expect(server.requestLog.entries[1].faults == [.replaceResponse(status: 502, contentType: nil, body: [])])

      // With a truncate rule on top, the replacement is cut like any response.
      faults.add(
        FaultRule(route: "GET ", fault: .replaceResponse(status: 200, contentType: "text/plain", body: Array("abcdef".utf8)), remaining: 1))
      faults.add(FaultRule(route: "GET ", fault: .truncateStream(afterBytes: 2), remaining: 1))
      let cutClient = try await RawHTTPClient(port: server.port)
      try await cutClient.send(get("/x"))
      #expect(try await cutClient.readHead().header("content-length") == "6")
      #expect(try await cutClient.readToEOF() == Array("ab".utf8))
    }
  }

  @Test("stall holds the request until the server stops")
  func stall() async throws {
    let faults = FaultInjector([FaultRule(route: ":batchGet", fault: .stall)])
    var configuration = patientStop
    // Longer than stop waits: a stall that only its own limit ends leaves stop() false.
    configuration.stallLimitMilliseconds = 3_600_000
    try await withServer(faults: faults, configuration: configuration) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(post("/v1/documents:batchGet", "{}"))
      try await eventually("the server has read the stalled request") { server.requestLog.count(matching: ":batchGet") == 1 }
      // Held: the request has been read, and the connection is open with nothing sent.
      #expect(client.isOpenAndSilent())
      // stop() releases the stall: every thread finishes, and the client sees the close
      // with nothing sent before it.
      #expect(await Blocking.run { server.stop() })
      #expect(try await client.readToEOF().isEmpty)
      #expect(server.requestLog.entries.first?.status == nil)
      #expect(server.requestLog.entries.first?.faults == [.stall])
    }
  }

  @Test("hold keeps the request until it is released, then handles it; the arrivals count says it is in flight")
  func hold() async throws {
    let faults = FaultInjector([FaultRule(route: ":batchGet", fault: .hold("gate"), remaining: 1)])
    try await withServer(faults: faults) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(post("/v1/documents:batchGet", "{}"))
      try await eventually("the request to reach the hold") { faults.arrivals(at: "gate") == 1 }
      // Held: read and logged, nothing answered yet.
      #expect(client.isOpenAndSilent())
      #expect(server.requestLog.entries.first?.status == nil)
      faults.release("gate")
      #expect(try await client.readResponse().status == 200)
      #expect(server.requestLog.entries.first?.faults == [.hold("gate")])
      // A released hold lets later requests through at once.
      faults.add(FaultRule(route: ":batchGet", fault: .hold("gate"), remaining: 1))
      try await client.send(post("/v1/documents:batchGet", "{}"))
      #expect(try await client.readResponse().status == 200)
      #expect(faults.arrivals(at: "gate") == 2)
    }
  }

  @Test("route matching")
  func routes() {
    let commitPath = "/v1/projects/p/databases/(default)/documents:commit"
    #expect(FaultRule(route: nil, fault: .stall).matches(method: "GET", path: "/anything"))
    #expect(FaultRule(route: "commit", fault: .stall).matches(method: "POST", path: commitPath))
    #expect(FaultRule(route: "Commit", fault: .stall).matches(method: "POST", path: commitPath))
    #expect(
      !FaultRule(route: "commit", fault: .stall).matches(method: "GET", path: "/v1/projects/p/databases/(default)/documents/commits/c1"))
    #expect(!FaultRule(route: "commit", fault: .stall).matches(method: "POST", path: "/v1/x:runQuery"))
    #expect(FaultRule(route: "runQuery", fault: .stall).matches(method: "POST", path: "/v1/x/documents/c/d:runQuery"))
    #expect(FaultRule(route: "listen", fault: .stall).matches(method: "GET", path: "/google.firestore.v1.Firestore/Listen/channel"))
    #expect(FaultRule(route: "GET ", fault: .stall).matches(method: "GET", path: "/v1/x"))
    #expect(!FaultRule(route: "GET ", fault: .stall).matches(method: "POST", path: "/v1/x"))
    #expect(FaultRule(route: "/documents/cities/", fault: .stall).matches(method: "PATCH", path: "/v1/p/documents/cities/sf"))
    #expect(FaultRule(route: ":commit", fault: .stall).matches(method: "POST", path: commitPath))
    let channel = "/google.firestore.v1.Firestore/Listen/channel"
    let backChannel = FaultRule(route: "GET \(channel)?RID=rpc", fault: .stall)
    #expect(backChannel.matches(method: "GET", path: channel, query: "database=d&RID=rpc&SID=s"))
    #expect(!backChannel.matches(method: "GET", path: channel, query: "database=d&TYPE=terminate&SID=s"))
    #expect(!backChannel.matches(method: "POST", path: channel, query: "RID=rpc"))
    #expect(FaultRule(route: "Listen?TYPE=terminate", fault: .stall).matches(method: "GET", path: channel, query: "SID=s&TYPE=terminate"))
    #expect(!FaultRule(route: "Listen?TYPE=terminate", fault: .stall).matches(method: "GET", path: channel, query: "SID=s"))
    #expect(FaultRule(route: "?x=1", fault: .stall).matches(method: "GET", path: "/any", query: "x=1"))
  }

  @Test("fault rules parse from and print to JSON")
  func faultJSON() throws {
    let cases: [(String, FaultRule)] = [
      (
        #"{"route":"commit","remaining":2,"error":{"status":503,"grpcStatus":"UNAVAILABLE","message":"injected"}}"#,
        FaultRule(route: "commit", fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "injected"), remaining: 2)
      ),
      (#"{"latencyMs":50}"#, FaultRule(fault: .latency(milliseconds: 50))),
      (#"{"dropAfterBytes":10}"#, FaultRule(fault: .dropConnection(afterResponseBytes: 10))),
      (#"{"truncateAfterBytes":100,"route":null}"#, FaultRule(fault: .truncateStream(afterBytes: 100))),
      (#"{"stall":true,"remaining":"1"}"#, FaultRule(fault: .stall, remaining: 1)),
      (#"{"hold":"commit","route":"commit"}"#, FaultRule(route: "commit", fault: .hold("commit"))),
      (#"{"error":{"status":409}}"#, FaultRule(fault: .error(status: 409, grpcStatus: "ABORTED", message: "Injected fault."))),
      (#"{"error":{"status":502}}"#, FaultRule(fault: .error(status: 502, grpcStatus: "UNAVAILABLE", message: "Injected fault."))),
      (
        #"{"replaceResponse":{"status":200,"contentType":"text/html","body":"<p>"}}"#,
        FaultRule(fault: .replaceResponse(status: 200, contentType: "text/html", body: Array("<p>".utf8)))
      ),
      (#"{"replaceResponse":{}}"#, FaultRule(fault: .replaceResponse(status: 200, contentType: nil, body: []))),
      (
        #"{"replaceResponse":{"status":"503","contentType":null,"bodyBase64":"/wA="}}"#,
        FaultRule(fault: .replaceResponse(status: 503, contentType: nil, body: [0xFF, 0x00]))
      ),
    ]
    for (text, expected) in cases {
      let rule = try FaultRule.parse(json: JSONParser.parse(text))
      #expect(rule == expected)
      #expect(try FaultRule.parse(json: rule.json) == rule)
    }
    let bad = [
      "[]", "{}", #"{"latencyMs":-1}"#, #"{"latencyMs":1.5}"#, #"{"latencyMs":1,"stall":true}"#, #"{"stall":false}"#,
      #"{"stall":true,"remaining":0}"#, #"{"stall":true,"route":1}"#, #"{"stall":true,"typo":1}"#, #"{"error":{"status":99}}"#,
      #"{"error":{"bogus":1}}"#, #"{"error":"x"}"#, #"{"replaceResponse":"x"}"#, #"{"replaceResponse":{"status":100}}"#,
      #"{"replaceResponse":{"body":"a","bodyBase64":"YQ=="}}"#, #"{"replaceResponse":{"bodyBase64":"!"}}"#,
      #"{"replaceResponse":{"contentType":"a\r\nX: y"}}"#, #"{"replaceResponse":{"typo":1}}"#, #"{"hold":true}"#,
    ]
    for text in bad {
      #expect(throws: WireFormatError.self, "\(text)") { try FaultRule.parse(json: JSONParser.parse(text)) }
    }
  }

  // MARK: - Request log and lifecycle

  @Test("the request log records every request, faulted ones included")
  func requestLog() async throws {
    let faults = FaultInjector([FaultRule(route: "DELETE ", fault: .error(status: 500, grpcStatus: "INTERNAL", message: "x"))])
    try await withServer(faults: faults) { server in
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/v1/a?x=1"))
      try await client.send(post("/v1/db/documents:commit", "12345"))
      try await client.send(post("/v1/db/documents:commit", "{}"))
      try await client.send("DELETE /v1/a/b HTTP/1.1\r\nHost: t\r\n\r\n")
      for _ in 0..<4 { _ = try await client.readResponse() }
      let log = server.requestLog
      #expect(log.count() == 4)
      #expect(log.count(matching: ":commit") == 2)
      #expect(log.count(matching: ":commit", method: "post") == 2)
      #expect(log.count(method: "GET") == 1)
      #expect(log.count(matching: "/v1/a/b", method: "DELETE") == 1)
      let entries = log.entries
      #expect(entries.map(\.method) == ["GET", "POST", "POST", "DELETE"])
      #expect(entries.map(\.status) == [200, 200, 200, 500])
      #expect(entries.map(\.bodySize) == [0, 5, 2, 0])
      #expect(entries[0].query == "x=1" && entries[0].path == "/v1/a")
      #expect(entries[3].faults.count == 1)
      #expect(entries.map(\.id) == [0, 1, 2, 3])
      #expect(entries[1].headers.contains { $0.name == "content-length" && $0.value == "5" })
      log.clear()
      #expect(log.count() == 0 && log.entries.isEmpty)
    }
  }

  @Test("a shared request log, its JSON form, and /mock/ paths exempt from faults")
  func sharedLogAndAdminExemption() async throws {
    let log = RequestLog()
    let faults = FaultInjector([FaultRule(fault: .error(status: 503, grpcStatus: "UNAVAILABLE", message: "down"))])
    try await withServer(faults: faults, requestLog: log) { server in
      #expect(server.requestLog === log)
      let client = try await RawHTTPClient(port: server.port)
      try await client.send(get("/v1/x?a=b"))
      #expect(try await client.readResponse().status == 503)
      try await client.send("DELETE /mock/v1/faults HTTP/1.1\r\nHost: t\r\n\r\n")
      #expect(try await client.readResponse().status == 200)  // a catch-all rule does not reach admin paths
      #expect(faults.rules.count == 1)

      let entry = try #require(log.entries.first)
      let json = entry.json
      #expect(json["id"] == .integer(0) && json["method"] == .string("GET") && json["path"] == .string("/v1/x"))
      #expect(json["query"] == .string("a=b") && json["status"] == .integer(503) && json["bodySize"] == .integer(0))
      #expect(
        json["faults"]
          == .array([
            .object([("error", .object([("status", .integer(503)), ("grpcStatus", .string("UNAVAILABLE")), ("message", .string("down"))]))])
          ]))
      #expect(json["headers"]?.arrayValue?.first == .array([.string("host"), .string("test")]))
      #expect(json["time"]?.stringValue?.hasSuffix("Z") == true)
      #expect(log.entries.last?.faults.isEmpty == true)
    }
  }

  @Test("stop closes open connections, is idempotent, and refuses new ones")
  func stopClosesConnections() async throws {
    let streaming: MockHTTPServer.Handler = { request in
      guard request.path == "/forever" else { return echo(request) }
      return MockHTTPResponse(
        status: 200,
        body: .streaming { writer in
          while true {
            try writer.write(Array("tick".utf8))
            usleep(10_000)
          }
        })
    }
    // Refused once stopped: on a port that no other test's server can be given meanwhile.
    let server = try FixedPort.start { try MockHTTPServer.start(port: $0, configuration: patientStop, handler: streaming) }
    let port = server.port
    let idle = try await RawHTTPClient(port: port)
    try await idle.send(get("/x"))
    #expect(try await idle.readResponse().status == 200)
    let streamer = try await RawHTTPClient(port: port)
    try await streamer.send(get("/forever"))
    _ = try await streamer.readHead()
    #expect(try await streamer.readChunk() == Array("tick".utf8))

    // Every thread finishes: the streaming handler's next write fails once its connection
    // is shut, instead of stop() giving up on it.
    #expect(await Blocking.run { server.stop() })
    #expect(await idle.isClosedByServer())
    _ = try? await streamer.readToEOF()  // whatever ticks were in flight, then EOF
    #expect(await streamer.isClosedByServer())
    #expect(await Blocking.run { server.stop() })
    await #expect(throws: RawHTTPClient.ClientError.connectFailed(ECONNREFUSED)) { try await RawHTTPClient(port: port) }
  }

  @Test("stop called from a handler does not deadlock")
  func stopFromHandler() async throws {
    let box = Locked<MockHTTPServer?>(nil)
    let stopped = Locked<Bool?>(nil)
    let stopReturned = DispatchSemaphore(value: 0)
    let server = try MockHTTPServer.start(configuration: patientStop) { _ in
      // Waiting for its own thread would never end: stop() would give up and say false.
      let finished = box.withLock { $0 }?.stop()
      stopped.withLock { $0 = finished }
      stopReturned.signal()
      return .text(200, "bye")
    }
    box.withLock { $0 = server }
    let client = try await RawHTTPClient(port: server.port)
    try await client.send(get("/stop"))
    _ = try? await client.readToEOF()
    // The client sees EOF as soon as stop() shuts the connections; the listener is closed
    // by the time stop() returns in the handler.
    #expect(await Blocking.run { stopReturned.wait(timeout: .now() + handlerHangGuard) } == .success)
    #expect(stopped.withLock { $0 } == true)
    #expect((try? await RawHTTPClient(port: server.port)) == nil)
    box.withLock { $0 = nil }
  }

  @Test("starting on a port in use fails with a SocketError")
  func portInUse() async throws {
    try await withServer { server in
      #expect(throws: MockHTTPServer.SocketError.self) { try MockHTTPServer.start(port: server.port, handler: echo) }
    }
  }
}
