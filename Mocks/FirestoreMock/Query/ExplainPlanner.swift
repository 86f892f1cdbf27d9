import FirestoreWire

/// The mock's answer to `explainOptions`, which the emulator ignores (it runs the query and
/// returns no `explainMetrics`, verified). The shape follows production's documentation of
/// `ExplainMetrics`; the contents are the mock's own account of what it did:
///
/// * the plan names one index: the query's scope (`Collection` or `Collection group`) and,
///   as production's example `(age ASC, __name__ ASC)`, the fields the query's equality
///   filters name, then its ordering (or its vector field). Production chooses among the
///   indexes that exist and documents this content as subject to change;
/// * `readOperations` follows Firestore's billing rules: a query is billed one read per
///   document returned and at least one; an aggregation one read per batch of up to 1,000
///   index entries it matched, and at least one;
/// * `debugStats` counts the documents the mock examined (it scans the whole collection).
enum ExplainPlanner {
  /// Index entries one billed read of an aggregation covers.
  static let aggregationEntriesPerRead = 1000

  /// The plan's indexes for `query`.
  static func indexesUsed(_ query: StructuredQuery) -> [JSONValue] {
    var properties: [String] = []
    var seen = Set<String>()
    func add(_ path: String, _ direction: String) {
      if seen.insert(path).inserted { properties.append("\(path) \(direction)") }
    }
    if let filter = query.filter { for path in equalityPaths(filter) { add(path, "ASC") } }
    if let search = query.findNearest {
      add(search.vectorField, "VECTOR")
    } else {
      for order in QueryEngine.normalizedOrder(query) { add(order.fieldPath, order.descending ? "DESC" : "ASC") }
    }
    let scope = query.from.contains(where: \.allDescendants) ? "Collection group" : "Collection"
    return [.object([("query_scope", .string(scope)), ("properties", .string("(\(properties.joined(separator: ", ")))"))])]
  }

  /// The report for a query that returned `returned` documents after examining `scanned`.
  static func queryReport(_ query: StructuredQuery, analyze: Bool, returned: Int, scanned: Int, seconds: Double) -> ExplainReport {
    report(query, analyze: analyze, results: returned, reads: max(1, returned), scanned: scanned, seconds: seconds)
  }

  /// The report for an aggregation over `matched` documents after examining `scanned`.
  static func aggregationReport(_ query: StructuredQuery, analyze: Bool, matched: Int, scanned: Int, seconds: Double) -> ExplainReport {
    let reads = max(1, (matched + aggregationEntriesPerRead - 1) / aggregationEntriesPerRead)
    return report(query, analyze: analyze, results: 1, reads: reads, scanned: scanned, seconds: seconds)
  }

  private static func report(
    _ query: StructuredQuery, analyze: Bool, results: Int, reads: Int, scanned: Int, seconds: Double
  ) -> ExplainReport {
    guard analyze else { return ExplainReport(indexesUsed: indexesUsed(query)) }
    let debug: JSONValue = .object([
      ("documents_scanned", .string(String(scanned))), ("index_entries_scanned", .string(String(scanned))),
    ])
    return ExplainReport(
      indexesUsed: indexesUsed(query),
      execution: .init(resultsReturned: Int64(results), executionSeconds: seconds, readOperations: Int64(reads), debugStats: debug))
  }

  /// The paths of the filter's `EQUAL` filters, in order.
  private static func equalityPaths(_ filter: QueryFilter) -> [String] {
    switch filter {
    case .field(let path, .equal, _): return [path]
    case .field, .unary: return []
    case .composite(_, let filters): return filters.flatMap(equalityPaths)
    }
  }
}
