import HTTP1Server
import Testing

/// Reads `text` as one connection's bytes: whole, and split after every byte.
private func readers(_ text: String, limits: HTTPRequestLimits = HTTPRequestLimits()) -> [HTTPRequestReader<HTTPChunkSource>] {
  let bytes = Array(text.utf8)
  return [
    HTTPRequestReader(source: HTTPChunkSource([bytes[...]]), limits: limits),
    HTTPRequestReader(source: HTTPChunkSource(bytes.indices.map { bytes[$0...$0] }), limits: limits),
  ]
}

/// The request the reader reads next, head and body, or what it throws.
private func next(_ reader: inout HTTPRequestReader<HTTPChunkSource>) throws -> (head: HTTPRequestHead, body: String) {
  let head = try reader.readHead()
  let body = try reader.readBody(reader.framing(of: head))
  return (head, String(decoding: body, as: UTF8.self))
}

/// The status of the `HTTPRequestError` that reading the next request throws, or nil.
private func refusal(_ text: String, limits: HTTPRequestLimits = HTTPRequestLimits()) -> [Int?] {
  readers(text, limits: limits).map { reader in
    var reader = reader
    do {
      _ = try next(&reader)
      return nil
    } catch let error as HTTPRequestError {
      return error.status
    } catch {
      return nil
    }
  }
}

@Suite("HTTP/1.1 request reader")
struct HTTPRequestReaderTests {
  @Test("pipelined requests are read in order however the bytes are split; paths and queries decoded, + kept")
  func pipelined() throws {
    let text =
      "\r\nGET /v1/a%20b/c%2Fd?x=1+2&y=%C3%A9&flag HTTP/1.1\r\nHost: h\r\nX-Mixed: A\r\n\r\n"
      + "POST /p HTTP/1.1\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello"
    for var reader in readers(text) {
      let first = try next(&reader)
      #expect(first.head.method == "GET")
      #expect(first.head.rawPath == "/v1/a%20b/c%2Fd")
      #expect(first.head.path == "/v1/a b/c/d")
      #expect(first.head.rawQuery == "x=1+2&y=%C3%A9&flag")
      #expect(first.head.query.map { [$0.name, $0.value] } == [["x", "1+2"], ["y", "é"], ["flag", ""]])
      #expect(first.head.headers.map(\.name) == ["host", "x-mixed"])
      #expect(first.head.wantsKeepAlive)
      #expect(first.body.isEmpty)
      let second = try next(&reader)
      #expect(second.head.method == "POST" && second.body == "hello")
      #expect(!second.head.wantsKeepAlive)
      #expect(throws: HTTPReadError.self) { try reader.readHead() }
    }
  }

  @Test("a chunked body is de-chunked, its extensions and trailers dropped")
  func chunked() throws {
    let text =
      "POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n"
      + "5;name=value\r\nhello\r\n1 \r\n \r\n5\r\nworld\r\n0\r\nX-Trailer: t\r\n\r\n"
    for var reader in readers(text) {
      let request = try next(&reader)
      #expect(request.head.expectsContinue)
      #expect(request.body == "hello world")
    }
  }

  @Test("HTTP/1.0 keeps the connection only when asked")
  func http10() throws {
    for var reader in readers("GET / HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n") {
      #expect(try !next(&reader).head.wantsKeepAlive)
      #expect(try next(&reader).head.wantsKeepAlive)
    }
  }

  @Test("what the server refuses: 400, 413, 501 and 505, before reading a body it would not keep")
  func refusals() {
    var small = HTTPRequestLimits()
    small.maximumBodyBytes = 4
    small.maximumHeadBytes = 64
    #expect(refusal("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\n", limits: small) == [413, 413])
    #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", limits: small) == [413, 413])
    #expect(refusal("GET / HTTP/1.1\r\nX-Long: \(String(repeating: "a", count: 80))\r\n\r\n", limits: small) == [400, 400])
    #expect(refusal("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == [400, 400])
    #expect(refusal("POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\nab") == [400, 400])
    #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n0\r\n\r\n") == [400, 400])
    #expect(refusal("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n") == [501, 501])
    #expect(refusal("GET /a%zz HTTP/1.1\r\n\r\n") == [400, 400])
    #expect(refusal("GET /%C3 HTTP/1.1\r\n\r\n") == [400, 400])
    #expect(refusal("GET / HTTP/2.0\r\n\r\n") == [505, 505])
  }

  @Test("Transfer-Encoding beside Content-Length is flagged, so the server can close after answering")
  func conflictingFraming() throws {
    for var reader in readers("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n") {
      #expect(try reader.readHead().hasConflictingFraming)
    }
  }

  @Test("a connection that ends inside a head or a body is closed, not a request")
  func truncated() {
    for text in ["GET / HTTP/1.1\r\nHost", "POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\nabc"] {
      for var reader in readers(text) {
        #expect(throws: HTTPReadError.self) { _ = try next(&reader) }
      }
    }
  }

  @Test("a response head: status line, the handler's safe headers, then framing and connection")
  func responseHead() {
    let head = String(
      decoding: HTTPResponseHead.bytes(
        status: 404, headers: [("X-A", "1"), ("Content-Length", "9"), ("X-Bad", "a\r\nInjected: 1"), ("Date", "d"), ("Server", "s")],
        framing: ("content-length", "3"), connection: "close"),
      as: UTF8.self)
    #expect(head.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
    #expect(head.contains("X-A: 1\r\n") && head.contains("content-length: 3\r\n") && head.hasSuffix("\r\n\r\n"))
    #expect(!head.contains("Injected") && !head.contains("Content-Length: 9"))
    #expect(HTTPChunkedCoding.chunk(Array("hello".utf8)[...]) == Array("5\r\nhello\r\n".utf8))
  }
}
