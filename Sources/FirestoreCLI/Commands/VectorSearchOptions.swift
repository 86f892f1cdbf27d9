import CommandLineSupport
import FirestoreClient
import FirestorePlatform
import FirestoreWire

/// The vector search options of `query`: `--find-nearest FIELD --vector JSON --distance D`
/// with `--limit`, and the ``VectorQuery`` they build.
enum VectorSearchOptions {
  /// The specs, in help order.
  static let specs: [OptionSpec] = [
    OptionSpec(OptionName.findNearest, "FIELD", help: "vector search: the --limit documents whose vector FIELD is nearest to --vector"),
    OptionSpec(OptionName.vector, "JSON_ARRAY", help: "the query vector, e.g. '[0.1, 0.9]'"),
    OptionSpec(OptionName.distance, "MEASURE", help: "cosine, euclidean or dot-product"),
    OptionSpec(OptionName.distanceResultField, "NAME", help: "put each result's distance in field NAME"),
    OptionSpec(OptionName.distanceThreshold, "X", help: "leave out results farther than X (for dot-product: smaller than X)"),
  ]

  private static let measures: [String: Query.DistanceMeasure] = [
    "cosine": .cosine, "euclidean": .euclidean, "dot-product": .dotProduct,
  ]

  /// The search `--find-nearest` asks for over `target`, or `nil` when it is not given.
  static func search(_ context: CommandContext, target: String) throws -> VectorQuery? {
    let arguments = context.arguments
    guard let field = arguments.value(OptionName.findNearest) else {
      for spec in specs where arguments.has(spec.name) { throw context.usage("\(spec.name) needs --find-nearest FIELD") }
      return nil
    }
    guard let vectorText = arguments.value(OptionName.vector) else { throw context.usage("--find-nearest needs --vector JSON_ARRAY") }
    guard let measureText = arguments.value(OptionName.distance) else {
      throw context.usage("--find-nearest needs --distance (cosine, euclidean or dot-product)")
    }
    guard let measure = measures[measureText] else {
      throw context.usage("--distance must be cosine, euclidean or dot-product, got '\(measureText)'")
    }
    guard let limit = try arguments.integer(OptionName.limit, command: context.command.name) else {
      throw context.usage("--find-nearest needs --limit N: how many neighbours (1 to 1000)")
    }
    var threshold: Double?
    if let text = arguments.value(OptionName.distanceThreshold) {
      guard let value = Double(text), value.isFinite else {
        throw context.usage("--distance-threshold needs a number, got '\(DisplayText.excerpt(text))'")
      }
      threshold = value
    }
    let base = try QueryOptions.query(context, target: target, applyingLimit: false)
    return base.findNearest(
      vectorField: try WhereClause.fieldPath(field, option: OptionName.findNearest, context: context),
      queryVector: try vector(vectorText, context),
      limit: limit, distanceMeasure: measure, distanceResultField: arguments.value(OptionName.distanceResultField),
      distanceThreshold: threshold)
  }

  /// `--vector`: a JSON array of numbers.
  private static func vector(_ text: String, _ context: CommandContext) throws -> VectorValue {
    let json = try InputDecoder.parseJSON(text, what: "--vector '\(DisplayText.excerpt(text))'")
    guard case .array(let elements) = json else {
      throw context.usage("--vector needs a JSON array of numbers, got '\(DisplayText.excerpt(text))'")
    }
    return VectorValue(
      try elements.map { element in
        guard case .number(let number) = element, let value = Double(number) else {
          throw context.usage("--vector needs a JSON array of numbers, got '\(DisplayText.excerpt(text))'")
        }
        return value
      })
  }
}
