import FirestoreEngine
import FirestoreWire

/// Turning a ``Query`` into the REST `StructuredQuery`, validating it on the way.
extension Query {
  /// The most values `in` and `array-contains-any` accept.
  static let maximumDisjunctionValues = 30
  /// The most values `not-in` accepts.
  static let maximumNotInValues = 10
  /// The most terms a query's filter may have in disjunctive normal form.
  static let maximumDisjunctions = 30

  /// What a lowered query sends: the parent (the root or a document), the query, and
  /// whether results must be reversed (for `limit(toLast:)`).
  struct Lowered: Sendable {
    var parentPath: ResourcePath
    var structuredQuery: StructuredQuery
    var reversesResults: Bool
  }

  /// Validates and lowers the query. Throws `invalidArgument` naming the problem.
  ///
  /// - Parameter forAggregation: for an aggregation, which may take `limit(toLast:)`
  ///   without an ordering (it counts as many documents either way), as the Apple SDK's.
  func lowered(forAggregation: Bool = false) throws(FirestoreError) -> Lowered {
    if let recordedError { throw recordedError }
    var structured = StructuredQuery(from: [.init(collectionID: collectionID, allDescendants: allDescendants)])
    try validateConflicts()

    var wireFilters: [QueryFilter] = []
    for filter in filters { if let f = try lower(filter) { wireFilters.append(f) } }
    try validateDisjunctionCount()
    switch wireFilters.count {
    case 0: break
    case 1: structured.filter = wireFilters[0]
    default: structured.filter = .composite(op: .and, filters: wireFilters)
    }

    var explicit: [(FieldPath, Bool)] = []
    for (field, descending) in orders {
      let path = try field.fieldPath()
      // The server refuses both: an ordering after the document ID's, and one field twice.
      if let last = explicit.last, last.0.isDocumentID {
        throw .invalidArgument("order(by: \(path.canonicalString)) comes after order(by: FieldPath.documentID()), which must be the last")
      }
      if explicit.contains(where: { $0.0 == path }) {
        throw .invalidArgument("order(by:) names \(path.canonicalString) twice")
      }
      explicit.append((path, descending))
    }
    // The implicit orderings are the server's: the engine's rule, which the mock applies too.
    structured.orderBy = explicit.map { .init(fieldPath: $0.0.canonicalString, descending: $0.1) }
    var normalized: [(FieldPath, Bool)] = []
    for order in QueryEvaluator.normalizedOrder(structured) {
      normalized.append((try FieldPath.parse(canonical: order.fieldPath), order.descending))
    }
    if limitKind == .last && explicit.isEmpty && limitValue != nil && !forAggregation {
      throw .invalidArgument("limit(toLast:) needs at least one order(by:) clause")
    }

    var start: StructuredQuery.Cursor?
    var end: StructuredQuery.Cursor?
    if let startBound { start = try cursor(startBound, explicit: explicit, normalized: normalized, what: "start") }
    if let endBound { end = try cursor(endBound, explicit: explicit, normalized: normalized, what: "end") }
    var order = normalized
    let reverses = limitKind == .last && limitValue != nil
    if reverses {
      order = order.map { ($0.0, !$0.1) }
      (start, end) = (end.map { .init(values: $0.values, before: !$0.before) }, start.map { .init(values: $0.values, before: !$0.before) })
    }
    structured.orderBy = order.map { .init(fieldPath: $0.0.canonicalString, descending: $0.1) }
    structured.startAt = start
    structured.endAt = end
    structured.limit = limitValue.map { Int32($0) }
    structured.offset = offsetValue.flatMap { $0 == 0 ? nil : Int32($0) }
    if let projection {
      var paths: [String] = []
      for p in projection { paths.append(try p.fieldPath().canonicalString) }
      // An empty projection would return no fields at all on the emulator but whole
      // documents nowhere; both mean "IDs only", which `__name__` says explicitly.
      structured.select = paths.isEmpty ? [FieldPath.documentID().canonicalString] : paths
    }
    return Lowered(parentPath: parentPath, structuredQuery: structured, reversesResults: reverses)
  }

