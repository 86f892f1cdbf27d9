import FirestoreWire

/// ``ValueOrdering`` as bytes: the key of a value compares, byte by byte (unsigned, a prefix
/// first, as SQLite compares blobs), the way ``ValueOrdering/compare(_:_:)`` compares the
/// values, and two values get the same key exactly when they compare equal. The local
/// cache's field indexes keep these keys, so that a range of values is a range of keys.
///
/// The encoding is exact: integers and doubles share one form that keeps every bit of
/// both (`2^53 + 1` and the double `2^53` differ; `1` and `1.0` are the same key), `NaN`
/// is a number below every other one, and `-0.0` is `0`. Every key is prefix-free (no key
/// is the beginning of another), so keys can be concatenated and still compare field by
/// field; a descending field is its key with every byte inverted. A client's pending
/// server timestamp is never stored, so never indexed: its key follows maps' and does not
/// keep its place in the order.
///
/// Layout: a type byte (`0x10` plus ``ValueOrdering/typeOrder(_:)``), then
/// * booleans: `0` or `1`;
/// * numbers: a class byte (`NaN`, `-∞`, negative, zero, positive, `+∞`), and for a finite
///   non-zero number its magnitude as a binary exponent and a 64-bit normalised
///   significand (inverted for a negative number);
/// * timestamps: seconds and nanoseconds, sign-flipped big-endian;
/// * strings and bytes: the bytes with `00` written `00 FF`, then `00 01`;
/// * references: each path segment as `02` and a numeric ID's number, or `03` and the
///   escaped segment, then `01`;
/// * geo points: latitude and longitude as ordered doubles;
/// * arrays: each element's key, then `01`;
/// * vectors: the element count, then each element's key;
/// * maps: per entry in key order `02`, the escaped key and the value's key; then `01`.
public enum ValueOrderingKey {
  /// The key of `value`.
  public static func encode(_ value: Value) -> [UInt8] {
    var bytes: [UInt8] = []
    append(value, to: &bytes)
    return bytes
  }

  /// Appends the key of `value` to `bytes`; with `descending`, every byte inverted, so that
  /// larger values come first.
  public static func append(_ value: Value, descending: Bool = false, to bytes: inout [UInt8]) {
    let start = bytes.count
    write(value, into: &bytes)
    if descending {
      for i in start..<bytes.count { bytes[i] = ~bytes[i] }
    }
  }

  /// The first byte of every key of a value of `value`'s type class: the keys of the
  /// class are those that begin with it.
  public static func typePrefix(of value: Value) -> UInt8 {
    typeBase + UInt8(ValueOrdering.typeOrder(value))
  }

  /// The smallest byte string greater than every string that begins with `prefix`, or `nil`
  /// when there is none (the prefix is empty or all `FF`).
  public static func successor(ofPrefix prefix: [UInt8]) -> [UInt8]? {
    var bytes = prefix
    while let last = bytes.last {
      if last < 0xFF {
        bytes[bytes.count - 1] = last + 1
        return bytes
      }
      bytes.removeLast()
    }
    return nil
  }

  // MARK: - Markers

  /// Above the markers below, so that an element or entry always sorts after the end of
  /// the sequence holding it.
  private static let typeBase: UInt8 = 0x10
  /// Ends an array, a map or a reference: below every element, entry and segment.
  private static let end: UInt8 = 0x01
  /// Starts a map entry or a string segment of a reference.
  private static let entry: UInt8 = 0x02
  private static let numericSegment: UInt8 = 0x02
  private static let stringSegment: UInt8 = 0x03

  private enum NumberClass: UInt8 {
    case nan = 1
    case negativeInfinity, negative, zero, positive, positiveInfinity
  }

  // MARK: - Values

  private static func write(_ value: Value, into bytes: inout [UInt8]) {
    bytes.append(typePrefix(of: value))
    switch value {
    case .null:
      break
    case .boolean(let b):
      bytes.append(b ? 1 : 0)
    case .integer(let i):
      writeNumber(negative: i < 0, magnitude: i.magnitude, exponent: 0, into: &bytes)
    case .double(let d):
      writeDouble(d, into: &bytes)
    case .timestamp(let t):
      writeSigned(t.seconds, into: &bytes)
      writeBigEndian(UInt32(bitPattern: t.nanoseconds) ^ 0x8000_0000, into: &bytes)
    case .string(let s):
      writeEscaped(s.utf8, into: &bytes)
    case .bytes(let data):
      writeEscaped(data, into: &bytes)
    case .reference(let name):
      writeReference(name, into: &bytes)
    case .geoPoint(let point):
      writeOrderedDouble(point.latitude, into: &bytes)
      writeOrderedDouble(point.longitude, into: &bytes)
    case .array(let elements):
      for element in elements { write(element, into: &bytes) }
      bytes.append(end)
    case .map(let fields):
      if let elements = value.vectorElements {
        writeBigEndian(UInt64(elements.count), into: &bytes)
        for element in elements { write(element, into: &bytes) }
        return
      }
      for key in fields.keys.sorted(by: { ValueOrdering.compareUTF8($0, $1) < 0 }) {
        bytes.append(entry)
        writeEscaped(key.utf8, into: &bytes)
        write(fields[key]!, into: &bytes)
      }
      bytes.append(end)
    }
  }

