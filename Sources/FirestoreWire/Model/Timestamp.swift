/// A point in time with nanosecond precision, independent of any time zone or calendar.
///
/// This is Firestore's `timestampValue`, also used for document metadata (`createTime`,
/// `updateTime`, `readTime`). The valid range is 0001-01-01T00:00:00Z through
/// 9999-12-31T23:59:59.999999999Z. Text in and out is RFC 3339; any UTC offset is
/// accepted on input and output always uses `Z`.
///
/// ```swift
/// let t = try Timestamp(rfc3339: "2024-01-02T03:04:05.5+01:00")
/// t.rfc3339  // "2024-01-02T02:04:05.500Z"
/// ```
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
  public var seconds: Int64
  /// Non-negative fraction of a second, `0..<1_000_000_000`.
  public var nanoseconds: Int32

  /// The earliest timestamp Firestore stores, 0001-01-01T00:00:00Z.
  public static let minimumSeconds: Int64 = -62_135_596_800
  /// The latest whole second Firestore stores, 9999-12-31T23:59:59Z.
  public static let maximumSeconds: Int64 = 253_402_300_799

  /// Creates a timestamp; `nanoseconds` outside `0..<1e9` is normalised into `seconds`.
  public init(seconds: Int64, nanoseconds: Int32) {
    var s = seconds
    var n = Int64(nanoseconds)
    s += n / 1_000_000_000
    n %= 1_000_000_000
    if n < 0 {
      n += 1_000_000_000
      s -= 1
    }
    self.seconds = s
    self.nanoseconds = Int32(n)
  }

  /// Whether this timestamp lies in Firestore's supported range (years 1 through 9999).
  public var isInFirestoreRange: Bool {
    seconds >= Self.minimumSeconds && seconds <= Self.maximumSeconds
  }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
  }

  public var description: String { rfc3339 }

  /// Parses RFC 3339 text: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
  ///
  /// Up to nine fraction digits are kept; the offset is applied. Lower-case `t` and `z`
  /// are accepted as RFC 3339 allows. The instant must lie in Firestore's range (years 1
  /// to 9999 in UTC), so that ``rfc3339`` can write it back: `0000-01-01T00:00:00+01:00`
  /// would be year -1 and `9999-12-31T23:59:59-01:00` year 10000.
  ///
  /// - Throws: ``WireFormatError`` naming the text when it is not RFC 3339 or out of range.
  public init(rfc3339 text: String) throws {
    var text = text
    self = try text.withUTF8 { try Timestamp(rfc3339Bytes: $0) }
  }

  /// Parses RFC 3339 text given as UTF-8 bytes (what ``init(rfc3339:)`` does, without
  /// making a `String` first: the wire decoder reads timestamps straight from a response).
  package init(rfc3339Bytes b: UnsafeBufferPointer<UInt8>) throws {
    func fail() -> WireFormatError {
      WireFormatError("invalid RFC 3339 timestamp \"\(String(decoding: b, as: UTF8.self))\"")
    }
    // `YYYY-MM-DDTHH:MM:SS`, its separators checked before any digit is read.
    guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
      b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
      b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
      let year = Self.digits(b, 0, 4), let month = Self.digits(b, 5, 2), let day = Self.digits(b, 8, 2),
      let hour = Self.digits(b, 11, 2), let minute = Self.digits(b, 14, 2), let second = Self.digits(b, 17, 2),
      (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 61
    else { throw fail() }
    var i = 19
    var nanos: Int64 = 0
    if i < b.count, b[i] == UInt8(ascii: ".") {
      i += 1
      var count = 0
      while i < b.count, b[i] >= 0x30, b[i] <= 0x39 {
        if count < 9 { nanos = nanos * 10 + Int64(b[i] - 0x30) }
        count += 1
        i += 1
      }
      guard count > 0 else { throw fail() }
      for _ in min(count, 9)..<9 { nanos *= 10 }
    }
    var offset: Int64 = 0
    guard i < b.count else { throw fail() }
    if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
      i += 1
    } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
      let sign: Int64 = b[i] == UInt8(ascii: "+") ? 1 : -1
      guard i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let oh = Self.digits(b, i + 1, 2), let om = Self.digits(b, i + 4, 2),
        oh < 24, om < 60
      else { throw fail() }
      offset = sign * (oh * 3600 + om * 60)
      i += 6
    } else {
      throw fail()
    }
    guard i == b.count else { throw fail() }
    let days = Self.daysFromCivil(year: year, month: month, day: day)
    let secs = days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset
    guard secs >= Self.minimumSeconds && secs <= Self.maximumSeconds else {
      throw WireFormatError(
        "RFC 3339 timestamp \"\(String(decoding: b, as: UTF8.self))\" is outside Firestore's range, years 1 to 9999 in UTC")
    }
    self.init(seconds: secs, nanoseconds: Int32(nanos))
  }

  /// The decimal number in `count` bytes of `b` from `start`; `nil` when they run past the
  /// end or one is not a digit.
  @inline(__always)
  private static func digits(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int64? {
    guard start + count <= b.count else { return nil }
    var value: Int64 = 0
    for i in start..<start + count {
      let digit = b[i] &- 0x30
      guard digit < 10 else { return nil }
      value = value * 10 + Int64(digit)
    }
    return value
  }

  /// RFC 3339 text in UTC with 0, 3, 6 or 9 fraction digits, as Firestore writes it.
  public var rfc3339: String {
    let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
    let secOfDay = seconds - days * 86_400
    let (y, m, d) = Self.civilFromDays(days)
    // The shortest of 3, 6 or 9 fraction digits that holds the nanoseconds; none for 0.
    var fraction = Int64(nanoseconds)
    var fractionDigits = 0
    if fraction != 0 {
      if fraction % 1_000_000 == 0 {
        (fraction, fractionDigits) = (fraction / 1_000_000, 3)
      } else if fraction % 1000 == 0 {
        (fraction, fractionDigits) = (fraction / 1000, 6)
      } else {
        fractionDigits = 9
      }
    }
    // Years outside 0...9999 (beyond Firestore's range) are written with as many digits
    // as they need, and a sign.
    var yearDigits = 4
    var tens: UInt64 = 10_000
    while y.magnitude >= tens && yearDigits < 19 {
      yearDigits += 1
      tens = tens &* 10
    }
    // The year, "-MM-DDTHH:MM:SS" (15 bytes), the fraction and "Z".
    let length = (y < 0 ? 1 : 0) + yearDigits + 15 + (fractionDigits > 0 ? fractionDigits + 1 : 0) + 1
    // Written as bytes into the string's own storage: a timestamp is formatted for every
    // one written, and joined strings made a dozen of them each time.
    return String(unsafeUninitializedCapacity: length) { out in
      var i = 0
      func put(_ character: Unicode.Scalar) {
        out[i] = UInt8(ascii: character)
        i += 1
      }
      func put(_ value: UInt64, digits: Int) {
        var rest = value
        for k in stride(from: i + digits - 1, through: i, by: -1) {
          out[k] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
        i += digits
      }
      if y < 0 { put("-") }
      put(y.magnitude, digits: yearDigits)
      put("-")
      put(UInt64(m), digits: 2)
      put("-")
      put(UInt64(d), digits: 2)
      put("T")
      put(UInt64(secOfDay / 3600), digits: 2)
      put(":")
      put(UInt64(secOfDay / 60 % 60), digits: 2)
      put(":")
      put(UInt64(secOfDay % 60), digits: 2)
      if fractionDigits > 0 {
        put(".")
        put(UInt64(fraction), digits: fractionDigits)
      }
      put("Z")
      return i
    }
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  // Howard Hinnant's days-from-civil algorithm: exact for the proleptic Gregorian calendar.
  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d)
  }
}