  /// Firestore's per-query and per-conjunction operator limits.
  private func validateConflicts() throws(FirestoreError) {
    // One of !=, not-in, != nil, != NaN per query.
    var notEqualFamily: [String] = []
    func countNotEqual(_ f: Filter) {
      switch f.kind {
      case .field(let field, let op, _) where op == .isNotEqualTo || op == .notIn:
        notEqualFamily.append("\((try? field.fieldPath().description) ?? "?") \(op.symbol)")
      case .and(let fs), .or(let fs): fs.forEach(countNotEqual)
      default: break
      }
    }
    filters.forEach(countNotEqual)
    if notEqualFamily.count > 1 {
      throw .invalidArgument(
        "a query may have only one '!=' or 'not-in' filter, got \(notEqualFamily.joined(separator: " and "))")
    }
    // not-in anywhere rules out in, array-contains-any and OR anywhere (Firestore's
    // documented limit: the server refuses the query, nested or not).
    var anywhere: Set<Filter.Operator> = []
    var hasDisjunction = false
    func collectAll(_ f: Filter) {
      switch f.kind {
      case .field(_, let op, _): anywhere.insert(op)
      case .and(let fs): fs.forEach(collectAll)
      case .or(let fs):
        hasDisjunction = hasDisjunction || fs.count > 1
        fs.forEach(collectAll)
      }
    }
    filters.forEach(collectAll)
    if anywhere.contains(.notIn) {
      if let other = [Filter.Operator.in, .arrayContainsAny].first(where: anywhere.contains) {
        throw .invalidArgument("'not-in' and '\(other.symbol)' filters cannot be combined in one query")
      }
      if hasDisjunction { throw .invalidArgument("a 'not-in' filter cannot be combined with an OR filter in one query") }
    }
    // Conflicting operators within one conjunction (the top-level AND, flattened).
    var conjunction: [Filter.Operator] = []
    func collectAnd(_ f: Filter) {
      switch f.kind {
      case .field(_, let op, _): conjunction.append(op)
      case .and(let fs): fs.forEach(collectAnd)
      case .or(let fs) where fs.count == 1: collectAnd(fs[0])
      case .or: break
      }
    }
    filters.forEach(collectAnd)
    for (i, op) in conjunction.enumerated() {
      for other in conjunction[(i + 1)...] where op.conflicts.contains(other) {
        throw .invalidArgument("'\(op.symbol)' and '\(other.symbol)' filters cannot be combined in one query")
      }
    }
  }

  /// Firestore's limit on the terms of the filter in disjunctive normal form ("Too many
  /// disjunctions after normalization"): an OR adds its terms, an AND multiplies them, and
  /// `in` / `array-contains-any` count one term per value.
  private func validateDisjunctionCount() throws(FirestoreError) {
    func terms(_ f: Filter) -> Int {
      switch f.kind {
      case .field(_, let op, let raw):
        guard op == .in || op == .arrayContainsAny, let list = raw as? [any Sendable] else { return 1 }
        return max(1, list.count)
      case .or(let fs):
        // Saturating, so that a huge filter cannot overflow.
        return fs.isEmpty ? 1 : min(fs.reduce(0) { $0 + terms($1) }, Int(Int32.max))
      case .and(let fs):
        return fs.reduce(1) { min($0 * terms($1), Int(Int32.max)) }
      }
    }
    let total = filters.reduce(1) { min($0 * terms($1), Int(Int32.max)) }
    if total > Self.maximumDisjunctions {
      throw .invalidArgument(
        "the query's filters make \(total) disjunctions in normal form (OR terms, multiplied across AND, one per in/array-contains-any value); Firestore allows at most \(Self.maximumDisjunctions)"
      )
    }
  }

  /// Lowers one filter; an empty composite lowers to nothing.
  private func lower(_ filter: Filter) throws(FirestoreError) -> QueryFilter? {
    switch filter.kind {
    case .and(let fs), .or(let fs):
      var lowered: [QueryFilter] = []
      for f in fs { if let l = try lower(f) { lowered.append(l) } }
      if lowered.isEmpty { return nil }
      if lowered.count == 1 { return lowered[0] }
      if case .and = filter.kind { return .composite(op: .and, filters: lowered) }
      return .composite(op: .or, filters: lowered)
    case .field(let field, let op, let raw):
      let path = try field.fieldPath()
      let what = "filter on \"\(path)\" \(op.symbol)"
      switch op {
      case .in, .notIn, .arrayContainsAny:
        guard let list = raw as? [any Sendable] else {
          throw .invalidArgument("\(what) needs an array of values, got \(type(of: raw))")
        }
        let limit = op == .notIn ? Self.maximumNotInValues : Self.maximumDisjunctionValues
        if list.isEmpty { throw .invalidArgument("\(what) needs a non-empty array") }
        if list.count > limit { throw .invalidArgument("\(what) has \(list.count) values; the maximum is \(limit)") }
        var values: [Value] = []
        for element in list {
          values.append(
            path.isDocumentID
              ? try documentKey(element, what: what) : try UserDataReader.argument(element, firestore: firestore, what: what))
        }
        if path.isDocumentID && op == .arrayContainsAny {
          throw .invalidArgument("'array-contains-any' cannot be used on the document ID")
        }
        return .field(path: path.canonicalString, op: op.wire, value: .array(values))
      default:
        if path.isDocumentID {
          if op == .arrayContains { throw .invalidArgument("'array-contains' cannot be used on the document ID") }
          return .field(path: path.canonicalString, op: op.wire, value: try documentKey(raw, what: what))
        }
        let value = try UserDataReader.argument(raw, firestore: firestore, what: what)
        let isNaN: Bool
        if case .double(let d) = value, d.isNaN { isNaN = true } else { isNaN = false }
        if value == .null || isNaN {
          switch op {
          case .isEqualTo: return .unary(path: path.canonicalString, op: isNaN ? .isNaN : .isNull)
          case .isNotEqualTo: return .unary(path: path.canonicalString, op: isNaN ? .isNotNaN : .isNotNull)
          // Sent as it is, as the Apple SDK does: the server matches no document by it.
          case .arrayContains: return .field(path: path.canonicalString, op: op.wire, value: value)
          default: throw .invalidArgument("\(what): \(isNaN ? "NaN" : "null") supports only '==', '!=' and 'array-contains'")
          }
        }
        return .field(path: path.canonicalString, op: op.wire, value: value)
      }
    }
  }

