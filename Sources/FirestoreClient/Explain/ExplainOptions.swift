/// How ``QueryConvertible/explain(options:)`` explains a query (the server SDKs'
/// `ExplainOptions`).
public struct ExplainOptions: Sendable {
  /// Whether the query also runs: `false` plans it and returns the plan only; `true`
  /// returns the results too, with the execution's statistics.
  public var analyze: Bool

  /// Creates options; by default the query is only planned.
  public init(analyze: Bool = false) {
    self.analyze = analyze
  }
}
