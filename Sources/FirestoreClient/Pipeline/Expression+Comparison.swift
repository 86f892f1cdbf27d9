extension Expression {
  /// `equal`: whether this equals `other`.
  public func equal(_ other: Expression) -> BooleanExpression { test("equal", other) }
  /// `equal`: whether this equals `other`.
  public func equal(_ other: Sendable) -> BooleanExpression { test("equal", PipelineArgument(other)) }
  /// `not_equal`: whether this differs from `other`.
  public func notEqual(_ other: Expression) -> BooleanExpression { test("not_equal", other) }
  /// `not_equal`: whether this differs from `other`.
  public func notEqual(_ other: Sendable) -> BooleanExpression { test("not_equal", PipelineArgument(other)) }
  /// `greater_than`: whether this is above `other`.
  public func greaterThan(_ other: Expression) -> BooleanExpression { test("greater_than", other) }
  /// `greater_than`: whether this is above `other`.
  public func greaterThan(_ other: Sendable) -> BooleanExpression { test("greater_than", PipelineArgument(other)) }
  /// `greater_than_or_equal`: whether this is at least `other`.
  public func greaterThanOrEqual(_ other: Expression) -> BooleanExpression { test("greater_than_or_equal", other) }
  /// `greater_than_or_equal`: whether this is at least `other`.
  public func greaterThanOrEqual(_ other: Sendable) -> BooleanExpression {
    test("greater_than_or_equal", PipelineArgument(other))
  }
  /// `less_than`: whether this is below `other`.
  public func lessThan(_ other: Expression) -> BooleanExpression { test("less_than", other) }
  /// `less_than`: whether this is below `other`.
  public func lessThan(_ other: Sendable) -> BooleanExpression { test("less_than", PipelineArgument(other)) }
  /// `less_than_or_equal`: whether this is at most `other`.
  public func lessThanOrEqual(_ other: Expression) -> BooleanExpression { test("less_than_or_equal", other) }
  /// `less_than_or_equal`: whether this is at most `other`.
  public func lessThanOrEqual(_ other: Sendable) -> BooleanExpression { test("less_than_or_equal", PipelineArgument(other)) }
  /// `equal_any`: whether this equals one of `others`.
  public func equalAny(_ others: [Expression]) -> BooleanExpression { test("equal_any", ArrayExpression(others)) }
  /// `equal_any`: whether this equals one of `others`.
  public func equalAny(_ others: [Sendable]) -> BooleanExpression { test("equal_any", ArrayExpression(others)) }
  /// `equal_any`: whether this equals an element of the array `arrayExpression` yields.
  public func equalAny(_ arrayExpression: Expression) -> BooleanExpression { test("equal_any", arrayExpression) }
  /// `not_equal_any`: whether this equals none of `others`.
  public func notEqualAny(_ others: [Expression]) -> BooleanExpression { test("not_equal_any", ArrayExpression(others)) }
  /// `not_equal_any`: whether this equals none of `others`.
  public func notEqualAny(_ others: [Sendable]) -> BooleanExpression { test("not_equal_any", ArrayExpression(others)) }
  /// `not_equal_any`: whether this equals no element of the array `arrayExpression` yields.
  public func notEqualAny(_ arrayExpression: Expression) -> BooleanExpression { test("not_equal_any", arrayExpression) }
  /// Whether this lies in `lowerBound...upperBound`: `greaterThanOrEqual && lessThanOrEqual`.
  public func between(_ lowerBound: Sendable, _ upperBound: Sendable) -> BooleanExpression {
    greaterThanOrEqual(lowerBound) && lessThanOrEqual(upperBound)
  }
  /// Whether this lies in `lowerBound...upperBound`: `greaterThanOrEqual && lessThanOrEqual`.
  public func between(_ lowerBound: Expression, _ upperBound: Expression) -> BooleanExpression {
    greaterThanOrEqual(lowerBound) && lessThanOrEqual(upperBound)
  }
}
