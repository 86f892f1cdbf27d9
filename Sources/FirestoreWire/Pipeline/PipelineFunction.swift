/// A function call in a pipeline request (`google.firestore.v1.Function`): `equal`, `add`,
/// `count`, and so on, with its arguments in order.
public struct PipelineFunction: PipelineCall {
  /// The function's name on the wire, in snake case (`greater_than`, `array_contains`).
  public var name: String
  /// The arguments, in order.
  public var args: [PipelineExpression]
  /// Named options; the official clients leave these out.
  public var options: [String: PipelineExpression]

  /// Creates a call.
  public init(name: String, args: [PipelineExpression] = [], options: [String: PipelineExpression] = [:]) {
    self.name = name
    self.args = args
    self.options = options
  }

  /// Reads a `functionValue`.
  public init(json: JSONValue) throws { try self.init(json: json, what: "functionValue") }
}
