/// One element of an `executePipeline` reply, which REST streams as a JSON array
/// (`google.firestore.v1.ExecutePipelineResponse`).
public struct ExecutePipelineResponse: Sendable, Equatable {
  /// The ID of a transaction the request opened (first element only).
  public var transaction: String?
  /// Result documents. A result that is not a stored document (an aggregate's row, a
  /// computed `select` without `__name__`) has an empty ``Document/name`` and no times.
  public var results: [Document]
  /// The time the results were read at.
  public var executionTime: Timestamp?
  /// The explanation asked for with `explain_options`, on the last element: the text of
  /// the `google.protobuf.StringValue` the server packs in `explainStats.data`.
  public var explainStats: String?

  /// Creates an element.
  public init(transaction: String? = nil, results: [Document] = [], executionTime: Timestamp? = nil, explainStats: String? = nil) {
    self.transaction = transaction
    self.results = results
    self.executionTime = executionTime
    self.explainStats = explainStats
  }

  /// The type URL of the explanation's payload.
  public static let explainStatsType = "type.googleapis.com/google.protobuf.StringValue"

  /// The REST JSON form.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = []
    members.append("transaction", transaction.map(JSONValue.string))
    if !results.isEmpty { members.append(("results", .array(results.map(Self.json(result:))))) }
    members.append("executionTime", executionTime.map { .string($0.rfc3339) })
    if let explainStats {
      let data: JSONValue = .object([("@type", .string(Self.explainStatsType)), ("value", .string(explainStats))])
      members.append(("explainStats", .object([("data", data)])))
    }
    return .object(members)
  }

  /// Reads one element.
  public init(json: JSONValue) throws {
    try json.requireObject("ExecutePipelineResponse")
    transaction = try json.optionalString("transaction")
    let results = json["results"] ?? .array([])
    guard case .array(let items) = results else { throw WireFormatError("results must be an array, got \(results.kindName)") }
    self.results = try items.map(Self.result(json:))
    executionTime = try json.optionalTimestamp("executionTime")
    explainStats = try json["explainStats"].flatMap { stats in
      try stats.requireObject("explainStats")
      return try stats["data"]?.optionalString("value")
    }
  }

  /// Reads a result, whose name may be missing.
  private static func result(json: JSONValue) throws -> Document {
    try json.requireObject("a pipeline result")
    return Document(
      name: try json.optionalString("name") ?? "", fields: try Value.fields(from: json["fields"]),
      createTime: try json.optionalTimestamp("createTime"), updateTime: try json.optionalTimestamp("updateTime"))
  }

  /// A result as a document, without `name` when it has none.
  private static func json(result: Document) -> JSONValue {
    guard result.name.isEmpty, case .object(let members) = result.json else { return result.json }
    return .object(members.filter { $0.0 != "name" })
  }
}
