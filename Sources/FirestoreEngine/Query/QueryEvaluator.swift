import FirestoreWire

/// Evaluates a structured query over documents held in memory, with Firestore's semantics:
/// the mock server answers queries with it and the client's local cache runs queries
/// offline with it, so both order, filter and page exactly alike.
///
/// Semantics verified against the emulator (`cloud-firestore-emulator` 1.19.9):
/// * results are sorted by the normalized order (see ``normalizedOrder(_:aggregationFields:)``);
///   a document lacking any field of that order is not a result, even when the field only
///   comes from an inequality inside an `OR`;
/// * cursors compare a prefix of the normalized order (a cursor may have fewer values than
///   orderings), in each ordering's direction; `before` means start-at / end-before;
/// * `offset` then `limit` apply after the cursors; projection applies last;
/// * a `findNearest` search replaces ordering, cursors and limits (see
///   `nearest(_:_:over:)`).
///
/// It does not validate: a query the server would reject runs here as written.
public enum QueryEvaluator {
  /// The document-key pseudo-field.
  public static let documentKey = CanonicalFieldPath.documentKey

  /// Runs `query` over candidate documents (already restricted by the caller to the right
  /// parent and collection) and returns the result in order, after cursors, offset and
  /// limit, with projection applied.
  ///
  /// - Parameters:
  ///   - query: the query; it is not validated.
  ///   - candidates: the documents of the queried collection(s), in any order.
  ///   - aggregationFields: the canonical paths of an aggregation's `sum`/`avg` fields,
  ///     which order (and so filter) like implicit orderings after the inequality fields.
  public static func evaluate(_ query: StructuredQuery, over candidates: [Document], aggregationFields: [String] = []) -> [Document] {
    if let search = query.findNearest { return nearest(query, search, over: candidates) }
    let order = normalizedOrder(query, aggregationFields: aggregationFields)
    var rows = self.rows(query, order: order, over: candidates)
    rows.sort { compare($0.keys, $1.keys, order) < 0 }
    if let start = query.startAt {
      rows.removeAll { row in
        let c = compare(row.keys, start.values, order)
        return start.before ? c < 0 : c <= 0
      }
    }
    if let end = query.endAt {
      rows.removeAll { row in
        let c = compare(row.keys, end.values, order)
        return end.before ? c >= 0 : c > 0
      }
    }
    var results = rows.map(\.document)
    if let offset = query.offset { results = Array(results.dropFirst(Int(max(offset, 0)))) }
    if let limit = query.limit { results = Array(results.prefix(Int(max(limit, 0)))) }
    if let select = query.select { results = results.map { project($0, onto: select) } }
    return results
  }

  /// The candidates in `query`'s result before its order, cursors, offset and limit apply:
  /// those its filter matches that have every field it orders by (implicit orderings
  /// included), in the candidates' order. Membership alone, without the sort
  /// ``evaluate(_:over:aggregationFields:)`` does; not for a vector search, whose result is
  /// its nearest neighbours.
  public static func unboundedMatches(_ query: StructuredQuery, over candidates: [Document]) -> [Document] {
    rows(query, order: normalizedOrder(query), over: candidates).map(\.document)
  }

  /// The candidates the filter matches that have every field of `order`, each with its
  /// values of those fields.
  private static func rows(
    _ query: StructuredQuery, order: [StructuredQuery.Order], over candidates: [Document]
  ) -> [(document: Document, keys: [Value])] {
    let orderPaths = order.map { segments($0.fieldPath) }
    var rows: [(document: Document, keys: [Value])] = []
    candidates: for document in candidates {
      if let filter = query.filter, !matches(filter, document) { continue }
      var keys: [Value] = []
      keys.reserveCapacity(orderPaths.count)
      for path in orderPaths {
        guard let v = value(at: path, in: document) else { continue candidates }
        keys.append(v)
      }
      rows.append((document, keys))
    }
    return rows
  }