  /// A document-key value: a `DocumentReference`, or a string ID (a path for collection groups).
  private func documentKey(_ raw: any Sendable, what: String) throws(FirestoreError) -> Value {
    if let ref = raw as? DocumentReference { return try UserDataReader.argument(ref, firestore: firestore, what: what) }
    guard let id = raw as? String else {
      throw .invalidArgument("\(what) on the document ID needs a String ID or a DocumentReference, got \(type(of: raw))")
    }
    let path: ResourcePath
    if allDescendants {
      path = try ResourcePath.parse(id, what: "document path")
      guard path.isDocument else {
        throw .invalidArgument("\(what): a collection-group query needs a full document path, and \"\(id)\" is not one")
      }
    } else {
      if id.contains("/") { throw .invalidArgument("\(what): document ID \"\(id)\" must not contain \"/\"") }
      try ResourcePath.validateID(id, in: id, what: "document ID")
      path = parentPath.appending(ResourcePath(segments: [collectionID, id]))
    }
    return .reference(path.name(below: firestore.documentsRoot))
  }

  /// Rejects a cursor document the query cannot reach, as the server SDKs do: a
  /// collection query's documents are its collection's direct children, a collection
  /// group's lie below the query's parent. The server would take such a position and
  /// silently start or end the results in the wrong place.
  private func checkCursorDocument(_ ref: DocumentReference, what: String) throws(FirestoreError) {
    let path = try ref.validated().resourcePath
    let collection = parentPath.appending(ResourcePath(segments: [collectionID]))
    let sameDatabase = ref.firestore.databaseName == firestore.databaseName
    if allDescendants {
      if !sameDatabase || !path.hasPrefix(parentPath) {
        throw .invalidArgument(
          "\(what) cursor uses document \(path.string), which is not below the collection group query's parent \"\(parentPath.string)\"")
      }
    } else if !sameDatabase || path.parent != collection {
      throw .invalidArgument("\(what) cursor uses document \(path.string), which is not in the query's collection \(collection.string)")
    }
  }

  /// Lowers a bound to a wire cursor: values for the orderings, or a document's values.
  private func cursor(
    _ bound: Bound, explicit: [(FieldPath, Bool)], normalized: [(FieldPath, Bool)], what: String
  ) throws(FirestoreError) -> StructuredQuery.Cursor {
    // start: inclusive → before; end: inclusive → after.
    let before = what == "start" ? bound.inclusive : !bound.inclusive
    switch bound.source {
    case .values(let raw):
      if raw.isEmpty { throw .invalidArgument("\(what) cursor has no values") }
      if raw.count > explicit.count {
        throw .invalidArgument(
          "\(what) cursor has \(raw.count) values but the query has \(explicit.count) order(by:) clause\(explicit.count == 1 ? "" : "s")")
      }
      var values: [Value] = []
      for (i, element) in raw.enumerated() {
        let field = explicit[i].0
        if field.isDocumentID, let ref = element as? DocumentReference { try checkCursorDocument(ref, what: what) }
        values.append(
          field.isDocumentID
            ? try documentKey(element, what: "\(what) cursor value for the document ID")
            : try UserDataReader.argument(element, firestore: firestore, what: "\(what) cursor"))
      }
      return .init(values: values, before: before)
    case .document(let snapshot):
      guard let document = snapshot.document else {
        throw .invalidArgument("\(what) cursor uses document \(snapshot.reference.path), which does not exist")
      }
      try checkCursorDocument(snapshot.reference, what: what)
      var values: [Value] = []
      for (field, _) in normalized {
        if field.isDocumentID {
          values.append(.reference(document.name))
        } else if let v = snapshot.value(at: field) {
          // Its value is not known until the server sets it: the Apple SDK refuses it too.
          if FieldMap.get(document.fields, field.segments)?.pendingServerTimestamp != nil {
            throw .invalidArgument(
              "\(what) cursor uses document \(snapshot.reference.path), whose field \"\(field)\" used in order(by:) is a server "
                + "timestamp the server has not set yet")
          }
          values.append(v)
        } else {
          throw .invalidArgument(
            "\(what) cursor uses document \(snapshot.reference.path), which has no field \"\(field)\" used in order(by:)")
        }
      }
      return .init(values: values, before: before)
    }
  }
}
