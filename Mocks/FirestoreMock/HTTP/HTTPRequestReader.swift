/// Reads requests off a connection's bytes: the head, then the body framed by
/// `Content-Length` or chunked transfer coding, under the server's size limits.
///
/// ``HTTPConnection`` reads every request through one of these on its socket; the fuzz
/// target drives the same code on bytes in memory (``HTTPChunkSource``). A request is read
/// in two steps, ``readHead()`` then ``readBody(_:)``, because the server may have to
/// answer `100 Continue` in between.
struct HTTPRequestReader<Source: HTTPByteSource> {
  private var input: HTTPInputBuffer<Source>
  private let maximumHeadBytes: Int
  private let maximumBodyBytes: Int
  private let maximumChunkLineBytes: Int

  /// A reader with the limits of `configuration`.
  init(source: Source, configuration: MockHTTPServerConfiguration) {
    input = HTTPInputBuffer(source: source)
    maximumHeadBytes = configuration.maximumHeadBytes
    maximumBodyBytes = configuration.maximumBodyBytes
    maximumChunkLineBytes = configuration.maximumChunkLineBytes
  }

  /// Reads and parses the next request's head (blank lines before it are skipped).
  ///
  /// - Throws: ``HTTPRequestError`` for a malformed or oversized head (answered, then the
  ///   connection closes), ``HTTPReadError`` when the connection ends first.
  mutating func readHead() throws -> HTTPRequestHead {
    input.compact()
    return try HTTPRequestHead.parse(try input.readHeadLines(limit: maximumHeadBytes))
  }

  /// How the body of a request with `head` is framed, under the body size limit.
  ///
  /// - Throws: ``HTTPRequestError`` (400, 413 or 501) for framing the server refuses.
  func framing(of head: HTTPRequestHead) throws -> HTTPRequestHead.BodyFraming {
    try head.bodyFraming(maximumBodyBytes: maximumBodyBytes)
  }

  /// Reads the body framed as `framing` (de-chunked, trailers read and dropped).
  ///
  /// - Throws: ``HTTPRequestError`` for a malformed chunk or a body over the limit,
  ///   ``HTTPReadError`` when the connection ends first.
  mutating func readBody(_ framing: HTTPRequestHead.BodyFraming) throws -> [UInt8] {
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
      // Chunk extensions (";name=value") are allowed and ignored.
      var digits = line.prefix { $0 != UInt8(ascii: ";") }
      while let last = digits.last, last == 0x20 || last == 0x09 { digits = digits.dropLast() }
      guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16),
        digits.allSatisfy({ $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "-") })
      else { throw badSize }
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
