/// How bundle JSON spells timestamps and counts: writers differ (protobuf's canonical JSON
/// uses RFC 3339 strings and strings for 64-bit numbers; some SDKs write `{seconds, nanos}`
/// objects and plain numbers), so readers take either.
enum BundleJSON {
  /// The timestamp member `key`: an RFC 3339 string or a `{"seconds": …, "nanos": …}` object.
  static func timestamp(_ json: JSONValue, _ key: String) throws -> Timestamp {
    guard let value = json[key] else { throw WireFormatError("missing \"\(key)\"") }
    switch value {
    case .string(let text):
      return try Timestamp(rfc3339: text)
    case .object:
      let seconds = try value.optionalInt64("seconds") ?? 0
      let nanos = try value.optionalInt64("nanos") ?? 0
      guard let n = Int32(exactly: nanos), (0..<1_000_000_000).contains(n) else {
        throw WireFormatError("\(key).nanos \(nanos) is not in 0..<1000000000")
      }
      let time = Timestamp(seconds: seconds, nanoseconds: n)
      guard time.isInFirestoreRange else { throw WireFormatError("\(key) is outside the years 1 to 9999") }
      return time
    default:
      throw WireFormatError("\(key) must be an RFC 3339 string or a {seconds, nanos} object, got \(value.kindName)")
    }
  }

  /// The unsigned member `key` (a JSON number or a decimal string), or `default` when absent.
  static func unsigned<T: FixedWidthInteger & UnsignedInteger>(_ json: JSONValue, _ key: String, default fallback: T) throws -> T {
    guard let value = json[key] else { return fallback }
    switch value {
    case .number(let text), .string(let text):
      guard let parsed = T(text) else { throw WireFormatError("\(key) \"\(text)\" is not an unsigned \(T.bitWidth)-bit integer") }
      return parsed
    default:
      throw Value.mismatch(key, value)
    }
  }
}
