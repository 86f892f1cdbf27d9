/// Bytes handed over in fixed pieces, one piece per read, then the end of the connection:
/// drives the server's request parsing without a socket (the fuzz target and tests feed
/// the same bytes whole and split at many points and compare the requests read).
package struct HTTPChunkSource: HTTPByteSource {
  private var chunks: [ArraySlice<UInt8>]
  private var next = 0

  /// A source that delivers `chunks` in order (empty ones are skipped), then reports the
  /// peer closed.
  package init(_ chunks: [ArraySlice<UInt8>]) {
    self.chunks = chunks.filter { !$0.isEmpty }
  }

  package mutating func read(into buffer: inout [UInt8]) throws {
    guard next < chunks.count else { throw HTTPReadError.closed }
    buffer.append(contentsOf: chunks[next])
    next += 1
  }
}
