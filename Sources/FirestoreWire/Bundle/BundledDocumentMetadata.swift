/// What a bundle says about one document before its data
/// (`google.firestore.bundle.BundledDocumentMetadata`).
public struct BundledDocumentMetadata: Sendable, Equatable {
  /// The document's full resource name.
  public var name: String
  /// When the document was read.
  public var readTime: Timestamp
  /// Whether it existed then; an existing document's data follows as the next element.
  public var exists: Bool
  /// The named queries of the bundle whose results include it.
  public var queries: [String]

  /// Creates metadata.
  public init(name: String, readTime: Timestamp, exists: Bool, queries: [String] = []) {
    self.name = name
    self.readTime = readTime
    self.exists = exists
    self.queries = queries
  }

  /// The JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = [("name", .string(name)), ("readTime", .string(readTime.rfc3339)), ("exists", .bool(exists))]
    if !queries.isEmpty { m.append(("queries", .array(queries.map(JSONValue.string)))) }
    return .object(m)
  }

  /// Reads the JSON form.
  public init(json: JSONValue) throws {
    try json.requireObject("documentMetadata")
    name = try json.requiredString("name")
    readTime = try BundleJSON.timestamp(json, "readTime")
    exists = try json.optionalBool("exists") ?? false
    queries = try json.array("queries").map { v in
      guard case .string(let s) = v else { throw Value.mismatch("queries", v) }
      return s
    }
  }
}
