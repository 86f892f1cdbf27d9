import FirestoreWire

/// A call of a pipeline function by its backend name, with its arguments in order.
///
/// The methods of ``Expression`` build these; the initializer reaches functions that have
/// no method here:
///
/// ```swift
/// let distance = FunctionExpression(functionName: "log", args: [Field("x"), Constant(2)])
/// ```
public class FunctionExpression: Expression, PipelineEncodable, @unchecked Sendable {
  /// The function's backend name (`add`, `string_concat`).
  let functionName: String
  /// The arguments, in order.
  let args: [any Expression]
  /// Named options, converted as `Sendable` arguments are.
  let options: [String: any Sendable]

  /// Creates a call of `functionName` with `args` and, optionally, named `options`.
  public init(functionName: String, args: [Expression], options: [String: Sendable]? = nil) {
    self.functionName = functionName
    self.args = args
    self.options = options ?? [:]
  }

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    var encodedOptions: [String: PipelineExpression] = [:]
    for (key, value) in options { encodedOptions[key] = try encoder.encode(value: value) }
    return .function(PipelineFunction(name: functionName, args: try encoder.encode(args), options: encodedOptions))
  }
}
