/// Chunked transfer coding (RFC 9112 §7.1): how a chunk is framed and how a chunk-size line
/// is read, for the server's request bodies and responses and for the test clients that
/// read its responses.
package enum HTTPChunkedCoding {
  /// The zero-length chunk that ends a body, with no trailers.
  package static let lastChunk = Array("0\r\n\r\n".utf8)

  /// `payload` framed as one chunk: its size in hex, CRLF, the bytes, CRLF.
  package static func chunk(_ payload: ArraySlice<UInt8>) -> [UInt8] {
    var framed = Array(String(payload.count, radix: 16).utf8)
    framed.reserveCapacity(framed.count + payload.count + 4)
    framed.append(contentsOf: [0x0D, 0x0A])
    framed.append(contentsOf: payload)
    framed.append(contentsOf: [0x0D, 0x0A])
    return framed
  }

  /// The size a chunk-size line (without its line end) announces, or `nil` when the line
  /// is not one: 1 to 15 hex digits, no sign, optionally followed by spaces or tabs and
  /// `;extensions`, which are ignored.
  package static func size(ofLine line: [UInt8]) -> Int? {
    var digits = line.prefix { $0 != UInt8(ascii: ";") }
    while let last = digits.last, last == 0x20 || last == 0x09 { digits = digits.dropLast() }
    // `Int(_:radix:)` alone would take a leading `+` or `-`.
    guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(isHexDigit) else { return nil }
    return Int(String(decoding: digits, as: UTF8.self), radix: 16)
  }

  private static func isHexDigit(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x46, 0x61...0x66: return true
    default: return false
    }
  }
}
