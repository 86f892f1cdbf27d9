import FirestoreWire

/// The emulator's checks of a structured query, with its exact messages (every message and
/// trigger verified with the emulator, and cross-checked by a differential run of ~8,000
/// random queries). The first failing check wins; the order of the checks follows the
/// emulator where it was observable.
enum QueryValidator {
  /// The most values an `IN` or `ARRAY_CONTAINS_ANY` list may hold.
  static let maxDisjunctionValues = 30
  /// The most values a `NOT_IN` list may hold.
  static let maxNotInValues = 10

  /// Throws the error the emulator gives for `query`, or returns when it would run it.
  /// `aggregationFields` are the canonical paths of an aggregation's `sum`/`avg` fields.
  static func validate(_ query: StructuredQuery, aggregationFields: [String] = []) throws(MockError) {
    try validateRequest(query)
    if let search = query.findNearest { try VectorRules.validate(search, in: query) }
    try validatePlan(query, aggregationFields: aggregationFields)
  }

  /// The first stage: limits, field paths and the shape of the filter. (An aggregation's
  /// projection checks come between the two stages, as on the emulator.)
  static func validateRequest(_ query: StructuredQuery) throws(MockError) {
    if let limit = query.limit, limit < 0 { throw .invalidArgument("limit is negative") }
    if let offset = query.offset, offset < 0 { throw .invalidArgument("offset is negative") }
    for path in query.select ?? [] { _ = try FieldPathParser.parse(path) }
    for order in query.orderBy { _ = try FieldPathParser.parse(order.fieldPath) }
    if let filter = query.filter { try validateFilter(filter) }
  }

  /// The second stage: what the emulator's planner rejects (orderings, cursors, key scans).
  /// Expects a query that passed ``validateRequest(_:)``.
  static func validatePlan(_ query: StructuredQuery, aggregationFields: [String] = []) throws(MockError) {
    let explicit = query.orderBy.map { QueryEngine.segments($0.fieldPath) }
    if let filter = query.filter {
      let inequalities = QueryEngine.inequalityPaths(filter)
      if hasKeyEquality(filter) && !inequalities.isEmpty && !inequalities.contains(where: FieldPathParser.isDocumentKey) {
        throw .invalidArgument(
          "Equality on key is not allowed if there are other inequality fields and key does not appear in inequalities.")
      }
    }
    // Aggregation fields do not count here: `orderBy __name__ desc` with `sum(x)` still fails
    // this way (verified).
    let plain = QueryEngine.normalizedOrder(query)
    let onlyKeyDescending = plain.count == 1 && plain[0].descending && isKey(plain[0])
    if onlyKeyDescending && !(query.filter.map(hasPropertyFilter) ?? false) {
      // [emulator-only, presumably] The emulator only scans keys ascending unless a filter on a
      // property picks an index; production documents descending document-ID order.
      throw .failedPrecondition("Firestore does not support descending key scans")
    }
    try validateAggregationOrder(query, explicit: explicit, aggregationFields: aggregationFields)
    let normalized = QueryEngine.normalizedOrder(query, aggregationFields: aggregationFields)
    if let key = normalized.firstIndex(where: isKey), key != normalized.count - 1 {
      throw .invalidArgument("order by clause cannot contain more fields after the key")
    }
    for (i, path) in explicit.enumerated() where explicit[..<i].contains(where: { QueryEngine.compareFieldPaths($0, path) == 0 }) {
      throw .invalidArgument("order by clause cannot contain duplicate fields \(FieldPathParser.display(path))")
    }
    for cursor in [query.startAt, query.endAt].compactMap({ $0 }) {
      // The emulator counts the explicit orderings only, not the implicit ones.
      if cursor.values.count > query.orderBy.count { throw .invalidArgument("Cursor has too many values.") }
      for (value, order) in zip(cursor.values, normalized) where isKey(order) {
        guard case .reference(let name) = value else {
          throw .invalidArgument("Cursor __key__ value is not a document reference.")
        }
        try validateDocumentName(name)
      }
    }
  }

  private static func isKey(_ order: StructuredQuery.Order) -> Bool {
    FieldPathParser.isDocumentKey(QueryEngine.segments(order.fieldPath))
  }

  // MARK: - Filters

  private static func validateFilter(_ filter: QueryFilter) throws(MockError) {
    try validateEach(filter)
    let notEqualFamily = count(in: filter) { f in
      switch f {
      case .field(_, .notEqual, _), .field(_, .notIn, _), .unary(_, .isNotNull), .unary(_, .isNotNaN): return true
      default: return false
      }
    }
    if notEqualFamily > 1 {
      throw .invalidArgument("Only a single 'NOT_EQUAL', 'NOT_IN', 'IS_NOT_NAN', or 'IS_NOT_NULL' filter allowed per query.")
    }
    let hasNotIn = count(in: filter) { if case .field(_, .notIn, _) = $0 { return true } else { return false } } > 0
    let hasDisjunction =
      count(in: filter) { f in
        switch f {
        case .field(_, .in, _), .field(_, .arrayContainsAny, _), .composite(.or, _): return true
        default: return false
        }
      } > 0
    if hasNotIn && hasDisjunction {
      throw .invalidArgument("'NOT_IN' cannot be used in the same query with 'IN', 'ARRAY_CONTAINS_ANY' or 'OR'.")
    }
    if maxArrayContainsPerConjunction(filter) > 1 {
      throw .invalidArgument("A maximum of 1 'ARRAY_CONTAINS' filter is allowed per disjunction.")
    }
  }

