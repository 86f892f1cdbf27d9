/// One message a client sends on the Listen stream (`google.firestore.v1.ListenRequest`):
/// start watching a target or stop watching one.
///
/// ```json
/// {"database":"projects/p/databases/(default)","addTarget":{"query":{…},"targetId":2}}
/// {"database":"projects/p/databases/(default)","removeTarget":2}
/// ```
///
/// The emulator ignores `database` (it routes by URL and resource names), but production
/// checks it, so always send the real name. `labels` is not modelled: it is read past and
/// never written.
public struct ListenRequest: Sendable, Equatable {
  /// What the request asks for.
  public enum Change: Sendable, Equatable {
    /// Start watching a target under the target's own ID.
    case addTarget(Target)
    /// Stop watching the target with this ID. Unknown IDs are silently ignored by the server.
    case removeTarget(Int32)
  }

  /// The database, `projects/{p}/databases/{d}`.
  public var database: String
  /// The target to add or remove.
  public var change: Change

  /// Creates a request.
  public init(database: String, change: Change) {
    self.database = database
    self.change = change
  }

  /// Reads a `ListenRequest` JSON object.
  ///
  /// - Throws: ``WireFormatError`` when `database` is missing, when neither or both of
  ///   `addTarget` and `removeTarget` are present, or when the target is malformed.
  public init(json: JSONValue) throws {
    try json.requireObject("ListenRequest")
    database = try json.requiredString("database")
    switch (json["addTarget"], try json.optionalInt64("removeTarget")) {
    case (let target?, nil):
      change = .addTarget(try Target(json: target))
    case (nil, let id?):
      change = .removeTarget(try Target.int32(id, "removeTarget"))
    default:
      throw WireFormatError("a ListenRequest needs exactly one of addTarget and removeTarget")
    }
  }

  /// The JSON form, `database` first.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = [("database", .string(database))]
    switch change {
    case .addTarget(let target): members.append(("addTarget", target.json))
    case .removeTarget(let id): members.append(("removeTarget", .integer(Int64(id))))
    }
    return .object(members)
  }
}
