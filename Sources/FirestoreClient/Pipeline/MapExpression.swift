import FirestoreWire

/// A `map(…)` call: a map whose values may be expressions.
///
/// ```swift
/// MapExpression(["name": Field("title"), "kind": "book"])
/// ```
public final class MapExpression: FunctionExpression, @unchecked Sendable {
  /// A map of `elements`; its keys are sent in sorted order, each value converted as a
  /// `Sendable` argument is.
  public init(_ elements: [String: Sendable]) {
    var args: [any Expression] = []
    for (key, value) in elements.sorted(by: { $0.key < $1.key }) {
      args.append(Constant(key))
      args.append(PipelineArgument(value))
    }
    super.init(functionName: "map", args: args)
  }
}
