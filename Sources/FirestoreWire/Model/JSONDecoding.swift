/// Small helpers for reading members of REST JSON objects with errors that name the member.
extension JSONValue {
  /// The string member `key`, or `nil` when absent.
  public func optionalString(_ key: String) throws -> String? {
    guard let v = self[key] else { return nil }
    guard case .string(let s) = v else { throw Value.mismatch(key, v) }
    return s
  }

  /// The string member `key`; throws when absent.
  public func requiredString(_ key: String) throws -> String {
    guard let s = try optionalString(key) else { throw WireFormatError("missing \"\(key)\"") }
    return s
  }

  /// The RFC 3339 member `key` as a timestamp, or `nil` when absent.
  public func optionalTimestamp(_ key: String) throws -> Timestamp? {
    try optionalString(key).map { try Timestamp(rfc3339: $0) }
  }

  /// The integer member `key` (JSON number or string), or `nil` when absent.
  public func optionalInt64(_ key: String) throws -> Int64? {
    guard let v = self[key] else { return nil }
    switch v {
    case .number(let s), .string(let s):
      guard let i = Int64(s) else { throw WireFormatError("\(key) \"\(s)\" is not an integer") }
      return i
    default: throw Value.mismatch(key, v)
    }
  }

  /// The boolean member `key`, or `nil` when absent.
  public func optionalBool(_ key: String) throws -> Bool? {
    guard let v = self[key] else { return nil }
    guard case .bool(let b) = v else { throw Value.mismatch(key, v) }
    return b
  }

  /// The array member `key` (missing means empty).
  public func array(_ key: String) throws -> [JSONValue] {
    guard let v = self[key] else { return [] }
    guard case .array(let a) = v else { throw Value.mismatch(key, v) }
    return a
  }

  /// Requires this value to be an object; `what` names it in the error.
  public func requireObject(_ what: String) throws {
    guard case .object = self else { throw WireFormatError("\(what) must be a JSON object, got \(kindName)") }
  }
}

extension Array where Element == (String, JSONValue) {
  /// Appends `(key, value)` when `value` is not `nil`.
  mutating func append(_ key: String, _ value: JSONValue?) {
    if let value { append((key, value)) }
  }
}
