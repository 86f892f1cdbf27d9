/// Where an ``HTTPInputBuffer`` gets its bytes: the connection's socket in the server, a
/// list of chunks when a parser is driven without a socket (fuzzing, tests).
package protocol HTTPByteSource {
  /// Appends the next bytes that arrive to `buffer`, waiting for at least one.
  ///
  /// - Throws: ``HTTPReadError`` when no more bytes will come (peer closed, idle timeout,
  ///   server stopping).
  mutating func read(into buffer: inout [UInt8]) throws

  /// Appends more bytes of a request already under way (its body), which have likely
  /// arrived already: a source may take them without waiting first.
  mutating func readMore(into buffer: inout [UInt8]) throws
}

extension HTTPByteSource {
  /// Waits as ``read(into:)`` does.
  package mutating func readMore(into buffer: inout [UInt8]) throws {
    try read(into: &buffer)
  }
}
