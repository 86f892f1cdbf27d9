import FirestoreWire

/// The comparison functions: two-valued, never null.
enum PipelineComparison {
  /// `equal`, `not_equal`, `greater_than`, `greater_than_or_equal`, `less_than`,
  /// `less_than_or_equal`.
  static func compare(_ name: String, _ lhs: PipelineEvaluation, _ rhs: PipelineEvaluation) -> PipelineEvaluation {
    // An absent operand equals nothing, null included, and lies in no range.
    guard case .value(let a) = lhs, case .value(let b) = rhs else { return .value(.boolean(name == "not_equal")) }
    switch name {
    case "equal": return .value(.boolean(equal(a, b)))
    case "not_equal": return .value(.boolean(!equal(a, b)))
    default:
      guard let order = order(a, b) else { return .value(.boolean(false)) }
      switch name {
      case "greater_than": return .value(.boolean(order > 0))
      case "greater_than_or_equal": return .value(.boolean(order >= 0))
      case "less_than": return .value(.boolean(order < 0))
      default: return .value(.boolean(order <= 0))
      }
    }
  }

  /// `equal_any` and `not_equal_any`: whether the value equals an element of the array.
  static func membership(_ name: String, _ lhs: PipelineEvaluation, _ rhs: PipelineEvaluation) -> PipelineEvaluation {
    guard case .value(.array(let elements)) = rhs else { return .error("\(name) takes an array to search") }
    guard case .value(let value) = lhs else { return .value(.boolean(name == "not_equal_any")) }
    let found = elements.contains { equal(value, $0) }
    return .value(.boolean(found == (name == "equal_any")))
  }

  /// Equality: numbers by value (`1 == 1.0`), `NaN` equal to itself, other values only to
  /// values of their own type.
  static func equal(_ a: Value, _ b: Value) -> Bool {
    ValueOrdering.typeOrder(a) == ValueOrdering.typeOrder(b) && ValueOrdering.compare(a, b) == 0
  }

  /// The order of two values of one type; `nil` when they are not comparable: of
  /// different types, or one of them `NaN` and the other a number.
  static func order(_ a: Value, _ b: Value) -> Int? {
    guard ValueOrdering.typeOrder(a) == ValueOrdering.typeOrder(b) else { return nil }
    if isNaN(a) != isNaN(b) { return nil }
    return ValueOrdering.compare(a, b)
  }

  private static func isNaN(_ value: Value) -> Bool {
    if case .double(let d) = value { return d.isNaN }
    return false
  }
}
