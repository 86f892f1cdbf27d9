import FirestoreWire

/// A stage as the builder records it: its name and arguments, converted to their request
/// form only when the pipeline runs (values need the database; errors surface there).
struct PipelineStageSpec: Sendable {
  /// One argument or option of a stage.
  enum Argument: Sendable {
    /// Already in request form.
    case wire(PipelineExpression)
    /// An expression.
    case expression(any Expression)
    /// A `Sendable` value, converted as an expression method's argument is.
    case value(any Sendable)
    /// An alias → expression map of `stage`'s selections.
    case selections([any Selectable], stage: String)
    /// An alias → accumulator map.
    case aggregates([AliasedAggregate])
    /// One sort key.
    case ordering(Ordering)
    /// Sort keys as one array (`search`'s `sort` option).
    case orderings([Ordering])
    /// A document given in the request: a map whose values may be expressions; other
    /// values, arrays and dictionaries included, are constants.
    case literal([String: any Sendable])
    /// A nested pipeline.
    case pipeline(Pipeline)
    /// An input the builder refused; running the pipeline throws it.
    case invalid(FirestoreError)

    func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
      switch self {
      case .wire(let expression): return expression
      case .expression(let expression): return try encoder.encode(expression)
      case .value(let value): return try encoder.encode(value: value)
      case .selections(let selections, let stage): return try encoder.encode(selections: selections, stage: stage)
      case .aggregates(let aggregates): return try encoder.encode(aggregates: aggregates)
      case .ordering(let ordering): return try ordering.encoded(encoder)
      case .orderings(let orderings):
        var elements: [PipelineExpression] = []
        for ordering in orderings { elements.append(try ordering.encoded(encoder)) }
        return .array(elements)
      case .literal(let fields):
        var out: [String: PipelineExpression] = [:]
        for (key, value) in fields {
          if let expression = value as? any Expression {
            out[key] = try encoder.encode(expression)
          } else {
            out[key] = .constant(try encoder.constant(value))
          }
        }
        return .map(out)
      case .pipeline(let pipeline): return .pipeline(try pipeline.encodedStages(encoder))
      case .invalid(let error): throw error
      }
    }
  }

  let name: String
  var args: [Argument] = []
  var options: [String: Argument] = [:]

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineStage {
    var stage = PipelineStage(name: name)
    for argument in args { stage.args.append(try argument.encoded(encoder)) }
    for (key, option) in options { stage.options[key] = try option.encoded(encoder) }
    return stage
  }
}
