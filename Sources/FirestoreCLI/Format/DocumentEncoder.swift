import FirestoreClient
import FirestoreWire

/// Turns documents and values into the output lines of the chosen ``DataFormat``.
///
/// A document line is `{"path":…,"exists":true,"createTime":…,"updateTime":…,"data":{…}}`
/// (`"fields"` in REST format); a missing document is `{"path":…,"exists":false}`. Keys of
/// data are sorted, so equal documents print equal lines.
struct DocumentEncoder: Sendable {
  /// Output format.
  let format: DataFormat
  /// `projects/{p}/databases/{d}/documents`, what references are printed relative to.
  let documentsRoot: String

  /// One value.
  func value(_ value: Value) -> JSONValue {
    format == .json ? ExtendedJSON.encode(value, documentsRoot: documentsRoot) : value.json
  }

  /// A document's fields as one object.
  func fields(_ fields: [String: Value]) -> JSONValue {
    format == .json ? ExtendedJSON.encode(fields: fields, documentsRoot: documentsRoot) : Value.json(fields: fields)
  }

  /// The line of a document that may be missing.
  func line(_ snapshot: DocumentSnapshot) -> JSONValue {
    guard snapshot.exists else { return .object([("path", .string(snapshot.reference.path)), ("exists", .bool(false))]) }
    return line(
      path: snapshot.reference.path, createTime: snapshot.createTime, updateTime: snapshot.updateTime, fields: snapshot.fields ?? [:])
  }

  /// The line of a document a query returned.
  func line(_ snapshot: QueryDocumentSnapshot) -> JSONValue { line(snapshot.snapshot) }

  /// The line of an existing document.
  func line(path: String, createTime: Timestamp?, updateTime: Timestamp?, fields: [String: Value]) -> JSONValue {
    var members: [(String, JSONValue)] = [("path", .string(path)), ("exists", .bool(true))]
    if let createTime { members.append(("createTime", .string(createTime.rfc3339))) }
    if let updateTime { members.append(("updateTime", .string(updateTime.rfc3339))) }
    members.append((format.dataKey, self.fields(fields)))
    return .object(members)
  }
}
