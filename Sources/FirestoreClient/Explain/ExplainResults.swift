/// What ``QueryConvertible/explain(options:)`` returns: the explanation, and the results
/// when the query ran.
public struct ExplainResults<Snapshot: Sendable>: Sendable {
  /// The plan and, when the query ran, its statistics.
  public let metrics: ExplainMetrics
  /// The results: `nil` unless ``ExplainOptions/analyze`` was set.
  public let snapshot: Snapshot?
}
