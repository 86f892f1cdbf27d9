import FirestoreWire

/// What an expression yields for one row: a value, the absent marker (a field the row
/// does not have), or an error (an integer overflow, a division by zero, a type a
/// function does not take), which `if_error` and `is_error` can catch.
public enum PipelineEvaluation: Sendable, Equatable {
  /// A value.
  case value(Value)
  /// A field the row does not have.
  case absent
  /// A failure, with what went wrong.
  case error(String)

  /// The value; `nil` when absent or an error.
  public var value: Value? {
    if case .value(let value) = self { return value }
    return nil
  }

  /// Null or absent: what most functions pass through as null.
  var isNullish: Bool {
    switch self {
    case .absent, .value(.null): return true
    default: return false
    }
  }
}
