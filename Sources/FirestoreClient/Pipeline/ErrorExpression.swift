/// `error(…)`: fails the evaluation with a message.
public final class ErrorExpression: FunctionExpression, @unchecked Sendable {
  /// Fails with `errorMessage`.
  public init(_ errorMessage: String) { super.init(functionName: "error", args: [Constant(errorMessage)]) }
}
