/// Reads JSON text (RFC 8259) into a ``JSONValue``.
///
/// The parser works on raw UTF-8 bytes, rejects trailing garbage, and limits nesting to
/// ``maximumDepth`` so that hostile input cannot exhaust the stack.
public struct JSONParser {
  /// The deepest nesting of arrays and objects accepted. Firestore itself allows 20 levels
  /// of maps, each of which costs a few JSON levels.
  public static let maximumDepth = 256

  /// Parses one complete JSON text.
  ///
  /// - Throws: ``WireFormatError`` naming the byte offset of the first problem.
  public static func parse<Bytes: Collection>(_ bytes: Bytes) throws -> JSONValue
  where Bytes.Element == UInt8 {
    let result = try bytes.withContiguousStorageIfAvailable { try parse(buffer: $0) }
    if let result { return result }
    return try Array(bytes).withUnsafeBufferPointer { try parse(buffer: $0) }
  }

  /// Parses a string's UTF-8 as one JSON text.
  public static func parse(_ text: String) throws -> JSONValue {
    var copy = text
    return try copy.withUTF8 { try parse(buffer: $0) }
  }

  /// Whether `bytes` fail to parse only because they stop too early: non-blank text that
  /// breaks off inside a value, as a reply cut short does (`{"a":[1,` or `"abc`), rather
  /// than text with a wrong byte in it. `false` for valid JSON and for blank input.
  public static func isCutShort<Bytes: Collection>(_ bytes: Bytes) -> Bool where Bytes.Element == UInt8 {
    let array = Array(bytes)
    return array.withUnsafeBufferPointer { buffer in
      var parser = JSONParser(buffer)
      parser.skipWhitespace()
      guard parser.position < buffer.count else { return false }
      do {
        _ = try parser.parseValue(depth: 0)
        return false
      } catch {
        // Every check that needs more input fails with the position at the end.
        return parser.position >= buffer.count
      }
    }
  }

  static func parse(buffer: UnsafeBufferPointer<UInt8>) throws -> JSONValue {
    var parser = JSONParser(buffer)
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    guard parser.position == buffer.count else {
      throw parser.error("unexpected data after the JSON value")
    }
    return value
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private var position = 0

  private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  private func error(_ what: String) -> WireFormatError {
    WireFormatError("invalid JSON at byte \(position): \(what)")
  }

  private mutating func skipWhitespace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  private mutating func parseValue(depth: Int) throws -> JSONValue {
    guard position < bytes.count else { throw error("unexpected end of input") }
    switch bytes[position] {
    case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
    case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    default: throw error("unexpected character")
    }
  }

  private mutating func expectLiteral(_ literal: StaticString) throws {
    let count = literal.utf8CodeUnitCount
    let start = literal.utf8Start
    guard position + count <= bytes.count else {
      // The text ends inside the literal if what is left is its start (`tr`), else it is wrong.
      if (position..<bytes.count).allSatisfy({ bytes[$0] == start[$0 - position] }) { position = bytes.count }
      throw error(position == bytes.count ? "unexpected end of input" : "invalid literal")
    }
    for i in 0..<count where bytes[position + i] != start[i] {
      throw error("invalid literal")
    }
    position += count
  }

  private mutating func parseObject(depth: Int) throws -> JSONValue {
    guard try enter(depth: depth, close: UInt8(ascii: "}")) else { return .object([]) }
    var members: [(String, JSONValue)] = []
    while true {
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
        throw error("expected a member name")
      }
      let key = try parseString()
      skipWhitespace()
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else {
        throw error("expected ':'")
      }
      position += 1
      skipWhitespace()
      members.append((key, try parseValue(depth: depth)))
      guard try another(close: UInt8(ascii: "}")) else { return .object(members) }
    }
  }

  private mutating func parseArray(depth: Int) throws -> JSONValue {
    guard try enter(depth: depth, close: UInt8(ascii: "]")) else { return .array([]) }
    var elements: [JSONValue] = []
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      guard try another(close: UInt8(ascii: "]")) else { return .array(elements) }
    }
  }

  /// Consumes an opening bracket; returns `false` (having consumed `close` too) when the
  /// object or array is empty.
  private mutating func enter(depth: Int, close: UInt8) throws -> Bool {
    guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    position += 1
    skipWhitespace()
    guard position < bytes.count, bytes[position] == close else { return true }
    position += 1
    return false
  }

  /// After a member or element: consumes `,` and returns `true`, or consumes `close` and
  /// returns `false`.
  private mutating func another(close: UInt8) throws -> Bool {
    skipWhitespace()
    guard position < bytes.count else { throw error("unexpected end of input") }
    switch bytes[position] {
    case UInt8(ascii: ","):
      position += 1
      return true
    case close:
      position += 1
      return false
    default:
      throw error("expected ',' or '\(Character(Unicode.Scalar(close)))'")
    }
  }

  private mutating func parseNumber() throws -> String {
    var reader = JSONReader(bytes, at: position)
    defer { position = reader.position }
    return try reader.readNumberText()
  }

  /// Strings go through ``JSONReader``, the one place escapes and UTF-8 are checked; its
  /// position after a failure tells ``isCutShort(_:)`` where the text went wrong.
  private mutating func parseString() throws -> String {
    var reader = JSONReader(bytes, at: position)
    defer { position = reader.position }
    return try reader.readString()
  }
}
