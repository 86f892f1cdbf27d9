/// What running an explained query cost (``ExplainOptions/analyze`` only).
public struct ExecutionStats: Sendable {
  /// Results returned: documents, projections, aggregation results or keys.
  public let resultsReturned: Int
  /// The time the query took in the backend.
  public let executionDuration: Duration
  /// Billable read operations.
  public let readOperations: Int
  /// Debugging statistics as Firestore reports them (`documents_scanned`,
  /// `index_entries_scanned`, `billing_details`, …); their contents may change.
  public let debugStats: [String: any Sendable]
}
