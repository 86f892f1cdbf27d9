import FirestoreWire

/// An accumulator of an `aggregate` stage: `sum`, `average`, `count`, and so on, made by
/// the methods of ``Expression`` (`Field("price").sum()`), ``CountAll`` or the
/// initializer. Name it with ``as(_:)`` to use it.
public class AggregateFunction: @unchecked Sendable {
  let functionName: String
  let args: [any Expression]

  /// An accumulator by its backend name, over `args`.
  public init(functionName: String, args: [Expression]) {
    self.functionName = functionName
    self.args = args
  }

  /// This accumulator, written to the output field `name`.
  public func `as`(_ name: String) -> AliasedAggregate { AliasedAggregate(alias: name, function: self) }

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .function(PipelineFunction(name: functionName, args: try encoder.encode(args)))
  }
}
