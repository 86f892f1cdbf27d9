import FirestoreWire

extension QueryEvaluator {
  /// Whether `document` satisfies `filter`, with the emulator's semantics (all verified):
  ///
  /// * a missing field matches nothing, not even `!=` or `NOT_IN`;
  /// * `<`, `<=`, `>`, `>=` match only values of the operand's type class (numbers compare
  ///   across integers and doubles); a `NaN` field value or operand, or a `null` operand,
  ///   matches nothing;
  /// * `EQUAL`, `IN`, `ARRAY_CONTAINS` and `ARRAY_CONTAINS_ANY` use ``ValueOrdering/areEqual(_:_:)``
  ///   (`1 == 1.0`, deep `NaN == NaN`), except that a top-level `NaN` or `null` operand (or
  ///   list element) matches nothing;
  /// * `!=` and `NOT_IN` need a present, non-null value; `!= null` and a `NOT_IN` list
  ///   containing `null` match nothing; `!= NaN` matches every non-null value, `NaN` included;
  /// * `IS_NOT_NULL` and `IS_NOT_NAN` need a present, non-null value (`IS_NOT_NAN` also
  ///   excludes `NaN`); `IS_NULL`/`IS_NAN` match exactly `null`/`NaN`;
  /// * an empty `AND` matches everything (an empty `OR` is rejected by the validator).
  public static func matches(_ filter: QueryFilter, _ document: Document) -> Bool {
    switch filter {
    case .composite(.and, let filters):
      return filters.allSatisfy { matches($0, document) }
    case .composite(.or, let filters):
      return filters.contains { matches($0, document) }
    case .unary(let path, let op):
      guard let v = value(at: segments(path), in: document) else { return false }
      switch op {
      case .isNull: return isNull(v)
      case .isNaN: return isNaN(v)
      case .isNotNull: return !isNull(v)
      case .isNotNaN: return !isNull(v) && !isNaN(v)
      }
    case .field(let path, let op, let operand):
      guard let v = value(at: segments(path), in: document) else { return false }
      return matches(v, op, operand)
    }
  }

  private static func matches(_ v: Value, _ op: QueryFilter.FieldOperator, _ operand: Value) -> Bool {
    switch op {
    case .equal:
      return equalityMatches(v, operand)
    case .notEqual:
      if isNull(v) || isNull(operand) { return false }
      return isNaN(operand) || !ValueOrdering.areEqual(v, operand)
    case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
      if isNull(operand) || isNaN(operand) || isNaN(v) { return false }
      guard ValueOrdering.typeOrder(v) == ValueOrdering.typeOrder(operand) else { return false }
      let c = ValueOrdering.compare(v, operand)
      switch op {
      case .lessThan: return c < 0
      case .lessThanOrEqual: return c <= 0
      case .greaterThan: return c > 0
      default: return c >= 0
      }
    case .arrayContains:
      guard case .array(let elements) = v else { return false }
      return elements.contains { equalityMatches($0, operand) }
    case .arrayContainsAny:
      guard case .array(let elements) = v, case .array(let wanted) = operand else { return false }
      return wanted.contains { w in elements.contains { equalityMatches($0, w) } }
    case .in:
      guard case .array(let list) = operand else { return false }
      return list.contains { equalityMatches(v, $0) }
    case .notIn:
      guard case .array(let list) = operand, !isNull(v), !list.contains(where: isNull) else { return false }
      return !list.contains { !isNaN($0) && ValueOrdering.areEqual(v, $0) }
    }
  }

  /// Equality as an `EQUAL` filter sees it: a top-level `NaN` or `null` operand never matches.
  private static func equalityMatches(_ v: Value, _ operand: Value) -> Bool {
    !isNull(operand) && !isNaN(operand) && ValueOrdering.areEqual(v, operand)
  }

  private static func isNull(_ v: Value) -> Bool {
    if case .null = v { return true }
    return false
  }

  private static func isNaN(_ v: Value) -> Bool {
    if case .double(let d) = v { return d.isNaN }
    return false
  }
}
