/// The body of `POST {database}/documents:executePipeline`
/// (`google.firestore.v1.ExecutePipelineRequest`, without `database`, which is in the path).
public struct ExecutePipelineRequest: Sendable, Equatable {
  /// The stages, run in order.
  public var stages: [PipelineStage]
  /// Options of the whole run (`StructuredPipeline.options`), such as `explain_options`;
  /// keys are snake case.
  public var options: [String: PipelineExpression]
  /// Which snapshot to read.
  public var consistency: ReadConsistency?

  /// Creates a request.
  public init(stages: [PipelineStage], options: [String: PipelineExpression] = [:], consistency: ReadConsistency? = nil) {
    self.stages = stages
    self.options = options
    self.consistency = consistency
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var structured: [(String, JSONValue)] = [("pipeline", PipelineStage.json(stages))]
    if !options.isEmpty { structured.append(("options", PipelineExpression.json(options))) }
    var members: [(String, JSONValue)] = [("structuredPipeline", .object(structured))]
    consistency?.append(to: &members)
    return .object(members)
  }

  /// Reads a request body.
  public init(json: JSONValue) throws {
    try json.requireObject("ExecutePipelineRequest")
    guard let structured = json["structuredPipeline"] else { throw WireFormatError("missing \"structuredPipeline\"") }
    try structured.requireObject("structuredPipeline")
    stages = try structured["pipeline"].map(PipelineStage.stages(from:)) ?? []
    options = try PipelineExpression.fields(from: structured["options"])
    consistency = try ReadConsistency.from(json)
  }
}
