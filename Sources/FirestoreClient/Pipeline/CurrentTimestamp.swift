/// `current_timestamp()`: the time the pipeline runs at.
public final class CurrentTimestamp: FunctionExpression, @unchecked Sendable {
  /// The time the pipeline runs at.
  public init() { super.init(functionName: "current_timestamp", args: []) }
}
