import FirestoreWire

/// A response from a mock server handler: complete, or streamed chunk by chunk.
public struct MockHTTPResponse: Sendable {
  /// How the body is produced.
  public enum Body: Sendable {
    /// A body known in full, sent with `Content-Length`.
    case complete([UInt8])
    /// A body written piece by piece with chunked transfer encoding. The closure runs on
    /// the connection's own thread and may block (a long-lived listen stream); it returns
    /// when the body is complete. A write that throws means the client went away.
    case streaming(@Sendable (any MockChunkWriter) throws -> Void)
  }

  /// The status code.
  public var status: Int
  /// Header fields to send (the server adds `Content-Length` or `Transfer-Encoding`).
  public var headers: [(name: String, value: String)]
  /// The body.
  public var body: Body
  /// Ends the connection after this response without announcing it in a
  /// `Connection: close` header, as the emulator does after every WebChannel reply. A
  /// client that pools such a connection finds it closed on its next request.
  public var closesConnectionSilently = false

  /// Creates a response.
  public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .complete([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON response.
  public static func json(_ status: Int, _ json: JSONValue) -> MockHTTPResponse {
    MockHTTPResponse(
      status: status, headers: [("content-type", "application/json; charset=utf-8")], body: .complete(JSONWriter.bytes(json)))
  }

  /// A plain-text response, as the emulator gives for unknown routes.
  public static func text(_ status: Int, _ text: String) -> MockHTTPResponse {
    MockHTTPResponse(status: status, headers: [("content-type", "text/plain; charset=utf-8")], body: .complete(Array(text.utf8)))
  }
}

/// Where a streaming response writes its chunks.
public protocol MockChunkWriter: Sendable {
  /// Sends one chunk (an empty one is ignored) and flushes it to the socket.
  /// - Throws: when the connection is closed or a fault cut it.
  func write(_ bytes: [UInt8]) throws
}
