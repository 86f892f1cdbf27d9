import FirestoreWire

/// Turns a ``Query`` into the stages that run it, as the official clients convert one:
/// the source; one `where` per top-level filter; the projection; `exists` of each ordered
/// field (a query skips documents without them); one `where` per cursor; `sort`;
/// `limit`; `offset`. A `limit(toLast:)` sorts backwards, limits, then sorts forwards.
///
/// A query filter becomes `and(exists(f), op(f, v))` for the operators that skip
/// documents without the field, and `op(f, v)` for `!=` and `not-in`, which match them.
struct PipelineQueryConversion {
  let query: Query

  func pipeline(firestore: Firestore) -> Pipeline {
    do throws(FirestoreError) {
      return Pipeline(firestore: firestore, stages: try stages(firestore: firestore))
    } catch {
      return Pipeline(firestore: firestore, stages: [PipelineStageSpec(name: "collection", args: [.invalid(error)])])
    }
  }

  private func stages(firestore: Firestore) throws(FirestoreError) -> [PipelineStageSpec] {
    guard query.firestore.databaseName == firestore.databaseName else {
      throw .invalidArgument("the query is on \(query.firestore.databaseName), not on this pipeline's database \(firestore.databaseName)")
    }
    let lowered = try query.lowered()
    let structured = lowered.structuredQuery
    let source = PipelineSource(firestore: firestore)
    var stages =
      query.allDescendants
      ? source.collectionGroup(query.collectionID).stages
      : source.collection(
        CollectionReference(firestore: firestore, resourcePath: lowered.parentPath.appending(ResourcePath(segments: [query.collectionID])))
      ).stages

    switch structured.filter {
    case .composite(.and, let filters)?:
      for filter in filters { stages.append(whereStage(condition(filter))) }
    case let filter?:
      stages.append(whereStage(condition(filter)))
    case nil:
      break
    }

    if let select = structured.select {
      var fields: [String: PipelineExpression] = [:]
      for path in select { fields[path] = .field(path) }
      stages.append(PipelineStageSpec(name: "select", args: [.wire(.map(fields))]))
    }

    // The orders as written; with a document cursor, also the implicit ones its values fill.
    var orders = structured.orderBy
    if lowered.reversesResults { orders = orders.map { .init(fieldPath: $0.fieldPath, descending: !$0.descending) } }
    if !query.definition.usesDocumentCursor { orders = Array(orders.prefix(query.definition.orders.count)) }
    guard !orders.isEmpty else {
      appendLimitAndOffset(structured, reversed: nil, to: &stages)
      return stages
    }

    let exists = orders.map { call("exists", .field($0.fieldPath)) }
    stages.append(whereStage(exists.count == 1 ? exists[0] : call("and", exists)))

    // The cursors as the user gave them: with limit(toLast:) the lowered query swapped them.
    let (start, end) =
      lowered.reversesResults
      ? (
        structured.endAt.map { StructuredQuery.Cursor(values: $0.values, before: !$0.before) },
        structured.startAt.map { StructuredQuery.Cursor(values: $0.values, before: !$0.before) }
      )
      : (structured.startAt, structured.endAt)
    if let start { stages.append(whereStage(bound(start, orders: orders, isStart: true))) }
    if let end { stages.append(whereStage(bound(end, orders: orders, isStart: false))) }

    if lowered.reversesResults {
      let backwards = orders.map { StructuredQuery.Order(fieldPath: $0.fieldPath, descending: !$0.descending) }
      stages.append(sortStage(backwards))
      appendLimitAndOffset(structured, reversed: orders, to: &stages)
    } else {
      stages.append(sortStage(orders))
      appendLimitAndOffset(structured, reversed: nil, to: &stages)
    }
    return stages
  }

  /// `limit`, the forward sort of a `limit(toLast:)` query, then `offset`.
  private func appendLimitAndOffset(_ structured: StructuredQuery, reversed: [StructuredQuery.Order]?, to stages: inout [PipelineStageSpec])
  {
    if let limit = structured.limit {
      stages.append(PipelineStageSpec(name: "limit", args: [.wire(.constant(.integer(Int64(limit))))]))
    }
    if let reversed { stages.append(sortStage(reversed)) }
    if let offset = structured.offset, offset > 0 {
      stages.append(PipelineStageSpec(name: "offset", args: [.wire(.constant(.integer(Int64(offset))))]))
    }
  }

