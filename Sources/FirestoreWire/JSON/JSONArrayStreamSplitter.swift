/// Splits a JSON array that arrives in pieces into its top-level elements, so that each
/// element can be parsed as soon as its last byte is in.
///
/// Production Firestore streams `:runQuery` as one JSON array over a chunked response;
/// the emulator sends it whole. Feed the bytes with ``append(_:)`` and take finished
/// elements from its result. Only the bytes of the element in progress are kept, so
/// memory stays bounded by the largest element, not the whole response; an element (or a
/// leading object) longer than ``maximumElementBytes`` is refused before it is kept.
///
/// A body that is a JSON object rather than an array (Firestore's error body) is reported
/// through ``leadingObject`` once complete.
public struct JSONArrayStreamSplitter: Sendable {
  private enum State: Sendable { case beforeArray, betweenElements, inElement, afterArray, object }

  private var state = State.beforeArray
  private var pending: [UInt8] = []
  private var depth = 0
  private var inString = false
  private var escaped = false

  /// A complete top-level JSON object, when the body was not an array.
  public private(set) var leadingObject: [UInt8]?
  /// The longest element (or leading object) the splitter keeps.
  public let maximumElementBytes: Int

  /// An element (or leading object) grew past ``maximumElementBytes``.
  public struct ElementTooLarge: Error, Sendable {
    /// The limit it passed.
    public let limit: Int
  }

  /// Creates a splitter for a fresh response body that refuses elements longer than
  /// `maximumElementBytes`.
  public init(maximumElementBytes: Int = .max) {
    self.maximumElementBytes = maximumElementBytes
  }

  /// The bytes of the element in progress, kept until it completes.
  public var bufferedBytes: Int { pending.count }

  /// Whether the closing `]` (or the end of a leading object) has been seen.
  public var isFinished: Bool { state == .afterArray || leadingObject != nil }

  /// Feeds the next piece of the body and returns the elements it completed, in order.
  ///
  /// - Throws: ``WireFormatError`` when the bytes cannot be the start of a JSON array;
  ///   ``ElementTooLarge`` when an element passes ``maximumElementBytes``.
  public mutating func append<Bytes: Sequence>(_ chunk: Bytes) throws -> [[UInt8]] where Bytes.Element == UInt8 {
    // Called from other modules this generic is not specialised; a buffer keeps the per-byte
    // loop concrete (Data, arrays and slices all have contiguous storage).
    if let finished = try chunk.withContiguousStorageIfAvailable({ try append(buffer: $0) }) { return finished }
    return try Array(chunk).withUnsafeBufferPointer { try append(buffer: $0) }
  }

  private mutating func append(buffer chunk: UnsafeBufferPointer<UInt8>) throws -> [[UInt8]] {
    var finished: [[UInt8]] = []
    for byte in chunk {
      switch state {
      case .beforeArray:
        if isWhitespace(byte) { continue }
        if byte == UInt8(ascii: "[") {
          state = .betweenElements
        } else if byte == UInt8(ascii: "{") {
          state = .object
          depth = 1
          pending = [byte]
        } else {
          throw WireFormatError("response is not a JSON array (starts with byte \(byte))")
        }
      case .betweenElements:
        if isWhitespace(byte) || byte == UInt8(ascii: ",") { continue }
        if byte == UInt8(ascii: "]") {
          state = .afterArray
          continue
        }
        state = .inElement
        pending.removeAll(keepingCapacity: true)
        depth = 0
        if try consume(byte) { finished.append(pending) }
      case .inElement:
        if try consume(byte) { finished.append(pending) }
      case .afterArray:
        if !isWhitespace(byte) { throw WireFormatError("unexpected data after the JSON array") }
      case .object:
        guard leadingObject == nil else {
          if !isWhitespace(byte) { throw WireFormatError("unexpected data after the JSON object") }
          continue
        }
        try keep(byte)
        track(byte)
        if depth == 0 { leadingObject = pending }
      }
    }
    return finished
  }

  /// Adds `byte` to the element in progress; true when it completed the element.
  private mutating func consume(_ byte: UInt8) throws -> Bool {
    // A scalar element (number, literal) ends at a delimiter that is not part of it.
    if depth == 0, !inString, !pending.isEmpty, pending[0] != UInt8(ascii: "\""),
      byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || isWhitespace(byte)
    {
      state = byte == UInt8(ascii: "]") ? .afterArray : .betweenElements
      return true
    }
    try keep(byte)
    track(byte)
    if depth == 0 && !inString {
      let first = pending[0]
      if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || (first == UInt8(ascii: "\"") && pending.count > 1) {
        state = .betweenElements
        return true
      }
    }
    return false
  }

  /// Adds `byte` to the element in progress, unless that passes the limit.
  private mutating func keep(_ byte: UInt8) throws(ElementTooLarge) {
    guard pending.count < maximumElementBytes else { throw ElementTooLarge(limit: maximumElementBytes) }
    pending.append(byte)
  }

  private mutating func track(_ byte: UInt8) {
    if inString {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "\"") {
        inString = false
      }
      return
    }
    switch byte {
    case UInt8(ascii: "\""): inString = true
    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
    default: break
    }
  }

  private func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }
}
