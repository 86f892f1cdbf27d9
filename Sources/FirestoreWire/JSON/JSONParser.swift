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
    guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    position += 1
    var members: [(String, JSONValue)] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
      position += 1
      return .object(members)
    }
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
      skipWhitespace()
      guard position < bytes.count else { throw error("unexpected end of input") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "}") {
        position += 1
        return .object(members)
      } else {
        throw error("expected ',' or '}'")
      }
    }
  }

  private mutating func parseArray(depth: Int) throws -> JSONValue {
    guard depth <= Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth)") }
    position += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
      position += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      elements.append(try parseValue(depth: depth))
      skipWhitespace()
      guard position < bytes.count else { throw error("unexpected end of input") }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
      } else if bytes[position] == UInt8(ascii: "]") {
        position += 1
        return .array(elements)
      } else {
        throw error("expected ',' or ']'")
      }
    }
  }

  private mutating func parseNumber() throws -> String {
    let start = position
    if bytes[position] == UInt8(ascii: "-") { position += 1 }
    guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
    if bytes[position] == UInt8(ascii: "0") {
      position += 1
    } else {
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
      position += 1
      guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
      position += 1
      if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
        position += 1
      }
      guard position < bytes.count, isDigit(bytes[position]) else { throw error("invalid number") }
      while position < bytes.count, isDigit(bytes[position]) { position += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private mutating func parseString() throws -> String {
    position += 1  // opening quote
    let start = position
    // Fast path: no escapes, so the bytes between the quotes are the string.
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<position])
        position += 1
        return try validatedString(slice)
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 { throw error("control character in string") }
      position += 1
    }
    var scalars = [UInt8](UnsafeBufferPointer(rebasing: bytes[start..<position]))
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        position += 1
        return try scalars.withUnsafeBufferPointer { try validatedString($0) }
      }
      if byte < 0x20 { throw error("control character in string") }
      if byte != UInt8(ascii: "\\") {
        scalars.append(byte)
        position += 1
        continue
      }
      position += 1
      guard position < bytes.count else { break }
      let escape = bytes[position]
      position += 1
      switch escape {
      case UInt8(ascii: "\""): scalars.append(0x22)
      case UInt8(ascii: "\\"): scalars.append(0x5C)
      case UInt8(ascii: "/"): scalars.append(0x2F)
      case UInt8(ascii: "b"): scalars.append(0x08)
      case UInt8(ascii: "f"): scalars.append(0x0C)
      case UInt8(ascii: "n"): scalars.append(0x0A)
      case UInt8(ascii: "r"): scalars.append(0x0D)
      case UInt8(ascii: "t"): scalars.append(0x09)
      case UInt8(ascii: "u"):
        var code = try parseHex4()
        if (0xD800...0xDBFF).contains(code) {
          // A high surrogate must be followed by an escaped low surrogate.
          if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
            position += 2
            let low = try parseHex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else {
            throw error("unpaired UTF-16 surrogate")
          }
        } else if (0xDC00...0xDFFF).contains(code) {
          throw error("unpaired UTF-16 surrogate")
        }
        appendUTF8(code, to: &scalars)
      default:
        position -= 1  // at the escape's letter: a wrong byte, not the text ending early
        throw error("invalid escape")
      }
    }
    throw error("unterminated string")
  }

  private func validatedString(_ slice: UnsafeBufferPointer<UInt8>) throws -> String {
    guard let string = String(validating: slice, as: UTF8.self) else {
      throw error("string is not valid UTF-8")
    }
    return string
  }

  private mutating func parseHex4() throws -> UInt32 {
    guard position + 4 <= bytes.count else {
      position = bytes.count
      throw error("truncated \\u escape")
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt32
      switch byte {
      case 0x30...0x39: digit = UInt32(byte - 0x30)
      case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }

  private func appendUTF8(_ code: UInt32, to out: inout [UInt8]) {
    switch code {
    case 0..<0x80:
      out.append(UInt8(code))
    case 0x80..<0x800:
      out.append(UInt8(0xC0 | (code >> 6)))
      out.append(UInt8(0x80 | (code & 0x3F)))
    case 0x800..<0x10000:
      out.append(UInt8(0xE0 | (code >> 12)))
      out.append(UInt8(0x80 | ((code >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (code & 0x3F)))
    default:
      out.append(UInt8(0xF0 | (code >> 18)))
      out.append(UInt8(0x80 | ((code >> 12) & 0x3F)))
      out.append(UInt8(0x80 | ((code >> 6) & 0x3F)))
      out.append(UInt8(0x80 | (code & 0x3F)))
    }
  }
}
