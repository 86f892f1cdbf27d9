// Fuzz target: the socket transport's HTTP/1.1 response parser (HTTPResponseParser), which
// reads whatever a server or proxy sends back.
//
// Properties: the same bytes give the same head, body and end (and the same failure or
// success, and keep-alive decision) whether they arrive whole, in tiny pieces or in pieces;
// events come in order (one final head, then body, then one end, nothing after it); the
// body is never longer than the input, and a Content-Length body is exactly that long.

import Foundation

@testable import FirestoreClient

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  // Mostly the reply to a GET; one input in eight is read as the reply to a HEAD.
  let method = inputHash(bytes) % 8 == 0 ? "HEAD" : "GET"
  let runs = splittings(bytes).map { parse($0, method: method) }
  let whole = runs[0]
  for run in runs.dropFirst() {
    require(run.failed == whole.failed, "\(method) reply \(preview(bytes)) fails only when split (whole: \(whole.failed))")
    if !whole.failed {
      require(run == whole, "\(method) reply \(preview(bytes)) parses differently when split: \(run) vs \(whole)")
    }
  }
  check(whole, bytes: bytes, method: method)
  return 0
}

/// What the parser made of one way of feeding the bytes: consecutive body pieces are
/// joined, since their sizes depend on the reads.
private struct ResponseRun: Equatable {
  var status: Int?
  var headers: [String: String] = [:]
  var body = Data()
  var ended = false
  var failed = false
  var keepAlive = true
  var events: [String] = []
}

private func parse(_ chunks: [ArraySlice<UInt8>], method: String) -> ResponseRun {
  var parser = HTTPResponseParser(requestMethod: method)
  var run = ResponseRun()
  func record(_ events: [HTTPResponseParser.Event]) {
    for event in events {
      switch event {
      case .head(let status, let headers):
        require(run.status == nil, "a second final head")
        run.status = status
        run.headers = headers
        run.events.append("head")
      case .body(let data):
        require(run.status != nil && !run.ended, "body outside head...end")
        run.body += data
        if run.events.last != "body" { run.events.append("body") }
      case .end:
        require(run.status != nil && !run.ended, "end outside head...end")
        run.ended = true
        run.events.append("end")
      }
    }
  }
  do {
    for chunk in chunks { record(try chunk.withUnsafeBytes { try parser.append($0) }) }
    require(parser.isComplete == run.ended, "isComplete disagrees with the end event")
    record(try parser.finish())
    require(parser.isComplete && run.ended, "finish() returned without completing the message")
  } catch {
    run.failed = true
  }
  run.keepAlive = parser.keepAlive
  return run
}

private func check(_ run: ResponseRun, bytes: [UInt8], method: String) {
  require(run.body.count <= bytes.count, "body of \(run.body.count) bytes from \(bytes.count) bytes of input")
  guard let status = run.status else { return }
  require((100...999).contains(status), "status \(status)")
  if method == "HEAD" || status == 204 || status == 304 {
    require(run.body.isEmpty, "\(method) \(status) reply with a body")
  }
  if run.ended, !run.failed, run.headers["transfer-encoding"] == nil, method != "HEAD",
    let length = run.headers["content-length"]?.split(separator: ",").first.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
    status != 204, status != 304, status != 101
  {
    require(run.body.count == length, "Content-Length \(length) but a body of \(run.body.count) bytes")
  }
}
