/// Reads requests off a connection's bytes: the head, then the body framed by
/// `Content-Length` or chunked transfer coding, under the server's size limits.
///
/// The mock server's connections read every request through one of these on their socket;
/// the fuzz target drives the same code on bytes in memory (``HTTPChunkSource``). A request is read
/// in two steps, ``readHead()`` then ``readBody(_:)``, because the server may have to
/// answer `100 Continue` in between.
package struct HTTPRequestReader<Source: HTTPByteSource> {
  private var input: HTTPInputBuffer<Source>
  private let maximumHeadBytes: Int
  private let maximumBodyBytes: Int
  private let maximumChunkLineBytes: Int

  /// A reader of `source` under `limits`.
  package init(source: Source, limits: HTTPRequestLimits = HTTPRequestLimits()) {
    input = HTTPInputBuffer(source: source)
    maximumHeadBytes = limits.maximumHeadBytes
    maximumBodyBytes = limits.maximumBodyBytes
    maximumChunkLineBytes = limits.maximumChunkLineBytes
  }

  /// Reads and parses the next request's head (blank lines before it are skipped).
  ///
  /// - Throws: ``HTTPRequestError`` for a malformed or oversized head (answered, then the
  ///   connection closes), ``HTTPReadError`` when the connection ends first.
  package mutating func readHead() throws -> HTTPRequestHead {
    try readHeadAndLines().head
  }

  /// ``readHead()``, also returning the head's lines as they arrived (without line ends),
  /// for a test server that looks at the request as sent.
  package mutating func readHeadAndLines() throws -> (head: HTTPRequestHead, lines: [[UInt8]]) {
    input.compact()
    let lines = try input.readHeadLines(limit: maximumHeadBytes)
    return (try HTTPRequestHead.parse(lines), lines)
  }

  /// How the body of a request with `head` is framed, under the body size limit.
  ///
  /// - Throws: ``HTTPRequestError`` (400, 413 or 501) for framing the server refuses.
  package func framing(of head: HTTPRequestHead) throws -> HTTPRequestHead.BodyFraming {
    try head.bodyFraming(maximumBodyBytes: maximumBodyBytes)
  }

  /// Reads the body framed as `framing` (de-chunked, trailers read and dropped).
  ///
  /// - Throws: ``HTTPRequestError`` for a malformed chunk or a body over the limit,
  ///   ``HTTPReadError`` when the connection ends first.
  package mutating func readBody(_ framing: HTTPRequestHead.BodyFraming) throws -> [UInt8] {
    switch framing {
    case .none: return []
    case .length(let count): return try input.readExactly(count)
    case .chunked: return try readChunkedBody()
    }
  }

  private mutating func readChunkedBody() throws -> [UInt8] {
    let badSize = HTTPRequestError.badRequest("Invalid chunk size.")
    var body: [UInt8] = []
    while true {
      let (line, _) = try input.readLine(limit: maximumChunkLineBytes, tooLong: badSize)
      guard let size = HTTPChunkedCoding.size(ofLine: line) else { throw badSize }
      if size == 0 { break }
      if body.count + size > maximumBodyBytes {
        throw HTTPRequestError.payloadTooLarge(limit: maximumBodyBytes)
      }
      body.append(contentsOf: try input.readExactly(size))
      let (end, _) = try input.readLine(limit: 2, tooLong: HTTPRequestError.badRequest("Chunk data longer than its size."))
      guard end.isEmpty else { throw HTTPRequestError.badRequest("Chunk data longer than its size.") }
    }
    // Trailer fields are read and ignored, under the same limit as the head.
    let tooLarge = HTTPRequestError.badRequest("Trailer block exceeds \(maximumHeadBytes) bytes.")
    var used = 0
    while true {
      let (line, consumed) = try input.readLine(limit: maximumHeadBytes - used, tooLong: tooLarge)
      used += consumed
      if line.isEmpty { return body }
    }
  }
}
