/// A query saved in a bundle under a name, with the time its results were read
/// (`google.firestore.bundle.NamedQuery`).
public struct NamedQuery: Sendable, Equatable {
  /// Whether the query's limit keeps the first or the last results of its order.
  public enum LimitType: String, Sendable {
    /// `limit(to:)`.
    case first = "FIRST"
    /// `limit(toLast:)`: the query is stored in its own order, not the reversed order sent
    /// to the server.
    case last = "LAST"
  }

  /// The name clients look the query up by.
  public var name: String
  /// The parent the query runs under: `projects/{p}/databases/{d}/documents[/{document path}]`.
  public var parent: String
  /// The query, as the user built it.
  public var structuredQuery: StructuredQuery
  /// Whether its limit keeps the first or last results.
  public var limitType: LimitType
  /// When its results were read.
  public var readTime: Timestamp

  /// Creates a named query.
  public init(name: String, parent: String, structuredQuery: StructuredQuery, limitType: LimitType, readTime: Timestamp) {
    self.name = name
    self.parent = parent
    self.structuredQuery = structuredQuery
    self.limitType = limitType
    self.readTime = readTime
  }

  /// The JSON form.
  public var json: JSONValue {
    .object([
      ("name", .string(name)),
      (
        "bundledQuery",
        .object([("parent", .string(parent)), ("structuredQuery", structuredQuery.json), ("limitType", .string(limitType.rawValue))])
      ),
      ("readTime", .string(readTime.rfc3339)),
    ])
  }

  /// Reads the JSON form.
  public init(json: JSONValue) throws {
    try json.requireObject("namedQuery")
    name = try json.requiredString("name")
    guard let bundled = json["bundledQuery"] else { throw WireFormatError("named query \"\(name)\" lacks \"bundledQuery\"") }
    try bundled.requireObject("bundledQuery")
    parent = try bundled.requiredString("parent")
    guard let query = bundled["structuredQuery"] else {
      throw WireFormatError("named query \"\(name)\" lacks \"bundledQuery.structuredQuery\"")
    }
    structuredQuery = try StructuredQuery(json: BundleJSON.query(query))
    let type = try bundled.optionalString("limitType") ?? LimitType.first.rawValue
    guard let limitType = LimitType(rawValue: type) else { throw WireFormatError("unknown limitType \"\(type)\"") }
    self.limitType = limitType
    readTime = try BundleJSON.timestamp(json, "readTime")
  }
}
