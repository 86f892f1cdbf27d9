/// `conditional(…)`: one of two expressions, chosen by a condition.
///
/// ```swift
/// ConditionalExpression(Field("year").lessThan(1960), then: Constant("classic"), else: Constant("modern"))
/// ```
public final class ConditionalExpression: FunctionExpression, @unchecked Sendable {
  /// `thenExpression` where `expression` is true, else `elseExpression`.
  public init(_ expression: BooleanExpression, then thenExpression: Expression, else elseExpression: Expression) {
    super.init(functionName: "conditional", args: [expression, thenExpression, elseExpression])
  }
}
