// Fuzz target: the HTTP/1.1 framing the mock server writes and the test clients read
// (HTTP1Server): chunked coding and the response head.
//
// Properties: a chunk-size line that is accepted gives a size that, written back in hex,
// is accepted as the same size, and a signed line is never accepted; a body framed with
// HTTPChunkedCoding (in pieces cut from the input) reads back whole through
// HTTPRequestReader however the request's bytes arrive; a response head built from a header
// name and value taken from the input has no line break but its own CRLFs.

import HTTP1Server

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPFraming(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  checkChunkSizeLine(Array(bytes.prefix { $0 != 0x0A }))
  checkChunkedBody(bytes)
  checkResponseHead(bytes)
  return 0
}

/// The first line of the input as a chunk-size line.
private func checkChunkSizeLine(_ line: [UInt8]) {
  let size = HTTPChunkedCoding.size(ofLine: line)
  if let first = line.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
    require(size == nil, "signed chunk size \(preview(line)) accepted as \(size ?? 0)")
  }
  guard let size else { return }
  require(size >= 0, "chunk size \(preview(line)) read as \(size)")
  let written = Array(String(size, radix: 16).utf8)
  require(HTTPChunkedCoding.size(ofLine: written) == size, "\(size) written as \(preview(written)) does not read back")
}

/// The input as a chunked request body, framed piece by piece, read back however split.
private func checkChunkedBody(_ bytes: [UInt8]) {
  var request = Array("POST /c HTTP/1.1\r\nHost: fuzz\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
  for piece in splittings(bytes)[2] { request += HTTPChunkedCoding.chunk(piece) }
  request += HTTPChunkedCoding.lastChunk
  for pieces in splittings(request) {
    var reader = HTTPRequestReader(source: HTTPChunkSource(pieces))
    do {
      let head = try reader.readHead()
      let body = try reader.readBody(try reader.framing(of: head))
      require(body == bytes, "a chunked body of \(bytes.count) bytes read back as \(body.count) bytes")
    } catch {
      fail("the chunked framing of \(preview(bytes)) was refused: \(error)")
    }
  }
}

/// A response head with one header whose name and value come from the input (split at the
/// first NUL byte).
private func checkResponseHead(_ bytes: [UInt8]) {
  let cut = bytes.firstIndex(of: 0) ?? bytes.count
  let name = String(decoding: bytes[..<cut], as: UTF8.self)
  let value = String(decoding: bytes[min(cut + 1, bytes.count)...], as: UTF8.self)
  let head = HTTPResponseHead.bytes(status: 200, headers: [(name, value)], framing: ("content-length", "0"), connection: nil)
  // Bytes, not `String`: a `Character` holds a whole CRLF, which would hide a bare CR or LF.
  let end: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
  require(head.starts(with: Array("HTTP/1.1 200 ".utf8)) && head.suffix(4).elementsEqual(end), "malformed head: \(preview(head))")
  var lines: [ArraySlice<UInt8>] = []
  var start = 0
  var index = 0
  let body = head.dropLast(2)
  while index + 1 < body.count {
    if body[index] == 0x0D && body[index + 1] == 0x0A {
      lines.append(body[start..<index])
      index += 2
      start = index
    } else {
      index += 1
    }
  }
  require(start == body.count, "the head does not end in CRLF CRLF: \(preview(head))")
  for line in lines {
    require(!line.isEmpty && !line.contains(0x0D) && !line.contains(0x0A), "a header split the head: \(preview(head))")
  }
  let separator: [UInt8] = [UInt8(ascii: ":"), 0x20]
  for line in lines.dropFirst() {
    require(line.indices.contains { line[$0...].starts(with: separator) }, "a header line without a name: \(preview(head))")
  }
}
