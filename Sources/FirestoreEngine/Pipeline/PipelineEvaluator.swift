import FirestoreWire

/// Runs a pipeline's stages over the documents its source stage read: the subset of
/// stages an in-memory backend supports — `where`, `sort`, `limit`, `offset`, `select`,
/// `add_fields`, `remove_fields`, `distinct` and `aggregate` — with the functions
/// ``PipelineExpressionEvaluator`` knows. Anything else is `unimplemented`, naming it.
///
/// Pure: the caller reads the documents ``PipelineInput/of(_:)`` names and passes them in.
public enum PipelineEvaluator {
  /// Runs every stage after the first (the source) over `input`, which the caller read
  /// in the source's order (document-name order for a collection).
  ///
  /// - Throws: ``PipelineEvaluationError``: `invalidArgument` for a stage whose arguments
  ///   the backend refuses or an expression that fails where the stage needs a value,
  ///   `unimplemented` for what this evaluator does not run.
  public static func run(_ stages: [PipelineStage], over input: [Document]) throws(PipelineEvaluationError) -> [Document] {
    for stage in stages.dropFirst() { try check(stage) }
    var rows = input
    for stage in stages.dropFirst() {
      rows = try apply(stage, to: rows)
    }
    return rows
  }

  /// Refuses, before anything runs, a function or accumulator this evaluator does not
  /// know, in any stage: so that an empty input does not hide it.
  private static func check(_ stage: PipelineStage) throws(PipelineEvaluationError) {
    if stage.name == "aggregate", stage.args.count == 2, case .map(let accumulators)? = stage.args[0].expressionMap {
      for accumulator in accumulators.values { try PipelineAggregator.check(accumulator) }
      try PipelineExpressionEvaluator.check(stage.args[1])
      return
    }
    for arg in stage.args { try PipelineExpressionEvaluator.check(arg) }
  }

  private static func apply(_ stage: PipelineStage, to rows: [Document]) throws(PipelineEvaluationError) -> [Document] {
    guard stage.options.isEmpty else {
      throw PipelineEvaluationError(.unimplemented, "The mock does not run options of the \(stage.name) stage.")
    }
    switch stage.name {
    case "where":
      let condition = try single(stage)
      var kept: [Document] = []
      for row in rows {
        // Only true keeps a row; an error fails the pipeline, as `error(…)` is documented to.
        switch PipelineExpressionEvaluator(row: row).evaluate(condition) {
        case .value(.boolean(true)): kept.append(row)
        case .error(let message): throw .invalid(message)
        default: break
        }
      }
      return kept
    case "limit":
      let n = try count(stage)
      return Array(rows.prefix(n))
    case "offset":
      let n = try count(stage)
      return Array(rows.dropFirst(n))
    case "sort":
      return try sort(rows, stage)
    case "select":
      let selections = try selectionMap(stage)
      return rows.map { project($0, selections, keeping: false) }
    case "add_fields":
      let selections = try selectionMap(stage)
      return rows.map { project($0, selections, keeping: true) }
    case "remove_fields":
      var paths: [[String]] = []
      for arg in stage.args {
        guard case .field(let path) = arg else { throw .invalid("remove_fields takes field references.") }
        paths.append(try segments(path))
      }
      return rows.map { row in
        var row = row
        for path in paths { FieldMap.remove(&row.fields, path) }
        return row
      }
    case "distinct":
      let groups = try selectionMap(stage)
      return try PipelineAggregator.group(rows, by: groups, accumulators: [:])
    case "aggregate":
      guard stage.args.count == 2, case .map(let accumulators)? = stage.args[0].expressionMap,
        case .map(let groups)? = stage.args[1].expressionMap
      else { throw .invalid("The aggregate stage takes a map of accumulators and a map of groups.") }
      return try PipelineAggregator.group(rows, by: groups, accumulators: accumulators)
    default:
      throw PipelineEvaluationError(.unimplemented, "The mock does not run the \(stage.name) stage.")
    }
  }

  private static func single(_ stage: PipelineStage) throws(PipelineEvaluationError) -> PipelineExpression {
    guard stage.args.count == 1 else { throw .invalid("The \(stage.name) stage takes one argument.") }
    return stage.args[0]
  }

  private static func count(_ stage: PipelineStage) throws(PipelineEvaluationError) -> Int {
    guard case .constant(.integer(let n)) = try single(stage), n >= 0, n <= Int64(Int32.max) else {
      throw .invalid("The \(stage.name) stage takes a non-negative 32-bit integer.")
    }
    return Int(n)
  }

  private static func selectionMap(_ stage: PipelineStage) throws(PipelineEvaluationError) -> [String: PipelineExpression] {
    guard case .map(let fields)? = try single(stage).expressionMap else {
      throw .invalid("The \(stage.name) stage takes a map of output names to expressions.")
    }
    return fields
  }

  /// A field path as a reference carries it: canonical, split into names.
  static func segments(_ path: String) throws(PipelineEvaluationError) -> [String] {
    guard let segments = try? CanonicalFieldPath.decode(path), !segments.isEmpty else {
      throw .invalid("Invalid field path \"\(path)\".")
    }
    return segments
  }

  /// `select` (a new row of the selections, which is no stored document) or `add_fields`
  /// (the row with them set). An output name is a field's name, dots and all, as the
  /// documentation says of `add_fields`; `__name__` names the result instead. An absent
  /// result writes nothing; an error writes null, as documented for both stages.
  private static func project(_ row: Document, _ selections: [String: PipelineExpression], keeping: Bool) -> Document {
    var out = keeping ? row : Document(name: "", fields: [:])
    let evaluator = PipelineExpressionEvaluator(row: row)
    for (alias, expression) in selections {
      switch evaluator.evaluate(expression) {
      case .value(.reference(let name)) where alias == CanonicalFieldPath.documentKey:
        // Selecting `__name__` keeps the result's name, which is not a field.
        out.name = name
      case .value(let value): out.fields[alias] = value
      case .absent: out.fields[alias] = nil
      case .error: out.fields[alias] = .null
      }
    }
    return out
  }

  /// Orders rows by each key in turn, with Firestore's order of values; an absent value
  /// sorts as null (first), and rows that tie keep their order.
  private static func sort(_ rows: [Document], _ stage: PipelineStage) throws(PipelineEvaluationError) -> [Document] {
    var keys: [(PipelineExpression, Bool)] = []
    for arg in stage.args {
      guard case .map(let fields)? = arg.expressionMap, let expression = fields["expression"],
        case .constant(.string(let direction))? = fields["direction"], direction == "ascending" || direction == "descending"
      else { throw .invalid("A sort key is a map of an expression and a direction (ascending or descending).") }
      keys.append((expression, direction == "descending"))
    }
    guard !keys.isEmpty else { throw .invalid("The sort stage takes at least one ordering.") }
    let evaluated = rows.enumerated().map { (index, row) in
      let evaluator = PipelineExpressionEvaluator(row: row)
      return (index, row, keys.map { evaluator.evaluate($0.0).value ?? .null })
    }
    let sorted = evaluated.sorted { a, b in
      for (i, key) in keys.enumerated() {
        let c = ValueOrdering.compare(a.2[i], b.2[i])
        if c != 0 { return key.1 ? c > 0 : c < 0 }
      }
      return a.0 < b.0
    }
    return sorted.map(\.1)
  }
}
