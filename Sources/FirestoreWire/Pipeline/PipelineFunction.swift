/// A function call in a pipeline request (`google.firestore.v1.Function`): `equal`, `add`,
/// `count`, and so on, with its arguments in order.
public struct PipelineFunction: Sendable, Hashable {
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

  /// The REST JSON form; empty `args` and `options` are left out, as proto3 JSON does.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [("name", .string(name))]
    if !args.isEmpty { members.append(("args", .array(args.map(\.json)))) }
    if !options.isEmpty { members.append(("options", PipelineExpression.json(options))) }
    return .object(members)
  }

  /// Reads a `functionValue`.
  public init(json: JSONValue) throws {
    try json.requireObject("functionValue")
    name = try json.requiredString("name")
    args = try PipelineStage.arguments(from: json["args"])
    options = try PipelineExpression.fields(from: json["options"])
  }
}
