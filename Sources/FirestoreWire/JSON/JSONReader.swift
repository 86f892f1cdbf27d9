/// Reads JSON text token by token, so that Firestore messages are decoded straight from the
/// bytes into their model types with no ``JSONValue`` tree in between.
///
/// The reader is as strict as ``JSONParser``: it accepts exactly RFC 8259 JSON (members it
/// is told to skip are still checked in full), rejects invalid UTF-8 and unpaired UTF-16
/// surrogate escapes, limits nesting to ``JSONParser/maximumDepth``, and names the byte
/// offset of the first problem in its ``WireFormatError``.
///
/// ```swift
/// var reader = JSONReader(buffer)
/// if try reader.beginObject() {
///   repeat {
///     switch try reader.readKey() {
///     case "name": name = try reader.readString()
///     default: try reader.skipValue()
///     }
///   } while try reader.nextMember()
/// }
/// try reader.finish()
/// ```
package struct JSONReader: ~Copyable {
  private let base: UnsafePointer<UInt8>?
  private let count: Int
  /// The offset of the next byte to read.
  package private(set) var position = 0
  private var depth = 0

  /// Reads `buffer`, which must outlive the reader, from offset `position`.
  package init(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int = 0) {
    base = buffer.baseAddress
    count = buffer.count
    self.position = position
  }

  /// A JSON-level error at the current position.
  package func error(_ what: String) -> WireFormatError {
    WireFormatError("invalid JSON at byte \(position): \(what)")
  }

  @inline(__always)
  private func byte(at index: Int) -> UInt8 { base.unsafelyUnwrapped[index] }

  /// Skips spaces, tabs and line breaks.
  @inline(__always)
  package mutating func skipWhitespace() {
    while position < count {
      switch byte(at: position) {
      case 0x20, 0x0A, 0x0D, 0x09: position += 1
      default: return
      }
    }
  }

  /// The next byte after whitespace, without consuming it; `nil` at the end.
  package mutating func peek() -> UInt8? {
    skipWhitespace()
    return position < count ? byte(at: position) : nil
  }

  /// Requires that nothing but whitespace is left.
  package mutating func finish() throws {
    skipWhitespace()
    guard position == count else { throw error("unexpected data after the JSON value") }
  }

  // MARK: - Objects and arrays

  /// Consumes `{`; returns whether the object has members (then the first key is next).
  /// `member` names the value in the error when it is not an object.
  package mutating func beginObject(_ member: String = "the value") throws -> Bool {
    try open(UInt8(ascii: "{"), close: UInt8(ascii: "}"), member)
  }

  /// Reads a member name and the `:` after it.
  package mutating func readKey() throws -> String {
    guard peek() == UInt8(ascii: "\"") else { throw error("expected a member name") }
    let key = try readStringToken()
    guard peek() == UInt8(ascii: ":") else { throw error("expected ':'") }
    position += 1
    return key
  }

  /// After a member's value: consumes `,` and returns `true` (another member follows), or
  /// consumes `}` and returns `false`.
  package mutating func nextMember() throws -> Bool {
    try next(close: UInt8(ascii: "}"), "expected ',' or '}'")
  }

  /// Consumes `[`; returns whether the array has elements (then the first one is next).
  package mutating func beginArray(_ member: String = "the value") throws -> Bool {
    try open(UInt8(ascii: "["), close: UInt8(ascii: "]"), member)
  }

  /// Reads a whole JSON text that is an array, each element with `element`; `what` names
  /// the text in errors.
  package static func decodeArray<Element>(
    _ bytes: UnsafeBufferPointer<UInt8>, _ what: String, element: (inout JSONReader) throws -> Element
  ) throws -> [Element] {
    var reader = JSONReader(bytes)
    let elements = try reader.readArray(what, element: element)
    try reader.finish()
    return elements
  }

  /// Reads an array, each element with `element`; `member` names it in the error when the
  /// value is not an array.
  package mutating func readArray<Element>(_ member: String, element: (inout JSONReader) throws -> Element) throws -> [Element] {
    var elements: [Element] = []
    if try beginArray(member) {
      repeat { elements.append(try element(&self)) } while try nextElement()
    }
    return elements
  }

  /// After an element: consumes `,` and returns `true`, or consumes `]` and returns `false`.
  package mutating func nextElement() throws -> Bool {
    try next(close: UInt8(ascii: "]"), "expected ',' or ']'")
  }

  /// Consumes the opening bracket; returns `false` (having consumed the closing one too)
  /// when the container is empty.
  private mutating func open(_ bracket: UInt8, close: UInt8, _ member: String) throws -> Bool {
    guard let next = peek() else { throw error("unexpected end of input") }
    guard next == bracket else { throw mismatch(member) }
    depth += 1
    guard depth <= JSONParser.maximumDepth else { throw error("nesting deeper than \(JSONParser.maximumDepth)") }
    position += 1
    guard peek() == close else { return true }
    position += 1
    depth -= 1
    return false
  }

  private mutating func next(close: UInt8, _ message: String) throws -> Bool {
    guard let next = peek() else { throw error("unexpected end of input") }
    position += 1
    if next == UInt8(ascii: ",") { return true }
    if next == close {
      depth -= 1
      return false
    }
    position -= 1
    throw error(message)
  }

  // MARK: - Scalars

  /// The JSON kind of the next value, as ``JSONValue/kindName`` names it.
  package mutating func nextKindName() -> String {
    switch peek() {
    case UInt8(ascii: "{"): return "object"
    case UInt8(ascii: "["): return "array"
    case UInt8(ascii: "\""): return "string"
    case UInt8(ascii: "t"), UInt8(ascii: "f"): return "boolean"
    case UInt8(ascii: "n"): return "null"
    case nil: return "nothing"
    default: return "number"
    }
  }

  /// The error for a value of the wrong kind: `member` names it, as the model decoders do.
  package mutating func mismatch(_ member: String) -> WireFormatError {
    peek() == nil ? error("unexpected end of input") : WireFormatError("\(member) has the wrong JSON type: \(nextKindName())")
  }

  /// Reads a string value; `member` names it in the error when it is something else.
  package mutating func readString(_ member: String = "the value") throws -> String {
    guard peek() == UInt8(ascii: "\"") else { throw mismatch(member) }
    return try readStringToken()
  }

  /// Reads a string value and hands its UTF-8 bytes to `body` without making a `String`
  /// (escapes decoded; the bytes are valid UTF-8).
  package mutating func withStringBytes<R>(_ member: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) throws -> R {
    guard peek() == UInt8(ascii: "\"") else { throw mismatch(member) }
    let start = position + 1
    let (end, plain, ascii) = scanPlainString(from: start)
    if plain {
      let bytes = UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: end - start)
      if !ascii { try validateUTF8(bytes, at: start) }
      position = end + 1
      return try body(bytes)
    }
    let decoded = try readEscapedString(from: start, plainUpTo: end)
    return try decoded.withUnsafeBufferPointer { try body($0) }
  }

  /// Reads `true` or `false`.
  package mutating func readBool(_ member: String = "the value") throws -> Bool {
    switch peek() {
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return true
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return false
    default: throw mismatch(member)
    }
  }

  /// Reads a number and returns its text (validated JSON number syntax).
  package mutating func readNumberText(_ member: String = "the value") throws -> String {
    guard let next = peek(), next == UInt8(ascii: "-") || isDigit(next) else { throw mismatch(member) }
    let start = position
    try scanNumber()
    return String(decoding: UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: position - start), as: UTF8.self)
  }

  /// Reads a number or a string and returns its text: Firestore sends 64-bit integers as
  /// strings and accepts both.
  package mutating func readNumberOrStringText(_ member: String) throws -> String {
    peek() == UInt8(ascii: "\"") ? try readStringToken() : try readNumberText(member)
  }

  /// Skips one value of any kind, checking it as strictly as everything else.
  package mutating func skipValue() throws {
    guard let next = peek() else { throw error("unexpected end of input") }
    switch next {
    case UInt8(ascii: "{"):
      if try beginObject() {
        repeat {
          _ = try readKey()
          try skipValue()
        } while try nextMember()
      }
    case UInt8(ascii: "["):
      if try beginArray() {
        repeat { try skipValue() } while try nextElement()
      }
    case UInt8(ascii: "\""):
      let start = position + 1
      let (end, plain, ascii) = scanPlainString(from: start)
      if plain {
        if !ascii { try validateUTF8(UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: end - start), at: start) }
        position = end + 1
      } else {
        _ = try readEscapedString(from: start, plainUpTo: end)
      }
    case UInt8(ascii: "t"): try expectLiteral("true")
    case UInt8(ascii: "f"): try expectLiteral("false")
    case UInt8(ascii: "n"): try expectLiteral("null")
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try scanNumber()
    default: throw error("unexpected character")
    }
  }

  // MARK: - Tokens

  private mutating func expectLiteral(_ literal: StaticString) throws {
    let length = literal.utf8CodeUnitCount
    guard position + length <= count else { throw error("unexpected end of input") }
    let start = literal.utf8Start
    for i in 0..<length where byte(at: position + i) != start[i] {
      throw error("invalid literal")
    }
    position += length
  }

  @inline(__always)
  private func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

  private mutating func scanNumber() throws {
    if byte(at: position) == UInt8(ascii: "-") { position += 1 }
    guard position < count, isDigit(byte(at: position)) else { throw error("invalid number") }
    if byte(at: position) == UInt8(ascii: "0") {
      position += 1
    } else {
      while position < count, isDigit(byte(at: position)) { position += 1 }
    }
    if position < count, byte(at: position) == UInt8(ascii: ".") {
      position += 1
      guard position < count, isDigit(byte(at: position)) else { throw error("invalid number") }
      while position < count, isDigit(byte(at: position)) { position += 1 }
    }
    if position < count, byte(at: position) | 0x20 == UInt8(ascii: "e") {
      position += 1
      if position < count, byte(at: position) == UInt8(ascii: "+") || byte(at: position) == UInt8(ascii: "-") {
        position += 1
      }
      guard position < count, isDigit(byte(at: position)) else { throw error("invalid number") }
      while position < count, isDigit(byte(at: position)) { position += 1 }
    }
  }

  /// Where the run of a string's bytes that needs no decoding ends, from `start` (just
  /// after the opening quote): at the closing quote (`plain`), or at a backslash or a
  /// control character, or at the end of the input (not `plain`). `ascii` says whether
  /// every byte of the run is below 0x80, so that a plain run needs no UTF-8 check.
  ///
  /// Sixteen bytes are tested at a time, then eight: a document's long texts are most of a
  /// large reply.
  @inline(__always)
  private func scanPlainString(from start: Int) -> (end: Int, plain: Bool, ascii: Bool) {
    var index = start
    let raw = UnsafeRawPointer(base.unsafelyUnwrapped)
    var seenBlocks = SIMD16<UInt8>(repeating: 0)
    while index + 16 <= count {
      let block = raw.loadUnaligned(fromByteOffset: index, as: SIMD16<UInt8>.self)
      if block.jsonStringSpecials.anySet { break }
      seenBlocks |= block
      index += 16
    }
    var seenBits: UInt64 = seenBlocks.hasHighBit ? 0x80 : 0
    // A byte of a word is "special" when it is '"' (0x22), '\\' (0x5C) or below 0x20.
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while index + 8 <= count {
      let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      let quote = word ^ (ones &* 0x22)
      let slash = word ^ (ones &* 0x5C)
      // Standard "has a zero byte" / "has a byte below n" word tests.
      let special =
        ((quote &- ones) & ~quote & highs) | ((slash &- ones) & ~slash & highs) | ((word &- ones &* 0x20) & ~word & highs)
      if special != 0 { break }
      seenBits |= word
      index += 8
    }
    while index < count {
      let b = byte(at: index)
      if b == UInt8(ascii: "\"") { return (index, true, seenBits & highs == 0) }
      if b == UInt8(ascii: "\\") || b < 0x20 { return (index, false, false) }
      seenBits |= UInt64(b)
      index += 1
    }
    return (index, false, false)
  }

  /// Reads a string token starting at the current position (an opening quote).
  private mutating func readStringToken() throws -> String {
    let start = position + 1
    let (end, plain, ascii) = scanPlainString(from: start)
    if plain {
      let bytes = UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: end - start)
      position = end + 1
      if ascii { return String(decoding: bytes, as: UTF8.self) }
      guard let string = String(validating: bytes, as: UTF8.self) else {
        position = start
        throw error("string is not valid UTF-8")
      }
      return string
    }
    let decoded = try readEscapedString(from: start, plainUpTo: end)
    return String(decoding: decoded, as: UTF8.self)
  }

  @inline(__always)
  private func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var index = 0
    let raw = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped)
    var seen: UInt64 = 0
    while index + 8 <= bytes.count {
      seen |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index += 8
    }
    while index < bytes.count {
      seen |= UInt64(bytes[index])
      index += 1
    }
    return seen & 0x8080_8080_8080_8080 == 0
  }

  private func validateUTF8(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int) throws {
    guard !isASCII(bytes), String(validating: bytes, as: UTF8.self) == nil else { return }
    throw WireFormatError("invalid JSON at byte \(offset): string is not valid UTF-8")
  }

  /// Decodes a string with escapes; `plainEnd` is where the escape-free run stopped.
  /// Returns valid UTF-8 and leaves the position after the closing quote.
  private mutating func readEscapedString(from start: Int, plainUpTo plainEnd: Int) throws -> [UInt8] {
    var out = [UInt8](UnsafeBufferPointer(start: base.unsafelyUnwrapped + start, count: plainEnd - start))
    position = plainEnd
    while position < count {
      let b = byte(at: position)
      if b == UInt8(ascii: "\"") {
        position += 1
        guard out.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) != nil else {
          position = start
          throw error("string is not valid UTF-8")
        }
        return out
      }
      if b < 0x20 { throw error("control character in string") }
      if b != UInt8(ascii: "\\") {
        out.append(b)
        position += 1
        continue
      }
      position += 1
      guard position < count else { break }
      let escape = byte(at: position)
      position += 1
      switch escape {
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "\\"): out.append(0x5C)
      case UInt8(ascii: "/"): out.append(0x2F)
      case UInt8(ascii: "b"): out.append(0x08)
      case UInt8(ascii: "f"): out.append(0x0C)
      case UInt8(ascii: "n"): out.append(0x0A)
      case UInt8(ascii: "r"): out.append(0x0D)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "u"): try appendUnicodeEscape(to: &out)
      default:
        position -= 1  // at the escape's letter: a wrong byte, not text that ends early
        throw error("invalid escape")
      }
    }
    throw error("unterminated string")
  }

  /// Decodes the `XXXX` of a `\uXXXX` escape (and the low half of a surrogate pair).
  private mutating func appendUnicodeEscape(to out: inout [UInt8]) throws {
    var code = try readHex4()
    if (0xD800...0xDBFF).contains(code) {
      guard position + 1 < count, byte(at: position) == UInt8(ascii: "\\"), byte(at: position + 1) == UInt8(ascii: "u") else {
        throw error("unpaired UTF-16 surrogate")
      }
      position += 2
      let low = try readHex4()
      guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate") }
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
    } else if (0xDC00...0xDFFF).contains(code) {
      throw error("unpaired UTF-16 surrogate")
    }
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

  private mutating func readHex4() throws -> UInt32 {
    guard position + 4 <= count else {
      position = count  // the text ends inside the escape
      throw error("truncated \\u escape")
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let b = byte(at: position)
      let digit: UInt32
      switch b {
      case 0x30...0x39: digit = UInt32(b - 0x30)
      case 0x41...0x46: digit = UInt32(b - 0x41 + 10)
      case 0x61...0x66: digit = UInt32(b - 0x61 + 10)
      default: throw error("invalid \\u escape")
      }
      value = value << 4 | digit
      position += 1
    }
    return value
  }
}
