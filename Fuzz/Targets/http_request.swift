// Fuzz target: HTTP/1.1 request reading (HTTPRequestReader over HTTPInputBuffer,
// HTTPRequestHead and HTTPChunkedCoding, exactly the code the mock server runs on its
// sockets), fed from memory, then the WebChannel forward body of each request
// (WebChannelForwardBody, as the mock's listen channel decodes it).
//
// Properties: the requests read (method, target, headers, body) and the way the
// connection ends are the same whether the bytes arrive whole, in tiny pieces or in pieces;
// a body is never longer than the input and a Content-Length body is exactly that long;
// the decoded path is the percent-decoding of the raw path; a forward body that decodes
// re-encodes to one that decodes the same.

import FirestoreWire
import HTTP1Server

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let whole = sameWhenSplit(bytes, "the request reader", feed: readRequests)
  let total = whole.requests.reduce(0) { $0 + $1.body.count }
  require(total <= bytes.count, "bodies of \(total) bytes from \(bytes.count) bytes of input")
  for request in whole.requests {
    if case .length(let count) = request.framing {
      require(request.body.count == count, "Content-Length \(count) but a body of \(request.body.count) bytes")
    }
    if let path = PercentEncoding.decode(request.rawPath.utf8, plusIsSpace: false) {
      require(path == request.path, "path \(request.path) is not the decoding of \(request.rawPath)")
    }
    checkForwardBody(request.body)
  }
  return 0
}

/// One request as read.
private struct ReadRequest: Equatable {
  var method: String
  var rawPath: String
  var path: String
  var rawQuery: String
  var query: [String]
  var headers: [String]
  var minorVersion: Int
  var framing: HTTPRequestHead.BodyFraming
  var body: [UInt8]
}

/// The requests of one connection, and how it ended.
private struct ConnectionRun: Equatable {
  var requests: [ReadRequest] = []
  /// The error the server answers (status and message), or "closed" when the input ran out.
  var end = ""
}

/// Reads requests as the mock server's connections do: head, framing, body, and on to the next request
/// while the connection would stay open.
private func readRequests(_ chunks: [ArraySlice<UInt8>]) -> ConnectionRun {
  var reader = HTTPRequestReader(source: HTTPChunkSource(chunks))
  var run = ConnectionRun()
  while true {
    do {
      let head = try reader.readHead()
      let framing = try reader.framing(of: head)
      let body = try reader.readBody(framing)
      run.requests.append(
        ReadRequest(
          method: head.method, rawPath: head.rawPath, path: head.path, rawQuery: head.rawQuery,
          query: head.query.map { "\($0.name)=\($0.value)" }, headers: head.headers.map { "\($0.name): \($0.value)" },
          minorVersion: head.minorVersion, framing: framing, body: body))
      if !head.wantsKeepAlive || head.hasConflictingFraming {
        run.end = "close after request"
        return run
      }
    } catch let error as HTTPRequestError {
      run.end = "\(error.status) \(error.message)"
      return run
    } catch {
      run.end = "\(error)"
      return run
    }
  }
}

private func checkForwardBody(_ body: [UInt8]) {
  let text = String(decoding: body, as: UTF8.self)
  guard let (offset, messages) = try? WebChannelForwardBody.decode(text) else { return }
  let headers = (try? WebChannelForwardBody.headers(in: text)) ?? []
  let encoded = WebChannelForwardBody.encode(messages: messages, offset: offset, headers: headers)
  guard let (offset2, messages2) = try? WebChannelForwardBody.decode(encoded) else {
    fail("forward body \(preview(body)) re-encodes as \(preview(Array(encoded.utf8))), which does not decode")
  }
  require(messages2 == messages, "forward body \(preview(body)) re-encodes with other messages")
  require(messages.isEmpty || offset2 == offset, "forward body \(preview(body)) re-encodes with another offset")
  if let headers2 = try? WebChannelForwardBody.headers(in: encoded) {
    require(
      headers2.map { "\($0.name):\($0.value)" } == headers.map { "\($0.name):\($0.value)" }, "forward body headers change when re-encoded")
  } else {
    require(headers.isEmpty, "forward body headers of \(preview(body)) do not decode once re-encoded")
  }
}
