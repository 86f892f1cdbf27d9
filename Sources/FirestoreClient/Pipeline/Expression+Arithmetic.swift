extension Expression {
  /// `add`: this plus `value`.
  public func add(_ value: Expression) -> FunctionExpression { call("add", value) }
  /// `add`: this plus `value`.
  public func add(_ value: Sendable) -> FunctionExpression { call("add", PipelineArgument(value)) }
  /// `subtract`: this minus `other`.
  public func subtract(_ other: Expression) -> FunctionExpression { call("subtract", other) }
  /// `subtract`: this minus `other`.
  public func subtract(_ other: Sendable) -> FunctionExpression { call("subtract", PipelineArgument(other)) }
  /// `multiply`: this times `value`.
  public func multiply(_ value: Expression) -> FunctionExpression { call("multiply", value) }
  /// `multiply`: this times `value`.
  public func multiply(_ value: Sendable) -> FunctionExpression { call("multiply", PipelineArgument(value)) }
  /// `divide`: this divided by `other`.
  public func divide(_ other: Expression) -> FunctionExpression { call("divide", other) }
  /// `divide`: this divided by `other`.
  public func divide(_ other: Sendable) -> FunctionExpression { call("divide", PipelineArgument(other)) }
  /// `mod`: the remainder of this divided by `other`.
  public func mod(_ other: Expression) -> FunctionExpression { call("mod", other) }
  /// `mod`: the remainder of this divided by `other`.
  public func mod(_ other: Sendable) -> FunctionExpression { call("mod", PipelineArgument(other)) }
  /// `pow`: this to the power `exponent`.
  public func pow(_ exponent: Expression) -> FunctionExpression { call("pow", exponent) }
  /// `pow`: this to the power `exponent`.
  public func pow(_ exponent: Sendable) -> FunctionExpression { call("pow", PipelineArgument(exponent)) }
  /// `abs`: the absolute value.
  public func abs() -> FunctionExpression { call("abs") }
  /// `ceil`: the smallest integer not below this.
  public func ceil() -> FunctionExpression { call("ceil") }
  /// `floor`: the largest integer not above this.
  public func floor() -> FunctionExpression { call("floor") }
  /// `round`: the nearest integer, halves away from zero.
  public func round() -> FunctionExpression { call("round") }
  /// `sqrt`: the square root.
  public func sqrt() -> FunctionExpression { call("sqrt") }
  /// `exp`: e to the power of this.
  public func exp() -> FunctionExpression { call("exp") }
  /// `ln`: the natural logarithm.
  public func ln() -> FunctionExpression { call("ln") }
  /// `trunc`: this with its fraction dropped.
  public func trunc() -> FunctionExpression { call("trunc") }
  /// `trunc`: this truncated to `decimalPlace` digits after the point.
  public func truncToPrecision(_ decimalPlace: Sendable) -> FunctionExpression { call("trunc", PipelineArgument(decimalPlace)) }
  /// `trunc`: this truncated to `decimalPlace` digits after the point.
  public func truncToPrecision(_ decimalPlace: Expression) -> FunctionExpression { call("trunc", decimalPlace) }
  /// `maximum`: the largest of this and `expressions`.
  public func logicalMaximum(_ expressions: [Expression]) -> FunctionExpression {
    FunctionExpression(functionName: "maximum", args: [self] + expressions)
  }
  /// `maximum`: the largest of this and `values`.
  public func logicalMaximum(_ values: [Sendable]) -> FunctionExpression {
    FunctionExpression(functionName: "maximum", args: [self] + values.map(PipelineArgument.init))
  }
  /// `minimum`: the smallest of this and `expressions`.
  public func logicalMinimum(_ expressions: [Expression]) -> FunctionExpression {
    FunctionExpression(functionName: "minimum", args: [self] + expressions)
  }
  /// `minimum`: the smallest of this and `values`.
  public func logicalMinimum(_ values: [Sendable]) -> FunctionExpression {
    FunctionExpression(functionName: "minimum", args: [self] + values.map(PipelineArgument.init))
  }
}
