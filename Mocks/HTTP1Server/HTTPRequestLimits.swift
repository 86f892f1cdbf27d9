/// How much of a request a server reads before refusing it.
package struct HTTPRequestLimits: Sendable {
  /// Largest request body (Content-Length or de-chunked); larger gets 413. Google's limit.
  package var maximumBodyBytes = 10 * 1024 * 1024
  /// Largest request head (request line plus headers), and separately the trailers of a
  /// chunked body; larger gets 400.
  package var maximumHeadBytes = 64 * 1024
  /// Longest chunk-size line of a chunked body.
  package var maximumChunkLineBytes = 4 * 1024

  /// The defaults above.
  package init() {}
}
