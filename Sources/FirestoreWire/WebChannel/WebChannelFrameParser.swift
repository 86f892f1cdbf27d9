/// An incremental reader for WebChannel's length-prefixed response framing.
///
/// Every WebChannel response body (handshake reply, back channel, forward-POST reply) is a
/// sequence of frames `<length>\n<JSON text>`, with no separator between frames. The
/// decimal `length` counts **UTF-16 code units** of the JSON text (JavaScript's
/// `string.length`), not bytes or code points: `"é😀"` is 3 bytes + 4 bytes of UTF-8 but
/// 1 + 2 units. The server writes raw UTF-8.
///
/// Frames do not line up with reads or HTTP chunks, so feed every chunk to ``append(_:)``
/// as it arrives; a chunk may end anywhere, including inside the length digits or inside a
/// multi-byte UTF-8 sequence. Each call returns the frames it completed, in order.
///
/// Contract:
/// - Memory per frame is bounded by ``maximumFrameLength`` (in UTF-16 units, so at most
///   three times as many bytes); a larger declared length is rejected as soon as its digits
///   exceed the limit, before any payload is buffered.
/// - Malformed input (a non-digit in the length line, an empty length, invalid UTF-8, a
///   length that ends inside a surrogate pair, JSON that does not parse) throws
///   ``WireFormatError``. The parser is then poisoned: every later ``append(_:)`` throws the
///   same error, because the stream position is unknown and the session must be dropped.
/// - When a frame fails, frames completed earlier in the same chunk are discarded with it.
/// - At end of stream call ``finish()`` to detect a truncated final frame.
public struct WebChannelFrameParser: Sendable {
  /// The default limit on one frame's declared length: 64 Mi UTF-16 units.
  public static let defaultMaximumFrameLength = 64 << 20

  /// The largest declared frame length accepted, in UTF-16 code units.
  public let maximumFrameLength: Int

  private enum State: Sendable {
    /// Reading the decimal length; `digits` counts digits seen so far.
    case length(value: Int, digits: Int)
    /// Reading JSON text; `remaining` UTF-16 units are still owed.
    case payload(remaining: Int)
    case failed(WireFormatError)
  }

  private var state: State = .length(value: 0, digits: 0)
  /// The current frame's UTF-8 bytes received so far.
  private var frame: [UInt8] = []
  /// Continuation bytes still expected for the UTF-8 sequence in progress.
  private var pendingContinuations = 0
  /// UTF-16 units the sequence in progress will count once complete.
  private var pendingUnits = 0
  /// Bytes consumed since creation, for error messages.
  private var offset = 0

  /// Creates a parser positioned before the first frame.
  ///
  /// - Parameter maximumFrameLength: the largest frame accepted, in UTF-16 units; defaults
  ///   to ``defaultMaximumFrameLength``. Values below 1 are treated as 1.
  public init(maximumFrameLength: Int = WebChannelFrameParser.defaultMaximumFrameLength) {
    self.maximumFrameLength = max(1, maximumFrameLength)
  }

  /// `true` when no partial frame is buffered, i.e. the input so far ended exactly after a
  /// frame (or nothing was read yet). `false` after a failure.
  public var isAtFrameBoundary: Bool {
    if case .length(_, 0) = state { return true }
    return false
  }

  /// Consumes the next bytes of the body and returns the JSON of every frame they complete.
  ///
  /// - Returns: the parsed frames, in stream order; empty when no frame completed.
  /// - Throws: ``WireFormatError`` naming the problem and byte offset; the parser stays
  ///   failed afterwards.
  public mutating func append(_ bytes: some Sequence<UInt8>) throws -> [JSONValue] {
    // Called from other modules this generic is not specialised; a buffer keeps the per-byte
    // loop concrete (Data, arrays and slices all have contiguous storage).
    if let frames = try bytes.withContiguousStorageIfAvailable({ try append(buffer: $0) }) { return frames }
    return try Array(bytes).withUnsafeBufferPointer { try append(buffer: $0) }
  }

