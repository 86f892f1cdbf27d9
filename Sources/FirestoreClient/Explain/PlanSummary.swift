/// What the planner chose for a query.
public struct PlanSummary: Sendable {
  /// The indexes the query uses, each as Firestore reports it, e.g.
  /// `["query_scope": "Collection", "properties": "(age ASC, __name__ ASC)"]`. Firestore
  /// documents their contents as subject to change.
  public let indexesUsed: [[String: any Sendable]]
}
