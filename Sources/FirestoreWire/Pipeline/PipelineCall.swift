/// The shape a stage and a function share on the wire: a name, positional arguments and
/// named options (`google.firestore.v1.Pipeline.Stage` and `google.firestore.v1.Function`).
public protocol PipelineCall: Sendable, Hashable {
  /// The name on the wire, in snake case.
  var name: String { get set }
  /// The positional arguments, in order.
  var args: [PipelineExpression] { get set }
  /// Named options (snake-case keys).
  var options: [String: PipelineExpression] { get set }
  /// A call of `name`.
  init(name: String, args: [PipelineExpression], options: [String: PipelineExpression])
}

extension PipelineCall {
  /// The REST JSON form; empty `args` and `options` are left out, as proto3 JSON does.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [("name", .string(name))]
    if !args.isEmpty { members.append(("args", .array(args.map(\.json)))) }
    if !options.isEmpty { members.append(("options", PipelineExpression.json(options))) }
    return .object(members)
  }

  /// Reads one from REST JSON; `what` names it in errors.
  init(json: JSONValue, what: String) throws {
    try json.requireObject(what)
    let args: [PipelineExpression]
    switch json["args"] {
    case nil: args = []
    case .array(let items)?: args = try items.map(PipelineExpression.init(json:))
    case let other?: throw WireFormatError("args must be an array, got \(other.kindName)")
    }
    self.init(name: try json.requiredString("name"), args: args, options: try PipelineExpression.fields(from: json["options"]))
  }
}