  /// Checks each filter on its own: paths, operand shapes, `__name__` operands.
  private static func validateEach(_ filter: QueryFilter) throws(MockError) {
    switch filter {
    case .composite(let op, let filters):
      // An empty AND is accepted (and matches everything); an empty OR is not.
      if op == .or && filters.isEmpty { throw .invalidArgument("Composite filter must have at least one sub-filter.") }
      for f in filters { try validateEach(f) }
    case .unary(let path, _):
      if FieldPathParser.isDocumentKey(try FieldPathParser.parse(path)) {
        throw .invalidArgument("__key__ filter value must be a Key")
      }
    case .field(let path, let op, let value):
      let isKey = FieldPathParser.isDocumentKey(try FieldPathParser.parse(path))
      var operands = [value]
      switch op {
      case .in, .notIn, .arrayContainsAny:
        guard case .array(let list) = value else { throw .invalidArgument("'\(op.rawValue)' requires an ArrayValue.") }
        if list.isEmpty { throw .invalidArgument("'\(op.rawValue)' requires an non-empty ArrayValue.") }
        let limit = op == .notIn ? maxNotInValues : maxDisjunctionValues
        if list.count > limit { throw .invalidArgument("'\(op.rawValue)' supports up to \(limit) comparison values.") }
        operands = list
      default:
        break
      }
      guard isKey else { return }
      if op == .arrayContains || op == .arrayContainsAny { throw .invalidArgument("the name __key__ is reserved") }
      for operand in operands {
        guard case .reference(let name) = operand else { throw .invalidArgument("__key__ filter value must be a Key") }
        try validateDocumentName(name)
      }
    }
  }

  /// How many filters in the tree satisfy `predicate` (composites included).
  private static func count(in filter: QueryFilter, where predicate: (QueryFilter) -> Bool) -> Int {
    var n = predicate(filter) ? 1 : 0
    if case .composite(_, let filters) = filter {
      for f in filters { n += count(in: f, where: predicate) }
    }
    return n
  }

  /// The most `ARRAY_CONTAINS`/`ARRAY_CONTAINS_ANY` filters in one conjunction of the
  /// filter's disjunctive normal form: an AND adds its parts' counts, an OR takes the largest.
  private static func maxArrayContainsPerConjunction(_ filter: QueryFilter) -> Int {
    switch filter {
    case .field(_, .arrayContains, _), .field(_, .arrayContainsAny, _): return 1
    case .field, .unary: return 0
    case .composite(.and, let filters): return filters.reduce(0) { $0 + maxArrayContainsPerConjunction($1) }
    case .composite(.or, let filters): return filters.map(maxArrayContainsPerConjunction).max() ?? 0
    }
  }

  /// Whether some `EQUAL` or `IN` filter in the tree is on `__name__`.
  private static func hasKeyEquality(_ filter: QueryFilter) -> Bool {
    switch filter {
    case .field(let path, let op, _): return (op == .equal || op == .in) && FieldPathParser.isDocumentKey(QueryEngine.segments(path))
    case .unary: return false
    case .composite(_, let filters): return filters.contains(where: hasKeyEquality)
    }
  }

  /// Whether some filter in the tree is on `__name__`.
  private static func hasKeyFilter(_ filter: QueryFilter) -> Bool {
    switch filter {
    case .field(let path, _, _), .unary(let path, _): return FieldPathParser.isDocumentKey(QueryEngine.segments(path))
    case .composite(_, let filters): return filters.contains(where: hasKeyFilter)
    }
  }

  /// Whether some filter in the tree is on a field other than `__name__`.
  private static func hasPropertyFilter(_ filter: QueryFilter) -> Bool {
    switch filter {
    case .field(let path, _, _), .unary(let path, _): return !FieldPathParser.isDocumentKey(QueryEngine.segments(path))
    case .composite(_, let filters): return filters.contains(where: hasPropertyFilter)
    }
  }

  // MARK: - Aggregations and names

  /// An aggregation's `sum`/`avg` fields are implicit orderings; they cannot follow an explicit
  /// `__name__` ordering or any filter on `__name__` (equality included, verified) unless they
  /// are ordered explicitly or are inequality fields.
  private static func validateAggregationOrder(
    _ query: StructuredQuery, explicit: [[String]], aggregationFields: [String]
  ) throws(MockError) {
    let inequalities = query.filter.map(QueryEngine.inequalityPaths) ?? []
    guard explicit.contains(where: FieldPathParser.isDocumentKey) || (query.filter.map(hasKeyFilter) ?? false) else { return }
    // Fields already ordered explicitly or by an inequality are not listed (verified).
    var missing: [[String]] = []
    for path in aggregationFields.map(QueryEngine.segments).sorted(by: { QueryEngine.compareFieldPaths($0, $1) < 0 })
    where !(explicit + inequalities + missing).contains(where: { QueryEngine.compareFieldPaths($0, path) == 0 }) {
      missing.append(path)
    }
    guard !missing.isEmpty else { return }
    throw .invalidArgument(
      "This query requires an index that has fields [\(missing.map(FieldPathParser.display).joined(separator: ", "))] after __name__ "
        + "and Firestore does not currently support such an index. Please try the query again with additional ordering on those fields."
    )
  }

  /// A `__name__` operand must name a document: an even number of segments after
  /// `/documents/`.
  private static func validateDocumentName(_ name: String) throws(MockError) {
    guard let range = name.range(of: "/documents/") else { return }
    let path = name[range.upperBound...]
    if path.slashSegments.count % 2 == 1 {
      throw .invalidArgument("Resource name \"\(name)\" lacks \"/\" at index \(name.utf16.count).")
    }
  }
}
