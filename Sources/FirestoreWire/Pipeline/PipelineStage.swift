/// One stage of a pipeline (`google.firestore.v1.Pipeline.Stage`): `collection`, `where`,
/// `sort`, and so on, with its arguments and options.
public struct PipelineStage: PipelineCall {
  /// The stage's name on the wire, in snake case (`add_fields`, `find_nearest`).
  public var name: String
  /// The positional arguments, in order.
  public var args: [PipelineExpression]
  /// Named options (snake-case keys, such as `distance_field`).
  public var options: [String: PipelineExpression]

  /// Creates a stage.
  public init(name: String, args: [PipelineExpression] = [], options: [String: PipelineExpression] = [:]) {
    self.name = name
    self.args = args
    self.options = options
  }

  /// Reads one stage.
  public init(json: JSONValue) throws { try self.init(json: json, what: "a pipeline stage") }

  /// A `google.firestore.v1.Pipeline`: `{"stages": [...]}`, empty stages left out.
  public static func json(_ stages: [PipelineStage]) -> JSONValue {
    stages.isEmpty ? .object([]) : .object([("stages", .array(stages.map(\.json)))])
  }

  /// Reads a `google.firestore.v1.Pipeline`'s stages.
  public static func stages(from json: JSONValue) throws -> [PipelineStage] {
    try json.requireObject("a pipeline")
    guard let stages = json["stages"] else { return [] }
    guard case .array(let items) = stages else { throw WireFormatError("stages must be an array, got \(stages.kindName)") }
    return try items.map(PipelineStage.init(json:))
  }
}
