/// A query filter as the REST API carries it: a field comparison, a unary test, or an
/// AND/OR of other filters.
public indirect enum QueryFilter: Sendable, Equatable {
  /// A comparison operator of a field filter.
  public enum FieldOperator: String, Sendable, CaseIterable {
    case lessThan = "LESS_THAN"
    case lessThanOrEqual = "LESS_THAN_OR_EQUAL"
    case greaterThan = "GREATER_THAN"
    case greaterThanOrEqual = "GREATER_THAN_OR_EQUAL"
    case equal = "EQUAL"
    case notEqual = "NOT_EQUAL"
    case arrayContains = "ARRAY_CONTAINS"
    case `in` = "IN"
    case arrayContainsAny = "ARRAY_CONTAINS_ANY"
    case notIn = "NOT_IN"
  }

  /// A unary test.
  public enum UnaryOperator: String, Sendable, CaseIterable {
    case isNaN = "IS_NAN"
    case isNull = "IS_NULL"
    case isNotNaN = "IS_NOT_NAN"
    case isNotNull = "IS_NOT_NULL"
  }

  /// How a composite combines its filters.
  public enum CompositeOperator: String, Sendable, CaseIterable {
    case and = "AND"
    case or = "OR"
  }

  case field(path: String, op: FieldOperator, value: Value)
  case unary(path: String, op: UnaryOperator)
  case composite(op: CompositeOperator, filters: [QueryFilter])

  /// The REST JSON form.
  public var json: JSONValue {
    switch self {
    case .field(let path, let op, let value):
      return .object([
        (
          "fieldFilter",
          .object([("field", StructuredQuery.fieldReference(path)), ("op", .string(op.rawValue)), ("value", value.json)])
        )
      ])
    case .unary(let path, let op):
      return .object([("unaryFilter", .object([("op", .string(op.rawValue)), ("field", StructuredQuery.fieldReference(path))]))])
    case .composite(let op, let filters):
      return .object([("compositeFilter", .object([("op", .string(op.rawValue)), ("filters", .array(filters.map(\.json)))]))])
    }
  }

  /// Reads a REST `Filter`.
  public init(json: JSONValue) throws {
    if let f = json["fieldFilter"] {
      guard let field = f["field"], let value = f["value"] else { throw WireFormatError("fieldFilter lacks field or value") }
      let opName = try f.requiredString("op")
      guard let op = FieldOperator(rawValue: opName) else { throw WireFormatError("unknown field filter op \"\(opName)\"") }
      self = .field(path: try StructuredQuery.fieldPath(from: field), op: op, value: try Value(json: value))
    } else if let u = json["unaryFilter"] {
      guard let field = u["field"] else { throw WireFormatError("unaryFilter lacks field") }
      let opName = try u.requiredString("op")
      guard let op = UnaryOperator(rawValue: opName) else { throw WireFormatError("unknown unary filter op \"\(opName)\"") }
      self = .unary(path: try StructuredQuery.fieldPath(from: field), op: op)
    } else if let c = json["compositeFilter"] {
      let opName = try c.requiredString("op")
      guard let op = CompositeOperator(rawValue: opName) else { throw WireFormatError("unknown composite op \"\(opName)\"") }
      self = .composite(op: op, filters: try c.array("filters").map(QueryFilter.init(json:)))
    } else {
      throw WireFormatError("a filter needs fieldFilter, unaryFilter or compositeFilter")
    }
  }
}
