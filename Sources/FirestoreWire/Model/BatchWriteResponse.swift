/// The reply to `:batchWrite`: one result and one status per write, in the order of the
/// request's writes.
///
/// A write whose status code is 0 (`OK`) was applied; any other code means that write —
/// and only that one — was not applied.
public struct BatchWriteResponse: Sendable, Equatable {
  /// The outcome of one write: a gRPC status code (0 = OK) and a message.
  public struct Status: Sendable, Equatable {
    /// The canonical gRPC code number (`0` OK, `6` ALREADY_EXISTS, `10` ABORTED, …).
    public var code: Int
    /// The server's message; empty for OK.
    public var message: String

    /// Creates a status.
    public init(code: Int, message: String = "") {
      self.code = code
      self.message = message
    }

    /// The REST JSON form; OK is `{}`, as the emulator sends it.
    public var json: JSONValue {
      var members: [(String, JSONValue)] = []
      if code != 0 { members.append(("code", .integer(Int64(code)))) }
      if !message.isEmpty { members.append(("message", .string(message))) }
      return .object(members)
    }
  }

  /// One result per write; a failed write's result has no update time.
  public var writeResults: [CommitResponse.WriteResult]
  /// One status per write.
  public var status: [Status]

  /// Creates a reply.
  public init(writeResults: [CommitResponse.WriteResult], status: [Status]) {
    self.writeResults = writeResults
    self.status = status
  }

  /// Reads a reply. Absent members are empty lists (the reply to no writes is `{}`).
  ///
  /// - Throws: `WireFormatError` for a member of the wrong type or a code that is not an integer.
  public init(json: JSONValue) throws {
    try json.requireObject("BatchWriteResponse")
    writeResults = try json.array("writeResults").map { r in
      try r.requireObject("BatchWriteResponse.writeResults[]")
      return CommitResponse.WriteResult(
        updateTime: try r.optionalTimestamp("updateTime"), transformResults: try r.array("transformResults").map(Value.init(json:)))
    }
    status = try json.array("status").map { s in
      try s.requireObject("BatchWriteResponse.status[]")
      let code = try s.optionalInt64("code") ?? 0
      guard let small = Int(exactly: code), (0...16).contains(small) else {
        throw WireFormatError("BatchWriteResponse.status[].code: \(code) is not a gRPC status code (0…16)")
      }
      return Status(code: small, message: try s.optionalString("message") ?? "")
    }
  }

  /// The REST JSON form, as the emulator sends it.
  public var json: JSONValue {
    let results: [JSONValue] = writeResults.map { r in
      var o: [(String, JSONValue)] = []
      o.append("updateTime", r.updateTime.map { .string($0.rfc3339) })
      if !r.transformResults.isEmpty { o.append(("transformResults", .array(r.transformResults.map(\.json)))) }
      return .object(o)
    }
    var members: [(String, JSONValue)] = []
    if !writeResults.isEmpty { members.append(("writeResults", .array(results))) }
    if !status.isEmpty { members.append(("status", .array(status.map(\.json)))) }
    return .object(members)
  }
}
