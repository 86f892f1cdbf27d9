extension Expression {
  /// `exists`: whether the field is present (null counts as present).
  public func exists() -> BooleanExpression { test("exists") }
  /// `is_absent`: whether the field is missing.
  public func isAbsent() -> BooleanExpression { test("is_absent") }
  /// `is_error`: whether evaluating this fails.
  public func isError() -> BooleanExpression { test("is_error") }
  /// `if_error`: this, or `catchExpression` where evaluating it fails.
  public func ifError(_ catchExpression: Expression) -> FunctionExpression { call("if_error", catchExpression) }
  /// `if_error`: this, or `catchValue` where evaluating it fails.
  public func ifError(_ catchValue: Sendable) -> FunctionExpression { call("if_error", PipelineArgument(catchValue)) }
  /// `if_absent`: this, or `defaultValue` where the field is missing.
  public func ifAbsent(_ defaultValue: Sendable) -> FunctionExpression { call("if_absent", PipelineArgument(defaultValue)) }
  /// `if_null`: this, or `defaultValue` where it is null.
  public func ifNull(_ defaultValue: Sendable) -> FunctionExpression { call("if_null", PipelineArgument(defaultValue)) }
  /// `if_null`: this, or `defaultExpression` where it is null.
  public func ifNull(_ defaultExpression: Expression) -> FunctionExpression { call("if_null", defaultExpression) }
  /// `coalesce`: the first of this and `values` that is neither null nor absent.
  public func coalesce(_ values: [Expression]) -> FunctionExpression {
    FunctionExpression(functionName: "coalesce", args: [self] + values)
  }
  /// `type`: the name of this value's type (`"string"`, `"int64"`, …).
  public func type() -> FunctionExpression { call("type") }
  /// `is_type`: whether this value's type is `type` (`"string"`, `"number"`, `"int64"`, …).
  public func isType(_ type: String) -> BooleanExpression { test("is_type", Constant(type)) }
}
