import FirestoreWire

/// An `array(…)` call: an array whose elements may be expressions.
///
/// ```swift
/// ArrayExpression([1, Field("x")])
/// ```
public final class ArrayExpression: FunctionExpression, @unchecked Sendable {
  /// An array of `elements`, each converted as a `Sendable` argument is.
  public init(_ elements: [Sendable]) {
    super.init(functionName: "array", args: elements.map(PipelineArgument.init))
  }
}