  // MARK: - Numbers

  private static func writeDouble(_ d: Double, into bytes: inout [UInt8]) {
    if d.isNaN {
      bytes.append(NumberClass.nan.rawValue)
    } else if d.isInfinite {
      bytes.append(d < 0 ? NumberClass.negativeInfinity.rawValue : NumberClass.positiveInfinity.rawValue)
    } else if d == 0 {
      bytes.append(NumberClass.zero.rawValue)
    } else {
      // value = significand × 2^(exponent - 1075) for a normal double (with its hidden bit),
      // significand × 2^-1074 for a subnormal one.
      let biased = Int(d.exponentBitPattern)
      let significand = d.significandBitPattern | (biased == 0 ? 0 : 1 << 52)
      let exponent = biased == 0 ? -1074 : biased - 1075
      writeNumber(negative: d < 0, magnitude: significand, exponent: exponent, into: &bytes)
    }
  }

  /// A finite non-zero number `±magnitude × 2^exponent`, as its class, then the exponent
  /// and significand of the magnitude normalised so that the significand's top bit is set:
  /// a larger magnitude then has a larger exponent, or the same one and a larger
  /// significand, whichever kind of number it came from.
  private static func writeNumber(negative: Bool, magnitude: UInt64, exponent: Int, into bytes: inout [UInt8]) {
    guard magnitude != 0 else {
      bytes.append(NumberClass.zero.rawValue)
      return
    }
    let shift = magnitude.leadingZeroBitCount
    let significand = magnitude << shift
    // Exponents run from -1137 (the smallest subnormal) to 960; biased, they are positive.
    let biasedExponent = UInt16(exponent - shift + 0x4000)
    bytes.append(negative ? NumberClass.negative.rawValue : NumberClass.positive.rawValue)
    let start = bytes.count
    writeBigEndian(biasedExponent, into: &bytes)
    writeBigEndian(significand, into: &bytes)
    // A larger negative magnitude is a smaller number.
    if negative {
      for i in start..<bytes.count { bytes[i] = ~bytes[i] }
    }
  }

  /// A double inside a geo point: `NaN` first, `-0.0` as `0.0`, then numeric order.
  private static func writeOrderedDouble(_ d: Double, into bytes: inout [UInt8]) {
    if d.isNaN {
      writeBigEndian(UInt64(0), into: &bytes)
      return
    }
    let bits = (d == 0 ? 0.0 : d).bitPattern
    // Negative doubles order backwards by their bits; positive ones above all of them.
    writeBigEndian(bits >> 63 == 1 ? ~bits : bits | 1 << 63, into: &bytes)
  }

  private static func writeSigned(_ value: Int64, into bytes: inout [UInt8]) {
    writeBigEndian(UInt64(bitPattern: value) ^ (1 << 63), into: &bytes)
  }

  private static func writeBigEndian<T: FixedWidthInteger & UnsignedInteger>(_ value: T, into bytes: inout [UInt8]) {
    var shift = T.bitWidth - 8
    while shift >= 0 {
      bytes.append(UInt8(truncatingIfNeeded: value >> shift))
      shift -= 8
    }
  }

  // MARK: - Byte strings

  /// Bytes with `00` escaped as `00 FF` and ended by `00 01`: a shorter string that is a
  /// prefix of a longer one sorts first, and no key is a prefix of another.
  private static func writeEscaped(_ source: some Sequence<UInt8>, into bytes: inout [UInt8]) {
    for byte in source {
      bytes.append(byte)
      if byte == 0 { bytes.append(0xFF) }
    }
    bytes.append(0)
    bytes.append(1)
  }

  /// A resource name segment by segment, as ``ValueOrdering/compareResourceNames(_:_:)``
  /// orders it: numeric IDs (`__id7__`) by number before every other segment, the rest by
  /// their bytes, fewer segments first.
  private static func writeReference(_ name: String, into bytes: inout [UInt8]) {
    for segment in name.split(separator: "/", omittingEmptySubsequences: false) {
      if let number = ValueOrdering.numericID(segment.utf8) {
        bytes.append(numericSegment)
        writeSigned(number, into: &bytes)
      } else {
        bytes.append(stringSegment)
        writeEscaped(segment.utf8, into: &bytes)
      }
    }
    bytes.append(end)
  }
}
