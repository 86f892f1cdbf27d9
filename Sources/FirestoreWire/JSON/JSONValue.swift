/// A parsed JSON value.
///
/// Numbers keep their source text so that 64-bit integers (which Firestore sends as
/// strings, but also accepts as bare numbers) never pass through `Double`. Objects keep
/// their members in document order; duplicate keys are kept as written and lookups find
/// the first one.
public enum JSONValue: Sendable, Equatable {
  case null
  case bool(Bool)
  /// A number in its JSON text form, e.g. `"1.0E300"` or `"42"`.
  case number(String)
  case string(String)
  case array([JSONValue])
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.bool(let a), .bool(let b)): return a == b
    case (.number(let a), .number(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.array(let a), .array(let b)): return a == b
    case (.object(let a), .object(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    default: return false
    }
  }

  /// Builds a number from an integer.
  public static func integer(_ value: Int64) -> JSONValue { .number(String(value)) }

  /// The member named `key` of an object, or `nil` for a missing key or a non-object.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    for (k, v) in members where k == key { return v }
    return nil
  }

  /// The string payload, or `nil` when this is not a string.
  public var stringValue: String? {
    if case .string(let s) = self { return s }
    return nil
  }

  /// The elements of an array, or `nil` when this is not an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let a) = self { return a }
    return nil
  }

  /// The members of an object, or `nil` when this is not an object.
  public var objectValue: [(String, JSONValue)]? {
    if case .object(let o) = self { return o }
    return nil
  }

  /// A short name of this value's JSON kind, for error messages.
  public var kindName: String {
    switch self {
    case .null: return "null"
    case .bool: return "boolean"
    case .number: return "number"
    case .string: return "string"
    case .array: return "array"
    case .object: return "object"
    }
  }
}
