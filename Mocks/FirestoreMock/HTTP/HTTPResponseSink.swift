import FirestorePlatform
import FirestoreWire
import HTTP1Server

/// Writes one response to a connection, applying the drop and truncate faults' byte
/// budgets. It is also the ``MockChunkWriter`` a streaming handler writes through.
final class HTTPResponseSink: MockChunkWriter {
  /// How body bytes are framed on the wire.
  enum Framing: Sendable {
    /// Sent with the head in ``sendComplete(head:body:)``.
    case contentLength
    /// Each write is one chunk; ``finish()`` writes the zero-length chunk.
    case chunked
    /// Raw bytes, the end marked by closing the connection (HTTP/1.0 clients).
    case untilClose
    /// No body at all (HEAD, 204, 304).
    case none
  }

  /// Why the response can no longer be written.
  enum Interruption: Error, Sendable {
    /// A drop or truncate fault cut it.
    case cutByFault
    /// The peer went away, the send timed out, or the server is stopping.
    case connectionLost
  }

  private struct State {
    var responseBytes = 0
    var bodyBytes = 0
    var interruption: Interruption?
  }

  private let fd: Int32
  private let framing: Framing
  private let dropAfterResponseBytes: Int?
  private let truncateAfterBodyBytes: Int?
  private let state = Locked(State())

  init(fd: Int32, framing: Framing, plan: FaultPlan?) {
    self.fd = fd
    self.framing = framing
    self.dropAfterResponseBytes = plan?.dropAfterResponseBytes
    self.truncateAfterBodyBytes = plan?.truncateAfterBodyBytes
  }

  /// Sends the head and a complete body in one write (within the fault budgets).
  func sendComplete(head: [UInt8], body: [UInt8]) throws {
    try state.withLock { state in
      var bytes = head
      var payload = body[...]
      let truncated = truncateAfterBodyBytes.map { payload.count > $0 } ?? false
      if truncated, let limit = truncateAfterBodyBytes { payload = payload.prefix(limit) }
      bytes.append(contentsOf: payload)
      try send(bytes[...], &state)
      state.bodyBytes += payload.count
      if truncated { throw cut(&state) }
    }
  }

  /// Sends the head of a streamed response.
  func sendHead(_ head: [UInt8]) throws {
    try state.withLock { try send(head[...], &$0) }
  }

  /// Sends one body piece at once (one chunk when chunked); empty pieces are ignored.
  func write(_ bytes: [UInt8]) throws {
    if bytes.isEmpty { return }
    try state.withLock { state in
      if let interruption = state.interruption { throw interruption }
      var payload = bytes[...]
      var truncated = false
      if let limit = truncateAfterBodyBytes, payload.count > limit - state.bodyBytes {
        payload = payload.prefix(max(0, limit - state.bodyBytes))
        truncated = true
      }
      if !payload.isEmpty {
        switch framing {
        case .chunked:
          try send(HTTPChunkedCoding.chunk(payload)[...], &state)
        case .untilClose, .contentLength:
          try send(payload, &state)
        case .none:
          break
        }
        state.bodyBytes += payload.count
      }
      if truncated { throw cut(&state) }
    }
  }

  /// Ends a streamed body: the zero-length chunk when chunked. A response under a truncate
  /// fault never ends cleanly.
  func finish() throws {
    try state.withLock { state in
      if let interruption = state.interruption { throw interruption }
      if truncateAfterBodyBytes != nil { throw cut(&state) }
      if framing == .chunked { try send(HTTPChunkedCoding.lastChunk[...], &state) }
    }
  }

  private func cut(_ state: inout State) -> Interruption {
    state.interruption = .cutByFault
    return .cutByFault
  }

  /// Sends raw response bytes, stopping at the drop fault's budget.
  private func send(_ bytes: ArraySlice<UInt8>, _ state: inout State) throws {
    if let interruption = state.interruption { throw interruption }
    var data = bytes
    var dropped = false
    if let limit = dropAfterResponseBytes, data.count > limit - state.responseBytes {
      data = data.prefix(max(0, limit - state.responseBytes))
      dropped = true
    }
    if !data.isEmpty {
      guard HTTPSocket.sendAll(fd, data) else {
        state.interruption = .connectionLost
        throw Interruption.connectionLost
      }
      state.responseBytes += data.count
    }
    if dropped { throw cut(&state) }
  }
}
