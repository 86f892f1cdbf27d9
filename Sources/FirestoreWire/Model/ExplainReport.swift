/// What Firestore reports about a query run with `explainOptions` (`google.firestore.v1.ExplainMetrics`):
/// the plan (indexes chosen) and, when the query was also executed (`analyze`), execution
/// statistics. It rides on the last element of a `:runQuery` or `:runAggregationQuery` reply.
///
/// Firestore documents the plan's and the debug statistics' contents as free-form and
/// subject to change, so they stay JSON objects here.
public struct ExplainReport: Sendable, Equatable {
  /// Statistics of an executed query (`ExecutionStats`).
  public struct Execution: Sendable, Equatable {
    /// Results returned: documents, projections, aggregation results or keys.
    public var resultsReturned: Int64
    /// The time the backend took, in seconds.
    public var executionSeconds: Double
    /// Billable read operations.
    public var readOperations: Int64
    /// Debugging statistics (a JSON object; its members may change).
    public var debugStats: JSONValue

    /// Creates statistics.
    public init(resultsReturned: Int64, executionSeconds: Double, readOperations: Int64, debugStats: JSONValue = .object([])) {
      self.resultsReturned = resultsReturned
      self.executionSeconds = executionSeconds
      self.readOperations = readOperations
      self.debugStats = debugStats
    }
  }

  /// The indexes the planner chose, each a JSON object such as
  /// `{"query_scope": "Collection", "properties": "(age ASC, __name__ ASC)"}`.
  public var indexesUsed: [JSONValue]
  /// Execution statistics; only for an executed (`analyze`) query.
  public var execution: Execution?

  /// Creates a report.
  public init(indexesUsed: [JSONValue], execution: Execution? = nil) {
    self.indexesUsed = indexesUsed
    self.execution = execution
  }

  /// The REST JSON form (`explainMetrics`).
  public var json: JSONValue {
    var m: [(String, JSONValue)] = [("planSummary", .object([("indexesUsed", .array(indexesUsed))]))]
    if let execution {
      m.append(
        (
          "executionStats",
          .object([
            ("resultsReturned", .string(String(execution.resultsReturned))),
            ("executionDuration", .string(Self.duration(execution.executionSeconds))),
            ("readOperations", .string(String(execution.readOperations))),
            ("debugStats", execution.debugStats),
          ])
        ))
    }
    return .object(m)
  }

  /// Reads an `explainMetrics` object.
  public init(json: JSONValue) throws {
    try json.requireObject("explainMetrics")
    indexesUsed = try json["planSummary"]?.array("indexesUsed") ?? []
    if let stats = json["executionStats"] {
      try stats.requireObject("executionStats")
      let duration = try stats.optionalString("executionDuration") ?? "0s"
      guard duration.hasSuffix("s"), let seconds = Double(duration.dropLast()) else {
        throw WireFormatError("executionDuration \"\(duration)\" is not a duration such as \"0.25s\"")
      }
      execution = Execution(
        resultsReturned: try stats.optionalInt64("resultsReturned") ?? 0, executionSeconds: seconds,
        readOperations: try stats.optionalInt64("readOperations") ?? 0, debugStats: stats["debugStats"] ?? .object([]))
    }
  }

  /// A protobuf `Duration` in JSON: seconds with up to nine fraction digits and an `s`.
  package static func duration(_ seconds: Double) -> String {
    let nanos = Int64((seconds * 1e9).rounded())
    let whole = nanos / 1_000_000_000
    let fraction = nanos % 1_000_000_000
    guard fraction != 0 else { return "\(whole)s" }
    var digits = String(fraction)
    digits = String(repeating: "0", count: 9 - digits.count) + digits
    while digits.hasSuffix("0") { digits.removeLast() }
    return "\(whole).\(digits)s"
  }
}
