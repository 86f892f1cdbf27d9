/// Where an ``HTTPInputBuffer`` gets its bytes: the connection's socket in the server, a
/// list of chunks when a parser is driven without a socket (fuzzing, tests).
package protocol HTTPByteSource {
  /// Appends the next bytes that arrive to `buffer`, waiting for at least one.
  ///
  /// - Throws: ``HTTPReadError`` when no more bytes will come (peer closed, idle timeout,
  ///   server stopping).
  mutating func read(into buffer: inout [UInt8]) throws
}
