import FirestoreEngine
import FirestoreWire

/// Runs structured queries as the Firestore emulator does: its validation
/// (``QueryValidator``), then ``FirestoreWire/QueryEvaluator``, which the client's local
/// cache shares.
enum QueryEngine {
  /// Runs `query` over candidate documents (already restricted by the caller to the right
  /// parent + collection id / allDescendants). Returns the result in order, after cursors,
  /// offset and limit, with projection applied.
  ///
  /// - Throws: the emulator's 400 errors for invalid queries (see ``QueryValidator``).
  static func execute(_ query: StructuredQuery, over candidates: [Document]) throws(MockError) -> [Document] {
    try execute(query, over: candidates, aggregationFields: [])
  }

  /// Runs `query` as the base query of an aggregation whose `sum`/`avg` fields are
  /// `aggregationFields` (canonical paths).
  ///
  /// The emulator treats those fields as implicit orderings after the inequality fields
  /// (verified: with `sum(x)` and `limit: 1` the document with the smallest `x` is summed),
  /// which is also why documents lacking them are left out of every aggregation.
  static func execute(
    _ query: StructuredQuery, over candidates: [Document], aggregationFields: [String]
  ) throws(MockError) -> [Document] {
    try QueryValidator.validate(query, aggregationFields: aggregationFields)
    return QueryEvaluator.evaluate(query, over: candidates, aggregationFields: aggregationFields)
  }

  /// See ``FirestoreWire/QueryEvaluator/normalizedOrder(_:aggregationFields:)``.
  static func normalizedOrder(_ query: StructuredQuery, aggregationFields: [String] = []) -> [StructuredQuery.Order] {
    QueryEvaluator.normalizedOrder(query, aggregationFields: aggregationFields)
  }

  /// See ``FirestoreWire/QueryEvaluator/value(atCanonicalPath:in:)``.
  static func value(atCanonicalPath path: String, in document: Document) -> Value? {
    QueryEvaluator.value(atCanonicalPath: path, in: document)
  }

  /// See ``FirestoreWire/QueryEvaluator/project(_:onto:)``.
  static func project(_ document: Document, onto canonicalPaths: [String]) -> Document {
    QueryEvaluator.project(document, onto: canonicalPaths)
  }

  /// See ``FirestoreWire/QueryEvaluator/segments(_:)``.
  static func segments(_ path: String) -> [String] { QueryEvaluator.segments(path) }

  /// See ``FirestoreWire/QueryEvaluator/compareFieldPaths(_:_:)``.
  static func compareFieldPaths(_ a: [String], _ b: [String]) -> Int { QueryEvaluator.compareFieldPaths(a, b) }

  /// See ``FirestoreWire/QueryEvaluator/inequalityPaths(_:)``.
  static func inequalityPaths(_ filter: QueryFilter) -> [[String]] { QueryEvaluator.inequalityPaths(filter) }
}
