/// `rand()`: a pseudo-random double in [0, 1).
public final class RandomExpression: FunctionExpression, @unchecked Sendable {
  /// A new random number for each evaluation.
  public init() { super.init(functionName: "rand", args: []) }
}
