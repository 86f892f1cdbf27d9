import FirestoreWire

/// A condition on documents, for ``QueryConvertible/whereFilter(_:)``: one field
/// comparison, or an AND / OR of other filters.
///
/// ```swift
/// let q = db.collection("cities").whereFilter(.orFilter([
///   .whereField("capital", isEqualTo: true),
///   .andFilter([.whereField("country", isEqualTo: "JP"), .whereField("population", isGreaterThan: 1_000_000)]),
/// ]))
/// ```
public struct Filter: Sendable {
  /// A field comparison operator.
  public enum Operator: Sendable, Hashable, CaseIterable {
    case isEqualTo, isNotEqualTo, isLessThan, isLessThanOrEqualTo, isGreaterThan, isGreaterThanOrEqualTo
    case arrayContains, arrayContainsAny, `in`, notIn

    var wire: QueryFilter.FieldOperator {
      switch self {
      case .isEqualTo: return .equal
      case .isNotEqualTo: return .notEqual
      case .isLessThan: return .lessThan
      case .isLessThanOrEqualTo: return .lessThanOrEqual
      case .isGreaterThan: return .greaterThan
      case .isGreaterThanOrEqualTo: return .greaterThanOrEqual
      case .arrayContains: return .arrayContains
      case .arrayContainsAny: return .arrayContainsAny
      case .in: return .in
      case .notIn: return .notIn
      }
    }

    /// The operator as Firestore's documentation and the SDKs' messages write it, and as the
    /// `firestore` command line reads it: `==`, `!=`, `<`, `<=`, `>`, `>=`,
    /// `array-contains`, `array-contains-any`, `in`, `not-in`.
    public var symbol: String {
      switch self {
      case .isEqualTo: return "=="
      case .isNotEqualTo: return "!="
      case .isLessThan: return "<"
      case .isLessThanOrEqualTo: return "<="
      case .isGreaterThan: return ">"
      case .isGreaterThanOrEqualTo: return ">="
      case .arrayContains: return "array-contains"
      case .arrayContainsAny: return "array-contains-any"
      case .in: return "in"
      case .notIn: return "not-in"
      }
    }

    /// The operator whose ``symbol`` is `symbol`, or `nil`.
    public init?(symbol: String) {
      guard let op = Self.allCases.first(where: { $0.symbol == symbol }) else { return nil }
      self = op
    }

    /// Whether the operator compares with a list of values (`in`, `not-in`,
    /// `array-contains-any`) rather than one.
    public var takesList: Bool { self == .in || self == .notIn || self == .arrayContainsAny }

    /// Operators that Firestore refuses in the same conjunction as this one (`not-in` and
    /// `!=` have limits over the whole query, which the query checks).
    var conflicts: Set<Operator> {
      switch self {
      case .arrayContainsAny, .arrayContains: return [.arrayContains, .arrayContainsAny]
      default: return []
      }
    }
  }

  indirect enum Kind: Sendable {
    case field(any FieldPathConvertible, Operator, any Sendable)
    case and([Filter])
    case or([Filter])
  }

  let kind: Kind

  /// Documents whose field equals `value` (`nil` matches null; `Double.nan` matches NaN).
  public static func whereField(_ field: some FieldPathConvertible, isEqualTo value: Any) -> Filter {
    Filter(kind: .field(field, .isEqualTo, UserData.sendable(value)))
  }
  /// Documents whose field exists and differs from `value`.
  public static func whereField(_ field: some FieldPathConvertible, isNotEqualTo value: Any) -> Filter {
    Filter(kind: .field(field, .isNotEqualTo, UserData.sendable(value)))
  }
  /// Documents whose field sorts before `value`.
  public static func whereField(_ field: some FieldPathConvertible, isLessThan value: Any) -> Filter {
    Filter(kind: .field(field, .isLessThan, UserData.sendable(value)))
  }
  /// Documents whose field sorts before or equal to `value`.
  public static func whereField(_ field: some FieldPathConvertible, isLessThanOrEqualTo value: Any) -> Filter {
    Filter(kind: .field(field, .isLessThanOrEqualTo, UserData.sendable(value)))
  }
  /// Documents whose field sorts after `value`.
  public static func whereField(_ field: some FieldPathConvertible, isGreaterThan value: Any) -> Filter {
    Filter(kind: .field(field, .isGreaterThan, UserData.sendable(value)))
  }
  /// Documents whose field sorts after or equal to `value`.
  public static func whereField(_ field: some FieldPathConvertible, isGreaterThanOrEqualTo value: Any) -> Filter {
    Filter(kind: .field(field, .isGreaterThanOrEqualTo, UserData.sendable(value)))
  }
  /// Documents whose array field contains `value`.
  public static func whereField(_ field: some FieldPathConvertible, arrayContains value: Any) -> Filter {
    Filter(kind: .field(field, .arrayContains, UserData.sendable(value)))
  }
  /// Documents whose array field contains any of `values` (1 to 30 values).
  public static func whereField(_ field: some FieldPathConvertible, arrayContainsAny values: [Any]) -> Filter {
    Filter(kind: .field(field, .arrayContainsAny, UserData.sendable(values)))
  }
  /// Documents whose field equals one of `values` (1 to 30 values).
  public static func whereField(_ field: some FieldPathConvertible, in values: [Any]) -> Filter {
    Filter(kind: .field(field, .in, UserData.sendable(values)))
  }
  /// Documents whose field exists and equals none of `values` (1 to 10 values).
  public static func whereField(_ field: some FieldPathConvertible, notIn values: [Any]) -> Filter {
    Filter(kind: .field(field, .notIn, UserData.sendable(values)))
  }
  /// Documents whose field compares with `value` by `op`: the form for an operator chosen at
  /// run time. For an operator that ``Operator/takesList``, `value` is an array.
  public static func whereField(_ field: some FieldPathConvertible, _ op: Operator, _ value: Any) -> Filter {
    Filter(kind: .field(field, op, UserData.sendable(value)))
  }
  /// Documents matching every filter.
  public static func andFilter(_ filters: [Filter]) -> Filter { Filter(kind: .and(filters)) }
  /// Documents matching at least one filter.
  public static func orFilter(_ filters: [Filter]) -> Filter { Filter(kind: .or(filters)) }
}
