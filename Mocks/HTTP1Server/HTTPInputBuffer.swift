/// Buffered reading from one connection: lines for the head and chunk sizes, exact byte
/// counts for bodies. The bytes come from `Source` (the socket, or chunks in memory).
package struct HTTPInputBuffer<Source: HTTPByteSource> {
  private var source: Source
  private var buffer: [UInt8] = []
  /// Bytes before `start` have been consumed.
  private var start = 0

  package init(source: Source) {
    self.source = source
  }

  /// Whether unconsumed bytes are buffered (pipelined input).
  package var hasBufferedBytes: Bool { start < buffer.count }

  /// Reads the request line and header lines up to the empty line that ends the head,
  /// skipping blank lines before the request line. The whole head, line ends included,
  /// must fit in `limit` bytes.
  package mutating func readHeadLines(limit: Int) throws -> [[UInt8]] {
    let tooLarge = HTTPRequestError.badRequest("Request header block exceeds \(limit) bytes.")
    var used = 0
    var lines: [[UInt8]] = []
    while true {
      let (line, consumed) = try readLine(limit: limit - used, tooLong: tooLarge)
      used += consumed
      if line.isEmpty {
        if lines.isEmpty { continue }
        return lines
      }
      lines.append(line)
    }
  }

  /// Reads one line ending in LF (an optional CR before it is dropped). The LF must come
  /// within `limit` bytes, else `tooLong` is thrown. Returns the line and the bytes consumed.
  package mutating func readLine(limit: Int, tooLong: HTTPRequestError) throws -> (line: [UInt8], consumed: Int) {
    var scanned = start
    while true {
      let end = min(buffer.count, start + max(0, limit))
      if scanned < end, let newline = buffer[scanned..<end].firstIndex(of: 0x0A) {
        var lineEnd = newline
        if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
        let line = Array(buffer[start..<lineEnd])
        let consumed = newline + 1 - start
        start = newline + 1
        return (line, consumed)
      }
      if buffer.count - start >= limit { throw tooLong }
      scanned = max(scanned, end)
      try fill()
    }
  }

  /// Reads exactly `count` bytes.
  package mutating func readExactly(_ count: Int) throws -> [UInt8] {
    var out: [UInt8] = []
    // Not the whole declared length up front: a client could announce megabytes and send
    // nothing, on many connections.
    out.reserveCapacity(min(count, 256 * 1024))
    while true {
      let take = min(count - out.count, buffer.count - start)
      out.append(contentsOf: buffer[start..<start + take])
      start += take
      if out.count == count { return out }
      // Everything buffered was taken; start over so the buffer does not grow with the body.
      buffer.removeAll(keepingCapacity: true)
      start = 0
      try source.readMore(into: &buffer)
    }
  }

  /// Drops consumed bytes; call between requests.
  package mutating func compact() {
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: buffer.capacity <= 256 * 1024)
      start = 0
    } else if start > 0 {
      buffer.removeFirst(start)
      start = 0
    }
  }

  /// Appends whatever the source has next, waiting for it.
  private mutating func fill() throws {
    try source.read(into: &buffer)
  }
}
