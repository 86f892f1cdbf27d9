/// Percent-encoding for WebChannel URLs and `application/x-www-form-urlencoded` bodies.
///
/// Encoding matches JavaScript's `encodeURIComponent`, which the web SDK uses for both:
/// every byte of the UTF-8 except `A–Z a–z 0–9 - _ . ! ~ * ' ( )` becomes `%XX` (upper-case
/// hex). That is stricter than form encoding needs, and crucially writes `+` as `%2B`:
/// a raw `+` decodes as a space, which corrupts base64 resume tokens and session ids.
enum FormURLEncoding {
  private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return true
    case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"), UInt8(ascii: "*"),
      UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"):
      return true
    default:
      return false
    }
  }

  /// `s` percent-encoded like `encodeURIComponent`.
  static func encode(_ s: String) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(s.utf8.count)
    for byte in s.utf8 {
      if isUnreserved(byte) {
        out.append(byte)
      } else {
        out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes one form component: `+` is a space, `%XX` a byte (either hex case); the
  /// result must be valid UTF-8.
  ///
  /// - Throws: ``WireFormatError`` for a truncated or non-hex escape, or invalid UTF-8.
  static func decode(_ s: Substring) throws -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(s.utf8.count)
    var iterator = s.utf8.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(UInt8(ascii: " "))
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
          throw WireFormatError("invalid percent escape in form component \"\(s.prefix(40))\"")
        }
        bytes.append(high << 4 | low)
      default: bytes.append(byte)
      }
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw WireFormatError("form component \"\(s.prefix(40))\" does not decode to valid UTF-8")
    }
    return text
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// `pairs` as `k=v&k=v`, both sides encoded.
  static func query(_ pairs: [(String, String)]) -> String {
    pairs.map { encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
  }

  /// Splits `k=v&k=v` into decoded pairs; empty segments are skipped and a segment without
  /// `=` has an empty value (as browsers and the Java servlet decoder treat them).
  static func pairs(_ text: String) throws -> [(String, String)] {
    try text.split(separator: "&", omittingEmptySubsequences: true).map { segment in
      guard let eq = segment.firstIndex(of: "=") else { return (try decode(segment), "") }
      return (try decode(segment[..<eq]), try decode(segment[segment.index(after: eq)...]))
    }
  }
}
