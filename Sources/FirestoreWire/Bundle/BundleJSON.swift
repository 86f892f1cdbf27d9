/// How bundle JSON spells timestamps, counts and values: writers differ (protobuf's
/// canonical JSON uses RFC 3339 strings and strings for 64-bit numbers; the Node SDK writes
/// its protobuf objects as they are: `{seconds, nanos}` timestamps, plain numbers, and
/// values that may carry a `valueType` member naming their kind), so readers take either
/// and turn the rest into the REST API's spelling before decoding.
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

  /// A document in the REST API's spelling: `{seconds, nanos}` times become RFC 3339 text,
  /// and its values are normalized (see ``value(_:)``).
  static func document(_ json: JSONValue) throws -> Document {
    guard case .object(let members) = json else { return try Document(json: json) }
    var out: [(String, JSONValue)] = []
    for (key, member) in members {
      switch key {
      case "createTime", "updateTime": out.append((key, .string(try timestamp(json, key).rfc3339)))
      case "fields": out.append((key, fields(member)))
      default: out.append((key, member))
      }
    }
    return try Document(json: .object(out))
  }

  /// A structured query with its values (filter operands, cursor values, query vector)
  /// normalized.
  static func query(_ json: JSONValue) -> JSONValue {
    rewrite(json) { key, member in
      switch key {
      case "where": return filter(member)
      case "startAt", "endAt": return rewrite(member) { $0 == "values" ? values(member: $1) : $1 }
      case "findNearest": return rewrite(member) { $0 == "queryVector" ? value($1) : $1 }
      default: return member
      }
    }
  }

  /// A value in the REST API's spelling: a `valueType` member dropped, a `{seconds, nanos}`
  /// timestamp as RFC 3339 text (left as it is when out of range, for the decoder to
  /// refuse), maps and arrays normalized throughout.
  static func value(_ json: JSONValue) -> JSONValue {
    guard case .object(let members) = json else { return json }
    var out: [(String, JSONValue)] = []
    for (key, member) in members where key != "valueType" {
      switch key {
      case "timestampValue":
        if case .object = member, let time = try? timestamp(json, key) {
          out.append((key, .string(time.rfc3339)))
        } else {
          out.append((key, member))
        }
      case "mapValue": out.append((key, rewrite(member) { $0 == "fields" ? fields($1) : $1 }))
      case "arrayValue": out.append((key, rewrite(member) { $0 == "values" ? values(member: $1) : $1 }))
      default: out.append((key, member))
      }
    }
    return .object(out)
  }

  private static func fields(_ json: JSONValue) -> JSONValue {
    guard case .object(let members) = json else { return json }
    return .object(members.map { ($0.0, value($0.1)) })
  }

  private static func values(member json: JSONValue) -> JSONValue {
    guard case .array(let elements) = json else { return json }
    return .array(elements.map(value))
  }

  private static func filter(_ json: JSONValue) -> JSONValue {
    rewrite(json) { key, member in
      switch key {
      case "compositeFilter": return rewrite(member) { $0 == "filters" ? (($1.arrayValue?.map(filter)).map(JSONValue.array) ?? $1) : $1 }
      case "fieldFilter": return rewrite(member) { $0 == "value" ? value($1) : $1 }
      default: return member
      }
    }
  }

  /// An object with each member passed through `transform`; anything else as it is.
  private static func rewrite(_ json: JSONValue, _ transform: (String, JSONValue) -> JSONValue) -> JSONValue {
    guard case .object(let members) = json else { return json }
    return .object(members.map { ($0.0, transform($0.0, $0.1)) })
  }
}
