/// Lets the value converter see through `Optional` values hidden in `any Sendable`.
protocol OptionalValue {
  /// The wrapped value, or `nil`.
  var wrappedValue: Any? { get }
}

extension Optional: OptionalValue {
  var wrappedValue: Any? {
    switch self {
    case .some(let value): return value
    case .none: return nil
    }
  }
}
