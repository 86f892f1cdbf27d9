import Foundation

/// One Firestore value, exactly as the REST API carries it (`google.firestore.v1.Value`).
///
/// Equality is structural, with one Firestore rule: `NaN` equals `NaN`. An integer never
/// equals a double here, although Firestore queries compare numbers across the two kinds.
public enum Value: Sendable, Hashable {
  // Not `indirect`: each payload sits in the enum itself, so a document's values take one
  // allocation per map or array rather than a box each.
  case null
  case boolean(Bool)
  case integer(Int64)
  case double(Double)
  case timestamp(Timestamp)
  case string(String)
  case bytes(Data)
  /// A full resource name: `projects/{p}/databases/{d}/documents/{path}`.
  case reference(String)
  case geoPoint(GeoPoint)
  case array([Value])
  case map([String: Value])

  public static func == (lhs: Value, rhs: Value) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.boolean(let a), .boolean(let b)): return a == b
    case (.integer(let a), .integer(let b)): return a == b
    case (.double(let a), .double(let b)): return same(a, b)
    case (.timestamp(let a), .timestamp(let b)): return a == b
    case (.string(let a), .string(let b)): return a == b
    case (.bytes(let a), .bytes(let b)): return a == b
    case (.reference(let a), .reference(let b)): return a == b
    case (.geoPoint(let a), .geoPoint(let b)): return same(a.latitude, b.latitude) && same(a.longitude, b.longitude)
    case (.array(let a), .array(let b)): return a == b
    case (.map(let a), .map(let b)): return a == b
    default: return false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .boolean(let b): hasher.combine(b)
    case .integer(let i): hasher.combine(i)
    case .double(let d): Self.hash(d, into: &hasher)
    case .timestamp(let t): hasher.combine(t)
    case .string(let s): hasher.combine(s)
    case .bytes(let b): hasher.combine(b)
    case .reference(let r): hasher.combine(r)
    case .geoPoint(let g):
      Self.hash(g.latitude, into: &hasher)
      Self.hash(g.longitude, into: &hasher)
    case .array(let a): hasher.combine(a)
    case .map(let m): hasher.combine(m)
    }
  }

  /// The one rule for a double anywhere in a value: `NaN` equals `NaN`, and `0.0` equals
  /// `-0.0` as for any double.
  private static func same(_ a: Double, _ b: Double) -> Bool {
    a == b || (a.isNaN && b.isNaN)
  }

  /// Hashes `d` so that doubles ``same(_:_:)`` calls equal hash alike: every `NaN` as one.
  private static func hash(_ d: Double, into hasher: inout Hasher) {
    hasher.combine(d.isNaN ? Double.nan : d)
  }

  /// The REST name of this value's kind (`"integerValue"`, `"mapValue"`, …).
  public var kindName: String {
    switch self {
    case .null: return "nullValue"
    case .boolean: return "booleanValue"
    case .integer: return "integerValue"
    case .double: return "doubleValue"
    case .timestamp: return "timestampValue"
    case .string: return "stringValue"
    case .bytes: return "bytesValue"
    case .reference: return "referenceValue"
    case .geoPoint: return "geoPointValue"
    case .array: return "arrayValue"
    case .map: return "mapValue"
    }
  }
}