  /// The condition of a cursor: past the position in the query's order, field by field
  /// (`f1 > v1 || (f1 == v1 && (f2 > v2 || …))`), the position itself too when inclusive.
  private func bound(_ cursor: StructuredQuery.Cursor, orders: [StructuredQuery.Order], isStart: Bool) -> PipelineExpression {
    // A start cursor is inclusive when it comes before its position; an end cursor when after.
    let inclusive = isStart ? cursor.before : !cursor.before
    let count = min(cursor.values.count, orders.count)
    var result: PipelineExpression?
    for i in (0..<count).reversed() {
      let field = PipelineExpression.field(orders[i].fieldPath)
      let value = operand(cursor.values[i])
      let ascendingPast = isStart != orders[i].descending
      let past = call(ascendingPast ? "greater_than" : "less_than", field, value)
      let equal = call("equal", field, value)
      if let inner = result {
        result = call("or", past, call("and", equal, inner))
      } else {
        result = inclusive ? call("or", past, equal) : past
      }
    }
    return result ?? .constant(.boolean(true))
  }

  private func condition(_ filter: QueryFilter) -> PipelineExpression {
    switch filter {
    case .composite(let op, let filters):
      return call(op == .and ? "and" : "or", filters.map(condition))
    case .unary(let path, let op):
      let field = PipelineExpression.field(path)
      switch op {
      case .isNull: return call("and", call("exists", field), call("equal", field, .constant(.null)))
      case .isNaN: return call("and", call("exists", field), call("equal", field, .constant(.double(.nan))))
      case .isNotNull: return call("and", call("exists", field), call("not", call("equal", field, .constant(.null))))
      case .isNotNaN: return call("and", call("exists", field), call("not", call("equal", field, .constant(.double(.nan)))))
      }
    case .field(let path, let op, let value):
      let field = PipelineExpression.field(path)
      let value = operand(value)
      switch op {
      case .notEqual: return call("not_equal", field, value)
      case .notIn: return call("not_equal_any", field, value)
      case .lessThan: return present(field, call("less_than", field, value))
      case .lessThanOrEqual: return present(field, call("less_than_or_equal", field, value))
      case .greaterThan: return present(field, call("greater_than", field, value))
      case .greaterThanOrEqual: return present(field, call("greater_than_or_equal", field, value))
      case .equal: return present(field, call("equal", field, value))
      case .arrayContains: return present(field, call("array_contains", field, value))
      case .in: return present(field, call("equal_any", field, value))
      case .arrayContainsAny: return present(field, call("array_contains_any", field, value))
      }
    }
  }

  private func present(_ field: PipelineExpression, _ test: PipelineExpression) -> PipelineExpression {
    call("and", call("exists", field), test)
  }

  /// A query value as a function argument: arrays and maps as `array(…)` and `map(…)` calls,
  /// as the official clients send a list or a dictionary; a vector stays a constant.
  private func operand(_ value: Value) -> PipelineExpression {
    switch value {
    case .array(let elements): return call("array", elements.map(operand))
    case .map(let fields) where !value.isVector:
      return call("map", fields.sorted { $0.key < $1.key }.flatMap { [.constant(.string($0.key)), operand($0.value)] })
    default: return .constant(value)
    }
  }

  private func call(_ name: String, _ args: PipelineExpression...) -> PipelineExpression { call(name, args) }

  private func call(_ name: String, _ args: [PipelineExpression]) -> PipelineExpression {
    .function(PipelineFunction(name: name, args: args))
  }

  private func whereStage(_ condition: PipelineExpression) -> PipelineStageSpec {
    PipelineStageSpec(name: "where", args: [.wire(condition)])
  }

  private func sortStage(_ orders: [StructuredQuery.Order]) -> PipelineStageSpec {
    PipelineStageSpec(
      name: "sort",
      args: orders.map { .wire(Ordering.encoded(.field($0.fieldPath), $0.descending ? .descending : .ascending)) })
  }
}

extension Query.Definition {
  /// Whether a cursor was given as a document, whose values fill the implicit orders too.
  var usesDocumentCursor: Bool {
    [startBound, endBound].contains { bound in
      if case .document? = bound?.source { return true }
      return false
    }
  }
}