  /// The order results are sorted by: the explicit `orderBy`, then the fields of inequality
  /// filters (`<`, `<=`, `>`, `>=`, `!=`, `NOT_IN`, `IS_NOT_NULL`, `IS_NOT_NAN`, also inside
  /// `OR`) not already ordered, sorted by field path; then an aggregation's `sum`/`avg`
  /// fields likewise; then `__name__` unless ordered. The implicit orderings take the
  /// direction of the last explicit one (ascending if none).
  ///
  /// Verified on the emulator, including that paths sort name by name (`a` before the
  /// quoted `a-b`, although a back-quote sorts before `a`) and that an inequality on
  /// `__name__` adds nothing.
  public static func normalizedOrder(_ query: StructuredQuery, aggregationFields: [String] = []) -> [StructuredQuery.Order] {
    var result = query.orderBy
    var ordered = query.orderBy.map { segments($0.fieldPath) }
    let descending = query.orderBy.last?.descending ?? false
    func appendImplicit(_ paths: [[String]]) {
      for path in paths.sorted(by: { compareFieldPaths($0, $1) < 0 })
      where !isDocumentKey(path) && !ordered.contains(where: { compareFieldPaths($0, path) == 0 }) {
        ordered.append(path)
        result.append(StructuredQuery.Order(fieldPath: CanonicalFieldPath.encode(path), descending: descending))
      }
    }
    appendImplicit(query.filter.map(inequalityPaths) ?? [])
    appendImplicit(aggregationFields.map(segments))
    if !ordered.contains(where: isDocumentKey) {
      result.append(StructuredQuery.Order(fieldPath: documentKey, descending: descending))
    }
    return result
  }

  /// The value at a canonical field path: `"__name__"` gives `.reference(document.name)`;
  /// other paths walk nested maps. `nil` when absent or when the path does not parse.
  public static func value(atCanonicalPath path: String, in document: Document) -> Value? {
    value(at: segments(path), in: document)
  }

  /// A copy of `document` with only the fields at `canonicalPaths` (and the maps leading to
  /// them). `__name__` selects no field, so a `__name__`-only projection has no fields at all,
  /// as on the emulator; a path through a non-map or to a missing field adds nothing.
  public static func project(_ document: Document, onto canonicalPaths: [String]) -> Document {
    var fields: [String: Value] = [:]
    for path in canonicalPaths {
      let names = segments(path)
      if isDocumentKey(names) { continue }
      if let v = FieldMap.get(document.fields, names) { FieldMap.set(&fields, names, v) }
    }
    return Document(name: document.name, fields: fields, createTime: document.createTime, updateTime: document.updateTime)
  }

  /// Whether a path (already split) is the document key.
  public static func isDocumentKey(_ segments: [String]) -> Bool {
    segments.count == 1 && segments[0] == documentKey
  }

  /// The names of a canonical path; a path that does not parse is taken as one name.
  public static func segments(_ path: String) -> [String] {
    (try? CanonicalFieldPath.decode(path)) ?? [path]
  }

  /// The value at a split path; `["__name__"]` is the document's reference.
  public static func value(at segments: [String], in document: Document) -> Value? {
    if isDocumentKey(segments) { return .reference(document.name) }
    return FieldMap.get(document.fields, segments)
  }

  /// Compares field paths name by name, each by UTF-8 bytes, a prefix first.
  public static func compareFieldPaths(_ a: [String], _ b: [String]) -> Int {
    for (x, y) in zip(a, b) {
      let c = ValueOrdering.compareUTF8(x, y)
      if c != 0 { return c }
    }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  /// The paths of the filter's inequality-style filters, which order results implicitly.
  ///
  /// A filter that can never match is not one (verified: with `b != null`, `b < null`,
  /// `b < NaN` or `b NOT_IN [null]` the emulator adds no ordering on `b`), while `b != NaN`
  /// and `b NOT_IN [1, null]` are.
  public static func inequalityPaths(_ filter: QueryFilter) -> [[String]] {
    switch filter {
    case .field(let path, let op, let value):
      switch op {
      case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
        if case .null = value { return [] }
        if case .double(let d) = value, d.isNaN { return [] }
        return [segments(path)]
      case .notEqual:
        if case .null = value { return [] }
        return [segments(path)]
      case .notIn:
        if case .array(let list) = value, list.allSatisfy({ if case .null = $0 { true } else { false } }) { return [] }
        return [segments(path)]
      case .equal, .arrayContains, .in, .arrayContainsAny:
        return []
      }
    case .unary(let path, let op):
      return op == .isNotNull || op == .isNotNaN ? [segments(path)] : []
    case .composite(_, let filters):
      return filters.flatMap(inequalityPaths)
    }
  }

  /// Compares sort keys (or a cursor's values, possibly fewer) over the shared prefix, each
  /// in its ordering's direction.
  private static func compare(_ a: [Value], _ b: [Value], _ order: [StructuredQuery.Order]) -> Int {
    for i in 0..<min(a.count, b.count, order.count) {
      let c = ValueOrdering.compare(a[i], b[i])
      if c != 0 { return order[i].descending ? -c : c }
    }
    return 0
  }
}
