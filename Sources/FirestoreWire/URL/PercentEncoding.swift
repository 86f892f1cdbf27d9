/// Percent-encoding of the parts of a URL and of form fields: the one rule for what the
/// client writes and what the mock and the test servers read.
package enum PercentEncoding {
  private static let hex: [UInt8] = Array("0123456789ABCDEF".utf8)

  /// Whether `byte` stays as it is: `A–Z a–z 0–9 - _ . ! ~ * ' ( )`, what JavaScript's
  /// `encodeURIComponent` keeps (the web SDK encodes WebChannel requests with it, and the
  /// client's match them byte for byte). All are data wherever they stand in a URL or a form.
  private static func isKept(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "!"), UInt8(ascii: "~"), UInt8(ascii: "*"),
      UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"):
      return true
    default:
      return false
    }
  }

  /// `text` with every UTF-8 byte but the kept characters written `%XX` (upper-case hex). The result is data in a path segment, a query value and a form field alike: `/`,
  /// `%`, `?`, `#`, spaces and non-ASCII reach the server inside the part, and `+` is never
  /// read as a space (which would corrupt base64 tokens and session IDs).
  package static func encode(_ text: some StringProtocol) -> String {
    encode(String(decoding: text.utf8, as: UTF8.self))
  }

  /// The same for a `String`, the common case: no generic dispatch on every byte, and no
  /// copy when nothing needs escaping.
  package static func encode(_ text: String) -> String {
    // Most IDs need no escape: the text is the encoding.
    if text.utf8.allSatisfy(isKept) { return text }
    var out: [UInt8] = []
    out.reserveCapacity(text.utf8.count * 3)
    for byte in text.utf8 {
      if isKept(byte) {
        out.append(byte)
      } else {
        out.append(UInt8(ascii: "%"))
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes `%XX` escapes (either hex case). In a form field (`plusIsSpace`) `+` is a space;
  /// in a path or a Google API query value it stays `+`, as Google's front end reads it.
  /// `nil` for a truncated or non-hex escape, or bytes that are not UTF-8.
  package static func decode(_ bytes: some Collection<UInt8>, plusIsSpace: Bool) -> String? {
    if !bytes.contains(UInt8(ascii: "%")) && !(plusIsSpace && bytes.contains(UInt8(ascii: "+"))) {
      return String(validating: bytes, as: UTF8.self)
    }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var iterator = bytes.makeIterator()
    while let byte = iterator.next() {
      switch byte {
      case UInt8(ascii: "%"):
        guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
        out.append(high << 4 | low)
      case UInt8(ascii: "+") where plusIsSpace:
        out.append(UInt8(ascii: " "))
      default:
        out.append(byte)
      }
    }
    return String(validating: out, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
    default: return nil
    }
  }
}
