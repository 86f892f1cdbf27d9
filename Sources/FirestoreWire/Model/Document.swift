/// A stored document as the REST API returns it (`google.firestore.v1.Document`).
public struct Document: Sendable, Equatable, JSONWritable {
  /// The full resource name, `projects/{p}/databases/{d}/documents/{path}`.
  public var name: String
  /// The document's top-level fields.
  public var fields: [String: Value]
  /// When the document was created; absent for a "missing" listing entry.
  public var createTime: Timestamp?
  /// When the document last changed; absent for a "missing" listing entry.
  public var updateTime: Timestamp?

  /// Creates a document value.
  public init(name: String, fields: [String: Value] = [:], createTime: Timestamp? = nil, updateTime: Timestamp? = nil) {
    self.name = name
    self.fields = fields
    self.createTime = createTime
    self.updateTime = updateTime
  }

  /// Reads a REST `Document` object.
  public init(json: JSONValue) throws {
    try json.requireObject("Document")
    name = try json.requiredString("name")
    fields = try Value.fields(from: json["fields"])
    createTime = try json.optionalTimestamp("createTime")
    updateTime = try json.optionalTimestamp("updateTime")
  }

  /// Writes the REST JSON form. `fields` is omitted when empty, as Firestore does.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      out.write("name", name)
      if !fields.isEmpty {
        out.writeKey("fields")
        Value.write(fields: fields, to: &out)
      }
      if let createTime { out.write("createTime", createTime.rfc3339) }
      if let updateTime { out.write("updateTime", updateTime.rfc3339) }
    }
  }
}
