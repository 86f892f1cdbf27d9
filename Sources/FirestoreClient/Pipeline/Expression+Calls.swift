extension Expression {
  /// A call of `name` with this expression first, then `args`.
  func call(_ name: String, _ args: any Expression...) -> FunctionExpression {
    FunctionExpression(functionName: name, args: [self] + args)
  }

  /// A boolean call of `name` with this expression first, then `args`.
  func test(_ name: String, _ args: any Expression...) -> BooleanExpression {
    BooleanFunctionExpression(functionName: name, args: [self] + args)
  }

  /// An accumulator `name` over this expression.
  func accumulate(_ name: String) -> AggregateFunction { AggregateFunction(functionName: name, args: [self]) }
}
