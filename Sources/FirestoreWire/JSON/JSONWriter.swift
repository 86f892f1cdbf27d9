/// Writes a ``JSONValue`` as compact JSON text (UTF-8), through ``JSONByteOutput``.
///
/// Strings are escaped per RFC 8259: quotes, backslashes and control characters; every
/// other character, including non-ASCII, is written as UTF-8.
public enum JSONWriter {
  /// The compact JSON text of `value`, as UTF-8 bytes.
  public static func bytes(_ value: JSONValue) -> [UInt8] {
    var output = JSONByteOutput()
    output.write(value)
    return output.bytes
  }

  /// The compact JSON text of `value`.
  public static func string(_ value: JSONValue) -> String {
    String(decoding: bytes(value), as: UTF8.self)
  }

  /// Appends the compact JSON text of `value` to `out`.
  public static func write(_ value: JSONValue, into out: inout [UInt8]) {
    var output = JSONByteOutput(appendingTo: out)
    // The output holds the only reference now, so it appends in place.
    out = []
    output.write(value)
    out = output.bytes
  }

  /// Whether `bytes` hold a quote, a backslash or a control character. Sixteen bytes are
  /// tested at a time, as one vector: a document's long texts are most of a large
  /// commit's body.
  static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return false }
    let raw = UnsafeRawPointer(base)
    var i = 0
    while i + 16 <= bytes.count {
      if raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self).jsonStringSpecials.anySet { return true }
      i += 16
    }
    while i < bytes.count {
      let byte = bytes[i]
      if byte < 0x20 || byte == 0x22 || byte == 0x5C { return true }
      i += 1
    }
    return false
  }

  private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Appends `s` as a quoted, escaped JSON string.
  public static func writeString(_ s: String, into out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escaping: copy them whole.
    let clean =
      s.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
        guard !needsEscaping(bytes) else { return false }
        out.append(contentsOf: bytes)
        return true
      } ?? false
    if clean {
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in s.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
      case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
      case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
      case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
      case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
      case 0..<0x20:
        out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}