  private mutating func append(buffer bytes: UnsafeBufferPointer<UInt8>) throws -> [JSONValue] {
    if case .failed(let error) = state { throw error }
    var frames: [JSONValue] = []
    do {
      for byte in bytes {
        if let json = try consume(byte) { frames.append(json) }
        offset += 1
      }
    } catch let error as WireFormatError {
      state = .failed(error)
      frame = []
      throw error
    }
    return frames
  }

  /// Checks that the stream ended on a frame boundary.
  ///
  /// - Throws: ``WireFormatError`` when a frame (or its length line) was cut off, or when
  ///   the parser had already failed.
  public func finish() throws {
    switch state {
    case .failed(let error): throw error
    case .length(_, 0): return
    case .length: throw WireFormatError("WebChannel stream truncated inside a frame length at byte \(offset)")
    case .payload(let remaining):
      throw WireFormatError("WebChannel stream truncated at byte \(offset): \(remaining) UTF-16 units of the frame missing")
    }
  }

  private mutating func consume(_ byte: UInt8) throws -> JSONValue? {
    switch state {
    case .failed(let error): throw error
    case .length(let value, let digits):
      if byte == UInt8(ascii: "\n") {
        guard digits > 0 else { throw WireFormatError("empty WebChannel frame length at byte \(offset)") }
        // A zero-length frame would be empty JSON text, which can never parse.
        guard value > 0 else { throw WireFormatError("WebChannel frame length 0 at byte \(offset)") }
        state = .payload(remaining: value)
        frame.reserveCapacity(min(value, 1 << 16))
        return nil
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
        throw WireFormatError("invalid WebChannel frame length: byte 0x\(String(byte, radix: 16)) at byte \(offset) is not a digit")
      }
      // Checked before multiplying, so the value never overflows however many digits come.
      let next = value * 10 + Int(byte - UInt8(ascii: "0"))
      guard next <= maximumFrameLength else {
        throw WireFormatError("WebChannel frame length exceeds the limit of \(maximumFrameLength) UTF-16 units at byte \(offset)")
      }
      state = .length(value: next, digits: digits + 1)
      return nil
    case .payload(let remaining):
      frame.append(byte)
      var remaining = remaining
      if pendingContinuations > 0 {
        guard byte & 0xC0 == 0x80 else { throw invalidUTF8() }
        pendingContinuations -= 1
        guard pendingContinuations == 0 else { return nil }
        remaining -= pendingUnits
      } else {
        switch byte {
        case 0x00..<0x80: remaining -= 1
        case 0xC2..<0xE0: (pendingContinuations, pendingUnits) = (1, 1)
        case 0xE0..<0xF0: (pendingContinuations, pendingUnits) = (2, 1)
        // Supplementary-plane scalars are surrogate pairs in UTF-16: two units.
        case 0xF0..<0xF5: (pendingContinuations, pendingUnits) = (3, 2)
        default: throw invalidUTF8()
        }
        if pendingContinuations > 0 {
          // Reject early a sequence that cannot fit, instead of buffering past the frame.
          guard pendingUnits <= remaining else { throw splitPair() }
          state = .payload(remaining: remaining)
          return nil
        }
      }
      guard remaining >= 0 else { throw splitPair() }
      guard remaining == 0 else {
        state = .payload(remaining: remaining)
        return nil
      }
      let text = frame
      frame = []
      state = .length(value: 0, digits: 0)
      do {
        return try JSONParser.parse(text)
      } catch let error as WireFormatError {
        throw WireFormatError("WebChannel frame ending at byte \(offset) is not valid JSON: \(error.message)")
      }
    }
  }

  private func invalidUTF8() -> WireFormatError {
    WireFormatError("invalid UTF-8 in WebChannel frame at byte \(offset)")
  }

  private func splitPair() -> WireFormatError {
    WireFormatError("WebChannel frame length ends inside a surrogate pair at byte \(offset)")
  }
}
