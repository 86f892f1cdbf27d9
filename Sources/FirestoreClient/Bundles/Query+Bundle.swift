import FirestoreEngine
import FirestoreWire

/// A query as a bundle's named query holds it, and back.
extension Query {
  /// The query as a bundle stores it: in its own order with its limit type (a
  /// `limit(toLast:)` query is not stored reversed, as it is sent), under its parent's
  /// full name.
  ///
  /// - Throws: `invalidArgument` for a query that the SDKs cannot load from a bundle: a
  ///   projection (`select`) or an `offset`.
  func bundled(name: String, readTime: Timestamp) throws(FirestoreError) -> NamedQuery {
    let lowered = try self.lowered()
    var structured = lowered.structuredQuery
    if structured.select != nil {
      throw .invalidArgument("query \"\(name)\" has a select(_:) projection, which bundles cannot hold (clients refuse to load it)")
    }
    if structured.offset != nil {
      throw .invalidArgument("query \"\(name)\" has an offset(_:), which bundles cannot hold (clients refuse to load it)")
    }
    if lowered.reversesResults {
      // Undo the reversal that runs a limit(toLast:) query: the lowering's swap is its own inverse.
      structured.orderBy = structured.orderBy.map { .init(fieldPath: $0.fieldPath, descending: !$0.descending) }
      (structured.startAt, structured.endAt) = (
        structured.endAt.map { .init(values: $0.values, before: !$0.before) },
        structured.startAt.map { .init(values: $0.values, before: !$0.before) }
      )
    }
    let parent = parentPath.name(below: firestore.documentsRoot)
    return NamedQuery(
      name: name, parent: parent, structuredQuery: structured, limitType: lowered.reversesResults ? .last : .first, readTime: readTime)
  }

  /// The query a bundle's named query describes, on `firestore`.
  ///
  /// - Throws: `invalidArgument` when it belongs to another database or is not a query
  ///   this client builds (several `from` collections, a vector search).
  static func fromBundle(_ named: NamedQuery, firestore: Firestore) throws(FirestoreError) -> Query {
    let what = "bundled query \"\(named.name)\""
    let parent: ResourcePath
    if named.parent == firestore.documentsRoot {
      parent = .root
    } else if let relative = named.parent.removingBytePrefix(firestore.documentsRoot + "/") {
      parent = ResourcePath(segments: relative.slashSegments)
    } else {
      throw .invalidArgument("\(what) runs under \(named.parent), outside this database \(firestore.documentsRoot)")
    }
    let structured = named.structuredQuery
    guard structured.from.count == 1, !structured.from[0].collectionID.isEmpty else {
      throw .invalidArgument("\(what) does not query exactly one collection ID")
    }
    if structured.findNearest != nil { throw .invalidArgument("\(what) is a vector search, which bundles cannot hold") }
    var definition = Definition(
      parent: parent, collectionID: structured.from[0].collectionID, allDescendants: structured.from[0].allDescendants)
    let converter = BundledQueryConverter(firestore: firestore)
    if let filter = structured.filter { definition.filters = [try converter.filter(filter)] }
    definition.orders = structured.orderBy.map { order in
      (FieldPath(QueryEvaluator.segments(order.fieldPath)) as any FieldPathConvertible, order.descending)
    }
    let orderPaths = structured.orderBy.map(\.fieldPath)
    if let start = structured.startAt {
      definition.startBound = Bound(source: .values(try converter.cursor(start, orderPaths: orderPaths)), inclusive: start.before)
    }
    if let end = structured.endAt {
      definition.endBound = Bound(source: .values(try converter.cursor(end, orderPaths: orderPaths)), inclusive: !end.before)
    }
    definition.limitValue = structured.limit.map(Int.init)
    definition.limitKind = named.limitType == .last ? .last : .first
    definition.offsetValue = structured.offset.map(Int.init)
    definition.projection = structured.select.map { paths in paths.map { FieldPath(QueryEvaluator.segments($0)) } }
    return Query(firestore: firestore, definition: definition)
  }
}

/// Turns a stored query's wire filters and cursors back into builder values: references
/// on `__name__` become ``DocumentReference``s, other operands stay wire values (which the
/// lowering takes as they are).
private struct BundledQueryConverter {
  let firestore: Firestore

  func filter(_ filter: QueryFilter) throws(FirestoreError) -> Filter {
    switch filter {
    case .composite(.and, let filters): return .andFilter(try filters.map { f throws(FirestoreError) in try self.filter(f) })
    case .composite(.or, let filters): return .orFilter(try filters.map { f throws(FirestoreError) in try self.filter(f) })
    case .unary(let path, let op):
      let field = FieldPath(QueryEvaluator.segments(path))
      switch op {
      case .isNull: return .whereField(field, isEqualTo: Value.null)
      case .isNaN: return .whereField(field, isEqualTo: Value.double(.nan))
      case .isNotNull: return .whereField(field, isNotEqualTo: Value.null)
      case .isNotNaN: return .whereField(field, isNotEqualTo: Value.double(.nan))
      }
    case .field(let path, let op, let value):
      let field = FieldPath(QueryEvaluator.segments(path))
      let operand: any Sendable
      switch (op, value) {
      case (.in, .array(let list)), (.notIn, .array(let list)), (.arrayContainsAny, .array(let list)):
        operand = try list.map { v throws(FirestoreError) in try self.operand(v, onKey: field.isDocumentID) } as [any Sendable]
      default:
        operand = try self.operand(value, onKey: field.isDocumentID)
      }
      // Every wire operator is some builder operator's.
      let builderOperator = Filter.Operator.allCases.first { $0.wire == op } ?? .isEqualTo
      return Filter(kind: .field(field, builderOperator, operand))
    }
  }

  func cursor(_ cursor: StructuredQuery.Cursor, orderPaths: [String]) throws(FirestoreError) -> [any Sendable] {
    var values: [any Sendable] = []
    for (i, value) in cursor.values.enumerated() {
      let onKey = i < orderPaths.count && QueryEvaluator.isDocumentKey(QueryEvaluator.segments(orderPaths[i]))
      values.append(try operand(value, onKey: onKey))
    }
    return values
  }

  private func operand(_ value: Value, onKey: Bool) throws(FirestoreError) -> any Sendable {
    guard onKey, case .reference(let name) = value else { return value }
    return try firestore.reference(forName: name)
  }
}
